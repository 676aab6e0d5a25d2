//! A move of Stealth Chess and its long algebraic text.

use super::board::{Kind, square_name};
use crate::bitboard::Square;
use std::fmt;

/// What a move does beyond taking its piece from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// Nothing more: a step, slide or leap (capturing whatever stands on
    /// `to`), a Slurk move, an entry into a Slurk, or an emergence without
    /// a capture.
    None,
    /// A pawn's first move of two squares.
    DoublePush,
    /// A pawn captures en passant on `to`; the captured pawn stands beside.
    EnPassant,
    /// The king castles from `from` to `to`; the rook moves beside it.
    Castle,
    /// A pawn reaches the last rank and becomes this kind.
    Promotion(Kind),
    /// An Assassin emerges from its Slurk on this square, then captures on
    /// the neighbouring square `to` and stands there.
    EmergeCapture(Square),
}

/// A move: the piece on `from` ends on `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StealthChessMove {
    /// The square the piece leaves.
    pub from: Square,
    /// The square where it ends, which is also where it captures unless `special`
    /// says otherwise.
    pub to: Square,
    /// What the move does beyond moving its piece.
    pub special: Special,
}

impl StealthChessMove {
    /// A move with nothing special.
    pub const fn plain(from: Square, to: Square) -> Self {
        StealthChessMove {
            from,
            to,
            special: Special::None,
        }
    }

    /// A move of the given special kind.
    pub const fn new(from: Square, to: Square, special: Special) -> Self {
        StealthChessMove { from, to, special }
    }
}

impl fmt::Display for StealthChessMove {
    /// Long algebraic: `e2e4`, `e7e8q`, castling as the king's move
    /// (`f1h1`), and an emergence with capture as `a5d3xd4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to) = (square_name(self.from), square_name(self.to));
        match self.special {
            Special::Promotion(kind) => {
                write!(f, "{from}{to}{}", kind.letter().to_ascii_lowercase())
            }
            Special::EmergeCapture(via) => write!(f, "{from}{}x{to}", square_name(via)),
            _ => write!(f, "{from}{to}"),
        }
    }
}
