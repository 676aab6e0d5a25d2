//! Regret matching on a whole matrix game, plain and plus: the iterative
//! alternative to the simplex of [`MatrixGame::solve`], with no linear
//! algebra and no randomness.

use super::{MatrixError, MatrixGame, MatrixSolution, dot, to_distribution};

/// Regret matching on the whole matrix for `iterations` iterations, from
/// uniform strategies: each iteration, each player mixes its choices in
/// proportion to its positive cumulative regrets (uniformly if none is
/// positive), and both regrets are updated against the other's mix. The
/// solution holds the average strategies and the payoff of one against the
/// other.
///
/// The exploitability of the average strategies is at most
/// `spread * (sqrt(rows) + sqrt(cols)) / sqrt(iterations)` (Hart and
/// Mas-Colell's regret bound, `spread` the largest payoff minus the least):
/// it falls like `1 / sqrt(T)`.
pub fn regret_matching(game: &MatrixGame, iterations: u64) -> Result<MatrixSolution, MatrixError> {
    RegretMatcher::new(game, RegretVariant::Plain).run(iterations)
}

/// Regret matching+: cumulative regrets are floored at zero after every
/// update, and iteration `t` weighs `t` in the average strategies. Its
/// worst-case bound is the same `O(1 / sqrt(T))` as [`regret_matching`], but
/// it usually converges much faster (on the random games of the tests, about
/// `1 / T`).
pub fn regret_matching_plus(
    game: &MatrixGame,
    iterations: u64,
) -> Result<MatrixSolution, MatrixError> {
    RegretMatcher::new(game, RegretVariant::Plus).run(iterations)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RegretVariant {
    Plain,
    Plus,
}

/// One player's side of regret matching.
struct RegretLearner {
    /// The cumulative regret of each choice (floored at zero in `Plus`).
    regrets: Vec<f64>,
    /// The current mixed strategy.
    strategy: Vec<f64>,
    /// The weighted sum of the strategies played.
    strategy_sum: Vec<f64>,
    /// The expected payoff of each choice against the other's current mix.
    payoffs: Vec<f64>,
}

impl RegretLearner {
    fn new(choices: usize) -> RegretLearner {
        RegretLearner {
            regrets: vec![0.0; choices],
            strategy: vec![1.0 / choices as f64; choices],
            strategy_sum: vec![0.0; choices],
            payoffs: vec![0.0; choices],
        }
    }

    /// Adds each choice's regret for having played the current strategy,
    /// `sign * (payoff of the choice - expected)`, where `sign` is 1 for the
    /// maximising player and -1 for the minimising one.
    fn add_regrets(&mut self, expected: f64, sign: f64, variant: RegretVariant) {
        for (regret, &payoff) in self.regrets.iter_mut().zip(&self.payoffs) {
            *regret += sign * (payoff - expected);
            if variant == RegretVariant::Plus {
                *regret = regret.max(0.0);
            }
        }
    }

    /// Adds the current strategy to the average with `weight`, then moves to
    /// the strategy proportional to the positive regrets.
    fn update_strategy(&mut self, weight: f64) {
        for (sum, &p) in self.strategy_sum.iter_mut().zip(&self.strategy) {
            *sum += weight * p;
        }
        let positive: f64 = self.regrets.iter().map(|r| r.max(0.0)).sum();
        if positive > 0.0 {
            for (p, &regret) in self.strategy.iter_mut().zip(&self.regrets) {
                *p = regret.max(0.0) / positive;
            }
        } else {
            self.strategy.fill(1.0 / self.regrets.len() as f64);
        }
    }
}

struct RegretMatcher<'a> {
    game: &'a MatrixGame,
    variant: RegretVariant,
    row: RegretLearner,
    col: RegretLearner,
}

impl RegretMatcher<'_> {
    fn new(game: &MatrixGame, variant: RegretVariant) -> RegretMatcher<'_> {
        RegretMatcher {
            game,
            variant,
            row: RegretLearner::new(game.rows),
            col: RegretLearner::new(game.cols),
        }
    }

    fn run(mut self, iterations: u64) -> Result<MatrixSolution, MatrixError> {
        if iterations == 0 {
            return Err(MatrixError::NoIterations);
        }
        for iteration in 1..=iterations {
            self.game
                .row_payoffs(&self.col.strategy, &mut self.row.payoffs);
            self.game
                .col_payoffs(&self.row.strategy, &mut self.col.payoffs);
            let expected = dot(&self.row.strategy, &self.row.payoffs);
            self.row.add_regrets(expected, 1.0, self.variant);
            self.col.add_regrets(expected, -1.0, self.variant);
            let weight = match self.variant {
                RegretVariant::Plain => 1.0,
                RegretVariant::Plus => iteration as f64,
            };
            self.row.update_strategy(weight);
            self.col.update_strategy(weight);
        }
        let row_strategy = to_distribution(self.row.strategy_sum);
        let col_strategy = to_distribution(self.col.strategy_sum);
        let mut row_payoffs = vec![0.0; self.game.rows];
        self.game.row_payoffs(&col_strategy, &mut row_payoffs);
        Ok(MatrixSolution {
            value: dot(&row_strategy, &row_payoffs),
            row_strategy,
            col_strategy,
        })
    }
}
