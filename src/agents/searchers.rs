use super::{Agent, AgentError, Decision};
use crate::core::{Evaluate, Player, Ply, Status};
use crate::search::{AlphaBeta, Mcts, MctsResult, SearchError, SearchResult};

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
    ///
    /// # Errors
    /// If the search meets a chance event or a simultaneous choice.
    pub fn analyse<G: Evaluate>(
        &mut self,
        state: &G,
    ) -> Result<SearchResult<G::Move>, SearchError> {
        self.search.search(state)
    }
}

impl<G: Evaluate> Agent<G> for AlphaBetaAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        format!("{:?}", self.search.config())
    }

    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        require_to_move(state, player)?;
        let result = self.search.search(state).map_err(search_error)?;
        result.best_move.map(Decision::Play).ok_or_else(no_move)
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
    ///
    /// # Errors
    /// If the search meets a chance event or a simultaneous choice.
    pub fn analyse(&mut self, state: &G) -> Result<MctsResult<G::Move>, SearchError> {
        self.search.search(state)
    }
}

impl<G: Evaluate> Agent<G> for MctsAgent<G> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        format!("{:?}", self.search.config())
    }

    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        require_to_move(state, player)?;
        let result = self.search.search(state).map_err(search_error)?;
        result.best_move.map(Decision::Play).ok_or_else(|| {
            AgentError::new(format!(
                "the search expanded none of the root's moves (its trees hold at most {} nodes)",
                self.search.config().node_budget
            ))
        })
    }

    fn observe(&mut self, before: &G, ply: &Ply<G::Move>) {
        match ply {
            Ply::Move(mv) => self.search.advance(before, *mv),
            Ply::Joint(_) => self.search.clear(),
        }
    }

    fn reset(&mut self) {
        self.search.clear();
    }
}

/// The searchers choose for the player to move; asked for another player
/// (or at a simultaneous choice, which they cannot search) they refuse.
fn require_to_move<G: Evaluate>(state: &G, player: Player) -> Result<(), AgentError> {
    match state.status() {
        Status::ToMove(mover) if mover == player => Ok(()),
        Status::ToMove(mover) => Err(AgentError::new(format!(
            "asked to move for the {}, but the {} are to move",
            state.player_name(player),
            state.player_name(mover)
        ))),
        Status::Over(_) => Err(AgentError::new("the game is over")),
        status => Err(search_error(SearchError::unsupported("the search", status))),
    }
}

fn search_error(error: SearchError) -> AgentError {
    AgentError::new(error.to_string())
}

fn no_move() -> AgentError {
    AgentError::new("the search found no legal move")
}
