//! Head-to-head matches that stop as soon as a sequential probability ratio
//! test decides, as engine testers run them.

use super::build::Provenance;
use super::sprt::{Pentanomial, Sprt, SprtDecision};
use super::summary::seat_score;
use super::tournament::{
    AgentFactory, GameLine, RunProgress, TournamentConfig, TournamentError, play_scheduled,
    require_two_players,
};
use crate::core::{Notation, check_run_memory, thread_pool};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// The result of a match between a tested agent and a baseline.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    pub game: String,
    /// The agent under test and the baseline.
    pub agents: [String; 2],
    /// Where the games started ([`crate::arena::Openings::describe`]).
    pub openings: String,
    pub sprt: Sprt,
    pub decision: SprtDecision,
    pub llr: f64,
    pub llr_lower: f64,
    pub llr_upper: f64,
    /// Games played, repeats included.
    pub games: usize,
    /// Colour-swapped pairs the test counted.
    pub pairs: u64,
    /// Pairs not counted because their two games repeat an earlier pair's
    /// (the same opening and moves): a repeat is no new evidence.
    pub repeated_pairs: u64,
    /// Whether the match stopped undecided because a whole cycle of the
    /// openings ([`crate::arena::Openings::cycle`]) brought only repeated pairs:
    /// deterministic agents have nothing more to show from these openings.
    pub stopped_repeating: bool,
    /// The tested agent's record.
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Pairs in which the tested agent scored 0, 0.5, 1, 1.5 and 2 points.
    pub pentanomial: [u64; 5],
    /// Elo of the tested agent over the baseline, with a 95% interval.
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    /// The build that played the games, the agents' full configurations
    /// and the rules in force.
    #[serde(flatten)]
    pub provenance: Provenance,
    /// The games in order.
    #[serde(skip)]
    pub game_lines: Vec<GameLine>,
}

/// How a match runs.
pub struct MatchOptions<'a> {
    pub sprt: Sprt,
    /// Stop undecided after this many colour-swapped pairs.
    pub max_pairs: usize,
    /// Games played at the same time.
    pub threads: usize,
    /// Raised (e.g. by Ctrl-C) to stop after the games under way.
    pub stop: &'a AtomicBool,
    /// Told of each game the test reads.
    pub progress: &'a dyn RunProgress,
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
    } = *options;
    sprt.validate().map_err(TournamentError::Invalid)?;
    if max_pairs == 0 {
        return Err(TournamentError::Invalid(
            "a match plays at least one colour-swapped pair (2 games)".into(),
        ));
    }
    let config = TournamentConfig {
        games_per_pair: max_pairs.saturating_mul(2),
        ..config.clone()
    };
    config.validate().map_err(TournamentError::Invalid)?;
    require_two_players(&config, start)?;
    if config.agents.len() != 2 {
        return Err(TournamentError::Invalid(
            "a match is between two agents".into(),
        ));
    }
    let mut resolved = Vec::with_capacity(2);
    let mut memory = Vec::with_capacity(2);
    for spec in &config.agents {
        let agent =
            make_agent(spec, 0).map_err(|error| TournamentError::Invalid(error.to_string()))?;
        resolved.push(agent.configuration());
        memory.push(agent.memory_bytes());
    }
    check_run_memory(&memory, threads.min(config.total_games()))
        .map_err(TournamentError::Invalid)?;
    let schedule = config.schedule();
    let pool = thread_pool(threads).map_err(TournamentError::Invalid)?;
    progress.start(schedule.len());
    let mut pentanomial = Pentanomial::default();
    let mut lines: Vec<GameLine> = Vec::new();
    let mut decision = SprtDecision::Continue;
    let mut seen_pairs = std::collections::HashSet::new();
    let mut repeated_pairs = 0u64;
    let mut repeats_in_a_row = 0usize;
    let mut stopped_repeating = false;
    'batches: for batch in schedule.chunks(2 * threads.max(1)) {
        let played: Vec<Result<GameLine, Option<TournamentError>>> = pool.install(|| {
            batch
                .par_iter()
                .map(|game| play_scheduled(&config, start, make_agent, game, stop))
                .collect()
        });
        let mut played_lines = Vec::with_capacity(played.len());
        for result in played {
            match result {
                Ok(line) => played_lines.push(line),
                Err(None) => break 'batches,
                Err(Some(error)) => return Err(error),
            }
        }
        for pair in played_lines.chunks(2) {
            for line in pair {
                progress.game_done(line);
            }
            lines.extend(pair.iter().cloned());
            let key: Vec<_> = pair
                .iter()
                .map(|line| (line.opening.clone(), line.moves.clone()))
                .collect();
            if !seen_pairs.insert(key) {
                repeated_pairs += 1;
                repeats_in_a_row += 1;
                if config
                    .openings
                    .cycle()
                    .is_some_and(|cycle| repeats_in_a_row >= cycle)
                {
                    stopped_repeating = true;
                    break 'batches;
                }
                continue;
            }
            repeats_in_a_row = 0;
            let points: f64 = pair.iter().map(tested_score).sum();
            pentanomial.add_pair(points);
            decision = sprt.decide(&pentanomial);
            if decision != SprtDecision::Continue {
                break 'batches;
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
    let (elo, elo_low, elo_high) = pentanomial.elo_estimate();
    let (llr_lower, llr_upper) = sprt.bounds();
    Ok(MatchReport {
        game: config.game.clone(),
        agents: [config.agents[0].clone(), config.agents[1].clone()],
        openings: config.openings.describe(),
        sprt,
        decision,
        llr: sprt.llr(&pentanomial),
        llr_lower,
        llr_upper,
        games: lines.len(),
        pairs: pentanomial.pairs(),
        repeated_pairs,
        stopped_repeating,
        wins,
        draws,
        losses,
        pentanomial: pentanomial.counts,
        elo,
        elo_low,
        elo_high,
        provenance: Provenance::current(resolved, start.rules().to_string()),
        game_lines: lines,
    })
}

/// The tested agent's (agent 0's) score in a game.
fn tested_score(line: &GameLine) -> f64 {
    seat_score(line, usize::from(line.seats[1] == 0))
}
