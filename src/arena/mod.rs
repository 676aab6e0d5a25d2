//! Experiments that play many games: win-rate estimation over seeded deals,
//! the statistics to report them, and plots.

pub mod bounds;
pub mod plot;
pub mod stats;
pub mod winrate;
