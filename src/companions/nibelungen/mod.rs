//! Nibelungen's additions: the whole game solved by retrograde analysis,
//! and the oracle agent that plays from the solved table.

mod oracle;
pub mod retrograde;

pub use oracle::OracleAgent;

use crate::agents::{self, Agent};
use crate::arena::solutions::{EquilibriumReport, ForcedShares};
use crate::core::Game;
use crate::core::ParseError;
use crate::games::nibelungen::Nibelungen;
use crate::registry::{EquilibriumSolver, Registered};
use retrograde::{LAYER_STATES, LayerReport, RetrogradeTable};
use std::path::Path;
use std::time::Instant;

impl Registered for Nibelungen {
    const TITLE: &'static str = "Nibelungen, the game of simultaneous secret choices";
    const SIDES: &'static [&'static str] = &["tod", "no"];

    /// The common agents, and the oracle of the retrograde table
    /// (`oracle`, `oracle:table=FILE`).
    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        let kind = spec.trim().split(':').next().unwrap_or_default();
        if kind == "oracle" {
            return Ok(Box::new(OracleAgent::from_spec(spec.trim(), seed)?));
        }
        agents::build_encoded_agent(spec, seed)
    }

    fn equilibrium_solvers() -> Vec<EquilibriumSolver<Self>> {
        vec![EquilibriumSolver {
            name: "retrograde",
            title: "the whole game by retrograde analysis, layer by layer of rounds left",
            solve: solve_by_retrograde,
        }]
    }
}

/// Solves `state` by retrograde analysis (Nibelungen's entry in
/// [`crate::registry::Registered::equilibrium_solvers`]): the layers up to the rounds the position has left (without a round limit, until they stop
/// changing), then the rest of the position's round solved on them.
pub fn solve_by_retrograde(
    state: &Nibelungen,
    rounds: Option<u32>,
    out: Option<&Path>,
    on_progress: &(dyn Fn(&str) + Sync),
) -> Result<EquilibriumReport, String> {
    let started = Instant::now();
    let rounds_left = RetrogradeTable::rounds_left(state, rounds);
    let layers = rounds_left
        .saturating_sub(1)
        .min(RetrogradeTable::MAX_LAYERS);
    if out.is_some() && layers == 0 {
        // The last round is solved on its own, from no layer: a table of
        // no layers would be one the oracle cannot use.
        return Err(format!(
            "a saved table holds the layers of the rounds before the last, and with {rounds_left} rounds left there are none; give --rounds 2 or more, or leave out --out"
        ));
    }
    let on_layer = |layer: &LayerReport| on_progress(&layer.line());
    let table = RetrogradeTable::solve(*state.rules(), layers, out.is_some(), &on_layer)?;
    if rounds_left == u32::MAX && !table.converged() {
        return Err(format!(
            "without a round limit the layers had not stopped changing after {layers}: give --rounds R"
        ));
    }
    let solution = table
        .solve_state(state, rounds_left)
        .map_err(|error| error.to_string())?;
    if let Some(path) = out {
        table.save(path)?;
    }
    let horizon = (rounds_left != u32::MAX).then_some(rounds_left);
    let mut report = EquilibriumReport::new(state, "retrograde", horizon, &solution);
    report.states = (u64::from(layers)) * LAYER_STATES as u64;
    report.seconds = started.elapsed().as_secs_f64();
    report.memory_bytes = Some(table.bytes());
    report.forced = table
        .outcome_shares(table.last_rounds_left())
        .map(|[tod, no, neither]| ForcedShares {
            rounds_left: table.last_rounds_left(),
            first_player_wins: tod,
            second_player_wins: no,
            neither,
        });
    Ok(report)
}
