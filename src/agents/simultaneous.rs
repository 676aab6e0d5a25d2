//! Agents for two-player zero-sum games with simultaneous moves: they play
//! a mixed strategy at a simultaneous state, sampled from their seed, and
//! their best move where they move alone.

use super::{Agent, AgentError, Decision, SearchRecord, player_choices};
use crate::core::{
    Declared, Evaluate, GameRng, MoveList, Player, Simultaneous, Status, memory_limit,
    rng_from_seed, write_options,
};
use crate::search::{BYTES_PER_SOLVED_STATE, SimultaneousSolver, SmMcts, StopFlag, draw_index};
use std::any::Any;
use std::time::Instant;

/// A choice drawn from `strategy` (probabilities summing to about 1); the
/// most probable one when the strategy is pure.
pub(crate) fn sample_strategy<M: Copy>(strategy: &[(M, f64)], rng: &mut GameRng) -> Option<M> {
    match draw_index(strategy.iter().map(|&(_, probability)| probability), rng) {
        Some(index) => Some(strategy[index].0),
        // Rounding left a sliver above the last choice: give it to the
        // most probable one.
        None => strategy
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|&(mv, _)| mv),
    }
}

/// Simultaneous-move MCTS ([`SmMcts`]): samples its root strategy at a
/// simultaneous state and plays its most visited move where it moves
/// alone.
pub struct SmMctsAgent {
    spec: String,
    search: SmMcts,
    rng: GameRng,
    /// The last decision's [`SearchRecord`] of the game's moves: the agent
    /// plays any simultaneous game, so the record's type is only known
    /// when it is read.
    last_search: Option<Box<dyn Any + Send>>,
}

impl SmMctsAgent {
    /// An agent named `spec` that searches with `search` and samples its
    /// strategies with random choices from `seed`.
    pub fn new(spec: impl Into<String>, search: SmMcts, seed: u64) -> Self {
        SmMctsAgent {
            spec: spec.into(),
            search,
            rng: rng_from_seed(seed),
            last_search: None,
        }
    }
}

impl<G: Simultaneous + Evaluate> Agent<G> for SmMctsAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        format!("smmcts:{}", self.search.config())
    }

    fn set_stop_flag(&mut self, flag: StopFlag) -> bool {
        self.search.set_stop_flag(flag);
        true
    }

    fn memory_bytes(&self) -> u64 {
        self.search.config().memory_bytes()
    }

    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        player_choices(state, player, &mut MoveList::new())?;
        self.last_search = None;
        let started = Instant::now();
        let result = self.search.search(state)?;
        let strategy = &result.strategies[player];
        let choice = if state.status() == Status::Simultaneous {
            sample_strategy(strategy, &mut self.rng)
        } else {
            strategy
                .iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|&(mv, _)| mv)
        }
        .ok_or_else(|| AgentError::new("the search found no choice"))?;
        // The mean is player 0's normalised payoff; the game is zero-sum.
        let payoff = if player == 0 {
            result.mean
        } else {
            1.0 - result.mean
        };
        self.last_search = Some(Box::new(SearchRecord {
            seconds: started.elapsed().as_secs_f64(),
            depth: None,
            iterations: Some(result.iterations),
            nodes: result.nodes as u64,
            value: 2.0 * payoff - 1.0,
            pv: vec![choice],
            visit_share: strategy
                .iter()
                .find(|&&(mv, _)| mv == choice)
                .map(|&(_, probability)| probability),
            policy_entropy: None,
        }));
        Ok(Decision::Play(choice))
    }

    fn last_search(&self) -> Option<SearchRecord<G::Move>> {
        self.last_search.as_ref()?.downcast_ref().cloned()
    }

    fn reset(&mut self) {
        self.last_search = None;
    }
}

/// The most rounds the equilibrium agent solves ahead: the solve grows
/// about tenfold a round, and 6 would already take hours a move.
const MAX_EQUILIBRIUM_ROUNDS: u64 = 6;

/// The options of [`EquilibriumAgent`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EquilibriumOptions {
    /// The rounds solved exactly: the current one and `rounds - 1` more.
    pub rounds: u32,
}

impl Default for EquilibriumOptions {
    fn default() -> Self {
        EquilibriumOptions { rounds: 2 }
    }
}

/// Every option of [`EquilibriumOptions`], in the order its text is written.
const OPTIONS: &[Declared<EquilibriumOptions>] = &[crate::whole_option!(
    "rounds",
    rounds,
    1,
    MAX_EQUILIBRIUM_ROUNDS,
    "the current round and `rounds - 1` more solved exactly, the evaluation scoring the states beyond"
)];

crate::configurable!(EquilibriumOptions, "equilibrium options", OPTIONS);

/// Solves the current round and `rounds - 1` more exactly
/// ([`SimultaneousSolver`]), scoring the states beyond with the game's
/// evaluation, and plays an optimal strategy of that truncated game.
pub struct EquilibriumAgent {
    spec: String,
    rounds: u32,
    rng: GameRng,
}

impl EquilibriumAgent {
    /// An agent named `spec` that solves `rounds` rounds (at least 1) and
    /// samples its strategies with random choices from `seed`.
    pub fn new(spec: impl Into<String>, rounds: u32, seed: u64) -> Self {
        EquilibriumAgent {
            spec: spec.into(),
            rounds,
            rng: rng_from_seed(seed),
        }
    }
}

impl<G: Simultaneous + Evaluate> Agent<G> for EquilibriumAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        let options = EquilibriumOptions {
            rounds: self.rounds,
        };
        format!("equilibrium:{}", write_options(&options))
    }

    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        player_choices(state, player, &mut MoveList::new())?;
        let max_states =
            usize::try_from(memory_limit() / BYTES_PER_SOLVED_STATE).unwrap_or(usize::MAX);
        // The current round counts as one of the rounds, whether it is
        // still to be chosen or already moving.
        let stages = if state.status() == Status::Simultaneous {
            self.rounds
        } else {
            self.rounds - 1
        };
        let mut solver = SimultaneousSolver::new(stages, |state: &G| state.evaluate(0), max_states);
        let solution = solver.solve(state)?;
        sample_strategy(&solution.strategies[player], &mut self.rng)
            .map(Decision::Play)
            .ok_or_else(|| AgentError::new("the solver found no choice"))
    }
}
