//! Honest play in games with hidden information.
//!
//! An [`HonestPolicy`] decides from an observation
//! ([`ImperfectInformation::Observation`]) alone: it is never handed a state,
//! so it cannot read a card it is not allowed to see. [`HonestAgent`] is the
//! only bridge to the [`Agent`] trait that matches and win-rate runs use: at
//! each turn it asks the state for the observation of the player to move and
//! passes only that on.
//!
//! The agent keeps one policy per seat. A policy that remembers something
//! between decisions (a search tree, statistics) therefore remembers only
//! what its own seat saw, and teammates cannot pass hidden cards to each other
//! through it.

use super::{Agent, AgentError, Decision, SearchRecord};
use crate::core::{
    GameRng, ImperfectInformation, MoveList, Player, Playout, derive_seed, rng_from_seed,
};
use crate::search::{Ismcts, IsmctsConfig, MoveOrder, StopFlag};
use rand::RngExt;
use std::time::Instant;

/// A policy that decides from what one player observes.
pub trait HonestPolicy<G: ImperfectInformation>: Send {
    /// The spec this policy was built from, e.g. `ismcts:iters=1000`.
    fn spec(&self) -> &str;

    /// Chooses a move for the observer, who must be the player to move.
    ///
    /// # Errors
    /// If the observer has no move, or the policy cannot decide here.
    fn decide(&mut self, observation: &G::Observation) -> Result<G::Move, AgentError>;

    /// What the policy's last decision found and cost, if it searched
    /// ([`Agent::last_search`]); `None` by default.
    fn last_search(&self) -> Option<SearchRecord<G::Move>> {
        None
    }

    /// Gives the policy a flag that ends its searches early once raised,
    /// as [`Agent::set_stop_flag`]; returns whether the policy searches and
    /// checks it. The default, for policies that decide at once, ignores it.
    fn set_stop_flag(&mut self, _flag: StopFlag) -> bool {
        false
    }
}

/// Builds the policy of one seat from that seat's seed.
pub type SeatBuilder<G> = Box<dyn Fn(u64) -> Box<dyn HonestPolicy<G>> + Send>;

/// An [`Agent`] that plays every seat with its own honest policy.
pub struct HonestAgent<G: ImperfectInformation> {
    spec: String,
    /// Every setting of the policies, as [`Agent::configuration`] gives it.
    configuration: String,
    seed: u64,
    build: SeatBuilder<G>,
    seats: Vec<Option<Box<dyn HonestPolicy<G>>>>,
    /// The seat that decided last, whose policy keeps the last search.
    last_decider: Option<Player>,
    /// The flag every seat's policy is given as it is built.
    stop_flag: StopFlag,
}

impl<G: ImperfectInformation> HonestAgent<G> {
    /// An agent named `spec` whose seat `i` plays with `build(derive_seed(seed, i))`.
    pub fn new(spec: impl Into<String>, seed: u64, build: SeatBuilder<G>) -> Self {
        let spec = spec.into();
        HonestAgent {
            configuration: spec.clone(),
            spec,
            seed,
            build,
            seats: Vec::new(),
            last_decider: None,
            stop_flag: StopFlag::default(),
        }
    }

    /// The agent with its full configuration (the spec with every option
    /// written out), which [`Agent::configuration`] gives instead of the spec.
    pub fn with_configuration(mut self, configuration: impl Into<String>) -> Self {
        self.configuration = configuration.into();
        self
    }
}

impl<G: ImperfectInformation> Agent<G> for HonestAgent<G> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        self.configuration.clone()
    }

    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        if self.seats.len() <= player {
            self.seats.resize_with(player + 1, || None);
        }
        let seat = self.seats[player].get_or_insert_with(|| {
            let mut policy = (self.build)(derive_seed(self.seed, player as u64));
            policy.set_stop_flag(self.stop_flag.clone());
            policy
        });
        self.last_decider = Some(player);
        seat.decide(&state.observation(player)).map(Decision::Play)
    }

    fn reset(&mut self) {
        self.seats.clear();
        self.last_decider = None;
    }

    fn set_stop_flag(&mut self, flag: StopFlag) -> bool {
        self.stop_flag = flag;
        for seat in self.seats.iter_mut().flatten() {
            seat.set_stop_flag(self.stop_flag.clone());
        }
        // The seats are built as they first decide; a policy built only
        // to be asked says whether theirs will search.
        (self.build)(self.seed).set_stop_flag(self.stop_flag.clone())
    }

    fn last_search(&self) -> Option<SearchRecord<G::Move>> {
        self.seats.get(self.last_decider?)?.as_ref()?.last_search()
    }
}

/// Plays a uniformly random legal move.
pub struct HonestRandom {
    rng: GameRng,
}

impl HonestRandom {
    /// A random policy whose choices come from `seed`.
    pub fn new(seed: u64) -> Self {
        HonestRandom {
            rng: rng_from_seed(seed),
        }
    }
}

impl<G: ImperfectInformation> HonestPolicy<G> for HonestRandom {
    fn spec(&self) -> &str {
        "random"
    }

    fn decide(&mut self, observation: &G::Observation) -> Result<G::Move, AgentError> {
        let mut moves = MoveList::new();
        G::observer_moves(observation, &mut moves);
        if moves.is_empty() {
            return Err(AgentError::new("the observer has no move to choose here"));
        }
        Ok(moves[self.rng.random_range(0..moves.len())])
    }
}

/// Information-set MCTS from the observer's point of view.
pub struct IsmctsPolicy<G: ImperfectInformation, P: Playout<G>> {
    spec: String,
    search: Ismcts<G, P>,
    last_search: Option<SearchRecord<G::Move>>,
}

impl<G: ImperfectInformation, P: Playout<G>> IsmctsPolicy<G, P> {
    /// A policy named `spec` that searches with `config` and `playout`,
    /// its random choices from `seed`.
    ///
    /// # Panics
    /// For a configuration [`IsmctsConfig::validate`] refuses.
    pub fn new(spec: impl Into<String>, config: IsmctsConfig, playout: P, seed: u64) -> Self {
        IsmctsPolicy {
            spec: spec.into(),
            search: Ismcts::with_playout(config, playout, seed),
            last_search: None,
        }
    }

    /// The policy with `order` for its search's progressive widening.
    pub fn with_move_order(mut self, order: impl MoveOrder<G> + 'static) -> Self {
        self.search = self.search.with_move_order(order);
        self
    }
}

impl<G: ImperfectInformation, P: Playout<G>> HonestPolicy<G> for IsmctsPolicy<G, P> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn decide(&mut self, observation: &G::Observation) -> Result<G::Move, AgentError> {
        self.last_search = None;
        let started = Instant::now();
        let result = self.search.search(observation)?;
        let best = result
            .best_move
            .ok_or_else(|| AgentError::new("the observer has no move to choose here"))?;
        let visits: u64 = result.moves.iter().map(|stats| stats.visits).sum();
        let chosen = result.moves.iter().find(|stats| stats.mv == best);
        // The chosen move's normalised payoff for the observer, in [0, 1].
        let payoff = chosen.map_or(0.5, |stats| stats.proven.unwrap_or(stats.mean));
        self.last_search = Some(SearchRecord {
            seconds: started.elapsed().as_secs_f64(),
            depth: None,
            iterations: Some(result.iterations),
            nodes: result.nodes as u64,
            // A playout's own score may leave [0, 1]; the record's value may not.
            value: (2.0 * payoff - 1.0).clamp(-1.0, 1.0),
            pv: vec![best],
            visit_share: chosen.map(|stats| stats.visits as f64 / visits.max(1) as f64),
            policy_entropy: None,
        });
        Ok(best)
    }

    fn last_search(&self) -> Option<SearchRecord<G::Move>> {
        self.last_search.clone()
    }

    fn set_stop_flag(&mut self, flag: StopFlag) -> bool {
        self.search.set_stop_flag(flag);
        true
    }
}
