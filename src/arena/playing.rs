//! Playing one game between agents.

use crate::agents::{Agent, Decision};
use crate::core::{Game, Payoffs, Player, Status};
use std::sync::atomic::{AtomicBool, Ordering};

/// How a game between agents ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult<M> {
    /// The moves in order.
    pub moves: Vec<M>,
    /// One payoff per player.
    pub payoffs: Payoffs,
    /// The rules' name for the end (`"escape"`, ...), `"resignation"`, or
    /// `"max-plies"` when the game was cut off by the runner's own limit.
    pub reason: &'static str,
}

impl<M> GameResult<M> {
    /// The number of plies played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }
}

/// The reason recorded when the runner's ply cap ends a game.
pub const MAX_PLIES_REASON: &str = "max-plies";
/// The reason recorded when an agent resigns.
pub const RESIGNATION_REASON: &str = "resignation";

/// Errors that make a game unplayable by agents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The stop flag was raised before the game ended.
    Interrupted,
    /// The game reached a chance or simultaneous state, which agents that
    /// choose one move for one player cannot play.
    NotTurnBased,
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Interrupted => f.write_str("interrupted"),
            PlayError::NotTurnBased => f.write_str(
                "the game has chance or simultaneous moves, which agents cannot play here",
            ),
        }
    }
}

/// Plays `start` to the end with `agents[p]` choosing for player `p`.
///
/// Every agent is told every move (for tree reuse). The game ends by the rules,
/// by a resignation (the resigning player gets the lowest payoff, the others
/// the highest), or after `max_plies` plies as a draw (all payoffs zero).
/// `stop` is checked before each move, so a long game can be abandoned.
pub fn play_game<G: Game>(
    start: &G,
    agents: &mut [Box<dyn Agent<G>>],
    max_plies: Option<usize>,
    stop: &AtomicBool,
) -> Result<GameResult<G::Move>, PlayError> {
    assert_eq!(agents.len(), start.num_players(), "one agent per player");
    for agent in agents.iter_mut() {
        agent.reset();
    }
    let mut state = start.clone();
    let mut moves = Vec::new();
    loop {
        let player: Player = match state.status() {
            Status::Over(outcome) => {
                return Ok(GameResult {
                    moves,
                    payoffs: outcome.payoffs,
                    reason: outcome.reason,
                });
            }
            Status::ToMove(player) => player,
            Status::Chance | Status::Simultaneous => return Err(PlayError::NotTurnBased),
        };
        if max_plies.is_some_and(|limit| moves.len() >= limit) {
            return Ok(GameResult {
                moves,
                payoffs: Payoffs::shared(state.num_players(), 0.0),
                reason: MAX_PLIES_REASON,
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
                state.play(mv);
                moves.push(mv);
            }
            Decision::Resign => {
                let (low, high) = state.payoff_range();
                let values: Vec<f64> = (0..state.num_players())
                    .map(|p| if p == player { low } else { high })
                    .collect();
                return Ok(GameResult {
                    moves,
                    payoffs: Payoffs::from_slice(&values),
                    reason: RESIGNATION_REASON,
                });
            }
        }
    }
}
