//! A move of a tafl game.

/// A move: the piece on `from` slides (or jumps) to `to` on the same rank
/// or file. Squares are indices (`rank * dim + file`); the state that
/// listed the move names them ([`Notation::move_text`](crate::core::Notation::move_text)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TaflMove {
    /// The square the piece leaves.
    pub from: u16,
    /// The square it stops on.
    pub to: u16,
}

impl TaflMove {
    /// The move from square `from` to square `to`.
    pub fn new(from: usize, to: usize) -> TaflMove {
        TaflMove {
            from: from as u16,
            to: to as u16,
        }
    }
}
