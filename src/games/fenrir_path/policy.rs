//! A greedy collector: the simple policy a casual team might follow.

use super::state::{FenrirPath, PathMove};
use crate::agents::{Agent, Decision};
use crate::core::{Game, GameRng, MoveList, rng_from_seed};
use rand::RngExt;

/// Wins at once if it can, else collects a tile whenever some god can, else
/// plays the move that leaves the wolf farthest from Odin; ties are broken
/// uniformly at random.
///
/// Where the wolf ends depends only on whether the move collects, so among
/// non-collecting moves the last rule ties, and the choice is uniform: this
/// is the one-move lookahead of a team that does not plan.
pub struct GreedyCollector {
    rng: GameRng,
    moves: MoveList<PathMove>,
    best: Vec<PathMove>,
}

impl GreedyCollector {
    pub fn new(seed: u64) -> Self {
        GreedyCollector {
            rng: rng_from_seed(seed),
            moves: MoveList::new(),
            best: Vec::new(),
        }
    }
}

impl Agent<FenrirPath> for GreedyCollector {
    fn spec(&self) -> &str {
        "greedy"
    }

    fn decide(&mut self, state: &FenrirPath) -> Decision<PathMove> {
        state.legal_moves(&mut self.moves);
        assert!(!self.moves.is_empty(), "decide called without legal moves");
        self.best.clear();
        let mut best_key = (false, false, 0);
        for &mv in self.moves.iter() {
            let mut after = state.clone();
            after.play(mv);
            let won = after.ending().is_some_and(|end| end.is_win());
            let key = (won, state.collects(mv), after.wolf());
            if self.best.is_empty() || key > best_key {
                best_key = key;
                self.best.clear();
            }
            if key == best_key {
                self.best.push(mv);
            }
        }
        Decision::Play(self.best[self.rng.random_range(0..self.best.len())])
    }
}
