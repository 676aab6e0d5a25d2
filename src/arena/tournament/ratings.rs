//! Elo ratings from a Bradley-Terry maximum-likelihood fit.
//!
//! Each game between agents `a` and `b` is a Bernoulli trial with
//! P(a beats b) = 1 / (1 + exp(r_b - r_a)); a draw counts as half a win for
//! each. The log-strengths `r` maximise the likelihood of all games with one
//! agent's rating held fixed (the anchor). Intervals come from the observed
//! Fisher information (the inverse of the negated Hessian at the optimum).
//!
//! One virtual draw is added to every pair of agents that met. Without it an
//! agent that won every game would have an infinite rating; with it the fit
//! stays finite and the bias is one game's worth of evidence per pairing.

use std::f64::consts::LN_10;

/// Elo points per unit of natural log-strength.
const ELO_PER_NATURAL_UNIT: f64 = 400.0 / LN_10;
/// The normal quantile of a two-sided 95% interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The fitted ratings: one entry per agent, in Elo, with 95% intervals.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingFit {
    /// Each agent's rating, the anchor's at the rating it was given.
    pub elo: Vec<f64>,
    /// The lower end of each agent's 95% interval.
    pub low: Vec<f64>,
    /// The upper end of each agent's 95% interval.
    pub high: Vec<f64>,
}

/// Fits ratings for `agents` agents from `games`, each `(a, b, score_of_a)`
/// with the score 1, 0.5 or 0. Agent `anchor` gets rating `anchor_elo` exactly
/// (its interval is that single point: every other rating is relative to it).
pub fn fit_ratings(
    agents: usize,
    games: &[(usize, usize, f64)],
    anchor: usize,
    anchor_elo: f64,
) -> RatingFit {
    // Totals per unordered pair: games and the score of the lower index.
    let mut played = vec![vec![0.0; agents]; agents];
    let mut scored = vec![vec![0.0; agents]; agents];
    for &(a, b, score) in games {
        played[a][b] += 1.0;
        played[b][a] += 1.0;
        scored[a][b] += score;
        scored[b][a] += 1.0 - score;
    }
    for a in 0..agents {
        for b in 0..agents {
            if a != b && played[a][b] > 0.0 {
                played[a][b] += 1.0;
                scored[a][b] += 0.5;
            }
        }
    }
    let free: Vec<usize> = (0..agents).filter(|&i| i != anchor).collect();
    let mut strength = vec![0.0; agents];
    let mut covariance = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..200 {
        let (gradient, information) = derivatives(&strength, &played, &scored, &free);
        covariance = invert(&information);
        let step: Vec<f64> = (0..free.len())
            .map(|i| {
                (0..free.len())
                    .map(|j| covariance[i][j] * gradient[j])
                    .sum()
            })
            .collect();
        for (k, &agent) in free.iter().enumerate() {
            strength[agent] += step[k];
        }
        if step.iter().all(|s| s.abs() < 1e-12) {
            break;
        }
    }
    let mut fit = RatingFit {
        elo: vec![anchor_elo; agents],
        low: vec![anchor_elo; agents],
        high: vec![anchor_elo; agents],
    };
    for (k, &agent) in free.iter().enumerate() {
        let elo = anchor_elo + strength[agent] * ELO_PER_NATURAL_UNIT;
        let half_width = Z_95 * covariance[k][k].max(0.0).sqrt() * ELO_PER_NATURAL_UNIT;
        fit.elo[agent] = elo;
        fit.low[agent] = elo - half_width;
        fit.high[agent] = elo + half_width;
    }
    fit
}

/// The gradient of the log-likelihood and the observed information (the
/// negated Hessian) over the free agents.
fn derivatives(
    strength: &[f64],
    played: &[Vec<f64>],
    scored: &[Vec<f64>],
    free: &[usize],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = free.len();
    let mut gradient = vec![0.0; n];
    let mut information = vec![vec![0.0; n]; n];
    let position = |agent: usize| free.iter().position(|&f| f == agent);
    for (i, &a) in free.iter().enumerate() {
        for b in 0..strength.len() {
            if a == b || played[a][b] == 0.0 {
                continue;
            }
            let p = 1.0 / (1.0 + (strength[b] - strength[a]).exp());
            gradient[i] += scored[a][b] - played[a][b] * p;
            let weight = played[a][b] * p * (1.0 - p);
            information[i][i] += weight;
            if let Some(j) = position(b) {
                information[i][j] -= weight;
            }
        }
    }
    (gradient, information)
}

/// The inverse of a symmetric positive-definite matrix by Gauss-Jordan
/// elimination. Agents with no games make it singular; a tiny ridge keeps
/// their (meaningless, very wide) intervals finite instead of failing.
fn invert(matrix: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = matrix.len();
    let mut left: Vec<Vec<f64>> = matrix.to_vec();
    let mut right: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for (i, row) in left.iter_mut().enumerate() {
        row[i] += 1e-9;
    }
    for column in 0..n {
        let pivot = (column..n)
            .max_by(|&x, &y| left[x][column].abs().total_cmp(&left[y][column].abs()))
            .expect("column is within the matrix");
        left.swap(column, pivot);
        right.swap(column, pivot);
        let divisor = left[column][column];
        for value in left[column].iter_mut().chain(right[column].iter_mut()) {
            *value /= divisor;
        }
        for row in 0..n {
            if row != column {
                let factor = left[row][column];
                if factor != 0.0 {
                    for k in 0..n {
                        left[row][k] -= factor * left[column][k];
                        right[row][k] -= factor * right[column][k];
                    }
                }
            }
        }
    }
    right
}

/// The expected score of a player `elo_difference` Elo points stronger.
pub fn expected_score(elo_difference: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo_difference / 400.0))
}

/// The Elo difference that gives an expected score of `score` (0 < score < 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;
    use rand::RngExt;

    /// Games between agents of known strength, with draws.
    fn synthetic_games(
        true_elo: &[f64],
        games_per_pair: usize,
        seed: u64,
    ) -> Vec<(usize, usize, f64)> {
        let mut rng = rng_from_seed(seed);
        let mut games = Vec::new();
        for a in 0..true_elo.len() {
            for b in a + 1..true_elo.len() {
                let expected = expected_score(true_elo[a] - true_elo[b]);
                for _ in 0..games_per_pair {
                    // Draw one game in five; otherwise win with the probability
                    // that keeps the expected score right.
                    let draw_rate = 0.2f64.min(2.0 * expected.min(1.0 - expected));
                    let win = (expected - draw_rate / 2.0) / (1.0 - draw_rate);
                    let score = if rng.random_bool(draw_rate) {
                        0.5
                    } else if rng.random_bool(win) {
                        1.0
                    } else {
                        0.0
                    };
                    games.push((a, b, score));
                }
            }
        }
        games
    }

    #[test]
    fn the_fit_recovers_known_strengths_within_its_intervals() {
        let true_elo = [0.0, 100.0, -150.0, 250.0];
        let mut covered = 0;
        let mut total = 0;
        for seed in 0..20 {
            let fit = fit_ratings(4, &synthetic_games(&true_elo, 400, seed), 0, 0.0);
            for (agent, &truth) in true_elo.iter().enumerate().skip(1) {
                total += 1;
                if (fit.low[agent]..=fit.high[agent]).contains(&truth) {
                    covered += 1;
                }
                assert!((fit.elo[agent] - truth).abs() < 60.0, "{fit:?}");
            }
        }
        // 95% intervals: about 57 of 60 should cover; allow for chance.
        assert!(
            covered >= 50,
            "only {covered} of {total} intervals cover the truth"
        );
    }

    #[test]
    fn the_anchor_fixes_the_scale_and_shifts_everyone() {
        let games = synthetic_games(&[0.0, 200.0, 400.0], 200, 3);
        let at_zero = fit_ratings(3, &games, 0, 0.0);
        let at_thousand = fit_ratings(3, &games, 0, 1000.0);
        let on_middle = fit_ratings(3, &games, 1, 0.0);
        assert_eq!(at_zero.elo[0], 0.0);
        assert_eq!((at_zero.low[0], at_zero.high[0]), (0.0, 0.0));
        assert_eq!(on_middle.elo[1], 0.0);
        for agent in 0..3 {
            assert!((at_thousand.elo[agent] - at_zero.elo[agent] - 1000.0).abs() < 1e-6);
            let relative = on_middle.elo[agent] - on_middle.elo[1];
            assert!((relative - (at_zero.elo[agent] - at_zero.elo[1])).abs() < 1e-6);
        }
    }

    #[test]
    fn a_perfect_score_gives_a_finite_rating() {
        let games: Vec<(usize, usize, f64)> = (0..50).map(|_| (1, 0, 1.0)).collect();
        let fit = fit_ratings(2, &games, 0, 0.0);
        assert!(fit.elo[1].is_finite() && fit.elo[1] > 400.0);
        assert!(fit.low[1] < fit.elo[1] && fit.elo[1] < fit.high[1]);
    }

    #[test]
    fn twelve_wins_in_twelve_games_rate_as_twelve_and_a_half_of_thirteen() {
        // The virtual draw makes the record 12.5 points of 13: the fitted
        // expected score is 12.5 / 13 = 25 / 26, which is 400 log10(25) =
        // +559.18 Elo.
        let games: Vec<(usize, usize, f64)> = (0..12)
            .map(|game| {
                if game % 2 == 0 {
                    (1, 0, 1.0)
                } else {
                    (0, 1, 0.0)
                }
            })
            .collect();
        let fit = fit_ratings(2, &games, 0, 0.0);
        assert!((fit.elo[1] - 559.18).abs() < 0.01, "{fit:?}");
    }

    #[test]
    fn score_and_elo_conversions_are_inverse() {
        for elo in [-400.0, -35.5, 0.0, 120.0] {
            assert!((elo_from_score(expected_score(elo)) - elo).abs() < 1e-9);
        }
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
    }
}
