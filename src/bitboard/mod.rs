//! Fixed-size bitboards, square indices and the tables sliding pieces need.
//!
//! A [`Grid`] describes a rectangular board; [`Rays128`] holds, for boards of up
//! to 128 squares, the squares beyond each square in each of the eight
//! directions, from which sliding moves are computed with one mask and one
//! bit scan per direction.

mod bb128;
mod grid;
mod square;

pub use bb128::{Bitboard128, Squares128};
pub use grid::{Direction, Grid, Rays128};
pub use square::Square;
