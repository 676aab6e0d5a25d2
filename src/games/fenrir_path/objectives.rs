//! What makes one winning line better than another: the wolf kept far from
//! Odin (safety margin), and few moves (shortest win).

use super::state::{FenrirPath, PathMove};
use crate::core::{Game, Objective, Sense};

/// The closest the wolf comes to Odin on a line: its smallest tile number,
/// the start included. A line has margin `k` or more when the wolf never
/// stands on a tile below `k`.
#[derive(Clone, Copy, Debug, Default)]
pub struct SafetyMargin;

impl Objective<FenrirPath> for SafetyMargin {
    fn name(&self) -> &'static str {
        "safety-margin"
    }

    fn unit(&self) -> &'static str {
        "tiles (the wolf's closest approach to Odin)"
    }

    fn sense(&self) -> Sense {
        Sense::Maximize
    }

    /// The wolf is already where it is.
    fn optimistic(&self, root: &FenrirPath) -> i64 {
        i64::from(root.wolf())
    }

    fn line_value(&self, root: &FenrirPath, line: &[PathMove]) -> i64 {
        let mut state = root.clone();
        let mut closest = state.wolf();
        for &mv in line {
            state.play(mv);
            closest = closest.min(state.wolf());
        }
        i64::from(closest)
    }

    fn admits(&self, state: &FenrirPath, target: i64) -> bool {
        i64::from(state.wolf()) >= target
    }
}

/// The number of moves to the win.
#[derive(Clone, Copy, Debug, Default)]
pub struct ShortestWin;

impl Objective<FenrirPath> for ShortestWin {
    fn name(&self) -> &'static str {
        "shortest-win"
    }

    fn unit(&self) -> &'static str {
        "moves"
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn optimistic(&self, root: &FenrirPath) -> i64 {
        i64::from(root.plies_to_win_lower_bound())
    }

    fn line_value(&self, _root: &FenrirPath, line: &[PathMove]) -> i64 {
        line.len() as i64
    }

    fn ply_limit(&self, target: i64) -> Option<u32> {
        Some(target.clamp(0, i64::from(u32::MAX - 1)) as u32)
    }

    fn plies_to_win_lower_bound(&self, state: &FenrirPath) -> u32 {
        state.plies_to_win_lower_bound()
    }
}
