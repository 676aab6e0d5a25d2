//! Generic searchers. They know a game only through the traits of
//! [`crate::core`], so every game that implements those traits gets them.

mod ismcts;
mod perft;

pub use ismcts::{
    Ismcts, IsmctsConfig, IsmctsMoveStats, IsmctsResult, Playout, RandomPlayout, normalised_payoffs,
};
pub use perft::{perft, perft_divide, perft_parallel};
