//! Simultaneous-move Monte Carlo tree search for two-player zero-sum games.
//!
//! At a simultaneous state each player selects its own choice from its own
//! statistics, without looking at the other's (Lisý, Kovařík, Lanctot,
//! Bošanský, "Convergence of Monte Carlo tree search in simultaneous move
//! games", 2013; Tak, Lanctot, Winands, "Monte Carlo tree search variants
//! for simultaneous move games", 2014); the joint choice leads to the child.
//! Two selection rules:
//!
//! - **Decoupled UCT** ([`Selection::Duct`]): each player applies UCB1 to
//!   the mean reward of each of its choices over the joint choices tried.
//!   The strategy played is the choices' visit counts, normalised.
//! - **Regret matching** ([`Selection::RegretMatching`]): each player mixes
//!   its choices in proportion to their positive cumulative regrets, with a
//!   share `γ` spread uniformly for exploration, samples one, and updates
//!   the regrets with the importance-sampled reward (the reward divided by
//!   the probability of the choice made, for that choice only). The
//!   strategy played is the average of the mixes.
//!
//! States where one player moves are ordinary UCT nodes. A simulation plays
//! uniformly random moves (joint ones at simultaneous states) to the end of
//! the game, or for [`SmMctsConfig::playout_plies`] plies and then scores
//! the state with [`Evaluate::evaluate`].
//!
//! Root parallelism: [`SmMctsConfig::trees`] independent trees, each with
//! its own seed and its share of the iterations, run on up to
//! [`SmMctsConfig::threads`] threads; their root statistics are summed. The
//! result depends on the seed and the number of trees, never on the number
//! of threads.

use super::mcts::MAX_MCTS_ITERATIONS;
use super::options::{exploration_option, iterations_option, node_budget_option, playout_option};
use super::parallel::{grow_in_parallel, iteration_share};
use super::selection::{Candidate, SelectionPolicy, Uct};
use super::{SearchError, StopFlag};
use crate::core::{
    Declared, Evaluate, Game, GameRng, MoveList, Simultaneous, Status, derive_seed, rng_from_seed,
    thread_pool,
};
use rand::RngExt;

/// How the players select their choices at a simultaneous state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Decoupled UCT: UCB1 per player.
    Duct,
    /// Regret matching with uniform exploration.
    RegretMatching,
}

impl Selection {
    /// The word for the selection rule in the `select` option.
    pub const fn name(self) -> &'static str {
        match self {
            Selection::Duct => "duct",
            Selection::RegretMatching => "rm",
        }
    }
}

/// The settings of a simultaneous-move MCTS.
#[derive(Clone, Debug, PartialEq)]
pub struct SmMctsConfig {
    /// Simulations per search, over all trees together.
    pub iterations: u64,
    /// How the players select at simultaneous states.
    pub selection: Selection,
    /// The UCB1 exploration constant (rewards in `[0, 1]`), for decoupled
    /// UCT and for the nodes where one player moves.
    pub exploration: f64,
    /// The share of uniform exploration mixed into regret matching.
    pub gamma: f64,
    /// Independent trees whose root statistics are summed.
    pub trees: usize,
    /// Threads running the trees (at most one per tree is used).
    pub threads: usize,
    /// Random plies after the tree before the evaluation scores the state;
    /// `None` plays on to the end of the game.
    pub playout_plies: Option<u32>,
    /// Most nodes per tree; beyond it simulations start at the leaves.
    pub node_budget: usize,
}

impl Default for SmMctsConfig {
    fn default() -> Self {
        SmMctsConfig {
            iterations: 10_000,
            selection: Selection::Duct,
            exploration: 1.0,
            gamma: 0.1,
            trees: 1,
            threads: 1,
            playout_plies: None,
            node_budget: 1_000_000,
        }
    }
}

impl SmMctsConfig {
    /// The most memory the trees may take: a generous bound per node (its
    /// statistics and child links for a few dozen choices) times the node
    /// budget of every tree.
    pub fn memory_bytes(&self) -> u64 {
        const BYTES_PER_NODE: u64 = 1024;
        (self.node_budget as u64)
            .saturating_mul(BYTES_PER_NODE)
            .saturating_mul(self.trees as u64)
    }
}

/// The most root-parallel trees.
const MAX_TREES: u64 = 1024;

const SELECTIONS: [Selection; 2] = [Selection::Duct, Selection::RegretMatching];

/// Every option of [`SmMctsConfig`], in the order its text is written.
const OPTIONS: &[Declared<SmMctsConfig>] = &[
    iterations_option!(
        MAX_MCTS_ITERATIONS,
        "simulations per move, all trees together"
    ),
    crate::choice_option!(
        "select",
        selection,
        SELECTIONS,
        &[Selection::Duct.name(), Selection::RegretMatching.name()],
        "how the players select at a simultaneous state: decoupled UCT or regret matching"
    ),
    exploration_option!(
        "the exploration constant of UCB1 (decoupled UCT, and where one player moves)"
    ),
    crate::number_option!(
        "gamma",
        gamma,
        0.0,
        1.0,
        "the share of uniform exploration mixed into regret matching (above 0)"
    ),
    crate::whole_option!(
        "trees",
        trees,
        1,
        MAX_TREES,
        "independent trees whose root statistics are summed"
    ),
    crate::threads_option!(
        "threads",
        threads,
        "threads running the trees (at most one per tree is used)"
    ),
    playout_option!(
        "random plies after the tree before the evaluation scores the state; `none` plays to the end"
    ),
    node_budget_option!("most nodes per tree; beyond it simulations start at the leaves"),
];

crate::core::declared_configuration!(SmMctsConfig, "smmcts options", OPTIONS, {
    fn check_together(&self) -> Result<(), String> {
        if self.gamma > 0.0 {
            Ok(())
        } else {
            Err(format!(
                "`gamma` must be above 0 and at most 1, not `{}`",
                self.gamma
            ))
        }
    }
});

/// The result of a search: each player's strategy at the root (at a state
/// where one player moves, that player's visit shares) and the mean
/// reward of player 0.
#[derive(Clone, Debug, PartialEq)]
pub struct SmMctsResult<M> {
    /// Each player's choices with their probabilities, summed over the
    /// trees; empty for a player who does not choose at the root.
    pub strategies: [Vec<(M, f64)>; 2],
    /// Player 0's mean payoff over the simulations, normalised to `[0, 1]`.
    pub mean: f64,
    /// Simulations run in this search, over all trees.
    pub iterations: u64,
    /// Nodes the trees held at the end of the search, over all trees.
    pub nodes: usize,
}

const NONE: u32 = u32::MAX;

/// One player's statistics at a node.
#[derive(Clone, Debug, Default)]
struct ChoiceStats {
    visits: Vec<u64>,
    /// The player's summed rewards per choice.
    rewards: Vec<f64>,
    /// Regret matching: cumulative regrets and summed mixes.
    regrets: Vec<f64>,
    mix_sums: Vec<f64>,
}

impl ChoiceStats {
    fn new(count: usize) -> ChoiceStats {
        ChoiceStats {
            visits: vec![0; count],
            rewards: vec![0.0; count],
            regrets: vec![0.0; count],
            mix_sums: vec![0.0; count],
        }
    }

    /// UCB1 (untried choices first, in order).
    fn ucb(&self, exploration: f64) -> usize {
        if let Some(untried) = self.visits.iter().position(|&visits| visits == 0) {
            return untried;
        }
        let total: u64 = self.visits.iter().sum();
        let uct = Uct { exploration };
        let log_total = uct.parent(total as f64);
        let score = |choice: usize| {
            let visits = self.visits[choice] as f64;
            uct.score(
                &Candidate::plain(self.rewards[choice] / visits, visits),
                log_total,
            )
        };
        (0..self.visits.len())
            .max_by(|&a, &b| score(a).total_cmp(&score(b)))
            .expect("a node has choices")
    }

    /// The regret-matching mix with `gamma` of uniform exploration.
    fn mix(&self, gamma: f64) -> Vec<f64> {
        let count = self.regrets.len() as f64;
        let positive: f64 = self.regrets.iter().map(|regret| regret.max(0.0)).sum();
        self.regrets
            .iter()
            .map(|regret| {
                let matched = if positive > 0.0 {
                    regret.max(0.0) / positive
                } else {
                    1.0 / count
                };
                (1.0 - gamma) * matched + gamma / count
            })
            .collect()
    }

    /// The strategy the statistics recommend.
    fn strategy(&self, selection: Selection) -> Vec<f64> {
        let weights: Vec<f64> = match selection {
            Selection::Duct => self.visits.iter().map(|&visits| visits as f64).collect(),
            Selection::RegretMatching => self.mix_sums.clone(),
        };
        normalise(weights)
    }
}

fn normalise(weights: Vec<f64>) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    let count = weights.len() as f64;
    weights
        .into_iter()
        .map(|weight| {
            if total > 0.0 {
                weight / total
            } else {
                1.0 / count
            }
        })
        .collect()
}

enum Node<M> {
    /// A finished game: player 0's normalised payoff.
    Over(f64),
    /// One player moves.
    Turn {
        player: usize,
        moves: Vec<M>,
        stats: ChoiceStats,
        children: Vec<u32>,
    },
    /// Both players choose; child `row * cols + col`.
    Joint {
        choices: [Vec<M>; 2],
        stats: [ChoiceStats; 2],
        children: Vec<u32>,
    },
}

struct Tree<'a, G: Game> {
    config: &'a SmMctsConfig,
    nodes: Vec<Node<G::Move>>,
    rng: GameRng,
    moves: MoveList<G::Move>,
}

impl<'a, G: Simultaneous + Evaluate> Tree<'a, G> {
    fn new(config: &'a SmMctsConfig, seed: u64) -> Self {
        Tree {
            config,
            nodes: Vec::new(),
            rng: rng_from_seed(seed),
            moves: MoveList::new(),
        }
    }

    /// Player 0's payoff at a finished state, normalised to `[0, 1]`.
    fn reward(state: &G, payoff: f64) -> f64 {
        let (low, high) = state.payoff_range();
        ((payoff - low) / (high - low)).clamp(0.0, 1.0)
    }

    fn make_node(&mut self, state: &G) -> Result<u32, SearchError> {
        let node = match state.status() {
            Status::Over(outcome) => Node::Over(Self::reward(state, outcome.payoffs.get(0))),
            Status::ToMove(player) => {
                state.legal_moves(&mut self.moves);
                let moves = self.moves.to_vec();
                Node::Turn {
                    player,
                    stats: ChoiceStats::new(moves.len()),
                    children: vec![NONE; moves.len()],
                    moves,
                }
            }
            Status::Simultaneous => {
                let choices = [0, 1].map(|player| {
                    state.player_moves(player, &mut self.moves);
                    self.moves.to_vec()
                });
                Node::Joint {
                    stats: [
                        ChoiceStats::new(choices[0].len()),
                        ChoiceStats::new(choices[1].len()),
                    ],
                    children: vec![NONE; choices[0].len() * choices[1].len()],
                    choices,
                }
            }
            status @ Status::Chance => return Err(SearchError::unsupported("SM-MCTS", status)),
        };
        self.nodes.push(node);
        Ok((self.nodes.len() - 1) as u32)
    }

    /// Plays random moves from `state` and returns player 0's normalised
    /// payoff (or evaluation at the cut).
    fn simulate(&mut self, mut state: G) -> Result<f64, SearchError> {
        let mut plies = 0;
        loop {
            match state.status() {
                Status::Over(outcome) => return Ok(Self::reward(&state, outcome.payoffs.get(0))),
                _ if self
                    .config
                    .playout_plies
                    .is_some_and(|limit| plies >= limit) =>
                {
                    let value = state.evaluate(0);
                    return Ok(Self::reward(&state, value));
                }
                Status::ToMove(_) => {
                    state.legal_moves(&mut self.moves);
                    let mv = self.moves[self.rng.random_range(0..self.moves.len())];
                    state.play(mv);
                }
                Status::Simultaneous => {
                    let mut joint = [None, None];
                    for (player, slot) in joint.iter_mut().enumerate() {
                        state.player_moves(player, &mut self.moves);
                        *slot = Some(self.moves[self.rng.random_range(0..self.moves.len())]);
                    }
                    state.play_joint(&joint.map(|mv| mv.expect("both players chose")));
                }
                status @ Status::Chance => {
                    return Err(SearchError::unsupported("SM-MCTS", status));
                }
            }
            plies += 1;
        }
    }

    /// One iteration from node `index` at `state`: select, expand one
    /// node, simulate, and back up player 0's reward.
    fn iterate(&mut self, index: u32, state: &mut G) -> Result<f64, SearchError> {
        let (gamma, exploration, selection) = (
            self.config.gamma,
            self.config.exploration,
            self.config.selection,
        );
        // Select.
        let (slot, picks) = match &mut self.nodes[index as usize] {
            Node::Over(reward) => return Ok(*reward),
            Node::Turn { moves, stats, .. } => {
                let pick = stats.ucb(exploration);
                state.play(moves[pick]);
                (pick, [(pick, 1.0), (0, 1.0)])
            }
            Node::Joint { choices, stats, .. } => {
                let mut picks = [(0, 1.0); 2];
                for (player, pick) in picks.iter_mut().enumerate() {
                    *pick = match selection {
                        Selection::Duct => (stats[player].ucb(exploration), 1.0),
                        Selection::RegretMatching => {
                            let mix = stats[player].mix(gamma);
                            let choice = draw_index(mix.iter().copied(), &mut self.rng)
                                .unwrap_or(mix.len() - 1);
                            for (sum, share) in stats[player].mix_sums.iter_mut().zip(&mix) {
                                *sum += share;
                            }
                            (choice, mix[choice])
                        }
                    };
                }
                state.play_joint(&[choices[0][picks[0].0], choices[1][picks[1].0]]);
                (picks[0].0 * choices[1].len() + picks[1].0, picks)
            }
        };
        // Expand or descend.
        let child = match &self.nodes[index as usize] {
            Node::Turn { children, .. } | Node::Joint { children, .. } => children[slot],
            Node::Over(_) => unreachable!("a finished game returned above"),
        };
        let reward = if child != NONE {
            self.iterate(child, state)?
        } else if self.nodes.len() < self.config.node_budget {
            let created = self.make_node(state)?;
            match &mut self.nodes[index as usize] {
                Node::Turn { children, .. } | Node::Joint { children, .. } => {
                    children[slot] = created;
                }
                Node::Over(_) => unreachable!("a finished game returned above"),
            }
            self.simulate(state.clone())?
        } else {
            self.simulate(state.clone())?
        };
        // Back up.
        match &mut self.nodes[index as usize] {
            Node::Turn { player, stats, .. } => {
                let own = if *player == 0 { reward } else { 1.0 - reward };
                stats.visits[slot] += 1;
                stats.rewards[slot] += own;
            }
            Node::Joint { stats, .. } => {
                for (player, &(choice, probability)) in picks.iter().enumerate() {
                    let own = if player == 0 { reward } else { 1.0 - reward };
                    let stats = &mut stats[player];
                    stats.visits[choice] += 1;
                    stats.rewards[choice] += own;
                    if selection == Selection::RegretMatching {
                        // The importance-sampled reward of each choice: the
                        // reward over its probability for the choice made,
                        // zero for the others.
                        for (other, regret) in stats.regrets.iter_mut().enumerate() {
                            let estimate = if other == choice {
                                own / probability
                            } else {
                                0.0
                            };
                            *regret += estimate - own;
                        }
                    }
                }
            }
            Node::Over(_) => {}
        }
        Ok(reward)
    }
}

/// What one tree of a search returns: its root and its simulations.
struct GrownTree<M> {
    root: Node<M>,
    iterations: u64,
    /// Player 0's summed rewards.
    reward: f64,
    /// The nodes the tree held.
    nodes: usize,
}

/// A player choosing at a root, its choices and its strategy over them.
type RootStrategy<'a, M> = (usize, &'a [M], Vec<f64>);

impl<M> GrownTree<M> {
    /// The strategy of each player who chooses at the root.
    fn root_strategies(&self, selection: Selection) -> Vec<RootStrategy<'_, M>> {
        match &self.root {
            Node::Turn {
                player,
                moves,
                stats,
                ..
            } => vec![(*player, moves.as_slice(), stats.strategy(Selection::Duct))],
            Node::Joint { choices, stats, .. } => (0..2)
                .map(|player| {
                    (
                        player,
                        choices[player].as_slice(),
                        stats[player].strategy(selection),
                    )
                })
                .collect(),
            Node::Over(_) => Vec::new(),
        }
    }
}

/// An index drawn with the probabilities `shares` (summing to about 1), or
/// `None` when rounding leaves the draw above their sum.
pub(crate) fn draw_index(
    shares: impl IntoIterator<Item = f64>,
    rng: &mut GameRng,
) -> Option<usize> {
    let mut draw: f64 = rng.random_range(0.0..1.0);
    for (index, share) in shares.into_iter().enumerate() {
        if draw < share {
            return Some(index);
        }
        draw -= share;
    }
    None
}

/// Simultaneous-move MCTS: a fresh search from every state it is asked
/// about, seeded from its seed and the number of searches so far.
pub struct SmMcts {
    config: SmMctsConfig,
    seed: u64,
    searches: u64,
    pool: Option<rayon::ThreadPool>,
    /// Once raised, ends each tree's growth after its first iteration.
    stop_flag: StopFlag,
}

impl SmMcts {
    /// A search with `config`, seeded by `seed`.
    ///
    /// # Errors
    /// A configuration [`SmMctsConfig::validate`] refuses, or threads that
    /// cannot be started.
    pub fn new(config: SmMctsConfig, seed: u64) -> Result<SmMcts, String> {
        config.validate()?;
        let threads = config.threads.min(config.trees).max(1);
        let pool = (threads > 1).then(|| thread_pool(threads)).transpose()?;
        Ok(SmMcts {
            config,
            seed,
            searches: 0,
            pool,
            stop_flag: StopFlag::default(),
        })
    }

    /// Ends every later search early once `flag` is raised: each tree
    /// stops after its first iteration and the strategies come from what
    /// the trees found.
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        self.stop_flag = flag;
    }

    /// The configuration the searcher runs with.
    pub fn config(&self) -> &SmMctsConfig {
        &self.config
    }

    /// Searches `state` and returns both players' root strategies.
    ///
    /// # Errors
    /// A game that is not two-player, or a chance event in the tree or a
    /// simulation.
    pub fn search<G: Simultaneous + Evaluate>(
        &mut self,
        state: &G,
    ) -> Result<SmMctsResult<G::Move>, SearchError> {
        if let status @ (Status::Chance | Status::Over(_)) = state.status() {
            return Err(SearchError::unsupported("SM-MCTS", status));
        }
        if state.num_players() != 2 {
            return Err(SearchError {
                searcher: "SM-MCTS",
                state: "a game of other than two players",
            });
        }
        self.searches += 1;
        let search_seed = derive_seed(self.seed, self.searches);
        let trees = self.config.trees.max(1);
        let config = &self.config;
        let stop = &self.stop_flag;
        let grow = |tree_index: usize| -> Result<GrownTree<G::Move>, SearchError> {
            let share = iteration_share(config.iterations, trees, tree_index);
            let mut tree = Tree::<G>::new(config, derive_seed(search_seed, tree_index as u64));
            let root = tree.make_node(state)?;
            let mut reward = 0.0;
            let mut iterations = 0;
            while iterations < share && (iterations == 0 || !stop.raised()) {
                reward += tree.iterate(root, &mut state.clone())?;
                iterations += 1;
            }
            Ok(GrownTree {
                nodes: tree.nodes.len(),
                root: tree.nodes.swap_remove(root as usize),
                iterations,
                reward,
            })
        };
        let grown = grow_in_parallel(self.pool.as_ref(), 0..trees, grow);
        let mut strategies: [Vec<(G::Move, f64)>; 2] = [Vec::new(), Vec::new()];
        let (mut iterations, mut total, mut nodes) = (0, 0.0, 0);
        for tree in grown {
            let tree = tree?;
            iterations += tree.iterations;
            nodes += tree.nodes;
            total += tree.reward;
            for (player, moves, strategy) in tree.root_strategies(config.selection) {
                if strategies[player].is_empty() {
                    strategies[player] = moves.iter().map(|&mv| (mv, 0.0)).collect();
                }
                for (entry, share) in strategies[player].iter_mut().zip(strategy) {
                    entry.1 += share / trees as f64;
                }
            }
        }
        Ok(SmMctsResult {
            strategies,
            mean: if iterations > 0 {
                total / iterations as f64
            } else {
                0.5
            },
            iterations,
            nodes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nibelungen::{Nibelungen, NibelungenRules};

    /// A raised flag ends each tree's growth after its first iteration,
    /// which still gives both players a strategy.
    #[test]
    fn a_raised_stop_flag_ends_every_tree() {
        let config = SmMctsConfig {
            trees: 3,
            ..SmMctsConfig::default()
        };
        let start = Nibelungen::new(NibelungenRules::default());
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut search = SmMcts::new(config, 7).unwrap();
        search.set_stop_flag(StopFlag::new(flag.clone()));
        assert_eq!(search.search(&start).unwrap().iterations, 10_000);
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
        let stopped = search.search(&start).unwrap();
        assert_eq!(stopped.iterations, 3);
        assert!(
            stopped
                .strategies
                .iter()
                .all(|strategy| !strategy.is_empty())
        );
    }

    #[test]
    fn a_configuration_built_by_hand_is_checked_by_the_searcher() {
        let refused = |config: SmMctsConfig| SmMcts::new(config, 0).err().expect("refused");
        let no_gamma = SmMctsConfig {
            gamma: 0.0,
            ..SmMctsConfig::default()
        };
        assert!(refused(no_gamma).contains("`gamma` must be above 0"));
        let no_trees = SmMctsConfig {
            trees: 0,
            ..SmMctsConfig::default()
        };
        assert!(refused(no_trees).contains("`trees` must be from 1 to 1024, not 0"));
        assert!(SmMcts::new(SmMctsConfig::default(), 0).is_ok());
    }

    #[test]
    fn the_printed_configuration_reads_back_to_itself() {
        crate::core::assert_reads_back::<SmMctsConfig>(&[
            "",
            "select=rm,gamma=0.5,playout=3",
            "trees=4,threads=2,nodes=9",
        ]);
    }
}
