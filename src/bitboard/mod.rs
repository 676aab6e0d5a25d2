//! Fixed-size bitboards, square indices and the board helpers built on them.
//!
//! A [`Grid`] describes a rectangular board. [`Bitboard128`] holds boards of
//! up to 128 squares and [`Bitboard256`] boards of up to 256 (the 15x15 Thud
//! board); both have the same methods, shared through the [`Bitboard`] trait.
//! On top of them, written once for both widths and built in constants:
//!
//! - [`Geometry`]: a grid and its playable squares as operations on whole
//!   sets (one-step shifts, neighbours, occluded slide fills, flood fills);
//! - [`Rays`]: for every square, the squares beyond it in each of the eight
//!   directions, from which sliding moves are computed with one mask and one
//!   bit scan per direction;
//! - [`Steps`]: the neighbour of every square in each direction;
//! - [`Leaps`]: the squares a king, a knight or another leaper reaches;
//! - [`SquareNames`]: square names such as `f6` and `H8`.

mod bb128;
mod bb256;
mod geometry;
mod grid;
mod leaps;
mod names;
mod rays;
mod set;
mod square;
mod steps;
#[cfg(test)]
mod test_boards;

pub use bb128::{Bitboard128, Squares128};
pub use bb256::{Bitboard256, Squares256};
pub use geometry::{Geometry, Geometry128, Geometry256};
pub use grid::{Direction, Grid};
pub use leaps::{Leaps, Leaps128, Leaps256};
pub use names::SquareNames;
pub use rays::{Rays, Rays128, Rays256};
pub use set::Bitboard;
pub use square::Square;
pub use steps::{Steps, Steps128, Steps256};
