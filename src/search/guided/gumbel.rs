//! The pieces of Gumbel search, each a small function over one node's
//! children (as mctx writes them): Sequential Halving's schedule, the
//! completed Q-values, the σ transform and the improved policy.

use crate::core::GameRng;
use rand::RngExt;

/// Sequential Halving's schedule for `considered` root actions and
/// `simulations` simulations: entry `i` is the visit count that the root
/// action chosen at simulation `i` must have. The budget is split into
/// `ceil(log2 considered)` phases; a phase with `k` actions left gives each
/// `max(1, floor(simulations / (ceil(log2 considered) * k)))` visits, one
/// round after another, then keeps the better half (at least two). Budget
/// left after the last phase goes on in phases of two actions, as mctx
/// does, and the schedule is cut at `simulations`. With one action the
/// schedule is `0, 1, 2, ...`.
pub fn considered_visits(considered: u32, simulations: u32) -> Vec<u32> {
    let simulations = simulations as usize;
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let phases = f64::from(considered).log2().ceil() as usize;
    let mut schedule = Vec::with_capacity(simulations + considered as usize);
    let mut visits = 0u32;
    let mut left = considered as usize;
    while schedule.len() < simulations {
        let rounds = (simulations / (phases * left)).max(1);
        for _ in 0..rounds {
            schedule.extend(std::iter::repeat_n(visits, left));
            visits += 1;
        }
        left = (left / 2).max(2);
    }
    schedule.truncate(simulations);
    schedule
}

/// `softmax(values)`, with no overflow for large values.
pub(super) fn softmax(values: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(values.len());
    softmax_into(values.iter().copied(), &mut out);
    out
}

/// `softmax` of `values`, written into `out` (a descent reuses its room
/// from node to node).
pub(super) fn softmax_into(values: impl Iterator<Item = f64>, out: &mut Vec<f64>) {
    out.clear();
    out.extend(values);
    let total = exponentiate_in_place(out);
    for value in out.iter_mut() {
        *value /= total;
    }
}

/// Replaces each of `values` by `exp(value - max)` and returns their sum:
/// `softmax` but for the division by the sum.
pub(super) fn exponentiate_in_place(values: &mut [f64]) -> f64 {
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // Runs of equal values are common (uniform priors, and the children
    // never visited, which share one completed Q-value): a run takes one
    // `exp`, the same number each of its values would have. (A loop that
    // kept the last `exp` and compared would have the call speculated,
    // made for every value.)
    let mut start = 0;
    while let Some(&first) = values.get(start) {
        let shifted = first - top;
        let run = values[start..]
            .iter()
            .take_while(|&&value| value - top == shifted)
            .count()
            .max(1);
        values[start..start + run].fill(shifted.exp());
        start += run;
    }
    values.iter().sum()
}

/// The completed Q-values of a node's children: a visited child's mean
/// value `q`, and for a child never visited the node's mixed value, the
/// node's own value `raw` blended with the visited children's values
/// weighted by their prior probabilities (`softmax(logits)`), as if the
/// node's visits had gone to them:
/// `(raw + Σ N * (Σ_visited π q / Σ_visited π)) / (1 + Σ N)`.
pub(super) fn completed_q(raw: f64, logits: &[f64], visits: &[u32], q: &[f64]) -> Vec<f64> {
    let mut completed = Vec::with_capacity(q.len());
    completed_q_with_priors(raw, &softmax(logits), visits, q, &mut completed);
    completed
}

/// [`completed_q`] of the children whose priors, `softmax(logits)`, are
/// `priors`, written into `out`.
pub(super) fn completed_q_with_priors(
    raw: f64,
    priors: &[f64],
    visits: &[u32],
    q: &[f64],
    out: &mut Vec<f64>,
) {
    let total_visits: f64 = visits.iter().map(|&n| f64::from(n)).sum();
    let (mut weighted, mut mass) = (0.0, 0.0);
    // Only the visited children's priors are read: below the root they
    // are few, and the others' need not be fetched.
    for (index, (&n, &value)) in visits.iter().zip(q).enumerate() {
        if n > 0 {
            // A prior too small to count still weighs its child.
            let prior = priors[index].max(f64::MIN_POSITIVE);
            weighted += prior * value;
            mass += prior;
        }
    }
    let mixed = if mass > 0.0 {
        (raw + total_visits * weighted / mass) / (1.0 + total_visits)
    } else {
        raw
    };
    out.clear();
    out.extend(
        visits
            .iter()
            .zip(q)
            .map(|(&n, &value)| if n > 0 { value } else { mixed }),
    );
}

/// The least spread of completed Q-values that σ divides by (equal values
/// give zeros, not a division by zero).
pub(super) const SIGMA_EPSILON: f64 = 1e-8;

/// `σ(q̂) = (c_visit + max N) * c_scale * q̂` of completed Q-values,
/// rescaled first to `[0, 1]` by the node's smallest and largest (all zero
/// when they are equal).
pub(super) fn sigma(completed: &[f64], visits: &[u32], c_visit: f64, c_scale: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(completed.len());
    sigma_into(completed, visits, c_visit, c_scale, &mut out);
    out
}

/// [`sigma`] written into `out`.
pub(super) fn sigma_into(
    completed: &[f64],
    visits: &[u32],
    c_visit: f64,
    c_scale: f64,
    out: &mut Vec<f64>,
) {
    let low = completed.iter().copied().fold(f64::INFINITY, f64::min);
    let high = completed.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let most_visits = f64::from(visits.iter().copied().max().unwrap_or(0));
    let weight = (c_visit + most_visits) * c_scale;
    out.clear();
    out.extend(
        completed
            .iter()
            .map(|value| weight * (value - low) / (high - low).max(SIGMA_EPSILON)),
    );
}

/// The improved policy `softmax(logits + σ(q̂))`.
pub(super) fn improved_policy(logits: &[f64], sigmas: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(logits.len());
    softmax_into(logits.iter().zip(sigmas).map(|(l, s)| l + s), &mut out);
    out
}

/// The index of the largest of `probabilities[i] - visits[i] / (1 + Σ
/// visits)`, the first of equals: the child whose share of the visits
/// lags most behind the policy, the deterministic choice below a Gumbel
/// root and at chance nodes.
pub(super) fn most_lacking(probabilities: &[f64], visits: &[u32]) -> usize {
    let total = 1.0 + visits.iter().map(|&n| f64::from(n)).sum::<f64>();
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (index, (&probability, &n)) in probabilities.iter().zip(visits).enumerate() {
        let score = probability - f64::from(n) / total;
        if score > best_score {
            best_score = score;
            best = index;
        }
    }
    best
}

/// A draw of the standard Gumbel distribution, `-ln(-ln U)`.
pub(super) fn gumbel(rng: &mut GameRng) -> f64 {
    // U in (0, 1): never 0, whose logarithm is infinite.
    let uniform: f64 = 1.0 - rng.random::<f64>();
    -(-uniform.ln()).ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;

    #[test]
    fn a_visited_child_keeps_its_value_and_the_others_take_the_mixed_one() {
        // Priors 0.5, 0.25, 0.25 (logits ln 2, 0, 0); children 0 and 1
        // visited 3 and 1 times with values 0.2 and -0.4; raw value 0.6.
        // Weighted: (0.5 * 0.2 + 0.25 * -0.4) / 0.75 = 0; mixed: (0.6 + 4
        // * 0) / 5 = 0.12.
        let logits = [2f64.ln(), 0.0, 0.0];
        let completed = completed_q(0.6, &logits, &[3, 1, 0], &[0.2, -0.4, 0.0]);
        for (value, expected) in completed.iter().zip([0.2, -0.4, 0.12]) {
            assert!((value - expected).abs() < 1e-12, "{completed:?}");
        }
        // Nothing visited: the raw value.
        assert_eq!(completed_q(0.6, &logits, &[0, 0, 0], &[0.0; 3]), [0.6; 3]);
    }

    #[test]
    fn sigma_rescales_to_the_unit_range_and_weighs_by_the_visits() {
        // Values -1, 0, 1 rescale to 0, 0.5, 1; weight (50 + 4) * 0.1.
        let sigmas = sigma(&[-1.0, 0.0, 1.0], &[4, 2, 0], 50.0, 0.1);
        for (value, expected) in sigmas.iter().zip([0.0, 2.7, 5.4]) {
            assert!((value - expected).abs() < 1e-12, "{sigmas:?}");
        }
        assert_eq!(sigma(&[0.3, 0.3], &[1, 1], 50.0, 0.1), [0.0, 0.0]);
    }

    #[test]
    fn the_choice_below_the_root_follows_the_policy_deterministically() {
        let policy = [0.5, 0.3, 0.2];
        let mut visits = [0u32; 3];
        for _ in 0..100 {
            visits[most_lacking(&policy, &visits)] += 1;
        }
        assert_eq!(visits, [50, 30, 20]);
    }

    #[test]
    fn gumbel_draws_have_the_distributions_mean() {
        // The standard Gumbel distribution's mean is the Euler-Mascheroni
        // constant, 0.5772; its standard deviation pi / sqrt(6) = 1.28, so
        // the mean of 20,000 draws is within 0.04 of it with a margin of
        // four deviations.
        let mut rng = rng_from_seed(5);
        let mean = (0..20_000).map(|_| gumbel(&mut rng)).sum::<f64>() / 20_000.0;
        assert!((mean - 0.577_215_7).abs() < 0.04, "{mean}");
    }
}
