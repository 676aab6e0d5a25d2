//! What a move does: collecting, the wolf's step, gods sent to Odin, the end
//! of the game.

use super::board::{MAX_COLOURS, ODIN};
use super::moves::FenrirPathMove;
use super::options::{NoMoves, TurnOrder};
use super::state::{EndReason, FenrirPath, NOBODY};

impl FenrirPath {
    /// Plays a legal move: the god lands, collects or not, the wolf steps,
    /// and the game may end.
    #[inline]
    pub(crate) fn apply_move(&mut self, mv: FenrirPathMove) {
        let collects = self.collects(mv);
        let god = mv.god.index();
        self.place_god(god, mv.to);
        self.set_last_mover(god as u8);
        self.ply += 1;
        if collects {
            self.collect(mv.to);
            if self.complete_sets() >= self.rules.sets_to_win() {
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
        if self.rules.wolf_sweeps() {
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
        for god in 0..self.rules.colours() as usize {
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
            match self.rules.no_moves() {
                NoMoves::Lose => {
                    self.ending = Some(EndReason::NoMoves);
                    return;
                }
                NoMoves::Pass => {
                    if self.advance_wolf() {
                        return;
                    }
                    if self.rules.turn_order() == TurnOrder::Free {
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
        missing[..self.rules.sets_to_win() as usize].iter().sum()
    }

    /// A lower bound on the moves left before a win. A move collects at most
    /// one tile, so the tiles still needed in the cheapest choice of colours
    /// is one; and when the team must name another god after each move
    /// (free turn order without repeats, and no lost turns that would lift
    /// the restriction), a god that still needs `k` tiles needs `2k - 1`
    /// moves of the team at least.
    pub fn plies_to_win_lower_bound(&self) -> u32 {
        let alternating = self.rules.turn_order() == TurnOrder::Free
            && !self.rules.repeat_mover()
            && self.rules.no_moves() == NoMoves::Lose;
        let colours = self.rules.colours() as u32;
        let missing = self
            .colour_tiles
            .map(|tiles| (tiles & !self.collected).count_ones());
        (0u32..1 << colours)
            .filter(|chosen| chosen.count_ones() == u32::from(self.rules.sets_to_win()))
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

/// Tests of single rules on small hand-made positions live in
/// tests/suite/fenrir_path_rules.rs; these check internal helpers.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Evaluate, Game};
    use crate::games::fenrir_path::FenrirPathRules;
    use crate::games::fenrir_path::board::tile_bit;

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
