//! Move generation: the points where the character to move may end.

use super::board::{NEIGHBOURS, bit, points_of};
use super::moves::{Character, NibelungenMove};
use super::options::NibelungenRules;
use super::state::Nibelungen;
use crate::core::MoveList;

impl Nibelungen {
    /// The points where `character` may end its move this round, as bits:
    /// every point reachable in at most its number of steps through empty
    /// points (over occupied ones too with `pass-through`, but always ending
    /// on an empty one), its own point included unless `stay` is off and it
    /// has somewhere else to go.
    pub fn destinations(&self, character: Character) -> u16 {
        let (_, steps) = self.movers();
        reachable(self.point_of(character), steps, self.occupied, &self.rules)
    }

    /// Lists the moves of the character to move; between rounds, none (the
    /// players choose through [`crate::core::Simultaneous`]).
    pub(crate) fn generate_moves(&self, moves: &mut MoveList<NibelungenMove>) {
        if let Some(character) = self.next {
            moves.extend(points_of(self.destinations(character)).map(NibelungenMove::MoveTo));
        }
    }

    /// The number of moves [`Nibelungen::generate_moves`] lists.
    pub(crate) fn count_moves(&self) -> usize {
        self.next.map_or(0, |character| {
            self.destinations(character).count_ones() as usize
        })
    }
}

/// The points where a character on `from` may end a move of up to `steps`
/// steps, as bits, with the points in `occupied` taken: every point
/// reachable through empty points (over occupied ones too with
/// `pass-through`, but always ending on an empty one), `from` included
/// unless `stay` is off and it has somewhere else to go.
pub fn reachable(from: u8, steps: u8, occupied: u16, rules: &NibelungenRules) -> u16 {
    let empty = !occupied;
    let mut ends = bit(from);
    let mut frontier = bit(from);
    for _ in 0..steps {
        let mut next = 0;
        for point in points_of(frontier) {
            next |= NEIGHBOURS[point as usize];
        }
        ends |= next & empty;
        frontier = if rules.pass_through {
            next
        } else {
            next & empty
        };
    }
    if !rules.stay && ends != bit(from) {
        ends &= !bit(from);
    }
    ends
}
