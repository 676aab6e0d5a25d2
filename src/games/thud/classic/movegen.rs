//! Move generation: dwarf moves and hurls, troll steps and shoves.
//!
//! One walk over the position feeds a [`MoveSink`]: the move list records
//! every move, the counter adds up destination sets and capture choices
//! without building moves, which is what perft's last ply needs.

use super::moves::{ThudMove, ThudMoveKind, directions_of};
use super::options::TrollCaptures;
use super::state::Thud;
use crate::bitboard::{Bitboard256, Direction, Square};
use crate::core::MoveList;
use crate::games::thud::board::{ADJACENT, GEOMETRY, GRID, PLAYABLE, RAYS, STEPS, Side};

/// Where generated moves go.
trait MoveSink {
    /// Plain dwarf moves from `from` to every square of `destinations`.
    fn dwarf_moves(&mut self, from: Square, destinations: Bitboard256);
    /// A hurl from `from` onto the troll on `to`.
    fn hurl(&mut self, from: Square, to: Square);
    /// A troll step or shove arriving on `to` next to the dwarfs `victims`,
    /// with every capture choice `captures` allows. `may_take_none` is true
    /// for steps, which need not capture.
    fn troll_arrival(
        &mut self,
        kind: ThudMoveKind,
        from: Square,
        to: Square,
        victims: Bitboard256,
        may_take_none: bool,
        captures: TrollCaptures,
    );
}

impl MoveSink for MoveList<ThudMove> {
    #[inline]
    fn dwarf_moves(&mut self, from: Square, destinations: Bitboard256) {
        for to in destinations.squares() {
            self.push(ThudMove {
                kind: ThudMoveKind::DwarfMove,
                from,
                to,
                captures: 0,
            });
        }
    }

    #[inline]
    fn hurl(&mut self, from: Square, to: Square) {
        self.push(ThudMove {
            kind: ThudMoveKind::Hurl,
            from,
            to,
            captures: 0,
        });
    }

    #[inline]
    fn troll_arrival(
        &mut self,
        kind: ThudMoveKind,
        from: Square,
        to: Square,
        victims: Bitboard256,
        may_take_none: bool,
        captures: TrollCaptures,
    ) {
        let mut push = |captures| {
            self.push(ThudMove {
                kind,
                from,
                to,
                captures,
            })
        };
        if may_take_none {
            push(0);
        }
        if victims.is_empty() {
            return;
        }
        let all = directions_of(to, victims);
        match captures {
            TrollCaptures::AllOrNone => push(all),
            TrollCaptures::AnySubset => {
                // Every non-empty subset of `all`, from the full set downwards.
                let mut subset = all;
                while subset != 0 {
                    push(subset);
                    subset = (subset - 1) & all;
                }
            }
        }
    }
}

/// Counts moves without listing them.
struct MoveCounter(usize);

impl MoveSink for MoveCounter {
    #[inline]
    fn dwarf_moves(&mut self, _from: Square, destinations: Bitboard256) {
        self.0 += destinations.count() as usize;
    }

    #[inline]
    fn hurl(&mut self, _from: Square, _to: Square) {
        self.0 += 1;
    }

    #[inline]
    fn troll_arrival(
        &mut self,
        _kind: ThudMoveKind,
        _from: Square,
        _to: Square,
        victims: Bitboard256,
        may_take_none: bool,
        captures: TrollCaptures,
    ) {
        let choices = match (victims.count(), captures) {
            (0, _) => 0,
            (_, TrollCaptures::AllOrNone) => 1,
            (n, TrollCaptures::AnySubset) => (1 << n) - 1,
        };
        self.0 += choices + usize::from(may_take_none);
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
    /// Appends every legal move of the side to move (the game must not be over).
    pub(crate) fn generate_moves(&self, moves: &mut MoveList<ThudMove>) {
        self.visit_moves(moves);
    }

    /// The number of legal moves of the side to move (ignoring whether the
    /// game is over).
    pub(crate) fn count_moves(&self) -> usize {
        let mut counter = MoveCounter(0);
        self.visit_moves(&mut counter);
        counter.0
    }

    fn visit_moves(&self, sink: &mut impl MoveSink) {
        match self.to_move {
            Side::Dwarfs => self.visit_dwarf_moves(sink),
            Side::Trolls => self.visit_troll_moves(sink),
        }
    }

    fn visit_dwarf_moves(&self, sink: &mut impl MoveSink) {
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
                        sink.hurl(from, blocker);
                    }
                }
            }
            sink.dwarf_moves(from, destinations);
        }
    }

    fn visit_troll_moves(&self, sink: &mut impl MoveSink) {
        let occupied = self.occupied();
        let empty = PLAYABLE & !occupied;
        let captures = self.rules.troll_captures;
        for from in self.trolls.squares() {
            for to in (ADJACENT.targets(from) & empty).squares() {
                let victims = ADJACENT.targets(to) & self.dwarfs;
                sink.troll_arrival(ThudMoveKind::TrollStep, from, to, victims, true, captures);
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
                        sink.troll_arrival(ThudMoveKind::Shove, from, to, victims, false, captures);
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
