//! A move of Fenrir's Path.

use super::board::Colour;
use std::fmt;

/// A move: `god` ends its turn on tile `to`, by a walk or a chain of jumps
/// (different routes to one tile are one move). The move also names the god
/// that moves, which is how the previous god's choice of successor is
/// expressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FenrirPathMove {
    /// The god that moves, named by its colour.
    pub god: Colour,
    /// The tile where the god ends its turn: 0 is the Odin tile, the fetter tiles
    /// follow towards the wolf.
    pub to: u8,
}

impl fmt::Display for FenrirPathMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.god.letter(), self.to)
    }
}
