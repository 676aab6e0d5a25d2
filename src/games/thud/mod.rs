//! Thud and Koom Valley Thud: two games of dwarfs against trolls on the same
//! octagonal board, with shared board code and separate rules.
//!
//! - [`classic`]: the original battle, scored by the margin of surviving pieces;
//! - [`koom_valley`]: the 2005 race of the dwarfs to carry the Rock across
//!   the valley while the trolls try to surround it.
//!
//! Both use the square names of the Thud! program (files `A`..`P` without
//! `I`, rank 1 at the top) and the same position text ([`ThudSetup`]).

pub mod board;
pub mod classic;
mod encoding;
pub mod koom_valley;
mod move_text;
mod picture;
mod setup;
mod state;

pub use board::{Side, parse_square, square_name};
pub use classic::{Thud, ThudMove, ThudMoveKind, ThudRules, TrollCaptures};
pub use koom_valley::{KoomValley, KoomValleyMove, KoomValleyMoveKind, KoomValleyRules};
pub use move_text::{Piece, WrittenMove};
pub use setup::ThudSetup;
