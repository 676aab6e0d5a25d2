//! The batched search: many trees grown together, their leaves evaluated
//! in one call per round.

use super::GuidedConfig;
use super::decisions::{Actor, Decisions, Listing, Step};
use super::evaluator::EvaluationError;
use super::evaluator::{Evaluations, Leaf, LeafBatch, LeafEvaluator};
use super::layout::{GameShape, ValueLayout};
use super::tree::{RootSummary, Tree};
use crate::core::{Encoding, Game, Player, thread_pool};
use crate::search::StopFlag;
use rayon::prelude::*;
use std::fmt;

/// Why a guided search stopped: a root where no player decides, a state
/// it cannot search through, or an evaluator that failed or answered
/// outside its contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuidedError {
    message: String,
}

impl GuidedError {
    pub(super) fn new(message: impl Into<String>) -> Self {
        GuidedError {
            message: message.into(),
        }
    }
}

impl fmt::Display for GuidedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for GuidedError {}

impl From<EvaluationError> for GuidedError {
    fn from(error: EvaluationError) -> Self {
        GuidedError::new(format!("the evaluator failed: {error}"))
    }
}

/// Where one tree starts.
#[derive(Clone, Copy, Debug)]
pub struct SearchRoot<'a, G: Game> {
    /// The game state.
    pub state: &'a G,
    /// The ids already chosen of the move under way (empty before a move).
    pub pending: &'a [u32],
    /// The tree's seed: its Gumbel or Dirichlet noise, its move drawn with
    /// a temperature and its leaves' playouts all derive from it.
    pub seed: u64,
}

/// A root action after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct RootAction {
    /// The action id.
    pub id: u32,
    /// Its prior probability, `softmax` of the evaluator's logits over the
    /// legal ids (before any noise).
    pub prior: f64,
    /// The simulations that went through it.
    pub visits: u32,
    /// Its completed Q-value for the player to move, in `[-1, 1]`: its
    /// mean value if visited, the root's mixed value otherwise.
    pub value: f64,
    /// Its probability in the search policy, the training target: Gumbel's
    /// improved policy, or PUCT's share of the visits.
    pub policy: f64,
}

/// What one tree's search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutcome<M> {
    /// The player who decides at the root.
    pub player: Player,
    /// Every legal action of the root, in increasing order of id.
    pub actions: Vec<RootAction>,
    /// The action chosen: Gumbel's survivor of Sequential Halving, or
    /// PUCT's most visited (or one drawn with the temperature).
    pub chosen: u32,
    /// The move the chosen id completes, if it completes one (otherwise
    /// the move needs more decisions).
    pub completed: Option<M>,
    /// The root's mean value for its player over every simulation, in
    /// `[-1, 1]`.
    pub value: f64,
    /// The simulations run.
    pub simulations: u32,
    /// The nodes of the tree.
    pub nodes: usize,
}

impl<M> SearchOutcome<M> {
    /// The same outcome with the completed move mapped by `convert` (to
    /// its text, say).
    pub fn map_completed<N>(self, convert: impl FnOnce(M) -> N) -> SearchOutcome<N> {
        SearchOutcome {
            player: self.player,
            actions: self.actions,
            chosen: self.chosen,
            completed: self.completed.map(convert),
            value: self.value,
            simulations: self.simulations,
            nodes: self.nodes,
        }
    }

    /// The chosen action's statistics.
    pub fn chosen_action(&self) -> &RootAction {
        self.actions
            .iter()
            .find(|action| action.id == self.chosen)
            .expect("the chosen action is a root action")
    }

    /// The entropy of the search policy, in nats.
    pub fn policy_entropy(&self) -> f64 {
        -self
            .actions
            .iter()
            .filter(|action| action.policy > 0.0)
            .map(|action| action.policy * action.policy.ln())
            .sum::<f64>()
    }

    /// The position's value for the root's player as the search judges
    /// it: its actions' completed Q-values weighted by the search policy.
    /// Unlike [`value`](Self::value), the mean over every simulation, it
    /// does not count the simulations Sequential Halving or exploration
    /// spent on the moves the policy rejects.
    pub fn policy_value(&self) -> f64 {
        let weight: f64 = self.actions.iter().map(|action| action.policy).sum();
        if weight > 0.0 {
            self.actions
                .iter()
                .map(|action| action.policy * action.value)
                .sum::<f64>()
                / weight
        } else {
            self.value
        }
    }

    /// Writes the search policy over the game's action ids into `out`
    /// (zeros for the ids that are not legal).
    pub fn write_policy(&self, out: &mut [f32]) {
        out.fill(0.0);
        for action in &self.actions {
            out[action.id as usize] = action.policy as f32;
        }
    }
}

/// A guided search with its settings and threads, which searches batches
/// of roots.
pub struct GuidedSearch {
    config: GuidedConfig,
    pool: Option<rayon::ThreadPool>,
    stop_flag: StopFlag,
}

impl GuidedSearch {
    /// A search with `config`.
    ///
    /// # Errors
    /// A configuration [`GuidedConfig::validate`] refuses, or threads the
    /// system cannot give.
    pub fn new(config: GuidedConfig) -> Result<Self, String> {
        config.validate()?;
        let pool = if config.threads > 1 {
            Some(thread_pool(config.threads)?)
        } else {
            None
        };
        Ok(GuidedSearch {
            config,
            pool,
            stop_flag: StopFlag::default(),
        })
    }

    /// The settings.
    pub fn config(&self) -> &GuidedConfig {
        &self.config
    }

    /// Gives the search a flag that, once raised, ends its searches after
    /// the round of simulations under way (the first round always runs,
    /// so that every tree has visited a child): they return what they
    /// found, with fewer simulations than the settings ask.
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        self.stop_flag = flag;
    }

    /// Searches every root together, each in a tree of its own, with
    /// `evaluator` answering for all their leaves, one call per round.
    /// The outcome of a root depends on it, its seed, the settings and the
    /// evaluator's answers, not on the other roots or the threads.
    ///
    /// # Errors
    /// A root where no single player decides (a chance event, a
    /// simultaneous choice, a finished game), a simultaneous choice met
    /// below a root, an evaluator whose values are not laid out for the
    /// game or that was made for another game
    /// ([`LeafEvaluator::check_game`]), an evaluator that fails, or one
    /// whose answers are not numbers in range; nothing is returned then.
    pub fn search<G: Encoding, E: LeafEvaluator<G>>(
        &self,
        roots: &[SearchRoot<'_, G>],
        evaluator: &mut E,
    ) -> Result<Vec<SearchOutcome<G::Move>>, GuidedError> {
        let Some(first) = roots.first() else {
            return Ok(Vec::new());
        };
        let players = first.state.num_players();
        // A network made for another game is named as such before its
        // values' layout is compared with the game's.
        evaluator
            .check_game(&GameShape::of_state(first.state))
            .map_err(|error| GuidedError::new(error.to_string()))?;
        let layout = evaluator.layout(players);
        check_layout::<G>(layout, players)?;
        let mut trees = roots
            .iter()
            .map(|root| {
                let decisions = Decisions::new(root.state.clone(), root.pending);
                match decisions.actor() {
                    Actor::Player(player) => {
                        Ok(Tree::new(decisions, player, root.seed, &self.config))
                    }
                    Actor::Chance => Err("a chance event is pending"),
                    Actor::Simultaneous => Err("the players choose simultaneously"),
                    Actor::Over(_) => Err("the game is over"),
                }
                .map_err(|why| {
                    GuidedError::new(format!(
                        "the guided search needs a root where one player decides, and {why}"
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut buffers = Buffers::default();
        // The roots' own evaluations first, then the simulations.
        self.evaluate_waiting(&mut trees, evaluator, layout, &mut buffers)?;
        let mut rounds = 0u64;
        while trees
            .iter()
            .any(|tree| tree.simulations < self.config.simulations)
            && (rounds == 0 || !self.stop_flag.raised())
        {
            self.for_each_tree(&mut trees, |tree| tree.collect(&self.config))?;
            self.evaluate_waiting(&mut trees, evaluator, layout, &mut buffers)?;
            rounds += 1;
        }
        Ok(trees.iter_mut().map(|tree| self.outcome(tree)).collect())
    }

    /// Runs `work` on every tree, across the threads if there are several.
    fn for_each_tree<G: Encoding>(
        &self,
        trees: &mut [Tree<G>],
        work: impl Fn(&mut Tree<G>) -> Result<(), GuidedError> + Sync + Send,
    ) -> Result<(), GuidedError> {
        match &self.pool {
            Some(pool) => pool.install(|| trees.par_iter_mut().try_for_each(work)),
            None => trees.iter_mut().try_for_each(work),
        }
    }

    /// Evaluates the leaves every tree waits for, in one call, and
    /// expands them.
    fn evaluate_waiting<G: Encoding, E: LeafEvaluator<G>>(
        &self,
        trees: &mut [Tree<G>],
        evaluator: &mut E,
        layout: ValueLayout,
        buffers: &mut Buffers,
    ) -> Result<(), GuidedError> {
        let count: usize = trees.iter().map(|tree| tree.waiting.len()).sum();
        if count == 0 {
            return Ok(());
        }
        let Some(rules) = trees.first().map(|tree| tree.rules()) else {
            return Ok(());
        };
        let actions = G::num_actions(rules);
        let observation_size: usize = G::observation_shape(rules).iter().product();
        let width = layout.width();
        let reads_tensors = evaluator.reads_tensors();
        let writes_logits = evaluator.writes_logits();
        buffers.prepare(
            count,
            writes_logits.then_some(actions),
            width,
            reads_tensors.then_some((observation_size, actions)),
        );
        {
            let waiting: Vec<_> = trees.iter().flat_map(|tree| tree.waiting.iter()).collect();
            if reads_tensors {
                self.write_tensors(&waiting, observation_size, actions, buffers);
            }
            let leaves: Vec<Leaf<'_, G>> = waiting
                .iter()
                .map(|leaf| Leaf {
                    state: leaf.state.state(),
                    pending: leaf.state.pending(),
                    player: leaf.player,
                    seed: leaf.seed,
                })
                .collect();
            let batch = LeafBatch {
                leaves: &leaves,
                observations: &buffers.observations,
                masks: &buffers.masks,
                threads: self.pool.as_ref(),
            };
            let mut out = Evaluations {
                logits: &mut buffers.logits,
                values: &mut buffers.values,
            };
            evaluator.evaluate(&batch, &mut out)?;
        }
        let (logits, values) = (&buffers.logits, &buffers.values);
        let mut offsets = Vec::with_capacity(trees.len());
        let mut offset = 0;
        for tree in trees.iter() {
            offsets.push(offset);
            offset += tree.waiting.len();
        }
        let config = &self.config;
        let expand = |(tree, offset): (&mut Tree<G>, usize)| -> Result<(), GuidedError> {
            let waiting = std::mem::take(&mut tree.waiting);
            for (index, leaf) in waiting.iter().enumerate() {
                let at = offset + index;
                tree.expand(
                    leaf,
                    writes_logits.then(|| &logits[at * actions..][..actions]),
                    &values[at * width..][..width],
                    layout,
                    config,
                )?;
            }
            Ok(())
        };
        match &self.pool {
            Some(pool) => pool.install(|| trees.par_iter_mut().zip(offsets).try_for_each(expand)),
            None => trees.iter_mut().zip(offsets).try_for_each(expand),
        }
    }

    /// Writes each waiting leaf's observation and legal mask.
    fn write_tensors<G: Encoding>(
        &self,
        waiting: &[&super::tree::Waiting<G>],
        observation_size: usize,
        actions: usize,
        buffers: &mut Buffers,
    ) {
        let write =
            |((leaf, observation), mask): ((&&super::tree::Waiting<G>, &mut [f32]), &mut [u8])| {
                leaf.state.write_observation(leaf.player, observation);
                mask.fill(0);
                let mut listing = Listing::new();
                let mut choices = Vec::new();
                leaf.state.decisions(&mut listing, &mut choices);
                for (id, _) in choices {
                    mask[id as usize] = 1;
                }
            };
        let observations = buffers.observations.chunks_mut(observation_size.max(1));
        let masks = buffers.masks.chunks_mut(actions);
        match &self.pool {
            Some(pool) => pool.install(|| {
                waiting
                    .par_iter()
                    .zip(buffers.observations.par_chunks_mut(observation_size.max(1)))
                    .zip(buffers.masks.par_chunks_mut(actions))
                    .for_each(write);
            }),
            None => waiting.iter().zip(observations).zip(masks).for_each(write),
        }
    }

    /// The outcome of a finished tree.
    fn outcome<G: Encoding>(&self, tree: &mut Tree<G>) -> SearchOutcome<G::Move> {
        let summary = tree.root_summary(&self.config);
        let policy: Vec<f64> = if self.config.gumbel {
            summary.improved.clone()
        } else {
            let total: f64 = summary.visits.iter().map(|&n| f64::from(n)).sum();
            summary
                .visits
                .iter()
                .map(|&n| {
                    if total > 0.0 {
                        f64::from(n) / total
                    } else {
                        1.0 / summary.visits.len() as f64
                    }
                })
                .collect()
        };
        let chosen = if self.config.gumbel {
            gumbel_choice(&summary)
        } else {
            self.puct_choice(tree, &summary)
        };
        let completed = match summary.steps[chosen] {
            Step::Play(mv) => Some(mv),
            Step::Decide(_) | Step::Draw(_) => None,
        };
        SearchOutcome {
            player: summary.player,
            actions: (0..summary.ids.len())
                .map(|index| RootAction {
                    id: summary.ids[index],
                    prior: summary.priors[index],
                    visits: summary.visits[index],
                    value: summary.completed[index],
                    policy: policy[index],
                })
                .collect(),
            chosen: summary.ids[chosen],
            completed,
            value: summary.value,
            simulations: tree.simulations,
            nodes: tree.node_count(),
        }
    }

    /// PUCT's move: drawn from the visits with the temperature while the
    /// game's ply is within the temperature's plies, the most visited
    /// otherwise (the better valued of equals, then the first).
    fn puct_choice<G: Encoding>(
        &self,
        tree: &mut Tree<G>,
        summary: &RootSummary<G::Move>,
    ) -> usize {
        let temperature = self.config.temperature;
        let in_time = self
            .config
            .temperature_plies
            .is_none_or(|plies| tree.root_ply() < plies);
        if temperature > 0.0 && in_time {
            let weights: Vec<f64> = summary
                .visits
                .iter()
                .map(|&n| f64::from(n).powf(1.0 / temperature))
                .collect();
            let total: f64 = weights.iter().sum();
            if total > 0.0 && total.is_finite() {
                let mut target = tree.uniform() * total;
                for (index, weight) in weights.iter().enumerate() {
                    if target < *weight {
                        return index;
                    }
                    target -= weight;
                }
            }
        }
        let mut best = 0;
        for index in 1..summary.visits.len() {
            let (visits, best_visits) = (summary.visits[index], summary.visits[best]);
            if visits > best_visits
                || (visits == best_visits && summary.completed[index] > summary.completed[best])
            {
                best = index;
            }
        }
        best
    }
}

/// Gumbel's move: among the most visited actions, the one of the highest
/// `g + logit + σ(q̂)`.
fn gumbel_choice<M>(summary: &RootSummary<M>) -> usize {
    let most = summary.visits.iter().copied().max().unwrap_or(0);
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (index, (&visits, &score)) in summary.visits.iter().zip(&summary.scores).enumerate() {
        if visits == most && score > best_score {
            best_score = score;
            best = index;
        }
    }
    best
}

/// Refuses an evaluator whose values are not laid out for game `G`.
fn check_layout<G: Game>(layout: ValueLayout, players: usize) -> Result<(), GuidedError> {
    let fits = ValueLayout::of_game::<G>(players);
    if layout.fits(G::SCORING, players) {
        Ok(())
    } else {
        Err(GuidedError::new(format!(
            "the evaluator's values are laid out {layout}, and {} with {players} players needs {fits} or per-player values",
            G::NAME
        )))
    }
}

/// The buffers of one evaluator call, kept from round to round.
#[derive(Default)]
struct Buffers {
    observations: Vec<f32>,
    masks: Vec<u8>,
    logits: Vec<f32>,
    values: Vec<f32>,
}

impl Buffers {
    /// Room for `count` leaves: their values; `actions` logits each,
    /// zeroed (a uniform policy), when the evaluator writes logits; and
    /// when it reads them, tensors of `observation_size` values and masks
    /// of `actions` bytes.
    fn prepare(
        &mut self,
        count: usize,
        actions: Option<usize>,
        width: usize,
        tensors: Option<(usize, usize)>,
    ) {
        self.logits.clear();
        if let Some(actions) = actions {
            self.logits.resize(count * actions, 0.0);
        }
        self.values.clear();
        self.values.resize(count * width, 0.0);
        self.observations.clear();
        self.masks.clear();
        if let Some((size, actions)) = tensors {
            self.observations.resize(count * size, 0.0);
            self.masks.resize(count * actions, 0);
        }
    }
}
