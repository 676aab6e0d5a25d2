//! What a move does: collecting, the wolf's step, gods sent to Odin, the end
//! of the game; and the evaluation searchers use.

use super::board::{MAX_COLOURS, ODIN, tile_bit, tile_range};
use super::state::{EndReason, FenrirPath, NOBODY, NoMoves, PathMove, TurnOrder};
use crate::core::{Evaluate, Player};

impl FenrirPath {
    /// Plays a legal move: the god lands, collects or not, the wolf steps,
    /// and the game may end.
    #[inline]
    pub(crate) fn apply_move(&mut self, mv: PathMove) {
        let collects = self.collects(mv);
        let god = mv.god.index();
        self.place_god(god, mv.to);
        self.set_last_mover(god as u8);
        self.ply += 1;
        if collects {
            self.collect(mv.to);
            if self.complete_sets() >= self.rules.sets_to_win {
                self.ending = Some(EndReason::FenrirBound);
                return;
            }
            let back = (self.wolf + 1).min(self.rules.last_tile());
            if back != self.wolf {
                self.place_wolf(back);
                self.send_to_odin(back);
            }
        } else if self.advance_wolf() {
            return;
        }
        self.settle_turn();
    }

    /// The wolf's two tiles towards Odin. Returns whether it reached Odin,
    /// which ends the game.
    #[inline]
    fn advance_wolf(&mut self) -> bool {
        let from = self.wolf;
        let to = from.saturating_sub(2);
        self.place_wolf(to);
        if to == ODIN {
            self.ending = Some(EndReason::WolfReachedOdin);
            return true;
        }
        if self.rules.wolf_sweeps {
            for passed in to + 1..from {
                self.send_to_odin(passed);
            }
        }
        self.send_to_odin(to);
        false
    }

    /// Sends the god standing on `tile` (not the Odin tile) to Odin.
    #[inline]
    fn send_to_odin(&mut self, tile: u8) {
        for god in 0..self.rules.colours as usize {
            if self.gods[god] == tile {
                self.place_god(god, ODIN);
            }
        }
    }

    /// Applies the rule for a team without a legal move: the gods lose, or
    /// (house rule) turns are lost, the wolf advancing each time, until a god
    /// can move or the wolf reaches Odin.
    pub(crate) fn settle_turn(&mut self) {
        while !self.team_can_move() {
            match self.rules.no_moves {
                NoMoves::Lose => {
                    self.ending = Some(EndReason::NoMoves);
                    return;
                }
                NoMoves::Pass => {
                    if self.advance_wolf() {
                        return;
                    }
                    if self.rules.turn_order == TurnOrder::Free {
                        self.set_last_mover(NOBODY);
                    }
                }
            }
        }
    }

    /// Tiles still to collect to win, taking the colours closest to complete.
    /// Every move collects at most one tile, so this many plies at least
    /// remain before a win.
    pub fn tiles_still_needed(&self) -> u32 {
        // Colours not in play count as never completable.
        let mut missing = [u32::MAX; MAX_COLOURS];
        for colour in self.colours() {
            missing[colour.index()] =
                (self.colour_tiles[colour.index()] & !self.collected).count_ones();
        }
        missing.sort_unstable();
        missing[..self.rules.sets_to_win as usize].iter().sum()
    }

    /// A lower bound on the moves left before a win. A move collects at most
    /// one tile, so the tiles still needed in the cheapest choice of colours
    /// is one; and when the team must name another god after each move
    /// (free turn order without repeats, and no lost turns that would lift
    /// the restriction), a god that still needs `k` tiles needs `2k - 1`
    /// moves of the team at least.
    pub fn plies_to_win_lower_bound(&self) -> u32 {
        let alternating = self.rules.turn_order == TurnOrder::Free
            && !self.rules.repeat_mover
            && self.rules.no_moves == NoMoves::Lose;
        let colours = self.rules.colours as u32;
        let missing = self
            .colour_tiles
            .map(|tiles| (tiles & !self.collected).count_ones());
        (0u32..1 << colours)
            .filter(|chosen| chosen.count_ones() == u32::from(self.rules.sets_to_win))
            .map(|chosen| {
                let needed = (0..colours)
                    .filter(|c| chosen & (1 << c) != 0)
                    .map(|c| missing[c as usize]);
                let total: u32 = needed.clone().sum();
                let most = needed.max().unwrap_or(0);
                if alternating {
                    total.max((2 * most).saturating_sub(1))
                } else {
                    total
                }
            })
            .min()
            .unwrap_or(0)
    }
}

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
        total / f64::from(self.rules.colours)
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
                    f64::from(self.rules.sets_to_win) * f64::from(self.rules.tiles_per_colour);
                let progress = 1.0 - f64::from(self.tiles_still_needed()) / needed;
                let safety = f64::from(self.wolf) / f64::from(self.rules.last_tile());
                let chances = f64::from(self.collecting_gods()) / f64::from(self.rules.colours);
                // Strictly inside (0, 1): only finished games are certain.
                0.01 + 0.98
                    * (0.45 * progress + 0.45 * safety + 0.05 * chances + 0.05 * self.closeness())
            }
        }
    }

    /// Collecting moves are the ones that change the balance.
    fn is_tactical(&self, mv: PathMove) -> bool {
        self.collects(mv)
    }
}

/// Tests of single rules on small hand-made positions live in
/// tests/fenrir_path_rules.rs; these check internal helpers.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::games::fenrir_path::FenrirPathRules;

    #[test]
    fn tiles_still_needed_takes_the_closest_colours() {
        let mut state = FenrirPath::from_deal(
            &"RRRRRRBBBBBBGGGGGGYYYYYY:RBGY".parse().unwrap(),
            FenrirPathRules::default(),
        )
        .unwrap();
        assert_eq!(state.tiles_still_needed(), 18);
        state.collected = tile_bit(1) | tile_bit(2) | tile_bit(24);
        assert_eq!(state.tiles_still_needed(), 18 - 3);
        assert!(state.evaluate(0) > 0.0 && state.evaluate(0) < 1.0);
        assert_eq!(state.payoff_range(), (0.0, 1.0));
    }
}
