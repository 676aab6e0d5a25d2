//! The exact solvers of a state whatever its game, as the Python package
//! calls them: the cooperative solver for a team's position (with the
//! game's objectives) and the equilibrium of a simultaneous-move position,
//! depth-first over some rounds or by the game's retrograde analysis.

use crate::arena::solutions::{EquilibriumReport, SolveReport, solve_position, solve_rounds};
use crate::core::{Capabilities, Simultaneous, SimultaneousVisitor, Status};
use crate::registry::Registered;
use serde::Serialize;
use std::path::Path;

/// What to solve a state for.
#[derive(Clone, Copy, Default)]
pub struct SolveRequest<'a> {
    /// Simultaneous moves: the rounds to solve from the state, the game
    /// beyond counting as a draw; with `retrograde`, the rounds left of the
    /// tables (the game's own limit when `None`).
    pub rounds: Option<u32>,
    /// The most states a search may expand (and, for a team's win, each
    /// objective's bound); as many as the memory holds when `None`.
    pub budget: Option<u64>,
    /// Simultaneous moves: solve by the game's retrograde analysis of
    /// every state instead of depth-first from this one.
    pub retrograde: bool,
    /// With `retrograde`: where to save the tables, for the oracle agent.
    pub out: Option<&'a Path>,
    /// With `retrograde`: told a line of text after each layer.
    pub progress: Option<&'a (dyn Fn(&str) + Sync)>,
}

/// A solved state: a team's position or a simultaneous-move equilibrium.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Solution {
    /// Whether the team can force a win, with a winning line and the
    /// bounds of the game's objectives.
    Position(SolveReport),
    /// The value to player 0 and each player's optimal strategy.
    Equilibrium(EquilibriumReport),
}

/// Solves `state` as `norn solve` does.
///
/// # Errors
/// A state that is not a decision (a deal under way, a finished game), a
/// game of competing sides that take turns, a request the game's kind does
/// not take, or a solve the budget or the memory cannot hold.
pub fn solve_state<G: Registered>(state: &G, request: &SolveRequest) -> Result<Solution, String> {
    match state.status() {
        Status::Chance => {
            return Err("the state waits for a chance event: solve a dealt position".into());
        }
        Status::Over(_) => return Err("the game is over: there is nothing to solve".into()),
        Status::ToMove(_) | Status::Simultaneous => {}
    }
    if let Some(solution) = G::with_simultaneous_moves(Equilibrium { state, request }) {
        return solution;
    }
    if request.rounds.is_some() || request.retrograde {
        return Err(format!(
            "rounds and retrograde solve games with simultaneous moves, and {} has none",
            G::NAME
        ));
    }
    if !Capabilities::of::<G>().cooperative() {
        return Err(format!(
            "the exact solvers take a cooperative game or a game with simultaneous moves, and {} has competing sides that take turns",
            G::NAME
        ));
    }
    solve_position(state, &G::objectives(), request.budget)
        .map(Solution::Position)
        .map_err(|error| error.to_string())
}

/// [`solve_state`] for a game with simultaneous moves.
struct Equilibrium<'a, 'b, G> {
    state: &'a G,
    request: &'a SolveRequest<'b>,
}

impl<G: Registered> SimultaneousVisitor<G> for Equilibrium<'_, '_, G> {
    type Output = Result<Solution, String>;

    fn visit(self) -> Self::Output
    where
        G: Simultaneous,
    {
        let request = self.request;
        if !request.retrograde {
            let Some(rounds) = request.rounds else {
                return Err("give the number of rounds to solve from the state".into());
            };
            return solve_rounds(self.state, rounds, request.budget).map(Solution::Equilibrium);
        }
        if request.budget.is_some() {
            return Err(
                "a budget bounds a depth-first solve; a retrograde solve's size is fixed by the game"
                    .into(),
            );
        }
        let solver = G::equilibrium_solvers()
            .into_iter()
            .find(|solver| solver.name == "retrograde")
            .ok_or_else(|| format!("{} has no retrograde analysis", G::NAME))?;
        let progress = request.progress.unwrap_or(&|_: &str| {});
        (solver.solve)(self.state, request.rounds, request.out, progress).map(Solution::Equilibrium)
    }
}
