//! Exact equilibria of games with simultaneous moves as reports: the value
//! of a position and both players' optimal mixed strategies there.

use crate::core::{Notation, Simultaneous, memory_limit};
use crate::search::{
    BYTES_PER_SOLVED_STATE, SimultaneousSolveError, SimultaneousSolver, StageSolution,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;

/// A position solved: its value and each player's optimal strategy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EquilibriumReport {
    /// The game's registry name.
    pub game: &'static str,
    /// The solved position in the game's notation.
    pub position: String,
    /// The rules options in force, as text.
    pub rules: String,
    /// How it was solved: `"depth-first"` or `"retrograde"`.
    pub method: &'static str,
    /// The rounds (simultaneous stages) solved, the current one included;
    /// the game beyond them counts as a draw. `None` for the whole game.
    pub rounds: Option<u32>,
    /// The value to player 0.
    pub value: f64,
    /// The players' names in player order, for the text.
    #[serde(skip)]
    pub players: Vec<String>,
    /// Each player's choices (by the player's name) with their
    /// probabilities and values against the other's optimal strategy.
    #[serde(flatten)]
    pub strategies: BTreeMap<String, Vec<ChoiceShare>>,
    /// The distinct states solved.
    pub states: u64,
    /// The wall-clock time of the solve, in seconds.
    pub seconds: f64,
    /// The memory the solve's tables took, where it is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<u64>,
    /// A retrograde solve's view of every state of its last layer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forced: Option<ForcedShares>,
}

/// The shares of all round-start states (those not already won) that
/// player 0 can force a win from, that player 1 can, and that neither can,
/// with the rounds left of a retrograde table's last layer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ForcedShares {
    /// The rounds left to play from the states of the last layer.
    pub rounds_left: u32,
    /// The share (0 to 1) of those states player 0 can force a win from.
    pub first_player_wins: f64,
    /// The share player 1 can force a win from.
    pub second_player_wins: f64,
    /// The share neither player can force a win from; the three add up to 1.
    pub neither: f64,
}

/// One choice of an optimal strategy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoiceShare {
    /// The choice in the game's move notation.
    pub choice: String,
    /// How often the optimal strategy plays it (0 to 1; 0 for a choice
    /// outside the strategy's support).
    pub probability: f64,
    /// The value to player 0 of this choice against the other player's
    /// optimal strategy.
    pub value: f64,
}

impl EquilibriumReport {
    /// The report of `solution` at `state`; the counts and timing are
    /// filled in by the caller.
    pub fn new<G: Notation>(
        state: &G,
        method: &'static str,
        rounds: Option<u32>,
        solution: &StageSolution<G::Move>,
    ) -> EquilibriumReport {
        let strategies = (0..state.num_players())
            .filter(|&player| !solution.choice_values[player].is_empty())
            .map(|player| {
                let shares = solution.choice_values[player]
                    .iter()
                    .map(|&(mv, value)| ChoiceShare {
                        choice: state.move_text(mv),
                        probability: solution.strategies[player]
                            .iter()
                            .find(|(chosen, _)| *chosen == mv)
                            .map_or(0.0, |&(_, probability)| probability),
                        value,
                    })
                    .collect();
                (state.player_name(player), shares)
            })
            .collect();
        EquilibriumReport {
            game: G::NAME,
            position: state.position_text(),
            rules: state.rules().to_string(),
            method,
            rounds,
            value: solution.value,
            players: (0..state.num_players())
                .map(|player| state.player_name(player))
                .collect(),
            strategies,
            states: 0,
            seconds: 0.0,
            memory_bytes: None,
            forced: None,
        }
    }

    /// The report as text for a terminal.
    pub fn text(&self) -> String {
        let mut text = String::new();
        let horizon = self
            .rounds
            .map_or_else(|| "the whole game".to_string(), |r| format!("{r} rounds"));
        let _ = writeln!(
            text,
            "{} at {} ({horizon}, {})",
            self.game, self.position, self.method
        );
        let first = self.players.first().map_or("player0", String::as_str);
        let _ = writeln!(text, "value for {first}: {:+.6}", self.value);
        for player in &self.players {
            let Some(shares) = self.strategies.get(player) else {
                continue;
            };
            let _ = writeln!(text, "{player}:");
            for share in shares {
                let _ = writeln!(
                    text,
                    "  {:>6}  probability {:.4}  {first} gets {:+.6}",
                    share.choice, share.probability, share.value
                );
            }
        }
        let _ = write!(text, "{} states in {:.2} s", self.states, self.seconds);
        if let Some(bytes) = self.memory_bytes {
            let _ = write!(
                text,
                ", {:.1} GiB of tables",
                bytes as f64 / f64::from(1u32 << 30)
            );
        }
        text.push('\n');
        if let Some(forced) = &self.forced {
            let second = self.players.get(1).map_or("player1", String::as_str);
            let _ = writeln!(
                text,
                "round starts with {} rounds left: {first} forces a win from {:.2}%, {second} from {:.2}%, neither from {:.2}%",
                forced.rounds_left,
                100.0 * forced.first_player_wins,
                100.0 * forced.second_player_wins,
                100.0 * forced.neither
            );
        }
        text
    }
}

/// Solves `state` exactly for `rounds` simultaneous stages by backward
/// induction ([`SimultaneousSolver`]), with the states beyond counting as
/// a draw, within `budget` states if given and within the memory the
/// machine can give.
///
/// The states grow many times over a round, so a solve that cannot fit is
/// refused before it starts, from the growth measured by solving fewer
/// rounds first. A solve that outgrows the estimate still stops at the
/// budget.
///
/// # Errors
/// A game the solver cannot handle, or a solve bigger than the budget or
/// the memory, foreseen or met.
pub fn solve_rounds<G: Simultaneous + Notation>(
    state: &G,
    rounds: u32,
    budget: Option<u64>,
) -> Result<EquilibriumReport, String> {
    let started = Instant::now();
    let memory_states = memory_limit() / BYTES_PER_SOLVED_STATE;
    let (max_states, limited_by) = match budget {
        Some(budget) if budget <= memory_states => (budget, "the budget"),
        _ => (memory_states, "the memory"),
    };
    let max_states = usize::try_from(max_states).unwrap_or(usize::MAX);
    let advice = "solve fewer rounds, or the whole game by retrograde analysis \
                  (--retrograde) where the game has one";
    let outgrown = |error: SimultaneousSolveError| match error {
        SimultaneousSolveError::TooManyStates { limit } => format!(
            "solving {rounds} rounds takes more than {limit} states, as many as {limited_by} \
             allows: {advice}"
        ),
        other => other.to_string(),
    };
    let states_of = |fewer: u32| {
        let mut solver = SimultaneousSolver::new(fewer, |_: &G| 0.0, max_states);
        solver.solve(state).map_err(outgrown)?;
        Ok::<f64, String>(solver.states() as f64)
    };
    if rounds > 2 {
        // The states of 1, 2, ... rounds, solved until the growth between
        // the last two, carried on to `rounds`, fits the budget. Each round
        // grows less than the one before (Nibelungen: 300-fold, then
        // 44-fold), so an estimate from the first rounds is too high: a
        // solve is refused only when every round before `rounds` has been
        // measured, or the next round would take more than a quarter of
        // the budget by the growth so far (measuring it would cost much of
        // what the solve itself may).
        let mut states = vec![states_of(1)?];
        loop {
            let measured = states.len() as u32;
            let last = states[states.len() - 1];
            if let [.., before, _] = states[..] {
                let growth = (last / before.max(1.0)).max(1.0);
                let foreseen = last * growth.powf(f64::from(rounds - measured));
                if foreseen <= max_states as f64 {
                    break;
                }
                if measured + 1 == rounds || last * growth > max_states as f64 / 4.0 {
                    let foreseen = if foreseen < 1e15 {
                        format!("about {foreseen:.0}")
                    } else {
                        "more than 10^15".to_string()
                    };
                    return Err(format!(
                        "solving {rounds} rounds would take {foreseen} states ({measured} \
                         rounds take {last}, growing {growth:.0}-fold a round), more than \
                         {limited_by} allows ({max_states} states): {advice}"
                    ));
                }
            }
            states.push(states_of(measured + 1)?);
        }
    }
    let mut solver = SimultaneousSolver::new(rounds, |_: &G| 0.0, max_states);
    let solution = solver.solve(state).map_err(outgrown)?;
    let mut report = EquilibriumReport::new(state, "depth-first", Some(rounds), &solution);
    report.states = solver.states() as u64;
    report.seconds = started.elapsed().as_secs_f64();
    report.memory_bytes = Some(report.states * BYTES_PER_SOLVED_STATE);
    Ok(report)
}
