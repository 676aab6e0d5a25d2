//! Fitting the evaluation's weights to the outcomes of recorded games
//! ("Texel tuning").
//!
//! Every position of a record with a known result, from ply
//! [`TuningOptions::first_ply`] on, becomes a sample labelled with the
//! defenders' result (1 a win, 0 a loss, ½ a draw); positions that are over
//! or that the evaluation judges before its weighted sum are left out, since
//! the weights do not decide them. The model is logistic: the chance that
//! the defenders win is `σ(K · x)`, with `x` the weighted sum of the terms
//! ([`EvaluationTerms::weighted_sum`], the evaluation's own) and
//! `σ(t) = 1 / (1 + e^−t)`.
//!
//! The fit has two steps. First the scale `K` is fitted for the hand-set
//! weights; then, with `K` fixed, the weights that minimise the mean log-loss
//! on the training games. The log-loss is convex in the weights, so Newton's
//! method finds its one minimum in a few steps, with no randomness. Fixing
//! `K` first keeps the tuned weights on the hand-set scale (scaling every
//! weight is the same as scaling `K`), which matters because play squashes
//! the sum by `x / (1 + |x|)`, not by `σ`.
//!
//! Every [`TuningOptions::test_every`]-th game is held out, so that the
//! tuned weights can be judged on games they were not fitted to.

use super::eval::{EvaluationTerms, HnefataflWeights, TERM_COUNT};
use super::notation::RecordedMove;
use super::options::HnefataflRules;
use super::records::GameRecord;
use super::state::Hnefatafl;
use crate::core::{Game, ParseError};

/// Which positions of the records become samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TuningOptions {
    /// Positions before this ply are left out: the openings say little
    /// about who wins.
    pub first_ply: usize,
    /// Every `test_every`-th record (the `test_every`-th, the
    /// `2 × test_every`-th, ...) is held out for testing; at least 2.
    pub test_every: usize,
}

impl Default for TuningOptions {
    fn default() -> Self {
        TuningOptions {
            first_ply: 4,
            test_every: 5,
        }
    }
}

/// One position of a recorded game and how the game ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TuningSample {
    /// The evaluation's terms in the position, which the weights multiply.
    pub terms: EvaluationTerms,
    /// The defenders' result: 1 a win, 0 a loss, 0.5 a draw.
    pub defenders_result: f64,
}

/// The samples of a file of records, split by game.
#[derive(Clone, Debug, PartialEq)]
pub struct TuningData {
    /// The samples of the training games.
    pub train: Vec<TuningSample>,
    /// The samples of the held-out games.
    pub test: Vec<TuningSample>,
    /// Records that gave samples: for training, held out.
    pub games: [usize; 2],
    /// Records left out because their result is unknown (`Ongoing`).
    pub unknown_results: usize,
}

/// Reads the samples from records in the format of
/// `tests/data/copenhagen-games.csv` ([`GameRecord`]). The records are
/// replayed without the repetition rule, as the recorded games were played
/// on after a third repetition, and without a ply limit.
///
/// # Errors
/// A line that is not a record, a move that does not parse or is illegal,
/// or a result other than `Black`, `White`, `Draw` or `Ongoing`; the error
/// names the line.
pub fn read_samples(csv: &str, options: TuningOptions) -> Result<TuningData, ParseError> {
    const WHAT: &str = "game record";
    if options.test_every < 2 {
        return Err(ParseError::new(
            "tuning options",
            &options.test_every.to_string(),
            "hold out every n-th game with n at least 2, or nothing is left to train on",
        ));
    }
    let rules = HnefataflRules {
        repetition_loses: false,
        ply_limit: None,
    };
    let mut data = TuningData {
        train: Vec::new(),
        test: Vec::new(),
        games: [0, 0],
        unknown_results: 0,
    };
    let mut records = 0;
    for (index, line) in csv.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad =
            |problem: String| ParseError::new(WHAT, line, format!("line {}: {problem}", index + 1));
        let record = GameRecord::parse_line(line).map_err(|error| bad(error.problem().into()))?;
        records += 1;
        let defenders_result = match record.result.as_str() {
            "White" => 1.0,
            "Black" => 0.0,
            "Draw" => 0.5,
            "Ongoing" => {
                data.unknown_results += 1;
                continue;
            }
            other => {
                return Err(bad(format!(
                    "unknown result `{other}` (valid results: Black, White, Draw, Ongoing)"
                )));
            }
        };
        let held_out = records % options.test_every == 0;
        let samples = if held_out {
            &mut data.test
        } else {
            &mut data.train
        };
        data.games[usize::from(held_out)] += 1;
        let mut game = Hnefatafl::new(rules);
        for (ply, text) in record.moves.iter().enumerate() {
            if ply >= options.first_ply
                && let Some(terms) = game.evaluation_terms()
            {
                samples.push(TuningSample {
                    terms,
                    defenders_result,
                });
            }
            let recorded: RecordedMove = text
                .parse()
                .map_err(|error: ParseError| bad(error.problem().into()))?;
            let mv = recorded.mv();
            game.try_play(mv).map_err(|error| {
                bad(format!(
                    "move {} at ply {}: {}",
                    text,
                    ply + 1,
                    error.reason()
                ))
            })?;
        }
        // The final position counts too, unless the game is over there.
        if record.moves.len() >= options.first_ply
            && let Some(terms) = game.evaluation_terms()
        {
            samples.push(TuningSample {
                terms,
                defenders_result,
            });
        }
    }
    Ok(data)
}

/// `σ(t) = 1 / (1 + e^−t)`.
fn sigmoid(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

/// The predicted chance of a defenders' win, kept off 0 and 1 so that the
/// log-loss stays finite.
fn predicted(sample: &TuningSample, weights: &HnefataflWeights, scale: f64) -> f64 {
    sigmoid(scale * sample.terms.weighted_sum(weights)).clamp(1e-12, 1.0 - 1e-12)
}

/// How well the weights predict the results of `samples`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Losses {
    /// Mean log-loss (cross-entropy, natural logarithm): what the fit
    /// minimises.
    pub log_loss: f64,
    /// Mean squared error of the predicted chance.
    pub squared_error: f64,
}

/// The losses of `weights` with scale `scale` on `samples` (`NaN` for no
/// samples).
pub fn losses(samples: &[TuningSample], weights: &HnefataflWeights, scale: f64) -> Losses {
    let mut log_loss = 0.0;
    let mut squared_error = 0.0;
    for sample in samples {
        let p = predicted(sample, weights, scale);
        let y = sample.defenders_result;
        log_loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        squared_error += (p - y) * (p - y);
    }
    let count = samples.len() as f64;
    Losses {
        log_loss: log_loss / count,
        squared_error: squared_error / count,
    }
}

/// The gradient of the mean log-loss with respect to the weights, in the
/// order of [`super::TERM_NAMES`].
pub fn log_loss_gradient(
    samples: &[TuningSample],
    weights: &HnefataflWeights,
    scale: f64,
) -> [f64; TERM_COUNT] {
    let mut gradient = [0.0; TERM_COUNT];
    for sample in samples {
        let residual = scale * (predicted(sample, weights, scale) - sample.defenders_result);
        for (slot, value) in gradient.iter_mut().zip(sample.terms.values()) {
            *slot += residual * value;
        }
    }
    gradient.map(|sum| sum / samples.len() as f64)
}

/// The scale `K` that minimises the mean log-loss of `weights` on
/// `samples`, found by golden-section search over `[0, 50]` (the loss is
/// convex in `K`).
pub fn fit_scale(samples: &[TuningSample], weights: &HnefataflWeights) -> f64 {
    let loss = |scale: f64| losses(samples, weights, scale).log_loss;
    let ratio = (5.0_f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (0.0, 50.0);
    while high - low > 1e-6 {
        let left = high - ratio * (high - low);
        let right = low + ratio * (high - low);
        if loss(left) < loss(right) {
            high = right;
        } else {
            low = left;
        }
    }
    (low + high) / 2.0
}

/// The weights of [`fit_weights`] and how the fit ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightFit {
    /// The fitted weights.
    pub weights: HnefataflWeights,
    /// Newton steps taken.
    pub steps: usize,
    /// The size (Euclidean norm) of the log-loss gradient at the weights.
    pub gradient_norm: f64,
}

/// The most Newton steps [`fit_weights`] takes; a handful are enough for a
/// convex loss in nine weights.
const MAX_NEWTON_STEPS: usize = 50;

/// The weights that minimise the mean log-loss on `samples` with the scale
/// fixed, by Newton's method from `start`, halving a step that would raise
/// the loss. Stops when a step no longer lowers the loss.
pub fn fit_weights(samples: &[TuningSample], start: &HnefataflWeights, scale: f64) -> WeightFit {
    let mut weights = *start;
    let mut loss = losses(samples, &weights, scale).log_loss;
    let mut steps = 0;
    while steps < MAX_NEWTON_STEPS {
        let gradient = log_loss_gradient(samples, &weights, scale);
        let step = solve(hessian(samples, &weights, scale), gradient);
        let mut length = 1.0;
        let improved = loop {
            let current = weights.to_array();
            let trial = HnefataflWeights::from_array(std::array::from_fn(|term| {
                current[term] - length * step[term]
            }));
            let trial_loss = losses(samples, &trial, scale).log_loss;
            if trial_loss < loss {
                break Some((trial, trial_loss));
            }
            length /= 2.0;
            if length < 1e-6 {
                break None;
            }
        };
        let Some((trial, trial_loss)) = improved else {
            break;
        };
        steps += 1;
        let gain = loss - trial_loss;
        weights = trial;
        loss = trial_loss;
        if gain < 1e-13 {
            break;
        }
    }
    WeightFit {
        weights,
        steps,
        gradient_norm: norm(&log_loss_gradient(samples, &weights, scale)),
    }
}

/// The Euclidean norm of a vector.
pub fn norm(vector: &[f64]) -> f64 {
    vector.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The Hessian of the mean log-loss with respect to the weights.
fn hessian(
    samples: &[TuningSample],
    weights: &HnefataflWeights,
    scale: f64,
) -> [[f64; TERM_COUNT]; TERM_COUNT] {
    let mut hessian = [[0.0; TERM_COUNT]; TERM_COUNT];
    for sample in samples {
        let p = predicted(sample, weights, scale);
        let curvature = scale * scale * p * (1.0 - p);
        let values = sample.terms.values();
        for (row, &a) in hessian.iter_mut().zip(&values) {
            for (entry, &b) in row.iter_mut().zip(&values) {
                *entry += curvature * a * b;
            }
        }
    }
    hessian.map(|row| row.map(|sum| sum / samples.len() as f64))
}

/// Solves `matrix · x = vector` by Gaussian elimination with partial
/// pivoting. A term that no sample has makes the matrix singular; its
/// weight then stays where it is (its entry of `x` is 0).
fn solve(
    mut matrix: [[f64; TERM_COUNT]; TERM_COUNT],
    mut vector: [f64; TERM_COUNT],
) -> [f64; TERM_COUNT] {
    const TINY: f64 = 1e-12;
    for column in 0..TERM_COUNT {
        let pivot = (column..TERM_COUNT)
            .max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))
            .expect("the range is not empty");
        matrix.swap(column, pivot);
        vector.swap(column, pivot);
        if matrix[column][column].abs() < TINY {
            continue;
        }
        let pivot_row = matrix[column];
        for row in column + 1..TERM_COUNT {
            let factor = matrix[row][column] / pivot_row[column];
            for (entry, above) in matrix[row].iter_mut().zip(pivot_row).skip(column) {
                *entry -= factor * above;
            }
            vector[row] -= factor * vector[column];
        }
    }
    let mut solution = [0.0; TERM_COUNT];
    for row in (0..TERM_COUNT).rev() {
        if matrix[row][row].abs() < TINY {
            continue;
        }
        let known: f64 = (row + 1..TERM_COUNT)
            .map(|k| matrix[row][k] * solution[k])
            .sum();
        solution[row] = (vector[row] - known) / matrix[row][row];
    }
    solution
}

/// Everything a tuning run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct TuningReport {
    /// Samples for training and held out.
    pub positions: [usize; 2],
    /// Games for training and held out.
    pub games: [usize; 2],
    /// Records left out for an unknown result.
    pub unknown_results: usize,
    /// The scale `K`, fitted for the hand-set weights on the training games.
    pub scale: f64,
    /// The tuned weights, fitted from the hand-set ones with `scale` fixed.
    pub fit: WeightFit,
    /// Losses of the hand-set weights on the training and held-out games.
    pub hand_set: [Losses; 2],
    /// Losses of the tuned weights on the training and held-out games.
    pub tuned: [Losses; 2],
}

/// Reads the samples, fits `K` for the hand-set weights and then the
/// weights, and measures both sets on both splits.
///
/// # Errors
/// As [`read_samples`]; also if the records give no training or no
/// held-out positions.
pub fn tune(csv: &str, options: TuningOptions) -> Result<TuningReport, ParseError> {
    let data = read_samples(csv, options)?;
    if data.train.is_empty() || data.test.is_empty() {
        return Err(ParseError::new(
            "game records",
            "",
            format!(
                "tuning needs positions to train on and to hold out, and the records gave {} and {}",
                data.train.len(),
                data.test.len()
            ),
        ));
    }
    let hand = HnefataflWeights::HAND_SET;
    let scale = fit_scale(&data.train, &hand);
    let fit = fit_weights(&data.train, &hand, scale);
    let on_both = |weights: &HnefataflWeights| {
        [
            losses(&data.train, weights, scale),
            losses(&data.test, weights, scale),
        ]
    };
    Ok(TuningReport {
        positions: [data.train.len(), data.test.len()],
        games: data.games,
        unknown_results: data.unknown_results,
        scale,
        fit,
        hand_set: on_both(&hand),
        tuned: on_both(&fit.weights),
    })
}
