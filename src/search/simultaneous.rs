//! Exact solution of two-player zero-sum games with simultaneous moves, by
//! backward induction.
//!
//! At a simultaneous state both players choose at once, so the state's value
//! is the value of the matrix game whose entries are the values of the joint
//! choices' successors, solved by linear programming ([`MatrixGame::solve`]).
//! Between simultaneous states, where one player moves at a time, the value
//! is plain minimax. A transposition table keyed by the state's hash and the
//! stages left keeps every state solved once.
//!
//! Games with many simultaneous stages (Nibelungen's rounds) are solved
//! truncated: after a given number of stages the state is scored by a cut
//! value (zero, "unfinished", for the exact truncated game; an evaluation
//! for an agent that looks a few rounds ahead).

use super::error::SearchError;
use super::matrix::{MatrixError, MatrixGame};
use crate::core::{FastHashMap, Game, MoveList, Player, Scoring, Simultaneous, Status};
use std::fmt;

/// The bytes one solved state takes in the table, counted generously (key,
/// value and the hash map's spare capacity), to turn a memory budget into a
/// number of states.
pub const BYTES_PER_SOLVED_STATE: u64 = 80;

/// Why a simultaneous-move solve could not finish.
#[derive(Clone, Debug, PartialEq)]
pub enum SimultaneousSolveError {
    /// The solver handles two-player zero-sum games only.
    NotZeroSum,
    /// The game reached a state the solver does not search (a chance event).
    Unsupported(SearchError),
    /// More states than the table may hold.
    TooManyStates {
        /// The most states the table may hold.
        limit: usize,
    },
    /// A matrix game at a simultaneous state could not be solved.
    Matrix(MatrixError),
}

impl fmt::Display for SimultaneousSolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimultaneousSolveError::NotZeroSum => {
                f.write_str("the simultaneous-move solver needs a two-player zero-sum game")
            }
            SimultaneousSolveError::Unsupported(error) => error.fmt(f),
            SimultaneousSolveError::TooManyStates { limit } => write!(
                f,
                "the solve needs more than {limit} states, more than memory allows: solve fewer rounds"
            ),
            SimultaneousSolveError::Matrix(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for SimultaneousSolveError {}

impl From<MatrixError> for SimultaneousSolveError {
    fn from(error: MatrixError) -> Self {
        SimultaneousSolveError::Matrix(error)
    }
}

/// The solution at one state: its value to player 0 and an optimal
/// strategy for each player who chooses there.
#[derive(Clone, Debug, PartialEq)]
pub struct StageSolution<M> {
    /// The value to player 0 (player 1's is its negation).
    pub value: f64,
    /// Each player's choices with their probabilities in an optimal
    /// strategy: both players' at a simultaneous state, the mover's best
    /// move (probability 1) at a state with one player to move, and
    /// nothing for a player who does not choose or when the game is over.
    pub strategies: [Vec<(M, f64)>; 2],
    /// The value to player 0 of each choice of player 0 and of player 1
    /// (against the other's optimal strategy) at a simultaneous state, or
    /// of each move of the mover; for reading why a strategy mixes.
    pub choice_values: [Vec<(M, f64)>; 2],
}

/// Each player's choices at a simultaneous state, player 0's first.
pub type JointChoices<M> = [Vec<M>; 2];

/// Backward induction over a two-player zero-sum game with simultaneous
/// moves, truncated after a number of simultaneous stages.
///
/// `cut` scores a simultaneous state reached when no stage is left, from
/// player 0's view; `|_| 0.0` solves the game in which an unfinished game
/// counts as a draw.
///
/// The game must reach a simultaneous state or its end within finitely
/// many single-player moves (as every game with rounds does).
///
/// ```
/// use norn::core::Game;
/// use norn::games::nibelungen::{Nibelungen, NibelungenRules};
/// use norn::search::SimultaneousSolver;
///
/// let start = Nibelungen::new(NibelungenRules::default());
/// let mut solver = SimultaneousSolver::new(1, |_: &Nibelungen| 0.0, 1_000_000);
/// let solution = solver.solve(&start)?;
/// // No winning condition can be met in the first round from the start.
/// assert_eq!(solution.value, 0.0);
/// # Ok::<(), norn::search::SimultaneousSolveError>(())
/// ```
pub struct SimultaneousSolver<G: Game, F> {
    stages: u32,
    cut: F,
    max_states: usize,
    /// Solved values to player 0, keyed by the state's hash and the
    /// simultaneous stages left.
    table: FastHashMap<(u64, u32), f64>,
    _game: std::marker::PhantomData<fn(&G)>,
}

impl<G: Simultaneous, F: Fn(&G) -> f64> SimultaneousSolver<G, F> {
    /// A solver that looks `stages` simultaneous states ahead (counting the
    /// one it is asked about), scores the states beyond with `cut`, and
    /// refuses to hold more than `max_states` solved states.
    pub fn new(stages: u32, cut: F, max_states: usize) -> Self {
        SimultaneousSolver {
            stages,
            cut,
            max_states,
            table: FastHashMap::default(),
            _game: std::marker::PhantomData,
        }
    }

    /// The number of distinct states solved so far (the table's size).
    pub fn states(&self) -> usize {
        self.table.len()
    }

    /// Solves `state` and returns its value and both players' optimal
    /// strategies there.
    ///
    /// # Errors
    /// A game that is not two-player zero-sum, a chance event on the way,
    /// more states than allowed, or a matrix game the simplex could not
    /// solve.
    pub fn solve(&mut self, state: &G) -> Result<StageSolution<G::Move>, SimultaneousSolveError> {
        if state.num_players() != 2 || G::SCORING == Scoring::Team {
            return Err(SimultaneousSolveError::NotZeroSum);
        }
        let none = || [Vec::new(), Vec::new()];
        match state.status() {
            Status::Over(outcome) => Ok(StageSolution {
                value: outcome.payoffs.get(0),
                strategies: none(),
                choice_values: none(),
            }),
            Status::Chance => Err(SimultaneousSolveError::Unsupported(
                SearchError::unsupported("the simultaneous-move solver", Status::Chance),
            )),
            Status::Simultaneous if self.stages == 0 => Ok(StageSolution {
                value: (self.cut)(state),
                strategies: none(),
                choice_values: none(),
            }),
            Status::Simultaneous => self.solve_simultaneous(state),
            Status::ToMove(player) => self.solve_sequential(state, player),
        }
    }

    fn solve_simultaneous(
        &mut self,
        state: &G,
    ) -> Result<StageSolution<G::Move>, SimultaneousSolveError> {
        let (game, choices) = self.joint_matrix(state, self.stages)?;
        let solution = game.solve()?;
        let row_values = (0..game.rows()).map(|row| {
            (0..game.cols())
                .map(|col| game.payoff(row, col).unwrap_or(0.0) * solution.col_strategy[col])
                .sum::<f64>()
        });
        let row_values: Vec<f64> = row_values.collect();
        let col_values: Vec<f64> = (0..game.cols())
            .map(|col| {
                (0..game.rows())
                    .map(|row| game.payoff(row, col).unwrap_or(0.0) * solution.row_strategy[row])
                    .sum::<f64>()
            })
            .collect();
        let [tod, no] = &choices;
        Ok(StageSolution {
            value: solution.value,
            strategies: [
                tod.iter().copied().zip(solution.row_strategy).collect(),
                no.iter().copied().zip(solution.col_strategy).collect(),
            ],
            choice_values: [
                tod.iter().copied().zip(row_values).collect(),
                no.iter().copied().zip(col_values).collect(),
            ],
        })
    }

    fn solve_sequential(
        &mut self,
        state: &G,
        player: Player,
    ) -> Result<StageSolution<G::Move>, SimultaneousSolveError> {
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        let mut values = Vec::with_capacity(moves.len());
        for &mv in moves.iter() {
            let mut child = state.clone();
            child.play(mv);
            values.push((mv, self.value(&child, self.stages)?));
        }
        let better = |a: f64, b: f64| if player == 0 { a > b } else { a < b };
        let best = values
            .iter()
            .copied()
            .reduce(|best, entry| if better(entry.1, best.1) { entry } else { best });
        let mut strategies = [Vec::new(), Vec::new()];
        let mut choice_values = [Vec::new(), Vec::new()];
        strategies[player] = best.map(|(mv, _)| vec![(mv, 1.0)]).unwrap_or_default();
        choice_values[player] = values;
        Ok(StageSolution {
            value: best.map_or(0.0, |(_, value)| value),
            strategies,
            choice_values,
        })
    }

    /// The matrix game at simultaneous `state` with `stages` stages left
    /// (this one included), and each player's choices (rows are player 0's).
    fn joint_matrix(
        &mut self,
        state: &G,
        stages: u32,
    ) -> Result<(MatrixGame, JointChoices<G::Move>), SimultaneousSolveError> {
        joint_matrix(state, |child| self.value(child, stages - 1))
    }

    /// The value to player 0 of `state` with `stages` simultaneous stages
    /// left, from the table or solved and stored.
    fn value(&mut self, state: &G, stages: u32) -> Result<f64, SimultaneousSolveError> {
        let status = state.status();
        match status {
            Status::Over(outcome) => return Ok(outcome.payoffs.get(0)),
            Status::Chance => {
                return Err(SimultaneousSolveError::Unsupported(
                    SearchError::unsupported("the simultaneous-move solver", status),
                ));
            }
            Status::Simultaneous if stages == 0 => return Ok((self.cut)(state)),
            _ => {}
        }
        let key = (state.hash(), stages);
        if let Some(&value) = self.table.get(&key) {
            return Ok(value);
        }
        let value = match status {
            Status::ToMove(player) => self.minimax(state, player, stages)?,
            _ => self.joint_matrix(state, stages)?.0.solve()?.value,
        };
        if self.table.len() >= self.max_states {
            return Err(SimultaneousSolveError::TooManyStates {
                limit: self.max_states,
            });
        }
        // The system may give less than the limit (an address-space
        // limit, other processes): a table it cannot grow ends the solve.
        if self.table.try_reserve(1).is_err() {
            return Err(SimultaneousSolveError::TooManyStates {
                limit: self.table.len(),
            });
        }
        self.table.insert(key, value);
        Ok(value)
    }

    /// The minimax value to player 0 of a state where `player` moves.
    fn minimax(
        &mut self,
        state: &G,
        player: Player,
        stages: u32,
    ) -> Result<f64, SimultaneousSolveError> {
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        let mut best = if player == 0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for &mv in moves.iter() {
            let mut child = state.clone();
            child.play(mv);
            let value = self.value(&child, stages)?;
            best = if player == 0 {
                best.max(value)
            } else {
                best.min(value)
            };
        }
        Ok(best)
    }
}

/// The matrix game at simultaneous `state` of a two-player game: rows are
/// player 0's choices, columns player 1's, and each entry is
/// `child_value` of the state the joint choice leads to. Also returns each
/// player's choices, in the order of the rows and the columns.
///
/// # Errors
/// The first error of `child_value`, or a value that is not finite.
pub fn joint_matrix<G: Simultaneous, E: From<MatrixError>>(
    state: &G,
    mut child_value: impl FnMut(&G) -> Result<f64, E>,
) -> Result<(MatrixGame, JointChoices<G::Move>), E> {
    let mut choices = [MoveList::new(), MoveList::new()];
    for (player, list) in choices.iter_mut().enumerate() {
        state.player_moves(player, list);
    }
    let choices = choices.map(|list| list.to_vec());
    let mut payoffs = Vec::with_capacity(choices[0].len() * choices[1].len());
    for &row in &choices[0] {
        for &col in &choices[1] {
            let mut child = state.clone();
            child.play_joint(&[row, col]);
            payoffs.push(child_value(&child)?);
        }
    }
    let game = MatrixGame::new(choices[0].len(), choices[1].len(), payoffs)?;
    Ok((game, choices))
}
