//! What searchers use: the evaluation, and the objectives that make one
//! winning line better than another (the wolf kept far from Odin, few moves).

use super::board::{tile_bit, tile_range};
use super::moves::FenrirPathMove;
use super::state::FenrirPath;
use crate::core::{Evaluate, Game, Objective, Player, Sense};

impl FenrirPath {
    /// How many of the gods that may move next can collect a tile.
    fn collecting_gods(&self) -> u32 {
        self.gods_to_move()
            .filter(|god| {
                self.destinations(*god) & self.colour_tiles[god.index()] & !self.collected != 0
            })
            .count() as u32
    }

    /// How close the gods stand to tiles they can still collect, between 0
    /// and 1: the mean over gods of `1 / (1 + distance)`, a god with nothing
    /// left to collect counting as 1.
    fn closeness(&self) -> f64 {
        let mut total = 0.0;
        for god in self.colours() {
            let left = self.colour_tiles[god.index()] & !self.collected;
            let at = self.gods[god.index()];
            let above = left & !tile_range(0, at);
            let below = left & (tile_bit(at) - 1);
            let mut distance = u32::MAX;
            if above != 0 {
                distance = above.trailing_zeros() - u32::from(at);
            }
            if below != 0 {
                distance = distance.min(u32::from(at) - (31 - below.leading_zeros()));
            }
            total += if left == 0 {
                1.0
            } else {
                1.0 / (1.0 + f64::from(distance))
            };
        }
        total / f64::from(self.rules.colours())
    }
}

impl Evaluate for FenrirPath {
    /// The team's prospects between 0 (lost) and 1 (won): mostly the share of
    /// the needed tiles collected and the wolf's distance from Odin, in equal
    /// parts; a little for the gods that could collect on the next move and
    /// for how close the gods stand to tiles they can still collect. The
    /// small terms break the ties between moves that do not collect, which
    /// is what makes the cooperative solver find wins after a few dozen
    /// states on most deals instead of hundreds.
    fn evaluate(&self, _player: Player) -> f64 {
        match self.ending {
            Some(reason) => {
                if reason.is_win() {
                    1.0
                } else {
                    0.0
                }
            }
            None => {
                let needed =
                    f64::from(self.rules.sets_to_win()) * f64::from(self.rules.tiles_per_colour());
                let progress = 1.0 - f64::from(self.tiles_still_needed()) / needed;
                let safety = f64::from(self.wolf) / f64::from(self.rules.last_tile());
                let chances = f64::from(self.collecting_gods()) / f64::from(self.rules.colours());
                // Strictly inside (0, 1): only finished games are certain.
                0.01 + 0.98
                    * (0.45 * progress + 0.45 * safety + 0.05 * chances + 0.05 * self.closeness())
            }
        }
    }

    /// Collecting moves are the ones that change the balance.
    fn is_tactical(&self, mv: FenrirPathMove) -> bool {
        self.collects(mv)
    }
}

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

    fn line_value(&self, root: &FenrirPath, line: &[FenrirPathMove]) -> i64 {
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

    fn line_value(&self, _root: &FenrirPath, line: &[FenrirPathMove]) -> i64 {
        line.len() as i64
    }

    fn ply_limit(&self, target: i64) -> Option<u32> {
        Some(target.clamp(0, i64::from(u32::MAX - 1)) as u32)
    }

    fn plies_to_win_lower_bound(&self, state: &FenrirPath) -> u32 {
        state.plies_to_win_lower_bound()
    }
}
