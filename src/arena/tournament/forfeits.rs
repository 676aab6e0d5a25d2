//! Games lost by forfeit: an agent that fails (an error, an illegal move,
//! an outside engine that exits, hangs or answers garbage) loses the game,
//! which is logged with the reason, as engine testers record it; a run
//! stops only when one agent forfeits several games in a row.

use super::log::GameLine;
use crate::arena::playing::forfeit_outcome;
use crate::core::{Game, Status};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// How many games in a row an agent may forfeit before the run stops, by
/// default: one failure may be bad luck, three in a row are a broken agent.
pub const DEFAULT_MAX_FORFEITS: usize = 3;

/// The longest reason a logged forfeit may give: the reasons norn writes
/// are far shorter (an engine's quoted lines are cut).
pub const MAX_FORFEIT_REASON_BYTES: usize = 4096;

/// The seat that lost a logged game by forfeit, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatForfeit {
    /// The seat (0 moves first) whose agent failed and lost.
    pub seat: usize,
    /// What went wrong, as the play loop said it (a log line's reason is
    /// refused beyond 4 KiB).
    pub reason: String,
}

/// Checks a logged game that ended by [`FORFEIT_REASON`](super::FORFEIT_REASON) and replays to
/// `state`, not over: it must name the seat that forfeited, which was to
/// choose in `state`, give the payoffs of that seat's loss, and a reason.
pub(super) fn check_logged_forfeit<G: Game>(line: &GameLine, state: &G) -> Result<(), String> {
    let game = line.index;
    let Some(forfeit) = &line.forfeit else {
        return Err(format!("game {game}: a forfeit that names no seat"));
    };
    if forfeit.reason.trim().is_empty() || forfeit.reason.len() > MAX_FORFEIT_REASON_BYTES {
        return Err(format!(
            "game {game}: a forfeit's reason must be given, in at most {MAX_FORFEIT_REASON_BYTES} bytes"
        ));
    }
    let seat = forfeit.seat;
    let choosing = match state.status() {
        Status::ToMove(mover) => mover == seat,
        Status::Simultaneous => seat < state.num_players(),
        Status::Chance | Status::Over(_) => false,
    };
    if seat >= line.seats.len() || !choosing {
        return Err(format!(
            "game {game}: seat {seat} forfeited, but it was not to choose"
        ));
    }
    if forfeit_outcome(state, seat).payoffs.as_slice() != line.payoffs {
        return Err(format!(
            "game {game}: payoffs {:?} are not those of seat {seat}'s forfeit",
            line.payoffs
        ));
    }
    Ok(())
}

/// Counts each agent's forfeits in a row, as games end, to stop a run
/// whose agent is broken.
pub(super) struct ForfeitStreaks {
    limit: usize,
    /// Per agent (index into the configuration's agents): forfeits since
    /// its last game without one.
    in_a_row: Mutex<Vec<usize>>,
}

impl ForfeitStreaks {
    /// Streaks of `agents` agents, stopping at `limit` (at least 1).
    pub(super) fn new(agents: usize, limit: usize) -> Result<ForfeitStreaks, String> {
        if limit == 0 {
            return Err("--max-forfeits must be at least 1".into());
        }
        Ok(ForfeitStreaks {
            limit,
            in_a_row: Mutex::new(vec![0; agents]),
        })
    }

    /// Counts a finished game (`names` names the agents, as
    /// [`TournamentConfig::display_names`](super::TournamentConfig::display_names)
    /// does); an error when an agent has now forfeited `limit` games in a row.
    pub(super) fn count(&self, line: &GameLine, names: &[String]) -> Result<(), String> {
        let mut in_a_row = self
            .in_a_row
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for (seat, &agent) in line.seats.iter().enumerate() {
            let forfeited = line.forfeit.as_ref().is_some_and(|f| f.seat == seat);
            let streak = &mut in_a_row[agent];
            *streak = if forfeited { *streak + 1 } else { 0 };
            if *streak >= self.limit {
                let reason = line.forfeit.as_ref().map_or("", |f| f.reason.as_str());
                return Err(format!(
                    "agent `{}` forfeited {} games in a row (--max-forfeits {}), the last (game {}): {reason}; \
                     the run stops, its finished games are in the log",
                    names[agent], *streak, self.limit, line.index
                ));
            }
        }
        Ok(())
    }
}
