//! One game between agents.

use super::{Agent, Decision};
use crate::core::{Game, Outcome, Payoffs, Player, Status};

/// A finished game: the moves in order and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame<M> {
    pub moves: Vec<M>,
    /// The payoffs and the reason: the game's own, `"resignation"`, or
    /// `"max-plies"` when the optional limit of [`play_game`] ended it.
    pub outcome: Outcome,
    /// The player who resigned, if one did.
    pub resigned: Option<Player>,
}

/// Plays a game from `start` in which `agents[p]` chooses for player `p`,
/// telling every agent about every move. With `max_plies`, a game still going
/// after that many moves ends with every player at the middle of the payoff
/// range (a draw).
///
/// A player who resigns gets the lowest payoff of the range; in a two-player
/// game the opponent gets the highest, with more players the others get the
/// middle.
///
/// # Panics
/// If the game reaches a chance or simultaneous-move state (this loop plays
/// only games where one player moves at a time), if there are fewer agents
/// than players, or if an agent plays an illegal move.
pub fn play_game<G: Game>(
    start: &G,
    agents: &mut [Box<dyn Agent<G>>],
    max_plies: Option<usize>,
) -> PlayedGame<G::Move> {
    let mut state = start.clone();
    let mut moves = Vec::new();
    let (low, high) = state.payoff_range();
    let middle = (low + high) / 2.0;
    loop {
        let player = match state.status() {
            Status::Over(outcome) => {
                return PlayedGame {
                    moves,
                    outcome,
                    resigned: None,
                };
            }
            Status::ToMove(player) => player,
            Status::Chance | Status::Simultaneous => {
                panic!("play_game plays only games where one player moves at a time")
            }
        };
        if max_plies.is_some_and(|limit| moves.len() >= limit) {
            return PlayedGame {
                moves,
                outcome: Outcome {
                    payoffs: Payoffs::shared(state.num_players(), middle),
                    reason: "max-plies",
                },
                resigned: None,
            };
        }
        match agents[player].decide(&state) {
            Decision::Play(mv) => {
                for agent in agents.iter_mut() {
                    agent.observe(&state, mv);
                }
                if let Err(illegal) = state.try_play(mv) {
                    panic!("agent `{}` played an {illegal}", agents[player].spec());
                }
                moves.push(mv);
            }
            Decision::Resign => {
                let players = state.num_players();
                let others = if players == 2 { high } else { middle };
                let mut values = vec![others; players];
                values[player] = low;
                return PlayedGame {
                    moves,
                    outcome: Outcome {
                        payoffs: Payoffs::from_slice(&values),
                        reason: "resignation",
                    },
                    resigned: Some(player),
                };
            }
        }
    }
}
