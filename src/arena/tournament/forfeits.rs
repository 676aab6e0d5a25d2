//! Games lost by forfeit: an agent that fails (an error, an illegal move,
//! an outside engine that exits, hangs or answers garbage) loses the game,
//! which is logged with the reason, as engine testers record it; a run
//! stops only when one agent forfeits several games in a row.

use super::log::{GameLine, payoffs_text};
use crate::arena::playing::forfeit_outcome;
use crate::core::{Game, Status};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// How many games in a row an agent may forfeit before the run stops, by
/// default: one failure may be bad luck, three in a row are a broken agent.
pub const DEFAULT_MAX_FORFEITS: usize = 3;

/// The longest reason a logged forfeit may give. The runner cuts a longer
/// one where it writes the line ([`SeatForfeit::new`]) and a resume refuses
/// a longer one, so that whatever an agent says (an outside engine may
/// quote a reply of 64 KiB) the log reads back.
pub const MAX_FORFEIT_REASON_BYTES: usize = 4096;

/// The seat that lost a logged game by forfeit, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatForfeit {
    /// The seat (0 moves first) whose agent failed and lost.
    pub seat: usize,
    /// What went wrong, as the play loop said it, cut to
    /// [`MAX_FORFEIT_REASON_BYTES`].
    pub reason: String,
}

impl SeatForfeit {
    /// The forfeit of `seat` for `reason`, cut to
    /// [`MAX_FORFEIT_REASON_BYTES`] with a mark that says how much was cut.
    pub fn new(seat: usize, reason: &str) -> SeatForfeit {
        SeatForfeit {
            seat,
            reason: cut_to_bytes(reason, MAX_FORFEIT_REASON_BYTES),
        }
    }
}

/// `text` if it holds at most `limit` bytes, otherwise its beginning (cut
/// at a character's boundary) and a mark saying how many bytes were cut,
/// `limit` bytes at most in all.
fn cut_to_bytes(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    // The mark with the longest count it can hold.
    let mark = |cut: usize| format!(" [... {cut} bytes cut]");
    let mut kept = limit.saturating_sub(mark(usize::MAX).len());
    while !text.is_char_boundary(kept) {
        kept -= 1;
    }
    format!("{}{}", &text[..kept], mark(text.len() - kept))
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
            "game {game}: payoffs {} are not those of seat {seat}'s forfeit",
            payoffs_text(&line.payoffs)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_reason_is_cut_to_the_limit_with_a_mark() {
        let short = SeatForfeit::new(1, "out of memory");
        assert_eq!(short.reason, "out of memory");
        // Two-byte characters, so that the cut falls inside one of them.
        let long = "é".repeat(MAX_FORFEIT_REASON_BYTES);
        let cut = SeatForfeit::new(0, &long).reason;
        assert!(cut.len() <= MAX_FORFEIT_REASON_BYTES, "{}", cut.len());
        let kept = cut.split(" [... ").next().unwrap();
        assert!(
            long.starts_with(kept) && kept.len() > 4000,
            "{}",
            kept.len()
        );
        let counted: usize = cut
            .trim_end_matches(" bytes cut]")
            .rsplit(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(kept.len() + counted, long.len());
    }
}
