//! Agents: anything that chooses moves, from a uniformly random player to a
//! search with a time limit, behind one trait so that matches and tournaments
//! can pit any of them against any other.
//!
//! Agents are built from spec strings by [`build_agent`]:
//!
//! | spec | agent |
//! |------|-------|
//! | `random` | a uniformly random legal move |
//! | `greedy` | the move with the best evaluation one ply ahead |
//! | `alphabeta:depth=6`, `alphabeta:ms=500` | [`AlphaBeta`](crate::search::AlphaBeta) search |
//! | `mcts:iters=20000,c=1.0,threads=2`, `mcts:ms=500` | [`Mcts`](crate::search::Mcts) search |
//!
//! `human` (moves typed in a terminal) is a [`HumanAgent`], which the command
//! line builds because it needs the game's notation and a terminal.
//!
//! ```
//! use norn::agents::build_agent;
//! use norn::arena::play_game;
//! use norn::core::Game;
//! use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
//!
//! let rules: HnefataflRules = "ply-limit=40".parse().unwrap();
//! let mut agents = vec![
//!     build_agent::<Hnefatafl>("greedy", 1).unwrap(),
//!     build_agent::<Hnefatafl>("random", 2).unwrap(),
//! ];
//! let game = play_game(&Hnefatafl::new(rules), &mut agents, None).unwrap();
//! assert!(game.moves.len() <= 40);
//! ```

mod greedy;
mod honest;
mod human;
mod random;
mod searchers;
mod spec;

pub use greedy::GreedyAgent;
pub use honest::{HonestAgent, HonestPolicy, HonestRandom, IsmctsPolicy, SeatBuilder};
pub use human::HumanAgent;
pub use random::RandomAgent;
pub use searchers::{AlphaBetaAgent, MctsAgent};
pub use spec::{AGENT_KINDS, build_agent};

use crate::core::Game;

/// What an agent does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision<M> {
    Play(M),
    Resign,
}

/// A player of game `G`.
///
/// An agent is built from a spec string and a seed, and is deterministic
/// given both (searches limited by time excepted, and tree-parallel MCTS):
/// the same agent with the same seed makes the same decisions.
pub trait Agent<G: Game>: Send {
    /// The spec this agent was built from, e.g. `mcts:iters=2000`.
    fn spec(&self) -> &str;

    /// Chooses a move for the player to move in `state`, which must be a state
    /// with a player to move and at least one legal move.
    fn decide(&mut self, state: &G) -> Decision<G::Move>;

    /// Tells the agent that `mv` was played in `before`, by any player, so
    /// that it can keep what it learned (a search tree) for its next turn.
    fn observe(&mut self, _before: &G, _mv: G::Move) {}

    /// Forgets everything about the current game before a new one starts.
    fn reset(&mut self) {}
}
