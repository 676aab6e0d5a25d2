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
    Build, CONFIG_FILE, LogLine, LogReader, Provenance, RunKind, Shard, ShardProvenance,
};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
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
/// or starts it there, and reads back the games already played there
/// (each handed to `visit`, as [`read_games`] does) and the run's
/// provenance (`run`'s for a new run).
pub(super) fn prepare_directory(
    dir: &Path,
    existing: Option<String>,
    run: &StoredConfig,
    check: LineCheck<'_>,
    repair: bool,
    force_resume: bool,
    visit: &mut dyn FnMut(GameLine),
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
        run.config.total_games(),
        check,
        true,
        repair,
        " (--repair drops such lines and plays their games again)",
        &mut |game, _| visit(game),
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

/// The games a log holds, by index: a bit per game of the schedule, and
/// any index beyond it apart (such a line fails its checks).
#[derive(Default)]
pub(super) struct IndexSet {
    bits: Vec<u64>,
    beyond: std::collections::HashSet<usize>,
}

impl IndexSet {
    /// An empty set for a schedule of `games` games.
    pub(super) fn new(games: usize) -> IndexSet {
        IndexSet {
            bits: vec![0; games.div_ceil(64)],
            beyond: std::collections::HashSet::new(),
        }
    }

    /// Whether `index` is in the set.
    pub(super) fn contains(&self, index: usize) -> bool {
        match self.bits.get(index / 64) {
            Some(word) => word & (1 << (index % 64)) != 0,
            None => self.beyond.contains(&index),
        }
    }

    pub(super) fn insert(&mut self, index: usize) {
        match self.bits.get_mut(index / 64) {
            Some(word) => *word |= 1 << (index % 64),
            None => {
                self.beyond.insert(index);
            }
        }
    }
}

/// What reading a game log found.
#[derive(Default)]
pub(super) struct LogRead {
    /// The indices of the good lines' games.
    pub indices: IndexSet,
    /// How many good lines there are.
    pub games: usize,
    /// The last line was cut short (and, when repairing, cut from the file).
    pub torn: bool,
    /// Why each dropped line was bad (only when repairing).
    pub dropped: Vec<String>,
}

/// A check of a logged game, run on several lines at once.
pub(super) type LineCheck<'a> = &'a (dyn Fn(&GameLine) -> Result<(), String> + Sync);

/// Reads a game log line by line (its size does not matter), checking
/// every line with `check` (several lines at once, on the threads of the
/// rayon pool it runs in) and handing each good game to `visit` in the
/// file's order, with the line it was read from. `schedule` is the number
/// of games of the tournament. Every line is written whole and then
/// flushed, so only the last line can be cut short by a crash: a last line
/// without its newline is such a torn write, and with `cut_torn` it is cut
/// from the file so that its game is played again. Any other bad line (not
/// UTF-8 text, not a record, a game recorded twice, or one `check`
/// refuses) is an error naming its line, followed by `advice`, unless
/// `drop_bad` is set: then such lines are removed from the file and
/// reported.
pub(super) fn read_games(
    path: &Path,
    schedule: usize,
    check: LineCheck<'_>,
    cut_torn: bool,
    drop_bad: bool,
    advice: &str,
    visit: &mut dyn FnMut(GameLine, &LogLine),
) -> Result<LogRead, TournamentError> {
    let mut log = LogReader::open(path).map_err(|error| io_error(path, error))?;
    let mut read = LogRead {
        indices: IndexSet::new(schedule),
        ..LogRead::default()
    };
    let mut rewrite: Option<Rewrite> = None;
    // Each line is read and checked on its own, several at once; what the
    // lines say of each other (a game twice) is seen in the log's order.
    let parse_and_check = |line: &LogLine| -> Result<(GameLine, Result<(), String>), String> {
        let game = serde_json::from_str::<GameLine>(line.text()?)
            .map_err(|error| format!("not a game record: {error}"))?;
        let verdict = check(&game);
        Ok((game, verdict))
    };
    log.read_each(
        parse_and_check,
        |line, checked| {
            let game = checked.and_then(|(game, verdict)| {
                if read.indices.contains(game.index) {
                    return Err(format!("game {} is recorded twice", game.index));
                }
                verdict.map(|()| game)
            });
            match game {
                Ok(game) => {
                    read.indices.insert(game.index);
                    read.games += 1;
                    if let Some(rewrite) = &mut rewrite {
                        rewrite.keep(&line)?;
                    }
                    visit(game, &line);
                    Ok(())
                }
                Err(problem) if drop_bad => {
                    if rewrite.is_none() {
                        rewrite = Some(Rewrite::start(path, line.offset)?);
                    }
                    read.dropped
                        .push(format!("line {}: {problem}", line.number));
                    Ok(())
                }
                Err(problem) => Err(TournamentError::Invalid(format!(
                    "{}: line {}: {problem}{advice}",
                    path.display(),
                    line.number
                ))),
            }
        },
        |error| io_error(path, error),
    )?;
    read.torn = log.torn();
    if let Some(rewrite) = rewrite {
        rewrite.finish()?;
    } else if read.torn && cut_torn {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|error| io_error(path, error))?;
        file.set_len(log.complete_len())
            .map_err(|error| io_error(path, error))?;
    }
    Ok(read)
}

/// A log being written again without its bad lines: the lines before the
/// first bad one are copied as they are, each good line after it added,
/// and the new file replaces the log at once (a crash leaves either).
struct Rewrite {
    path: PathBuf,
    temporary: PathBuf,
    writer: BufWriter<File>,
}

impl Rewrite {
    /// Starts the new log of `path` with its first `kept` bytes.
    fn start(path: &Path, kept: u64) -> Result<Rewrite, TournamentError> {
        let temporary = path.with_extension("tmp");
        let mut writer =
            BufWriter::new(File::create(&temporary).map_err(|error| io_error(&temporary, error))?);
        let mut original = File::open(path).map_err(|error| io_error(path, error))?;
        std::io::copy(&mut (&mut original).take(kept), &mut writer)
            .map_err(|error| io_error(&temporary, error))?;
        Ok(Rewrite {
            path: path.to_path_buf(),
            temporary,
            writer,
        })
    }

    /// Adds a good line.
    fn keep(&mut self, line: &LogLine) -> Result<(), TournamentError> {
        self.writer
            .write_all(&line.raw)
            .and_then(|()| self.writer.write_all(b"\n"))
            .map_err(|error| io_error(&self.temporary, error))
    }

    /// Replaces the log with the new file.
    fn finish(mut self) -> Result<(), TournamentError> {
        self.writer
            .flush()
            .map_err(|error| io_error(&self.temporary, error))?;
        std::fs::rename(&self.temporary, &self.path).map_err(|error| io_error(&self.path, error))
    }
}

/// A tournament's or a match's run directory as it stands, for a report
/// read from it ([`read_stored_run`], then [`StoredRun::read_log`]).
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
    /// The directory.
    dir: PathBuf,
}

/// Where a logged game's line is in its log (ordered by line number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LinePlace {
    /// The line's number, from 1.
    pub number: usize,
    /// Where the line starts, in bytes from the start of the file.
    pub offset: u64,
    /// The line's length in bytes, its line break included.
    pub length: u64,
}

impl LinePlace {
    /// The line's bytes, its line break included, read from its log.
    ///
    /// # Errors
    /// If the log cannot be read there.
    pub fn read_from(&self, mut log: &File) -> std::io::Result<Vec<u8>> {
        let mut line = vec![0; usize::try_from(self.length).unwrap_or(usize::MAX)];
        log.seek(std::io::SeekFrom::Start(self.offset))?;
        log.read_exact(&mut line)?;
        Ok(line)
    }
}

/// What a log read through [`StoredRun::read_log`] held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredLog {
    /// The good lines, one game each.
    pub games: usize,
    /// Whether the log's last line is cut short (a run writing it, or one
    /// that crashed); that line is not among `games`.
    pub torn: bool,
}

/// Reads the `config.json` (and opening set) of the run directory `dir`
/// of a tournament or a match, without changing it.
///
/// # Errors
/// If `config.json` does not read or is not a tournament's or a match's.
pub fn read_stored_run(dir: &Path) -> Result<StoredRun, TournamentError> {
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
    Ok(StoredRun {
        kind: stored.run,
        config: stored.config,
        sprt: stored.sprt,
        provenance: stored.provenance,
        shard_provenance: stored.shard_provenance,
        dir: dir.to_path_buf(),
    })
}

impl StoredRun {
    /// Reads the run's game log without changing it, line by line (a log
    /// of any size takes the memory of a few lines): `check` sees every
    /// game (several at once, on the threads of the rayon pool this runs
    /// in), and `visit` each good one in the log's order, with where its
    /// line is. A line that is not a game, a game logged twice, or one
    /// `check` refuses is an error naming the line. An absent log holds no
    /// games.
    ///
    /// # Errors
    /// As above, or if the log cannot be read.
    pub fn read_log(
        &self,
        check: &(dyn Fn(&GameLine) -> Result<(), String> + Sync),
        visit: &mut dyn FnMut(GameLine, LinePlace),
    ) -> Result<StoredLog, TournamentError> {
        let read = read_games(
            &self.dir.join(GAMES_FILE),
            self.config.total_games(),
            check,
            false,
            false,
            "",
            &mut |game, line| {
                visit(
                    game,
                    LinePlace {
                        number: line.number,
                        offset: line.offset,
                        length: line.length,
                    },
                )
            },
        )?;
        Ok(StoredLog {
            games: read.games,
            torn: read.torn,
        })
    }
}

/// Writes `games` as a whole log, replacing the file at once.
pub(super) fn write_log(path: &Path, games: &[GameLine]) -> Result<(), TournamentError> {
    write_log_lines(
        path,
        games.iter().map(|game| {
            let mut line = serde_json::to_vec(game).expect("game lines serialise");
            line.push(b'\n');
            Ok(line)
        }),
    )
}

/// Writes a whole log line by line (each with its line break), replacing
/// the file at once: a crash leaves either the old file or the new one.
pub(super) fn write_log_lines(
    path: &Path,
    lines: impl Iterator<Item = Result<Vec<u8>, TournamentError>>,
) -> Result<(), TournamentError> {
    let temporary = path.with_extension("tmp");
    let mut writer =
        BufWriter::new(File::create(&temporary).map_err(|error| io_error(&temporary, error))?);
    for line in lines {
        writer
            .write_all(&line?)
            .map_err(|error| io_error(&temporary, error))?;
    }
    writer
        .flush()
        .map_err(|error| io_error(&temporary, error))?;
    drop(writer);
    std::fs::rename(&temporary, path).map_err(|error| io_error(path, error))
}
