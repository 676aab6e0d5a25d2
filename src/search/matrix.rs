//! Two-player zero-sum matrix games: their exact value and optimal mixed
//! strategies by linear programming, and regret matching as an iterative
//! alternative.
//!
//! A [`MatrixGame`] is a payoff matrix: the row player picks a row, the column
//! player a column, at the same time, and the row player receives the entry
//! there (the column player pays it). The row player maximises.
//!
//! [`MatrixGame::solve`] finds an equilibrium with a dense simplex method.
//!
//! Regret matching ([`regret_matching`], [`regret_matching_plus`]) needs no
//! linear algebra and no randomness: both players play the matrix in full
//! every iteration, each mixing in proportion to its positive regrets, and
//! the average strategies approach an equilibrium.

use std::fmt;

mod regret;
pub use regret::{regret_matching, regret_matching_plus};

/// Entries of the rescaled tableau (payoffs in `[1, 2]`) closer to zero than
/// this count as zero: a reduced cost this small does not improve the
/// objective, and a pivot element this small is not used. Far below the
/// payoffs' spread (1) and far above the rounding of a few hundred pivots.
const SIMPLEX_TOLERANCE: f64 = 1e-12;

/// The simplex method gives up after this many pivots per variable (it cannot
/// cycle, so only numerical trouble gets there): random games up to
/// 100 x 100 take about one pivot per variable.
const PIVOTS_PER_VARIABLE: usize = 50;

/// The largest simplex tableau [`MatrixGame::solve`] builds, in entries
/// (32 MiB of `f64`): a 1000 x 1000 game fits, a 1500 x 1500 one does not.
pub const MAX_TABLEAU_ENTRIES: usize = 1 << 22;

/// Bad input for a matrix game, or a game the simplex method could not solve.
#[derive(Clone, Debug, PartialEq)]
pub enum MatrixError {
    /// A game has no row or no column.
    Empty {
        /// The rows given.
        rows: usize,
        /// The columns given.
        cols: usize,
    },
    /// The entries given do not fill `rows x cols`.
    WrongEntryCount {
        /// The rows asked for.
        rows: usize,
        /// The columns asked for.
        cols: usize,
        /// The entries given, other than `rows * cols`.
        entries: usize,
    },
    /// A row of a matrix given row by row is not as long as the first.
    RaggedRow {
        /// The row, counting from 0.
        row: usize,
        /// Its length.
        len: usize,
        /// The length of the first row.
        expected: usize,
    },
    /// A payoff is infinite or not a number.
    NotFinite {
        /// The payoff's row.
        row: usize,
        /// The payoff's column.
        col: usize,
        /// The payoff.
        value: f64,
    },
    /// A strategy has the wrong number of probabilities.
    StrategyLength {
        /// Whose strategy: `"row"` or `"column"`.
        player: &'static str,
        /// The probabilities given.
        len: usize,
        /// The player's choices.
        expected: usize,
    },
    /// A strategy is not a probability distribution.
    NotAStrategy {
        /// Whose strategy: `"row"` or `"column"`.
        player: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// Regret matching was asked for no iterations.
    NoIterations,
    /// The game is too large for the dense simplex method.
    TooLarge {
        /// The game's rows.
        rows: usize,
        /// The game's columns.
        cols: usize,
    },
    /// The simplex method stopped without an optimum (numerical trouble).
    SimplexFailed {
        /// The pivots made before it stopped.
        pivots: usize,
    },
}

impl fmt::Display for MatrixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatrixError::Empty { rows, cols } => write!(
                f,
                "a matrix game needs at least one row and one column, not {rows} x {cols}"
            ),
            MatrixError::WrongEntryCount {
                rows,
                cols,
                entries,
            } => write!(
                f,
                "a {rows} x {cols} matrix needs {rows} times {cols} entries, not {entries}"
            ),
            MatrixError::RaggedRow { row, len, expected } => write!(
                f,
                "row {row} has {len} entries, but the first row has {expected}"
            ),
            MatrixError::NotFinite { row, col, value } => write!(
                f,
                "the payoff at row {row}, column {col} is {value}: payoffs must be finite"
            ),
            MatrixError::StrategyLength {
                player,
                len,
                expected,
            } => write!(
                f,
                "the {player} player's strategy has {len} probabilities, one per choice ({expected})"
            ),
            MatrixError::NotAStrategy { player, reason } => {
                write!(f, "the {player} player's strategy {reason}")
            }
            MatrixError::NoIterations => write!(f, "regret matching needs at least one iteration"),
            MatrixError::TooLarge { rows, cols } => write!(
                f,
                "a {rows} x {cols} game is too large for the dense simplex method \
                 (at most {MAX_TABLEAU_ENTRIES} tableau entries); try regret matching"
            ),
            MatrixError::SimplexFailed { pivots } => write!(
                f,
                "the simplex method found no optimum after {pivots} pivots: \
                 the payoffs are too badly conditioned"
            ),
        }
    }
}

impl std::error::Error for MatrixError {}

/// A two-player zero-sum game in normal form: the row player receives
/// `payoff(row, col)` and maximises it; the column player minimises it.
///
/// ```
/// use norn::search::MatrixGame;
///
/// // Matching pennies: the row player wins when the coins match.
/// let pennies = MatrixGame::from_rows(&[[1.0, -1.0], [-1.0, 1.0]])?;
/// let solution = pennies.solve()?;
/// assert!(solution.value.abs() < 1e-12);
/// assert!((solution.row_strategy[0] - 0.5).abs() < 1e-12);
/// # Ok::<(), norn::search::MatrixError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixGame {
    rows: usize,
    cols: usize,
    /// Row-major: the payoff of `(row, col)` is `payoffs[row * cols + col]`.
    payoffs: Vec<f64>,
}

/// An equilibrium, exact or approximate: the value to the row player and a
/// strategy for each player (non-negative probabilities summing to 1).
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixSolution {
    /// The row player's expected payoff when both play these strategies.
    pub value: f64,
    /// The row player's probability for each row.
    pub row_strategy: Vec<f64>,
    /// The column player's probability for each column.
    pub col_strategy: Vec<f64>,
}

impl MatrixGame {
    /// The game with `rows x cols` payoffs given row by row.
    pub fn new(rows: usize, cols: usize, payoffs: Vec<f64>) -> Result<MatrixGame, MatrixError> {
        if rows == 0 || cols == 0 {
            return Err(MatrixError::Empty { rows, cols });
        }
        if rows.checked_mul(cols) != Some(payoffs.len()) {
            return Err(MatrixError::WrongEntryCount {
                rows,
                cols,
                entries: payoffs.len(),
            });
        }
        if let Some(index) = payoffs.iter().position(|payoff| !payoff.is_finite()) {
            return Err(MatrixError::NotFinite {
                row: index / cols,
                col: index % cols,
                value: payoffs[index],
            });
        }
        Ok(MatrixGame {
            rows,
            cols,
            payoffs,
        })
    }

    /// The game whose payoff matrix has these rows, e.g.
    /// `MatrixGame::from_rows(&[[1.0, -1.0], [-1.0, 1.0]])`.
    pub fn from_rows<Row: AsRef<[f64]>>(rows: &[Row]) -> Result<MatrixGame, MatrixError> {
        let cols = rows.first().map_or(0, |row| row.as_ref().len());
        let mut payoffs = Vec::with_capacity(rows.len() * cols);
        for (index, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            if row.len() != cols {
                return Err(MatrixError::RaggedRow {
                    row: index,
                    len: row.len(),
                    expected: cols,
                });
            }
            payoffs.extend_from_slice(row);
        }
        MatrixGame::new(rows.len(), cols, payoffs)
    }

    /// The row player's number of choices.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The column player's number of choices.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// What the row player receives when the players choose `row` and `col`
    /// (`None` if either is out of range).
    pub fn payoff(&self, row: usize, col: usize) -> Option<f64> {
        (row < self.rows && col < self.cols).then(|| self.payoffs[row * self.cols + col])
    }

    /// The same game seen from the other side: the column player becomes the
    /// row player, and the payoffs are negated (`-Aᵀ`) so that it maximises.
    pub fn swap_players(&self) -> MatrixGame {
        let payoffs = (0..self.cols)
            .flat_map(|col| (0..self.rows).map(move |row| -self.payoffs[row * self.cols + col]))
            .collect();
        MatrixGame {
            rows: self.cols,
            cols: self.rows,
            payoffs,
        }
    }

    /// The expected payoff of each row against the column player's mixed
    /// strategy `col_strategy` (unchecked).
    fn row_payoffs(&self, col_strategy: &[f64], out: &mut [f64]) {
        for (row, out) in self.payoffs.chunks_exact(self.cols).zip(out) {
            *out = dot(row, col_strategy);
        }
    }

    /// The expected payoff of each column against the row player's mixed
    /// strategy `row_strategy` (unchecked).
    fn col_payoffs(&self, row_strategy: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        for (row, &weight) in self.payoffs.chunks_exact(self.cols).zip(row_strategy) {
            for (out, &payoff) in out.iter_mut().zip(row) {
                *out += weight * payoff;
            }
        }
    }

    /// The most the row player can get against `col_strategy`: the payoff of
    /// its best response.
    pub fn best_response_value_for_row(&self, col_strategy: &[f64]) -> Result<f64, MatrixError> {
        check_strategy("column", col_strategy, self.cols)?;
        let mut payoffs = vec![0.0; self.rows];
        self.row_payoffs(col_strategy, &mut payoffs);
        Ok(payoffs.into_iter().fold(f64::NEG_INFINITY, f64::max))
    }

    /// The least the column player can hold the row player to when the row
    /// player plays `row_strategy`: the payoff of the column player's best
    /// response.
    pub fn best_response_value_for_col(&self, row_strategy: &[f64]) -> Result<f64, MatrixError> {
        check_strategy("row", row_strategy, self.rows)?;
        let mut payoffs = vec![0.0; self.cols];
        self.col_payoffs(row_strategy, &mut payoffs);
        Ok(payoffs.into_iter().fold(f64::INFINITY, f64::min))
    }

    /// How far a pair of strategies is from an equilibrium: what the row
    /// player would gain by switching to its best response plus what the
    /// column player would gain by switching to its own. Never negative; zero
    /// exactly when both strategies are optimal. It bounds the distance of
    /// either best-response value from the game's value.
    pub fn exploitability(
        &self,
        row_strategy: &[f64],
        col_strategy: &[f64],
    ) -> Result<f64, MatrixError> {
        Ok(self.best_response_value_for_row(col_strategy)?
            - self.best_response_value_for_col(row_strategy)?)
    }

    /// The value of the game and an optimal strategy for each player, by the
    /// simplex method. The strategies are exact up to rounding: on random
    /// games up to 100 x 100 their exploitability stays below `1e-13` times
    /// the spread of the payoffs.
    ///
    /// The payoffs are mapped affinely onto `[1, 2]`, which keeps the value
    /// positive and makes the tolerances relative to the spread of the payoffs;
    /// then, with `C` that positive matrix, the simplex solves
    ///
    /// ```text
    /// maximise  sum(y)  subject to  C y <= 1,  y >= 0
    /// ```
    ///
    /// whose dual is `minimise sum(x) subject to Cᵀ x >= 1, x >= 0`. At the
    /// optimum both sums equal `1 / v`, where `v` is the value of `C`; the column
    /// strategy is `v y` and the row strategy `v x`, read from the final tableau.
    /// The simplex starts from the slack basis (feasible, since `y = 0` is),
    /// enters the column of largest reduced cost, falls back on Bland's rule
    /// (the first improving column and, among tied ratios, the leaving variable
    /// of smallest index) after a degenerate pivot so that it cannot cycle, and
    /// puts the smaller of the two dimensions in the constraints. Reduced
    /// costs, pivot elements and ratio ties within `1e-12` (of the rescaled
    /// payoffs' spread, 1) count as zero.
    ///
    /// Errors: [`MatrixError::TooLarge`] beyond [`MAX_TABLEAU_ENTRIES`], and
    /// [`MatrixError::SimplexFailed`] if rounding stalls the method (not
    /// seen on any game tested).
    pub fn solve(&self) -> Result<MatrixSolution, MatrixError> {
        // The tableau has a row per constraint and a column per variable:
        // fewer constraints make a smaller tableau.
        if self.rows > self.cols {
            let solution = self.swap_players().solve()?;
            return Ok(MatrixSolution {
                value: -solution.value,
                row_strategy: solution.col_strategy,
                col_strategy: solution.row_strategy,
            });
        }
        let entries = (self.rows + 1).checked_mul(self.rows + self.cols + 1);
        if entries.is_none_or(|entries| entries > MAX_TABLEAU_ENTRIES) {
            return Err(MatrixError::TooLarge {
                rows: self.rows,
                cols: self.cols,
            });
        }
        let pivot_limit = PIVOTS_PER_VARIABLE * (self.rows + self.cols);
        self.solve_within(pivot_limit)
    }

    /// [`solve`](Self::solve) with at most `pivot_limit` pivots, on a game
    /// with no more rows than columns.
    fn solve_within(&self, pivot_limit: usize) -> Result<MatrixSolution, MatrixError> {
        let scale = PositiveScale::of(&self.payoffs);
        let mut tableau = Tableau::new(self, &scale);
        tableau.maximise(pivot_limit)?;
        // The objective, sum(y), is 1 / v for the rescaled game's value v.
        let scaled_value = 1.0 / tableau.objective();
        Ok(MatrixSolution {
            value: scale.restore(scaled_value),
            row_strategy: to_distribution(tableau.dual_solution()),
            col_strategy: to_distribution(tableau.primal_solution()),
        })
    }
}

/// `Ok` if `strategy` is a probability distribution over `choices` choices.
fn check_strategy(
    player: &'static str,
    strategy: &[f64],
    choices: usize,
) -> Result<(), MatrixError> {
    if strategy.len() != choices {
        return Err(MatrixError::StrategyLength {
            player,
            len: strategy.len(),
            expected: choices,
        });
    }
    let not_a_strategy = |reason: String| Err(MatrixError::NotAStrategy { player, reason });
    if let Some(&p) = strategy.iter().find(|p| !(p.is_finite() && **p >= 0.0)) {
        return not_a_strategy(format!("has the probability {p}"));
    }
    let total: f64 = strategy.iter().sum();
    // Rounding in a sum of `choices` terms stays well within this.
    if (total - 1.0).abs() > 1e-9 {
        return not_a_strategy(format!("sums to {total}, not 1"));
    }
    Ok(())
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

/// The affine map of the payoffs onto `[1, 2]` (all 1 if the payoffs are all
/// equal), computed without overflow for any finite payoffs.
struct PositiveScale {
    /// The largest magnitude of a payoff (1 if all are zero): dividing by it
    /// first keeps the spread below finite bounds.
    magnitude: f64,
    /// The least payoff, divided by `magnitude`.
    low: f64,
    /// The greatest payoff minus the least, divided by `magnitude`.
    spread: f64,
}

impl PositiveScale {
    fn of(payoffs: &[f64]) -> PositiveScale {
        let low = payoffs.iter().copied().fold(f64::INFINITY, f64::min);
        let high = payoffs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let magnitude = match low.abs().max(high.abs()) {
            0.0 => 1.0,
            magnitude => magnitude,
        };
        PositiveScale {
            magnitude,
            low: low / magnitude,
            spread: high / magnitude - low / magnitude,
        }
    }

    fn apply(&self, payoff: f64) -> f64 {
        if self.spread == 0.0 {
            1.0
        } else {
            1.0 + (payoff / self.magnitude - self.low) / self.spread
        }
    }

    /// The payoff that `apply` maps to `scaled`.
    fn restore(&self, scaled: f64) -> f64 {
        (self.low + (scaled - 1.0) * self.spread) * self.magnitude
    }
}

/// Non-negative weights (up to rounding) as probabilities: rounding below
/// zero is clipped, and the rest divided by its sum.
fn to_distribution(mut weights: Vec<f64>) -> Vec<f64> {
    for weight in &mut weights {
        *weight = weight.max(0.0);
    }
    let total: f64 = weights.iter().sum();
    for weight in &mut weights {
        *weight /= total;
    }
    weights
}

/// The simplex tableau of `maximise sum(y) subject to C y + s = 1, y, s >= 0`
/// for the rescaled payoff matrix `C` (`m x n`). Variables `0..n` are `y`,
/// `n..n + m` the slacks `s`.
struct Tableau {
    constraints: usize,
    variables: usize,
    /// `constraints` rows of `variables + 1` entries (the last is the
    /// right-hand side), then the objective row: the reduced costs, and minus
    /// the objective's current value.
    cells: Vec<f64>,
    /// The basic variable of each constraint row.
    basis: Vec<usize>,
}

impl Tableau {
    fn new(game: &MatrixGame, scale: &PositiveScale) -> Tableau {
        let (m, n) = (game.rows, game.cols);
        let width = n + m + 1;
        let mut cells = vec![0.0; (m + 1) * width];
        for (row, payoffs) in game.payoffs.chunks_exact(n).enumerate() {
            let line = &mut cells[row * width..(row + 1) * width];
            for (cell, &payoff) in line.iter_mut().zip(payoffs) {
                *cell = scale.apply(payoff);
            }
            line[n + row] = 1.0;
            line[width - 1] = 1.0;
        }
        cells[m * width..m * width + n].fill(1.0);
        Tableau {
            constraints: m,
            variables: n + m,
            cells,
            basis: (n..n + m).collect(),
        }
    }

    fn width(&self) -> usize {
        self.variables + 1
    }

    fn at(&self, row: usize, col: usize) -> f64 {
        self.cells[row * self.width() + col]
    }

    fn rhs(&self, row: usize) -> f64 {
        self.at(row, self.variables)
    }

    fn reduced_cost(&self, col: usize) -> f64 {
        self.at(self.constraints, col)
    }

    /// Pivots until no reduced cost is positive. The entering column is the
    /// one of largest reduced cost (Dantzig's rule, few pivots), except after
    /// a degenerate pivot, which leaves the objective where it was: then it
    /// is the first improving column (Bland's rule). Only degenerate pivots
    /// can return to an earlier basis, and in a cycle of them each pivot
    /// follows a degenerate one, so all would be by Bland's rule, which
    /// cannot cycle.
    fn maximise(&mut self, pivot_limit: usize) -> Result<(), MatrixError> {
        let mut pivots = 0;
        let mut last_pivot_degenerate = false;
        while let Some(entering) = self.entering_column(last_pivot_degenerate) {
            match self.leaving_row(entering) {
                Some((row, step)) if pivots < pivot_limit => {
                    self.pivot(row, entering);
                    last_pivot_degenerate = step <= SIMPLEX_TOLERANCE;
                }
                // The problem is bounded (sum(y) <= 1 / min C), so every
                // improving column has a positive entry unless rounding hid it.
                _ => return Err(MatrixError::SimplexFailed { pivots }),
            }
            pivots += 1;
        }
        Ok(())
    }

    /// A column whose reduced cost is positive: the first (`bland`) or the
    /// largest.
    fn entering_column(&self, bland: bool) -> Option<usize> {
        let mut improving =
            (0..self.variables).filter(|&col| self.reduced_cost(col) > SIMPLEX_TOLERANCE);
        if bland {
            improving.next()
        } else {
            improving.max_by(|&a, &b| self.reduced_cost(a).total_cmp(&self.reduced_cost(b)))
        }
    }

    /// The minimum-ratio row for the entering column `col` and the ratio (how
    /// far the entering variable rises); among ratios tied within the
    /// tolerance, the row whose basic variable has the smallest index
    /// (Bland's rule).
    fn leaving_row(&self, col: usize) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for row in 0..self.constraints {
            let entry = self.at(row, col);
            if entry <= SIMPLEX_TOLERANCE {
                continue;
            }
            let ratio = self.rhs(row) / entry;
            let better = match best {
                None => true,
                Some((best_row, best_ratio)) => {
                    ratio < best_ratio - SIMPLEX_TOLERANCE
                        || (ratio <= best_ratio + SIMPLEX_TOLERANCE
                            && self.basis[row] < self.basis[best_row])
                }
            };
            if better {
                best = Some((row, ratio));
            }
        }
        best
    }

    /// Makes variable `col` basic in constraint `row`.
    fn pivot(&mut self, row: usize, col: usize) {
        let width = self.width();
        let pivot = self.at(row, col);
        let start = row * width;
        for cell in &mut self.cells[start..start + width] {
            *cell /= pivot;
        }
        let pivot_row = self.cells[start..start + width].to_vec();
        for other in (0..=self.constraints).filter(|&other| other != row) {
            let line = &mut self.cells[other * width..(other + 1) * width];
            let factor = line[col];
            if factor != 0.0 {
                for (cell, &pivot_cell) in line.iter_mut().zip(&pivot_row) {
                    *cell -= factor * pivot_cell;
                }
            }
        }
        self.basis[row] = col;
    }

    /// The objective's value at the current basis: `sum(y)`.
    fn objective(&self) -> f64 {
        -self.at(self.constraints, self.variables)
    }

    /// `y`: each basic original variable at its row's right-hand side.
    fn primal_solution(&self) -> Vec<f64> {
        let originals = self.variables - self.constraints;
        let mut y = vec![0.0; originals];
        for (row, &variable) in self.basis.iter().enumerate() {
            if variable < originals {
                y[variable] = self.rhs(row);
            }
        }
        y
    }

    /// `x`, the dual solution: minus the reduced costs of the slacks.
    fn dual_solution(&self) -> Vec<f64> {
        let originals = self.variables - self.constraints;
        (originals..self.variables)
            .map(|slack| -self.reduced_cost(slack))
            .collect()
    }
}

/// The value of a 3x3 game to the row player, without the simplex: what a
/// solver of millions of small games (a retrograde analysis) needs.
///
/// The row player's guaranteed payoff `min_j (x A)_j` is concave and
/// piecewise linear over the triangle of its mixed strategies `x`, so its
/// maximum lies on a vertex of the triangle's subdivision into the regions
/// where one column is the best reply: a pure row, a point of an edge where
/// two columns pay the same, or the interior point where all three do. The
/// function evaluates it at each of those (at most 13) points. A pure saddle
/// point, the common case, is found first.
pub fn value_3x3(payoffs: &[[f64; 3]; 3]) -> f64 {
    let guaranteed = |x: [f64; 3]| {
        (0..3)
            .map(|col| (0..3).map(|row| x[row] * payoffs[row][col]).sum::<f64>())
            .fold(f64::INFINITY, f64::min)
    };
    let row_floor = payoffs
        .iter()
        .map(|row| row.iter().copied().fold(f64::INFINITY, f64::min))
        .fold(f64::NEG_INFINITY, f64::max);
    let col_ceiling = (0..3)
        .map(|col| {
            payoffs
                .iter()
                .map(|row| row[col])
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .fold(f64::INFINITY, f64::min);
    if row_floor == col_ceiling {
        return row_floor;
    }
    let mut best = row_floor;
    // Edges: rows `i` and `k` mixed as `t` and `1 - t`, where columns `j`
    // and `l` pay the same.
    for (i, k) in [(0, 1), (0, 2), (1, 2)] {
        for (j, l) in [(0, 1), (0, 2), (1, 2)] {
            let slope = payoffs[i][j] - payoffs[k][j] - payoffs[i][l] + payoffs[k][l];
            if slope == 0.0 {
                continue;
            }
            let t = (payoffs[k][l] - payoffs[k][j]) / slope;
            if (0.0..=1.0).contains(&t) {
                let mut x = [0.0; 3];
                x[i] = t;
                x[k] = 1.0 - t;
                best = best.max(guaranteed(x));
            }
        }
    }
    // The interior point where the three columns pay the same: solve
    // `x (A_0 - A_1) = 0`, `x (A_0 - A_2) = 0`, `x_0 + x_1 + x_2 = 1` by
    // Cramer's rule.
    let system = [
        std::array::from_fn(|row| payoffs[row][0] - payoffs[row][1]),
        std::array::from_fn(|row| payoffs[row][0] - payoffs[row][2]),
        [1.0; 3],
    ];
    let whole = determinant(&system);
    if whole != 0.0 {
        // Column `r` of the system replaced by the right-hand side (0, 0, 1).
        let x: [f64; 3] = std::array::from_fn(|r| {
            let mut replaced = system;
            for (equation, rhs) in replaced.iter_mut().zip([0.0, 0.0, 1.0]) {
                equation[r] = rhs;
            }
            determinant(&replaced) / whole
        });
        if x.iter().all(|&share| share >= 0.0) {
            best = best.max(guaranteed(x));
        }
    }
    best
}

fn determinant(m: &[[f64; 3]; 3]) -> f64 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_simplex_reports_a_pivot_limit_it_reaches() {
        let rock_paper_scissors =
            MatrixGame::from_rows(&[[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]).unwrap();
        assert_eq!(
            rock_paper_scissors.solve_within(1),
            Err(MatrixError::SimplexFailed { pivots: 1 })
        );
        assert!(rock_paper_scissors.solve_within(100).is_ok());
    }
}
