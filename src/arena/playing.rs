//! Playing one game between agents: the loop behind `norn play`, tournaments
//! and matches.

use crate::agents::{Agent, Decision};
use crate::core::{Game, Outcome, Payoffs, Player, Ply, Status};
use std::sync::atomic::{AtomicBool, Ordering};

/// The reason recorded when the runner's ply cap ends a game.
pub const MAX_PLIES_REASON: &str = "max-plies";
/// The reason recorded when an agent resigns.
pub const RESIGNATION_REASON: &str = "resignation";

/// A finished game: the plies in order and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame<M> {
    /// One entry per ply: a move, or every player's move of a simultaneous choice.
    pub plies: Vec<Ply<M>>,
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
    /// The game reached a chance event: games are dealt before they are played.
    ChanceEvent,
    /// An agent could not choose.
    AgentFailed { agent: String, reason: String },
    /// An agent chose a move the rules do not allow.
    IllegalMove { agent: String, reason: String },
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Interrupted => f.write_str("interrupted"),
            PlayError::ChanceEvent => f.write_str(
                "the game reached a chance event; games are dealt before they are played",
            ),
            PlayError::AgentFailed { agent, reason } => {
                write!(f, "agent `{agent}` could not choose a move: {reason}")
            }
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

/// What the agents chose in one state.
enum Choice<M> {
    Ply(Ply<M>),
    Resign(Player),
}

/// Plays `start` to its end with `agents[p]` choosing for player `p`.
///
/// At a simultaneous choice every agent decides for its player without
/// seeing the others' choices, and the moves are played together as one
/// ply. Every agent is told every ply (for tree reuse), and every ply is
/// checked against the rules. The game ends by the rules; by a resignation
/// (the resigning player gets the lowest payoff of the range, its opponent in
/// a two-player game the highest, other players the middle); or, after
/// `max_plies` plies, with every player at the middle of the range (a draw).
/// `stop` is read before each ply, so that a long game can be abandoned.
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
    let mut plies = Vec::new();
    let (low, high) = state.payoff_range();
    let middle = (low + high) / 2.0;
    loop {
        let deciders: Vec<Player> = match state.status() {
            Status::Over(outcome) => {
                return Ok(PlayedGame {
                    plies,
                    outcome,
                    resigned: None,
                });
            }
            Status::ToMove(player) => vec![player],
            Status::Simultaneous => (0..state.num_players()).collect(),
            Status::Chance => return Err(PlayError::ChanceEvent),
        };
        if max_plies.is_some_and(|limit| plies.len() >= limit) {
            return Ok(PlayedGame {
                plies,
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
        let ply = match choose(&state, agents, &deciders)? {
            Choice::Ply(ply) => ply,
            Choice::Resign(player) => {
                let players = state.num_players();
                let others = if players == 2 { high } else { middle };
                let mut values = vec![others; players];
                values[player] = low;
                return Ok(PlayedGame {
                    plies,
                    outcome: Outcome {
                        payoffs: Payoffs::from_slice(&values),
                        reason: RESIGNATION_REASON,
                    },
                    resigned: Some(player),
                });
            }
        };
        for agent in agents.iter_mut() {
            agent.observe(&state, &ply);
        }
        state
            .try_play_ply(&ply)
            .map_err(|illegal| PlayError::IllegalMove {
                agent: deciders
                    .iter()
                    .map(|&player| agents[player].spec())
                    .collect::<Vec<_>>()
                    .join(", "),
                reason: illegal.reason().to_string(),
            })?;
        plies.push(ply);
    }
}

/// Asks the agents of `deciders` for their moves in `state`: one move for a
/// single decider, a joint move for all players at a simultaneous choice.
fn choose<G: Game>(
    state: &G,
    agents: &mut [Box<dyn Agent<G>>],
    deciders: &[Player],
) -> Result<Choice<G::Move>, PlayError> {
    let mut moves = Vec::with_capacity(deciders.len());
    for &player in deciders {
        let agent = &mut agents[player];
        match agent.decide(state, player) {
            Ok(Decision::Play(mv)) => moves.push(mv),
            Ok(Decision::Resign) => return Ok(Choice::Resign(player)),
            Err(error) => {
                return Err(PlayError::AgentFailed {
                    agent: agent.spec().to_string(),
                    reason: error.to_string(),
                });
            }
        }
    }
    Ok(Choice::Ply(if state.status() == Status::Simultaneous {
        Ply::Joint(moves)
    } else {
        Ply::Move(moves[0])
    }))
}
