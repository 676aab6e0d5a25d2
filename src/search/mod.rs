//! Generic searchers. They know a game only through the traits of
//! [`crate::core`], so every game that implements those traits gets them.

mod coop;
mod perft;

pub use coop::{CoopSolver, ObjectiveBounds, Solution, Verdict};
pub use perft::{perft, perft_divide, perft_parallel};
