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

use super::SearchError;
use super::alphabeta::AlphaBeta;
use crate::core::{
    Evaluate, Evaluator, Game, GameEvaluation, GameRng, MAX_PLAYERS, MoveList, Player, Scoring,
    Status, derive_seed, normalised_payoffs, rng_from_seed, thread_pool,
};
use rand::RngExt;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod config;
use config::{CHECK_TIME_SHARE, MAX_CHECKED_MOVES};
pub use config::{
    Expansion, FinalChoice, MAX_CHECK_DEPTH, MAX_MCTS_ITERATIONS, MctsConfig, Parallelism,
};

/// The statistics of one root move after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats<M> {
    pub mv: M,
    pub visits: u64,
    /// The mean normalised payoff (in `[0, 1]`) of the player to move.
    pub mean: f64,
    /// The value selection gives the move without exploration, `(1 - α) *
    /// mean + α * minimax` for the player to move, where `minimax` is the
    /// move's implicit minimax value (its evaluation if never visited) and
    /// `α` the [`MctsConfig::minimax_weight`]. Over several root-parallel
    /// trees, the average weighted by visits plus one.
    pub value: f64,
    /// The normalised payoffs if the move's result is proven.
    pub proven: Option<[f64; MAX_PLAYERS]>,
    /// With [`MctsConfig::check_depth`], the move's checked value for the
    /// player to move (the smaller of its estimate and the check's score,
    /// normalised), if it was checked.
    pub checked: Option<f64>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The move to play, `None` only if the root had no player to move.
    pub best_move: Option<M>,
    /// Simulations run in this search.
    pub iterations: u64,
    /// Nodes in the tree(s) after the search.
    pub nodes: usize,
    /// Every expanded root move, most visited first.
    pub moves: Vec<MoveStats<M>>,
    pub elapsed: Duration,
    /// Whether a tree reached [`MctsConfig::node_budget`] and stopped growing.
    pub budget_reached: bool,
}

/// The largest node budget: nodes are numbered by `u32`, and `u32::MAX`
/// marks "no node".
pub const MAX_TREE_NODES: usize = u32::MAX as usize - 1;

const NONE: u32 = u32::MAX;
const NO_PLAYER: u8 = u8::MAX;
/// A prime larger than any move count: stepping through the moves by it
/// modulo their number visits each one once, in a scrambled order.
const SCRAMBLE_STEP: usize = 65_521;

#[derive(Clone, Debug)]
struct Node<M> {
    /// The move that led here (`None` at the root).
    mv: Option<M>,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    /// The player to move here, or `NO_PLAYER` at a leaf state.
    mover: u8,
    /// The number of legal moves.
    move_count: u16,
    /// How many of the legal moves are tactical (expanded first).
    tactical_count: u16,
    /// Where the scrambled expansion order starts.
    scramble_offset: u16,
    /// Children claimed so far (a claimed child is linked once it is built).
    claimed: u16,
    visits: u32,
    virtual_loss: u32,
    totals: [f64; MAX_PLAYERS],
    proven: Option<[f64; MAX_PLAYERS]>,
    /// The implicit minimax value (normalised payoffs).
    minimax: [f64; MAX_PLAYERS],
    /// The evaluation of the node's state for the player whose move led
    /// here, for progressive bias.
    prior: f32,
}

/// Everything a new node needs to know about its state, worked out away
/// from the tree (outside the lock when threads share it).
struct Description {
    mover: u8,
    move_count: u16,
    tactical_count: u16,
    scramble_offset: u16,
    proven: Option<[f64; MAX_PLAYERS]>,
    /// The evaluation, if implicit minimax or progressive bias want it.
    estimate: [f64; MAX_PLAYERS],
    /// The status of a state the search cannot go through.
    unsupported: Option<Status>,
}

impl Description {
    /// A state with no player to move, no moves and no result yet.
    fn blank() -> Self {
        Description {
            mover: NO_PLAYER,
            move_count: 0,
            tactical_count: 0,
            scramble_offset: 0,
            proven: None,
            estimate: [0.0; MAX_PLAYERS],
            unsupported: None,
        }
    }

    fn of<G: Game>(
        state: &G,
        evaluator: &impl Evaluator<G>,
        config: &MctsConfig,
        rng: &mut GameRng,
        moves: &mut MoveList<G::Move>,
    ) -> Self {
        let mut description = Description::blank();
        match state.status() {
            Status::ToMove(player) => {
                state.legal_moves(moves);
                description.mover = player as u8;
                description.move_count = moves.len().min(usize::from(u16::MAX)) as u16;
                description.tactical_count = moves
                    .iter()
                    .filter(|&&mv| evaluator.is_tactical(state, mv))
                    .count() as u16;
                if description.move_count > 0 {
                    description.scramble_offset = rng.random_range(0..description.move_count);
                }
            }
            Status::Over(outcome) => {
                description.proven = Some(normalised_payoffs(state, outcome.payoffs.as_slice()));
            }
            other @ (Status::Chance | Status::Simultaneous) => {
                description.unsupported = Some(other);
                return description;
            }
        }
        if config.wants_estimates() {
            description.estimate = match description.proven {
                Some(result) => result,
                None => evaluation(state, evaluator),
            };
        }
        description
    }

    /// A child built by an evaluated expansion: its player to move, its
    /// result if the game is over, and its evaluation. Its moves are counted
    /// only when it is expanded in turn, so that building a node's children
    /// does not generate every child's moves.
    fn unexpanded<G: Game>(state: &G, evaluator: &impl Evaluator<G>) -> Self {
        let mut description = Description::blank();
        match state.status() {
            Status::ToMove(player) => {
                description.mover = player as u8;
                description.estimate = evaluation(state, evaluator);
            }
            Status::Over(outcome) => {
                let result = normalised_payoffs(state, outcome.payoffs.as_slice());
                description.proven = Some(result);
                description.estimate = result;
            }
            other @ (Status::Chance | Status::Simultaneous) => {
                description.unsupported = Some(other)
            }
        }
        description
    }
}

impl<M> Node<M> {
    fn new(mv: Option<M>, parent: u32, description: Description) -> Self {
        Node {
            mv,
            parent,
            first_child: NONE,
            next_sibling: NONE,
            mover: description.mover,
            move_count: description.move_count,
            tactical_count: description.tactical_count,
            scramble_offset: description.scramble_offset,
            claimed: 0,
            visits: 0,
            virtual_loss: 0,
            totals: [0.0; MAX_PLAYERS],
            proven: description.proven,
            minimax: description.estimate,
            prior: 0.0,
        }
    }
}

/// One search tree, rooted at the state it was built for.
struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    root_state: G,
    /// The status of the first state met that the search cannot go through;
    /// the tree stops growing.
    unsupported: Option<Status>,
    /// Whether every node's children sit side by side in `nodes`, as
    /// [`Expansion::All`] builds them, so that walking them is a scan of
    /// consecutive nodes rather than a chase along the sibling links.
    siblings_together: bool,
}

/// Where a descent ended and what it asks for.
enum Selection {
    /// The node's result is known (a finished game or a proven node).
    Known(u32, [f64; MAX_PLAYERS]),
    /// Simulate from the node.
    Simulate(u32),
    /// Build the child of the node that is the `slot`-th move of the
    /// tactical (or quiet) group of its legal moves.
    Expand {
        parent: u32,
        tactical: bool,
        slot: usize,
    },
    /// Build every child of the node ([`Expansion::All`]).
    ExpandAll(u32),
}

/// The children an iteration built away from the tree.
enum NewChildren<M> {
    None,
    /// The child of [`Selection::Expand`].
    One(M, Description),
    /// Every child of [`Selection::ExpandAll`], best first for the player
    /// to move.
    All(Vec<(M, Description)>),
}

/// The work done away from the tree: the new children, if any, and the
/// result.
struct Simulation<M> {
    children: NewChildren<M>,
    /// The result, or the status of a state the search cannot go through.
    result: Result<[f64; MAX_PLAYERS], Status>,
}

impl<G: Game> Tree<G> {
    fn children(&self, parent: u32) -> impl Iterator<Item = u32> + '_ {
        let node = &self.nodes[parent as usize];
        let (together, mut next) = if self.siblings_together && node.first_child != NONE {
            let first = node.first_child;
            (first..first + u32::from(node.move_count), NONE)
        } else {
            (0..0, node.first_child)
        };
        together.chain(std::iter::from_fn(move || {
            (next != NONE).then(|| {
                let current = next;
                next = self.nodes[current as usize].next_sibling;
                current
            })
        }))
    }

    /// Walks down by UCB1 from the root, adding a virtual loss to every node
    /// passed and recording the moves in `path`, until a node that is finished,
    /// proven, or has a child left to build (if the budget allows).
    fn select(&mut self, config: &MctsConfig, path: &mut Vec<G::Move>) -> Selection {
        path.clear();
        let mut index = 0u32;
        loop {
            // The root's children are built whatever the budget: without
            // them there is no move to choose.
            let budget_left = self.nodes.len() < config.node_budget || index == 0;
            let node = &mut self.nodes[index as usize];
            node.virtual_loss += 1;
            if let Some(result) = node.proven
                && (config.solver || node.mover == NO_PLAYER)
            {
                return Selection::Known(index, result);
            }
            if node.mover == NO_PLAYER {
                return Selection::Simulate(index);
            }
            if config.expansion == Expansion::All && node.first_child == NONE {
                // A node another thread is expanding (no children yet) is
                // expanded again rather than waited for: a thread the
                // system holds back would otherwise hold up its whole
                // subtree (the tic-tac-toe proofs found such stalls). The
                // first expansion to finish is linked.
                if budget_left {
                    return Selection::ExpandAll(index);
                }
                return Selection::Simulate(index);
            }
            let widening_allows = config.widening.is_none_or(|widening| {
                u64::from(node.claimed) < widening.children_allowed(u64::from(node.visits) + 1)
            });
            if config.expansion == Expansion::OneByOne
                && node.claimed < node.move_count
                && budget_left
                && widening_allows
            {
                let (claimed, tactical) =
                    (usize::from(node.claimed), usize::from(node.tactical_count));
                let (is_tactical, rank, group) = if claimed < tactical {
                    (true, claimed, tactical)
                } else {
                    (
                        false,
                        claimed - tactical,
                        usize::from(node.move_count) - tactical,
                    )
                };
                node.claimed += 1;
                return Selection::Expand {
                    parent: index,
                    tactical: is_tactical,
                    slot: (usize::from(node.scramble_offset) + rank * SCRAMBLE_STEP) % group,
                };
            }
            match self.select_child(index, config) {
                Some(child) => {
                    path.push(self.nodes[child as usize].mv.expect("children have moves"));
                    index = child;
                }
                None => return Selection::Simulate(index),
            }
        }
    }

    /// The child with the highest UCB1 score for the player to move; a virtual
    /// loss counts as a visit that paid nothing. With every child built at
    /// once, a child never visited counts its evaluation as its mean and one
    /// visit more in the exploration term, proven children are passed over,
    /// and widening opens the children best evaluated first.
    fn select_child(&self, parent: u32, config: &MctsConfig) -> Option<u32> {
        let node = &self.nodes[parent as usize];
        let mover = usize::from(node.mover);
        let parent_visits = f64::from(node.visits + node.virtual_loss).max(1.0);
        let log_parent = parent_visits.ln();
        let all_built = config.expansion == Expansion::All;
        let open = match config.widening {
            Some(widening) if all_built => {
                let allowed = widening.children_allowed(u64::from(node.visits) + 1);
                usize::try_from(allowed).unwrap_or(usize::MAX)
            }
            _ => usize::MAX,
        };
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        // A proven child's value is already in its parent's implicit minimax
        // value; when every child is built, visiting it again would only
        // repeat that value, as long as a sibling is unproven (when none is,
        // the parent is proven).
        let passed_over = |child: &u32| {
            all_built && config.solver && self.nodes[*child as usize].proven.is_some()
        };
        for child in self
            .children(parent)
            .filter(|child| !passed_over(child))
            .take(open)
        {
            let child_node = &self.nodes[child as usize];
            let score = match child_node.proven {
                Some(result) if config.solver => result[mover],
                _ => {
                    let visits = f64::from(child_node.visits + child_node.virtual_loss);
                    if visits == 0.0 && !all_built {
                        f64::INFINITY
                    } else {
                        let (mean, explored) = if all_built {
                            let mean = if visits == 0.0 {
                                child_node.minimax[mover]
                            } else {
                                child_node.totals[mover] / visits
                            };
                            (mean, visits + 1.0)
                        } else {
                            (child_node.totals[mover] / visits, visits)
                        };
                        // A virtual loss is a visit that paid nothing, in
                        // the minimax value as in the mean, so that threads
                        // sharing a tree that selects by minimax alone
                        // still part ways (without one the factor is exactly
                        // 1, so that one thread searches as it always has).
                        let pending = f64::from(child_node.virtual_loss);
                        let settled = f64::from(child_node.visits) + 1.0;
                        let minimax = child_node.minimax[mover] * (settled / (settled + pending));
                        let weight = config.minimax_weight;
                        (1.0 - weight) * mean
                            + weight * minimax
                            + config.exploration * (log_parent / explored).sqrt()
                            + config.progressive_bias * f64::from(child_node.prior) / (visits + 1.0)
                    }
                }
            };
            if score > best_score {
                best_score = score;
                best = Some(child);
            }
        }
        best
    }

    /// Links the child built for `selection` (if any) and backs the result up
    /// from it to the root.
    fn finish_iteration(
        &mut self,
        selection: Selection,
        simulation: Simulation<G::Move>,
        config: &MctsConfig,
    ) {
        let Simulation { children, result } = simulation;
        let result = match result {
            Ok(result) => result,
            Err(status) => {
                self.unsupported = Some(status);
                return;
            }
        };
        let leaf = match (selection, children) {
            (Selection::Known(node, _) | Selection::Simulate(node), _) => node,
            (Selection::ExpandAll(node), NewChildren::All(children)) => {
                if self.nodes[node as usize].first_child == NONE {
                    self.link_all(node, children);
                }
                if config.solver {
                    self.prove(node);
                }
                node
            }
            (Selection::Expand { parent, .. }, NewChildren::One(mv, description)) => {
                let child = self.nodes.len() as u32;
                let chooser = usize::from(self.nodes[parent as usize].mover);
                let prior = description.estimate[chooser] as f32;
                let mut node = Node::new(Some(mv), parent, description);
                node.prior = prior;
                node.virtual_loss = 1;
                node.next_sibling = self.nodes[parent as usize].first_child;
                self.nodes[parent as usize].first_child = child;
                self.nodes.push(node);
                child
            }
            (Selection::ExpandAll(_) | Selection::Expand { .. }, _) => {
                unreachable!("an expansion builds the children its selection asked for")
            }
        };
        self.back_up(leaf, &result, config);
    }

    /// Links `children`, best first, as every child of `parent`, whose
    /// implicit minimax value becomes the best of their evaluations.
    fn link_all(&mut self, parent: u32, children: Vec<(G::Move, Description)>) {
        let chooser = usize::from(self.nodes[parent as usize].mover);
        let first = self.nodes.len() as u32;
        let count = children.len();
        for (offset, (mv, description)) in children.into_iter().enumerate() {
            let prior = description.estimate[chooser] as f32;
            let mut node = Node::new(Some(mv), parent, description);
            node.prior = prior;
            if offset + 1 < count {
                node.next_sibling = first + offset as u32 + 1;
            }
            self.nodes.push(node);
        }
        let node = &mut self.nodes[parent as usize];
        if count > 0 {
            node.first_child = first;
        }
        node.move_count = count.min(usize::from(u16::MAX)) as u16;
        node.claimed = node.move_count;
        node.tactical_count = 0;
        self.update_minimax(parent);
    }

    /// Adds `result` to every node from `leaf` up to the root, removes the
    /// virtual losses of the descent, updates the implicit minimax values and
    /// proves what can now be proven.
    fn back_up(&mut self, leaf: u32, result: &[f64; MAX_PLAYERS], config: &MctsConfig) {
        let mut index = leaf;
        while index != NONE {
            let node = &mut self.nodes[index as usize];
            node.visits += 1;
            node.virtual_loss -= 1;
            for (total, value) in node.totals.iter_mut().zip(result) {
                *total += value;
            }
            let parent = node.parent;
            if config.minimax_weight > 0.0 && index != leaf {
                self.update_minimax(index);
            }
            index = parent;
        }
        if config.solver && self.nodes[leaf as usize].proven.is_some() {
            let mut index = self.nodes[leaf as usize].parent;
            while index != NONE && self.prove(index) {
                index = self.nodes[index as usize].parent;
            }
        }
    }

    /// The implicit minimax value of `index`: that of its best child for the
    /// player to move (a node whose result is proven keeps it).
    fn update_minimax(&mut self, index: u32) {
        let node = &self.nodes[index as usize];
        if node.mover == NO_PLAYER || node.proven.is_some() {
            return;
        }
        let mover = usize::from(node.mover);
        let best = self
            .children(index)
            .map(|child| self.nodes[child as usize].minimax)
            .max_by(|a, b| a[mover].total_cmp(&b[mover]));
        if let Some(best) = best {
            self.nodes[index as usize].minimax = best;
        }
    }

    /// Tries to prove `index` from its children; true if it became proven.
    fn prove(&mut self, index: u32) -> bool {
        let node = &self.nodes[index as usize];
        if node.proven.is_some() || node.mover == NO_PLAYER {
            return false;
        }
        let mover = usize::from(node.mover);
        let mut linked = 0;
        let mut all_proven = true;
        let mut best: Option<[f64; MAX_PLAYERS]> = None;
        for child in self.children(index) {
            linked += 1;
            match self.nodes[child as usize].proven {
                Some(result) if result[mover] >= 1.0 => {
                    best = Some(result);
                    all_proven = true;
                    linked = node.move_count;
                    break;
                }
                Some(result) => {
                    if best.is_none_or(|best| result[mover] > best[mover]) {
                        best = Some(result);
                    }
                }
                None => all_proven = false,
            }
        }
        match best {
            Some(result) if all_proven && linked == node.move_count => {
                self.nodes[index as usize].proven = Some(result);
                true
            }
            _ => false,
        }
    }

    fn is_solved(&self) -> bool {
        self.nodes[0].proven.is_some()
    }

    /// Keeps only the subtree below the root's child for `mv`, which becomes
    /// the new root, and of it no more than `limit` nodes; false if that
    /// child was never expanded.
    ///
    /// The families of siblings are kept whole or not at all, those of the
    /// most visited parents first: the lines the search followed longest,
    /// however deep, rather than the first few plies in full (kept breadth
    /// first, a best-first search that looks one line deep loses that line).
    /// A node whose children are cut off becomes a leaf again, its
    /// statistics and any proven result kept, to be expanded afresh (a
    /// proven leaf only as the root). The kept nodes move down in
    /// place, in their old order: a child is always built after its
    /// parent, so each moves to an index no greater than its own and
    /// families stay side by side.
    ///
    /// Also false if `deadline` passes before the cut is done: the tree is
    /// then left half cut, to be dropped.
    fn advance(&mut self, mv: G::Move, limit: usize, deadline: Option<Instant>) -> bool {
        // The clock is read every this many families kept or nodes moved.
        const CLOCK_INTERVAL: u32 = 1 << 12;
        let mut steps = 0u32;
        let mut out_of_time = || {
            steps = steps.wrapping_add(1);
            steps.is_multiple_of(CLOCK_INTERVAL)
                && deadline.is_some_and(|deadline| Instant::now() >= deadline)
        };
        let Some(child) = self
            .children(0)
            .find(|&c| self.nodes[c as usize].mv == Some(mv))
        else {
            return false;
        };
        // Marks a kept node until the kept nodes are numbered; never an index.
        const KEPT: u32 = NONE - 1;
        let mut renumbered = vec![NONE; self.nodes.len()];
        renumbered[child as usize] = KEPT;
        let mut kept = 1;
        let mut cut_families = Vec::new();
        // Kept parents by visits, the older first among equals.
        let family_entry = |index: u32| (self.nodes[index as usize].visits, Reverse(index));
        let mut parents = BinaryHeap::new();
        if self.nodes[child as usize].first_child != NONE {
            parents.push(family_entry(child));
        }
        while let Some((_, Reverse(parent))) = parents.pop() {
            if out_of_time() {
                return false;
            }
            let family = self.children(parent).count();
            if kept + family > limit {
                cut_families.push(parent);
                continue;
            }
            kept += family;
            for sibling in self.children(parent) {
                renumbered[sibling as usize] = KEPT;
                if self.nodes[sibling as usize].first_child != NONE {
                    parents.push(family_entry(sibling));
                }
            }
        }
        let mut count = 0;
        for index in &mut renumbered[child as usize..] {
            if *index == KEPT {
                *index = count;
                count += 1;
            }
        }
        for &old in &cut_families {
            let node = &mut self.nodes[old as usize];
            node.first_child = NONE;
            node.claimed = 0;
        }
        let remap = |index: u32| {
            if index == NONE {
                NONE
            } else {
                renumbered[index as usize]
            }
        };
        for (old, &new) in renumbered.iter().enumerate().skip(child as usize) {
            if new == NONE {
                continue;
            }
            if out_of_time() {
                return false;
            }
            let mut node = self.nodes[old].clone();
            node.parent = remap(node.parent);
            node.first_child = remap(node.first_child);
            node.next_sibling = remap(node.next_sibling);
            self.nodes[new as usize] = node;
        }
        self.nodes.truncate(count as usize);
        let root = &mut self.nodes[0];
        root.parent = NONE;
        root.next_sibling = NONE;
        root.mv = None;
        if root.first_child == NONE && root.mover != NO_PLAYER {
            // A proven node cut off from its children keeps its result as
            // a leaf, but a root must have children to give a move: it is
            // searched afresh, and proven again if the solver can.
            root.proven = None;
        }
        self.root_state.play(mv);
        true
    }

    /// The root's children with their statistics.
    fn root_stats(&self, minimax_weight: f64) -> Vec<MoveStats<G::Move>> {
        let mover = usize::from(self.nodes[0].mover);
        self.children(0)
            .map(|child| {
                let node = &self.nodes[child as usize];
                let minimax = node.minimax[mover];
                let mean = if node.visits == 0 {
                    0.0
                } else {
                    node.totals[mover] / f64::from(node.visits)
                };
                let value = if node.visits == 0 {
                    minimax
                } else {
                    (1.0 - minimax_weight) * mean + minimax_weight * minimax
                };
                MoveStats {
                    mv: node.mv.expect("children have moves"),
                    visits: u64::from(node.visits),
                    mean,
                    value,
                    proven: node.proven,
                    checked: None,
                }
            })
            .collect()
    }
}

impl<G: Game> Tree<G> {
    /// A tree of the root alone, built in `nodes` (emptied first), whose
    /// memory may come from an earlier tree.
    fn new(
        root_state: &G,
        evaluator: &impl Evaluator<G>,
        config: &MctsConfig,
        rng: &mut GameRng,
        mut nodes: Vec<Node<G::Move>>,
    ) -> Self {
        let description = Description::of(root_state, evaluator, config, rng, &mut MoveList::new());
        let unsupported = description.unsupported;
        nodes.clear();
        nodes.push(Node::new(None, NONE, description));
        Tree {
            unsupported,
            nodes,
            root_state: root_state.clone(),
            siblings_together: config.expansion == Expansion::All,
        }
    }

    /// The work of an iteration that needs no access to the tree: replaying
    /// the path, building the new child (tactical moves first, then the
    /// others, each group in a scrambled order), and the simulation.
    fn simulate_selection(
        root_state: &G,
        path: &[G::Move],
        selection: &Selection,
        evaluator: &impl Evaluator<G>,
        config: &MctsConfig,
        rng: &mut GameRng,
        moves: &mut MoveList<G::Move>,
    ) -> Simulation<G::Move> {
        let mut state = root_state.clone();
        for &mv in path {
            state.play(mv);
        }
        match *selection {
            Selection::Known(_, result) => Simulation {
                children: NewChildren::None,
                result: Ok(result),
            },
            Selection::Simulate(_) => Simulation {
                children: NewChildren::None,
                result: simulate(state, evaluator, config, rng, moves),
            },
            Selection::ExpandAll(_) => Self::expand_all(&state, evaluator, moves),
            Selection::Expand { tactical, slot, .. } => {
                state.legal_moves(moves);
                let mv = moves
                    .iter()
                    .copied()
                    .filter(|&mv| evaluator.is_tactical(&state, mv) == tactical)
                    .nth(slot)
                    .expect("the group has this many moves");
                state.play(mv);
                let description = Description::of(&state, evaluator, config, rng, moves);
                let result = match (description.unsupported, description.proven) {
                    (Some(status), _) => Err(status),
                    (None, Some(result)) => Ok(result),
                    // A simulation of no plies is the evaluation, already made.
                    (None, None) if config.playout_plies == Some(0) && config.wants_estimates() => {
                        Ok(description.estimate)
                    }
                    (None, None) => simulate(state, evaluator, config, rng, moves),
                };
                Simulation {
                    children: NewChildren::One(mv, description),
                    result,
                }
            }
        }
    }

    /// Builds every child of `state`, best evaluated first for the player to
    /// move (ties in move order), with the best evaluation as the result.
    fn expand_all(
        state: &G,
        evaluator: &impl Evaluator<G>,
        moves: &mut MoveList<G::Move>,
    ) -> Simulation<G::Move> {
        let Status::ToMove(mover) = state.status() else {
            unreachable!("only a node with a player to move is expanded")
        };
        state.legal_moves(moves);
        let mut children: Vec<(G::Move, Description)> = moves
            .iter()
            .map(|&mv| {
                let mut child = state.clone();
                child.play(mv);
                (mv, Description::unexpanded(&child, evaluator))
            })
            .collect();
        if let Some(status) = children.iter().find_map(|(_, child)| child.unsupported) {
            return Simulation {
                children: NewChildren::None,
                result: Err(status),
            };
        }
        children.sort_by(|(_, a), (_, b)| b.estimate[mover].total_cmp(&a.estimate[mover]));
        let result = match children.first() {
            Some((_, best)) => best.estimate,
            None => evaluation(state, evaluator),
        };
        Simulation {
            children: NewChildren::All(children),
            result: Ok(result),
        }
    }

    /// One full iteration: selection, simulation, back-up.
    fn iterate(
        &mut self,
        evaluator: &impl Evaluator<G>,
        config: &MctsConfig,
        rng: &mut GameRng,
        moves: &mut MoveList<G::Move>,
        path: &mut Vec<G::Move>,
    ) {
        let selection = self.select(config, path);
        let simulation = Self::simulate_selection(
            &self.root_state,
            path,
            &selection,
            evaluator,
            config,
            rng,
            moves,
        );
        self.finish_iteration(selection, simulation, config);
    }
}

/// The evaluation of `state` for every player, normalised. In a game of
/// two competing sides the payoffs sum to zero, so the second side's
/// estimate is the negation of the first's: one call instead of two.
fn evaluation<G: Game>(state: &G, evaluator: &impl Evaluator<G>) -> [f64; MAX_PLAYERS] {
    let players = state.num_players();
    let mut estimates = [0.0; MAX_PLAYERS];
    if players == 2 && G::SCORING != Scoring::Team {
        estimates[0] = evaluator.evaluate(state, 0);
        estimates[1] = -estimates[0];
    } else {
        for (player, estimate) in estimates.iter_mut().enumerate().take(players) {
            *estimate = evaluator.evaluate(state, player);
        }
    }
    normalised_payoffs(state, &estimates[..players])
}

/// Plays moves from `state` for at most [`MctsConfig::playout_plies`]
/// plies, chosen as [`MctsConfig::playout_greedy`] says, and returns the
/// final payoffs, or the evaluation if the game goes on; or the status of a
/// state it cannot play through.
fn simulate<G: Game>(
    mut state: G,
    evaluator: &impl Evaluator<G>,
    config: &MctsConfig,
    rng: &mut GameRng,
    moves: &mut MoveList<G::Move>,
) -> Result<[f64; MAX_PLAYERS], Status> {
    let mut played = 0;
    loop {
        match state.status() {
            Status::Over(outcome) => {
                return Ok(normalised_payoffs(&state, outcome.payoffs.as_slice()));
            }
            Status::ToMove(mover) if config.playout_plies.is_none_or(|limit| played < limit) => {
                state.legal_moves(moves);
                let mv = match config.playout_greedy {
                    Some(epsilon) if !rng.random_bool(epsilon) => {
                        greedy_move(&state, mover, moves, evaluator)
                    }
                    _ => moves[rng.random_range(0..moves.len())],
                };
                state.play(mv);
                played += 1;
            }
            Status::ToMove(_) => return Ok(evaluation(&state, evaluator)),
            other @ (Status::Chance | Status::Simultaneous) => return Err(other),
        }
    }
}

/// The move of `moves` after which `evaluator` rates the position best for
/// `mover`, the first of equals.
fn greedy_move<G: Game>(
    state: &G,
    mover: Player,
    moves: &MoveList<G::Move>,
    evaluator: &impl Evaluator<G>,
) -> G::Move {
    let mut best = moves[0];
    let mut best_value = f64::NEG_INFINITY;
    for &mv in moves.iter() {
        let mut child = state.clone();
        child.play(mv);
        let value = evaluator.evaluate(&child, mover);
        if value > best_value {
            best_value = value;
            best = mv;
        }
    }
    best
}

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
        })
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Forgets the trees (their memory is kept for the next search's).
    pub fn clear(&mut self) {
        self.spare_nodes
            .extend(self.trees.drain(..).map(|tree| tree.nodes));
        self.played.clear();
        self.position_after_played = None;
    }

    /// Moves the trees' roots along `mv`, played from `before`, keeping what
    /// was learned below it (if tree reuse is on and the trees are rooted at
    /// `before`); otherwise the trees are dropped. Each tree keeps at most
    /// half its node budget, its most visited lines, so that the next search
    /// has room to grow: a tree kept whole would fill its budget within a
    /// few moves and stop growing.
    ///
    /// The move is only noted here: the trees are cut at the start of the
    /// next search, inside its time limit, since cutting a large tree takes
    /// milliseconds that a player on the clock cannot spare between
    /// moves ([`Mcts::cut_trees`] cuts them at once).
    pub fn advance(&mut self, before: &G, mv: G::Move) {
        let root = match &self.position_after_played {
            Some(position) => Some(position),
            None => self.trees.first().map(|tree| &tree.root_state),
        };
        let rooted_here = root.is_some_and(|root| same_position(root, before));
        if !self.config.reuse_tree || !rooted_here {
            self.clear();
            return;
        }
        let mut after = before.clone();
        after.play(mv);
        self.played.push(mv);
        self.position_after_played = Some(after);
    }

    /// Cuts the trees down to the subtrees of the moves played since the
    /// last search ([`Mcts::advance`]), which the next search would do
    /// first.
    pub fn cut_trees(&mut self) {
        self.cut_trees_until(None);
    }

    /// Cuts the trees as [`Mcts::cut_trees`] does, but drops them instead
    /// if the cut is not done by `deadline`: a search then grows fresh
    /// trees in the time left.
    fn cut_trees_until(&mut self, deadline: Option<Instant>) {
        let played = std::mem::take(&mut self.played);
        self.position_after_played = None;
        let limit = self.config.node_budget / 2;
        for mv in played {
            let mut all_kept = true;
            for tree in &mut self.trees {
                all_kept = all_kept && tree.advance(mv, limit, deadline);
            }
            if !all_kept {
                self.clear();
                return;
            }
        }
    }

    /// The total number of nodes in the trees.
    pub fn node_count(&self) -> usize {
        self.trees.iter().map(|tree| tree.nodes.len()).sum()
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
        let (config, evaluator) = (&self.config, &self.evaluator);
        let ran = match (config.parallelism, &self.pool) {
            (Parallelism::Tree, Some(pool)) => {
                let tree = Mutex::new(self.trees.pop().expect("one tree"));
                let ran = run_shared_tree(
                    &tree,
                    evaluator,
                    config,
                    iterations,
                    tree_deadline,
                    search_seed,
                    pool,
                );
                self.trees
                    .push(tree.into_inner().expect("no thread panicked"));
                ran
            }
            (_, pool) => {
                let share = |index: usize| {
                    iterations.map(|total| {
                        let count = tree_count as u64;
                        total / count + u64::from((index as u64) < total % count)
                    })
                };
                let grow = |(index, tree): (usize, &mut Tree<G>)| {
                    let mut rng = rng_from_seed(derive_seed(search_seed, index as u64));
                    run_tree(
                        tree,
                        evaluator,
                        config,
                        share(index),
                        tree_deadline,
                        &mut rng,
                    )
                };
                match pool {
                    Some(pool) => {
                        pool.install(|| self.trees.par_iter_mut().enumerate().map(grow).sum())
                    }
                    None => self.trees.iter_mut().enumerate().map(grow).sum(),
                }
            }
        };
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

    /// With [`MctsConfig::check_depth`], checks the root moves in the order
    /// of their estimates by an alpha-beta search from each, until no
    /// unchecked move's estimate can beat the best checked value (or
    /// [`MAX_CHECKED_MOVES`] are checked, or the time is up), and plays the
    /// best checked move. A proven move's value is exact and needs no check.
    fn check_candidates(
        &mut self,
        state: &G,
        result: &mut MctsResult<G::Move>,
        deadline: Option<Instant>,
    ) -> Result<(), SearchError> {
        let (Some(checker), Status::ToMove(mover)) = (self.checker.as_mut(), state.status()) else {
            return Ok(());
        };
        if state.num_players() != 2 || G::SCORING == Scoring::Team {
            return Ok(());
        }
        let final_choice = self.config.final_choice;
        let estimate = |stats: &MoveStats<G::Move>| match (stats.proven, final_choice) {
            (Some(proven), _) => proven[mover],
            (None, FinalChoice::MostVisited) => stats.mean,
            (None, FinalChoice::BestValue) => stats.value,
        };
        if result
            .moves
            .iter()
            .any(|stats| stats.proven.is_some_and(|proven| proven[mover] >= 1.0))
        {
            return Ok(());
        }
        let mut order: Vec<usize> = (0..result.moves.len()).collect();
        order.sort_by(|&a, &b| estimate(&result.moves[b]).total_cmp(&estimate(&result.moves[a])));
        let mut best: Option<(usize, f64)> = None;
        for &index in order.iter().take(MAX_CHECKED_MOVES) {
            let stats = &result.moves[index];
            let estimate = estimate(stats);
            if best.is_some_and(|(_, value)| value >= estimate) {
                break;
            }
            let checked = if stats.proven.is_some() {
                estimate
            } else {
                let mut child = state.clone();
                child.play(stats.mv);
                let score = match child.status() {
                    Status::Over(outcome) => {
                        normalised_payoffs(&child, outcome.payoffs.as_slice())[mover]
                    }
                    Status::ToMove(next) => {
                        let remaining = deadline
                            .map(|deadline| deadline.saturating_duration_since(Instant::now()));
                        if remaining.is_some_and(|time| time.is_zero()) {
                            break;
                        }
                        checker.set_time(remaining);
                        let searched = checker.search_with(&child, &self.evaluator)?;
                        if searched.depth < self.config.check_depth {
                            break;
                        }
                        let value = if next == mover {
                            searched.value()
                        } else {
                            -searched.value()
                        };
                        // From the scores' scale, [-1, 1], to the normalised
                        // payoffs' [0, 1].
                        (value + 1.0) / 2.0
                    }
                    other @ (Status::Chance | Status::Simultaneous) => {
                        return Err(SearchError::unsupported("MCTS", other));
                    }
                };
                score.min(estimate)
            };
            result.moves[index].checked = Some(checked);
            if best.is_none_or(|(_, value)| checked > value) {
                best = Some((index, checked));
            }
        }
        if let Some((index, _)) = best {
            result.best_move = Some(result.moves[index].mv);
        }
        Ok(())
    }
}

impl<M: Copy + PartialEq> MctsResult<M> {
    /// Sums the root statistics of the trees and picks the move: a proven win
    /// for the player to move if there is one, the best proven move (the
    /// most visited of equals) if every move is proven, else the move of the
    /// [`FinalChoice`] (the most visited or the best valued), unless a
    /// proven result beats that move's estimate.
    fn finish<G: Game<Move = M>>(
        mut self,
        trees: &[Tree<G>],
        config: &MctsConfig,
        started: Instant,
    ) -> Self {
        let mut merged: Vec<MoveStats<M>> = Vec::new();
        for tree in trees {
            for stats in tree.root_stats(config.minimax_weight) {
                match merged.iter_mut().find(|seen| seen.mv == stats.mv) {
                    Some(seen) => {
                        let visits = seen.visits + stats.visits;
                        if visits > 0 {
                            seen.mean = (seen.mean * seen.visits as f64
                                + stats.mean * stats.visits as f64)
                                / visits as f64;
                        }
                        // Weighted by visits plus one, so that a move no
                        // tree visited still averages its evaluations.
                        seen.value = (seen.value * (seen.visits + 1) as f64
                            + stats.value * (stats.visits + 1) as f64)
                            / (visits + 2) as f64;
                        seen.visits = visits;
                        seen.proven = seen.proven.or(stats.proven);
                    }
                    None => merged.push(stats),
                }
            }
        }
        merged.sort_by_key(|stats| std::cmp::Reverse(stats.visits));
        let mover = trees
            .first()
            .map(|tree| tree.nodes[0].mover)
            .filter(|&mover| mover != NO_PLAYER)
            .map(usize::from);
        if let Some(mover) = mover {
            let estimate = |stats: &MoveStats<M>| match config.final_choice {
                FinalChoice::MostVisited => stats.mean,
                FinalChoice::BestValue => stats.value,
            };
            let value = |stats: &MoveStats<M>| {
                stats
                    .proven
                    .map_or_else(|| estimate(stats), |proven| proven[mover])
            };
            let proven_win = merged
                .iter()
                .find(|stats| stats.proven.is_some_and(|p| p[mover] >= 1.0));
            let favourite = match config.final_choice {
                FinalChoice::MostVisited => merged
                    .iter()
                    .find(|stats| stats.proven.is_none_or(|p| p[mover] >= stats.mean))
                    .or(merged.first()),
                // `merged` is sorted by visits, so the first of equal
                // values is the most visited.
                FinalChoice::BestValue => merged.iter().reduce(|best, stats| {
                    if value(stats) > value(best) {
                        stats
                    } else {
                        best
                    }
                }),
            };
            // Among equal proven results the most visited: in a lost
            // position, the move the search found hardest to refute.
            let best_proven = merged
                .iter()
                .filter(|stats| stats.proven.is_some())
                .max_by(|a, b| value(a).total_cmp(&value(b)).then(a.visits.cmp(&b.visits)));
            let all_proven = merged.iter().all(|stats| stats.proven.is_some());
            let choice = match (proven_win, favourite, best_proven) {
                (Some(win), _, _) => Some(win),
                (None, _, Some(proven)) if all_proven => Some(proven),
                (None, Some(favourite), Some(proven)) if value(proven) > value(favourite) => {
                    Some(proven)
                }
                (None, favourite, proven) => favourite.or(proven),
            };
            self.best_move = choice.map(|stats| stats.mv);
        }
        self.moves = merged;
        self.elapsed = started.elapsed();
        self
    }
}

/// Whether two states are the same position at the same point of the game.
fn same_position<G: Game>(a: &G, b: &G) -> bool {
    a.hash() == b.hash() && a.ply() == b.ply()
}

/// Grows one tree alone; returns the iterations run. The first iteration
/// runs even when the deadline has passed (the machine may have paused the
/// search before it began), so that a root move is expanded to choose.
fn run_tree<G: Game>(
    tree: &mut Tree<G>,
    evaluator: &impl Evaluator<G>,
    config: &MctsConfig,
    iterations: Option<u64>,
    deadline: Option<Instant>,
    rng: &mut GameRng,
) -> u64 {
    let mut moves = MoveList::new();
    let mut path = Vec::new();
    let mut ran = 0;
    while iterations.is_none_or(|limit| ran < limit)
        && (ran == 0 || deadline.is_none_or(|deadline| Instant::now() < deadline))
        && !(config.solver && tree.is_solved())
        && tree.unsupported.is_none()
    {
        tree.iterate(evaluator, config, rng, &mut moves, &mut path);
        ran += 1;
    }
    ran
}

/// Grows one tree with every thread of `pool`: selection and back-up hold the
/// lock; replaying the path, building the new child and the simulation run
/// outside it. As in [`run_tree`], one iteration runs past the deadline.
fn run_shared_tree<G: Game>(
    tree: &Mutex<Tree<G>>,
    evaluator: &impl Evaluator<G>,
    config: &MctsConfig,
    iterations: Option<u64>,
    deadline: Option<Instant>,
    seed: u64,
    pool: &rayon::ThreadPool,
) -> u64 {
    let claimed = AtomicU64::new(0);
    let ran = AtomicU64::new(0);
    let root_state = tree.lock().expect("no thread panicked").root_state.clone();
    pool.scope(|scope| {
        for worker in 0..config.threads {
            let (claimed, ran, root_state) = (&claimed, &ran, &root_state);
            scope.spawn(move |_| {
                let mut rng = rng_from_seed(derive_seed(seed, worker as u64));
                let mut moves = MoveList::new();
                let mut path = Vec::new();
                loop {
                    if ran.load(Ordering::Relaxed) > 0
                        && deadline.is_some_and(|deadline| Instant::now() >= deadline)
                    {
                        break;
                    }
                    if iterations
                        .is_some_and(|limit| claimed.fetch_add(1, Ordering::Relaxed) >= limit)
                    {
                        break;
                    }
                    let selection = {
                        let mut tree = tree.lock().expect("no thread panicked");
                        if (config.solver && tree.is_solved()) || tree.unsupported.is_some() {
                            break;
                        }
                        tree.select(config, &mut path)
                    };
                    let simulation = Tree::simulate_selection(
                        root_state, &path, &selection, evaluator, config, &mut rng, &mut moves,
                    );
                    tree.lock()
                        .expect("no thread panicked")
                        .finish_iteration(selection, simulation, config);
                    ran.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    ran.into_inner()
}
