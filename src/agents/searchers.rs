use super::spec::full_spec;
use super::{Agent, AgentError, Decision, SearchRecord, move_time};
use crate::core::{
    Declared, Evaluate, Evaluator, Game, GameEvaluation, Kind, Player, Ply, Status, Value,
    write_options,
};
use crate::search::{AlphaBeta, MAX_SHALLOW_DEPTH, MAX_TEMPO, Mcts, SearchError, StopFlag};
use std::any::Any;
use std::time::Duration;

/// `eval`: one of the game's named evaluations, kept in the
/// `Option<String>` field `eval` (`None`, not written, for the game's own),
/// the same option for every searcher that evaluates.
macro_rules! evaluation_option {
    () => {
        Declared {
            key: "eval",
            kind: Kind::Text(
                "one of the game's named evaluations (Hnefatafl: `hand`, its own, or `tuned`)",
            ),
            help: "the evaluation to search with; the game's own without it (games without named evaluations refuse it)",
            get: |options| named(&options.eval),
            set: |options, value| {
                options.eval = Some(value.text().to_string());
                Ok(())
            },
        }
    };
}

/// The options of an alpha-beta agent beside its search's
/// ([`crate::search::AlphaBetaConfig`]): which evaluation it searches with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlphaBetaEvaluation {
    /// One of [`Evaluate::EVALUATION_NAMES`]; `None` for the game's own.
    pub eval: Option<String>,
}

crate::configurable!(
    AlphaBetaEvaluation,
    "alphabeta evaluation options",
    &[evaluation_option!()]
);

/// The options of an MCTS agent beside its search's
/// ([`crate::search::MctsConfig`]): the evaluation its leaves are scored
/// with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MctsEvaluation {
    /// One of [`Evaluate::EVALUATION_NAMES`]; `None` for the game's own.
    pub eval: Option<String>,
    /// The depth of the alpha-beta search that scores leaves
    /// ([`crate::search::ShallowSearch`]); 0 scores them with the
    /// evaluation itself.
    pub leaf_depth: u32,
    /// The bonus for the player to move ([`crate::search::Tempo`]); 0 adds
    /// none.
    pub tempo: f64,
}

/// Every option of [`MctsEvaluation`], in the order its text is written.
const MCTS_EVALUATION_OPTIONS: &[Declared<MctsEvaluation>] = &[
    evaluation_option!(),
    crate::whole_option!(
        "leaf-depth",
        leaf_depth,
        0,
        MAX_SHALLOW_DEPTH as u64,
        "score leaves by an alpha-beta search this deep instead of the evaluation alone (two competing sides only)"
    ),
    crate::number_option!(
        "tempo",
        tempo,
        0.0,
        MAX_TEMPO,
        "a bonus for the player to move in every evaluated position, as a share of the payoff range (two competing sides only)"
    ),
];

crate::configurable!(
    MctsEvaluation,
    "mcts evaluation options",
    MCTS_EVALUATION_OPTIONS
);

/// The value of `eval`: not written for the game's own unnamed evaluation.
fn named(eval: &Option<String>) -> Value {
    eval.as_ref()
        .map_or(Value::Inapplicable, |name| Value::Text(name.clone()))
}

/// The name of the evaluation `eval` chooses for game `G`, the game's own
/// named first one without it: what a run records, so that the record
/// names the evaluation even where the spec left it out.
pub(super) fn resolved_evaluation<G: Evaluate>(eval: &Option<String>) -> Option<String> {
    eval.clone()
        .or_else(|| G::EVALUATION_NAMES.first().map(|name| name.to_string()))
}

/// Plays the best move of an [`AlphaBeta`] search with the evaluation `E`
/// (by default the game's own).
pub struct AlphaBetaAgent<E = GameEvaluation> {
    spec: String,
    search: AlphaBeta,
    evaluator: E,
    /// The evaluation's options as a spec writes them, if they are known.
    evaluation: Option<String>,
    /// The last decision's [`SearchRecord`] of the game's moves: the agent
    /// plays any game, so the record's type is only known when it is read.
    last_search: Option<Box<dyn Any + Send>>,
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
            evaluation: None,
            last_search: None,
        }
    }

    /// The agent whose evaluation has these options
    /// ([`AlphaBetaEvaluation`]): its configuration then reads back to the
    /// same agent.
    pub fn with_evaluation_options(mut self, options: &AlphaBetaEvaluation) -> Self {
        self.evaluation = Some(write_options(options));
        self
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for AlphaBetaAgent<E> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        configuration::<E>(
            "alphabeta",
            &self.search.config().to_string(),
            &self.evaluation,
        )
    }

    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        require_to_move(state, player)?;
        let result = self.search.search_with(state, &self.evaluator)?;
        self.last_search = Some(Box::new(SearchRecord {
            seconds: result.elapsed.as_secs_f64(),
            depth: Some(result.depth),
            iterations: None,
            nodes: result.nodes,
            value: result.value(),
            pv: result.pv.clone(),
            visit_share: None,
            policy_entropy: None,
        }));
        result.best_move.map(Decision::Play).ok_or_else(no_move)
    }

    fn last_search(&self) -> Option<SearchRecord<G::Move>> {
        self.last_search.as_ref()?.downcast_ref().cloned()
    }

    fn clock(&mut self, remaining: Duration, increment: Duration) {
        if self.search.config().time.is_some() {
            self.search.set_time(Some(move_time(remaining, increment)));
        }
    }

    fn reset(&mut self) {
        self.search.clear();
        self.last_search = None;
    }

    fn memory_bytes(&self) -> u64 {
        self.search.table_bytes()
    }

    fn set_stop_flag(&mut self, flag: StopFlag) -> bool {
        self.search.set_stop_flag(flag);
        true
    }
}

/// A searcher's configuration as [`Agent::configuration`] records it: the
/// spec of `kind` with every option of the search and of its evaluation
/// written out. An evaluation given without its options (a library user's
/// own) is named by its type, which no spec reads back.
fn configuration<E>(kind: &str, search: &str, evaluation: &Option<String>) -> String {
    let evaluation = match evaluation {
        Some(options) => options.clone(),
        None if std::any::type_name::<E>() == std::any::type_name::<GameEvaluation>() => {
            String::new()
        }
        None => {
            return format!(
                "{kind}:{search} with evaluation {}",
                std::any::type_name::<E>()
            );
        }
    };
    let options: Vec<&str> = [search, evaluation.as_str()]
        .into_iter()
        .filter(|options| !options.is_empty())
        .collect();
    full_spec(kind, &options.join(","))
}

/// Plays the best move of an [`Mcts`] search, keeping the tree between
/// moves; the search's evaluation is `E` (by default the game's own).
pub struct MctsAgent<G: Game, E = GameEvaluation> {
    spec: String,
    search: Mcts<G, E>,
    /// The evaluation's options as a spec writes them, if they are known.
    evaluation: Option<String>,
    last_search: Option<SearchRecord<G::Move>>,
}

impl<G: Game, E: Evaluator<G>> MctsAgent<G, E> {
    /// An agent named `spec` that plays what `search` finds.
    pub fn new(spec: impl Into<String>, search: Mcts<G, E>) -> Self {
        MctsAgent {
            spec: spec.into(),
            search,
            evaluation: None,
            last_search: None,
        }
    }

    /// The agent whose evaluation has these options ([`MctsEvaluation`]):
    /// its configuration then reads back to the same agent.
    pub fn with_evaluation_options(mut self, options: &MctsEvaluation) -> Self {
        self.evaluation = Some(write_options(options));
        self
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for MctsAgent<G, E> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        configuration::<E>("mcts", &self.search.config().to_string(), &self.evaluation)
    }

    fn set_stop_flag(&mut self, flag: StopFlag) -> bool {
        self.search.set_stop_flag(flag);
        true
    }

    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        require_to_move(state, player)?;
        let result = self.search.search(state)?;
        self.last_search = result.best_move.map(|best| {
            let visits: u64 = result.moves.iter().map(|stats| stats.visits).sum();
            let chosen = result.moves.iter().find(|stats| stats.mv == best);
            // The chosen move's normalised payoff for the mover, in [0, 1]:
            // proven, else as the final choice ranked it.
            let payoff = chosen.map_or(0.5, |stats| {
                stats.proven.map_or(stats.value, |proven| proven[player])
            });
            SearchRecord {
                seconds: result.elapsed.as_secs_f64(),
                depth: None,
                iterations: Some(result.iterations),
                nodes: result.nodes as u64,
                value: 2.0 * payoff - 1.0,
                pv: vec![best],
                visit_share: chosen.map(|stats| stats.visits as f64 / visits.max(1) as f64),
                policy_entropy: None,
            }
        });
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
        self.last_search = None;
    }

    fn last_search(&self) -> Option<SearchRecord<G::Move>> {
        self.last_search.clone()
    }

    fn clock(&mut self, remaining: Duration, increment: Duration) {
        if self.search.config().time.is_some() {
            self.search.set_time(Some(move_time(remaining, increment)));
        }
    }

    fn memory_bytes(&self) -> u64 {
        self.search.config().memory_bytes::<G>()
    }
}

/// The searchers choose for the player to move; asked for another player
/// (or at a simultaneous choice, which they cannot search) they refuse.
pub(super) fn require_to_move<G: Game>(state: &G, player: Player) -> Result<(), AgentError> {
    match state.status() {
        Status::ToMove(mover) if mover == player => Ok(()),
        Status::ToMove(mover) => Err(AgentError::new(format!(
            "asked to move for the {}, but the {} are to move",
            state.player_name(player),
            state.player_name(mover)
        ))),
        Status::Over(_) => Err(AgentError::new("the game is over")),
        status => Err(SearchError::unsupported("the search", status).into()),
    }
}

fn no_move() -> AgentError {
    AgentError::new("the search found no legal move")
}
