use super::{Agent, AgentError, Decision, player_choices};
use crate::core::{Evaluate, GameRng, MoveList, Player, Status, rng_from_seed};
use rand::RngExt;

/// Plays the move whose resulting position it evaluates best for itself
/// (a finished game counts its payoff), choosing at random among equals.
pub struct GreedyAgent<G: Evaluate> {
    rng: GameRng,
    moves: MoveList<G::Move>,
}

impl<G: Evaluate> GreedyAgent<G> {
    /// A greedy agent that breaks ties with random choices from `seed`.
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

    fn decide(&mut self, state: &G, me: Player) -> Result<Decision<G::Move>, AgentError> {
        if state.status() == Status::Simultaneous {
            return Err(AgentError::new(
                "greedy looks one move ahead, which a simultaneous choice does not allow",
            ));
        }
        player_choices(state, me, &mut self.moves)?;
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
        Ok(Decision::Play(best[self.rng.random_range(0..best.len())]))
    }
}
