//! Head-to-head matches that stop as soon as a sequential probability ratio
//! test decides, as engine testers run them.

use super::adjudicated::check_adjudication;
use super::config::TournamentConfig;
use super::facts::{FinishedGames, GameKey, game_key};
use super::forfeits::ForfeitStreaks;
use super::log::{GameLine, check_line};
use super::pairs::{PairResult, PairScoring, PairTally, seat_score};
use super::report::write_reports;
use super::run::{
    RunProgress, TournamentError, check_before_writing, play_scheduled, require_two_players,
    with_openings_read,
};
use super::sprt::{Sprt, SprtDecision, SprtResult};
use super::store::{GAMES_FILE, StoredConfig, append_line, open_log, prepare_directory, write_log};
use super::summary::{OverallSummary, TournamentSummary};
use crate::arena::playing::{AgentFactory, Provenance, RunDirectory, RunKind};
use crate::core::{Capabilities, Notation, thread_pool};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The result of a match between a tested agent and a baseline.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    /// The game's registry name.
    pub game: String,
    /// The agent under test and the baseline, by their specs.
    pub agents: [String; 2],
    /// Their names in reports ([`TournamentConfig::display_names`]).
    pub names: [String; 2],
    /// Where the games started ([`crate::arena::Openings::describe`]).
    pub openings: String,
    /// Where the test ended: its hypotheses, decision, LLR, pairs and Elo.
    #[serde(flatten)]
    pub result: SprtResult,
    /// The tested agent's wins over every game played, repeats included.
    pub wins: usize,
    /// Games with equal payoffs.
    pub draws: usize,
    /// The tested agent's losses.
    pub losses: usize,
    /// The totals over every game played: the sides' wins and whether one
    /// side had the better of these agents, the lengths, and how the games
    /// ended (`overall` in JSON, as in a tournament's `summary.json`).
    pub overall: OverallSummary,
    /// The build that played the games, the agents' full configurations
    /// and the rules in force.
    #[serde(flatten)]
    pub provenance: Provenance,
    /// The games in order.
    #[serde(skip)]
    pub game_lines: Vec<GameLine>,
    /// Games read back from the log of an earlier, interrupted run.
    #[serde(skip)]
    pub resumed: usize,
    /// The match was stopped (by the stop flag) before it ended; the same
    /// match on the same directory resumes it.
    #[serde(skip)]
    pub interrupted: bool,
}

/// How a match runs.
pub struct MatchOptions<'a> {
    /// The test that decides when the match stops.
    pub sprt: Sprt,
    /// Stop undecided after this many colour-swapped pairs.
    pub max_pairs: usize,
    /// Games played at the same time.
    pub threads: usize,
    /// Raised (e.g. by Ctrl-C) to stop after the games under way.
    pub stop: &'a AtomicBool,
    /// Told of each game the test reads.
    pub progress: &'a dyn RunProgress,
    /// Stop when an agent has lost this many games in a row by forfeit.
    pub max_forfeits: usize,
    /// Log what each move cost ([`crate::arena::RunOptions::record_search`]).
    pub record_search: bool,
    /// The directory for the match's `config.json`, `games.jsonl` (each
    /// game written as it ends) and reports; the same match on the same
    /// directory resumes it. `None` keeps nothing on disk.
    pub out_dir: Option<&'a Path>,
    /// Drop log lines that fail the checks of a resume and play their
    /// games again.
    pub repair: bool,
    /// Resume a match whose games another build of norn played.
    pub force_resume: bool,
}

/// Plays colour-swapped pairs between `config.agents[0]` (tested) and
/// `config.agents[1]` (baseline) until the SPRT decides or `max_pairs` pairs
/// are played. Pairs run `threads` at a time, and the test reads them in
/// order, so the decision and the game count do not depend on the number of
/// threads (pairs played past the deciding one are discarded).
///
/// A pair whose two games repeat an earlier pair's is not counted, and
/// when a whole cycle of the openings brings only such pairs (one pair for
/// a single start), the match stops undecided: deterministic agents would
/// only replay their games.
pub fn run_match<G: Notation>(
    config: &TournamentConfig,
    start: &G,
    make_agent: &AgentFactory<'_, G>,
    options: &MatchOptions<'_>,
) -> Result<MatchReport, TournamentError> {
    let MatchOptions {
        sprt,
        max_pairs,
        threads,
        stop,
        progress,
        max_forfeits,
        record_search,
        out_dir,
        repair,
        force_resume,
    } = *options;
    sprt.validate().map_err(TournamentError::Invalid)?;
    if max_pairs == 0 {
        return Err(TournamentError::Invalid(
            "a match plays at least one colour-swapped pair (2 games)".into(),
        ));
    }
    let config = TournamentConfig {
        games_per_pair: max_pairs.saturating_mul(2),
        ..with_openings_read(config, start)?
    };
    config.validate().map_err(TournamentError::Invalid)?;
    require_two_players(&config, start)?;
    check_adjudication::<G>(&config, record_search)?;
    if config.agents.len() != 2 {
        return Err(TournamentError::Invalid(
            "a match is between two agents".into(),
        ));
    }
    let streaks = ForfeitStreaks::new(2, max_forfeits).map_err(TournamentError::Invalid)?;
    let names = config.display_names();
    let schedule = config.schedule();
    let resolved = check_before_writing(&config, start, make_agent, &schedule, threads)?;
    let pool = thread_pool(threads).map_err(TournamentError::Invalid)?;
    let mut provenance = Provenance::current(resolved, start.rules().to_string());
    let mut logged: HashMap<usize, GameLine> = HashMap::new();
    let (directory, log) = match out_dir {
        Some(dir) => {
            let (directory, existing) =
                RunDirectory::open(dir, RunKind::Match).map_err(TournamentError::Invalid)?;
            let run = StoredConfig {
                sprt: Some(sprt),
                ..StoredConfig::new(RunKind::Match, &config, &provenance)
            };
            let check = |line: &GameLine| check_line(&config, start, line);
            let (_, stored) = pool.install(|| {
                prepare_directory(
                    dir,
                    existing,
                    &run,
                    &check,
                    repair,
                    force_resume,
                    &mut |line| {
                        logged.insert(line.index, line);
                    },
                )
            })?;
            provenance = stored;
            (Some(directory), Some(open_log(dir)?))
        }
        None => (None, None),
    };
    let resumed = logged.len();
    progress.start(schedule.len());
    let mut pairs = PairCount::new(PairScoring::of(Capabilities::of::<G>().scored()));
    let mut lines: Vec<GameLine> = Vec::new();
    let mut decision = SprtDecision::Continue;
    let mut stopped_repeating = false;
    let mut interrupted = false;
    'batches: for batch in schedule.chunks(2 * threads.max(1)) {
        let played: Vec<Result<GameLine, Option<TournamentError>>> = pool.install(|| {
            batch
                .par_iter()
                .map(|game| match logged.get(&game.index) {
                    Some(line) => Ok(line.clone()),
                    None => {
                        let line =
                            play_scheduled(&config, start, make_agent, game, stop, record_search)?;
                        if let (Some(log), Some(dir)) = (&log, out_dir) {
                            append_line(log, &line, dir)?;
                        }
                        Ok(line)
                    }
                })
                .collect()
        });
        let mut played_lines = Vec::with_capacity(played.len());
        for result in played {
            match result {
                Ok(line) => played_lines.push(line),
                Err(None) => {
                    interrupted = true;
                    break 'batches;
                }
                Err(Some(error)) => return Err(error),
            }
        }
        for pair in played_lines.chunks(2) {
            for line in pair {
                progress.game_done(line);
                streaks.count(line, &names).map_err(TournamentError::Play)?;
            }
            lines.extend(pair.iter().cloned());
            let keys = pair.iter().map(game_key).collect();
            let result = PairResult::of(&pair[0], &pair[1], 0);
            match pairs.read(keys, result, config.openings.cycle()) {
                PairRead::Repeated => continue,
                PairRead::StopRepeating => {
                    stopped_repeating = true;
                    break 'batches;
                }
                PairRead::Counted => {
                    decision = pairs.tally.decide(&sprt);
                    if decision != SprtDecision::Continue {
                        break 'batches;
                    }
                }
            }
        }
    }
    progress.finish();
    let (wins, draws, losses) = lines
        .iter()
        .fold((0, 0, 0), |(w, d, l), line| match tested_score(line) {
            s if s > 0.5 => (w + 1, d, l),
            s if s < 0.5 => (w, d, l + 1),
            _ => (w, d + 1, l),
        });
    let finished = FinishedGames::of_lines(&config, &lines);
    let report = MatchReport {
        game: config.game.clone(),
        agents: [config.agents[0].clone(), config.agents[1].clone()],
        names: [names[0].clone(), names[1].clone()],
        openings: config.openings.describe(),
        result: pairs.result(sprt, decision, lines.len(), stopped_repeating),
        wins,
        draws,
        losses,
        overall: OverallSummary::of(&finished.by_index(), &finished),
        provenance,
        game_lines: lines,
        resumed,
        interrupted,
    };
    if let Some(directory) = &directory {
        write_match_files::<G>(directory.path(), &config, &report)?;
    }
    Ok(report)
}

/// Leaves a match's directory with the games the test read: the log holds
/// those games (the games played past the deciding pair are dropped once
/// the match has ended; an interrupted match keeps every finished game for
/// its resume), and the reports summarise them as a tournament of that many
/// games between the two agents would, with the test's result
/// ([`TournamentSummary::match_result`]), titled as a match.
fn write_match_files<G: Notation>(
    dir: &Path,
    config: &TournamentConfig,
    report: &MatchReport,
) -> Result<(), TournamentError> {
    let lines = &report.game_lines;
    if !report.interrupted {
        write_log(&dir.join(GAMES_FILE), lines)?;
    }
    if lines.is_empty() {
        return Ok(());
    }
    let played = TournamentConfig {
        games_per_pair: lines.len(),
        ..config.clone()
    };
    let scored = Capabilities::of::<G>().scored();
    let summary = TournamentSummary {
        match_result: Some(report.result.clone()),
        ..TournamentSummary::compute(&played, lines, scored).with_provenance(&report.provenance)
    };
    write_reports(dir, &summary)
}

/// The colour-swapped pairs a match's test has read, in order: a pair
/// whose two games repeat an earlier pair's (the same openings and moves)
/// is no new evidence and is not counted.
struct PairCount {
    /// The counted pairs, scored as the game scores them.
    tally: PairTally,
    seen: HashSet<Vec<GameKey>>,
    repeated: u64,
    repeats_in_a_row: usize,
}

/// What reading one pair did.
enum PairRead {
    /// The pair was counted.
    Counted,
    /// The pair repeats an earlier one.
    Repeated,
    /// The pair repeats an earlier one, and so did every pair of a whole
    /// cycle of the openings: deterministic agents would only go on
    /// repeating.
    StopRepeating,
}

impl PairCount {
    /// No pair read yet; the pairs are to be scored as `scoring` says.
    fn new(scoring: PairScoring) -> PairCount {
        PairCount {
            tally: PairTally::new(scoring),
            seen: HashSet::new(),
            repeated: 0,
            repeats_in_a_row: 0,
        }
    }

    /// Reads the next pair: its games' keys ([`game_key`]: both games of
    /// every pair of a match have the same seats, so the keys differ
    /// where the openings or moves do) and its result for the tested
    /// agent; `cycle` is the openings' cycle
    /// ([`crate::arena::Openings::cycle`]).
    fn read(&mut self, keys: Vec<GameKey>, pair: PairResult, cycle: Option<usize>) -> PairRead {
        if !self.seen.insert(keys) {
            self.repeated += 1;
            self.repeats_in_a_row += 1;
            return match cycle.is_some_and(|cycle| self.repeats_in_a_row >= cycle) {
                true => PairRead::StopRepeating,
                false => PairRead::Repeated,
            };
        }
        self.repeats_in_a_row = 0;
        self.tally.add(pair);
        PairRead::Counted
    }

    /// Where the test stands after these pairs, `games` games played.
    fn result(
        &self,
        sprt: Sprt,
        decision: SprtDecision,
        games: usize,
        stopped_repeating: bool,
    ) -> SprtResult {
        let (elo, elo_low, elo_high) = self.tally.elo_estimate();
        let (llr_lower, llr_upper) = sprt.bounds();
        SprtResult {
            sprt,
            decision,
            llr: self.tally.llr(&sprt),
            llr_lower,
            llr_upper,
            games,
            pairs: self.tally.pairs(),
            repeated_pairs: self.repeated,
            stopped_repeating,
            pentanomial: self.tally.by_results.counts,
            pair_scoring: self.tally.scoring(),
            pairs_by_margin: self.tally.by_margin.map(|by_margin| by_margin.counts),
            elo,
            elo_low,
            elo_high,
        }
    }
}

/// A match's test read again from its logged games: where it ended, and
/// the log-likelihood ratio after each counted pair.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchHistory {
    /// Where the test ended, as the match reported it.
    pub result: SprtResult,
    /// `(games read, LLR)` after each counted pair, in order.
    pub llr: Vec<(usize, f64)>,
}

/// Reads the logged games of a match (any order) through its test as
/// [`run_match`] read them: colour-swapped pairs in schedule order, each
/// scored as `scoring` says (as the game scores them: [`PairScoring::of`]),
/// a repeated pair not counted, stopping where the test decided. An
/// unpaired last game is left out, as the test never read it.
pub fn match_history(
    config: &TournamentConfig,
    sprt: Sprt,
    scoring: PairScoring,
    games: &FinishedGames,
) -> MatchHistory {
    let ordered = games.by_index();
    let mut pairs = PairCount::new(scoring);
    let mut llr = Vec::new();
    let mut decision = SprtDecision::Continue;
    let mut stopped_repeating = false;
    let mut read = 0;
    for pair in ordered.chunks_exact(2) {
        read += 2;
        let keys = pair.iter().map(|game| game.key).collect();
        let result = PairResult::of(pair[0], pair[1], 0);
        match pairs.read(keys, result, config.openings.cycle()) {
            PairRead::Repeated => continue,
            PairRead::StopRepeating => {
                stopped_repeating = true;
                break;
            }
            PairRead::Counted => {
                llr.push((read, pairs.tally.llr(&sprt)));
                decision = pairs.tally.decide(&sprt);
                if decision != SprtDecision::Continue {
                    break;
                }
            }
        }
    }
    MatchHistory {
        result: pairs.result(sprt, decision, read, stopped_repeating),
        llr,
    }
}

/// The tested agent's (agent 0's) score in a game.
fn tested_score(line: &GameLine) -> f64 {
    seat_score(&line.payoffs, usize::from(line.seats[1] == 0))
}
