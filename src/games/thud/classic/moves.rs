//! A move of classic Thud and its record text.

use crate::bitboard::{Bitboard256, Direction, Square};
use crate::games::thud::board::{STEPS, Side, square_name};
use std::fmt;

/// The four kinds of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThudMoveKind {
    /// A dwarf moves like a queen over empty squares.
    DwarfMove,
    /// A dwarf at the front of a line is thrown onto a troll and takes it.
    Hurl,
    /// A troll steps to a neighbouring empty square, taking the chosen dwarfs
    /// around its new square.
    TrollStep,
    /// The front troll of a line is pushed two or more squares and takes the
    /// chosen dwarfs around its new square (at least one).
    Shove,
}

/// A move: the piece on `from` goes to `to`; for troll moves, `captures`
/// says which neighbours of `to` lose their dwarf, one bit per direction in
/// the order of [`Direction::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThudMove {
    /// Which of the four kinds of move this is.
    pub kind: ThudMoveKind,
    /// The square of the piece that moves: the dwarf thrown, the troll that steps
    /// or is shoved.
    pub from: Square,
    /// The square where the piece ends; for a hurl, the square of the troll taken.
    pub to: Square,
    /// For a troll move, the neighbours of `to` that lose their dwarf, one bit per
    /// direction in the order of [`Direction::ALL`]; 0 for a dwarf move.
    pub captures: u8,
}

impl ThudMove {
    /// The squares whose pieces this move captures.
    pub fn captured(self) -> Bitboard256 {
        match self.kind {
            ThudMoveKind::DwarfMove => Bitboard256::EMPTY,
            ThudMoveKind::Hurl => Bitboard256::from_square(self.to),
            ThudMoveKind::TrollStep | ThudMoveKind::Shove => {
                squares_in_directions(self.to, self.captures)
            }
        }
    }

    /// The side whose piece moves.
    pub fn side(self) -> Side {
        match self.kind {
            ThudMoveKind::DwarfMove | ThudMoveKind::Hurl => Side::Dwarfs,
            ThudMoveKind::TrollStep | ThudMoveKind::Shove => Side::Trolls,
        }
    }

    /// Whether the move takes at least one piece.
    pub fn is_capture(self) -> bool {
        self.kind == ThudMoveKind::Hurl || self.captures != 0
    }
}

/// The neighbours of `square` in the directions set in `mask`.
pub(crate) fn squares_in_directions(square: Square, mask: u8) -> Bitboard256 {
    let mut squares = Bitboard256::EMPTY;
    for direction in Direction::ALL {
        if mask >> direction.index() & 1 == 0 {
            continue;
        }
        if let Some(neighbour) = STEPS.neighbour(square, direction) {
            squares = squares.with(neighbour);
        }
    }
    squares
}

/// The directions (as a mask) in which the squares of `set` lie next to `square`.
pub(crate) fn directions_of(square: Square, set: Bitboard256) -> u8 {
    let mut mask = 0;
    for direction in Direction::ALL {
        if STEPS
            .neighbour(square, direction)
            .is_some_and(|n| set.contains(n))
        {
            mask |= 1 << direction.index();
        }
    }
    mask
}

impl fmt::Display for ThudMove {
    /// The move in record notation, e.g. `dA6-D6`, `dE7-G7xG7`, `TH7-H6xG5xH5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let piece = match self.side() {
            Side::Dwarfs => 'd',
            Side::Trolls => 'T',
        };
        write!(
            f,
            "{piece}{}-{}",
            square_name(self.from),
            square_name(self.to)
        )?;
        for captured in self.captured().squares() {
            write!(f, "x{}", square_name(captured))?;
        }
        Ok(())
    }
}
