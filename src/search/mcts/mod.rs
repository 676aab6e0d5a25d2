//! Monte Carlo tree search (UCT) for any number of players.
//!
//! Each node keeps the sum of every player's payoff over the simulations
//! through it, normalised to `[0, 1]` by [`Game::payoff_range`]. The player to
//! move at a node picks the child that is best for *that player* (UCB1), so
//! the same code serves one-player and cooperative games, two-player zero-sum
//! games and multi-player games.
//!
//! - Nodes live in an arena (a `Vec` with `u32` links); a node's children form
//!   a linked list and are added one per visit: tactical moves
//!   ([`Evaluator::is_tactical`]) first, each group in a shuffled order; or
//!   all at once, scored by the evaluation ([`Expansion::All`]).
//! - A simulation plays random moves from the new node for at most
//!   [`MctsConfig::playout_plies`] plies, then scores the position with the
//!   evaluation ([`Evaluator::evaluate`]: the game's own by [`Mcts::new`],
//!   any other by [`Mcts::with_evaluator`]) unless the game ended.
//! - MCTS-Solver: finished games are proven results. A node is proven when its
//!   player to move has a proven child giving it the best possible payoff, or
//!   when every child is proven (it takes the best of them). Proven nodes are
//!   not simulated again, and a proven root stops the search.
//! - The tree survives between moves: [`Mcts::advance`] keeps the subtree of
//!   the move played, up to half the node budget.
//! - [`MctsConfig::node_budget`] bounds the memory: at the budget the tree
//!   stops growing (except for the root's children, which are always built)
//!   and simulations start at its leaves.
//!
//! # Parts
//! - `tree.rs`: the node arena and what runs up it after a simulation
//!   (results, implicit minimax values, proofs);
//! - `selection.rs`: the descent, and the policies that score children
//!   (UCB1, implicit minimax, progressive bias), chosen from the settings;
//! - `expansion.rs`: building one child or all at once, away from the tree;
//! - `playout.rs`: simulations and the evaluation of a game cut short;
//! - `reuse.rs`: keeping the subtree of the move played, cut to half the
//!   node budget;
//! - `check.rs`: the alpha-beta check of the best root moves;
//! - `result.rs`: the root statistics summed over trees, and the move chosen;
//! - `parallel.rs`: the runners, one tree alone, shared, or one a thread;
//! - `config.rs`: the settings.
//!
//! # Parallelism
//! - **Root parallelism** ([`Parallelism::Root`]): each thread grows its own
//!   tree from its own seed, and the trees' root statistics are summed. With an
//!   iteration budget the result depends only on the seed and the number of
//!   threads.
//! - **Tree parallelism** ([`Parallelism::Tree`]): the threads share one tree
//!   behind a lock, which they hold only to select a path and to back up a
//!   result; building the new node and the simulation run outside it. A
//!   thread descending through a node adds a *virtual loss* to it until its
//!   result is backed up (a visit that paid nothing, in the mean and in the
//!   implicit minimax value), which steers the other threads elsewhere. The iteration count is exact
//!   but the order in which threads take the lock varies, so results are not
//!   reproducible from run to run.
//!
//! On two cores root parallelism scales better: the trees share nothing, so
//! two threads run twice the iterations, while tree parallelism's threads
//! queue for the lock during selection and back-up (about an eighth of an
//! iteration with 10-ply simulations; see bench-results/search.md).
//!
//! # Restrictions
//! The search needs states where one player is to move or the game is over.
//! A search that meets a chance event or a simultaneous choice (in the tree
//! or in a simulation) stops with a [`SearchError`].

use super::alphabeta::AlphaBeta;
use super::{SearchError, StopFlag};
use crate::core::{
    Evaluate, Evaluator, Game, GameEvaluation, Status, derive_seed, rng_from_seed, thread_pool,
};
use std::time::{Duration, Instant};

mod check;
mod config;
mod expansion;
mod parallel;
mod playout;
mod result;
mod reuse;
mod selection;
#[cfg(test)]
mod test_game;
mod tree;

use config::CHECK_TIME_SHARE;
pub use config::{
    Expansion, FinalChoice, MAX_CHECK_DEPTH, MAX_MCTS_ITERATIONS, MctsConfig, Parallelism,
};
pub use result::{MctsResult, MoveStats};
use reuse::same_position;
pub use tree::MAX_TREE_NODES;
use tree::{Node, Tree};

/// A Monte Carlo tree searcher that keeps its trees between moves, with
/// the evaluation `E` (by default the game's own).
pub struct Mcts<G: Game, E = GameEvaluation> {
    config: MctsConfig,
    seed: u64,
    searches: u64,
    trees: Vec<Tree<G>>,
    /// The node arrays of dropped trees, for the next trees to grow in:
    /// memory written before costs no page faults, which two threads
    /// growing fresh trees at once pay for in the kernel, one after the
    /// other.
    spare_nodes: Vec<Vec<Node<G::Move>>>,
    pool: Option<rayon::ThreadPool>,
    evaluator: E,
    /// The searcher of [`MctsConfig::check_depth`], whose table lasts
    /// from one search to the next.
    checker: Option<AlphaBeta>,
    /// The moves played since the last search, from the trees' root, to
    /// be cut from the trees when the next search starts its clock.
    played: Vec<G::Move>,
    /// The position after the trees' root and the moves of `played`.
    position_after_played: Option<G>,
    /// Raised from outside to end the searches early.
    stop_flag: StopFlag,
}

impl<G: Evaluate> Mcts<G> {
    /// A searcher with the game's own evaluation whose random choices all
    /// derive from `seed`.
    ///
    /// # Errors
    /// If the thread pool for `config.threads > 1` cannot be created.
    pub fn new(config: MctsConfig, seed: u64) -> Result<Self, String> {
        Mcts::with_evaluator(config, seed, GameEvaluation)
    }
}

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// A searcher that scores playouts cut short with `evaluator` (and
    /// tries its tactical moves first), whose random choices all derive
    /// from `seed`.
    ///
    /// # Errors
    /// A configuration [`MctsConfig::validate`] refuses; the thread pool for
    /// `config.threads > 1` cannot be created, or the system refuses the
    /// table of the check's searcher.
    pub fn with_evaluator(config: MctsConfig, seed: u64, evaluator: E) -> Result<Self, String> {
        config.validate()?;
        let pool = if config.threads > 1 {
            Some(thread_pool(config.threads)?)
        } else {
            None
        };
        let checker = config
            .checker_config()
            .map(AlphaBeta::try_new)
            .transpose()?;
        Ok(Mcts {
            config,
            seed,
            searches: 0,
            trees: Vec::new(),
            spare_nodes: Vec::new(),
            pool,
            evaluator,
            checker,
            played: Vec::new(),
            position_after_played: None,
            stop_flag: StopFlag::default(),
        })
    }

    /// The configuration the searcher runs with.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Sets the time limit of the searches to come (a game clock's share
    /// for the next move).
    pub fn set_time(&mut self, time: Option<Duration>) {
        self.config.time = time;
    }

    /// Forgets the trees (their memory is kept for the next search's).
    pub fn clear(&mut self) {
        self.spare_nodes
            .extend(self.trees.drain(..).map(|tree| tree.nodes));
        self.played.clear();
        self.position_after_played = None;
    }

    /// The total number of nodes in the trees.
    pub fn node_count(&self) -> usize {
        self.trees.iter().map(|tree| tree.nodes.len()).sum()
    }

    /// Ends every later search early, with the iterations it ran, once
    /// `flag` is raised (checked before each iteration).
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        self.stop_flag = flag;
    }

    /// Searches `state` within the configured limits.
    ///
    /// # Errors
    /// If the search meets a chance event or a simultaneous choice; the
    /// trees are then dropped.
    pub fn search(&mut self, state: &G) -> Result<MctsResult<G::Move>, SearchError> {
        let started = Instant::now();
        if let status @ (Status::Chance | Status::Simultaneous) = state.status() {
            return Err(SearchError::unsupported("MCTS", status));
        }
        // A time too long to add to the clock is no limit.
        let deadline = self.config.time.and_then(|time| started.checked_add(time));
        let tree_deadline = match self.config.time {
            Some(time) if self.checker.is_some() => {
                started.checked_add(time.mul_f64(1.0 - CHECK_TIME_SHARE))
            }
            _ => deadline,
        };
        // Leaf searches (from the root's evaluation on) stop with the tree
        // search; the checks' own searches set the deadline of the checks.
        self.evaluator.set_deadline(tree_deadline);
        // A cut that takes more than half the time is given up: fresh
        // trees in the other half are worth more than a late move.
        let cut_deadline = self
            .config
            .time
            .and_then(|time| started.checked_add(time / 2));
        self.cut_trees_until(cut_deadline);
        self.searches += 1;
        let tree_count = match self.config.parallelism {
            Parallelism::Root => self.config.threads.max(1),
            Parallelism::Tree => 1,
        };
        let keep = self.trees.len() == tree_count
            && self
                .trees
                .iter()
                .all(|tree| same_position(&tree.root_state, state));
        let search_seed = derive_seed(self.seed, self.searches);
        if !keep {
            self.clear();
            let mut spare_nodes = std::mem::take(&mut self.spare_nodes);
            // The roots draw from seeds of their own, after those of the threads.
            self.trees = (0..tree_count)
                .map(|index| {
                    let seed = derive_seed(search_seed, (self.config.threads + index) as u64);
                    Tree::new(
                        state,
                        &self.evaluator,
                        &self.config,
                        &mut rng_from_seed(seed),
                        spare_nodes.pop().unwrap_or_default(),
                    )
                })
                .collect();
        }
        let iterations = if self.config.iterations.is_none() && deadline.is_none() {
            MctsConfig::default().iterations
        } else {
            self.config.iterations
        };
        let ran = self.grow_trees(iterations, tree_deadline, search_seed);
        if let Some(status) = self.trees.iter().find_map(|tree| tree.unsupported) {
            self.clear();
            return Err(SearchError::unsupported("MCTS", status));
        }
        let budget = self.config.node_budget;
        let mut result = MctsResult {
            best_move: None,
            iterations: ran,
            nodes: self.node_count(),
            moves: Vec::new(),
            elapsed: Duration::ZERO,
            budget_reached: self.trees.iter().any(|tree| tree.nodes.len() >= budget),
        }
        .finish(&self.trees, &self.config, started);
        self.check_candidates(state, &mut result, deadline)?;
        result.elapsed = started.elapsed();
        Ok(result)
    }
}
