//! Agents: anything that chooses moves, from a uniformly random player to a
//! search with a time limit, behind one trait so that matches and tournaments
//! can pit any of them against any other.

mod honest;
mod random;

pub use honest::{HonestAgent, HonestPolicy, HonestRandom, IsmctsPolicy, SeatBuilder};
pub use random::RandomAgent;

use crate::core::{Game, ParseError};

/// What an agent does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision<M> {
    Play(M),
    Resign,
}

/// A player of game `G`.
///
/// An agent is built from a spec string and a seed, and is deterministic
/// given both: the same agent with the same seed makes the same decisions.
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

/// Builds an agent from its spec string and seed.
///
/// # Errors
/// If the spec names no known agent or has bad options; the error lists what
/// is valid.
pub fn build_agent<G: Game>(spec: &str, seed: u64) -> Result<Box<dyn Agent<G>>, ParseError> {
    match spec.trim() {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        _ => Err(ParseError::new(
            "agent spec",
            spec,
            "unknown agent (valid agents: random)",
        )),
    }
}
