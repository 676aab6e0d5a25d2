//! Playouts: how a simulation plays a state to its end, the per-game
//! knowledge that Monte Carlo searches use after leaving their tree.

use super::{Game, GameRng, MAX_PLAYERS, Status};

/// Plays a state out and scores it. A playout sees the state in full: it is
/// the play-through of one imagined continuation, not a decision of a player.
pub trait Playout<G: Game>: Send {
    /// Plays `state` out and returns one score per player in `[0, 1]`
    /// (higher is better for that player).
    ///
    /// # Errors
    /// The status of a state the playout cannot play through (a chance
    /// event or a simultaneous choice it does not handle).
    fn simulate(&mut self, state: G, rng: &mut GameRng) -> Result<[f64; MAX_PLAYERS], Status>;
}

/// Payoffs mapped from [`Game::payoff_range`] to `[0, 1]`, one per player
/// (clamped, so that an evaluation slightly out of range stays in it).
pub fn normalised_payoffs<G: Game>(state: &G, payoffs: &[f64]) -> [f64; MAX_PLAYERS] {
    let (low, high) = state.payoff_range();
    let mut normalised = [0.0; MAX_PLAYERS];
    for (value, &payoff) in normalised.iter_mut().zip(payoffs) {
        *value = ((payoff - low) / (high - low)).clamp(0.0, 1.0);
    }
    normalised
}
