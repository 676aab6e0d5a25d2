use super::{Agent, Decision};
use crate::core::Evaluate;
use crate::search::{AlphaBeta, Mcts, MctsResult, SearchResult};

/// Plays the best move of an [`AlphaBeta`] search.
pub struct AlphaBetaAgent {
    spec: String,
    search: AlphaBeta,
}

impl AlphaBetaAgent {
    pub fn new(spec: impl Into<String>, search: AlphaBeta) -> Self {
        AlphaBetaAgent {
            spec: spec.into(),
            search,
        }
    }

    /// Searches `state` and returns the whole result, not only the move.
    pub fn analyse<G: Evaluate>(&mut self, state: &G) -> SearchResult<G::Move> {
        self.search.search(state)
    }
}

impl<G: Evaluate> Agent<G> for AlphaBetaAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn decide(&mut self, state: &G) -> Decision<G::Move> {
        let best = self
            .search
            .search(state)
            .best_move
            .expect("decide called without legal moves");
        Decision::Play(best)
    }

    fn reset(&mut self) {
        self.search.clear();
    }
}

/// Plays the best move of an [`Mcts`] search, keeping the tree between moves.
pub struct MctsAgent<G: Evaluate> {
    spec: String,
    search: Mcts<G>,
}

impl<G: Evaluate> MctsAgent<G> {
    pub fn new(spec: impl Into<String>, search: Mcts<G>) -> Self {
        MctsAgent {
            spec: spec.into(),
            search,
        }
    }

    /// Searches `state` and returns the whole result, not only the move.
    pub fn analyse(&mut self, state: &G) -> MctsResult<G::Move> {
        self.search.search(state)
    }
}

impl<G: Evaluate> Agent<G> for MctsAgent<G> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn decide(&mut self, state: &G) -> Decision<G::Move> {
        let best = self
            .search
            .search(state)
            .best_move
            .expect("decide called without legal moves");
        Decision::Play(best)
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        self.search.advance(before, mv);
    }

    fn reset(&mut self) {
        self.search.clear();
    }
}
