//! One tree of the guided search: nodes and edges in arenas, the descent
//! by PUCT or Gumbel selection, the expansion of a leaf from its
//! evaluation, and the back-up.

use super::decisions::{Actor, Decisions, Listing, Step};
use super::gumbel::{
    SIGMA_EPSILON, completed_q, completed_q_with_priors, exponentiate_in_place, gumbel,
    improved_policy, most_lacking, sigma, sigma_into, softmax, softmax_into,
};
use super::search::GuidedError;
use super::{GuidedConfig, ValueLayout, considered_visits};
use crate::core::{Encoding, GameRng, MAX_PLAYERS, Player, derive_seed, rng_from_seed};
use crate::search::selection::{Candidate, SelectionPolicy};
use rand::RngExt;

/// No node: an edge whose child is not built yet.
pub(super) const NONE: u32 = u32::MAX;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Reached, waiting for its evaluation.
    Waiting,
    /// This player decides; its edges are its legal ids.
    Decide(u8),
    /// Nature draws; its edges are the outcomes.
    Chance,
    /// The game is over.
    Over,
}

#[derive(Clone, Debug)]
pub(super) struct Node {
    parent: u32,
    first_edge: u32,
    edge_count: u32,
    pub(super) kind: Kind,
    /// Simulations backed up through the node, its own evaluation first.
    pub(super) visits: u32,
    /// Descents under way through the node (virtual losses).
    in_flight: u32,
    /// Each player's values summed over the visits, in `[-1, 1]` each.
    pub(super) sums: [f64; MAX_PLAYERS],
    /// The node's own value: its evaluation, or a finished game's payoffs.
    raw: [f64; MAX_PLAYERS],
}

impl Node {
    fn new(parent: u32) -> Node {
        Node {
            parent,
            first_edge: 0,
            edge_count: 0,
            kind: Kind::Waiting,
            visits: 0,
            in_flight: 0,
            sums: [0.0; MAX_PLAYERS],
            raw: [0.0; MAX_PLAYERS],
        }
    }

    /// The mean value for `player` over the settled visits.
    fn mean(&self, player: Player) -> f64 {
        self.sums[player] / f64::from(self.visits.max(1))
    }
}

/// What a descent reads of an edge; what the edge does, its id and
/// step, is kept apart (`Tree::actions`), read only for the edge taken,
/// so that a selection, which reads every edge of a node, reads 12 bytes
/// an edge.
#[derive(Clone, Copy, Debug)]
pub(super) struct Edge {
    /// The evaluator's logit of the id (chance: the log of the outcome's
    /// probability).
    logit: f32,
    /// PUCT's prior (at the root, with its noise); chance: the outcome's
    /// probability.
    prior: f32,
    child: u32,
}

/// Where a descent ended.
pub(super) enum Descent<G: Encoding> {
    /// At a new node to evaluate, where `player` decides.
    Leaf {
        node: u32,
        state: Decisions<G>,
        player: Player,
    },
    /// At a finished game, whose payoffs are backed up already.
    Backed,
    /// At a node another descent of the round waits to have evaluated:
    /// the descent is taken back.
    Collision,
}

/// A leaf waiting for its evaluation.
pub(super) struct Waiting<G: Encoding> {
    pub(super) node: u32,
    pub(super) state: Decisions<G>,
    pub(super) player: Player,
    pub(super) seed: u64,
}

pub(super) struct Tree<G: Encoding> {
    root: Decisions<G>,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// Each edge's action id and what taking it does, in the order of
    /// `edges`.
    actions: Vec<(u32, Step<G::Move>)>,
    /// Gumbel: each edge's prior in full precision, `softmax` of its
    /// node's logits as the expansion computed it (chance: the outcome's
    /// probability), so that a descent does not compute it again at every
    /// node; empty for PUCT.
    priors: Vec<f64>,
    /// Whether the tree keeps `priors`.
    keeps_priors: bool,
    rng: GameRng,
    seed: u64,
    players: usize,
    /// Gumbel: the noise on each root edge's logit.
    gumbels: Vec<f64>,
    /// Gumbel: Sequential Halving's schedule for the root.
    schedule: Vec<u32>,
    /// Simulations started (each a descent that did not collide).
    pub(super) simulations: u32,
    /// The leaves of this round, in the order reached.
    pub(super) waiting: Vec<Waiting<G>>,
    listing: Listing<G::Move>,
    choices: Vec<(u32, Step<G::Move>)>,
    /// Room for a Gumbel selection's statistics, kept from node to node.
    scratch: Scratch,
}

impl<G: Encoding> Tree<G> {
    /// A tree whose root, `root`, waits for its evaluation, for a search
    /// with `config`: room is made at once for the node each simulation
    /// adds (chance nodes grow it further).
    pub(super) fn new(
        root: Decisions<G>,
        player: Player,
        seed: u64,
        config: &GuidedConfig,
    ) -> Self {
        let simulations = config.simulations;
        let players = root.state().num_players();
        let mut root_node = Node::new(NONE);
        root_node.in_flight = 1;
        let mut nodes = Vec::with_capacity(simulations as usize + 1);
        nodes.push(root_node);
        let mut tree = Tree {
            root: root.clone(),
            nodes,
            edges: Vec::new(),
            actions: Vec::new(),
            priors: Vec::new(),
            keeps_priors: config.gumbel,
            rng: rng_from_seed(seed),
            seed,
            players,
            gumbels: Vec::new(),
            schedule: Vec::new(),
            simulations: 0,
            waiting: Vec::new(),
            listing: Listing::new(),
            choices: Vec::new(),
            scratch: Scratch::default(),
        };
        tree.waiting.push(Waiting {
            node: 0,
            state: root,
            player,
            seed: derive_seed(seed, 0),
        });
        tree
    }

    /// The rules of the game searched.
    pub(super) fn rules(&self) -> &G::Rules {
        self.root.state().rules()
    }

    /// The game's ply at the root.
    pub(super) fn root_ply(&self) -> u32 {
        self.root.state().ply()
    }

    /// The nodes held.
    pub(super) fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Descends until `leaves` leaves wait or the simulations run out (or
    /// a descent collides).
    pub(super) fn collect(&mut self, config: &GuidedConfig) -> Result<(), GuidedError> {
        while self.waiting.len() < config.leaves as usize && self.simulations < config.simulations {
            match self.descend(config)? {
                Descent::Leaf {
                    node,
                    state,
                    player,
                } => {
                    self.simulations += 1;
                    self.waiting.push(Waiting {
                        node,
                        state,
                        player,
                        seed: derive_seed(self.seed, u64::from(self.simulations)),
                    });
                }
                Descent::Backed => self.simulations += 1,
                Descent::Collision => break,
            }
        }
        Ok(())
    }

    /// One descent from the root.
    fn descend(&mut self, config: &GuidedConfig) -> Result<Descent<G>, GuidedError> {
        let mut state = self.root.clone();
        let mut node = 0u32;
        loop {
            let edge = match self.nodes[node as usize].kind {
                Kind::Waiting => {
                    self.take_back(self.nodes[node as usize].parent);
                    return Ok(Descent::Collision);
                }
                Kind::Over => {
                    self.nodes[node as usize].in_flight += 1;
                    let raw = self.nodes[node as usize].raw;
                    self.back_up(node, &raw);
                    return Ok(Descent::Backed);
                }
                Kind::Decide(player) => {
                    let player = usize::from(player);
                    match (node, config.gumbel) {
                        (0, true) => self.select_at_gumbel_root(config),
                        (_, true) => self.select_by_improved_policy(node, player, config),
                        (_, false) => self.select_by_puct(node, player, config),
                    }
                }
                Kind::Chance => {
                    let (first, probabilities, visits) = self.chance_statistics(node);
                    first + most_lacking(&probabilities, &visits) as u32
                }
            };
            self.nodes[node as usize].in_flight += 1;
            let child = self.edges[edge as usize].child;
            let (_, step) = self.actions[edge as usize];
            state.take(step);
            if child != NONE {
                node = child;
                continue;
            }
            let child = self.nodes.len() as u32;
            self.nodes.push(Node::new(node));
            self.edges[edge as usize].child = child;
            match state.actor() {
                Actor::Player(player) => {
                    self.nodes[child as usize].in_flight = 1;
                    return Ok(Descent::Leaf {
                        node: child,
                        state,
                        player,
                    });
                }
                Actor::Over(payoffs) => {
                    let over = &mut self.nodes[child as usize];
                    over.kind = Kind::Over;
                    over.raw = payoffs;
                    over.in_flight = 1;
                    self.back_up(child, &payoffs);
                    return Ok(Descent::Backed);
                }
                Actor::Chance => {
                    self.expand_chance(child, &state)?;
                    node = child;
                }
                Actor::Simultaneous => {
                    return Err(GuidedError::new(
                        "the guided search cannot search through a simultaneous choice",
                    ));
                }
            }
        }
    }

    /// Takes back the virtual losses of a descent that stopped below
    /// `node`.
    fn take_back(&mut self, mut node: u32) {
        while node != NONE {
            let current = &mut self.nodes[node as usize];
            current.in_flight -= 1;
            node = current.parent;
        }
    }

    /// Adds `values` to `node` and every node above it, one visit each,
    /// and takes back their virtual losses.
    fn back_up(&mut self, mut node: u32, values: &[f64; MAX_PLAYERS]) {
        while node != NONE {
            let current = &mut self.nodes[node as usize];
            current.in_flight = current.in_flight.saturating_sub(1);
            current.visits += 1;
            for (sum, value) in current.sums.iter_mut().zip(values) {
                *sum += value;
            }
            node = current.parent;
        }
    }

    /// The edges of `node`.
    fn edge_range(&self, node: u32) -> std::ops::Range<usize> {
        let current = &self.nodes[node as usize];
        current.first_edge as usize..(current.first_edge + current.edge_count) as usize
    }

    /// A child's settled visits, virtual losses and value for `player`
    /// (zeros for a child not built).
    fn child_stats(&self, edge: &Edge, player: Player) -> (u32, u32, f64) {
        if edge.child == NONE {
            return (0, 0, 0.0);
        }
        let child = &self.nodes[edge.child as usize];
        (child.visits, child.in_flight, child.mean(player))
    }

    /// PUCT: the edge of the highest `Q + c(N) * P * sqrt(N) / (1 + n)`,
    /// the first of equals; a virtual loss counts as a visit worth a loss,
    /// and a child never visited is worth the first-play value.
    fn select_by_puct(&self, node: u32, player: Player, config: &GuidedConfig) -> u32 {
        let current = &self.nodes[node as usize];
        let puct = config.puct();
        let parent = puct.parent(f64::from(current.visits + current.in_flight).max(1.0));
        let first_play = config.first_play.unwrap_or_else(|| current.mean(player));
        let mut best = 0;
        let mut best_score = f64::NEG_INFINITY;
        for index in self.edge_range(node) {
            let edge = &self.edges[index];
            let (visits, in_flight, mean) = self.child_stats(edge, player);
            let mean = if visits == 0 {
                first_play
            } else {
                (mean * f64::from(visits) - f64::from(in_flight)) / f64::from(visits + in_flight)
            };
            let mut candidate = Candidate::plain(mean, f64::from(visits + in_flight));
            candidate.prior = edge.prior;
            let score = puct.score(&candidate, parent);
            if score > best_score {
                best_score = score;
                best = index;
            }
        }
        best as u32
    }

    /// Each edge's logit, settled visits and mean value for `player` (0
    /// where never visited), and each edge's visits with virtual losses,
    /// written into `stats`.
    fn decision_statistics(&self, node: u32, player: Player, stats: &mut Statistics) {
        let edges = &self.edges[self.edge_range(node)];
        stats.clear();
        stats
            .logits
            .extend(edges.iter().map(|edge| f64::from(edge.logit)));
        // Zeros first, then the children built: below the root most edges
        // have none, and a pass of zeros costs less than a push an edge.
        stats.visits.resize(edges.len(), 0);
        stats.values.resize(edges.len(), 0.0);
        stats.pending.resize(edges.len(), 0);
        for (index, edge) in edges.iter().enumerate() {
            if edge.child != NONE {
                let (visits, in_flight, mean) = self.child_stats(edge, player);
                stats.visits[index] = visits;
                stats.values[index] = mean;
                stats.pending[index] = visits + in_flight;
            }
        }
    }

    /// The statistics of `node`'s children for `player` and σ of their
    /// completed Q-values, in `scratch`.
    fn gumbel_statistics(
        &self,
        node: u32,
        player: Player,
        scratch: &mut Scratch,
        config: &GuidedConfig,
    ) {
        self.decision_statistics(node, player, &mut scratch.stats);
        let raw = self.nodes[node as usize].raw[player];
        let stats = &scratch.stats;
        completed_q_with_priors(
            raw,
            &self.priors[self.edge_range(node)],
            &stats.visits,
            &stats.values,
            &mut scratch.completed,
        );
        sigma_into(
            &scratch.completed,
            &stats.visits,
            config.c_visit,
            config.c_scale,
            &mut scratch.sigmas,
        );
    }

    /// Below a Gumbel root: the child whose visits lag most behind the
    /// improved policy `softmax(logits + σ(q̂))`.
    ///
    /// Every number is the one [`completed_q_with_priors`], [`sigma_into`],
    /// [`improved_policy`] and [`most_lacking`] compute, in the same
    /// order, so the choice is theirs; but below the root most children
    /// were never visited and share one completed Q-value, so the node's
    /// edges are read in fewer passes and only the visited children one by
    /// one.
    fn select_by_improved_policy(
        &mut self,
        node: u32,
        player: Player,
        config: &GuidedConfig,
    ) -> u32 {
        // Taken out of the tree while the tree is read, then put back:
        // every descent reuses the same room.
        let mut scratch = std::mem::take(&mut self.scratch);
        let range = self.edge_range(node);
        let edges = &self.edges[range.clone()];
        let priors = &self.priors[range];
        let Scratch {
            stats,
            policy,
            built,
            ..
        } = &mut scratch;
        let pending = &mut stats.pending;
        pending.clear();
        pending.resize(edges.len(), 0);
        built.clear();
        let (mut total_visits, mut total_pending, mut most_visits) = (0u64, 0u64, 0u32);
        for (index, edge) in edges.iter().enumerate() {
            if edge.child != NONE {
                let (visits, in_flight, mean) = self.child_stats(edge, player);
                built.push((index, visits, mean));
                pending[index] = visits + in_flight;
                total_visits += u64::from(visits);
                total_pending += u64::from(visits + in_flight);
                most_visits = most_visits.max(visits);
            }
        }
        // The completed Q-values: a visited child's mean, the others the
        // node's mixed value.
        let visited = || built.iter().filter(|&&(_, visits, _)| visits > 0);
        let (mut weighted, mut mass) = (0.0, 0.0);
        for &(index, _, mean) in visited() {
            let prior = priors[index].max(f64::MIN_POSITIVE);
            weighted += prior * mean;
            mass += prior;
        }
        let raw = self.nodes[node as usize].raw[player];
        let total_visits = total_visits as f64;
        let mixed = if mass > 0.0 {
            (raw + total_visits * weighted / mass) / (1.0 + total_visits)
        } else {
            raw
        };
        // σ's range: the least and the most completed Q-value.
        let some_unvisited = visited().count() < edges.len();
        let (mut low, mut high) = if some_unvisited {
            (mixed, mixed)
        } else {
            (f64::INFINITY, f64::NEG_INFINITY)
        };
        for &(_, _, mean) in visited() {
            low = low.min(mean);
            high = high.max(mean);
        }
        let weight = (config.c_visit + f64::from(most_visits)) * config.c_scale;
        let spread = (high - low).max(SIGMA_EPSILON);
        let sigma = |value: f64| weight * (value - low) / spread;
        let unvisited_sigma = sigma(mixed);
        policy.clear();
        policy.extend(
            edges
                .iter()
                .map(|edge| f64::from(edge.logit) + unvisited_sigma),
        );
        for &(index, _, mean) in visited() {
            policy[index] = f64::from(edges[index].logit) + sigma(mean);
        }
        let total = exponentiate_in_place(policy);
        let total_pending = 1.0 + total_pending as f64;
        let mut best = 0;
        let mut best_score = f64::NEG_INFINITY;
        for (index, (&exponential, &pending)) in policy.iter().zip(pending.iter()).enumerate() {
            let score = exponential / total - f64::from(pending) / total_pending;
            if score > best_score {
                best_score = score;
                best = index;
            }
        }
        self.scratch = scratch;
        self.nodes[node as usize].first_edge + best as u32
    }

    /// At a Gumbel root: among the actions whose visits are the count
    /// Sequential Halving asks for next, the one of the highest `g +
    /// logit + σ(q̂)`.
    fn select_at_gumbel_root(&mut self, config: &GuidedConfig) -> u32 {
        let Kind::Decide(player) = self.nodes[0].kind else {
            unreachable!("the root decides");
        };
        let mut scratch = std::mem::take(&mut self.scratch);
        self.gumbel_statistics(0, usize::from(player), &mut scratch, config);
        let pending = &scratch.stats.pending;
        let started: u32 = pending.iter().sum();
        let wanted = self.schedule[(started as usize).min(self.schedule.len() - 1)];
        self.root_scores_into(&scratch.stats.logits, &scratch.sigmas, &mut scratch.policy);
        // Where no action has the count asked for (descents taken back
        // can leave one behind), the least visited go.
        let wanted = if pending.contains(&wanted) {
            wanted
        } else {
            pending.iter().copied().min().unwrap_or(0)
        };
        let mut best = 0;
        let mut best_score = f64::NEG_INFINITY;
        for (index, (&score, &visits)) in scratch.policy.iter().zip(pending).enumerate() {
            if visits == wanted && score > best_score {
                best_score = score;
                best = index;
            }
        }
        self.scratch = scratch;
        self.nodes[0].first_edge + best as u32
    }

    /// `g + logit + σ(q̂)` of each root edge, logits taken from their
    /// largest, never below -1e9 (mctx's floor, so that a logit of
    /// minus infinity still ranks), written into `out`.
    fn root_scores_into(&self, logits: &[f64], sigmas: &[f64], out: &mut Vec<f64>) {
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        out.clear();
        out.extend(
            logits
                .iter()
                .zip(sigmas)
                .zip(&self.gumbels)
                .map(|((logit, sigma), noise)| (noise + logit - top + sigma).max(-1e9)),
        );
    }

    /// The first edge of chance node `node`, its outcomes' probabilities
    /// and their visits with virtual losses.
    fn chance_statistics(&self, node: u32) -> (u32, Vec<f64>, Vec<u32>) {
        let range = self.edge_range(node);
        let first = range.start as u32;
        let (mut probabilities, mut visits) = (Vec::new(), Vec::new());
        for edge in &self.edges[range] {
            let (settled, in_flight, _) = self.child_stats(edge, 0);
            probabilities.push(f64::from(edge.prior));
            visits.push(settled + in_flight);
        }
        (first, probabilities, visits)
    }

    /// Gives chance node `node` its outcomes.
    fn expand_chance(&mut self, node: u32, state: &Decisions<G>) -> Result<(), GuidedError> {
        let outcomes = state.chance_outcomes();
        if outcomes.is_empty() {
            return Err(GuidedError::new(
                "the game has a chance event whose outcomes it does not list",
            ));
        }
        let first = self.edges.len() as u32;
        for (id, probability) in outcomes {
            if self.keeps_priors {
                self.priors.push(probability);
            }
            self.actions.push((id, Step::Draw(id)));
            self.edges.push(Edge {
                logit: probability.ln() as f32,
                prior: probability as f32,
                child: NONE,
            });
        }
        let current = &mut self.nodes[node as usize];
        current.kind = Kind::Chance;
        current.first_edge = first;
        current.edge_count = self.edges.len() as u32 - first;
        Ok(())
    }

    /// Expands the waiting leaf `leaf` from its evaluation (`logits` over
    /// every action id, or `None` for uniform priors; `values` in
    /// `layout`) and backs the value up.
    ///
    /// # Errors
    /// A value that is not a number from -1 to 1, a legal action's logit
    /// that is not finite, or a state with no legal action.
    pub(super) fn expand(
        &mut self,
        leaf: &Waiting<G>,
        logits: Option<&[f32]>,
        values: &[f32],
        layout: ValueLayout,
        config: &GuidedConfig,
    ) -> Result<(), GuidedError> {
        for &value in values {
            if !(-1.0..=1.0).contains(&value) {
                return Err(GuidedError::new(format!(
                    "the evaluator gave the value {value}: values are numbers from -1 to 1"
                )));
            }
        }
        leaf.state.decisions(&mut self.listing, &mut self.choices);
        if self.choices.is_empty() {
            return Err(GuidedError::new(
                "a player to move has no legal action (the game's encoding lists none)",
            ));
        }
        let first = self.edges.len() as u32;
        // The listing's logits and priors are computed in the room a
        // Gumbel selection uses, so that an expansion allocates nothing.
        let mut scratch = std::mem::take(&mut self.scratch);
        let legal_logits = &mut scratch.stats.logits;
        legal_logits.clear();
        for &(id, _) in &self.choices {
            let logit = logits.map_or(0.0, |logits| logits[id as usize]);
            if !logit.is_finite() {
                return Err(GuidedError::new(format!(
                    "the evaluator gave the legal action {id} the logit {logit}: logits of legal actions are finite numbers"
                )));
            }
            legal_logits.push(f64::from(logit));
        }
        let priors = &mut scratch.policy;
        softmax_into(legal_logits.iter().copied(), priors);
        if self.keeps_priors {
            self.priors.extend(priors.iter());
        }
        if leaf.node == 0 {
            self.prepare_root(priors, config);
        }
        self.edges.extend(
            legal_logits
                .iter()
                .zip(priors.iter())
                .map(|(&logit, &prior)| Edge {
                    logit: logit as f32,
                    prior: prior as f32,
                    child: NONE,
                }),
        );
        self.actions.extend_from_slice(&self.choices);
        self.scratch = scratch;
        let raw = layout.spread(values, leaf.player, self.players);
        let node = &mut self.nodes[leaf.node as usize];
        node.kind = Kind::Decide(leaf.player as u8);
        node.first_edge = first;
        node.edge_count = self.edges.len() as u32 - first;
        node.raw = raw;
        self.back_up(leaf.node, &raw);
        Ok(())
    }

    /// What only the root has: Gumbel's noise and schedule, or PUCT's
    /// Dirichlet noise mixed into `priors`.
    fn prepare_root(&mut self, priors: &mut [f64], config: &GuidedConfig) {
        if config.gumbel {
            self.gumbels = (0..priors.len())
                .map(|_| config.gumbel_scale * gumbel(&mut self.rng))
                .collect();
            let considered = config.considered.min(priors.len() as u32);
            self.schedule = considered_visits(considered, config.simulations.max(1));
        } else if config.noise > 0.0 {
            let noise = dirichlet(config.dirichlet, priors.len(), &mut self.rng);
            for (prior, noise) in priors.iter_mut().zip(noise) {
                *prior = (1.0 - config.noise) * *prior + config.noise * noise;
            }
        }
    }

    /// The root's statistics after the search, for the player to move.
    pub(super) fn root_summary(&self, config: &GuidedConfig) -> RootSummary<G::Move> {
        let Kind::Decide(player) = self.nodes[0].kind else {
            unreachable!("the root was expanded");
        };
        let player = usize::from(player);
        let mut stats = Statistics::default();
        self.decision_statistics(0, player, &mut stats);
        let raw = self.nodes[0].raw[player];
        let completed = completed_q(raw, &stats.logits, &stats.visits, &stats.values);
        let sigmas = sigma(&completed, &stats.visits, config.c_visit, config.c_scale);
        let actions = &self.actions[self.edge_range(0)];
        let mut scores = Vec::with_capacity(actions.len());
        self.root_scores_into(&stats.logits, &sigmas, &mut scores);
        RootSummary {
            player,
            ids: actions.iter().map(|&(id, _)| id).collect(),
            steps: actions.iter().map(|&(_, step)| step).collect(),
            priors: softmax(&stats.logits),
            value: self.nodes[0].mean(player),
            scores,
            improved: improved_policy(&stats.logits, &sigmas),
            visits: stats.visits,
            completed,
        }
    }

    /// A draw from the tree's generator, for the move chosen.
    pub(super) fn uniform(&mut self) -> f64 {
        self.rng.random::<f64>()
    }
}

/// The statistics of a node's edges, in order.
#[derive(Default)]
struct Statistics {
    logits: Vec<f64>,
    visits: Vec<u32>,
    values: Vec<f64>,
    /// Visits with virtual losses.
    pending: Vec<u32>,
}

impl Statistics {
    fn clear(&mut self) {
        self.logits.clear();
        self.visits.clear();
        self.values.clear();
        self.pending.clear();
    }
}

/// What a Gumbel selection computes at a node, kept from node to node so
/// that a descent allocates nothing: the children's statistics, their
/// completed Q-values and σ, and the policy (or the root's scores) they
/// give.
#[derive(Default)]
struct Scratch {
    stats: Statistics,
    /// Below the root: each built child's edge index, settled visits and
    /// mean value.
    built: Vec<(usize, u32, f64)>,
    completed: Vec<f64>,
    sigmas: Vec<f64>,
    policy: Vec<f64>,
}

/// The root's edges after a search.
pub(super) struct RootSummary<M> {
    pub(super) player: Player,
    pub(super) ids: Vec<u32>,
    pub(super) steps: Vec<Step<M>>,
    /// `softmax(logits)`, before any noise.
    pub(super) priors: Vec<f64>,
    pub(super) visits: Vec<u32>,
    pub(super) completed: Vec<f64>,
    /// Gumbel: `g + logit + σ(q̂)`.
    pub(super) scores: Vec<f64>,
    /// `softmax(logits + σ(q̂))`.
    pub(super) improved: Vec<f64>,
    /// The root's mean value for its player.
    pub(super) value: f64,
}

/// A draw of the symmetric Dirichlet distribution of concentration
/// `alpha` over `count` outcomes: independent Gamma(`alpha`) draws,
/// normalised.
fn dirichlet(alpha: f64, count: usize, rng: &mut GameRng) -> Vec<f64> {
    let draws: Vec<f64> = (0..count).map(|_| gamma(alpha, rng)).collect();
    let total: f64 = draws.iter().sum();
    if total > 0.0 {
        draws.into_iter().map(|draw| draw / total).collect()
    } else {
        vec![1.0 / count as f64; count]
    }
}

/// A draw of the Gamma distribution of shape `shape` and scale 1, by
/// Marsaglia and Tsang's method (2000); a shape below 1 draws with shape
/// `shape + 1` and multiplies by `U^(1 / shape)`.
fn gamma(shape: f64, rng: &mut GameRng) -> f64 {
    if shape < 1.0 {
        let uniform: f64 = 1.0 - rng.random::<f64>();
        return gamma(shape + 1.0, rng) * uniform.powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let normal = standard_normal(rng);
        let v = (1.0 + c * normal).powi(3);
        if v <= 0.0 {
            continue;
        }
        let uniform: f64 = 1.0 - rng.random::<f64>();
        if uniform.ln() < 0.5 * normal * normal + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// A standard normal draw (Box and Muller).
fn standard_normal(rng: &mut GameRng) -> f64 {
    let radius: f64 = 1.0 - rng.random::<f64>();
    let angle: f64 = rng.random::<f64>();
    (-2.0 * radius.ln()).sqrt() * (std::f64::consts::TAU * angle).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gamma(k) has mean k and variance k; a Dirichlet component of
    /// concentration α over n outcomes has mean 1 / n.
    #[test]
    fn gamma_and_dirichlet_draws_have_their_distributions_moments() {
        let mut rng = rng_from_seed(11);
        for shape in [0.3, 1.0, 2.5] {
            let draws: Vec<f64> = (0..20_000).map(|_| gamma(shape, &mut rng)).collect();
            let mean = draws.iter().sum::<f64>() / draws.len() as f64;
            let variance =
                draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / draws.len() as f64;
            // Four standard errors of the mean, sqrt(k / 20000).
            assert!(
                (mean - shape).abs() < 4.0 * (shape / 20_000.0).sqrt(),
                "{shape}: {mean}"
            );
            assert!(
                (variance - shape).abs() < 0.1 * shape,
                "{shape}: {variance}"
            );
        }
        let mut first = 0.0;
        for _ in 0..5_000 {
            let draw = dirichlet(0.3, 10, &mut rng);
            assert!((draw.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            first += draw[0];
        }
        assert!((first / 5_000.0 - 0.1).abs() < 0.01, "{}", first / 5_000.0);
    }
}
