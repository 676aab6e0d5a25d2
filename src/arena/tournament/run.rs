//! Running a tournament: the checks before anything is written, the games
//! of a shard played in parallel, each logged as it ends, and a run that
//! resumes from its log.

use super::adjudicated::check_adjudication;
use super::config::{ScheduledGame, TournamentConfig};
use super::facts::FinishedGames;
use super::forfeits::{ForfeitStreaks, SeatForfeit};
use super::log::{GameLine, check_line, opening_state};
use super::opening::OpeningPlies;
use super::report::write_reports;
use super::search_log::PlySearch;
use super::store::{LogRead, StoredConfig, append_line, open_log, prepare_directory};
use super::summary::TournamentSummary;
use crate::arena::playing::{
    AgentFactory, PlayError, PlayOptions, Provenance, RunDirectory, RunKind, Shard,
    play_game_after, replay_plies,
};
use crate::core::{
    Capabilities, Notation, ParseError, check_run_memory, check_threads, thread_pool,
};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Errors of a tournament run.
#[derive(Debug)]
pub enum TournamentError {
    /// A problem with the configuration or the agents; nothing was played.
    Invalid(String),
    /// The output directory could not be read or written.
    Io(String),
    /// An agent or game failed during play.
    Play(String),
}

impl std::fmt::Display for TournamentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TournamentError::Invalid(message)
            | TournamentError::Io(message)
            | TournamentError::Play(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for TournamentError {}

/// Hears how a run progresses, e.g. to draw a progress bar. Calls may come
/// from any thread.
pub trait RunProgress: Sync {
    /// The run is about to play `games` games.
    fn start(&self, _games: usize) {}
    /// One game has ended (and is in the log).
    fn game_done(&self, _game: &GameLine) {}
    /// The run has stopped, finished or not.
    fn finish(&self) {}
}

/// Progress that nobody watches.
pub struct Unwatched;

impl RunProgress for Unwatched {}

/// How to run: threads, the shard, where to keep the log, when to stop.
pub struct RunOptions<'a> {
    /// Games played at the same time.
    pub threads: usize,
    /// The part of the schedule this process plays ([`Shard::ALL`] for
    /// every game).
    pub shard: Shard,
    /// The directory for `config.json` and `games.jsonl`; `None` keeps
    /// nothing on disk (and cannot resume).
    pub out_dir: Option<PathBuf>,
    /// Raised (e.g. by Ctrl-C) to stop: running games are abandoned, finished
    /// ones are kept.
    pub stop: &'a AtomicBool,
    /// Told as games end.
    pub progress: &'a dyn RunProgress,
    /// Drop log lines that fail the checks of a resume (a game outside the
    /// schedule, recorded twice, or not replaying to its result) and play
    /// their games again, instead of refusing to resume.
    pub repair: bool,
    /// Resume a run whose games another build of norn played (see
    /// [`Build`](crate::arena::Build)); without it such a resume is refused, so that games of
    /// old code are not mixed with new ones unknowingly.
    pub force_resume: bool,
    /// Stop the run when an agent has lost this many games in a row by
    /// forfeit ([`DEFAULT_MAX_FORFEITS`](super::DEFAULT_MAX_FORFEITS) on the
    /// command line); an agent's failure in a game is otherwise that game's
    /// result.
    pub max_forfeits: usize,
    /// Log what each move cost ([`GameLine::search`]): the time each
    /// decision took and the searchers' depth or iterations, nodes, score
    /// and expected line. The times differ from run to run; the games do
    /// not.
    pub record_search: bool,
}

/// The games of a run: those found in the log and those played now.
pub struct RunResult {
    /// The shard's finished games, resumed and new, sorted by index; none
    /// from [`run_logged_tournament`], whose games are in the log only.
    pub games: Vec<GameLine>,
    /// Games of this shard still missing (non-zero after an interruption).
    pub missing: usize,
    /// Games read back from an earlier run.
    pub resumed: usize,
    /// Games played by this call.
    pub played: usize,
    /// A half-written line was found at the end of the log and discarded; its
    /// game was played again.
    pub repaired_torn_line: bool,
    /// The log lines dropped by [`RunOptions::repair`], each with its line
    /// number and why.
    pub dropped_lines: Vec<String>,
    /// The run's provenance: as its `config.json` records it when resumed
    /// (the build that started it), otherwise this process's.
    pub provenance: Provenance,
    /// The summary of `games`, with the provenance; with an output
    /// directory it is also written there as the reports
    /// ([`write_reports`]).
    pub summary: TournamentSummary,
}

/// The tournament `config` with its openings read for the game of `start`
/// ([`Openings::resolve`](super::Openings::resolve)): what the run plays
/// and records.
pub(super) fn with_openings_read<G: Notation>(
    config: &TournamentConfig,
    start: &G,
) -> Result<TournamentConfig, TournamentError> {
    let openings = config
        .openings
        .resolve(start)
        .map_err(|error| TournamentError::Invalid(format!("the openings: {error}")))?;
    Ok(TournamentConfig {
        openings,
        ..config.clone()
    })
}

/// Colour-swapped pairs and ratings need two opponents: tournaments and
/// matches refuse cooperative games and games with any other number of
/// players.
pub(super) fn require_two_players<G: Notation>(
    config: &TournamentConfig,
    start: &G,
) -> Result<(), TournamentError> {
    check_game(config, start)?;
    if !Capabilities::of::<G>().competitive() {
        return Err(TournamentError::Invalid(format!(
            "tournaments and matches need two competing sides, and {} is cooperative",
            config.game
        )));
    }
    if start.num_players() == 2 {
        return Ok(());
    }
    let players = start.num_players();
    Err(TournamentError::Invalid(format!(
        "tournaments and matches need two competing sides, and {} has {players} players",
        config.game
    )))
}

/// Checks that the configuration describes the game it is played with: the
/// same game and the rules of the start position, so that a log always says
/// which game and rules its moves belong to, and openings that can be
/// played in it.
fn check_game<G: Notation>(config: &TournamentConfig, start: &G) -> Result<(), TournamentError> {
    if config.game != G::NAME {
        return Err(TournamentError::Invalid(format!(
            "the configuration is of {}, but the games are of {}",
            config.game,
            G::NAME
        )));
    }
    let rules: G::Rules = config.rules.parse().map_err(|error: ParseError| {
        TournamentError::Invalid(format!("the configuration's rules: {error}"))
    })?;
    if rules.to_string() != start.rules().to_string() {
        return Err(TournamentError::Invalid(format!(
            "the configuration's rules are `{rules}`, but the start position's are `{}`",
            start.rules()
        )));
    }
    config
        .openings
        .validate(start)
        .map_err(|error| TournamentError::Invalid(format!("the openings: {error}")))
}

/// Runs (or resumes) the games of `shard` of the tournament `config`, starting
/// every game from `start`, and summarises them. With an output directory,
/// the directory keeps the configuration, the game log and the reports
/// (`summary.json`, `report.md`, `ratings.svg`), as `norn tournament`
/// leaves them. The result holds every finished game of the shard
/// ([`RunResult::games`]), read back from the log and played now: memory
/// grows with the games; [`run_logged_tournament`] keeps them in the log
/// only.
pub fn run_tournament<G: Notation>(
    config: &TournamentConfig,
    start: &G,
    make_agent: &AgentFactory<'_, G>,
    options: &RunOptions<'_>,
) -> Result<RunResult, TournamentError> {
    run_shard(config, start, make_agent, options, true)
}

/// [`run_tournament`] for runs of any size, as `norn tournament` runs them:
/// the games stay in the log of the output directory (which it needs), and
/// the run keeps of each only what the summary needs (some 64 bytes, see
/// [`FinishedGames`]), so that a run of millions of games resumes in little
/// memory. [`RunResult::games`] is empty.
///
/// # Errors
/// As [`run_tournament`], and without an output directory.
pub fn run_logged_tournament<G: Notation>(
    config: &TournamentConfig,
    start: &G,
    make_agent: &AgentFactory<'_, G>,
    options: &RunOptions<'_>,
) -> Result<RunResult, TournamentError> {
    if options.out_dir.is_none() {
        return Err(TournamentError::Invalid(
            "a run that keeps its games in its log only needs an output directory".into(),
        ));
    }
    run_shard(config, start, make_agent, options, false)
}

/// What a run keeps of its finished games: what the summary needs, and,
/// when asked for, every game's line.
struct Finished {
    facts: FinishedGames,
    lines: Option<Vec<GameLine>>,
}

impl Finished {
    fn add(&mut self, line: GameLine) {
        self.facts.add(&line);
        if let Some(lines) = &mut self.lines {
            lines.push(line);
        }
    }
}

/// [`run_tournament`] (`keep`: every game's line in the result) or
/// [`run_logged_tournament`].
fn run_shard<G: Notation>(
    config: &TournamentConfig,
    start: &G,
    make_agent: &AgentFactory<'_, G>,
    options: &RunOptions<'_>,
    keep: bool,
) -> Result<RunResult, TournamentError> {
    config.validate().map_err(TournamentError::Invalid)?;
    let config = &with_openings_read(config, start)?;
    check_threads("the thread count", options.threads).map_err(TournamentError::Invalid)?;
    require_two_players(config, start)?;
    check_adjudication::<G>(config, options.record_search)?;
    let streaks = ForfeitStreaks::new(config.agents.len(), options.max_forfeits)
        .map_err(TournamentError::Invalid)?;
    // A failing agent is named as the reports name it, so that the two
    // seats of a spec that plays itself are told apart.
    let names = config.display_names();
    let shard_games: Vec<ScheduledGame> = config
        .schedule()
        .into_iter()
        .filter(|game| options.shard.contains(game))
        .collect();
    let resolved = check_before_writing(config, start, make_agent, &shard_games, options.threads)?;
    let mut provenance = Provenance::current(resolved, start.rules().to_string());
    let pool = thread_pool(options.threads).map_err(TournamentError::Invalid)?;
    let mut finished = Finished {
        facts: FinishedGames::new(config),
        lines: keep.then(Vec::new),
    };
    finished.facts.reserve(shard_games.len());
    let check = |line: &GameLine| {
        options.shard.check_holds(line)?;
        check_line(config, start, line)
    };
    let (_directory, read) = match &options.out_dir {
        Some(dir) => {
            let (directory, existing) =
                RunDirectory::open(dir, RunKind::Tournament).map_err(TournamentError::Invalid)?;
            let run = StoredConfig {
                shard: Some(options.shard),
                shard_games: Some(shard_games.len()),
                ..StoredConfig::new(RunKind::Tournament, config, &provenance)
            };
            let (read, stored) = pool.install(|| {
                prepare_directory(
                    dir,
                    existing,
                    &run,
                    &check,
                    options.repair,
                    options.force_resume,
                    &mut |line| finished.add(line),
                )
            })?;
            provenance = stored;
            (Some(directory), read)
        }
        None => (None, LogRead::default()),
    };
    let (repaired_torn_line, dropped_lines) = (read.torn, read.dropped);
    let resumed = read.games;
    let pending: Vec<ScheduledGame> = shard_games
        .into_iter()
        .filter(|game| !read.indices.contains(game.index))
        .collect();

    let log = match &options.out_dir {
        Some(dir) => Some(open_log(dir)?),
        None => None,
    };
    options.progress.start(pending.len());
    let played = AtomicUsize::new(0);
    let finished = Mutex::new(finished);
    let failure: Mutex<Option<TournamentError>> = Mutex::new(None);
    let failed = AtomicBool::new(false);
    pool.install(|| {
        pending.par_iter().for_each(|scheduled| {
            if options.stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                return;
            }
            let outcome = play_scheduled(
                config,
                start,
                make_agent,
                scheduled,
                options.stop,
                options.record_search,
            )
            .and_then(|line| {
                if let Some(log) = &log {
                    append_line(
                        log,
                        &line,
                        options.out_dir.as_deref().expect("log has a directory"),
                    )?;
                }
                Ok(line)
            });
            let outcome = outcome.and_then(|line| {
                options.progress.game_done(&line);
                let streak = streaks.count(&line, &names);
                played.fetch_add(1, Ordering::Relaxed);
                finished.lock().expect("no thread panicked").add(line);
                streak.map_err(|stop| Some(TournamentError::Play(stop)))
            });
            match outcome {
                Ok(()) => {}
                Err(None) => {} // interrupted
                Err(Some(error)) => {
                    failed.store(true, Ordering::Relaxed);
                    failure
                        .lock()
                        .expect("no thread panicked")
                        .get_or_insert(error);
                }
            }
        });
    });
    options.progress.finish();
    if let Some(error) = failure.into_inner().expect("no thread panicked") {
        return Err(error);
    }
    let Finished { facts, lines } = finished.into_inner().expect("no thread panicked");
    let played = played.into_inner();
    let missing = pending.len() - played;
    let mut games = lines.unwrap_or_default();
    games.sort_by_key(|game| game.index);
    let summary = TournamentSummary::of_games(config, &facts, Capabilities::of::<G>().scored())
        .with_provenance(&provenance);
    if let Some(dir) = &options.out_dir {
        write_reports(dir, &summary)?;
    }
    Ok(RunResult {
        summary,
        games,
        missing,
        resumed,
        played,
        repaired_torn_line,
        dropped_lines,
        provenance,
    })
}

/// Checks before anything is written what can be checked without playing,
/// and returns every agent's full configuration
/// ([`Agent::configuration`](crate::agents::Agent::configuration)): each agent's spec builds; the opening of the
/// first game to play (random plies that end every game they are drawn for
/// are refused here rather than at the first game, after `config.json` was
/// written); every agent can begin where that game begins
/// ([`Agent::check_start`](crate::agents::Agent::check_start)); and the tables and trees of the games played
/// at once (`threads` at most) fit in memory.
pub(super) fn check_before_writing<G: Notation>(
    config: &TournamentConfig,
    start: &G,
    make_agent: &AgentFactory<'_, G>,
    games: &[ScheduledGame],
    threads: usize,
) -> Result<Vec<String>, TournamentError> {
    let invalid = TournamentError::Invalid;
    let first_start = match games.first() {
        Some(first) => match config
            .opening_of(start, first.index)
            .map_err(|error| invalid(format!("the openings: {error}")))?
        {
            Some(opening) => {
                opening
                    .plies(start)
                    .map_err(|error| invalid(format!("the openings: {error}")))?
                    .from
            }
            None => start.clone(),
        },
        None => start.clone(),
    };
    let mut resolved = Vec::with_capacity(config.agents.len());
    let mut memory = Vec::with_capacity(config.agents.len());
    for spec in &config.agents {
        let agent = make_agent(spec, 0).map_err(|error| invalid(error.to_string()))?;
        agent
            .check_start(&first_start)
            .map_err(|problem| invalid(format!("agent `{spec}`: {problem}")))?;
        resolved.push(agent.configuration());
        memory.push(agent.memory_bytes());
    }
    check_run_memory(&memory, threads.min(config.total_games())).map_err(invalid)?;
    Ok(resolved)
}

/// Plays one scheduled game; `Err(None)` means it was interrupted.
pub(super) fn play_scheduled<G: Notation>(
    config: &TournamentConfig,
    start: &G,
    make_agent: &AgentFactory<'_, G>,
    scheduled: &ScheduledGame,
    stop: &AtomicBool,
    record_search: bool,
) -> Result<GameLine, Option<TournamentError>> {
    let mut agents = Vec::with_capacity(2);
    for seat in 0..2 {
        let spec = &config.agents[scheduled.seats[seat]];
        agents.push(
            make_agent(spec, scheduled.agent_seed(seat))
                .map_err(|error| Some(TournamentError::Invalid(error.to_string())))?,
        );
    }
    let options = PlayOptions {
        max_plies: config.max_plies,
        chance_seed: scheduled.chance_seed(),
        stop: Some(stop),
        forfeits: true,
        record_search,
        clock: config.time_control,
        adjudication: config.adjudication.as_ref(),
    };
    let play_error = |error: String| Some(TournamentError::Play(error));
    let opening = config
        .opening_of(start, scheduled.index)
        .map_err(play_error)?;
    let OpeningPlies { from, plies } = match &opening {
        Some(opening) => opening
            .plies(start)
            .map_err(|error| play_error(format!("the opening: {error}")))?,
        None => OpeningPlies {
            from: start.clone(),
            plies: Vec::new(),
        },
    };
    // Where the agents begin to choose: their plies are written from there.
    let opened = opening_state(start, opening.as_ref()).map_err(play_error)?;
    let result =
        play_game_after(&from, &plies, &mut agents, &options).map_err(|error| match error {
            PlayError::Interrupted => None,
            other => Some(TournamentError::Play(other.to_string())),
        })?;
    // One replay writes each ply and its decisions from the state before it.
    let mut moves = Vec::with_capacity(result.plies.len());
    let mut search = Vec::with_capacity(result.decisions.len());
    replay_plies(&opened, &result.plies, result.chance_seed, |state, ply| {
        if let Some(decisions) = result.decisions.get(moves.len()) {
            search.push(PlySearch::of(decisions, state, ply));
        }
        moves.push(state.ply_text(ply));
    })
    .map_err(play_error)?;
    let payoffs = [result.outcome.payoffs.get(0), result.outcome.payoffs.get(1)];
    let winner = result
        .outcome
        .winner()
        .map(|player| start.player_name(player));
    Ok(GameLine {
        index: scheduled.index,
        seats: scheduled.seats,
        agents: [
            config.agents[scheduled.seats[0]].clone(),
            config.agents[scheduled.seats[1]].clone(),
        ],
        sides: [start.player_name(0), start.player_name(1)],
        seed: scheduled.seed,
        opening,
        plies: moves.len(),
        moves,
        payoffs,
        winner,
        reason: result.outcome.reason.to_string(),
        forfeit: result
            .forfeit
            .map(|forfeit| SeatForfeit::new(forfeit.player, &forfeit.reason)),
        search: record_search.then_some(search),
    })
}
