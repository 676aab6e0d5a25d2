//! Single-observer information-set Monte Carlo tree search (SO-ISMCTS), after
//! Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search"
//! (IEEE TCIAIG, 2012).
//!
//! The searching player cannot see hidden cards, so the tree is a tree of its
//! information sets: a node is a sequence of moves from the root, whatever the
//! hidden state. Each iteration
//! 1. samples a *determinization*, a full state consistent with the root
//!    observation ([`ImperfectInformation::determinize`]);
//! 2. descends the tree using only the children whose moves are legal in that
//!    determinization, choosing by UCB1 with *availability* counts (how often a
//!    child was legal when its parent was visited) in place of the parent's
//!    visits, and adds one child for a legal move not tried yet;
//! 3. plays the determinization to the end with a [`Playout`] (uniformly
//!    random moves by default) and scores it;
//! 4. backs up every player's score (by default its payoff, normalised to
//!    `[0, 1]`).
//!
//! A node's move was chosen by the player to move before it, and selection
//! maximises that player's mean payoff, so the same code serves cooperative
//! games (every player gets the team's payoff and they all maximise it),
//! zero-sum and multi-player games.
//!
//! Given a single state known in full ([`Ismcts::search_state`]), every
//! move is always available and the search is plain UCT on the
//! perfect-information game, with MCTS-Solver proofs of finished lines
//! (which would be wrong across determinizations): that is how an open-hand
//! reference player searches.
//!
//! With [progressive widening](Widening) a node opens its moves a few at a
//! time, in the order of a [`MoveOrder`] (at random without one): a search
//! of a few hundred iterations over a hundred legal moves otherwise spends
//! them trying each move once or twice, and its most visited move is close
//! to a random one.
//!
//! Chance events met during a descent or a playout are sampled with
//! [`Stochastic::resolve_chance`]; the tree does not branch on them. A search
//! that meets a simultaneous choice stops with a [`SearchError`].

use super::options::{exploration_option, iterations_option, widening_option};
use super::selection::{Candidate, SelectionPolicy, Uct};
use super::widening::{self, Widening};
use super::{SearchError, StopFlag};
use crate::core::{
    Declared, FastHashMap, Game, GameRng, ImperfectInformation, MAX_PLAYERS, MoveList, Playout,
    Status, normalised_payoffs, resolve_chance, rng_from_seed,
};
use rand::RngExt;

/// Uniformly random moves to the end, scored by the game's payoffs
/// normalised to `[0, 1]`: the classic playout. Chance events are sampled
/// ([`Stochastic::resolve_chance`](crate::core::Stochastic::resolve_chance)).
pub struct RandomPlayout<G: Game> {
    moves: MoveList<G::Move>,
}

impl<G: Game> Default for RandomPlayout<G> {
    fn default() -> Self {
        RandomPlayout {
            moves: MoveList::new(),
        }
    }
}

impl<G: Game> Playout<G> for RandomPlayout<G> {
    fn simulate(&mut self, mut state: G, rng: &mut GameRng) -> Result<[f64; MAX_PLAYERS], Status> {
        loop {
            match state.status() {
                Status::Over(outcome) => {
                    return Ok(normalised_payoffs(&state, outcome.payoffs.as_slice()));
                }
                Status::Chance => resolve_pending(&mut state, rng)?,
                Status::Simultaneous => return Err(Status::Simultaneous),
                Status::ToMove(_) => {
                    state.legal_moves(&mut self.moves);
                    let mv = self.moves[rng.random_range(0..self.moves.len())];
                    state.play(mv);
                }
            }
        }
    }
}

/// Samples the pending chance event of `state`, or gives back
/// [`Status::Chance`] if the game cannot (it lacks [`Stochastic`]).
fn resolve_pending<G: Game>(state: &mut G, rng: &mut GameRng) -> Result<(), Status> {
    if resolve_chance(state, rng) {
        Ok(())
    } else {
        Err(Status::Chance)
    }
}

/// The settings of an information-set search.
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations (determinizations) per search.
    pub iterations: u64,
    /// The UCB1 exploration constant `c` in `mean + c * sqrt(ln a / n)`, for
    /// payoffs normalised to `[0, 1]`; 0.7 is the value of the original paper.
    pub exploration: f64,
    /// Progressive widening, or `None` to let every node try all its legal
    /// moves (the classic search).
    pub widening: Option<Widening>,
}

/// A preference order among the legal moves of a state: progressive
/// widening opens a node's moves in this order. The state is the sampled
/// determinization, so an order may read the hand of its player to move
/// there; at the root that is the searcher's own.
pub trait MoveOrder<G: Game>: Send {
    /// Sorts `moves`, legal moves of `state`, the most promising first.
    fn sort(&mut self, state: &G, moves: &mut [G::Move]);
}

/// The most iterations of one search: each iteration adds at most one node,
/// and nodes are numbered by `u32`.
pub const MAX_ISMCTS_ITERATIONS: u64 = u32::MAX as u64 - 1;

impl IsmctsConfig {
    /// The most memory the search's tree may take for game `G`: a node per
    /// iteration and the root, doubled because a growing vector may hold
    /// twice what it uses.
    pub fn memory_bytes<G: Game>(&self) -> u64 {
        self.iterations
            .saturating_add(1)
            .saturating_mul(2 * size_of::<Node<G::Move>>() as u64)
    }
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            iterations: 1_000,
            exploration: 0.7,
            widening: None,
        }
    }
}

/// Every option of [`IsmctsConfig`], in the order its text is written.
const OPTIONS: &[Declared<IsmctsConfig>] = &[
    iterations_option!(
        MAX_ISMCTS_ITERATIONS,
        "iterations (determinizations) per move"
    ),
    exploration_option!("the exploration constant of UCB1, for payoffs in [0, 1]"),
    widening_option!(width),
    widening_option!(exponent),
];

crate::core::declared_configuration!(IsmctsConfig, "ismcts options", OPTIONS, {
    fn check_together(&self) -> Result<(), String> {
        widening::check_widening(&self.widening)
    }
});

/// The statistics of one root move after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsMoveStats<M> {
    /// The move.
    pub mv: M,
    /// The iterations that went through the move.
    pub visits: u64,
    /// The mean score of the player to move at the root.
    pub mean: f64,
    /// The root player's normalised payoff after this move, when a
    /// single-state search has proven it.
    pub proven: Option<f64>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsResult<M> {
    /// The move to play: a move proven best if there is one, else the most
    /// visited move not proven, else the best proven move; `None` if the
    /// root had no player to move.
    pub best_move: Option<M>,
    /// Iterations (determinizations) run in this search.
    pub iterations: u64,
    /// Nodes in the tree after the search.
    pub nodes: usize,
    /// Every expanded root move, most visited first.
    pub moves: Vec<IsmctsMoveStats<M>>,
}

const ROOT: u32 = 0;
/// The end of a list of children.
const NO_NODE: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node<M> {
    /// The move that led here (`None` at the root).
    mv: Option<M>,
    parent: u32,
    /// The children form a list through `next_sibling`, in the order they
    /// were added; [`NO_NODE`] ends it. Nodes own no heap memory.
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
    child_count: u32,
    visits: u64,
    /// How many times this node's move was legal when its parent was visited.
    availability: u64,
    totals: [f64; MAX_PLAYERS],
    /// Single-state searches only: the player to move here, the number of
    /// legal moves, and the normalised payoffs once proven.
    to_move: u8,
    move_count: u32,
    proven: Option<[f64; MAX_PLAYERS]>,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, parent: u32) -> Self {
        Node {
            mv,
            parent,
            first_child: NO_NODE,
            last_child: NO_NODE,
            next_sibling: NO_NODE,
            child_count: 0,
            visits: 0,
            availability: 0,
            totals: [0.0; MAX_PLAYERS],
            to_move: 0,
            move_count: 0,
            proven: None,
        }
    }
}

/// The highest normalised payoff: a proven child that gives the player to
/// move this much is the best it can do.
const BEST: f64 = 1.0;

/// A reusable information-set search. It keeps its random generator from
/// search to search, so a sequence of searches is reproducible from the seed.
pub struct Ismcts<G: Game, P: Playout<G> = RandomPlayout<G>> {
    config: IsmctsConfig,
    playout: P,
    rng: GameRng,
    nodes: Vec<Node<G::Move>>,
    moves: MoveList<G::Move>,
    /// Legal move -> whether it already has a child, for one selection step.
    legal: FastHashMap<G::Move, bool>,
    untried: Vec<G::Move>,
    /// Whether this search proves results: only when every iteration
    /// starts from the same known state.
    prove: bool,
    /// The order in which widening opens moves; unused without widening.
    order: Option<Box<dyn MoveOrder<G>>>,
    /// Once raised, ends a search after its first iteration.
    stop_flag: StopFlag,
}

impl<G: Game> Ismcts<G> {
    /// A search with random playouts whose random choices come from `seed`.
    pub fn new(config: IsmctsConfig, seed: u64) -> Self {
        Ismcts::with_playout(config, RandomPlayout::default(), seed)
    }
}

impl<G: Game, P: Playout<G>> Ismcts<G, P> {
    /// A search with `config` and `playout` whose random choices come from `seed`.
    ///
    /// # Panics
    /// For a configuration [`IsmctsConfig::validate`] refuses, saying what
    /// is wrong.
    pub fn with_playout(config: IsmctsConfig, playout: P, seed: u64) -> Self {
        if let Err(problem) = config.validate() {
            panic!("ismcts options: {problem}");
        }
        Ismcts {
            config,
            playout,
            rng: rng_from_seed(seed),
            nodes: Vec::new(),
            moves: MoveList::new(),
            legal: FastHashMap::default(),
            untried: Vec::new(),
            prove: false,
            order: None,
            stop_flag: StopFlag::default(),
        }
    }

    /// The search with `order` for progressive widening to open moves in
    /// (without widening it is not consulted).
    pub fn with_move_order(mut self, order: impl MoveOrder<G> + 'static) -> Self {
        self.order = Some(Box::new(order));
        self
    }

    /// Ends every later search early once `flag` is raised: the search
    /// stops after its first iteration and chooses from what it found.
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        self.stop_flag = flag;
    }

    /// The configuration the searcher runs with.
    pub fn config(&self) -> &IsmctsConfig {
        &self.config
    }

    /// Searches from the information set that `sample` draws states from:
    /// each iteration calls it once. Every sampled state must have the same
    /// player to move with the same legal moves (they belong to one
    /// information set of that player).
    ///
    /// # Errors
    /// If an iteration meets a simultaneous choice, or a chance event of a
    /// game that cannot sample it.
    pub fn search_with(
        &mut self,
        sample: impl FnMut(&mut GameRng) -> G,
    ) -> Result<IsmctsResult<G::Move>, SearchError> {
        self.prove = false;
        self.run(sample)
    }

    /// Searches a state known in full: plain UCT on the perfect-information
    /// game, with MCTS-Solver proofs. A finished game is a proven result; a
    /// node is proven when one of its moves is proven to give the player to
    /// move the highest payoff, or when all its moves are proven (it takes
    /// the best of them). Proven moves are not searched again, a proven
    /// root ends the search, and the move chosen is a proven best one when
    /// there is one.
    ///
    /// # Errors
    /// As [`search_with`](Ismcts::search_with).
    pub fn search_state(&mut self, state: &G) -> Result<IsmctsResult<G::Move>, SearchError> {
        self.prove = true;
        self.run(|_| state.clone())
    }

    fn run(
        &mut self,
        mut sample: impl FnMut(&mut GameRng) -> G,
    ) -> Result<IsmctsResult<G::Move>, SearchError> {
        self.nodes.clear();
        self.nodes.push(Node::new(None, ROOT));
        let mut root_player = None;
        for iteration in 0..self.config.iterations {
            if self.nodes[ROOT as usize].proven.is_some()
                || (iteration > 0 && self.stop_flag.raised())
            {
                break;
            }
            let state = sample(&mut self.rng);
            if root_player.is_none() {
                match state.status() {
                    Status::ToMove(player) => root_player = Some(player),
                    Status::Over(_) => break,
                    status => return Err(SearchError::unsupported("IS-MCTS", status)),
                }
            }
            self.iterate(state)
                .map_err(|status| SearchError::unsupported("IS-MCTS", status))?;
        }
        Ok(self.result(root_player))
    }

    /// One iteration on one determinization; the status of a state it
    /// cannot go through stops it.
    fn iterate(&mut self, mut state: G) -> Result<(), Status> {
        let mut node = ROOT;
        loop {
            let player = match state.status() {
                Status::Over(outcome) => {
                    if self.prove {
                        self.nodes[node as usize].proven =
                            Some(normalised_payoffs(&state, outcome.payoffs.as_slice()));
                    }
                    break;
                }
                Status::Chance => {
                    resolve_pending(&mut state, &mut self.rng)?;
                    continue;
                }
                Status::Simultaneous => return Err(Status::Simultaneous),
                Status::ToMove(player) => player,
            };
            state.legal_moves(&mut self.moves);
            if self.prove {
                let current = &mut self.nodes[node as usize];
                current.to_move = player as u8;
                current.move_count = self.moves.len() as u32;
            }
            self.legal.clear();
            for &mv in self.moves.iter() {
                self.legal.insert(mv, false);
            }
            let mut child = self.nodes[node as usize].first_child;
            while child != NO_NODE {
                let current = &mut self.nodes[child as usize];
                if let Some(has_child) = self
                    .legal
                    .get_mut(&current.mv.expect("children have moves"))
                {
                    *has_child = true;
                    current.availability += 1;
                }
                child = current.next_sibling;
            }
            self.untried.clear();
            let current = &self.nodes[node as usize];
            let may_add = self.config.widening.is_none_or(|widening| {
                u64::from(current.child_count) < widening.children_allowed(current.visits + 1)
            });
            if may_add {
                self.untried
                    .extend(self.moves.iter().copied().filter(|mv| !self.legal[mv]));
            }
            if !self.untried.is_empty() {
                let mv = match (&mut self.order, self.config.widening) {
                    (Some(order), Some(_)) => {
                        order.sort(&state, &mut self.untried);
                        self.untried[0]
                    }
                    _ => self.untried[self.rng.random_range(0..self.untried.len())],
                };
                let child = self.nodes.len() as u32;
                let mut created = Node::new(Some(mv), node);
                created.availability = 1;
                self.nodes.push(created);
                self.add_child(node, child);
                state.play(mv);
                node = child;
                if self.prove
                    && let Status::Over(outcome) = state.status()
                {
                    self.nodes[node as usize].proven =
                        Some(normalised_payoffs(&state, outcome.payoffs.as_slice()));
                }
                break;
            }
            let Some(child) = self.select(node, player) else {
                // Only widening leaves a node with neither a legal child
                // nor leave to add one: the playout starts here.
                break;
            };
            state.play(self.nodes[child as usize].mv.expect("children have moves"));
            node = child;
        }
        let payoffs = self.playout.simulate(state, &mut self.rng)?;
        let leaf = node;
        loop {
            let current = &mut self.nodes[node as usize];
            current.visits += 1;
            for (total, payoff) in current.totals.iter_mut().zip(&payoffs) {
                *total += payoff;
            }
            if node == ROOT {
                break;
            }
            node = current.parent;
        }
        if self.prove && self.nodes[leaf as usize].proven.is_some() {
            let mut proven = leaf;
            while proven != ROOT {
                let parent = self.nodes[proven as usize].parent;
                if !self.try_prove(parent) {
                    break;
                }
                proven = parent;
            }
        }
        Ok(())
    }

    /// Appends `child` to the children of `parent`.
    fn add_child(&mut self, parent: u32, child: u32) {
        let last = self.nodes[parent as usize].last_child;
        if last == NO_NODE {
            self.nodes[parent as usize].first_child = child;
        } else {
            self.nodes[last as usize].next_sibling = child;
        }
        let parent = &mut self.nodes[parent as usize];
        parent.last_child = child;
        parent.child_count += 1;
    }

    /// The children of `node`, in the order they were added.
    fn children(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let first = self.nodes[node as usize].first_child;
        std::iter::successors((first != NO_NODE).then_some(first), |&child| {
            let next = self.nodes[child as usize].next_sibling;
            (next != NO_NODE).then_some(next)
        })
    }

    /// Proves `node` from its children if it can; whether it did.
    fn try_prove(&mut self, node: u32) -> bool {
        let current = &self.nodes[node as usize];
        if current.proven.is_some() {
            return false;
        }
        let mover = current.to_move as usize;
        let mut best: Option<[f64; MAX_PLAYERS]> = None;
        let mut all_proven = current.child_count == current.move_count;
        for child in self.children(node) {
            match self.nodes[child as usize].proven {
                Some(value) => {
                    if best.is_none_or(|best| value[mover] > best[mover]) {
                        best = Some(value);
                    }
                }
                None => all_proven = false,
            }
        }
        let proven = best.filter(|best| all_proven || best[mover] >= BEST);
        self.nodes[node as usize].proven = proven;
        proven.is_some()
    }

    /// The legal child of `node` with the best UCB1 score for `player`
    /// (in a proving search, an unproven one if there is one), if any child
    /// is legal.
    fn select(&self, node: u32, player: usize) -> Option<u32> {
        let uct = Uct {
            exploration: self.config.exploration,
        };
        let skip_proven = self.prove
            && self
                .children(node)
                .any(|child| self.nodes[child as usize].proven.is_none());
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        for child in self.children(node) {
            let stats = &self.nodes[child as usize];
            if !self
                .legal
                .contains_key(&stats.mv.expect("children have moves"))
                || (skip_proven && stats.proven.is_some())
            {
                continue;
            }
            let visits = stats.visits.max(1) as f64;
            let candidate = Candidate::plain(stats.totals[player] / visits, visits);
            // The parent's visits are the child's availability.
            let score = uct.score(&candidate, uct.parent(stats.availability as f64));
            if score > best_score {
                best_score = score;
                best = Some(child);
            }
        }
        best
    }

    fn result(&self, root_player: Option<usize>) -> IsmctsResult<G::Move> {
        let mut moves: Vec<IsmctsMoveStats<G::Move>> = self
            .children(ROOT)
            .map(|child| {
                let stats = &self.nodes[child as usize];
                let player = root_player.unwrap_or(0);
                IsmctsMoveStats {
                    mv: stats.mv.expect("children have moves"),
                    visits: stats.visits,
                    mean: stats.totals[player] / stats.visits.max(1) as f64,
                    proven: stats.proven.map(|value| value[player]),
                }
            })
            .collect();
        // Stable: among equally visited moves the first expanded wins.
        moves.sort_by_key(|stats| std::cmp::Reverse(stats.visits));
        // A move proven best; else the most visited move not proven; else
        // the best proven move.
        let proven_best = moves
            .iter()
            .filter(|stats| stats.proven.is_some_and(|value| value >= BEST))
            .chain(moves.iter().filter(|stats| stats.proven.is_none()))
            .next()
            .or_else(|| {
                moves.iter().max_by(|a, b| {
                    a.proven
                        .partial_cmp(&b.proven)
                        .expect("payoffs are numbers")
                })
            });
        IsmctsResult {
            best_move: proven_best.map(|stats| stats.mv),
            iterations: self.nodes[ROOT as usize].visits,
            nodes: self.nodes.len(),
            moves,
        }
    }
}

impl<G: ImperfectInformation, P: Playout<G>> Ismcts<G, P> {
    /// Searches for the observer of `observation`, sampling a determinization
    /// per iteration.
    ///
    /// # Errors
    /// As [`search_with`](Ismcts::search_with).
    pub fn search(
        &mut self,
        observation: &G::Observation,
    ) -> Result<IsmctsResult<G::Move>, SearchError> {
        self.search_with(|rng| G::determinize(observation, rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::companions::fenrir_cards::policies::CountingOrder;
    use crate::core::Stochastic;
    use crate::games::fenrir_cards::{FenrirCards, FenrirPlayout};

    /// Every node of the tree, the root and those below it, whose moves
    /// change with the sampled hands, has at most as many children as its
    /// visits allow.
    #[test]
    fn no_node_has_more_children_than_its_visits_allow() {
        let widening = Widening {
            width: 1.5,
            exponent: 0.4,
        };
        let config = IsmctsConfig {
            iterations: 400,
            widening: Some(widening),
            ..IsmctsConfig::default()
        };
        for players in 2..=4 {
            let mut state = FenrirCards::new(format!("players={players}").parse().unwrap());
            state.resolve_chance(&mut rng_from_seed(players));
            let observation = state.observation(0);
            let ordered = Ismcts::with_playout(config.clone(), FenrirPlayout::honest(), 3)
                .with_move_order(CountingOrder);
            let unordered = Ismcts::with_playout(config.clone(), FenrirPlayout::honest(), 3);
            for mut search in [ordered, unordered] {
                search.search(&observation).unwrap();
                let mut deep = 0;
                for (index, node) in search.nodes.iter().enumerate() {
                    let allowed = widening.children_allowed(node.visits);
                    assert!(
                        u64::from(node.child_count) <= allowed,
                        "node {index}: {} children after {} visits",
                        node.child_count,
                        node.visits
                    );
                    if node.parent != ROOT && node.child_count > 0 {
                        deep += 1;
                    }
                }
                assert!(deep > 0, "the tree grew below the root's children");
            }
        }
    }

    /// A raised flag ends the search after its first iteration, which
    /// still chooses a move; an unraised one changes nothing.
    #[test]
    fn a_raised_stop_flag_ends_the_search() {
        let mut state = FenrirCards::new("players=3".parse().unwrap());
        state.resolve_chance(&mut rng_from_seed(5));
        let observation = state.observation(0);
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut search = Ismcts::with_playout(IsmctsConfig::default(), FenrirPlayout::honest(), 3);
        search.set_stop_flag(StopFlag::new(flag.clone()));
        assert_eq!(search.search(&observation).unwrap().iterations, 1_000);
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
        let stopped = search.search(&observation).unwrap();
        assert_eq!(stopped.iterations, 1);
        assert!(stopped.best_move.is_some());
    }

    #[test]
    #[should_panic(expected = "ismcts options: `iters` must be from 1 to")]
    fn a_configuration_built_by_hand_is_checked_by_the_searcher() {
        let idle = IsmctsConfig {
            iterations: 0,
            ..IsmctsConfig::default()
        };
        Ismcts::<FenrirCards>::new(idle, 0);
    }

    #[test]
    fn the_printed_configuration_reads_back_to_itself() {
        crate::core::assert_reads_back::<IsmctsConfig>(&[
            "",
            "iters=5,c=0",
            "widen=2",
            "widen=1.5,widen-exp=0.25",
        ]);
        assert_eq!(
            IsmctsConfig::default().to_string(),
            "iters=1000,c=0.7,widen=off"
        );
    }
}
