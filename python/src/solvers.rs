//! The exact solvers from Python: a state of a cooperative game or a
//! simultaneous-move position solved as `norn solve` solves it, and
//! two-player zero-sum matrix games solved by linear programming.

use crate::numbers::Whole;
use crate::{norn_state, value_error};
use norn::learning::SolveRequest;
use norn::search::MatrixGame;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

/// Solves `state` exactly and returns the report `norn solve --json`
/// prints: for a team's position, whether it can force a win (with a
/// winning line and, given a budget, the bounds of the game's objectives);
/// for a simultaneous-move position, the value to player 0 and both
/// players' optimal strategies over `rounds` rounds (the game beyond
/// counting as a draw), or over the whole game with `retrograde`. The
/// interpreter lock is released while it solves; a solve cannot be
/// interrupted, and `budget` bounds its states.
#[pyfunction]
#[pyo3(signature = (state, rounds = None, budget = None, retrograde = false, out = None))]
pub fn solve<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    rounds: Option<Whole>,
    budget: Option<Whole>,
    retrograde: bool,
    out: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let rounds = rounds
        .map(|rounds| rounds.at_least("rounds", 1))
        .transpose()?;
    let budget = budget
        .map(|budget| budget.at_least("budget", 1))
        .transpose()?;
    if out.is_some() && !retrograde {
        return Err(value_error(
            "out saves the tables of a retrograde solve: give retrograde=True",
        ));
    }
    let request = SolveRequest {
        rounds,
        budget,
        retrograde,
        out: out.as_deref(),
        progress: None,
    };
    let state = norn_state(state)?;
    let game = state.game.clone();
    let inner = &*state.inner;
    let solution = py
        .detach(|| game.solve(inner, &request))
        .map_err(value_error)?;
    let text = serde_json::to_string(&solution).map_err(value_error)?;
    py.import("json")?.call_method1("loads", (text,))
}

/// Solves the two-player zero-sum game whose payoffs to the row player
/// (who maximises) are `payoffs`, a list of rows: returns a dictionary of
/// the `value` to the row player and the players' optimal mixed
/// strategies, `row_strategy` and `col_strategy`.
#[pyfunction]
pub fn solve_matrix<'py>(py: Python<'py>, payoffs: Vec<Vec<f64>>) -> PyResult<Bound<'py, PyDict>> {
    let game = MatrixGame::from_rows(&payoffs).map_err(value_error)?;
    let solution = py.detach(|| game.solve()).map_err(value_error)?;
    let result = PyDict::new(py);
    result.set_item("value", solution.value)?;
    result.set_item("row_strategy", solution.row_strategy)?;
    result.set_item("col_strategy", solution.col_strategy)?;
    Ok(result)
}
