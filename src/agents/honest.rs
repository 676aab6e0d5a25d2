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

use super::{Agent, Decision};
use crate::core::{
    GameRng, ImperfectInformation, MoveList, Stochastic, derive_seed, rng_from_seed,
};
use crate::search::{Ismcts, IsmctsConfig, Playout};
use rand::RngExt;

/// A policy that decides from what one player observes.
pub trait HonestPolicy<G: ImperfectInformation>: Send {
    /// The spec this policy was built from, e.g. `ismcts:iters=1000`.
    fn spec(&self) -> &str;

    /// Chooses a move for the observer, who must be the player to move.
    fn decide(&mut self, observation: &G::Observation) -> G::Move;
}

/// Builds the policy of one seat from that seat's seed.
pub type SeatBuilder<G> = Box<dyn Fn(u64) -> Box<dyn HonestPolicy<G>> + Send>;

/// An [`Agent`] that plays every seat with its own honest policy.
pub struct HonestAgent<G: ImperfectInformation> {
    spec: String,
    seed: u64,
    build: SeatBuilder<G>,
    seats: Vec<Option<Box<dyn HonestPolicy<G>>>>,
}

impl<G: ImperfectInformation> HonestAgent<G> {
    /// An agent named `spec` whose seat `i` plays with `build(derive_seed(seed, i))`.
    pub fn new(spec: impl Into<String>, seed: u64, build: SeatBuilder<G>) -> Self {
        HonestAgent {
            spec: spec.into(),
            seed,
            build,
            seats: Vec::new(),
        }
    }
}

impl<G: ImperfectInformation> Agent<G> for HonestAgent<G> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn decide(&mut self, state: &G) -> Decision<G::Move> {
        let player = state
            .status()
            .player_to_move()
            .expect("decide is called with a player to move");
        if self.seats.len() <= player {
            self.seats.resize_with(player + 1, || None);
        }
        let seat = self.seats[player]
            .get_or_insert_with(|| (self.build)(derive_seed(self.seed, player as u64)));
        Decision::Play(seat.decide(&state.observation(player)))
    }

    fn reset(&mut self) {
        self.seats.clear();
    }
}

/// Plays a uniformly random legal move.
pub struct HonestRandom {
    rng: GameRng,
}

impl HonestRandom {
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

    fn decide(&mut self, observation: &G::Observation) -> G::Move {
        let mut moves = MoveList::new();
        G::observer_moves(observation, &mut moves);
        assert!(!moves.is_empty(), "decide called without legal moves");
        moves[self.rng.random_range(0..moves.len())]
    }
}

/// Information-set MCTS from the observer's point of view.
pub struct IsmctsPolicy<G: ImperfectInformation + Stochastic, P: Playout<G>> {
    spec: String,
    search: Ismcts<G, P>,
}

impl<G: ImperfectInformation + Stochastic, P: Playout<G>> IsmctsPolicy<G, P> {
    pub fn new(spec: impl Into<String>, config: IsmctsConfig, playout: P, seed: u64) -> Self {
        IsmctsPolicy {
            spec: spec.into(),
            search: Ismcts::with_playout(config, playout, seed),
        }
    }
}

impl<G: ImperfectInformation + Stochastic, P: Playout<G>> HonestPolicy<G> for IsmctsPolicy<G, P> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn decide(&mut self, observation: &G::Observation) -> G::Move {
        self.search
            .search(observation)
            .best_move
            .expect("decide is called when the observer is to move")
    }
}
