//! Experiments that play many games, along the two lines of research, and
//! exact solutions as reports.
//!
//! - `playing`: one game between agents, and what every run keeps with it
//!   (the build that played it, the locked run directory, shards);
//! - `tournament`: the competitive line, agents of a game of two competing
//!   sides against each other: tournaments and matches, openings, the game
//!   log and its replay, merges of shards, summaries, ratings, reports and
//!   sequential tests;
//! - [`winrate`]: the cooperative line, how often policies win seeded deals
//!   of a cooperative game: estimates, experiments and sweeps, their run
//!   directories and merges, plots;
//! - [`solutions`]: exact solutions of positions and deals, and equilibria
//!   of simultaneous moves, as reports;
//! - [`view`]: a run as one HTML page, its report, charts and games.
//!
//! # Visibility
//!
//! Every file below `arena` is a private module, and each folder's `mod.rs`
//! re-exports the public items of its files, so no public path names a
//! file. `playing` and `tournament`, where every user of the arena starts
//! (playing a game, running a tournament), are private too and re-exported
//! whole here: `norn::arena::play_game`, `norn::arena::TournamentConfig`.
//! The cooperative line and the exact solutions are public folders, their
//! items named through them: `norn::arena::winrate::estimate_win_rate`,
//! `norn::arena::solutions::solve_deals`. What folders share and users do
//! not see (a run directory's file names, the outcomes the play loop gives)
//! is `pub(crate)`, re-exported by its folder's `mod.rs` as such; within a
//! folder, files reach each other's items as `super::file::Item`, and
//! another folder's as `crate::arena::folder::Item`.

mod playing;
pub mod solutions;
mod tournament;
pub mod view;
pub mod winrate;

pub use playing::*;
pub use tournament::*;
