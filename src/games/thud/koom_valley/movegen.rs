//! Move generation: dwarf and Rock moves, troll moves and tramples.
//!
//! Tramples are found by a depth-first search over jump directions in the
//! order of [`Direction::ALL`]. Different jump orders can end on the same
//! square having crossed the same dwarfs (a troll can circle back to where
//! it started); such moves lead to the same position, so only the first path
//! found (the smallest in that order) is listed.

use super::moves::{KoomValleyMove, KoomValleyMoveKind, MAX_JUMPS};
use super::state::KoomValley;
use crate::bitboard::{Bitboard256, Direction, Square};
use crate::core::{MoveCounter, MoveSink};
use crate::games::thud::board::{ADJACENT, GEOMETRY, PLAYABLE, RAYS, STEPS, Side};
use smallvec::SmallVec;

/// How far a troll moves without trampling.
pub const TROLL_RANGE: u32 = 3;

/// Moves of one `kind` from `from` to every square of `destinations`.
#[inline(always)]
fn simple_moves(
    sink: &mut impl MoveSink<KoomValleyMove>,
    kind: KoomValleyMoveKind,
    from: Square,
    destinations: Bitboard256,
) {
    sink.add(
        destinations.count() as usize,
        destinations
            .squares()
            .map(move |to| KoomValleyMove::simple(kind, from, to)),
    );
}

/// The trample search from one troll: the outcomes already listed, as
/// (landing square, dwarfs crossed).
struct TrampleSearch {
    from: Square,
    seen: SmallVec<[(Square, Bitboard256); 8]>,
}

/// A troll part-way through a trample.
#[derive(Clone, Copy)]
struct TrampleNode {
    /// Where the troll stands.
    at: Square,
    /// The dwarfs not yet crossed.
    dwarfs: Bitboard256,
    /// The squares the troll may land on (its starting square included).
    empty: Bitboard256,
    /// The jumps so far, as recorded in [`KoomValleyMove`].
    jumps: u64,
    count: u8,
}

impl KoomValley {
    /// Every legal move of the side to move, into `sink` (the game must not
    /// be over).
    pub(crate) fn generate_moves(&self, sink: &mut impl MoveSink<KoomValleyMove>) {
        let occupied = self.occupied();
        let empty = PLAYABLE & !occupied;
        match self.to_move {
            Side::Dwarfs => {
                for from in self.dwarfs.squares() {
                    let destinations = RAYS.queen_attacks(from, occupied) & empty;
                    simple_moves(sink, KoomValleyMoveKind::DwarfMove, from, destinations);
                }
                simple_moves(
                    sink,
                    KoomValleyMoveKind::RockMove,
                    self.rock,
                    self.rock_destinations(),
                );
            }
            Side::Trolls => {
                for from in self.trolls.squares() {
                    simple_moves(
                        sink,
                        KoomValleyMoveKind::TrollMove,
                        from,
                        self.troll_destinations(from, occupied),
                    );
                }
                for from in self.trolls.squares() {
                    let mut search = TrampleSearch {
                        from,
                        seen: SmallVec::new(),
                    };
                    let root = TrampleNode {
                        at: from,
                        dwarfs: self.dwarfs,
                        empty: empty.with(from),
                        jumps: 0,
                        count: 0,
                    };
                    self.search_tramples(&mut search, sink, root);
                }
            }
        }
    }

    /// The number of legal moves of the side to move (ignoring whether the
    /// game is over), counted without building the simple moves.
    pub(crate) fn count_moves(&self) -> usize {
        let mut counter = MoveCounter::default();
        self.generate_moves(&mut counter);
        counter.0
    }

    /// The squares the Rock may be pushed to: empty neighbours that are next
    /// to a dwarf, provided a dwarf stands next to the Rock now.
    pub(crate) fn rock_destinations(&self) -> Bitboard256 {
        if !ADJACENT.targets(self.rock).intersects(self.dwarfs) {
            return Bitboard256::EMPTY;
        }
        let empty = PLAYABLE & !self.occupied();
        ADJACENT.targets(self.rock) & empty & GEOMETRY.neighbours(self.dwarfs)
    }

    /// The squares a troll on `from` reaches by moving one to three squares
    /// in a line over empty squares.
    pub(crate) fn troll_destinations(&self, from: Square, occupied: Bitboard256) -> Bitboard256 {
        let mut destinations = Bitboard256::EMPTY;
        for direction in Direction::ALL {
            let mut at = from;
            for _ in 0..TROLL_RANGE {
                match STEPS.neighbour(at, direction) {
                    Some(next) if !occupied.contains(next) => {
                        destinations = destinations.with(next);
                        at = next;
                    }
                    _ => break,
                }
            }
        }
        destinations
    }

    /// Lists every trample that continues from `node`.
    fn search_tramples(
        &self,
        search: &mut TrampleSearch,
        sink: &mut impl MoveSink<KoomValleyMove>,
        node: TrampleNode,
    ) {
        if node.count >= MAX_JUMPS {
            return;
        }
        for direction in Direction::ALL {
            let Some(over) = STEPS
                .neighbour(node.at, direction)
                .filter(|&s| node.dwarfs.contains(s))
            else {
                continue;
            };
            let Some(landing) = STEPS
                .neighbour(over, direction)
                .filter(|&s| node.empty.contains(s))
            else {
                continue;
            };
            let remaining = node.dwarfs.without(over);
            let crossed = self.dwarfs & !remaining;
            if search.seen.contains(&(landing, crossed)) {
                // The same position was reached by an earlier path, and so
                // was everything that can follow from it.
                continue;
            }
            search.seen.push((landing, crossed));
            let next = TrampleNode {
                at: landing,
                dwarfs: remaining,
                empty: node.empty.with(over).with(node.at).without(landing),
                jumps: KoomValleyMove::add_jump(node.jumps, node.count, direction),
                count: node.count + 1,
            };
            sink.push_move(KoomValleyMove::trample(
                search.from,
                landing,
                next.jumps,
                next.count,
            ));
            self.search_tramples(search, sink, next);
        }
    }

    /// Whether the side to move has a legal move. The dwarfs can move when a
    /// dwarf has an empty neighbour (the Rock can only go to such a square);
    /// the trolls when a troll has an empty neighbour or can trample.
    pub(crate) fn has_legal_move(&self) -> bool {
        let empty = PLAYABLE & !self.occupied();
        match self.to_move {
            Side::Dwarfs => (GEOMETRY.neighbours(self.dwarfs) & empty).any(),
            Side::Trolls => {
                (GEOMETRY.neighbours(self.trolls) & empty).any()
                    || self.trolls.squares().any(|troll| {
                        Direction::ALL.into_iter().any(|direction| {
                            STEPS
                                .neighbour(troll, direction)
                                .filter(|&over| self.dwarfs.contains(over))
                                .and_then(|over| STEPS.neighbour(over, direction))
                                .is_some_and(|landing| empty.contains(landing))
                        })
                    })
            }
        }
    }
}
