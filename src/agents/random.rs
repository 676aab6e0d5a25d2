use super::{Agent, Decision};
use crate::core::{Game, GameRng, MoveList, rng_from_seed};
use rand::RngExt;

/// Plays a uniformly random legal move.
pub struct RandomAgent<G: Game> {
    rng: GameRng,
    moves: MoveList<G::Move>,
}

impl<G: Game> RandomAgent<G> {
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

    fn decide(&mut self, state: &G) -> Decision<G::Move> {
        state.legal_moves(&mut self.moves);
        assert!(!self.moves.is_empty(), "decide called without legal moves");
        Decision::Play(self.moves[self.rng.random_range(0..self.moves.len())])
    }
}
