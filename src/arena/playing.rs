//! Playing one game between agents: the loop behind `norn play`, tournaments
//! and matches.

use crate::agents::{Agent, Decision};
use crate::core::{Game, Outcome, Payoffs, Player, Status};
use std::sync::atomic::{AtomicBool, Ordering};

/// The reason recorded when the runner's ply cap ends a game.
pub const MAX_PLIES_REASON: &str = "max-plies";
/// The reason recorded when an agent resigns.
pub const RESIGNATION_REASON: &str = "resignation";

/// A finished game: the moves in order and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame<M> {
    pub moves: Vec<M>,
    /// The payoffs and the reason: the game's own, [`RESIGNATION_REASON`], or
    /// [`MAX_PLIES_REASON`] when the runner's ply cap ended it.
    pub outcome: Outcome,
    /// The player who resigned, if one did.
    pub resigned: Option<Player>,
}

/// Why a game could not be played to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The stop flag was raised before the game ended.
    Interrupted,
    /// The game reached a chance or simultaneous-move state, which agents
    /// that choose one move for one player cannot play.
    NotTurnBased,
    /// An agent chose a move the rules do not allow.
    IllegalMove { agent: String, reason: String },
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Interrupted => f.write_str("interrupted"),
            PlayError::NotTurnBased => f.write_str(
                "the game has chance or simultaneous moves, which these agents cannot play",
            ),
            PlayError::IllegalMove { agent, reason } => {
                write!(f, "agent `{agent}` chose an illegal move: {reason}")
            }
        }
    }
}

impl std::error::Error for PlayError {}

/// Plays `start` to its end with `agents[p]` choosing for player `p`; see
/// [`play_game_until`].
pub fn play_game<G: Game>(
    start: &G,
    agents: &mut [Box<dyn Agent<G>>],
    max_plies: Option<usize>,
) -> Result<PlayedGame<G::Move>, PlayError> {
    play_game_until(start, agents, max_plies, &AtomicBool::new(false))
}

/// Plays `start` to its end with `agents[p]` choosing for player `p`.
///
/// Every agent is told every move (for tree reuse), and every move is checked
/// against the rules. The game ends by the rules; by a resignation (the
/// resigning player gets the lowest payoff of the range, its opponent in a
/// two-player game the highest, other players the middle); or, after
/// `max_plies` plies, with every player at the middle of the range (a draw).
/// `stop` is read before each move, so that a long game can be abandoned.
///
/// # Panics
/// If there is not one agent per player.
pub fn play_game_until<G: Game>(
    start: &G,
    agents: &mut [Box<dyn Agent<G>>],
    max_plies: Option<usize>,
    stop: &AtomicBool,
) -> Result<PlayedGame<G::Move>, PlayError> {
    assert_eq!(agents.len(), start.num_players(), "one agent per player");
    for agent in agents.iter_mut() {
        agent.reset();
    }
    let mut state = start.clone();
    let mut moves = Vec::new();
    let (low, high) = state.payoff_range();
    let middle = (low + high) / 2.0;
    loop {
        let player = match state.status() {
            Status::Over(outcome) => {
                return Ok(PlayedGame {
                    moves,
                    outcome,
                    resigned: None,
                });
            }
            Status::ToMove(player) => player,
            Status::Chance | Status::Simultaneous => return Err(PlayError::NotTurnBased),
        };
        if max_plies.is_some_and(|limit| moves.len() >= limit) {
            return Ok(PlayedGame {
                moves,
                outcome: Outcome {
                    payoffs: Payoffs::shared(state.num_players(), middle),
                    reason: MAX_PLIES_REASON,
                },
                resigned: None,
            });
        }
        if stop.load(Ordering::Relaxed) {
            return Err(PlayError::Interrupted);
        }
        match agents[player].decide(&state) {
            Decision::Play(mv) => {
                for agent in agents.iter_mut() {
                    agent.observe(&state, mv);
                }
                state
                    .try_play(mv)
                    .map_err(|illegal| PlayError::IllegalMove {
                        agent: agents[player].spec().to_string(),
                        reason: illegal.reason().to_string(),
                    })?;
                moves.push(mv);
            }
            Decision::Resign => {
                let players = state.num_players();
                let others = if players == 2 { high } else { middle };
                let mut values = vec![others; players];
                values[player] = low;
                return Ok(PlayedGame {
                    moves,
                    outcome: Outcome {
                        payoffs: Payoffs::from_slice(&values),
                        reason: RESIGNATION_REASON,
                    },
                    resigned: Some(player),
                });
            }
        }
    }
}
