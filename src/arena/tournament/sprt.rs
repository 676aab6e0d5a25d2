//! The sequential probability ratio test that engine testers use to decide,
//! with as few games as possible, whether a change gains Elo.
//!
//! Games are played in colour-swapped pairs, and each pair's score (0, 0.25,
//! ..., 1 per game on average: the pentanomial model) is one observation, which
//! removes most of the first-move advantage from the variance. The
//! log-likelihood ratio of H1 (Elo difference `elo1`) against H0 (`elo0`) uses
//! the usual normal approximation of the generalised SPRT:
//! LLR = N (s1 - s0) (2 mean - s0 - s1) / (2 variance), with `s` the expected
//! score at each hypothesis' Elo difference. The test stops when the LLR leaves
//! [ln(beta / (1 - alpha)), ln((1 - beta) / alpha)].

use super::ratings::{Z_95, elo_from_score, expected_score};
use serde::{Deserialize, Serialize};

/// The hypotheses and error rates of a test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// H0's Elo difference of the tested agent over the baseline (e.g. 0:
    /// no gain).
    pub elo0: f64,
    /// H1's Elo difference, larger than `elo0` (e.g. 5: the gain sought).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds (a false positive).
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds (a false negative).
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtDecision {
    /// H1 accepted: the Elo difference is at least `elo1`.
    AcceptH1,
    /// H0 accepted: the Elo difference is at most `elo0`.
    AcceptH0,
    /// Not decided yet.
    Continue,
}

/// Counts of pair scores: how many pairs scored 0, 0.5, 1, 1.5 and 2 points
/// (the tested agent's total over the two games of a pair).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Pentanomial {
    /// Entry `k`: the pairs in which the tested agent scored `k / 2` points.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Records a pair in which the tested agent scored `points` (0 to 2, in halves).
    pub fn add_pair(&mut self, points: f64) {
        let bucket = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[bucket] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Mean score per game and the variance of a pair's mean score. One
    /// pseudo-pair spread evenly over the five outcomes keeps the variance of
    /// a short one-sided record from collapsing to zero, which would make the
    /// first pair decide the test; its pull on the mean fades as pairs accumulate.
    fn mean_and_variance(&self) -> (f64, f64) {
        const PSEUDO_PAIR_SHARE: f64 = 0.2;
        let weights: Vec<f64> = self
            .counts
            .iter()
            .map(|&c| c as f64 + PSEUDO_PAIR_SHARE)
            .collect();
        let total: f64 = weights.iter().sum();
        let score = |bucket: usize| bucket as f64 / 4.0;
        let mean = (0..5).map(|k| weights[k] * score(k)).sum::<f64>() / total;
        let variance = (0..5)
            .map(|k| weights[k] * (score(k) - mean).powi(2))
            .sum::<f64>()
            / total;
        (mean, variance)
    }

    /// The estimated Elo difference with its 95% interval.
    pub fn elo_estimate(&self) -> (f64, f64, f64) {
        let (mean, variance) = self.mean_and_variance();
        let half_width = Z_95 * (variance / self.pairs().max(1) as f64).sqrt();
        let clamp = |score: f64| score.clamp(1e-6, 1.0 - 1e-6);
        (
            elo_from_score(clamp(mean)),
            elo_from_score(clamp(mean - half_width)),
            elo_from_score(clamp(mean + half_width)),
        )
    }
}

impl Sprt {
    /// The (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pairs so far.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let (mean, variance) = pairs.mean_and_variance();
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        pairs.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The decision for the pairs so far.
    pub fn decide(&self, pairs: &Pentanomial) -> SprtDecision {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// Checks that the hypotheses and error rates make a test.
    pub fn validate(&self) -> Result<(), String> {
        if self.elo0.partial_cmp(&self.elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!(
                "the SPRT needs elo0 < elo1, got {} and {}",
                self.elo0, self.elo1
            ));
        }
        for (name, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(format!("{name} must be between 0 and 0.5, got {value}"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;
    use rand::RngExt;

    /// Runs one test on simulated pairs whose games are won with probability
    /// `win` and drawn with probability `draw`, up to `max_pairs` pairs.
    fn simulate(sprt: &Sprt, win: f64, draw: f64, seed: u64, max_pairs: usize) -> SprtDecision {
        let mut rng = rng_from_seed(seed);
        let mut pairs = Pentanomial::default();
        let game = |rng: &mut crate::core::GameRng| {
            let roll: f64 = rng.random();
            if roll < win {
                1.0
            } else if roll < win + draw {
                0.5
            } else {
                0.0
            }
        };
        for _ in 0..max_pairs {
            let points = game(&mut rng) + game(&mut rng);
            pairs.add_pair(points);
            match sprt.decide(&pairs) {
                SprtDecision::Continue => {}
                decided => return decided,
            }
        }
        SprtDecision::Continue
    }

    /// Win probability giving an expected score for `elo` with 30% draws.
    fn win_probability(elo: f64) -> f64 {
        expected_score(elo) - 0.15
    }

    #[test]
    fn a_clearly_stronger_agent_is_accepted_and_a_weaker_one_rejected() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let trials = 40;
        let stronger = (0..trials)
            .filter(|&seed| {
                simulate(&sprt, win_probability(40.0), 0.3, seed, 50_000) == SprtDecision::AcceptH1
            })
            .count();
        let weaker = (0..trials)
            .filter(|&seed| {
                simulate(&sprt, win_probability(-20.0), 0.3, 1000 + seed, 50_000)
                    == SprtDecision::AcceptH0
            })
            .count();
        // The error rates are 5%; allow a little more for chance.
        assert!(stronger >= 35, "H1 accepted in only {stronger} of {trials}");
        assert!(weaker >= 35, "H0 accepted in only {weaker} of {trials}");
    }

    #[test]
    fn the_bounds_follow_the_error_rates() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        assert!((lower + upper).abs() < 1e-12);
        assert!(Sprt { elo0: 5.0, ..sprt }.validate().is_err());
        assert!(Sprt { alpha: 0.0, ..sprt }.validate().is_err());
    }

    #[test]
    fn the_elo_estimate_brackets_the_score() {
        let mut pairs = Pentanomial::default();
        for points in [2.0, 1.5, 1.0, 1.0, 0.5, 1.5, 1.0, 2.0] {
            pairs.add_pair(points);
        }
        let (elo, low, high) = pairs.elo_estimate();
        assert!(low < elo && elo < high);
        assert!(elo > 0.0, "the agent scored 10.5 of 16");
    }
}
