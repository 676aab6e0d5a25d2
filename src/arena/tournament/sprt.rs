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

use super::pairs::PairScoring;
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

/// Where a match's test ended, as `norn match` prints it and the match's
/// `summary.json` and `report.md` keep it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtResult {
    /// The test's hypotheses and error rates.
    pub sprt: Sprt,
    /// Where the test stood when the match stopped: H1 accepted, H0
    /// accepted, or [`SprtDecision::Continue`] (`continue`) when it stopped
    /// undecided (out of pairs, repeating, or interrupted).
    pub decision: SprtDecision,
    /// The log-likelihood ratio of H1 against H0 over the counted pairs.
    pub llr: f64,
    /// The bound at or below which the test accepts H0.
    pub llr_lower: f64,
    /// The bound at or above which the test accepts H1.
    pub llr_upper: f64,
    /// Games played, repeats included.
    pub games: usize,
    /// Colour-swapped pairs the test counted.
    pub pairs: u64,
    /// Pairs not counted because their two games repeat an earlier pair's
    /// (the same opening and moves): a repeat is no new evidence.
    pub repeated_pairs: u64,
    /// Whether the match stopped undecided because a whole cycle of the
    /// openings ([`crate::arena::Openings::cycle`]) brought only repeated pairs:
    /// deterministic agents have nothing more to show from these openings.
    pub stopped_repeating: bool,
    /// Pairs in which the tested agent scored 0, 0.5, 1, 1.5 and 2 points
    /// by the results of their games.
    pub pentanomial: [u64; 5],
    /// How the test, the Elo and its interval score a pair: by its games'
    /// results (the `pentanomial` counts), or for a game scored by margin
    /// by the margin summed over both games (the `pairs_by_margin` counts).
    pub pair_scoring: PairScoring,
    /// For a game scored by margin: the pairs the tested agent lost, drew
    /// and won by summed margin, which the test reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs_by_margin: Option<[u64; 3]>,
    /// Elo of the tested agent over the baseline from the counted pairs as
    /// `pair_scoring` scores them ([`PairOutcomes::elo_estimate`]).
    pub elo: f64,
    /// The lower end of `elo`'s 95% interval (`null` when unbounded).
    pub elo_low: f64,
    /// The upper end of `elo`'s 95% interval (`null` when unbounded).
    pub elo_high: f64,
}

impl SprtResult {
    /// The verdict in words, e.g. `H1 accepted (Elo difference at least +10)`.
    pub fn verdict(&self) -> String {
        match self.decision {
            SprtDecision::AcceptH1 => {
                format!("H1 accepted (Elo difference at least {:+})", self.sprt.elo1)
            }
            SprtDecision::AcceptH0 => {
                format!("H0 accepted (Elo difference at most {:+})", self.sprt.elo0)
            }
            SprtDecision::Continue => "undecided".to_string(),
        }
    }
}

/// Counts of colour-swapped pairs by their score, each pair one sample:
/// entry `k` of `K` counts the pairs that scored `k / (K - 1)` per game, so
/// the outcomes are evenly spaced from 0 (the pair lost) to 1 (the pair
/// won). [`Pentanomial`] scores each game of a pair by its result,
/// [`Trinomial`] the pair as a whole (by its summed margin, for games scored
/// by margin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairOutcomes<const K: usize> {
    /// Entry `k`: the pairs that scored `k / (K - 1)` per game.
    pub counts: [u64; K],
}

/// Pairs by the tested agent's points over their two games: 0, 0.5, 1, 1.5
/// or 2 (entry `k`: `k / 2` points, `k / 4` per game).
pub type Pentanomial = PairOutcomes<5>;

/// Pairs lost, drawn and won as a whole (entries 0, 1, 2: a score of 0,
/// 1/2 and 1 per pair).
pub type Trinomial = PairOutcomes<3>;

impl<const K: usize> Default for PairOutcomes<K> {
    fn default() -> Self {
        PairOutcomes { counts: [0; K] }
    }
}

impl<const K: usize> Serialize for PairOutcomes<K> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.counts)
    }
}

impl Pentanomial {
    /// Records a pair in which the tested agent scored `points` (0 to 2, in halves).
    pub fn add_pair(&mut self, points: f64) {
        self.add_score(points / 2.0);
    }
}

impl<const K: usize> PairOutcomes<K> {
    /// The score per game of outcome `k`.
    fn outcome_score(k: usize) -> f64 {
        k as f64 / (K - 1) as f64
    }

    /// Records a pair that scored `score` per game (0 to 1, rounded to the
    /// nearest outcome).
    pub fn add_score(&mut self, score: f64) {
        let last = (K - 1) as f64;
        let bucket = (score * last).round().clamp(0.0, last) as usize;
        self.counts[bucket] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The mean and variance of a pair's score per game over `weights` per
    /// outcome (which need not be whole numbers).
    fn weighted_mean_and_variance(weights: &[f64; K]) -> (f64, f64) {
        let total: f64 = weights.iter().sum();
        let mean = (0..K)
            .map(|k| weights[k] * Self::outcome_score(k))
            .sum::<f64>()
            / total;
        let variance = (0..K)
            .map(|k| weights[k] * (Self::outcome_score(k) - mean).powi(2))
            .sum::<f64>()
            / total;
        (mean, variance)
    }

    /// Mean score per game and the variance of a pair's score, as the
    /// test reads them. One pseudo-pair spread evenly over the outcomes
    /// (`1 / K` of a pair on each) keeps the variance of a short one-sided
    /// record from collapsing to zero, which would make the first pair decide
    /// the test; its pull on the mean fades as pairs accumulate.
    fn mean_and_variance(&self) -> (f64, f64) {
        let pseudo_pair_share = 1.0 / K as f64;
        Self::weighted_mean_and_variance(&self.counts.map(|c| c as f64 + pseudo_pair_share))
    }

    /// The mean score per game over the pairs and the variance of one
    /// pair's score per game, each pair one sample: the statistics of
    /// colour-swapped pairs, which count the two games of a pair together
    /// because they are not independent (they share a seed and an opening,
    /// and each agent plays each side once). `None` before any pair. Unlike
    /// the test's statistics, nothing is added to the counts.
    pub fn score_and_variance(&self) -> Option<(f64, f64)> {
        if self.pairs() == 0 {
            return None;
        }
        Some(Self::weighted_mean_and_variance(
            &self.counts.map(|c| c as f64),
        ))
    }

    /// The Elo difference with its 95% interval, `(elo, low, high)`: the mean
    /// score per game converted to Elo, and the ends of
    /// `mean ± 1.96 sqrt(variance / pairs)` ([`Self::score_and_variance`])
    /// converted the same way. A score of 0 or 1, or an end beyond it, is an
    /// unbounded Elo difference (an infinity, never clipped). When every pair
    /// scored the same, the variance is 0, which would claim a certainty that
    /// a few pairs cannot give (a zero-width interval); the variance then
    /// comes from the counts with the test's pseudo-pair added (`1 / K` of
    /// a pair on each outcome), the mean staying the pairs' own. Before any
    /// pair nothing is known: `(0, -inf, +inf)`.
    pub fn elo_estimate(&self) -> (f64, f64, f64) {
        let Some((mean, variance)) = self.score_and_variance() else {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        };
        let variance = if variance == 0.0 {
            self.mean_and_variance().1
        } else {
            variance
        };
        let half_width = Z_95 * (variance / self.pairs() as f64).sqrt();
        (
            elo_of(mean),
            elo_of(mean - half_width),
            elo_of(mean + half_width),
        )
    }
}

/// The Elo difference of a mean score per game, unbounded (an infinity) at
/// or beyond 0 and 1.
fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // Adding zero turns the -0 of an even score into 0.
        elo_from_score(score) + 0.0
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
    pub fn llr<const K: usize>(&self, pairs: &PairOutcomes<K>) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let (mean, variance) = pairs.mean_and_variance();
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        pairs.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The decision for the pairs so far.
    pub fn decide<const K: usize>(&self, pairs: &PairOutcomes<K>) -> SprtDecision {
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

    fn pairs_of(points: &[f64]) -> Pentanomial {
        let mut pairs = Pentanomial::default();
        for &total in points {
            pairs.add_pair(total);
        }
        pairs
    }

    fn assert_near(actual: f64, expected: f64) {
        assert!(
            (actual - expected).abs() < 0.01,
            "{actual} is not {expected}"
        );
    }

    #[test]
    fn pentanomial_intervals_match_hand_computed_ones() {
        // Eight pairs scoring 2, 1.5, 1, 1, 0.5, 1.5, 1, 2 points: per game
        // 1, .75, .5, .5, .25, .75, .5, 1, a mean of 5.25 / 8 = 0.65625.
        // Squared deviations: 2 x 0.34375^2 + 2 x 0.09375^2 + 3 x 0.15625^2
        // + 0.40625^2 = 0.236328125 + 0.017578125 + 0.0732421875
        // + 0.1650390625 = 0.4921875, so the variance of a pair's mean is
        // 0.4921875 / 8 = 0.0615234375 and that of the mean of eight pairs
        // 0.0076904296875, a standard error of 0.0876951. The 95% interval
        // of the score is 0.65625 -+ 1.959964 x 0.0876951 = [0.4843708,
        // 0.8281292]; in Elo, 400 log10(s / (1 - s)): +112.33 [-10.86, +273.16].
        let pairs = pairs_of(&[2.0, 1.5, 1.0, 1.0, 0.5, 1.5, 1.0, 2.0]);
        let (mean, variance) = pairs.score_and_variance().unwrap();
        assert_eq!((mean, variance), (0.65625, 0.0615234375));
        let (elo, low, high) = pairs.elo_estimate();
        assert_near(elo, 112.33);
        assert_near(low, -10.86);
        assert_near(high, 273.16);

        // Three pairs of 2 points and one of 1.5: per game 1, 1, 1, .75,
        // mean 0.9375; deviations 3 x 0.0625^2 + 0.1875^2 = 0.046875,
        // variance 0.01171875, of the mean 0.0029296875, standard error
        // 0.0541266, half-width 0.1060862. The score's interval [0.8314138,
        // 1.0435862] reaches past 1: its upper end is unbounded, not a
        // clipped figure. 0.9375 is 400 log10(15) = +470.44 Elo, the lower
        // end 400 log10(0.8314138 / 0.1685862) = +277.20.
        let (elo, low, high) = pairs_of(&[2.0, 2.0, 2.0, 1.5]).elo_estimate();
        assert_near(elo, 470.44);
        assert_near(low, 277.20);
        assert_eq!(high, f64::INFINITY);

        // One pair of 0 and one of 0.5 points: per game 0 and 0.25, mean
        // 0.125, variance 0.015625, of the mean 0.0078125, half-width
        // 1.959964 x 0.0883883 = 0.1732380: [-0.0482380, 0.2982380], so the
        // lower end is unbounded and the upper 400 log10(0.298238 / 0.701762)
        // = -148.65; the estimate is 400 log10(1 / 7) = -338.04.
        let (elo, low, high) = pairs_of(&[0.0, 0.5]).elo_estimate();
        assert_near(elo, -338.04);
        assert_eq!(low, f64::NEG_INFINITY);
        assert_near(high, -148.65);
    }

    #[test]
    fn the_llr_matches_a_hand_computed_one() {
        // Two pairs, of 2 points and of 1, with the pseudo-pair's 0.2 in
        // each of the five outcomes: weights 0.2, 0.2, 1.2, 0.2, 1.2 (3 in
        // all) on scores 0, 0.25, 0.5, 0.75, 1 per game. Mean (0.05 + 0.6 +
        // 0.15 + 1.2) / 3 = 2/3; variance (0.2 x 4/9 + 0.2 x 25/144
        // + 1.2 x 1/36 + 0.2 x 1/144 + 1.2 x 1/9) / 3 = 0.0972222. With
        // H0 at 0 Elo (s0 = 0.5) and H1 at +20 (s1 = 1 / (1 + 10^-0.05) =
        // 0.5287506): LLR = 2 x 0.0287506 x (4/3 - 1.0287506)
        // / (2 x 0.0972222) = 0.090071.
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let llr = sprt.llr(&pairs_of(&[2.0, 1.0]));
        assert!((llr - 0.090071).abs() < 1e-6, "{llr}");
    }

    #[test]
    fn pairs_scored_as_a_whole_have_trinomial_statistics() {
        // One pair lost, two drawn, five won (scores 0, 1/2, 1 per pair):
        // mean 6 / 8 = 0.75, variance (0.75^2 + 2 x 0.25^2 + 5 x 0.25^2) / 8
        // = 0.125, of the mean of eight 0.015625, standard error 0.125,
        // half-width 0.2449955: [0.5050045, 0.9949955]. In Elo: 400 log10(3)
        // = +190.85 [+3.48, +919.38].
        let mut pairs = Trinomial::default();
        for score in [0.0, 0.5, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0] {
            pairs.add_score(score);
        }
        assert_eq!(pairs.counts, [1, 2, 5]);
        assert_eq!(pairs.score_and_variance(), Some((0.75, 0.125)));
        let (elo, low, high) = pairs.elo_estimate();
        assert_near(elo, 190.85);
        assert_near(low, 3.48);
        assert_near(high, 919.38);
        // The test's pseudo-pair is a third of a pair on each outcome:
        // weights 4/3, 7/3, 16/3 (9 in all), mean 6.5 / 9 = 0.7222222,
        // variance (4/3 x 0.7222^2 + 7/3 x 0.2222^2 + 16/3 x 0.2778^2) / 9
        // = 0.1358025; with H0 at 0 and H1 at +20 Elo (s1 = 0.5287506):
        // LLR = 8 x 0.0287506 x (1.4444444 - 1.0287506) / (2 x 0.1358025)
        // = 0.352024.
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!((sprt.llr(&pairs) - 0.352024).abs() < 1e-6);
    }

    #[test]
    fn pairs_that_all_score_alike_take_the_variance_of_the_pseudo_pair() {
        // Every pair split 1-1: the mean is 1/2 (0 Elo) and the variance 0.
        // With the pseudo-pair the weights are 0.2, 0.2, 4.2, 0.2, 0.2 (5 in
        // all), mean 2.5 / 5 = 0.5, variance (2 x 0.2 x 0.25 + 2 x 0.2 x
        // 0.0625) / 5 = 0.025; of the mean of four pairs 0.00625, standard
        // error 0.0790569, half-width 0.1549488: [0.3450512, 0.6549488],
        // -+111.33 Elo.
        let (elo, low, high) = pairs_of(&[1.0; 4]).elo_estimate();
        assert_eq!(elo, 0.0);
        assert_near(low, -111.33);
        assert_near(high, 111.33);
        // Six pairs of 2 points: the estimate is unbounded, not +2400. The
        // pseudo-pair's weights 0.2, 0.2, 0.2, 0.2, 6.2 (7 in all) have mean
        // 6.5 / 7 = 0.9285714 and variance 0.0484694; of the mean of six
        // pairs 0.0080782, standard error 0.0898790, half-width 0.1761596,
        // so the score is at least 1 - 0.1761596 = 0.8238404: +267.97 Elo.
        let (elo, low, high) = pairs_of(&[2.0; 6]).elo_estimate();
        assert_eq!((elo, high), (f64::INFINITY, f64::INFINITY));
        assert_near(low, 267.97);
        assert_eq!(Pentanomial::default().score_and_variance(), None);
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
