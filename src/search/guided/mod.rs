//! Tree search guided by a policy and a value (AlphaZero, Gumbel MuZero),
//! over batches of games.
//!
//! The search sees a game as learning code does: one action id at a time
//! from the game's [`Encoding`](crate::core::Encoding) (a move of several
//! decisions is searched decision by decision), chance events as draws
//! with their probabilities. At a leaf an [evaluator](LeafEvaluator) gives
//! the logits of a policy over the game's fixed action space and a value;
//! the tree is then grown by one of two rules:
//!
//! - **PUCT** (Silver et al. 2017, 2018): every node selects the child
//!   that maximises `Q + c(N) * P * sqrt(N) / (1 + n)` ([`Puct`]), with
//!   first-play urgency for children never visited, Dirichlet noise mixed
//!   into the root's priors, and the move drawn from the root's visit
//!   counts with a temperature (the most visited at temperature 0). The
//!   training target is the visit distribution.
//! - **Gumbel** (Danihelka et al. 2022; mctx's `gumbel_muzero_policy`):
//!   the root samples `m` actions without replacement by Gumbel-Top-k on
//!   the logits, shares the simulations among them by Sequential Halving,
//!   and plays the survivor that maximises `g + logits + σ(q̂)`, where
//!   `q̂` are the completed Q-values (a child never visited takes the
//!   mixed value of its parent) rescaled to `[0, 1]` and
//!   `σ(q̂) = (c_visit + max N) * c_scale * q̂`. Below the root the choice is deterministic,
//!   the child that most lacks visits against `softmax(logits + σ(q̂))`.
//!   The training target is that improved policy at the root. It works
//!   with as few simulations as considered actions.
//!
//! **Batches**: [`GuidedSearch::search`] grows many trees together; each
//! round every tree descends to a leaf (or to `leaves` leaves, kept apart
//! by virtual losses), and the leaves of all trees are evaluated in one
//! call, as KataGo and mctx batch a network's work. Each tree draws from
//! its own seed and each leaf's playout from one derived from it, so a
//! tree's search does not depend on the other trees of its batch or on
//! the number of threads.
//!
//! **Restrictions**: the root must be a state where one player decides;
//! simultaneous choices stop the search with an error (and hidden
//! information is for the agents to refuse: the search reads whole states).

mod decisions;
mod evaluator;
mod gumbel;
mod layout;
mod search;
mod tree;

pub use evaluator::{
    EvaluationBlend, EvaluationError, Evaluations, Leaf, LeafBatch, LeafEvaluator, TensorEvaluator,
    Tensors, UniformEvaluation, UniformPlayout,
};
pub use gumbel::considered_visits;
pub use layout::{GameShape, ValueLayout};
pub use search::{GuidedError, GuidedSearch, RootAction, SearchOutcome, SearchRoot};

use super::selection::Puct;
use crate::core::{Declared, Kind, Value};

/// The most simulations of one search.
pub const MAX_SIMULATIONS: u64 = 100_000;

/// The most leaves one tree sends to one evaluator call.
pub const MAX_LEAVES_PER_ROUND: u64 = 64;

/// The settings of a guided search.
#[derive(Clone, Debug, PartialEq)]
pub struct GuidedConfig {
    /// Simulations per search (per tree), beside the root's evaluation.
    pub simulations: u32,
    /// Gumbel root search (`true`) or PUCT.
    pub gumbel: bool,
    /// Gumbel: the most root actions considered, `m`.
    pub considered: u32,
    /// Gumbel: the scale of the Gumbel noise (0 for no noise: the root
    /// considers the actions of the highest logits and plays
    /// deterministically).
    pub gumbel_scale: f64,
    /// Gumbel: `c_visit` of the σ transform.
    pub c_visit: f64,
    /// Gumbel: `c_scale` of the σ transform.
    pub c_scale: f64,
    /// PUCT: `c_init`.
    pub c_init: f64,
    /// PUCT: `c_base`.
    pub c_base: f64,
    /// PUCT: the value of a child never visited, in `[-1, 1]`; `None` for
    /// its parent's mean value.
    pub first_play: Option<f64>,
    /// PUCT: the share of Dirichlet noise in the root's priors (0: none).
    pub noise: f64,
    /// PUCT: the concentration `α` of the Dirichlet noise.
    pub dirichlet: f64,
    /// PUCT: the temperature of the move chosen from the root's visits
    /// (0: the most visited).
    pub temperature: f64,
    /// PUCT: the plies of the game, from its start, whose moves are drawn
    /// with the temperature; later ones take the most visited. `None`:
    /// every ply.
    pub temperature_plies: Option<u32>,
    /// Leaves per tree per evaluator call, kept apart by virtual losses.
    pub leaves: u32,
    /// The weight of the game's own evaluation in each leaf's value, from
    /// 0 (the evaluator's value alone) to 1: whoever builds the search's
    /// evaluator wraps it in an [`EvaluationBlend`] of this weight (the
    /// `az` agent, self-play, training and its evaluations do).
    pub eval_mix: f64,
    /// Threads for the trees' descents and the evaluators that split work.
    pub threads: usize,
}

impl Default for GuidedConfig {
    fn default() -> Self {
        GuidedConfig {
            simulations: 64,
            gumbel: true,
            considered: 16,
            gumbel_scale: 1.0,
            c_visit: 50.0,
            c_scale: 0.1,
            c_init: 1.25,
            c_base: 19_652.0,
            first_play: None,
            noise: 0.0,
            dirichlet: 0.3,
            temperature: 0.0,
            temperature_plies: None,
            leaves: 1,
            eval_mix: 0.0,
            threads: 1,
        }
    }
}

impl GuidedConfig {
    /// The PUCT rule of the settings.
    pub fn puct(&self) -> Puct {
        Puct {
            c_init: self.c_init,
            c_base: self.c_base,
        }
    }
}

/// Every option of [`GuidedConfig`], in the order its text is written.
const OPTIONS: &[Declared<GuidedConfig>] = &[
    crate::whole_option!(
        "sims",
        simulations,
        1,
        MAX_SIMULATIONS,
        "simulations per move, beside the root's evaluation"
    ),
    crate::switch_option!(
        "gumbel",
        gumbel,
        "Gumbel root search with Sequential Halving (on) or PUCT (off)"
    ),
    crate::whole_option!(
        "considered",
        considered,
        1,
        1_000_000,
        "Gumbel: the most root actions considered (m)"
    ),
    crate::number_option!(
        "gumbel-scale",
        gumbel_scale,
        0.0,
        10.0,
        "Gumbel: the scale of the Gumbel noise on the root's logits (0: deterministic)"
    ),
    crate::number_option!(
        "c-visit",
        c_visit,
        0.0,
        1e6,
        "Gumbel: c_visit of the transform sigma(q) = (c_visit + max visits) * c_scale * q"
    ),
    crate::number_option!(
        "c-scale",
        c_scale,
        0.0,
        1e3,
        "Gumbel: c_scale of the same transform"
    ),
    crate::number_option!(
        "c-init",
        c_init,
        0.0,
        1e3,
        "PUCT: the exploration weight c_init"
    ),
    crate::number_option!(
        "c-base",
        c_base,
        1.0,
        1e12,
        "PUCT: the visits c_base over which the exploration weight grows by one"
    ),
    crate::field_option!(
        "fpu",
        first_play,
        Kind::Optional(&Kind::Number { min: -1.0, max: 1.0 }, "parent"),
        "PUCT: the value from -1 to 1 of a child never visited, or `parent` for its parent's mean";
        optional Value::Number, number
    ),
    crate::number_option!(
        "noise",
        noise,
        0.0,
        1.0,
        "PUCT: the share of Dirichlet noise mixed into the root's priors (0: none)"
    ),
    crate::number_option!(
        "dirichlet",
        dirichlet,
        1e-3,
        100.0,
        "PUCT: the concentration alpha of the root's Dirichlet noise"
    ),
    crate::number_option!(
        "temp",
        temperature,
        0.0,
        100.0,
        "PUCT: the temperature of the move drawn from the root's visits (0: the most visited)"
    ),
    crate::field_option!(
        "temp-plies",
        temperature_plies,
        Kind::Optional(&Kind::Whole { min: 0, max: u32::MAX as u64 }, "all"),
        "PUCT: the plies from the game's start whose moves are drawn with the temperature (`all`: every ply)";
        optional Value::from_whole, whole_as
    ),
    crate::whole_option!(
        "leaves",
        leaves,
        1,
        MAX_LEAVES_PER_ROUND,
        "leaves per tree per evaluator call, kept apart by virtual losses"
    ),
    crate::number_option!(
        "eval-mix",
        eval_mix,
        0.0,
        1.0,
        "the weight of the game's own evaluation in a leaf's value, blended with the evaluator's (0: the evaluator's alone)"
    ),
    crate::threads_option!(
        "threads",
        threads,
        "threads for the trees' descents and the evaluators that share out work"
    ),
];

crate::core::declared_configuration!(GuidedConfig, "az options", OPTIONS);

#[cfg(test)]
mod test_games;
#[cfg(test)]
mod tests;
