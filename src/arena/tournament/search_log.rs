//! What each move cost, as the game log keeps it: per ply the deciding
//! agent's time and, for a searcher, its depth or iterations, nodes, score
//! and expected line ([`GameLine::search`]), and per agent the means a
//! report gives, so that equal-time fairness can be checked from the log.

use super::log::GameLine;
use crate::agents::SearchRecord;
use crate::arena::playing::DecisionRecord;
use crate::core::{Notation, Ply, PlyText, Status};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// One agent's decision as the log records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoggedSearch {
    /// The seat (the player) that decided.
    pub seat: usize,
    /// The seconds the agent took to decide, as the runner measured them,
    /// to the microsecond.
    pub time: f64,
    /// Alpha-beta: the deepest iteration completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The MCTS family: the simulations run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u64>,
    /// The nodes searched (alpha-beta) or held by the trees (the MCTS family).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The chosen move's value for the player who chose it, from -1 (a
    /// loss) to 1 (a win).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// The line the search expects, the chosen move first, in the game's
    /// notation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pv: Vec<String>,
    /// The MCTS family: the chosen move's share of the root's visits (for
    /// SM-MCTS its probability in the root strategy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visit_share: Option<f64>,
    /// The guided search: the entropy of its search policy at the root, in
    /// nats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy_entropy: Option<f64>,
}

/// The decisions of one ply in the log: the mover's, or at a simultaneous
/// choice every player's, player 0 first (the shape of [`PlyText`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PlySearch {
    /// The decision of the one player who moved.
    Move(LoggedSearch),
    /// Every player's decision at a simultaneous choice.
    Joint(Vec<LoggedSearch>),
}

/// The longest line a logged search may hold: deeper than any search of
/// norn's, and it keeps a forged log line from growing without bound. A
/// longer line is cut to this where the log is written.
const MAX_LOGGED_PV: usize = 256;

/// The values a logged score may take: a loss to a win for the player who
/// chose.
const SCORES: RangeInclusive<f64> = -1.0..=1.0;

/// The values a logged visit share may take.
const SHARES: RangeInclusive<f64> = 0.0..=1.0;

/// The values a logged policy entropy may take: a number of nats, at
/// least 0. The writer drops any other as unknown, since no value in range
/// stands for an entropy that is not a number or infinite.
const ENTROPIES: RangeInclusive<f64> = 0.0..=f64::MAX;

/// `value` brought into `range`, as the log writes it: an agent may report
/// any number, and the log must hold one its checks accept. A value that
/// is not a number is unknown.
fn into_range(value: f64, range: &RangeInclusive<f64>) -> Option<f64> {
    (!value.is_nan()).then(|| value.clamp(*range.start(), *range.end()))
}

/// `seconds` rounded to the microsecond: finer digits are noise, and they
/// would lengthen every line of the log.
fn to_microseconds(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

impl LoggedSearch {
    /// The log's form of `decision`, its line written from `state`, where
    /// the agent decided.
    fn of<G: Notation>(seat: usize, decision: &DecisionRecord<G::Move>, state: &G) -> LoggedSearch {
        let search = decision.search.clone().map(|record| record.written(state));
        let SearchRecord {
            depth,
            iterations,
            nodes,
            value,
            mut pv,
            visit_share,
            policy_entropy,
            ..
        } = match search {
            Some(record) => record,
            None => {
                return LoggedSearch {
                    seat,
                    time: to_microseconds(decision.seconds),
                    depth: None,
                    iterations: None,
                    nodes: None,
                    score: None,
                    pv: Vec::new(),
                    visit_share: None,
                    policy_entropy: None,
                };
            }
        };
        pv.truncate(MAX_LOGGED_PV);
        LoggedSearch {
            seat,
            time: to_microseconds(decision.seconds),
            depth,
            iterations,
            nodes: Some(nodes),
            score: into_range(value, &SCORES),
            pv,
            visit_share: visit_share.and_then(|share| into_range(share, &SHARES)),
            policy_entropy: policy_entropy.filter(|entropy| ENTROPIES.contains(entropy)),
        }
    }

    /// Checks the numbers a forged line could get wrong: a time that is a
    /// finite number of seconds, a score in [`SCORES`], a share in
    /// [`SHARES`], a policy entropy in [`ENTROPIES`], a line of at most
    /// [`MAX_LOGGED_PV`] moves: what [`LoggedSearch::of`] writes.
    fn check(&self) -> Result<(), String> {
        if !(self.time.is_finite() && self.time >= 0.0) {
            return Err(format!("a time of {} seconds", self.time));
        }
        if let Some(score) = self.score
            && !SCORES.contains(&score)
        {
            return Err(format!("a score of {score}, outside -1 to 1"));
        }
        if let Some(share) = self.visit_share
            && !SHARES.contains(&share)
        {
            return Err(format!("a visit share of {share}, outside 0 to 1"));
        }
        if let Some(entropy) = self.policy_entropy
            && !ENTROPIES.contains(&entropy)
        {
            return Err(format!("a policy entropy of {entropy}"));
        }
        if self.pv.len() > MAX_LOGGED_PV {
            return Err(format!(
                "a line of {} moves, more than {MAX_LOGGED_PV}",
                self.pv.len()
            ));
        }
        Ok(())
    }
}

impl PlySearch {
    /// The log's form of one ply's decisions, made in `state`: the
    /// mover's for a move, every player's for a joint move.
    pub(super) fn of<G: Notation>(
        decisions: &[DecisionRecord<G::Move>],
        state: &G,
        ply: &Ply<G::Move>,
    ) -> PlySearch {
        match (ply, state.status()) {
            (Ply::Move(_), Status::ToMove(mover)) => {
                let decision = decisions.first().expect("a ply's decision is recorded");
                PlySearch::Move(LoggedSearch::of(mover, decision, state))
            }
            _ => PlySearch::Joint(
                decisions
                    .iter()
                    .enumerate()
                    .map(|(player, decision)| LoggedSearch::of(player, decision, state))
                    .collect(),
            ),
        }
    }

    /// Every decision of the ply.
    pub fn decisions(&self) -> &[LoggedSearch] {
        match self {
            PlySearch::Move(decision) => std::slice::from_ref(decision),
            PlySearch::Joint(decisions) => decisions,
        }
    }
}

/// Checks a logged game's search records against its moves: one entry per
/// ply, shaped as the ply (one decision for a move, one per player of a
/// joint move), each with sound numbers.
pub(super) fn check_search(line: &GameLine) -> Result<(), String> {
    let Some(search) = &line.search else {
        return Ok(());
    };
    if search.len() != line.moves.len() {
        return Err(format!(
            "game {}: {} search records for {} plies",
            line.index,
            search.len(),
            line.moves.len()
        ));
    }
    for (number, (entry, ply)) in search.iter().zip(&line.moves).enumerate() {
        let shaped = match (entry, ply) {
            (PlySearch::Move(decision), PlyText::Move(_)) => decision.seat < line.seats.len(),
            (PlySearch::Joint(decisions), PlyText::Joint(moves)) => {
                decisions.len() == moves.len()
                    && decisions
                        .iter()
                        .enumerate()
                        .all(|(player, decision)| decision.seat == player)
            }
            _ => false,
        };
        let problem = if shaped {
            entry
                .decisions()
                .iter()
                .try_for_each(LoggedSearch::check)
                .err()
        } else {
            Some("a record of another shape than the ply".into())
        };
        if let Some(problem) = problem {
            return Err(format!(
                "game {}: the search record of ply {} has {problem}",
                line.index,
                number + 1
            ));
        }
    }
    Ok(())
}

/// What an agent's decisions cost on average, over the logged games that
/// record them: enough to check from the log that agents meant to search
/// for equal times did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchMeans {
    /// The decisions recorded.
    pub decisions: usize,
    /// The mean seconds per decision.
    pub time: f64,
    /// The longest decision, in seconds.
    pub max_time: f64,
    /// The mean depth, over the decisions that report one (alpha-beta).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<f64>,
    /// The mean simulations, over the decisions that report them (the
    /// MCTS family).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<f64>,
    /// The mean nodes, over the decisions that report them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<f64>,
    /// With a game clock: the mean share of its clock (the base time and
    /// the increments of its moves) the agent used in a game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock_used: Option<f64>,
}
