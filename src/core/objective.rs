//! Objectives: how good a winning line is beyond winning (how safely, how
//! fast), the per-game knowledge that a search for the best winning line of a
//! cooperative game uses.

use super::Game;

/// Which way an objective improves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Sense {
    /// A larger value is better (e.g. a safety margin).
    Maximize,
    /// A smaller value is better (e.g. the moves a win takes).
    Minimize,
}

impl Sense {
    /// Whether `a` is strictly better than `b`.
    pub fn better(self, a: i64, b: i64) -> bool {
        match self {
            Sense::Maximize => a > b,
            Sense::Minimize => a < b,
        }
    }
}

/// An integer measure of winning lines, such as the closest an opponent came
/// or the number of plies.
///
/// A search asks "is there a winning line worth at least `target`?" (at most,
/// when minimizing) and answers it as a win under restrictions, so the
/// objective must describe a target exactly by them: a winning line from the
/// root is worth `target` or better if and only if every state on it (the
/// root and the final state included) is [admitted](Objective::admits) and it
/// has at most [`ply_limit`](Objective::ply_limit) plies.
pub trait Objective<G: Game>: Send + Sync {
    /// A short name for reports, e.g. `"safety-margin"`.
    fn name(&self) -> &'static str;

    /// What a value counts, for reports, e.g. `"moves"`.
    fn unit(&self) -> &'static str;

    /// Whether larger or smaller values are better.
    fn sense(&self) -> Sense;

    /// A value no winning line from `root` can beat (an optimistic bound).
    fn optimistic(&self, root: &G) -> i64;

    /// The value of `line`, a winning line from `root`.
    fn line_value(&self, root: &G, line: &[G::Move]) -> i64;

    /// Whether a line worth `target` may pass through `state`.
    fn admits(&self, _state: &G, _target: i64) -> bool {
        true
    }

    /// The most plies a line worth `target` may have (`None`: no limit).
    fn ply_limit(&self, _target: i64) -> Option<u32> {
        None
    }

    /// A lower bound on the plies from `state` to any win, used to cut lines
    /// that cannot finish within the ply limit. It must never overestimate.
    fn plies_to_win_lower_bound(&self, _state: &G) -> u32 {
        0
    }
}
