//! Outside programs run as norn agents, whatever protocol they speak: each
//! runs in a process group of its own, which is killed as a whole when it
//! is stopped, by [`stop_all_engines`] (on Ctrl-C, SIGTERM and SIGHUP),
//! and on Linux by its guard when norn dies (`guard`); its input is written
//! by a thread that cannot be killed by SIGPIPE, its output read in lines of
//! at most [`MAX_LINE_BYTES`], and its last lines on standard error kept for
//! the error that reports its end.

use super::guard::spawn_guarded;
use super::{LineLength, Overlong, read_line};
use crate::core::escape_control;
use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many of the engine's last lines on standard error an error quotes.
const STDERR_LINES_KEPT: usize = 5;

/// The most characters of one standard error line an error quotes.
const STDERR_CHARACTERS_SHOWN: usize = 200;

/// How long an engine that was told `quit`, or whose output closed, is given
/// to exit by itself before it is killed.
pub(crate) const EXIT_GRACE: Duration = Duration::from_millis(200);

/// The process groups of the engines running now, for [`stop_all_engines`].
static RUNNING_GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Kills every outside engine this process runs, with all the processes
/// each started: on Ctrl-C, so that none is left running. The agents then
/// fail their next command.
pub fn stop_all_engines() {
    let groups = RUNNING_GROUPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for &group in groups.iter() {
        kill_group(group);
    }
}

/// Kills process group `group` (an engine and every process it started).
fn kill_group(group: u32) {
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(group) {
        // SAFETY: kill has no memory effects; a group that no longer exists
        // makes it fail with ESRCH, which is ignored.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = group;
}

/// What the threads that read and write the engine's pipes report.
pub(crate) enum Event {
    /// A line of the engine's output, without its line break.
    Line(Vec<u8>),
    /// A line longer than [`MAX_LINE_BYTES`]: the output is read no further.
    TooLong,
    /// The engine's output ended.
    Closed,
    ReadFailed(std::io::Error),
    WriteFailed,
}

/// A running engine: its process and the threads on its pipes.
pub(crate) struct EngineProcess {
    child: Child,
    /// The engine's process group (its own process id).
    group: u32,
    /// Lines for the engine's standard input, written by a thread that
    /// cannot be killed by SIGPIPE (`None` once closed).
    pub(crate) input: Option<Sender<String>>,
    /// The engine's output lines and the pipes' failures.
    pub(crate) events: Receiver<Event>,
    /// The engine's last lines on standard error.
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Closed when standard error has been read to its end.
    stderr_done: Receiver<()>,
    /// Whether the process has been waited for (and its group killed).
    pub(crate) reaped: bool,
}

impl EngineProcess {
    pub(crate) fn start(command_line: &str) -> Result<EngineProcess, String> {
        let mut words = command_line.split_whitespace();
        let program = words.next().ok_or("the engine's command is empty")?;
        let mut command = Command::new(program);
        command
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child =
            spawn_guarded(command).map_err(|error| format!("cannot start `{program}`: {error}"))?;
        let group = child.id();
        RUNNING_GROUPS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(group);
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr = child.stderr.take().expect("stderr was piped");
        let (event_sender, events) = mpsc::channel();
        let (input, lines) = mpsc::channel();
        let write_events = event_sender.clone();
        std::thread::spawn(move || write_lines(stdin, &lines, &write_events));
        std::thread::spawn(move || read_output(stdout, &event_sender));
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let (done, stderr_done) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            keep_stderr_tail(stderr, &tail);
            drop(done);
        });
        Ok(EngineProcess {
            child,
            group,
            input: Some(input),
            events,
            stderr_tail,
            stderr_done,
            reaped: false,
        })
    }

    /// Whether the engine has exited, without waiting for it: a process
    /// that is not yet waited for keeps its group's id from being reused,
    /// so that the group can still be killed.
    fn has_exited(&self) -> bool {
        #[cfg(unix)]
        {
            let pid = libc::id_t::from(self.group);
            // SAFETY: `info` is a valid siginfo_t to write to; WNOWAIT
            // leaves the process to be waited for by `Child::wait`.
            unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let found = libc::waitid(
                    libc::P_PID,
                    pid,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                );
                found != 0 || info.si_pid() != 0
            }
        }
        #[cfg(not(unix))]
        {
            false
        }
    }

    /// Waits up to `grace` for the engine to exit by itself.
    pub(crate) fn await_exit(&self, grace: Duration) -> bool {
        let deadline = Instant::now() + grace;
        loop {
            if self.has_exited() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Kills the engine's whole process group and waits for the engine;
    /// its exit status.
    pub(crate) fn stop(&mut self) -> Option<ExitStatus> {
        self.input = None;
        if !self.reaped {
            kill_group(self.group);
            #[cfg(not(unix))]
            let _ = self.child.kill();
            self.reaped = true;
            RUNNING_GROUPS
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .retain(|&group| group != self.group);
        }
        self.child.wait().ok()
    }

    /// The engine's last lines on standard error, as a clause of a message
    /// (empty if it wrote none).
    pub(crate) fn stderr_clause(&self) -> String {
        // What the engine wrote just before it stopped may still be in the pipe.
        let _ = self.stderr_done.recv_timeout(EXIT_GRACE);
        let tail = self
            .stderr_tail
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if tail.is_empty() {
            return String::new();
        }
        let lines: Vec<String> = tail.iter().map(|line| format!("`{line}`")).collect();
        format!("; its last lines on stderr: {}", lines.join(" | "))
    }
}

/// Writes each line it is sent to the engine's standard input, until the
/// sender is dropped or a write fails.
fn write_lines(mut stdin: impl Write, lines: &Receiver<String>, events: &Sender<Event>) {
    // A write to a pipe whose reader has exited raises SIGPIPE in the
    // writing thread, and SIGPIPE ends the process (norn restores its
    // default so that `norn ... | head` ends quietly). Blocked in this
    // thread alone, it is never delivered: the write fails with EPIPE.
    #[cfg(unix)]
    // SAFETY: the sets are valid sigset_t values initialised by sigemptyset,
    // and the mask changed is this thread's own.
    unsafe {
        let mut blocked: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut blocked);
        libc::sigaddset(&mut blocked, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &blocked, std::ptr::null_mut());
    }
    for line in lines {
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if written.is_err() {
            let _ = events.send(Event::WriteFailed);
            return;
        }
    }
}

/// Sends each line of the engine's output, reading at most
/// [`MAX_LINE_BYTES`] of one line, until the output ends or fails.
fn read_output(stdout: impl Read, events: &Sender<Event>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        let (event, last) = match read_line(&mut reader, &mut line, Overlong::Stop) {
            Ok(Some(LineLength::Fits)) => (Event::Line(std::mem::take(&mut line)), false),
            Ok(Some(LineLength::TooLong)) => (Event::TooLong, true),
            Ok(None) => (Event::Closed, true),
            Err(error) => (Event::ReadFailed(error), true),
        };
        if events.send(event).is_err() || last {
            return;
        }
    }
}

/// Keeps the last [`STDERR_LINES_KEPT`] lines of the engine's standard
/// error, each cut to [`STDERR_CHARACTERS_SHOWN`] characters, until it ends.
fn keep_stderr_tail(stderr: impl Read, tail: &Mutex<VecDeque<String>>) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    while let Ok(Some(_)) = read_line(&mut reader, &mut line, Overlong::Skip) {
        let text = escape_control(&String::from_utf8_lossy(&line));
        let shown: String = text.chars().take(STDERR_CHARACTERS_SHOWN).collect();
        let mut tail = tail.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if tail.len() == STDERR_LINES_KEPT {
            tail.pop_front();
        }
        tail.push_back(shown);
    }
}
