//! Engines that end with norn, however norn ends.
//!
//! An engine runs in a process group of its own, which norn kills when it
//! stops the engine or is interrupted. A norn killed outright (SIGKILL, or
//! a crash) kills nothing, so on Linux every engine also has a guard: the
//! process norn starts is a watcher that leads the engine's group and runs
//! the engine as its child. The kernel sends the watcher a signal when norn
//! dies (`PR_SET_PDEATHSIG`), and the watcher then kills the whole group:
//! the engine and every process it started. The engine itself gets SIGKILL
//! when the watcher dies. The watcher otherwise waits for the engine and
//! ends as it ended (its exit status, or the same signal), so norn sees the
//! engine's end as before.
//!
//! The parent-death signal comes when the *thread* that started the
//! process ends, not the process: engines are started by one thread that
//! lives as long as norn does.
//!
//! What still escapes: a process of the engine that leaves the group
//! (`setsid()` or `setpgid()`, as daemons do when they double-fork) is
//! reached by none of these kills.

use std::io;
use std::process::{Child, Command};

/// Starts `command` with a guard that kills its process group when norn
/// dies (Linux; elsewhere it is started as it is). The command must put
/// the child in a process group of its own.
///
/// # Errors
/// If the program cannot be started.
pub(super) fn spawn_guarded(command: Command) -> io::Result<Child> {
    #[cfg(target_os = "linux")]
    {
        linux::spawn(command)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let mut command = command;
        command.spawn()
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io;
    use std::os::unix::process::CommandExt;
    use std::process::{Child, Command};
    use std::sync::OnceLock;
    use std::sync::mpsc::{self, Sender};

    /// A command to start, and where to send the started child.
    type Request = (Command, Sender<io::Result<Child>>);

    /// The thread that starts every engine: it never ends before norn
    /// does, so the parent-death signal comes only when norn dies.
    static SPAWNER: OnceLock<Option<Sender<Request>>> = OnceLock::new();

    /// The signal the kernel sends the watcher when norn dies. The watcher
    /// blocks it and waits for it; no engine sees it.
    const PARENT_DIED: libc::c_int = libc::SIGUSR1;

    pub(super) fn spawn(mut command: Command) -> io::Result<Child> {
        // SAFETY: getpid has no preconditions.
        let norn = unsafe { libc::getpid() };
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only async-signal-safe functions (no allocation, no locks).
        unsafe {
            command.pre_exec(move || guard(norn));
        }
        let spawner = SPAWNER.get_or_init(|| {
            let (requests, received) = mpsc::channel::<Request>();
            std::thread::Builder::new()
                .name("engine-spawner".into())
                .spawn(move || {
                    for (mut command, reply) in received {
                        let _ = reply.send(command.spawn());
                    }
                })
                .ok()
                .map(|_| requests)
        });
        let Some(spawner) = spawner else {
            return Err(io::Error::other(
                "the thread that starts engines could not be started",
            ));
        };
        let (reply, started) = mpsc::channel();
        spawner
            .send((command, reply))
            .map_err(|_| io::Error::other("the thread that starts engines has ended"))?;
        started
            .recv()
            .map_err(|_| io::Error::other("the thread that starts engines has ended"))?
    }

    /// The error of the last system call.
    fn last_error() -> io::Error {
        io::Error::last_os_error()
    }

    /// Runs in the child norn started (`norn` is norn's process id), the
    /// leader of the engine's process group: forks the engine, which
    /// returns to be executed, and becomes its watcher, which never
    /// returns.
    ///
    /// Only async-signal-safe calls: the child of a threaded process may
    /// not allocate or take a lock between fork and exec.
    fn guard(norn: libc::pid_t) -> io::Result<()> {
        // SAFETY: every call below is a plain system call on values that
        // live on this stack; `previous` and `watched` are initialised by
        // sigemptyset/sigprocmask before they are read.
        unsafe {
            let mut watched: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut watched);
            libc::sigaddset(&mut watched, libc::SIGCHLD);
            libc::sigaddset(&mut watched, PARENT_DIED);
            let mut previous: libc::sigset_t = std::mem::zeroed();
            if libc::sigprocmask(libc::SIG_BLOCK, &watched, &mut previous) != 0 {
                return Err(last_error());
            }
            if libc::prctl(libc::PR_SET_PDEATHSIG, PARENT_DIED) != 0 {
                return Err(last_error());
            }
            // norn may have died before the signal was asked for.
            if libc::getppid() != norn {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            let watcher = libc::getpid();
            let engine = libc::fork();
            if engine < 0 {
                return Err(last_error());
            }
            if engine == 0 {
                // The engine: the signals as norn left them, and SIGKILL
                // when its watcher dies (checked as above).
                if libc::sigprocmask(libc::SIG_SETMASK, &previous, std::ptr::null_mut()) != 0
                    || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0
                {
                    return Err(last_error());
                }
                if libc::getppid() != watcher {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                return Ok(());
            }
            watch(engine, &watched)
        }
    }

    /// The watcher: holds none of norn's files (the engine's pipes must
    /// close when the engine's ends close), waits for the engine to end or
    /// norn to die, and ends as the engine did or kills the whole group.
    ///
    /// # Safety
    /// Only in the child of a fork, which it ends.
    unsafe fn watch(engine: libc::pid_t, watched: &libc::sigset_t) -> ! {
        // SAFETY: plain system calls on values on this stack.
        unsafe {
            close_every_file();
            // Re-raising a signal that dumps core would write norn's
            // memory, which the watcher shares, to a core file.
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            loop {
                let mut status = 0;
                if libc::waitpid(engine, &mut status, libc::WNOHANG) == engine {
                    end_as(status);
                }
                let mut info: libc::siginfo_t = std::mem::zeroed();
                if libc::sigwaitinfo(watched, &mut info) == PARENT_DIED {
                    // The whole group: the engine, what it started, and
                    // the watcher itself.
                    libc::kill(0, libc::SIGKILL);
                    libc::_exit(137);
                }
            }
        }
    }

    /// Closes every file descriptor of the process.
    ///
    /// # Safety
    /// Only where nothing will use a descriptor again.
    unsafe fn close_every_file() {
        // SAFETY: closing descriptors has no memory effects.
        unsafe {
            if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0) == 0 {
                return;
            }
            // Kernels before 5.9: each descriptor up to the limit.
            let mut limit: libc::rlimit = std::mem::zeroed();
            let highest = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
                limit.rlim_cur.min(65_536) as libc::c_int
            } else {
                1024
            };
            for descriptor in 0..highest {
                libc::close(descriptor);
            }
        }
    }

    /// Ends the watcher as the engine ended (`status` from waitpid): with
    /// its exit status, or killed by the same signal.
    ///
    /// # Safety
    /// Only in the watcher.
    unsafe fn end_as(status: libc::c_int) -> ! {
        // SAFETY: plain system calls on values on this stack.
        unsafe {
            if libc::WIFSIGNALED(status) {
                let signal = libc::WTERMSIG(status);
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(signal, &default, std::ptr::null_mut());
                let mut only: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut only);
                libc::sigaddset(&mut only, signal);
                libc::sigprocmask(libc::SIG_UNBLOCK, &only, std::ptr::null_mut());
                libc::kill(libc::getpid(), signal);
                // A signal whose default is not to end the process.
                libc::_exit(128 + signal);
            }
            libc::_exit(libc::WEXITSTATUS(status))
        }
    }
}
