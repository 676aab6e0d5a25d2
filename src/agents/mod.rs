//! Agents: anything that chooses moves, from a uniformly random player to a
//! search with a time limit, behind one trait so that matches and tournaments
//! can pit any of them against any other.
//!
//! Agents are built from spec strings by [`build_agent`]:
//!
//! | spec | agent |
//! |------|-------|
//! | `random` | a uniformly random legal move |
//! | `greedy` | the move with the best evaluation one ply ahead |
//! | `alphabeta:depth=6`, `alphabeta:ms=500` | [`AlphaBeta`](crate::search::AlphaBeta) search |
//! | `mcts:iters=20000,c=1.0,threads=2`, `mcts:ms=500` | [`Mcts`](crate::search::Mcts) search |
//! | `smmcts:iters=5000,select=rm` | [`SmMcts`](crate::search::SmMcts) for simultaneous moves |
//! | `equilibrium:rounds=2` | an exact equilibrium of the next rounds ([`SimultaneousSolver`](crate::search::SimultaneousSolver)) |
//! | `az:sims=64,gumbel=on` | a guided search ([`GuidedSearch`](crate::search::guided::GuidedSearch)), built by [`build_encoded_agent`] |
//!
//! `human` (moves typed in a terminal) is a [`HumanAgent`], which the command
//! line builds because it needs the game's notation and a terminal.
//!
//! ```
//! use norn::agents::build_agent;
//! use norn::arena::{PlayOptions, play_game};
//! use norn::core::Game;
//! use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
//!
//! let rules: HnefataflRules = "ply-limit=40".parse().unwrap();
//! let mut agents = vec![
//!     build_agent::<Hnefatafl>("greedy", 1).unwrap(),
//!     build_agent::<Hnefatafl>("random", 2).unwrap(),
//! ];
//! let game = play_game(&Hnefatafl::new(rules), &mut agents, &PlayOptions::default()).unwrap();
//! assert!(game.plies.len() <= 40);
//! ```

mod greedy;
mod guided;
mod honest;
mod human;
mod name;
mod presets;
mod random;
mod record;
mod searchers;
mod simultaneous;
pub(crate) use simultaneous::sample_strategy;
pub(crate) use spec::{full_spec, read_options_onto_both};
mod spec;

pub use greedy::GreedyAgent;
pub use guided::{AzAgent, AzOptions, Guide};
pub use honest::{HonestAgent, HonestPolicy, HonestRandom, IsmctsPolicy, SeatBuilder};
pub use human::HumanAgent;
pub use name::{
    COMMAND_OPTION, MAX_AGENT_NAME_CHARS, NAME_OPTION, NamedSpec, agent_label, named_spec,
};
pub use presets::{best_settings, expand_preset};
pub use random::RandomAgent;
pub use record::SearchRecord;
pub use searchers::{AlphaBetaAgent, AlphaBetaEvaluation, MctsAgent, MctsEvaluation};
pub use simultaneous::{EquilibriumAgent, EquilibriumOptions, SmMctsAgent};
pub use spec::{AGENT_KINDS, build_agent, build_encoded_agent};

use crate::core::{Game, MoveList, Player, Ply, Status, joint_choices};
use crate::search::{SearchError, SimultaneousSolveError, StopFlag};
use std::fmt;
use std::time::Duration;

/// What an agent does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision<M> {
    /// Plays this move (or choice, at a simultaneous state).
    Play(M),
    /// Gives the game up: it ends as a loss for the agent's player.
    Resign,
}

/// Why an agent could not choose a move: it was asked in a state it cannot
/// play (no legal move, a kind of state its search does not handle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentError {
    message: String,
}

impl AgentError {
    /// An error saying `message`, a sentence on what the agent could not do.
    pub fn new(message: impl Into<String>) -> Self {
        AgentError {
            message: message.into(),
        }
    }
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AgentError {}

/// A search that failed: the agent cannot choose, for the search's reason.
impl From<SearchError> for AgentError {
    fn from(error: SearchError) -> Self {
        AgentError::new(error.to_string())
    }
}

/// A solve that failed: the agent cannot choose, for the solver's reason.
impl From<SimultaneousSolveError> for AgentError {
    fn from(error: SimultaneousSolveError) -> Self {
        AgentError::new(error.to_string())
    }
}

/// Whether an agent built from `spec` may resign: a person (`human`) and
/// an outside engine (`htp:...`) can; norn's own agents never do. A logged
/// game that one of them ended by resigning was not played by them.
pub fn may_resign(spec: &str) -> bool {
    spec == "human" || spec.starts_with(crate::companions::hnefatafl::htp_engine::HTP_PREFIX)
}

/// A player of game `G`.
///
/// An agent is built from a spec string and a seed, and is deterministic
/// given both (searches limited by time excepted, and tree-parallel MCTS):
/// the same agent with the same seed makes the same decisions.
pub trait Agent<G: Game>: Send {
    /// The spec this agent was built from, e.g. `mcts:iters=2000`.
    fn spec(&self) -> &str;

    /// Every setting the agent plays with, defaults included: the spec may
    /// leave most of them out, and a run records this so that it says
    /// exactly what played even after the defaults change.
    fn configuration(&self) -> String {
        self.spec().to_string()
    }

    /// Whether the agent reads information its player may not see (every
    /// hand, say): a reference to measure fair players against, not a fair
    /// player, which reports label. No agent does unless it says so.
    fn sees_hidden_information(&self) -> bool {
        false
    }

    /// Chooses a move for `player` in `state`: the player to move, or, at a
    /// simultaneous state, one of the players who all choose now (each
    /// without seeing the others' choices).
    ///
    /// # Errors
    /// If `player` has no move here, or the agent cannot play this kind of state.
    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError>;

    /// Tells the agent that `ply` was played in `before`, by any player, so
    /// that it can keep what it learned (a search tree) for its next turn.
    fn observe(&mut self, _before: &G, _ply: &Ply<G::Move>) {}

    /// Forgets everything about the current game before a new one starts.
    fn reset(&mut self) {}

    /// The memory the agent's tables and trees may come to take, in
    /// bytes, which a run counts for every agent it holds at once
    /// ([`crate::core::check_run_memory`]); 0, the default, for an agent
    /// that keeps little.
    fn memory_bytes(&self) -> u64 {
        0
    }

    /// Whether the agent can play a game that begins in `state` (a position
    /// given as text, say) with what it needs (a table it builds at its
    /// first move must fit in memory), and if not, why: a run asks before
    /// it writes anything. Most agents play from any state.
    ///
    /// # Errors
    /// Why the agent cannot begin there.
    fn check_start(&self, _state: &G) -> Result<(), String> {
        Ok(())
    }

    /// Tells the agent, before it decides, what its game clock holds and
    /// what each move adds to it. An agent with a time limit (alpha-beta
    /// and MCTS with `ms`) searches for [`move_time`] of it instead; the
    /// others ignore it, and their time counts on the clock all the same.
    fn clock(&mut self, _remaining: Duration, _increment: Duration) {}

    /// Gives the agent a flag that, once raised, ends its searches early
    /// (a Ctrl-C of the program running it): it then plays what it found
    /// so far. Returns whether the agent searches and checks the flag; the
    /// default, for agents that decide at once, ignores it.
    fn set_stop_flag(&mut self, _flag: StopFlag) -> bool {
        false
    }

    /// What the agent's last decision found and cost, if it searched:
    /// alpha-beta and MCTS agents keep it; `None` for the others and before
    /// the first decision.
    fn last_search(&self) -> Option<SearchRecord<G::Move>> {
        None
    }
}

/// How long an agent with a time limit searches when its game clock holds
/// `remaining` and gains `increment` a move: a thirtieth of what is left
/// plus three quarters of the increment, and never more than half of what
/// is left, so that a long game cannot run the clock out and the time it
/// gains is spent.
pub fn move_time(remaining: Duration, increment: Duration) -> Duration {
    (remaining / 30 + increment.mul_f64(0.75)).min(remaining / 2)
}

/// Fills `moves` with the choices of `player` in `state`: its legal moves
/// if it is to move, its own choices at a simultaneous state.
///
/// # Errors
/// If `player` has nothing to choose here.
pub fn player_choices<G: Game>(
    state: &G,
    player: Player,
    moves: &mut MoveList<G::Move>,
) -> Result<(), AgentError> {
    moves.clear();
    match state.status() {
        Status::ToMove(mover) if mover == player => state.legal_moves(moves),
        Status::Simultaneous => {
            if let Some(mut choices) = joint_choices(state)
                && player < choices.len()
            {
                *moves = choices.swap_remove(player);
            }
        }
        _ => {}
    }
    if moves.is_empty() {
        Err(AgentError::new(format!(
            "the {} have no move to choose here",
            state.player_name(player)
        )))
    } else {
        Ok(())
    }
}
