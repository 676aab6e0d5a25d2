//! Round-robin tournaments: the schedule, parallel play, the game log that
//! makes runs resumable, and shards that split a run across machines.
//!
//! Every pair of agents plays `games_per_pair` games in colour-swapped pairs:
//! both games of a pair share one seed, and each agent keeps its own seed in
//! both, so the only difference is who moves first. Each game's seed derives
//! from the master seed and the pair's index, never from the thread that
//! plays it, so a run gives the same games for any number of threads, and
//! shards or resumed runs give the same games as one uninterrupted run.

use super::build::{Build, Provenance};
use super::forfeits::{ForfeitStreaks, SeatForfeit, check_logged_forfeit};
use super::openings::{OPENINGS_FILE, Opening, OpeningPlies, OpeningSet, Openings};
use super::playing::{
    FORFEIT_REASON, MAX_PLIES_REASON, PlayError, PlayOptions, RESIGNATION_REASON,
    max_plies_outcome, play_game_after, plies_text, resignation_outcome, resolve_pending_chance,
};
use super::report::{markdown_report, ratings_svg};
use super::run_dir::{CONFIG_FILE, LogBytes, RunDirectory, RunKind, refuse_input_as_output};
use super::sprt::Sprt;
use super::summary::TournamentSummary;
use crate::agents::{Agent, may_resign, spec_identity};
use crate::core::{
    Capabilities, Notation, Outcome, ParseError, Payoffs, PlyText, Status, check_run_memory,
    check_threads, derive_seed, rng_from_seed, thread_pool,
};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// What defines a tournament: two runs with equal configurations play the
/// same games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// The game's name (`Game::NAME`).
    pub game: String,
    /// The rules options as text (empty for the defaults).
    pub rules: String,
    /// Agent specs, e.g. `mcts:iters=2000`.
    pub agents: Vec<String>,
    /// Games between each pair of agents (an even number).
    pub games_per_pair: usize,
    pub seed: u64,
    /// Games still running after this many plies are drawn (`max-plies`).
    pub max_plies: Option<usize>,
    /// The agent whose rating is fixed at 0 (the first if `None`).
    pub anchor: Option<String>,
    /// Where the games start: pair `j` of every pairing plays the same
    /// opening ([`Openings::opening`]).
    #[serde(default, skip_serializing_if = "Openings::is_start")]
    pub openings: Openings,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Position in the schedule; games `2k` and `2k + 1` are a colour-swapped pair.
    pub index: usize,
    /// Agent index (into `TournamentConfig::agents`) per seat.
    pub seats: [usize; 2],
    /// The seed shared by both games of the pair.
    pub seed: u64,
}

impl ScheduledGame {
    /// The seed of the agent in `seat`: the same in both games of a pair.
    pub fn agent_seed(&self, seat: usize) -> u64 {
        derive_seed(self.seed, self.seats[seat] as u64)
    }

    /// The seed of the game's chance events: the same in both games of a
    /// pair, so that only the first mover differs.
    pub fn chance_seed(&self) -> u64 {
        derive_seed(self.seed, u64::MAX)
    }

    /// The index of the colour-swapped pair this game belongs to.
    pub fn pair(&self) -> usize {
        self.index / 2
    }
}

/// The most games of one tournament: every game's line is kept in memory
/// for the summary, and at this size the log alone is gigabytes.
pub const MAX_TOURNAMENT_GAMES: usize = 10_000_000;

impl TournamentConfig {
    /// Checks the configuration: at least two distinct agents (specs
    /// without surrounding spaces, none the same agent as another in other
    /// words: [`spec_identity`]), a positive even number of games per
    /// pair, at most [`MAX_TOURNAMENT_GAMES`] games in all, a known anchor.
    pub fn validate(&self) -> Result<(), String> {
        if self.agents.len() < 2 {
            return Err("a tournament needs at least two agents".into());
        }
        for (i, spec) in self.agents.iter().enumerate() {
            if spec.trim() != spec || spec.is_empty() {
                return Err(format!(
                    "agent spec `{spec}` is empty or has spaces around it"
                ));
            }
            let identity = spec_identity(spec);
            if let Some(same) = self.agents[..i]
                .iter()
                .find(|earlier| spec_identity(earlier) == identity)
            {
                return Err(if same == spec {
                    format!("agent `{spec}` is listed twice")
                } else {
                    format!("agent `{spec}` is listed twice (as `{same}`, the same agent)")
                });
            }
        }
        if self.games_per_pair == 0 || !self.games_per_pair.is_multiple_of(2) {
            return Err(format!(
                "games per pair must be a positive even number (colour-swapped pairs), got {}",
                self.games_per_pair
            ));
        }
        if self.max_plies == Some(0) {
            return Err("a cap of 0 plies would draw every game before its first move".into());
        }
        let pairings = self.pairing_count();
        if pairings
            .checked_mul(self.games_per_pair)
            .is_none_or(|total| total > MAX_TOURNAMENT_GAMES)
        {
            return Err(format!(
                "{pairings} pairings of {} games is more than the {MAX_TOURNAMENT_GAMES} games a run may hold",
                self.games_per_pair
            ));
        }
        if let Some(anchor) = &self.anchor
            && !self.agents.contains(anchor)
        {
            return Err(format!("the anchor `{anchor}` is not one of the agents"));
        }
        Ok(())
    }

    /// A short stable name for the configuration: runs of equal
    /// configurations share it (the default output directory uses it).
    pub fn digest(&self) -> String {
        let text = serde_json::to_string(self).expect("configs serialise");
        let digest = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
            (hash ^ byte as u64).wrapping_mul(0x100_0000_01b3)
        });
        format!("{:08x}", digest >> 32)
    }

    /// The index of the anchor agent.
    pub fn anchor_index(&self) -> usize {
        self.anchor
            .as_ref()
            .and_then(|anchor| self.agents.iter().position(|spec| spec == anchor))
            .unwrap_or(0)
    }

    /// Every pair of agents, `(a, b)` with `a < b`, in schedule order.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.agents.len();
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect()
    }

    /// The place of game `index`'s colour-swapped pair in its pairing:
    /// pairs in the same place play the same opening.
    pub fn opening_round(&self, index: usize) -> u64 {
        ((index % self.games_per_pair.max(1)) / 2) as u64
    }

    /// The opening of game `index` (`None` for the game's start).
    ///
    /// # Errors
    /// As [`Openings::opening`].
    pub fn opening_of<G: Notation>(
        &self,
        start: &G,
        index: usize,
    ) -> Result<Option<Opening>, String> {
        self.openings
            .opening(start, self.seed, self.opening_round(index))
    }

    /// The number of games in the whole tournament.
    pub fn total_games(&self) -> usize {
        self.pairing_count() * self.games_per_pair
    }

    /// Pairing `index` (below [`Self::pairing_count`]) in the order of
    /// [`Self::pairings`], found without listing them.
    fn pairing(&self, index: usize) -> (usize, usize) {
        let n = self.agents.len();
        let mut rest = index;
        for a in 0..n {
            let with_later = n - 1 - a;
            if rest < with_later {
                return (a, a + 1 + rest);
            }
            rest -= with_later;
        }
        unreachable!("pairing {index} of {n} agents is not in the schedule")
    }

    /// The number of pairs of agents, without listing them.
    fn pairing_count(&self) -> usize {
        let n = self.agents.len();
        n * n.saturating_sub(1) / 2
    }

    /// Every game, in order.
    pub fn schedule(&self) -> Vec<ScheduledGame> {
        (0..self.total_games())
            .map(|index| self.scheduled_game_of(index))
            .collect()
    }

    /// Game `index` of the schedule, if there is one.
    pub fn scheduled_game(&self, index: usize) -> Option<ScheduledGame> {
        (index < self.total_games()).then(|| self.scheduled_game_of(index))
    }

    /// Game `index` (which must be in the schedule): the pairings in order,
    /// each playing `games_per_pair` games in colour-swapped pairs that
    /// share a seed.
    fn scheduled_game_of(&self, index: usize) -> ScheduledGame {
        let (a, b) = self.pairing(index / self.games_per_pair);
        ScheduledGame {
            index,
            seats: if index.is_multiple_of(2) {
                [a, b]
            } else {
                [b, a]
            },
            seed: derive_seed(self.seed, (index / 2) as u64),
        }
    }

    /// Checks that a logged game is the game the schedule holds at its
    /// index: the same seats, seed and agents, and as many plies as moves.
    /// (Its moves and result are checked by [`replay_line`].)
    pub fn check_scheduled(&self, line: &GameLine) -> Result<(), String> {
        let scheduled = self.scheduled_game(line.index).ok_or_else(|| {
            format!(
                "game {} is not in the schedule of {} games",
                line.index,
                self.total_games()
            )
        })?;
        let agents = scheduled.seats.map(|seat| self.agents[seat].as_str());
        let problem = if line.seats != scheduled.seats {
            "its seats"
        } else if line.seed != scheduled.seed {
            "its seed"
        } else if line.agents != agents {
            "its agents"
        } else if line.plies != line.moves.len() {
            "its ply count"
        } else {
            return Ok(());
        };
        Err(format!(
            "game {}: {problem} differ from the tournament's schedule",
            line.index
        ))
    }
}

/// A deterministic part of a run: shard `index` (from 0) of `count` plays the
/// pairs whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Reads `I/N` with `1 <= I <= N`, as written on the command line.
    pub fn parse(text: &str) -> Result<Shard, ParseError> {
        let bad = || {
            ParseError::new(
                "shard",
                text,
                "a shard is written I/N with 1 <= I <= N, e.g. 2/8",
            )
        };
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard {
            index: index - 1,
            count,
        })
    }

    pub fn contains(&self, game: &ScheduledGame) -> bool {
        self.holds(game.pair() as u64)
    }

    /// Whether item `index` of a run (a pair of games, a deal) is this
    /// shard's.
    pub fn holds(&self, index: u64) -> bool {
        index % self.count as u64 == self.index as u64
    }

    /// How many of the items `0..total` are this shard's.
    pub fn share(&self, total: u64) -> u64 {
        total
            .saturating_sub(self.index as u64)
            .div_ceil(self.count as u64)
    }

    /// The index of this shard's `k`-th item.
    pub fn nth(&self, k: u64) -> u64 {
        self.index as u64 + k * self.count as u64
    }

    /// Whether this is the whole run.
    pub fn is_all(&self) -> bool {
        self.count == 1
    }

    /// Refuses a merge that lacks shards: `present[i]` tells whether shard
    /// `i` of `present.len()` is there.
    ///
    /// # Errors
    /// Naming every missing shard.
    pub fn require_all(present: &[bool]) -> Result<(), String> {
        let count = present.len();
        let missing: Vec<String> = (0..count)
            .filter(|&index| !present[index])
            .map(|index| Shard { index, count }.to_string())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(format!(
            "{} {} missing: merge every shard of the run",
            if missing.len() == 1 {
                "shard"
            } else {
                "shards"
            },
            missing.join(", ")
        ))
    }

    /// Refuses a shard built by hand with no count or an index past it.
    pub fn validate(&self) -> Result<(), String> {
        if self.count == 0 || self.index >= self.count {
            return Err(format!(
                "shard index {} of {} is not a shard: the index must be below the count",
                self.index, self.count
            ));
        }
        Ok(())
    }
}

/// As written on the command line: `I/N`, counting from 1.
impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(deserializer)?;
        Shard::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// One finished game as stored in `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    pub index: usize,
    /// Agent index per seat.
    pub seats: [usize; 2],
    /// Agent spec per seat.
    pub agents: [String; 2],
    /// Side name per seat (e.g. attackers, defenders).
    pub sides: [String; 2],
    pub seed: u64,
    /// Where the game started, when not at the game's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<Opening>,
    /// The plies after the opening in the game's notation: a move as a
    /// string, a simultaneous choice as a list of every player's move.
    pub moves: Vec<PlyText>,
    pub plies: usize,
    /// Payoff per seat.
    pub payoffs: [f64; 2],
    /// The winning side, `None` for a draw.
    pub winner: Option<String>,
    pub reason: String,
    /// The seat that lost by forfeit and why (only for the reason
    /// [`FORFEIT_REASON`](super::FORFEIT_REASON)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<SeatForfeit>,
}

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
    pub threads: usize,
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
    /// [`Build`]); without it such a resume is refused, so that games of
    /// old code are not mixed with new ones unknowingly.
    pub force_resume: bool,
    /// Stop the run when an agent has lost this many games in a row by
    /// forfeit ([`DEFAULT_MAX_FORFEITS`](super::DEFAULT_MAX_FORFEITS) on the
    /// command line); an agent's failure in a game is otherwise that game's
    /// result.
    pub max_forfeits: usize,
}

/// The games of a run: those found in the log and those played now.
pub struct RunResult {
    pub games: Vec<GameLine>,
    /// Games of this shard still missing (non-zero after an interruption).
    pub missing: usize,
    /// Games read back from an earlier run.
    pub resumed: usize,
    /// A half-written line was found at the end of the log and discarded; its
    /// game was played again.
    pub repaired_torn_line: bool,
    /// The log lines dropped by [`RunOptions::repair`], each with its line
    /// number and why.
    pub dropped_lines: Vec<String>,
    /// The run's provenance: as its `config.json` records it when resumed
    /// (the build that started it), otherwise this process's.
    pub provenance: Provenance,
}

/// Builds an agent from its spec and seed.
pub type AgentFactory<'a, G> =
    dyn Fn(&str, u64) -> Result<Box<dyn Agent<G>>, ParseError> + Sync + 'a;

pub(super) const GAMES_FILE: &str = "games.jsonl";

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
/// every game from `start`.
pub fn run_tournament<G: Notation>(
    config: &TournamentConfig,
    start: &G,
    make_agent: &AgentFactory<'_, G>,
    options: &RunOptions<'_>,
) -> Result<RunResult, TournamentError> {
    config.validate().map_err(TournamentError::Invalid)?;
    check_threads("the thread count", options.threads).map_err(TournamentError::Invalid)?;
    require_two_players(config, start)?;
    let streaks = ForfeitStreaks::new(config.agents.len(), options.max_forfeits)
        .map_err(TournamentError::Invalid)?;
    let shard_games: Vec<ScheduledGame> = config
        .schedule()
        .into_iter()
        .filter(|game| options.shard.contains(game))
        .collect();
    let resolved = check_before_writing(config, start, make_agent, &shard_games, options.threads)?;
    let mut provenance = Provenance::current(resolved, start.rules().to_string());
    let check = |line: &GameLine| check_line(config, start, line);
    let (_directory, read) = match &options.out_dir {
        Some(dir) => {
            let (directory, existing) =
                RunDirectory::open(dir, RunKind::Tournament).map_err(TournamentError::Invalid)?;
            let run = StoredConfig {
                shard: Some(options.shard),
                shard_games: Some(shard_games.len()),
                ..StoredConfig::new(RunKind::Tournament, config, &provenance)
            };
            let (read, stored) = prepare_directory(
                dir,
                existing,
                &run,
                &check,
                options.repair,
                options.force_resume,
            )?;
            provenance = stored;
            (Some(directory), read)
        }
        None => (None, LogRead::default()),
    };
    let (mut finished, repaired_torn_line, dropped_lines) = (read.games, read.torn, read.dropped);
    let resumed = finished.len();
    let done: std::collections::HashSet<usize> = finished.iter().map(|game| game.index).collect();
    let pending: Vec<ScheduledGame> = shard_games
        .into_iter()
        .filter(|game| !done.contains(&game.index))
        .collect();

    let log = match &options.out_dir {
        Some(dir) => Some(open_log(dir)?),
        None => None,
    };
    options.progress.start(pending.len());
    let played = Mutex::new(Vec::new());
    let failure: Mutex<Option<TournamentError>> = Mutex::new(None);
    let failed = AtomicBool::new(false);
    let pool = thread_pool(options.threads).map_err(TournamentError::Invalid)?;
    pool.install(|| {
        pending.par_iter().for_each(|scheduled| {
            if options.stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                return;
            }
            let outcome = play_scheduled(config, start, make_agent, scheduled, options.stop)
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
                let streak = streaks.count(&line, &config.agents);
                played.lock().expect("no thread panicked").push(line);
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
    let mut new_games = played.into_inner().expect("no thread panicked");
    let missing = pending.len() - new_games.len();
    finished.append(&mut new_games);
    finished.sort_by_key(|game| game.index);
    Ok(RunResult {
        games: finished,
        missing,
        resumed,
        repaired_torn_line,
        dropped_lines,
        provenance,
    })
}

/// Checks before anything is written what can be checked without playing,
/// and returns every agent's full configuration
/// ([`Agent::configuration`]): each agent's spec builds; the opening of the
/// first game to play (random plies that end every game they are drawn for
/// are refused here rather than at the first game, after `config.json` was
/// written); every agent can begin where that game begins
/// ([`Agent::check_start`]); and the tables and trees of the games played
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
    let moves = plies_text(&opened, &result.plies, result.chance_seed).map_err(play_error)?;
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
        forfeit: result.forfeit.map(|forfeit| SeatForfeit {
            seat: forfeit.player,
            reason: forfeit.reason,
        }),
    })
}

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
            if !force_resume {
                check_build(
                    dir,
                    existing.provenance.build.as_ref(),
                    "--force-resume goes on with this build knowingly",
                )?;
            }
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
/// ([`Agent::configuration`]) and the rules in force); for a merge of
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

/// The provenance of one shard of a merged run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardProvenance {
    pub shard: Shard,
    #[serde(flatten)]
    pub provenance: Provenance,
}

fn write_config(path: &Path, stored: &StoredConfig) -> Result<(), TournamentError> {
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
fn load_openings_file(
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

fn read_config(path: &Path, text: &str) -> Result<StoredConfig, TournamentError> {
    serde_json::from_str(text).map_err(|error| {
        TournamentError::Invalid(format!(
            "{}: not a tournament configuration: {error}",
            path.display()
        ))
    })
}

/// Refuses a directory whose games another build of norn played; `advice`
/// names the flag that goes on knowingly.
fn check_build(dir: &Path, build: Option<&Build>, advice: &str) -> Result<(), TournamentError> {
    let what = format!("the games in {}", dir.display());
    Build::check_current(build, &what, advice).map_err(TournamentError::Invalid)
}

/// Names the first field in which two configurations differ.
fn describe_difference(old: &TournamentConfig, new: &TournamentConfig) -> String {
    let fields = [
        ("game", old.game != new.game),
        ("rules", old.rules != new.rules),
        ("agents", old.agents != new.agents),
        ("games per pair", old.games_per_pair != new.games_per_pair),
        ("seed", old.seed != new.seed),
        ("max plies", old.max_plies != new.max_plies),
        ("anchor", old.anchor != new.anchor),
        ("openings", old.openings != new.openings),
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
    torn: bool,
    /// Why each dropped line was bad (only when repairing).
    dropped: Vec<String>,
}

/// Reads a game log as bytes, checking every line with `check`. Every line
/// is written whole and then flushed, so only the last line can be cut
/// short by a crash: a last line without its newline is such a torn write,
/// and with `cut_torn` it is cut from the file so that its game is played
/// again. Any other bad line (not UTF-8 text, not a record, a game recorded
/// twice, or one `check` refuses) is an error naming its line, followed by
/// `advice`, unless `drop_bad` is set: then such lines are removed from the
/// file and reported.
fn read_games(
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

/// The shards of a run combined by [`merge_directories`].
pub struct MergedRun {
    pub config: TournamentConfig,
    /// The first shard's provenance (every shard's, unless
    /// `shard_provenance` lists them).
    pub provenance: Provenance,
    /// Every shard's provenance, when the shards differ in it (shards of
    /// different builds merged with `force_resume`); empty otherwise.
    pub shard_provenance: Vec<ShardProvenance>,
    /// Every shard's games, by index.
    pub games: Vec<GameLine>,
}

/// How many games shard `shard` of the tournament `config` holds: its
/// share of the colour-swapped pairs.
fn shard_game_count(config: &TournamentConfig, shard: Shard) -> usize {
    2 * shard.share((config.total_games() / 2) as u64) as usize
}

/// Combines the logs of shard directories: they must hold the shards of
/// one split of the same tournament, every shard once and finished,
/// played by this build (by any builds with `force_resume`, which the
/// merged run records) with the same agent configurations and rules;
/// every line must be the schedule's game at its index, and no game may
/// appear in two of them. The moves are not replayed here (that needs the
/// game's type): check each game with [`check_line`].
pub fn merge_directories(
    dirs: &[PathBuf],
    force_resume: bool,
) -> Result<MergedRun, TournamentError> {
    let invalid = |message: String| TournamentError::Invalid(message);
    let mut first: Option<(StoredConfig, &PathBuf)> = None;
    let mut games: Vec<GameLine> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    let mut shards: Vec<Option<&PathBuf>> = Vec::new();
    let mut shard_provenance = Vec::new();
    for dir in dirs {
        let config_path = dir.join(CONFIG_FILE);
        let text =
            std::fs::read_to_string(&config_path).map_err(|error| io_error(&config_path, error))?;
        let mut stored = read_config(&config_path, &text)?;
        if stored.run != RunKind::Tournament {
            return Err(invalid(format!(
                "{} holds a match, not a shard of a tournament",
                dir.display()
            )));
        }
        if !force_resume {
            check_build(
                dir,
                stored.provenance.build.as_ref(),
                "norn merge --force-resume merges shards of different builds knowingly",
            )?;
        }
        let shard = stored.shard.ok_or_else(|| {
            invalid(format!(
                "{} does not record which shard it holds (an older norn wrote it), \
                 so the merge cannot tell whether every shard is there; play it again with this norn",
                config_path.display()
            ))
        })?;
        shard_provenance.push(ShardProvenance {
            shard,
            provenance: stored.provenance.clone(),
        });
        match &first {
            None => {
                shards = vec![None; shard.count];
                // The merged run's directory gets the set's lines from here.
                load_openings_file(&config_path, &mut stored.config)?;
                first = Some((stored, dir));
            }
            Some((first, first_dir)) => {
                let difference = if first.config != stored.config {
                    describe_difference(&first.config, &stored.config)
                } else if first.shard.map(|shard| shard.count) != Some(shard.count) {
                    "another number of shards".to_string()
                } else if first.provenance.build == stored.provenance.build
                    && first.provenance != stored.provenance
                {
                    "different agent configurations or rules in force".to_string()
                } else {
                    String::new()
                };
                if !difference.is_empty() {
                    return Err(invalid(format!(
                        "{} holds a different tournament than {} ({difference})",
                        dir.display(),
                        first_dir.display(),
                    )));
                }
            }
        }
        if let Some(other) = shards[shard.index].replace(dir) {
            return Err(invalid(format!(
                "{} and {} both hold shard {shard}",
                other.display(),
                dir.display()
            )));
        }
        let config = &first.as_ref().expect("set above").0.config;
        let check = |line: &GameLine| config.check_scheduled(line);
        let games_path = dir.join(GAMES_FILE);
        let LogRead {
            games: shard_games,
            torn,
            ..
        } = read_games(
            &games_path,
            &check,
            false,
            false,
            "; resume that shard with `norn tournament ... --repair`, which drops such lines \
             and plays their games again, before merging",
        )?;
        if torn {
            return Err(invalid(format!(
                "{} ends with a half-written game; resume that shard before merging",
                games_path.display()
            )));
        }
        let expected = shard_game_count(config, shard);
        if shard_games.len() != expected {
            return Err(invalid(format!(
                "{} holds {} of the {expected} games of shard {shard}: the shard was cut short; \
                 resume it (run its command again) before merging",
                games_path.display(),
                shard_games.len()
            )));
        }
        for game in shard_games {
            if let Some(other) = seen.insert(game.index, dir.clone()) {
                return Err(invalid(format!(
                    "game {} appears in both {} and {}",
                    game.index,
                    other.display(),
                    dir.display()
                )));
            }
            games.push(game);
        }
    }
    let (stored, _) = first.ok_or_else(|| invalid("nothing to merge".into()))?;
    Shard::require_all(&shards.iter().map(Option::is_some).collect::<Vec<_>>()).map_err(invalid)?;
    if shard_provenance
        .iter()
        .all(|shard| shard.provenance == stored.provenance)
    {
        shard_provenance.clear();
    } else {
        shard_provenance.sort_by_key(|shard| shard.shard.index);
    }
    games.sort_by_key(|game| game.index);
    Ok(MergedRun {
        config: stored.config,
        provenance: stored.provenance,
        shard_provenance,
        games,
    })
}

/// Writes merged shards to `out` as the directory of a whole run, so that
/// it can be summarised: opens `out` as a run directory (refusing one of
/// the merged shards, a directory in use, and one that holds another run)
/// and writes its configuration and log. The directory stays locked while
/// the returned handle lives.
///
/// # Errors
/// If `out` is refused or cannot be written.
pub fn write_merged_run(
    out: &Path,
    inputs: &[PathBuf],
    merged: &MergedRun,
) -> Result<RunDirectory, TournamentError> {
    refuse_input_as_output(inputs, out).map_err(TournamentError::Invalid)?;
    let (directory, existing) =
        RunDirectory::open(out, RunKind::Tournament).map_err(TournamentError::Invalid)?;
    let config_path = out.join(CONFIG_FILE);
    if let Some(text) = existing {
        let held = read_config(&config_path, &text)?;
        if held.config != merged.config {
            return Err(TournamentError::Invalid(format!(
                "{} holds a different tournament ({}); merge into another directory",
                out.display(),
                describe_difference(&held.config, &merged.config)
            )));
        }
    }
    let stored = StoredConfig {
        shard: Some(Shard::ALL),
        shard_games: Some(merged.config.total_games()),
        shard_provenance: merged.shard_provenance.clone(),
        ..StoredConfig::new(RunKind::Tournament, &merged.config, &merged.provenance)
    };
    write_config(&config_path, &stored)?;
    write_log(&out.join(GAMES_FILE), &merged.games)?;
    Ok(directory)
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

/// Reads and plays `texts` from `start`, each read in the state it was
/// written from, with chance events drawn from `chance_seed` as in play;
/// the final state.
fn replay_texts<G: Notation>(start: &G, texts: &[PlyText], chance_seed: u64) -> Result<G, String> {
    let mut chance = rng_from_seed(chance_seed);
    let mut state = start.clone();
    for (number, text) in texts.iter().enumerate() {
        resolve_pending_chance(&mut state, &mut chance)?;
        let ply = state
            .parse_ply(text)
            .map_err(|error| format!("ply {}: {error}", number + 1))?;
        state.play_ply(&ply);
    }
    resolve_pending_chance(&mut state, &mut chance)?;
    Ok(state)
}

/// Writes a tournament's reports to `dir`: `summary.json`, `report.md` and
/// `ratings.svg`.
///
/// # Errors
/// If a file cannot be written.
pub fn write_reports(dir: &Path, summary: &TournamentSummary) -> Result<(), TournamentError> {
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|error| io_error(&path, error))
    };
    write(
        "summary.json",
        serde_json::to_string_pretty(summary).expect("summaries serialise") + "\n",
    )?;
    write("report.md", markdown_report(summary))?;
    write("ratings.svg", ratings_svg(summary))
}

/// Checks a logged game against the tournament it claims to belong to: the
/// schedule's game at its index ([`TournamentConfig::check_scheduled`]),
/// the game's side names, a winner that agrees with the payoffs, and moves
/// that replay to the recorded result ([`replay_line`]).
pub fn check_line<G: Notation>(
    config: &TournamentConfig,
    start: &G,
    line: &GameLine,
) -> Result<(), String> {
    config.check_scheduled(line)?;
    let opening = config
        .opening_of(start, line.index)
        .map_err(|error| format!("game {}: {error}", line.index))?;
    if line.opening != opening {
        return Err(format!(
            "game {}: its opening differs from the tournament's",
            line.index
        ));
    }
    if line.reason == FORFEIT_REASON
        && config
            .max_plies
            .is_some_and(|limit| line.moves.len() >= limit)
    {
        return Err(format!(
            "game {}: forfeited after {} plies, past the cap of {:?}",
            line.index,
            line.moves.len(),
            config.max_plies
        ));
    }
    if line.reason == MAX_PLIES_REASON && config.max_plies != Some(line.moves.len()) {
        return Err(format!(
            "game {}: ended by the ply cap after {} plies, but the cap is {:?}",
            line.index,
            line.moves.len(),
            config.max_plies
        ));
    }
    let sides = [start.player_name(0), start.player_name(1)];
    if line.sides != sides {
        return Err(format!(
            "game {}: sides {:?}, but {} has {:?}",
            line.index, line.sides, config.game, sides
        ));
    }
    let winner = Outcome {
        payoffs: Payoffs::from_slice(&line.payoffs),
        reason: "",
    }
    .winner()
    .map(|seat| sides[seat].clone());
    if line.winner != winner {
        return Err(format!(
            "game {}: the winner {:?} does not agree with the payoffs {:?}",
            line.index, line.winner, line.payoffs
        ));
    }
    replay_line(start, line)
}

/// The state a game starts from: `start`, or where `opening` leads from it.
fn opening_state<G: Notation>(start: &G, opening: Option<&Opening>) -> Result<G, String> {
    match opening {
        Some(opening) => opening
            .apply(start)
            .map_err(|error| format!("the opening: {error}")),
        None => Ok(start.clone()),
    }
}

/// Checks that a logged game replays under the rules to its recorded result
/// from its opening (chance events drawn from the game's seed, as they were
/// played).
pub fn replay_line<G: Notation>(start: &G, line: &GameLine) -> Result<(), String> {
    let scheduled = ScheduledGame {
        index: line.index,
        seats: line.seats,
        seed: line.seed,
    };
    let state = opening_state(start, line.opening.as_ref())
        .and_then(|opened| replay_texts(&opened, &line.moves, scheduled.chance_seed()))
        .map_err(|error| format!("game {}: {error}", line.index))?;
    if line.reason != FORFEIT_REASON && line.forfeit.is_some() {
        return Err(format!(
            "game {}: names a forfeit, but ended by {}",
            line.index, line.reason
        ));
    }
    let status = state.status();
    match status.outcome() {
        Some(outcome) => {
            if outcome.reason != line.reason || outcome.payoffs.as_slice() != line.payoffs {
                return Err(format!(
                    "game {}: replay ends by {} with payoffs {:?}, the log says {} with {:?}",
                    line.index,
                    outcome.reason,
                    outcome.payoffs.as_slice(),
                    line.reason,
                    line.payoffs
                ));
            }
        }
        None => {
            // A game cut short by the runner: the payoffs must be those the
            // runner gives for the recorded reason in the final state.
            let possible: Vec<Outcome> = match line.reason.as_str() {
                MAX_PLIES_REASON => vec![max_plies_outcome(&state)],
                FORFEIT_REASON => return check_logged_forfeit(line, &state),
                RESIGNATION_REASON => (0..state.num_players())
                    .filter(|&player| match status {
                        Status::ToMove(mover) => mover == player,
                        _ => true,
                    })
                    .filter(|&player| line.agents.get(player).is_some_and(|spec| may_resign(spec)))
                    .map(|player| resignation_outcome(&state, player))
                    .collect(),
                _ => {
                    return Err(format!(
                        "game {}: replay has not ended, the log says it ended by {}",
                        line.index, line.reason
                    ));
                }
            };
            if !possible
                .iter()
                .any(|outcome| outcome.payoffs.as_slice() == line.payoffs)
            {
                return Err(format!(
                    "game {}: payoffs {:?} are not those of a game ended by {} \
                     (only a person or an outside engine resigns)",
                    line.index, line.payoffs, line.reason
                ));
            }
        }
    }
    Ok(())
}
