//! The heuristic evaluation of classic Thud for searchers that stop before
//! the end of a battle.

use super::movegen::line_length;
use super::state::Thud;
use crate::bitboard::Direction;
use crate::core::{Evaluate, Game, Player};
use crate::games::thud::board::{GEOMETRY, GRID, PLAYABLE, RAYS, Side};

/// Points for each square a troll could step to: mobile trolls reach more dwarfs.
const TROLL_MOBILITY: f64 = 0.03;
/// Points for each dwarf standing next to another dwarf: lines and blocks of
/// dwarfs can hurl and cannot be picked off one at a time.
const DWARF_COHESION: f64 = 0.05;
/// Points for each dwarf a troll could capture with its next step, counted
/// against the dwarfs; more when the trolls are to move.
const THREATENED_DWARF: (f64, f64) = (0.15, 0.6);
/// Points for each troll a dwarf could hurl onto now, counted for the dwarfs;
/// more when the dwarfs are to move.
const HURL_TARGET: (f64, f64) = (0.5, 2.5);

impl Thud {
    /// The trolls a dwarf could hurl onto if the dwarfs were to move.
    fn hurl_targets(&self) -> u32 {
        let occupied = self.occupied();
        let mut targets = 0;
        for troll in self.trolls.squares() {
            let exposed = Direction::ALL.into_iter().any(|direction| {
                RAYS.nearest(direction, troll, occupied)
                    .filter(|&square| self.dwarfs.contains(square))
                    .is_some_and(|front| {
                        // The dwarf's line runs on away from the troll.
                        let reach = u32::from(GRID.distance(front, troll));
                        line_length(front, direction, self.dwarfs) >= reach
                    })
            });
            targets += u32::from(exposed);
        }
        targets
    }

    /// The position's value for the dwarfs in points: the margin plus
    /// positional terms worth a few points at most.
    fn heuristic_margin(&self) -> f64 {
        let empty = PLAYABLE & !self.occupied();
        let troll_reach = GEOMETRY.neighbours(self.trolls) & empty;
        let threatened = (GEOMETRY.neighbours(troll_reach) & self.dwarfs).count();
        let cohesive = (GEOMETRY.neighbours(self.dwarfs) & self.dwarfs).count();
        let pick = |(waiting, to_move): (f64, f64), mover: Side| {
            if self.to_move == mover {
                to_move
            } else {
                waiting
            }
        };
        f64::from(self.margin()) - TROLL_MOBILITY * f64::from(troll_reach.count())
            + DWARF_COHESION * f64::from(cohesive)
            - pick(THREATENED_DWARF, Side::Trolls) * f64::from(threatened.min(4))
            + pick(HURL_TARGET, Side::Dwarfs) * f64::from(self.hurl_targets().min(2))
    }
}

impl Evaluate for Thud {
    /// The expected margin for `player` in points: material at 1 point a
    /// dwarf and 4 a troll, troll mobility, dwarf cohesion and immediate
    /// capture threats; the exact margin once the battle is over.
    fn evaluate(&self, player: Player) -> f64 {
        let for_dwarfs = match self.status().outcome() {
            Some(outcome) => outcome.payoffs.get(0),
            None => {
                let (low, high) = self.payoff_range();
                self.heuristic_margin().clamp(low, high)
            }
        };
        if player == Side::Dwarfs.player() {
            for_dwarfs
        } else {
            -for_dwarfs
        }
    }

    /// Hurls, and troll steps or shoves that take dwarfs.
    fn is_tactical(&self, mv: Self::Move) -> bool {
        mv.is_capture()
    }
}
