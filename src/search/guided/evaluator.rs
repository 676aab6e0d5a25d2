//! What guides the search: a batched evaluator that, given the leaves of
//! many trees at once, gives each a policy (logits over the game's fixed
//! action space) and a value.
//!
//! Every evaluator implements [`LeafEvaluator`], which sees the leaves'
//! states as well as their tensors, so that one trait covers the four
//! kinds: [`UniformPlayout`] (uniform priors, the value of a random
//! playout: the guided search then is a plain MCTS), [`UniformEvaluation`]
//! (uniform priors, the game's own evaluation), and the evaluators of
//! tensors alone (a network, a Python function), which implement the
//! object-safe [`TensorEvaluator`] and are wrapped by [`Tensors`].

use super::decisions::scaled_payoffs;
use super::layout::{GameShape, ValueLayout};
use crate::core::{
    ActionPath, Encoding, Evaluate, Game, GameRng, MAX_PLAYERS, MoveList, Player, Status,
    resolve_chance, rng_from_seed,
};
use rand::RngExt;
use rayon::prelude::*;
use std::fmt;

/// Why an evaluator gave no answer: a network that cannot run, a Python
/// function that raised or answered in the wrong shape, a value that is
/// not a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluationError {
    message: String,
}

impl EvaluationError {
    /// An error saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        EvaluationError {
            message: message.into(),
        }
    }
}

impl fmt::Display for EvaluationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EvaluationError {}

/// One position to evaluate.
#[derive(Clone, Copy, Debug)]
pub struct Leaf<'a, G: Game> {
    /// The game state (before the move under way, if any).
    pub state: &'a G,
    /// The ids chosen so far of the move under way.
    pub pending: &'a [u32],
    /// The player to move.
    pub player: Player,
    /// A seed for whatever the evaluator draws at random for this leaf
    /// (a playout), derived from the search's seed, the tree and the
    /// simulation, so that answers do not depend on the batch.
    pub seed: u64,
}

/// The positions of one evaluator call, and their tensors when the
/// evaluator reads them ([`LeafEvaluator::reads_tensors`]).
pub struct LeafBatch<'a, G: Game> {
    /// The positions.
    pub leaves: &'a [Leaf<'a, G>],
    /// The observation of each leaf's player to move, one after another
    /// (empty if the evaluator does not read tensors).
    pub observations: &'a [f32],
    /// Each leaf's legal-action mask over the game's action ids, 1 for a
    /// legal id (empty if the evaluator does not read tensors).
    pub masks: &'a [u8],
    /// The threads the search runs on, for evaluators that split their
    /// work over the leaves.
    pub threads: Option<&'a rayon::ThreadPool>,
}

/// What an evaluator writes for a batch: `logits` holds `num_actions`
/// values per leaf (only the legal ids' are read; all zero, a uniform
/// policy, when the call starts; empty for an evaluator that writes none,
/// [`LeafEvaluator::writes_logits`]) and `values` [`ValueLayout::width`]
/// per leaf, in `[-1, 1]`.
pub struct Evaluations<'a> {
    /// Policy logits, leaf after leaf.
    pub logits: &'a mut [f32],
    /// Values, leaf after leaf.
    pub values: &'a mut [f32],
}

/// A batched evaluator of positions of game `G`.
pub trait LeafEvaluator<G: Game>: Send {
    /// How the values it writes are laid out, in a game of `players`
    /// players.
    fn layout(&self, players: usize) -> ValueLayout;

    /// Whether it reads the observation tensors and masks: the search
    /// writes them only for an evaluator that does.
    fn reads_tensors(&self) -> bool;

    /// Whether it writes policy logits. One of uniform priors does not:
    /// the search then gives every legal id the same logit itself, and
    /// [`Evaluations::logits`] is empty (a batch's logits are a few
    /// hundred kilobytes to clear and read for nothing).
    fn writes_logits(&self) -> bool {
        true
    }

    /// Checks, before a search starts, that the evaluator answers for
    /// `game` (a network made for another game, other rules or other
    /// shapes does not). Any game fits unless the evaluator says otherwise.
    ///
    /// # Errors
    /// Why it does not fit, in a sentence.
    fn check_game(&self, _game: &GameShape) -> Result<(), EvaluationError> {
        Ok(())
    }

    /// Evaluates every leaf of `batch` into `out`.
    ///
    /// # Errors
    /// Why it cannot: the search then stops with the error.
    fn evaluate(
        &mut self,
        batch: &LeafBatch<'_, G>,
        out: &mut Evaluations<'_>,
    ) -> Result<(), EvaluationError>;
}

impl<G: Game, E: LeafEvaluator<G> + ?Sized> LeafEvaluator<G> for Box<E> {
    fn layout(&self, players: usize) -> ValueLayout {
        self.as_ref().layout(players)
    }

    fn reads_tensors(&self) -> bool {
        self.as_ref().reads_tensors()
    }

    fn writes_logits(&self) -> bool {
        self.as_ref().writes_logits()
    }

    fn check_game(&self, game: &GameShape) -> Result<(), EvaluationError> {
        self.as_ref().check_game(game)
    }

    fn evaluate(
        &mut self,
        batch: &LeafBatch<'_, G>,
        out: &mut Evaluations<'_>,
    ) -> Result<(), EvaluationError> {
        self.as_mut().evaluate(batch, out)
    }
}

/// An evaluator of tensors alone, whatever the game: a network, a Python
/// function. Wrapped by [`Tensors`] it evaluates the leaves of any game.
pub trait TensorEvaluator: Send {
    /// How the values it writes are laid out.
    fn layout(&self) -> ValueLayout;

    /// Checks, before a search starts, that the evaluator answers for
    /// `game`: a network checks that it was made for the game, its rules
    /// and its shapes. Any game fits unless the evaluator says otherwise.
    ///
    /// # Errors
    /// Why it does not fit, in a sentence.
    fn check_game(&self, _game: &GameShape) -> Result<(), EvaluationError> {
        Ok(())
    }

    /// Evaluates `batch` positions: `observations` holds their observation
    /// tensors one after another and `masks` their legal-action masks
    /// (`num_actions` bytes each, 1 for legal); it writes `num_actions`
    /// logits and [`ValueLayout::width`] values per position.
    ///
    /// # Errors
    /// Why it cannot.
    fn evaluate(
        &mut self,
        observations: &[f32],
        masks: &[u8],
        batch: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvaluationError>;
}

impl<T: TensorEvaluator + ?Sized> TensorEvaluator for &mut T {
    fn layout(&self) -> ValueLayout {
        (**self).layout()
    }

    fn check_game(&self, game: &GameShape) -> Result<(), EvaluationError> {
        (**self).check_game(game)
    }

    fn evaluate(
        &mut self,
        observations: &[f32],
        masks: &[u8],
        batch: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvaluationError> {
        (**self).evaluate(observations, masks, batch, logits, values)
    }
}

impl<T: TensorEvaluator + ?Sized> TensorEvaluator for Box<T> {
    fn layout(&self) -> ValueLayout {
        self.as_ref().layout()
    }

    fn check_game(&self, game: &GameShape) -> Result<(), EvaluationError> {
        self.as_ref().check_game(game)
    }

    fn evaluate(
        &mut self,
        observations: &[f32],
        masks: &[u8],
        batch: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvaluationError> {
        self.as_mut()
            .evaluate(observations, masks, batch, logits, values)
    }
}

/// A [`TensorEvaluator`] as the evaluator of any game's leaves.
pub struct Tensors<T>(pub T);

impl<G: Game, T: TensorEvaluator> LeafEvaluator<G> for Tensors<T> {
    fn layout(&self, _players: usize) -> ValueLayout {
        self.0.layout()
    }

    fn reads_tensors(&self) -> bool {
        true
    }

    fn check_game(&self, game: &GameShape) -> Result<(), EvaluationError> {
        self.0.check_game(game)
    }

    fn evaluate(
        &mut self,
        batch: &LeafBatch<'_, G>,
        out: &mut Evaluations<'_>,
    ) -> Result<(), EvaluationError> {
        self.0.evaluate(
            batch.observations,
            batch.masks,
            batch.leaves.len(),
            out.logits,
            out.values,
        )
    }
}

/// Runs `value` (every player's value) on every leaf, on the batch's
/// threads if it has them, writing the values in the layout that fits the
/// game ([`ValueLayout::of_game`]) into `values`.
fn value_each_leaf<G: Game>(
    batch: &LeafBatch<'_, G>,
    values: &mut [f32],
    value: impl Fn(&Leaf<'_, G>) -> [f64; MAX_PLAYERS] + Sync,
) {
    let Some(first) = batch.leaves.first() else {
        return;
    };
    let layout = ValueLayout::of_game::<G>(first.state.num_players());
    for_each_leaf_values(batch, values, layout.width(), |leaf, out| {
        layout.gather(&value(leaf), leaf.player, out);
    });
}

/// Calls `work` with each leaf of the batch and its `width` values of
/// `values`, on the batch's threads when it has them.
fn for_each_leaf_values<G: Game>(
    batch: &LeafBatch<'_, G>,
    values: &mut [f32],
    width: usize,
    work: impl Fn(&Leaf<'_, G>, &mut [f32]) + Sync,
) {
    let work = |(leaf, out): (&Leaf<'_, G>, &mut [f32])| work(leaf, out);
    match batch.threads {
        Some(pool) => pool.install(|| {
            batch
                .leaves
                .par_iter()
                .zip(values.par_chunks_mut(width))
                .for_each(work);
        }),
        None => batch
            .leaves
            .iter()
            .zip(values.chunks_mut(width))
            .for_each(work),
    }
}

/// Uniform priors and the value of a random playout: up to `plies` random
/// plies from the leaf (chance events drawn, a move under way completed
/// first), then the game's payoffs if it ended and its evaluation if not;
/// `None` plays to the end. With it the guided search is a plain MCTS
/// that scores leaves as MCTS's simulations do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniformPlayout {
    /// The most random plies; `None` plays to the end of the game.
    pub plies: Option<u32>,
}

impl<G: Encoding + Evaluate> LeafEvaluator<G> for UniformPlayout {
    fn layout(&self, players: usize) -> ValueLayout {
        ValueLayout::of_game::<G>(players)
    }

    fn reads_tensors(&self) -> bool {
        false
    }

    fn writes_logits(&self) -> bool {
        false
    }

    fn evaluate(
        &mut self,
        batch: &LeafBatch<'_, G>,
        out: &mut Evaluations<'_>,
    ) -> Result<(), EvaluationError> {
        let plies = self.plies;
        value_each_leaf(batch, out.values, |leaf| {
            let mut rng = rng_from_seed(leaf.seed);
            let mut state = leaf.state.clone();
            complete_pending(&mut state, leaf.pending, &mut rng);
            playout(state, plies, &mut rng)
        });
        Ok(())
    }
}

/// Plays a random legal move that continues the decisions `pending`.
fn complete_pending<G: Encoding>(state: &mut G, pending: &[u32], rng: &mut GameRng) {
    if pending.is_empty() {
        return;
    }
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    let mut path = ActionPath::new();
    let continuing: Vec<G::Move> = moves
        .iter()
        .copied()
        .filter(|&mv| {
            path.clear();
            state.action_path(mv, &mut path);
            path.as_slice().starts_with(pending)
        })
        .collect();
    let mv = continuing[rng.random_range(0..continuing.len())];
    state.play(mv);
}

/// Random plies from `state` (at most `plies`, or to the end), then every
/// player's payoff, or evaluation if the game goes on, scaled to `[-1, 1]`.
fn playout<G: Evaluate>(mut state: G, plies: Option<u32>, rng: &mut GameRng) -> [f64; MAX_PLAYERS] {
    let mut moves = MoveList::new();
    let mut played = 0;
    loop {
        match state.status() {
            Status::Over(outcome) => {
                return scaled_payoffs(&state, outcome.payoffs.as_slice());
            }
            _ if plies.is_some_and(|limit| played >= limit) => return evaluation(&state),
            Status::ToMove(_) => {
                state.legal_moves(&mut moves);
                state.play(moves[rng.random_range(0..moves.len())]);
            }
            // Games whose chance the search reaches describe it; one that
            // cannot draw, or a simultaneous choice, ends the playout at
            // its evaluation.
            Status::Chance => {
                if !resolve_chance(&mut state, rng) {
                    return evaluation(&state);
                }
            }
            Status::Simultaneous => return evaluation(&state),
        }
        played += 1;
    }
}

/// Every player's evaluation of `state`, scaled to `[-1, 1]`.
fn evaluation<G: Evaluate>(state: &G) -> [f64; MAX_PLAYERS] {
    let players = state.num_players().min(MAX_PLAYERS);
    let mut estimates = [0.0; MAX_PLAYERS];
    for (player, estimate) in estimates.iter_mut().enumerate().take(players) {
        *estimate = state.evaluate(player);
    }
    scaled_payoffs(state, &estimates[..players])
}

/// Uniform priors and the game's own evaluation ([`Evaluate`]) as the
/// value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UniformEvaluation;

impl<G: Encoding + Evaluate> LeafEvaluator<G> for UniformEvaluation {
    fn layout(&self, players: usize) -> ValueLayout {
        ValueLayout::of_game::<G>(players)
    }

    fn reads_tensors(&self) -> bool {
        false
    }

    fn writes_logits(&self) -> bool {
        false
    }

    fn evaluate(
        &mut self,
        batch: &LeafBatch<'_, G>,
        out: &mut Evaluations<'_>,
    ) -> Result<(), EvaluationError> {
        value_each_leaf(batch, out.values, |leaf| evaluation(leaf.state));
        Ok(())
    }
}

/// An evaluator whose values are blended with the game's own evaluation
/// ([`Evaluate`]): each leaf's value is `(1 - weight)` times the inner
/// evaluator's plus `weight` times the evaluation's, in the inner
/// evaluator's layout, as AlphaGo mixed its value network with the
/// results of fast rollouts. The policy is the inner evaluator's alone.
/// A learned value starts knowing nothing; where the game's evaluation
/// already knows which positions are good, the blend lets self-play win
/// from its first games (the weight is the guided search's `eval-mix`).
pub struct EvaluationBlend<E> {
    inner: E,
    weight: f32,
}

impl<E> EvaluationBlend<E> {
    /// `inner` blended with the evaluation at `weight` (0: `inner`
    /// alone, 1: the evaluation's value with `inner`'s policy).
    pub fn new(inner: E, weight: f64) -> Self {
        EvaluationBlend {
            inner,
            weight: weight as f32,
        }
    }
}

impl<G: Encoding + Evaluate, E: LeafEvaluator<G>> LeafEvaluator<G> for EvaluationBlend<E> {
    fn layout(&self, players: usize) -> ValueLayout {
        self.inner.layout(players)
    }

    fn reads_tensors(&self) -> bool {
        self.inner.reads_tensors()
    }

    fn writes_logits(&self) -> bool {
        self.inner.writes_logits()
    }

    fn check_game(&self, game: &GameShape) -> Result<(), EvaluationError> {
        self.inner.check_game(game)
    }

    fn evaluate(
        &mut self,
        batch: &LeafBatch<'_, G>,
        out: &mut Evaluations<'_>,
    ) -> Result<(), EvaluationError> {
        self.inner.evaluate(batch, out)?;
        if self.weight == 0.0 {
            return Ok(());
        }
        let Some(first) = batch.leaves.first() else {
            return Ok(());
        };
        let layout = self.inner.layout(first.state.num_players());
        let width = layout.width();
        let weight = self.weight;
        for_each_leaf_values(batch, out.values, width, |leaf, values| {
            let mut estimates = [0.0; MAX_PLAYERS];
            layout.gather(
                &evaluation(leaf.state),
                leaf.player,
                &mut estimates[..width],
            );
            for (value, estimate) in values.iter_mut().zip(estimates) {
                *value = (1.0 - weight) * *value + weight * estimate;
            }
        });
        Ok(())
    }
}
