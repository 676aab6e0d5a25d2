//! Move generation: dwarf moves and hurls, troll steps and shoves.
//!
//! One walk over the position feeds a [`MoveSink`]: the move list records
//! every move, the [`MoveCounter`] adds up destination sets and capture
//! choices without building moves, which is what perft's last ply needs.

use super::moves::{ThudMove, ThudMoveKind, directions_of};
use super::options::TrollCaptures;
use super::state::Thud;
use crate::bitboard::{Bitboard256, Direction, Square};
use crate::core::{MoveCounter, MoveSink};
use crate::games::thud::board::{ADJACENT, GEOMETRY, GRID, PLAYABLE, RAYS, STEPS, Side};

/// A troll that steps or is shoved from `from` onto `to`, next to the
/// dwarfs `victims`, with every capture choice the rules allow: nothing
/// first for a step (`may_take_none`), then every victim (all or none) or
/// every non-empty subset of them from the full set downwards (any
/// subset). The choices are worked out only when the moves are read, so a
/// counter pays for their number alone.
#[inline]
fn troll_arrival(
    sink: &mut impl MoveSink<ThudMove>,
    kind: ThudMoveKind,
    from: Square,
    to: Square,
    victims: Bitboard256,
    may_take_none: bool,
    captures: TrollCaptures,
) {
    let mv = move |captures| ThudMove {
        kind,
        from,
        to,
        captures,
    };
    if may_take_none {
        sink.push_move(mv(0));
    }
    if victims.is_empty() {
        return;
    }
    match captures {
        TrollCaptures::AllOrNone => {
            sink.add(1, std::iter::once_with(|| mv(directions_of(to, victims))));
        }
        TrollCaptures::AnySubset => {
            let subsets = std::iter::once_with(|| directions_of(to, victims)).flat_map(|all| {
                std::iter::successors(Some(all), move |&subset| {
                    Some((subset - 1) & all).filter(|&rest| rest != 0)
                })
            });
            sink.add((1 << victims.count()) - 1, subsets.map(mv));
        }
    }
}

/// The length of the unbroken line of `own` pieces that starts on `front`
/// and runs towards `back` (the piece on `front` included).
#[inline]
pub(crate) fn line_length(front: Square, back: Direction, own: Bitboard256) -> u32 {
    match RAYS.nearest(back, front, !own) {
        Some(end) => u32::from(GRID.distance(front, end)),
        None => RAYS.ray(back, front).count() + 1,
    }
}

impl Thud {
    /// Every legal move of the side to move, into `sink` (the game must not
    /// be over).
    pub(crate) fn generate_moves(&self, sink: &mut impl MoveSink<ThudMove>) {
        match self.to_move {
            Side::Dwarfs => self.dwarf_moves(sink),
            Side::Trolls => self.troll_moves(sink),
        }
    }

    /// The number of legal moves of the side to move (ignoring whether the
    /// game is over), counted without building them.
    pub(crate) fn count_moves(&self) -> usize {
        let mut counter = MoveCounter::default();
        self.generate_moves(&mut counter);
        counter.0
    }

    fn dwarf_moves(&self, sink: &mut impl MoveSink<ThudMove>) {
        let occupied = self.occupied();
        for from in self.dwarfs.squares() {
            let mut destinations = Bitboard256::EMPTY;
            for direction in Direction::ALL {
                let ray = RAYS.ray(direction, from);
                let Some(blocker) = RAYS.nearest(direction, from, occupied) else {
                    destinations |= ray;
                    continue;
                };
                destinations |= ray ^ RAYS.ray(direction, blocker).with(blocker);
                if self.trolls.contains(blocker) {
                    // A line of N dwarfs throws its front dwarf up to N squares.
                    let reach = u32::from(GRID.distance(from, blocker));
                    if reach == 1 || line_length(from, direction.opposite(), self.dwarfs) >= reach {
                        sink.push_move(ThudMove {
                            kind: ThudMoveKind::Hurl,
                            from,
                            to: blocker,
                            captures: 0,
                        });
                    }
                }
            }
            sink.add(
                destinations.count() as usize,
                destinations.squares().map(move |to| ThudMove {
                    kind: ThudMoveKind::DwarfMove,
                    from,
                    to,
                    captures: 0,
                }),
            );
        }
    }

    fn troll_moves(&self, sink: &mut impl MoveSink<ThudMove>) {
        let occupied = self.occupied();
        let empty = PLAYABLE & !occupied;
        let captures = self.rules.troll_captures;
        for from in self.trolls.squares() {
            for to in (ADJACENT.targets(from) & empty).squares() {
                let victims = ADJACENT.targets(to) & self.dwarfs;
                troll_arrival(
                    sink,
                    ThudMoveKind::TrollStep,
                    from,
                    to,
                    victims,
                    true,
                    captures,
                );
            }
            for direction in Direction::ALL {
                // The front troll travels over empty squares only.
                let free_run = match RAYS.nearest(direction, from, occupied) {
                    Some(blocker) => u32::from(GRID.distance(from, blocker)) - 1,
                    None => RAYS.ray(direction, from).count(),
                };
                if free_run < 2 {
                    continue;
                }
                let reach = free_run.min(line_length(from, direction.opposite(), self.trolls));
                let mut to = from;
                for travelled in 1..=reach {
                    to = STEPS
                        .neighbour(to, direction)
                        .expect("the run stays on the board");
                    if travelled < 2 {
                        continue;
                    }
                    let victims = ADJACENT.targets(to) & self.dwarfs;
                    if victims.any() {
                        troll_arrival(
                            sink,
                            ThudMoveKind::Shove,
                            from,
                            to,
                            victims,
                            false,
                            captures,
                        );
                    }
                }
            }
        }
    }

    /// Whether the side to move has a legal move. A dwarf can always move or
    /// hurl when a neighbour square is empty or holds a troll, and a troll
    /// can always step when a neighbour square is empty; shoves need an empty
    /// neighbour too, so these tests are exact.
    pub(crate) fn has_legal_move(&self) -> bool {
        let empty = PLAYABLE & !self.occupied();
        match self.to_move {
            Side::Dwarfs => (GEOMETRY.neighbours(self.dwarfs) & (empty | self.trolls)).any(),
            Side::Trolls => (GEOMETRY.neighbours(self.trolls) & empty).any(),
        }
    }
}
