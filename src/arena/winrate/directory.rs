//! Win-rate runs and sweeps kept in a run directory (`norn winrate --out
//! DIR`), with the tournament's guarantees: the directory is locked,
//! `config.json` records the run and the build that started it, each
//! deal's result goes to `deals.jsonl` as the deal ends, and the same
//! command again resumes the run from its log (refused on another build
//! unless forced).

use super::estimate::DealRecord;
use super::experiment::WinRateReport;
use crate::arena::playing::{
    Build, CONFIG_FILE, LogReader, Provenance, RunDirectory, RunKind, Shard, refuse_input_as_output,
};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const LOG_FILE: &str = "deals.jsonl";

/// The longest a finished deal's result waits in memory before it is
/// written out: deals can take microseconds, and a write per deal would
/// cost more than the deal. A crash loses at most this much play.
const FLUSH_INTERVAL: Duration = Duration::from_millis(100);

/// What defines a win-rate run or sweep, as its `config.json` records it:
/// two runs with equal settings (the threads aside) play the same deals
/// with the same results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WinRateRunConfig {
    /// [`RunKind::WinRate`] or [`RunKind::Sweep`].
    pub run: RunKind,
    /// The game's registry name.
    pub game: String,
    /// The rules options as given (for a sweep, without the swept option).
    pub rules: String,
    /// A sweep's option and its values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<(String, Vec<u64>)>,
    /// The master seed the deals are dealt from.
    pub seed: u64,
    /// The deals of the whole run (all shards).
    pub deals: u64,
    /// The deal every game is played on, when one is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<String>,
    /// The policies' specs as given, in order.
    pub policies: Vec<String>,
    /// The part of the deals this directory's run plays.
    pub shard: Shard,
    /// The build that started the run, the policies' full configurations
    /// and the rules in force.
    #[serde(flatten)]
    pub provenance: Provenance,
}

impl WinRateRunConfig {
    /// The first setting in which `other` is another run, if any.
    fn difference(&self, other: &WinRateRunConfig) -> Option<&'static str> {
        let fields = [
            (self.run != other.run, "kind of run"),
            (self.game != other.game, "game"),
            (self.rules != other.rules, "rules"),
            (self.sweep != other.sweep, "sweep"),
            (self.seed != other.seed, "seed"),
            (self.deals != other.deals, "number of deals"),
            (self.deal != other.deal, "given deal"),
            (self.policies != other.policies, "policies"),
            (self.shard != other.shard, "shard"),
        ];
        fields
            .into_iter()
            .find(|(differs, _)| *differs)
            .map(|(_, field)| field)
    }
}

/// One finished deal in `deals.jsonl`.
#[derive(Serialize, Deserialize)]
struct DealLine {
    /// The sweep's value of the option (absent outside sweeps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    value: Option<u64>,
    /// The policy's place in the run's list.
    policy: usize,
    deal: u64,
    won: bool,
    /// When the deal ended, in the policy's time at this value.
    seconds: f64,
}

/// Which policy at which value of a sweep.
type Point = (Option<u64>, usize);

/// A run directory held for a win-rate run or sweep, with its log.
pub struct WinRateDirectory {
    _directory: RunDirectory,
    /// The run as `config.json` records it (the provenance of the build
    /// that started it).
    pub config: WinRateRunConfig,
    /// Deals read back from an earlier run.
    pub resumed: usize,
    log: DealLog,
}

struct DealLog {
    path: PathBuf,
    writer: Mutex<(BufWriter<File>, Instant)>,
    known: HashMap<Point, HashMap<u64, bool>>,
    seconds: HashMap<Point, f64>,
}

impl WinRateDirectory {
    /// Opens `dir` for the run `config` ([`RunDirectory::open`]): starts the
    /// run there, or resumes the same run, reading back its log (a last
    /// line cut short by a crash is dropped and its deal played again).
    ///
    /// # Errors
    /// If the directory is refused, holds another run, holds a run of
    /// another build (unless `force_resume`), or its log holds a line that
    /// is not one of this run's deals.
    pub fn open(
        dir: &Path,
        config: &WinRateRunConfig,
        force_resume: bool,
    ) -> Result<WinRateDirectory, String> {
        let (directory, existing) = RunDirectory::open(dir, config.run)?;
        let config_path = dir.join(CONFIG_FILE);
        let stored = match existing {
            Some(text) => {
                let held: WinRateRunConfig = serde_json::from_str(&text).map_err(|error| {
                    format!(
                        "{}: not a win-rate run's configuration: {error}",
                        config_path.display()
                    )
                })?;
                if let Some(field) = held.difference(config) {
                    return Err(format!(
                        "{} holds a different win-rate run (another {field}); use another --out directory",
                        dir.display()
                    ));
                }
                if !force_resume {
                    Build::check_current(
                        held.provenance.build.as_ref(),
                        &format!("the deals in {}", dir.display()),
                        "--force-resume goes on with this build knowingly",
                    )?;
                }
                held
            }
            None => {
                let text = serde_json::to_string_pretty(config).expect("configs serialise");
                std::fs::write(&config_path, text + "\n")
                    .map_err(|error| format!("cannot write {}: {error}", config_path.display()))?;
                config.clone()
            }
        };
        let log = DealLog::open(&dir.join(LOG_FILE), &stored)?;
        let resumed = log.known.values().map(HashMap::len).sum();
        Ok(WinRateDirectory {
            _directory: directory,
            config: stored,
            resumed,
            log,
        })
    }

    /// The record of `policy` (its place in the run's list) at `value` of
    /// a sweep (`None` outside sweeps).
    pub fn record(&self, value: Option<u64>, policy: usize) -> impl DealRecord + '_ {
        PolicyRecord {
            log: &self.log,
            point: (value, policy),
        }
    }

    /// Writes out the results still held in memory.
    ///
    /// # Errors
    /// If the log cannot be written.
    pub fn flush(&self) -> Result<(), String> {
        let mut writer = self.log.writer.lock().expect("no thread panicked");
        writer
            .0
            .flush()
            .map_err(|error| format!("cannot write {}: {error}", self.log.path.display()))
    }
}

/// The deals of a run's log: per point, whether each deal was won, and
/// the policy's time when its last deal ended.
struct LoggedDeals {
    known: HashMap<Point, HashMap<u64, bool>>,
    seconds: HashMap<Point, f64>,
}

impl LoggedDeals {
    /// Reads the log at `path` of the run `config` (an absent log is
    /// empty); returns with the deals the length of its whole lines when
    /// its last line was cut short.
    fn read(path: &Path, config: &WinRateRunConfig) -> Result<(LoggedDeals, Option<u64>), String> {
        let unreadable = |error: std::io::Error| format!("{}: {error}", path.display());
        let mut log = LogReader::open(path).map_err(unreadable)?;
        let mut known: HashMap<Point, HashMap<u64, bool>> = HashMap::new();
        let mut seconds: HashMap<Point, f64> = HashMap::new();
        let values: Option<HashSet<u64>> = config
            .sweep
            .as_ref()
            .map(|(_, values)| values.iter().copied().collect());
        while let Some(read) = log.next_line().map_err(unreadable)? {
            let number = read.number;
            let line = read
                .text()
                .and_then(|text| {
                    serde_json::from_str::<DealLine>(text)
                        .map_err(|error| format!("not a deal's result: {error}"))
                })
                .and_then(|line| {
                    check_line(&line, config, values.as_ref())?;
                    Ok(line)
                })
                .and_then(|line| {
                    let point = (line.value, line.policy);
                    if known
                        .entry(point)
                        .or_default()
                        .insert(line.deal, line.won)
                        .is_some()
                    {
                        return Err(format!("deal {} is recorded twice", line.deal));
                    }
                    let time = seconds.entry(point).or_default();
                    *time = time.max(line.seconds);
                    Ok(())
                });
            if let Err(problem) = line {
                return Err(format!(
                    "{}: line {number}: {problem}; remove that line (its deal is played again) \
                     or use another --out directory",
                    path.display()
                ));
            }
        }
        let torn = log.torn().then(|| log.complete_len());
        Ok((LoggedDeals { known, seconds }, torn))
    }
}

impl DealLog {
    fn open(path: &Path, config: &WinRateRunConfig) -> Result<DealLog, String> {
        let unreadable = |error: std::io::Error| format!("{}: {error}", path.display());
        let (LoggedDeals { known, seconds }, torn) = LoggedDeals::read(path, config)?;
        if let Some(complete) = torn {
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(unreadable)?;
            file.set_len(complete).map_err(unreadable)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
        Ok(DealLog {
            path: path.to_path_buf(),
            writer: Mutex::new((BufWriter::new(file), Instant::now())),
            known,
            seconds,
        })
    }
}

/// One policy's deals so far in a run under way.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DealsSoFar {
    /// Whether each deal of its log was won, by deal index.
    pub won: HashMap<u64, bool>,
    /// The policy's time when its last logged deal ended.
    pub seconds: f64,
}

/// A win-rate run or sweep as its directory holds it while it goes on
/// (before its reports are written): its configuration and its log.
pub struct RunUnderWay {
    /// The run as `config.json` records it.
    pub config: WinRateRunConfig,
    deals: LoggedDeals,
}

impl RunUnderWay {
    /// Reads the run in `dir` without taking its lock (the run holds it):
    /// `config.json` and the whole lines of `deals.jsonl`, checked as a
    /// resume checks them.
    ///
    /// # Errors
    /// If `config.json` is absent or is not a win-rate run's, or a line of
    /// the log is not one of the run's deals.
    pub fn read(dir: &Path) -> Result<RunUnderWay, String> {
        let config_path = dir.join(CONFIG_FILE);
        let text = std::fs::read_to_string(&config_path)
            .map_err(|error| format!("cannot read {}: {error}", config_path.display()))?;
        let config: WinRateRunConfig = serde_json::from_str(&text).map_err(|error| {
            format!(
                "{}: not a win-rate run's configuration: {error}",
                config_path.display()
            )
        })?;
        let (deals, _) = LoggedDeals::read(&dir.join(LOG_FILE), &config)?;
        Ok(RunUnderWay { config, deals })
    }

    /// The deals so far of the policy at place `policy` of the run's list,
    /// at `value` of a sweep (`None` outside sweeps).
    pub fn deals_of(&self, value: Option<u64>, policy: usize) -> DealsSoFar {
        let point = (value, policy);
        DealsSoFar {
            won: self.deals.known.get(&point).cloned().unwrap_or_default(),
            seconds: self.deals.seconds.get(&point).copied().unwrap_or(0.0),
        }
    }

    /// How many deals the log holds, and how many the run plays: every
    /// policy's, at every value of a sweep.
    pub fn progress(&self) -> (u64, u64) {
        let logged = self.deals.known.values().map(|won| won.len() as u64).sum();
        let points = self.config.policies.len() as u64
            * self
                .config
                .sweep
                .as_ref()
                .map_or(1, |(_, values)| values.len() as u64);
        (logged, points * self.config.shard.share(self.config.deals))
    }
}

/// Checks that a logged deal is one of the run's: a value of its sweep (or
/// none outside sweeps), one of its policies, one of its shard's deals.
fn check_line(
    line: &DealLine,
    config: &WinRateRunConfig,
    values: Option<&HashSet<u64>>,
) -> Result<(), String> {
    match (line.value, values) {
        (None, None) => {}
        (Some(value), Some(values)) if values.contains(&value) => {}
        (Some(value), _) => return Err(format!("{value} is not a value of the run's sweep")),
        (None, Some(_)) => return Err("the line has no value of the sweep".into()),
    }
    if line.policy >= config.policies.len() {
        return Err(format!(
            "policy {} is not one of the run's {}",
            line.policy,
            config.policies.len()
        ));
    }
    if line.deal >= config.deals || !config.shard.holds(line.deal) {
        return Err(format!(
            "deal {} is not one of shard {} of {} deals",
            line.deal, config.shard, config.deals
        ));
    }
    if !(line.seconds.is_finite() && line.seconds >= 0.0) {
        return Err(format!("{} is not a time in seconds", line.seconds));
    }
    Ok(())
}

struct PolicyRecord<'a> {
    log: &'a DealLog,
    point: Point,
}

impl DealRecord for PolicyRecord<'_> {
    fn recorded(&self, index: u64) -> Option<bool> {
        self.log.known.get(&self.point)?.get(&index).copied()
    }

    fn seconds_before(&self) -> f64 {
        self.log.seconds.get(&self.point).copied().unwrap_or(0.0)
    }

    fn record(&self, index: u64, won: bool, seconds: f64) -> Result<(), String> {
        let line = DealLine {
            value: self.point.0,
            policy: self.point.1,
            deal: index,
            won,
            seconds,
        };
        let text = serde_json::to_string(&line).expect("deal lines serialise");
        let mut writer = self.log.writer.lock().expect("no thread panicked");
        let (file, last_flush) = &mut *writer;
        let written = writeln!(file, "{text}").and_then(|()| {
            if last_flush.elapsed() >= FLUSH_INTERVAL {
                *last_flush = Instant::now();
                file.flush()
            } else {
                Ok(())
            }
        });
        written.map_err(|error| format!("cannot write {}: {error}", self.log.path.display()))
    }
}

/// Opens `out` for the merge of a win-rate run's shards (refusing one of
/// the shards, a directory in use, and one that holds another run) and
/// writes the merged run's `config.json`. The directory stays locked while
/// the returned handle lives.
///
/// # Errors
/// If `out` is refused or cannot be written.
pub fn write_merged_config(
    out: &Path,
    inputs: &[PathBuf],
    report: &WinRateReport,
) -> Result<RunDirectory, String> {
    refuse_input_as_output(inputs, out)?;
    let config = WinRateRunConfig {
        run: RunKind::WinRate,
        game: report.game.to_string(),
        rules: report.rules.clone(),
        sweep: None,
        seed: report.seed,
        deals: report.deals,
        deal: report.deal.clone(),
        policies: report
            .policies
            .iter()
            .map(|policy| policy.rate.policy.clone())
            .collect(),
        shard: Shard::ALL,
        provenance: report.provenance.clone(),
    };
    let (directory, existing) = RunDirectory::open(out, RunKind::WinRate)?;
    let config_path = out.join(CONFIG_FILE);
    if let Some(text) = existing {
        let held = serde_json::from_str::<WinRateRunConfig>(&text).ok();
        if let Some(field) = held.map_or(Some("configuration"), |held| held.difference(&config)) {
            return Err(format!(
                "{} holds a different win-rate run (another {field}); merge into another directory",
                out.display()
            ));
        }
    }
    let text = serde_json::to_string_pretty(&config).expect("configs serialise");
    std::fs::write(&config_path, text + "\n")
        .map_err(|error| format!("cannot write {}: {error}", config_path.display()))?;
    Ok(directory)
}
