use super::{Agent, AgentError, Decision, player_choices};
use crate::core::{Game, GameRng, MoveList, Player, rng_from_seed};
use rand::RngExt;

/// Plays a uniformly random legal move (at a simultaneous state, a
/// uniformly random choice of its own player).
pub struct RandomAgent<G: Game> {
    rng: GameRng,
    moves: MoveList<G::Move>,
}

impl<G: Game> RandomAgent<G> {
    /// A random agent whose choices come from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: rng_from_seed(seed),
            moves: MoveList::new(),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent<G> {
    fn spec(&self) -> &str {
        "random"
    }

    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        player_choices(state, player, &mut self.moves)?;
        Ok(Decision::Play(
            self.moves[self.rng.random_range(0..self.moves.len())],
        ))
    }
}
