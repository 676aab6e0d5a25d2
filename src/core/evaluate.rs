//! Heuristic evaluation, the per-game knowledge that searchers use where they
//! cannot search to the end of the game.

use super::{Game, Player};

/// A game that can judge a position without playing it out.
pub trait Evaluate: Game {
    /// An estimate of `player`'s payoff from this state, within
    /// [`Game::payoff_range`]. For a finished game it should equal the payoff.
    fn evaluate(&self, player: Player) -> f64;

    /// Whether `mv` changes the material balance (a capture), so that
    /// searchers can try it early. The default knows no such moves.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Plies a search of fixed depth from this position should look past
    /// the depth it was asked for: a side far ahead, that must find how to
    /// make its lead count, needs depth that the side holding on does not.
    /// [`crate::search::AlphaBeta`] reads it once, at the root; a search
    /// without a depth limit deepens as its time allows and ignores it.
    /// The default is none.
    fn root_extension(&self) -> u32 {
        0
    }

    /// The names of the evaluations the game offers (agent specs choose
    /// one with `eval=NAME`), its own first; empty for a game that offers
    /// only its own, unnamed.
    const EVALUATION_NAMES: &'static [&'static str] = &[];

    /// The evaluation called `name`, one of [`Evaluate::EVALUATION_NAMES`];
    /// `None` for any other name.
    fn named_evaluation(_name: &str) -> Option<Box<dyn Evaluator<Self>>> {
        None
    }
}

/// An evaluation that searchers take as a parameter: the game's own
/// ([`GameEvaluation`], the default) or a researcher's, without a new game
/// type. A closure `Fn(&G, Player) -> f64` is one (it knows no tactical
/// moves); implement the trait to say which moves are tactical too.
///
/// ```
/// use norn::core::{Evaluator, Game, Player};
/// use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
/// use norn::search::{AlphaBeta, AlphaBetaConfig};
///
/// // Every position is even, except those that end the game.
/// let even = |state: &Hnefatafl, player: Player| match state.status().outcome() {
///     Some(outcome) => outcome.payoffs.get(player),
///     None => 0.0,
/// };
/// let mut search = AlphaBeta::new(AlphaBetaConfig { depth: Some(2), ..Default::default() });
/// let start = Hnefatafl::new(HnefataflRules::default());
/// let result = search.search_with(&start, &even).unwrap();
/// assert!(result.best_move.is_some());
/// ```
pub trait Evaluator<G: Game>: Send + Sync {
    /// An estimate of `player`'s payoff in `state`, within
    /// [`Game::payoff_range`], as [`Evaluate::evaluate`].
    fn evaluate(&self, state: &G, player: Player) -> f64;

    /// Whether `mv` is tactical in `state` (searchers try such moves
    /// first), as [`Evaluate::is_tactical`]. The default knows none.
    fn is_tactical(&self, _state: &G, _mv: G::Move) -> bool {
        false
    }

    /// Whether `mv` in `state` makes a threat a search should look one ply
    /// further past (a move that prepares a capture the horizon would
    /// hide). [`crate::search::AlphaBeta`] extends such a move by one ply,
    /// at most once along a line, and asks only an evaluation that
    /// [`Evaluator::may_extend`]. The default extends none.
    fn extends(&self, _state: &G, _mv: G::Move) -> bool {
        false
    }

    /// Whether [`Evaluator::extends`] may mark any move: a search reads it
    /// once, so that an evaluation without extensions costs nothing a
    /// move. The default is `false`; an evaluation that extends says `true`.
    fn may_extend(&self) -> bool {
        false
    }

    /// Plies a search of fixed depth from root `state` looks past the depth
    /// asked for, as [`Evaluate::root_extension`]. The default is none.
    fn root_extension(&self, _state: &G) -> u32 {
        0
    }

    /// Tells an evaluation that searches (such as
    /// [`crate::search::ShallowSearch`]) the deadline of the search it
    /// serves, `None` for none: past it, it answers without searching. A
    /// searcher with a time limit sets it before it starts. The default,
    /// for an evaluation that takes no time to speak of, ignores it.
    fn set_deadline(&self, _deadline: Option<std::time::Instant>) {}
}

/// The game's own evaluation ([`Evaluate`]): what searchers use unless
/// given another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameEvaluation;

impl<G: Evaluate> Evaluator<G> for GameEvaluation {
    #[inline]
    fn evaluate(&self, state: &G, player: Player) -> f64 {
        state.evaluate(player)
    }

    #[inline]
    fn is_tactical(&self, state: &G, mv: G::Move) -> bool {
        state.is_tactical(mv)
    }

    fn root_extension(&self, state: &G) -> u32 {
        state.root_extension()
    }
}

/// A boxed evaluation, such as [`Evaluate::named_evaluation`] gives, is
/// one too.
impl<G: Game> Evaluator<G> for Box<dyn Evaluator<G>> {
    fn evaluate(&self, state: &G, player: Player) -> f64 {
        self.as_ref().evaluate(state, player)
    }

    fn is_tactical(&self, state: &G, mv: G::Move) -> bool {
        self.as_ref().is_tactical(state, mv)
    }

    fn extends(&self, state: &G, mv: G::Move) -> bool {
        self.as_ref().extends(state, mv)
    }

    fn may_extend(&self) -> bool {
        self.as_ref().may_extend()
    }

    fn root_extension(&self, state: &G) -> u32 {
        self.as_ref().root_extension(state)
    }

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        self.as_ref().set_deadline(deadline);
    }
}

impl<G: Game, F: Fn(&G, Player) -> f64 + Send + Sync> Evaluator<G> for F {
    fn evaluate(&self, state: &G, player: Player) -> f64 {
        self(state, player)
    }
}
