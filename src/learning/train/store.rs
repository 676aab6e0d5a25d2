//! A training run's directory: `config.json` (what the run is and the
//! build that started it), `checkpoints/N/` (the network and its
//! optimizer after generation N, with a JSON record), `samples/gen-N/`
//! (generation N's self-play shards) and `losses.jsonl` (one line per
//! training step). Everything a generation writes becomes part of the run
//! only when its checkpoint is renamed into place, so a run killed at any
//! moment resumes from its last checkpoint, losing at most the generation
//! under way.

use super::TrainRun;
use crate::arena::{Build, CONFIG_FILE, LogReader, RunDirectory, RunKind};
use crate::net::{Losses, NetError, Trainer};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The directory of the checkpoints.
pub const CHECKPOINTS: &str = "checkpoints";
/// The directory of the self-play samples.
pub const SAMPLES: &str = "samples";
/// The log of the training steps' losses.
pub const LOSSES: &str = "losses.jsonl";
/// A checkpoint's network and optimizer (safetensors, which
/// [`crate::net::Network::load`] reads as the network).
pub const NETWORK_FILE: &str = "network.safetensors";
/// A checkpoint's record.
pub const CHECKPOINT_FILE: &str = "checkpoint.json";
/// The most generations a run may have: far beyond any run, and far
/// from the overflow of the counts that follow a checkpoint's number.
pub const MAX_GENERATION: u64 = 1_000_000_000;
/// What a directory being written is named until it is complete.
const PARTIAL: &str = ".partial";

/// What a checkpoint records beside its network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointRecord {
    /// The generations trained (0: the network before any training).
    pub generation: u64,
    /// Training steps taken in all.
    pub steps: u64,
    /// Self-play games played in all.
    pub games: u64,
    /// Self-play samples made in all.
    pub samples: u64,
    /// Samples in the replay buffer when the generation trained.
    pub buffer: u64,
    /// The mean losses of the generation's steps (none for generation 0).
    pub losses: Option<MeanLosses>,
    /// Seconds of work of every session, to the end of this generation.
    pub seconds: f64,
    /// The SHA-256 digest of the network file.
    pub sha256: String,
}

/// Losses averaged over a generation's steps.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeanLosses {
    /// The policy's cross-entropy.
    pub policy: f64,
    /// The values' squared error.
    pub value: f64,
    /// The weighted sum the steps descend.
    pub total: f64,
}

/// One training step in `losses.jsonl`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LossLine {
    generation: u64,
    /// The step's number in the run, from 1.
    step: u64,
    policy: f64,
    value: f64,
    total: f64,
    gradient_norm: f64,
}

/// A training run's directory, held for writing.
pub(super) struct TrainDirectory {
    _held: RunDirectory,
    path: PathBuf,
    losses: BufWriter<File>,
}

impl TrainDirectory {
    /// Opens `dir` for `run`: starts it there, or resumes the same run
    /// (refused if it is another run, or another build's unless
    /// `force_resume`). Removes what a killed session left unfinished:
    /// partial checkpoints, the losses and samples of generations after
    /// the last checkpoint (the samples of the next generation are kept
    /// when complete: self-play would make them again bit for bit).
    /// Returns the directory and its last checkpoint, if any.
    ///
    /// # Errors
    /// A directory that cannot be used, holds another run, or holds files
    /// that are not this run's.
    pub fn open(
        dir: &Path,
        run: &TrainRun,
        force_resume: bool,
    ) -> Result<(TrainDirectory, Option<u64>), String> {
        let (held, existing) = RunDirectory::open(dir, RunKind::Train)?;
        let config_path = dir.join(CONFIG_FILE);
        match existing {
            Some(text) => {
                let stored: TrainRun = serde_json::from_str(&text).map_err(|error| {
                    format!(
                        "{}: not a training run's configuration: {error}",
                        config_path.display()
                    )
                })?;
                if let Some(field) = stored.difference(run) {
                    return Err(format!(
                        "{} holds a different training run (another {field}); \
                         use another --out directory",
                        dir.display()
                    ));
                }
                if !force_resume {
                    Build::check_current(
                        stored.provenance.build.as_ref(),
                        &format!("the checkpoints in {}", dir.display()),
                        "--force-resume goes on with this build knowingly",
                    )?;
                }
            }
            None => {
                let text = serde_json::to_string_pretty(run).map_err(|error| error.to_string())?;
                write_atomically(&config_path, (text + "\n").as_bytes())?;
            }
        }
        for sub in [CHECKPOINTS, SAMPLES] {
            let path = dir.join(sub);
            std::fs::create_dir_all(&path)
                .map_err(|error| format!("cannot create {}: {error}", path.display()))?;
        }
        let latest = clear_unfinished(dir)?;
        let losses = open_losses(&dir.join(LOSSES), latest.unwrap_or(0))?;
        Ok((
            TrainDirectory {
                _held: held,
                path: dir.to_path_buf(),
                losses,
            },
            latest,
        ))
    }

    /// The directory of generation `generation`'s self-play samples.
    pub fn samples(&self, generation: u64) -> PathBuf {
        self.path.join(SAMPLES).join(generation_name(generation))
    }

    /// The directory of checkpoint `generation`.
    pub fn checkpoint(&self, generation: u64) -> PathBuf {
        self.path.join(CHECKPOINTS).join(generation.to_string())
    }

    /// Logs one training step's losses.
    pub fn log_step(&mut self, generation: u64, step: u64, losses: &Losses) -> Result<(), String> {
        let line = LossLine {
            generation,
            step,
            policy: losses.policy,
            value: losses.value,
            total: losses.total,
            gradient_norm: losses.gradient_norm,
        };
        let text = serde_json::to_string(&line).map_err(|error| error.to_string())?;
        writeln!(self.losses, "{text}")
            .and_then(|()| self.losses.flush())
            .map_err(|error| format!("cannot write {}: {error}", self.path.join(LOSSES).display()))
    }

    /// Writes checkpoint `record.generation`: the trainer's network and
    /// optimizer and the record (its digest filled in), in a partial
    /// directory renamed into place once both are written.
    pub fn save_checkpoint(
        &self,
        trainer: &Trainer,
        mut record: CheckpointRecord,
    ) -> Result<CheckpointRecord, String> {
        let path = self.checkpoint(record.generation);
        let partial = partial_path(&path);
        remove_dir(&partial)?;
        std::fs::create_dir_all(&partial)
            .map_err(|error| format!("cannot create {}: {error}", partial.display()))?;
        let network = partial.join(NETWORK_FILE);
        trainer.save(&network).map_err(|error| error.to_string())?;
        let bytes = std::fs::read(&network)
            .map_err(|error| format!("cannot read {}: {error}", network.display()))?;
        record.sha256 = crate::core::sha256_hex(&bytes);
        let text = serde_json::to_string_pretty(&record).map_err(|error| error.to_string())?;
        write_atomically(&partial.join(CHECKPOINT_FILE), (text + "\n").as_bytes())?;
        std::fs::rename(&partial, &path)
            .map_err(|error| format!("cannot rename {}: {error}", partial.display()))?;
        Ok(record)
    }

    /// Reads checkpoint `generation`'s record.
    pub fn read_record(&self, generation: u64) -> Result<CheckpointRecord, String> {
        read_record(&self.path, generation)
    }

    /// Reads checkpoint `generation`: its record and its trainer, the
    /// network file checked against the record's digest.
    pub fn load_checkpoint(&self, generation: u64) -> Result<(CheckpointRecord, Trainer), String> {
        let path = self.checkpoint(generation);
        let record = self.read_record(generation)?;
        let network = path.join(NETWORK_FILE);
        let bytes = crate::net::read_network_file(&network).map_err(|error| error.to_string())?;
        if crate::core::sha256_hex(&bytes) != record.sha256 {
            return Err(format!(
                "{} is not the file its checkpoint recorded (its SHA-256 digest differs)",
                network.display()
            ));
        }
        let trainer = Trainer::load(&network).map_err(|error: NetError| error.to_string())?;
        Ok((record, trainer))
    }

    /// Removes the samples of the generations before `oldest`, which the
    /// replay buffer no longer holds.
    pub fn drop_samples_before(&self, oldest: u64) -> Result<(), String> {
        for (generation, path) in generation_dirs(&self.path.join(SAMPLES))? {
            if generation < oldest {
                remove_dir(&path)?;
            }
        }
        Ok(())
    }
}

/// Reads the record of checkpoint `generation` of the run in `dir`.
///
/// # Errors
/// A record that cannot be read, or that is another generation's.
pub(super) fn read_record(dir: &Path, generation: u64) -> Result<CheckpointRecord, String> {
    let record_path = dir
        .join(CHECKPOINTS)
        .join(generation.to_string())
        .join(CHECKPOINT_FILE);
    let text = std::fs::read_to_string(&record_path)
        .map_err(|error| format!("cannot read {}: {error}", record_path.display()))?;
    let record: CheckpointRecord = serde_json::from_str(&text).map_err(|error| {
        format!(
            "{} is not a checkpoint's record: {error}",
            record_path.display()
        )
    })?;
    if record.generation != generation {
        return Err(format!(
            "{} is the record of generation {}, not {generation}",
            record_path.display(),
            record.generation
        ));
    }
    Ok(record)
}

/// The records of every checkpoint of the run in `dir`, in order (the run
/// need not be held).
pub(super) fn read_records(dir: &Path) -> Result<Vec<CheckpointRecord>, String> {
    let checkpoints = dir.join(CHECKPOINTS);
    let entries = std::fs::read_dir(&checkpoints)
        .map_err(|error| format!("cannot read {}: {error}", checkpoints.display()))?;
    let mut generations = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|error| format!("cannot read {}: {error}", checkpoints.display()))?;
        generations.extend(entry.file_name().to_str().and_then(checkpoint_number));
    }
    generations.sort_unstable();
    generations
        .into_iter()
        .map(|generation| read_record(dir, generation))
        .collect()
}

/// `gen-00012`: a generation's directory of samples.
pub(super) fn generation_name(generation: u64) -> String {
    format!("gen-{generation:05}")
}

/// The generation a directory of samples is named for.
fn generation_of(name: &str) -> Option<u64> {
    let digits = name.strip_prefix("gen-")?;
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The generations' sample directories in `samples`, with their paths.
fn generation_dirs(samples: &Path) -> Result<Vec<(u64, PathBuf)>, String> {
    let entries = std::fs::read_dir(samples)
        .map_err(|error| format!("cannot read {}: {error}", samples.display()))?;
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|error| format!("cannot read {}: {error}", samples.display()))?;
        if let Some(generation) = entry.file_name().to_str().and_then(generation_of) {
            found.push((generation, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}

/// `path` with `.partial` added to its name.
fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(PARTIAL);
    path.with_file_name(name)
}

/// Removes a directory and everything in it, if it exists.
pub(super) fn remove_dir(path: &Path) -> Result<(), String> {
    match std::fs::remove_dir_all(path) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(format!("cannot remove {}: {error}", path.display())),
    }
}

/// Writes `bytes` to `path` through a temporary file renamed into place,
/// so that the file is whole or absent.
pub(super) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let temporary = partial_path(path);
    std::fs::write(&temporary, bytes)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// The network file `path` names for an agent: a training run's directory
/// names its newest checkpoint's network, a checkpoint's directory
/// (`DIR/checkpoints/N`) its network, and any other path the file itself.
/// The run is read, not held: a run training on may add checkpoints, and
/// the one named stays whole (a checkpoint appears only complete).
///
/// # Errors
/// A directory that is neither a run's nor a checkpoint's, or a run
/// without a checkpoint yet.
pub fn network_file(path: &Path) -> Result<PathBuf, String> {
    if !path.is_dir() {
        return Ok(path.to_path_buf());
    }
    let in_checkpoint = path.join(NETWORK_FILE);
    if in_checkpoint.is_file() {
        return Ok(in_checkpoint);
    }
    let checkpoints = path.join(CHECKPOINTS);
    if !checkpoints.is_dir() {
        return Err(format!(
            "{} is a directory, neither a training run's nor one of its checkpoints",
            path.display()
        ));
    }
    let newest = newest_checkpoint(path)?
        .ok_or_else(|| format!("the training run {} has no checkpoint yet", path.display()))?;
    Ok(checkpoints.join(newest.to_string()).join(NETWORK_FILE))
}

/// The newest checkpoint of the run in `dir`, if it has one (a checkpoint
/// appears only complete, so one that is there reads whole).
///
/// # Errors
/// A directory of checkpoints that cannot be read.
pub(super) fn newest_checkpoint(dir: &Path) -> Result<Option<u64>, String> {
    let checkpoints = dir.join(CHECKPOINTS);
    let entries = match std::fs::read_dir(&checkpoints) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("cannot read {}: {error}", checkpoints.display())),
    };
    let mut newest: Option<u64> = None;
    for entry in entries {
        let entry =
            entry.map_err(|error| format!("cannot read {}: {error}", checkpoints.display()))?;
        if let Some(generation) = entry.file_name().to_str().and_then(checkpoint_number) {
            newest = newest.max(Some(generation));
        }
    }
    Ok(newest)
}

/// The generation of a checkpoint's directory named `name`: its digits
/// alone, written as the run writes them.
fn checkpoint_number(name: &str) -> Option<u64> {
    name.parse::<u64>()
        .ok()
        .filter(|generation| generation.to_string() == name)
}

/// Removes the partial checkpoints and the samples of generations after
/// the next; returns the last checkpoint.
fn clear_unfinished(dir: &Path) -> Result<Option<u64>, String> {
    let checkpoints = dir.join(CHECKPOINTS);
    let entries = std::fs::read_dir(&checkpoints)
        .map_err(|error| format!("cannot read {}: {error}", checkpoints.display()))?;
    let mut latest: Option<u64> = None;
    for entry in entries {
        let entry =
            entry.map_err(|error| format!("cannot read {}: {error}", checkpoints.display()))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.ends_with(PARTIAL) {
            remove_dir(&entry.path())?;
        } else if let Some(generation) = checkpoint_number(name) {
            if generation > MAX_GENERATION {
                return Err(format!(
                    "{}: a checkpoint of generation {generation}, beyond the {MAX_GENERATION} \
                     a run may have",
                    checkpoints.display()
                ));
            }
            latest = latest.max(Some(generation));
        }
    }
    let next = latest.map_or(0, |latest| latest + 1);
    for (generation, path) in generation_dirs(&dir.join(SAMPLES))? {
        if generation > next {
            remove_dir(&path)?;
        }
    }
    Ok(latest)
}

/// Opens the losses log for appending, once the lines of generations
/// after `latest` (written by a session killed before their checkpoint)
/// and a line cut short are dropped.
fn open_losses(path: &Path, latest: u64) -> Result<BufWriter<File>, String> {
    let unreadable = |error: std::io::Error| format!("{}: {error}", path.display());
    let mut log = LogReader::open(path).map_err(unreadable)?;
    let mut kept = Vec::new();
    let mut dropped = false;
    while let Some(read) = log.next_line().map_err(unreadable)? {
        let line = read.text().and_then(|text| {
            serde_json::from_str::<LossLine>(text)
                .map_err(|error| format!("not a training step's losses: {error}"))
        });
        match line {
            Ok(line) if line.generation <= latest => {
                kept.extend_from_slice(&read.raw);
                kept.push(b'\n');
            }
            Ok(_) => dropped = true,
            Err(problem) => {
                return Err(format!(
                    "{}: line {}: {problem}; remove that line or use another --out directory",
                    path.display(),
                    read.number
                ));
            }
        }
    }
    dropped |= log.torn();
    if dropped {
        write_atomically(path, &kept)?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
    Ok(BufWriter::new(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_digits_after_gen_name_a_generation() {
        assert_eq!(generation_of(&generation_name(12)), Some(12));
        for name in ["gen-", "gen-+1", "gen-1a", "gen-1.partial", "gen1", "x-1"] {
            assert_eq!(generation_of(name), None, "{name}");
        }
    }
}
