//! Move generation: every piece slides like a rook; only the king may stop on
//! the throne or a corner, and any piece may pass over the empty throne.

use super::board::{BOARD, GEOMETRY, RAYS, RESTRICTED, Side};
use super::moves::HnefataflMove;
use super::state::Hnefatafl;
use crate::bitboard::{Bitboard128, Direction, Square};
use crate::core::MoveList;

impl Hnefatafl {
    /// Calls `visit(from, destinations)` for every piece of the side to move
    /// that has at least one destination, in increasing order of square (the
    /// king last).
    #[inline]
    pub(crate) fn for_each_piece_destinations(&self, mut visit: impl FnMut(Square, Bitboard128)) {
        let occupied = self.occupied();
        let free = !occupied;
        let soldiers = match self.to_move {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        for from in soldiers.squares() {
            // The empty throne is not in `occupied`, so rays run across it.
            let destinations = RAYS.rook_attacks(from, occupied) & free & !RESTRICTED;
            if destinations.any() {
                visit(from, destinations);
            }
        }
        if self.to_move == Side::Defenders {
            let destinations = RAYS.rook_attacks(self.king, occupied) & free;
            if destinations.any() {
                visit(self.king, destinations);
            }
        }
    }

    /// Appends every legal move of the side to move (the game must not be
    /// over).
    pub(crate) fn generate_moves(&self, moves: &mut MoveList<HnefataflMove>) {
        self.for_each_piece_destinations(|from, destinations| {
            for to in destinations.squares() {
                moves.push(HnefataflMove { from, to });
            }
        });
    }

    /// The number of legal moves of the side to move (ignoring whether the
    /// game is over). Soldiers are counted in bulk: in each direction, every
    /// empty square a soldier slides over is one move of exactly one soldier.
    pub(crate) fn count_moves(&self) -> usize {
        let occupied = self.occupied();
        let empty = BOARD & !occupied;
        let soldiers = match self.to_move {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        let landing = empty & !RESTRICTED;
        let mut count = 0;
        for direction in Direction::ORTHOGONAL {
            count += (GEOMETRY.slide_fill(soldiers, empty, direction) & landing).count();
        }
        if self.to_move == Side::Defenders {
            count += (RAYS.rook_attacks(self.king, occupied) & empty).count();
        }
        count as usize
    }

    /// Whether the side to move has a legal move. Almost always some piece has
    /// a free neighbour it may stop on, which a few shifts decide; otherwise
    /// the moves are counted in full.
    pub(crate) fn has_legal_move(&self) -> bool {
        let empty = BOARD & !self.occupied();
        let soldiers = match self.to_move {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        if (GEOMETRY.orthogonal_neighbours(soldiers) & empty & !RESTRICTED).any() {
            return true;
        }
        if self.to_move == Side::Defenders
            && (GEOMETRY.orthogonal_neighbours(Bitboard128::from_square(self.king)) & empty).any()
        {
            return true;
        }
        self.count_moves() > 0
    }
}
