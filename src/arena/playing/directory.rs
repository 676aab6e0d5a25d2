//! Run directories: where a tournament, a match, a merge or a win-rate run
//! keeps its `config.json`, its log of finished work and its reports. Every
//! command that writes one opens it through [`RunDirectory::open`], which
//! takes the directory's lock and refuses a directory holding finished work
//! of another kind of run, so that no command overwrites another's results.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// The file that records what a run is (its kind, configuration and
/// provenance).
pub(crate) const CONFIG_FILE: &str = "config.json";
const LOCK_FILE: &str = "run.lock";

/// The logs of finished work: one line per finished game or deal.
const LOG_FILES: [&str; 2] = ["games.jsonl", "deals.jsonl"];

/// Directories whose entries are finished work: a training run's
/// checkpoints.
const WORK_DIRECTORIES: [&str; 1] = ["checkpoints"];

/// Reports written when a run ends: a directory holding one holds finished
/// work even without a log (a win-rate run of an older build).
const REPORT_FILES: [&str; 3] = ["summary.json", "deals.csv", "sweep.json"];

/// What kind of run a directory holds, as the `run` field of its
/// `config.json` records it (absent in tournaments of older builds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunKind {
    /// A tournament, a shard of one or a merge of its shards.
    #[default]
    Tournament,
    /// `norn match`: games until a sequential test decides.
    Match,
    /// `norn winrate`, a shard of one or a merge of its shards.
    WinRate,
    /// `norn winrate --sweep`.
    Sweep,
    /// `norn train`: generations of self-play and training.
    Train,
}

impl RunKind {
    /// Whether `self` is the default, which `config.json` leaves out.
    pub(crate) fn is_tournament(&self) -> bool {
        *self == RunKind::Tournament
    }

    fn described(self) -> &'static str {
        match self {
            RunKind::Tournament => "a tournament",
            RunKind::Match => "a match",
            RunKind::WinRate => "a win-rate run",
            RunKind::Sweep => "a win-rate sweep",
            RunKind::Train => "a training run",
        }
    }
}

/// A run directory held for writing: the lock is released when this is
/// dropped, or by the system when the process ends, however it ends.
pub struct RunDirectory {
    path: PathBuf,
    _lock: File,
}

/// The part of any run's `config.json` that says what kind of run it is.
#[derive(Deserialize)]
struct KindField {
    #[serde(default)]
    run: RunKind,
}

impl RunDirectory {
    /// Creates `dir` if needed and takes its lock for a run of `kind`.
    /// Returns the directory and the text of its `config.json` when it
    /// holds finished work of a run of this kind, which the caller compares
    /// with its own run (resume, or refuse another run). A directory that
    /// holds finished work of another kind of run, or of a run that did not
    /// record its kind, is refused; one without finished work (a run
    /// refused or stopped before its first game or deal ended) is cleared
    /// of that run's files and used afresh.
    ///
    /// # Errors
    /// If the directory cannot be created or locked, another process holds
    /// its lock, or it holds another kind of run.
    pub fn open(dir: &Path, kind: RunKind) -> Result<(RunDirectory, Option<String>), String> {
        std::fs::create_dir_all(dir)
            .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
        let lock_path = dir.join(LOCK_FILE);
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|error| format!("{}: {error}", lock_path.display()))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(format!(
                    "{} is in use by another run; wait for it to end or choose another directory",
                    dir.display()
                ));
            }
            Err(std::fs::TryLockError::Error(error)) => {
                return Err(format!("{}: {error}", lock_path.display()));
            }
        }
        let held = RunDirectory {
            path: dir.to_path_buf(),
            _lock: lock,
        };
        let config_path = dir.join(CONFIG_FILE);
        let config = match std::fs::read_to_string(&config_path) {
            Ok(text) => Some(text),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            // Not UTF-8 text: no configuration this program wrote.
            Err(error) if error.kind() == std::io::ErrorKind::InvalidData => Some(String::new()),
            Err(error) => return Err(format!("{}: {error}", config_path.display())),
        };
        let Some(work) = held.finished_work() else {
            held.clear()?;
            return Ok((held, None));
        };
        let found = config
            .as_deref()
            .map(|text| serde_json::from_str::<KindField>(text).map(|field| field.run));
        match found {
            Some(Ok(found)) if found == kind => Ok((held, config)),
            Some(Ok(found)) => Err(format!(
                "{} holds {} ({work}), not {}; choose another directory",
                dir.display(),
                found.described(),
                kind.described()
            )),
            Some(Err(_)) | None => Err(format!(
                "{} holds {work} but no configuration that says what run it is \
                 (written by an older norn or by hand); choose another directory",
                dir.display()
            )),
        }
    }

    /// The directory's path, as given to [`RunDirectory::open`].
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What finished work the directory holds, if any: a log with a whole
    /// line, a checkpoint, or a report.
    fn finished_work(&self) -> Option<String> {
        for name in LOG_FILES {
            if has_whole_line(&self.path.join(name)) {
                return Some(format!("finished work in {name}"));
            }
        }
        for name in WORK_DIRECTORIES {
            if let Ok(mut entries) = std::fs::read_dir(self.path.join(name))
                && entries.next().is_some()
            {
                return Some(format!("finished work in {name}/"));
            }
        }
        REPORT_FILES
            .iter()
            .find(|name| self.path.join(name).exists())
            .map(|name| format!("the report {name}"))
    }

    /// Removes the configuration and logs of a run that finished nothing.
    fn clear(&self) -> Result<(), String> {
        for name in LOG_FILES.iter().chain([&CONFIG_FILE]) {
            let path = self.path.join(name);
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => return Err(format!("cannot remove {}: {error}", path.display())),
            }
        }
        Ok(())
    }
}

/// Whether the file at `path` holds a whole line (a line break), read no
/// further than the first: a log may be gigabytes.
fn has_whole_line(path: &Path) -> bool {
    let Ok(file) = File::open(path) else {
        return false;
    };
    let mut reader = BufReader::new(file);
    loop {
        match reader.fill_buf() {
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Ok([]) | Err(_) => return false,
            Ok(bytes) if bytes.contains(&b'\n') => return true,
            Ok(bytes) => {
                let read = bytes.len();
                reader.consume(read);
            }
        }
    }
}

/// Refuses an output directory that is one of the inputs of a merge: the
/// merge would overwrite a shard it reads.
///
/// # Errors
/// If `out` is, after resolving links, one of `inputs`.
pub fn refuse_input_as_output(inputs: &[PathBuf], out: &Path) -> Result<(), String> {
    let Ok(out_resolved) = out.canonicalize() else {
        // An output that does not exist yet is no input.
        return Ok(());
    };
    for input in inputs {
        if input
            .canonicalize()
            .is_ok_and(|input| input == out_resolved)
        {
            return Err(format!(
                "the output {} is one of the shards being merged; merge into another directory",
                out.display()
            ));
        }
    }
    Ok(())
}

/// A log read line by line, so that a log of any size takes the memory of
/// one line: each whole line with its number (from 1), where it starts
/// and its bytes; a last line without its line break is a write cut
/// short, which is not returned.
pub(crate) struct LogReader {
    reader: Option<BufReader<File>>,
    number: usize,
    /// The length of the whole lines read so far.
    complete: u64,
    torn: bool,
}

/// The most lines [`LogReader::read_each`] reads at once: enough to keep
/// every thread busy.
const BATCH_LINES: usize = 1024;

/// The most bytes of lines [`LogReader::read_each`] reads at once (the
/// line that passes it included): few enough that a batch of long lines
/// (games of a thousand plies with their search records, several times
/// their text's size once read) takes a few megabytes.
const BATCH_BYTES: usize = 256 << 10;

/// One whole line of a log.
pub(crate) struct LogLine {
    /// The line's number, from 1.
    pub number: usize,
    /// Where the line starts in the file.
    pub offset: u64,
    /// The line's length in the file, its line break included.
    pub length: u64,
    /// The line's bytes without its line break (and a `\r` before it).
    pub raw: Vec<u8>,
}

impl LogLine {
    /// The line's text, or why its bytes are not text.
    pub(crate) fn text(&self) -> Result<&str, String> {
        std::str::from_utf8(&self.raw).map_err(|error| {
            format!(
                "not UTF-8 text (byte {} of the line)",
                error.valid_up_to() + 1
            )
        })
    }
}

impl LogReader {
    /// Opens the log at `path`; an absent log is empty.
    pub(crate) fn open(path: &Path) -> std::io::Result<LogReader> {
        let reader = match File::open(path) {
            Ok(file) => Some(BufReader::with_capacity(1 << 16, file)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => return Err(error),
        };
        Ok(LogReader {
            reader,
            number: 0,
            complete: 0,
            torn: false,
        })
    }

    /// The next whole line; `None` at the end (or at a last line cut
    /// short, which [`LogReader::torn`] then reports).
    pub(crate) fn next_line(&mut self) -> std::io::Result<Option<LogLine>> {
        let Some(reader) = &mut self.reader else {
            return Ok(None);
        };
        let mut raw = Vec::new();
        let read = reader.read_until(b'\n', &mut raw)?;
        if read == 0 {
            return Ok(None);
        }
        if raw.last() != Some(&b'\n') {
            self.torn = true;
            self.reader = None;
            return Ok(None);
        }
        raw.pop();
        if raw.last() == Some(&b'\r') {
            raw.pop();
        }
        self.number += 1;
        let line = LogLine {
            number: self.number,
            offset: self.complete,
            length: read as u64,
            raw,
        };
        self.complete += read as u64;
        Ok(Some(line))
    }

    /// Reads the remaining lines a batch at a time: `read` runs on every
    /// line of a batch at once (on the threads of the rayon pool this is
    /// called in), then `take` on each line with what `read` made of it,
    /// in the log's order; `take` may stop the reading with an error.
    /// `unreadable` says that the log cannot be read.
    pub(crate) fn read_each<T: Send, E>(
        &mut self,
        read: impl Fn(&LogLine) -> T + Sync,
        mut take: impl FnMut(LogLine, T) -> Result<(), E>,
        unreadable: impl Fn(std::io::Error) -> E,
    ) -> Result<(), E> {
        loop {
            let mut batch = Vec::new();
            let mut bytes = 0;
            while batch.len() < BATCH_LINES && bytes < BATCH_BYTES {
                match self.next_line().map_err(&unreadable)? {
                    Some(line) => {
                        bytes += line.raw.len();
                        batch.push(line);
                    }
                    None => break,
                }
            }
            if batch.is_empty() {
                return Ok(());
            }
            let made: Vec<T> = batch.par_iter().map(&read).collect();
            for (line, made) in batch.into_iter().zip(made) {
                take(line, made)?;
            }
        }
    }

    /// Whether the last line has no line break: a write cut short.
    pub(crate) fn torn(&self) -> bool {
        self.torn
    }

    /// The length of the whole lines read, in bytes.
    pub(crate) fn complete_len(&self) -> u64 {
        self.complete
    }
}
