//! Fixed-size bitboards, square indices and the tables sliding pieces need.
//!
//! A [`Grid`] describes a rectangular board. [`Bitboard128`] holds boards of
//! up to 128 squares and [`Bitboard256`] boards of up to 256 (the 15x15 Thud
//! board); both have the same methods. [`Rays128`] and [`Rays256`] hold, for
//! every square, the squares beyond it in each of the eight directions, from
//! which sliding moves are computed with one mask and one bit scan per
//! direction.

mod bb128;
mod bb256;
mod grid;
mod square;

pub use bb128::{Bitboard128, Squares128};
pub use bb256::{Bitboard256, Rays256, Squares256};
pub use grid::{Direction, Grid, Rays128};
pub use square::Square;
