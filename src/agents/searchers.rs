use super::{Agent, AgentError, Decision};
use crate::core::{Evaluator, Game, GameEvaluation, Player, Ply, Status};
use crate::search::{AlphaBeta, Mcts, SearchError};

/// Plays the best move of an [`AlphaBeta`] search with the evaluation `E`
/// (by default the game's own).
pub struct AlphaBetaAgent<E = GameEvaluation> {
    spec: String,
    search: AlphaBeta,
    evaluator: E,
}

impl AlphaBetaAgent {
    /// An agent that searches with the game's own evaluation.
    pub fn new(spec: impl Into<String>, search: AlphaBeta) -> Self {
        AlphaBetaAgent::with_evaluator(spec, search, GameEvaluation)
    }
}

impl<E> AlphaBetaAgent<E> {
    /// An agent that searches with `evaluator`.
    pub fn with_evaluator(spec: impl Into<String>, search: AlphaBeta, evaluator: E) -> Self {
        AlphaBetaAgent {
            spec: spec.into(),
            search,
            evaluator,
        }
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for AlphaBetaAgent<E> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        with_evaluation::<E>(format!("{:?}", self.search.config()))
    }

    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        require_to_move(state, player)?;
        let result = self
            .search
            .search_with(state, &self.evaluator)
            .map_err(search_error)?;
        result.best_move.map(Decision::Play).ok_or_else(no_move)
    }

    fn reset(&mut self) {
        self.search.clear();
    }

    fn memory_bytes(&self) -> u64 {
        self.search.table_bytes()
    }
}

/// A searcher's configuration as [`Agent::configuration`] records it,
/// naming the evaluation when it is not the game's own.
fn with_evaluation<E>(configuration: String) -> String {
    let evaluation = std::any::type_name::<E>();
    if evaluation == std::any::type_name::<GameEvaluation>() {
        configuration
    } else {
        format!("{configuration} with evaluation {evaluation}")
    }
}

/// Plays the best move of an [`Mcts`] search, keeping the tree between
/// moves; the search's evaluation is `E` (by default the game's own).
pub struct MctsAgent<G: Game, E = GameEvaluation> {
    spec: String,
    search: Mcts<G, E>,
}

impl<G: Game, E: Evaluator<G>> MctsAgent<G, E> {
    pub fn new(spec: impl Into<String>, search: Mcts<G, E>) -> Self {
        MctsAgent {
            spec: spec.into(),
            search,
        }
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for MctsAgent<G, E> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        with_evaluation::<E>(format!("{:?}", self.search.config()))
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

    fn memory_bytes(&self) -> u64 {
        self.search.config().memory_bytes::<G>()
    }
}

/// The searchers choose for the player to move; asked for another player
/// (or at a simultaneous choice, which they cannot search) they refuse.
fn require_to_move<G: Game>(state: &G, player: Player) -> Result<(), AgentError> {
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
