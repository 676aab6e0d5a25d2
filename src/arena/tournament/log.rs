//! The game log: one line of `games.jsonl` per finished game, and the
//! checks that a logged game is the schedule's and replays to its result.

use super::adjudicated::check_adjudicated;
use super::config::{ScheduledGame, TournamentConfig};
use super::forfeits::{SeatForfeit, check_logged_forfeit};
use super::opening::Opening;
use super::search_log::{PlySearch, check_search};
use crate::agents::may_resign;
use crate::arena::playing::{
    DRAW_ADJUDICATION_REASON, FORFEIT_REASON, MAX_PLIES_REASON, RESIGN_ADJUDICATION_REASON,
    RESIGNATION_REASON, TIME_REASON, Verdict, adjudicated_outcome, max_plies_outcome,
    resignation_outcome, resolve_pending_chance, time_loss_outcome,
};
use crate::core::{Notation, Outcome, Payoffs, PlyText, Status, escape_control, rng_from_seed};
use serde::{Deserialize, Serialize};

/// One finished game as stored in `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's place in the schedule, from 0: games `2k` and `2k + 1`
    /// are a colour-swapped pair.
    pub index: usize,
    /// Agent index per seat.
    pub seats: [usize; 2],
    /// Agent spec per seat.
    pub agents: [String; 2],
    /// Side name per seat (e.g. attackers, defenders).
    pub sides: [String; 2],
    /// The seed of the game's pair, which the agents' and the chance
    /// events' seeds derive from (the same for both games of a pair).
    pub seed: u64,
    /// Where the game started, when not at the game's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<Opening>,
    /// The plies after the opening in the game's notation: a move as a
    /// string, a simultaneous choice as a list of every player's move.
    pub moves: Vec<PlyText>,
    /// The number of plies in `moves` (the opening's not counted).
    pub plies: usize,
    /// Payoff per seat.
    pub payoffs: [f64; 2],
    /// The winning side, `None` for a draw.
    pub winner: Option<String>,
    /// Why the game ended: the game's own reason, or the runner's
    /// ([`MAX_PLIES_REASON`], [`RESIGNATION_REASON`], [`FORFEIT_REASON`],
    /// [`TIME_REASON`], [`RESIGN_ADJUDICATION_REASON`],
    /// [`DRAW_ADJUDICATION_REASON`]).
    pub reason: String,
    /// The seat that lost by forfeit and why (only for the reason
    /// [`FORFEIT_REASON`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<SeatForfeit>,
    /// What each ply's decision cost, one entry per ply of `moves`, when
    /// the run records it ([`RunOptions::record_search`](super::RunOptions::record_search)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<Vec<PlySearch>>,
}

impl GameLine {
    /// The seed the game's chance events were drawn from, as its place in
    /// the schedule gives it.
    pub fn chance_seed(&self) -> u64 {
        ScheduledGame {
            index: self.index,
            seats: self.seats,
            seed: self.seed,
        }
        .chance_seed()
    }
}

/// Reads and plays `texts` from `start`, each read in the state it was
/// written from, with chance events drawn from `chance_seed` as in play;
/// `visit` sees the state before each ply with the ply's index. The final
/// state.
pub(super) fn replay_texts<G: Notation>(
    start: &G,
    texts: &[PlyText],
    chance_seed: u64,
    mut visit: impl FnMut(usize, &G) -> Result<(), String>,
) -> Result<G, String> {
    let mut chance = rng_from_seed(chance_seed);
    let mut state = start.clone();
    for (number, text) in texts.iter().enumerate() {
        resolve_pending_chance(&mut state, &mut chance)?;
        visit(number, &state)?;
        let ply = state
            .parse_ply(text)
            .map_err(|error| format!("ply {}: {error}", number + 1))?;
        state.play_ply(&ply);
    }
    resolve_pending_chance(&mut state, &mut chance)?;
    Ok(state)
}

/// Checks a logged game against the tournament it claims to belong to: the
/// schedule's game at its index ([`TournamentConfig::check_scheduled`]),
/// the game's side names, a winner that agrees with the payoffs, moves
/// that replay to the recorded result ([`replay_line`]), and an end where
/// the run's adjudication, if any, puts it.
pub fn check_line<G: Notation>(
    config: &TournamentConfig,
    start: &G,
    line: &GameLine,
) -> Result<(), String> {
    config.check_scheduled(line)?;
    let opening = config
        .opening_of(start, line.index)
        .map_err(|error| format!("game {}: {error}", line.index))?;
    if line.opening != opening {
        return Err(format!(
            "game {}: its opening differs from the tournament's",
            line.index
        ));
    }
    if line.reason == FORFEIT_REASON
        && config
            .max_plies
            .is_some_and(|limit| line.moves.len() >= limit)
    {
        return Err(format!(
            "game {}: forfeited after {} plies, past the cap of {}",
            line.index,
            line.moves.len(),
            config.max_plies.unwrap_or_default()
        ));
    }
    if line.reason == TIME_REASON && config.time_control.is_none() {
        return Err(format!(
            "game {}: lost on time, but the tournament has no clock",
            line.index
        ));
    }
    if line.reason == MAX_PLIES_REASON && config.max_plies != Some(line.moves.len()) {
        return Err(format!(
            "game {}: ended by the ply cap after {} plies, but {}",
            line.index,
            line.moves.len(),
            match config.max_plies {
                Some(cap) => format!("the cap is {cap}"),
                None => "the tournament has no ply cap".to_string(),
            }
        ));
    }
    let sides = [start.player_name(0), start.player_name(1)];
    if line.sides != sides {
        return Err(format!(
            "game {}: sides {}, but {} has {}",
            line.index,
            escape_control(&line.sides.join(", ")),
            config.game,
            sides.join(", ")
        ));
    }
    let winner = Outcome {
        payoffs: Payoffs::from_slice(&line.payoffs),
        reason: "",
    }
    .winner()
    .map(|seat| sides[seat].clone());
    if line.winner != winner {
        return Err(format!(
            "game {}: the winner {} does not agree with the payoffs {}",
            line.index,
            match &line.winner {
                Some(winner) => format!("`{}`", escape_control(winner)),
                None => "none (a draw)".to_string(),
            },
            payoffs_text(&line.payoffs)
        ));
    }
    replay_line(start, line)?;
    check_adjudicated(config, line)
}

/// A game's payoffs as a message gives them: `[-1, 1]`.
pub(super) fn payoffs_text(payoffs: &[f64]) -> String {
    let each: Vec<String> = payoffs.iter().map(f64::to_string).collect();
    format!("[{}]", each.join(", "))
}

/// The state a game starts from: `start`, or where `opening` leads from it.
pub(super) fn opening_state<G: Notation>(
    start: &G,
    opening: Option<&Opening>,
) -> Result<G, String> {
    match opening {
        Some(opening) => opening
            .apply(start)
            .map_err(|error| format!("the opening: {error}")),
        None => Ok(start.clone()),
    }
}

/// Checks that a logged game replays under the rules to its recorded result
/// from its opening (chance events drawn from the game's seed, as they were
/// played).
pub fn replay_line<G: Notation>(start: &G, line: &GameLine) -> Result<(), String> {
    check_search(line)?;
    // Each move's record names the player who was to move.
    let check_mover = |number: usize, state: &G| match (&line.search, state.status()) {
        (Some(search), Status::ToMove(mover)) => match &search[number] {
            PlySearch::Move(decision) if decision.seat != mover => Err(format!(
                "ply {}: the search record is the {}' but the {} were to move",
                number + 1,
                state.player_name(decision.seat),
                state.player_name(mover)
            )),
            _ => Ok(()),
        },
        _ => Ok(()),
    };
    let state = opening_state(start, line.opening.as_ref())
        .and_then(|opened| replay_texts(&opened, &line.moves, line.chance_seed(), check_mover))
        .map_err(|error| format!("game {}: {error}", line.index))?;
    if line.reason != FORFEIT_REASON && line.forfeit.is_some() {
        return Err(format!(
            "game {}: names a forfeit, but ended by {}",
            line.index, line.reason
        ));
    }
    let status = state.status();
    match status.outcome() {
        Some(outcome) => {
            if outcome.reason != line.reason || outcome.payoffs.as_slice() != line.payoffs {
                return Err(format!(
                    "game {}: replay ends by {} with payoffs {}, the log says {} with {}",
                    line.index,
                    outcome.reason,
                    payoffs_text(outcome.payoffs.as_slice()),
                    escape_control(&line.reason),
                    payoffs_text(&line.payoffs)
                ));
            }
        }
        None => {
            // A game cut short by the runner: the payoffs must be those the
            // runner gives for the recorded reason in the final state.
            let possible: Vec<Outcome> = match line.reason.as_str() {
                MAX_PLIES_REASON => vec![max_plies_outcome(&state)],
                FORFEIT_REASON => return check_logged_forfeit(line, &state),
                // The side (or at a simultaneous choice, a side) that was
                // to choose ran out of time.
                TIME_REASON => (0..state.num_players())
                    .filter(|&player| match status {
                        Status::ToMove(mover) => mover == player,
                        _ => true,
                    })
                    .map(|player| time_loss_outcome(&state, player))
                    .collect(),
                RESIGN_ADJUDICATION_REASON => (0..state.num_players())
                    .map(|player| adjudicated_outcome(&state, Verdict::Loss(player)))
                    .collect(),
                DRAW_ADJUDICATION_REASON => vec![adjudicated_outcome(&state, Verdict::Draw)],
                RESIGNATION_REASON => (0..state.num_players())
                    .filter(|&player| match status {
                        Status::ToMove(mover) => mover == player,
                        _ => true,
                    })
                    .filter(|&player| line.agents.get(player).is_some_and(|spec| may_resign(spec)))
                    .map(|player| resignation_outcome(&state, player))
                    .collect(),
                _ => {
                    return Err(format!(
                        "game {}: replay has not ended, the log says it ended by {}",
                        line.index,
                        escape_control(&line.reason)
                    ));
                }
            };
            if !possible
                .iter()
                .any(|outcome| outcome.payoffs.as_slice() == line.payoffs)
            {
                let hint = match line.reason.as_str() {
                    RESIGNATION_REASON => " (only a person or an outside engine resigns)",
                    _ => "",
                };
                return Err(format!(
                    "game {}: payoffs {} are not those of a game ended by {}{hint}",
                    line.index,
                    payoffs_text(&line.payoffs),
                    line.reason
                ));
            }
        }
    }
    Ok(())
}
