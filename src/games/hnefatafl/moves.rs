//! A move of Copenhagen Hnefatafl.

use super::board::square_name;
use crate::bitboard::Square;
use std::fmt;

/// A move: the piece on `from` slides to `to` along a rank or file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HnefataflMove {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it stops on, on the same rank or file.
    pub to: Square,
}

impl fmt::Display for HnefataflMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", square_name(self.from), square_name(self.to))
    }
}
