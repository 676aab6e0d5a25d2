//! A tournament's run directory: its `config.json` (the tournament, the
//! shard, the provenance) and `openings.txt`, the game log `games.jsonl`
//! appended as games end and read back (torn and bad lines found, cut or
//! dropped) when a run resumes.

use super::config::TournamentConfig;
use super::log::GameLine;
use super::openings::{OPENINGS_FILE, OpeningSet, Openings};
use super::run::TournamentError;
use super::sprt::Sprt;
use crate::arena::playing::{
    Build, CONFIG_FILE, LogBytes, Provenance, RunKind, Shard, ShardProvenance,
};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;

pub(super) const GAMES_FILE: &str = "games.jsonl";

pub(super) fn io_error(path: &Path, error: std::io::Error) -> TournamentError {
    TournamentError::Io(format!("{}: {error}", path.display()))
}

/// Opens the game log of the run directory `dir` for appending.
pub(super) fn open_log(dir: &Path) -> Result<Mutex<BufWriter<File>>, TournamentError> {
    let path = dir.join(GAMES_FILE);
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map(|file| Mutex::new(BufWriter::new(file)))
        .map_err(|error| io_error(&path, error))
}

/// Writes one finished game to the log and flushes it, so that no finished
/// game is lost if the run is interrupted.
pub(super) fn append_line(
    log: &Mutex<BufWriter<File>>,
    line: &GameLine,
    dir: &Path,
) -> Result<(), Option<TournamentError>> {
    let text = serde_json::to_string(line).expect("game lines serialise");
    let mut writer = log.lock().expect("no thread panicked");
    writeln!(writer, "{text}")
        .and_then(|()| writer.flush())
        .map_err(|error| Some(io_error(&dir.join(GAMES_FILE), error)))
}

/// Checks that the run directory `dir` (opened and locked, holding the
/// `existing` configuration if it holds finished games) belongs to this run,
/// or starts it there, and reads back the games already played there and
/// the run's provenance (`run`'s for a new run).
pub(super) fn prepare_directory(
    dir: &Path,
    existing: Option<String>,
    run: &StoredConfig,
    check: &dyn Fn(&GameLine) -> Result<(), String>,
    repair: bool,
    force_resume: bool,
) -> Result<(LogRead, Provenance), TournamentError> {
    let config_path = dir.join(CONFIG_FILE);
    let stored = match existing {
        Some(text) => {
            let existing = read_config(&config_path, &text)?;
            if existing.config != run.config {
                // Runs of builds without openings played from the start.
                let hint = if existing.config.openings.is_start() && !run.config.openings.is_start()
                {
                    "; its games start from the game's start (--no-openings resumes it)"
                } else {
                    ""
                };
                return Err(TournamentError::Invalid(format!(
                    "{} holds a different {} ({}){hint}; use another --out directory",
                    dir.display(),
                    kind_name(run.run),
                    describe_difference(&existing.config, &run.config)
                )));
            }
            // Older builds did not record the shard.
            if let (Some(held), Some(wanted)) = (existing.shard, run.shard)
                && held != wanted
            {
                return Err(TournamentError::Invalid(format!(
                    "{} holds shard {held} of this tournament, not shard {wanted}; \
                     use another --out directory",
                    dir.display()
                )));
            }
            if existing.sprt != run.sprt {
                return Err(TournamentError::Invalid(format!(
                    "{} holds a match with other --sprt, --alpha or --beta settings; \
                     use another --out directory",
                    dir.display()
                )));
            }
            check_build(
                dir,
                existing.provenance.build.as_ref(),
                force_resume,
                "--force-resume goes on with this build knowingly",
            )?;
            existing.provenance
        }
        None => {
            write_config(&config_path, run)?;
            run.provenance.clone()
        }
    };
    let read = read_games(
        &dir.join(GAMES_FILE),
        check,
        true,
        repair,
        " (--repair drops such lines and plays their games again)",
    )?;
    Ok((read, stored))
}

/// The word for a run of `kind` in messages.
fn kind_name(kind: RunKind) -> &'static str {
    match kind {
        RunKind::Match => "match",
        _ => "tournament",
    }
}

/// A run directory's `config.json`: what kind of run it is, the tournament,
/// the shard and its size, a match's test, and the provenance (the build of
/// norn that started it, every agent's full configuration
/// ([`Agent::configuration`](crate::agents::Agent::configuration)) and the rules in force); for a merge of
/// shards that more than one build played, every shard's provenance.
#[derive(Serialize, Deserialize)]
pub(super) struct StoredConfig {
    #[serde(default, skip_serializing_if = "RunKind::is_tournament")]
    pub run: RunKind,
    #[serde(flatten)]
    pub config: TournamentConfig,
    /// The part of the run the directory holds (absent in older builds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// How many games that part holds when finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard_games: Option<usize>,
    /// A match's sequential test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
    #[serde(flatten)]
    pub provenance: Provenance,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shard_provenance: Vec<ShardProvenance>,
}

impl StoredConfig {
    /// The configuration of a whole run of `kind`.
    pub(super) fn new(
        run: RunKind,
        config: &TournamentConfig,
        provenance: &Provenance,
    ) -> StoredConfig {
        StoredConfig {
            run,
            config: config.clone(),
            shard: None,
            shard_games: None,
            sprt: None,
            provenance: provenance.clone(),
            shard_provenance: Vec::new(),
        }
    }
}

pub(super) fn write_config(path: &Path, stored: &StoredConfig) -> Result<(), TournamentError> {
    if let Openings::Set(set) = &stored.config.openings {
        write_openings_file(path, set)?;
    }
    let text = serde_json::to_string_pretty(stored).expect("configs serialise");
    std::fs::write(path, text + "\n").map_err(|error| io_error(path, error))
}

/// Writes the lines of a run's opening set beside its configuration
/// (`config_path`), which records only the set's digest.
fn write_openings_file(config_path: &Path, set: &OpeningSet) -> Result<(), TournamentError> {
    let path = config_path.with_file_name(OPENINGS_FILE);
    if !set.is_loaded() {
        return Err(TournamentError::Invalid(format!(
            "{}: the opening set's lines are not at hand to write",
            path.display()
        )));
    }
    std::fs::write(&path, set.file_text()).map_err(|error| io_error(&path, error))
}

/// Loads the lines of a stored configuration's opening set from the
/// [`OPENINGS_FILE`] beside it (`config_path`).
pub(super) fn load_openings_file(
    config_path: &Path,
    config: &mut TournamentConfig,
) -> Result<(), TournamentError> {
    let Openings::Set(set) = &mut config.openings else {
        return Ok(());
    };
    if set.is_loaded() {
        return Ok(());
    }
    let path = config_path.with_file_name(OPENINGS_FILE);
    let text = std::fs::read_to_string(&path).map_err(|error| io_error(&path, error))?;
    set.load(&text)
        .map_err(|error| TournamentError::Invalid(format!("{}: {error}", path.display())))
}

pub(super) fn read_config(path: &Path, text: &str) -> Result<StoredConfig, TournamentError> {
    serde_json::from_str(text).map_err(|error| {
        TournamentError::Invalid(format!(
            "{}: not a tournament configuration: {error}",
            path.display()
        ))
    })
}

/// Refuses a directory whose games another build of norn played, unless
/// `force_resume` says to go on knowingly; `advice` names the flag that
/// does.
pub(super) fn check_build(
    dir: &Path,
    build: Option<&Build>,
    force_resume: bool,
    advice: &str,
) -> Result<(), TournamentError> {
    if force_resume {
        return Ok(());
    }
    let what = format!("the games in {}", dir.display());
    Build::check_current(build, &what, advice).map_err(TournamentError::Invalid)
}

/// Names the first field in which two configurations differ.
pub(super) fn describe_difference(old: &TournamentConfig, new: &TournamentConfig) -> String {
    let fields = [
        ("game", old.game != new.game),
        ("rules", old.rules != new.rules),
        ("agents", old.agents != new.agents),
        ("games per pair", old.games_per_pair != new.games_per_pair),
        ("seed", old.seed != new.seed),
        ("max plies", old.max_plies != new.max_plies),
        ("anchor", old.anchor != new.anchor),
        ("openings", old.openings != new.openings),
        ("gauntlet", old.gauntlet != new.gauntlet),
        ("time control", old.time_control != new.time_control),
        ("adjudication", old.adjudication != new.adjudication),
    ];
    let differing: Vec<&str> = fields
        .iter()
        .filter(|(_, differs)| *differs)
        .map(|(name, _)| *name)
        .collect();
    format!("different {}", differing.join(", "))
}

/// What reading a game log found.
#[derive(Default)]
pub(super) struct LogRead {
    /// The good lines, in file order.
    pub games: Vec<GameLine>,
    /// The last line was cut short (and, when repairing, cut from the file).
    pub torn: bool,
    /// Why each dropped line was bad (only when repairing).
    pub dropped: Vec<String>,
}

/// Reads a game log as bytes, checking every line with `check`. Every line
/// is written whole and then flushed, so only the last line can be cut
/// short by a crash: a last line without its newline is such a torn write,
/// and with `cut_torn` it is cut from the file so that its game is played
/// again. Any other bad line (not UTF-8 text, not a record, a game recorded
/// twice, or one `check` refuses) is an error naming its line, followed by
/// `advice`, unless `drop_bad` is set: then such lines are removed from the
/// file and reported.
pub(super) fn read_games(
    path: &Path,
    check: &dyn Fn(&GameLine) -> Result<(), String>,
    cut_torn: bool,
    drop_bad: bool,
    advice: &str,
) -> Result<LogRead, TournamentError> {
    let log = LogBytes::read(path).map_err(|error| io_error(path, error))?;
    let mut games = Vec::new();
    let mut kept_lines: Vec<&[u8]> = Vec::new();
    let mut dropped = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (number, raw, text) in log.lines() {
        let checked = text.and_then(|line| {
            let game = serde_json::from_str::<GameLine>(line)
                .map_err(|error| format!("not a game record: {error}"))?;
            if seen.contains(&game.index) {
                return Err(format!("game {} is recorded twice", game.index));
            }
            check(&game)?;
            Ok(game)
        });
        match checked {
            Ok(game) => {
                seen.insert(game.index);
                games.push(game);
                kept_lines.push(raw);
            }
            Err(problem) if drop_bad => dropped.push(format!("line {number}: {problem}")),
            Err(problem) => {
                return Err(TournamentError::Invalid(format!(
                    "{}: line {number}: {problem}{advice}",
                    path.display(),
                )));
            }
        }
    }
    if !dropped.is_empty() {
        let mut kept = kept_lines.join(&b'\n');
        if !kept.is_empty() {
            kept.push(b'\n');
        }
        replace_file(path, &kept)?;
    } else if log.torn() && cut_torn {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|error| io_error(path, error))?;
        file.set_len(log.complete_len())
            .map_err(|error| io_error(path, error))?;
    }
    Ok(LogRead {
        games,
        torn: log.torn(),
        dropped,
    })
}

/// Replaces a file's contents at once: the bytes go to a temporary file
/// beside it, which is then renamed over it, so a crash leaves either the
/// old file or the new one.
fn replace_file(path: &Path, bytes: &[u8]) -> Result<(), TournamentError> {
    let temporary = path.with_extension("tmp");
    std::fs::write(&temporary, bytes).map_err(|error| io_error(&temporary, error))?;
    std::fs::rename(&temporary, path).map_err(|error| io_error(path, error))
}

/// A tournament's or a match's run directory as it stands, for a report
/// read from it ([`read_stored_run`]).
pub struct StoredRun {
    /// A tournament (whole, a shard or a merge) or a match.
    pub kind: RunKind,
    /// The tournament the games belong to, its opening set loaded.
    pub config: TournamentConfig,
    /// A match's sequential test.
    pub sprt: Option<Sprt>,
    /// The build, agent configurations and rules that played the games.
    pub provenance: Provenance,
    /// Every shard's provenance, for a merge of shards of different builds.
    pub shard_provenance: Vec<ShardProvenance>,
    /// The logged games, in the log's order.
    pub games: Vec<GameLine>,
    /// Whether the log's last line is cut short (a run writing it, or one
    /// that crashed); that line is not among `games`.
    pub torn: bool,
}

/// Reads the run directory `dir` of a tournament or a match without
/// changing it: its `config.json` (and opening set), and its game log, in
/// which `check` sees every game with the tournament; a line that is not a
/// game, a game logged twice, or one `check` refuses is an error naming
/// the line. An absent log holds no games.
///
/// # Errors
/// As above, and if `config.json` does not read or is not a tournament's
/// or a match's.
pub fn read_stored_run(
    dir: &Path,
    check: &dyn Fn(&TournamentConfig, &GameLine) -> Result<(), String>,
) -> Result<StoredRun, TournamentError> {
    let config_path = dir.join(CONFIG_FILE);
    let text =
        std::fs::read_to_string(&config_path).map_err(|error| io_error(&config_path, error))?;
    let mut stored = read_config(&config_path, &text)?;
    if !matches!(stored.run, RunKind::Tournament | RunKind::Match) {
        return Err(TournamentError::Invalid(format!(
            "{} is not a tournament's or a match's",
            config_path.display()
        )));
    }
    load_openings_file(&config_path, &mut stored.config)?;
    let config = stored.config;
    let read = read_games(
        &dir.join(GAMES_FILE),
        &|line| check(&config, line),
        false,
        false,
        "",
    )?;
    Ok(StoredRun {
        kind: stored.run,
        config,
        sprt: stored.sprt,
        provenance: stored.provenance,
        shard_provenance: stored.shard_provenance,
        games: read.games,
        torn: read.torn,
    })
}

/// Writes `games` as a whole log, replacing the file at once.
pub(super) fn write_log(path: &Path, games: &[GameLine]) -> Result<(), TournamentError> {
    let mut log = String::new();
    for game in games {
        log.push_str(&serde_json::to_string(game).expect("game lines serialise"));
        log.push('\n');
    }
    replace_file(path, log.as_bytes())
}
