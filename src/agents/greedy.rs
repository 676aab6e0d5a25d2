use super::{Agent, Decision};
use crate::core::{Evaluate, GameRng, MoveList, Status, rng_from_seed};
use rand::RngExt;

/// Plays the move whose resulting position it evaluates best for itself
/// (a finished game counts its payoff), choosing at random among equals.
pub struct GreedyAgent<G: Evaluate> {
    rng: GameRng,
    moves: MoveList<G::Move>,
}

impl<G: Evaluate> GreedyAgent<G> {
    pub fn new(seed: u64) -> Self {
        GreedyAgent {
            rng: rng_from_seed(seed),
            moves: MoveList::new(),
        }
    }
}

impl<G: Evaluate> Agent<G> for GreedyAgent<G> {
    fn spec(&self) -> &str {
        "greedy"
    }

    fn decide(&mut self, state: &G) -> Decision<G::Move> {
        let me = state
            .status()
            .player_to_move()
            .expect("decide needs a player to move");
        state.legal_moves(&mut self.moves);
        assert!(!self.moves.is_empty(), "decide called without legal moves");
        let mut best = Vec::new();
        let mut best_value = f64::NEG_INFINITY;
        for &mv in self.moves.iter() {
            let mut child = state.clone();
            child.play(mv);
            let value = match child.status() {
                Status::Over(outcome) => outcome.payoffs.get(me),
                _ => child.evaluate(me),
            };
            if value > best_value {
                best_value = value;
                best.clear();
            }
            if value == best_value {
                best.push(mv);
            }
        }
        Decision::Play(best[self.rng.random_range(0..best.len())])
    }
}
