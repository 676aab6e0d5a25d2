//! # norn
//!
//! Game-playing AI research on a family of Norse games: fast engines with
//! compact state, searchers that work for any game of the right kind, and the
//! tools around them (perft, self-play, win-rate estimation).
//!
//! - [`core`]: the game model: [`core::Game`] and the traits for notation,
//!   chance, simultaneous moves and hidden information;
//! - [`bitboard`]: fixed-size bitboards and ray tables;
//! - [`games`]: the games;
//! - [`search`]: generic searchers: perft, alpha-beta, Monte Carlo tree search,
//!   the exact cooperative solver and matrix games (linear programming and
//!   regret matching);
//! - [`agents`]: the [`agents::Agent`] trait and the players built on it;
//! - [`arena`]: experiments over many games (win rates with intervals);
//! - [`learning`]: any game as learning code sees it: action ids, chance
//!   outcomes with probabilities, observation tensors (OpenSpiel's model);
//! - [`net`]: policy-value networks (residual and perceptron) with
//!   batched, deterministic inference and training, in safetensors files;
//! - `testing` (with the `testing` feature): the invariant checks every
//!   game passes, and the fuzz entry points;
//! - [`rand`]: the random-number crate of [`core::GameRng`], re-exported.
//!
//! ```
//! use norn::core::Game;
//! use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
//! use norn::search::perft;
//!
//! let start = Hnefatafl::new(HnefataflRules::default());
//! assert_eq!(perft(&start, 2), 6_788);
//! ```

// Every public item says what it is for: the rustdoc is the library's
// reference, and a gap fails the build's lint check.
#![warn(missing_docs)]

pub mod agents;
pub mod arena;
pub mod bitboard;
#[cfg(feature = "cli")]
pub mod cli;
pub mod companions;
pub mod core;
pub mod engine;
pub mod games;
pub mod learning;
pub mod net;
pub mod registry;
pub mod search;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

/// The `rand` crate norn is built with: [`core::GameRng`] and the agents'
/// random choices use its traits, so code that draws from them should name
/// `norn::rand` rather than its own (possibly other) version of the crate.
///
/// ```
/// use norn::core::rng_from_seed;
/// use norn::rand::RngExt;
///
/// let mut rng = rng_from_seed(7);
/// let roll: u32 = rng.random_range(1..=6);
/// assert_eq!(roll, rng_from_seed(7).random_range(1..=6));
/// ```
pub use rand;
/// The serialisation crate the macros of the game model derive with, so
/// that a game outside the crate needs no serde dependency of its own.
#[doc(hidden)]
pub use serde;
