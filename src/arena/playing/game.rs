//! Playing one game between agents: the loop behind `norn play`, tournaments
//! and matches.

use super::adjudication::{Adjudication, Adjudicator, Verdict};
use super::clock::TimeControl;
use crate::agents::{Agent, Decision, SearchRecord, player_choices};
use crate::core::{
    Game, GameRng, MoveList, Notation, Outcome, ParseError, Payoffs, Player, Ply, PlyText, Status,
    resolve_chance, rng_from_seed,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Builds the agent of a seat from its spec and the seat's seed, or says
/// what is wrong with the spec: how tournaments, matches and win-rate runs
/// get their agents (`norn::registry::build_agent` is one).
pub type AgentFactory<'a, G> =
    dyn Fn(&str, u64) -> Result<Box<dyn Agent<G>>, ParseError> + Send + Sync + 'a;

/// The reason recorded when the runner's ply cap ends a game.
pub const MAX_PLIES_REASON: &str = "max-plies";
/// The reason recorded when an agent resigns.
pub const RESIGNATION_REASON: &str = "resignation";
/// The reason recorded when a side's game clock runs out
/// ([`PlayOptions::clock`]): it loses on time.
pub const TIME_REASON: &str = "time";
/// The reason recorded when an agent fails (an error, an illegal move, an
/// outside engine that exits or does not answer in time) and loses by
/// forfeit ([`PlayOptions::forfeits`]).
pub const FORFEIT_REASON: &str = "forfeit";

/// The outcome of a game the runner's ply cap ends in `state`: a draw, every
/// player at the middle of the payoff range.
pub(crate) fn max_plies_outcome<G: Game>(state: &G) -> Outcome {
    let (low, high) = state.payoff_range();
    Outcome {
        payoffs: Payoffs::shared(state.num_players(), (low + high) / 2.0),
        reason: MAX_PLIES_REASON,
    }
}

/// The outcome of `player` resigning in `state`: the lowest payoff for
/// them, and for the others the highest (two players) or the middle.
pub(crate) fn resignation_outcome<G: Game>(state: &G, player: Player) -> Outcome {
    lost_by(state, player, RESIGNATION_REASON)
}

/// The outcome of `player`'s clock running out in `state`: as a
/// resignation.
pub(crate) fn time_loss_outcome<G: Game>(state: &G, player: Player) -> Outcome {
    lost_by(state, player, TIME_REASON)
}

/// The outcome of a game an adjudication ends in `state`: a loss as a
/// resignation, a draw as the ply cap's.
pub(crate) fn adjudicated_outcome<G: Game>(state: &G, verdict: Verdict) -> Outcome {
    match verdict {
        Verdict::Loss(player) => lost_by(state, player, verdict.reason()),
        Verdict::Draw => Outcome {
            reason: verdict.reason(),
            ..max_plies_outcome(state)
        },
    }
}

/// The outcome of `player` forfeiting in `state`: as a resignation.
pub(crate) fn forfeit_outcome<G: Game>(state: &G, player: Player) -> Outcome {
    lost_by(state, player, FORFEIT_REASON)
}

/// The outcome of `player` giving up the game in `state` for `reason`.
fn lost_by<G: Game>(state: &G, player: Player, reason: &'static str) -> Outcome {
    let (low, high) = state.payoff_range();
    let players = state.num_players();
    let others = if players == 2 {
        high
    } else {
        (low + high) / 2.0
    };
    let mut values = vec![others; players];
    values[player] = low;
    Outcome {
        payoffs: Payoffs::from_slice(&values),
        reason,
    }
}

/// An agent's failure that ended a game as its loss by forfeit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The player whose agent failed.
    pub player: Player,
    /// What went wrong, as [`PlayError`] says it.
    pub reason: String,
}

/// What one agent's decision cost: the time it took, as the runner
/// measured it, and what its search reports ([`Agent::last_search`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionRecord<M> {
    /// The wall-clock seconds the agent took to decide.
    pub seconds: f64,
    /// The agent's own record of its search; `None` for an agent that
    /// keeps none (a random player, an outside engine).
    pub search: Option<SearchRecord<M>>,
}

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
    /// The player who lost by forfeit, and why, if one did.
    pub forfeit: Option<Forfeit>,
    /// The seed the game's chance events were drawn from: with it, the
    /// plies replay to the same states ([`replay_plies`]).
    pub chance_seed: u64,
    /// With [`PlayOptions::record_search`], one entry per ply of `plies`:
    /// the decision of the player to move, or at a simultaneous choice
    /// every player's, player 0 first. Empty otherwise.
    pub decisions: Vec<Vec<DecisionRecord<M>>>,
}

/// The plies of a game under way, and what their decisions cost.
struct Played<M> {
    plies: Vec<Ply<M>>,
    decisions: Vec<Vec<DecisionRecord<M>>>,
}

impl<M> Played<M> {
    /// The finished game: these plies, ended by `outcome`.
    fn ended(self, outcome: Outcome, resigned: Option<Player>, chance_seed: u64) -> PlayedGame<M> {
        PlayedGame {
            plies: self.plies,
            outcome,
            resigned,
            forfeit: None,
            chance_seed,
            decisions: self.decisions,
        }
    }
}

/// Why a game could not be played to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The stop flag was raised before the game ended.
    Interrupted,
    /// The game reached a chance event it cannot resolve (it lacks
    /// [`Stochastic`](crate::core::Stochastic)): a bug of the game.
    UnresolvedChance,
    /// An agent could not choose.
    AgentFailed {
        /// The agent's spec.
        agent: String,
        /// The agent's error.
        reason: String,
    },
    /// An agent chose a move the rules do not allow.
    IllegalMove {
        /// The agent's spec, or `the opening` for an opening's ply.
        agent: String,
        /// Why the rules refuse the move.
        reason: String,
    },
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Interrupted => f.write_str("interrupted"),
            PlayError::UnresolvedChance => {
                f.write_str("the game reached a chance event it has no way to resolve")
            }
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

/// How a game is played, beyond who plays it.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayOptions<'a> {
    /// Games still running after this many plies are drawn, with the
    /// reason [`MAX_PLIES_REASON`].
    pub max_plies: Option<usize>,
    /// The seed of the chance events met during play (a deal, a die).
    pub chance_seed: u64,
    /// Read before each ply: raised, it abandons the game.
    pub stop: Option<&'a AtomicBool>,
    /// An agent that fails (returns an error or an illegal move) loses the
    /// game by forfeit ([`FORFEIT_REASON`]) instead of ending it as an
    /// error, as tournaments record it.
    pub forfeits: bool,
    /// Keep what each decision cost: the time each agent took and its
    /// search record ([`PlayedGame::decisions`]).
    pub record_search: bool,
    /// A game clock for each player: a player whose decision takes longer
    /// than its clock holds loses on time ([`TIME_REASON`]). Each agent is
    /// told its clock before it decides ([`Agent::clock`]).
    pub clock: Option<TimeControl>,
    /// End the game early when the searchers' scores agree on its outcome
    /// ([`Adjudication`]): checked before each ply once the game has not
    /// ended by its rules, before the ply cap.
    pub adjudication: Option<&'a Adjudication>,
}

/// The players' game clocks during a game.
struct Clocks {
    remaining: Vec<Duration>,
    increment: Duration,
}

/// What the agents chose in one state.
enum Choice<M> {
    Ply(Ply<M>),
    Resign(Player),
    OutOfTime(Player),
}

/// Plays `start` to its end with `agents[p]` choosing for player `p`.
///
/// At a simultaneous choice every agent decides for its player without
/// seeing the others' choices, and the moves are played together as one
/// ply. Chance events are drawn from `options.chance_seed`. Every agent is
/// told every ply (for tree reuse), and every ply is checked against the
/// rules. The game ends by the rules; by a resignation (the resigning player
/// gets the lowest payoff of the range, its opponent in a two-player game the
/// highest, other players the middle); or, after `options.max_plies` plies,
/// with every player at the middle of the range (a draw).
///
/// # Panics
/// If there is not one agent per player.
pub fn play_game<G: Game>(
    start: &G,
    agents: &mut [Box<dyn Agent<G>>],
    options: &PlayOptions<'_>,
) -> Result<PlayedGame<G::Move>, PlayError> {
    play_game_after(start, &[], agents, options)
}

/// As [`play_game`], but the game first plays `opening` from `start`: every
/// agent is told each of those plies as if they had been played in the game
/// (an engine that replays the game to its program needs them), and then
/// the agents choose. The result holds the plies after the opening, and the
/// ply cap counts those.
///
/// # Errors
/// As [`play_game`], and an opening ply the rules do not allow.
///
/// # Panics
/// If there is not one agent per player.
pub fn play_game_after<G: Game>(
    start: &G,
    opening: &[Ply<G::Move>],
    agents: &mut [Box<dyn Agent<G>>],
    options: &PlayOptions<'_>,
) -> Result<PlayedGame<G::Move>, PlayError> {
    assert_eq!(agents.len(), start.num_players(), "one agent per player");
    for agent in agents.iter_mut() {
        agent.reset();
    }
    let mut state = start.clone();
    for ply in opening {
        for agent in agents.iter_mut() {
            agent.observe(&state, ply);
        }
        state
            .try_play_ply(ply)
            .map_err(|illegal| PlayError::IllegalMove {
                agent: "the opening".into(),
                reason: illegal.reason().to_string(),
            })?;
    }
    let mut chance = rng_from_seed(options.chance_seed);
    let max_plies = options.max_plies;
    let mut played = Played {
        plies: Vec::new(),
        decisions: Vec::new(),
    };
    let mut clocks = options.clock.map(|control| Clocks {
        remaining: vec![control.base; state.num_players()],
        increment: control.increment,
    });
    let mut adjudicator = options
        .adjudication
        .map(|rules| Adjudicator::new(rules, state.num_players()));
    // Adjudication reads the scores of every decision.
    let keep_decisions = options.record_search || adjudicator.is_some();
    loop {
        let deciders: Vec<Player> = match state.status() {
            Status::Over(outcome) => {
                return Ok(played.ended(outcome, None, options.chance_seed));
            }
            Status::ToMove(player) => vec![player],
            Status::Simultaneous => (0..state.num_players()).collect(),
            Status::Chance => {
                resolve_pending(&mut state, &mut chance)?;
                continue;
            }
        };
        if let Some(verdict) = adjudicator.as_ref().and_then(Adjudicator::verdict) {
            let outcome = adjudicated_outcome(&state, verdict);
            return Ok(played.ended(outcome, None, options.chance_seed));
        }
        if max_plies.is_some_and(|limit| played.plies.len() >= limit) {
            let outcome = max_plies_outcome(&state);
            return Ok(played.ended(outcome, None, options.chance_seed));
        }
        if options
            .stop
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
        {
            return Err(PlayError::Interrupted);
        }
        let mut decisions = Vec::new();
        let record = keep_decisions.then_some(&mut decisions);
        let ply = match choose(&state, agents, &deciders, record, clocks.as_mut()) {
            Ok(Choice::Ply(ply)) => ply,
            Err(failure) => return failure.end(&state, played, options),
            Ok(Choice::Resign(player)) => {
                let outcome = resignation_outcome(&state, player);
                return Ok(played.ended(outcome, Some(player), options.chance_seed));
            }
            Ok(Choice::OutOfTime(player)) => {
                let outcome = time_loss_outcome(&state, player);
                return Ok(played.ended(outcome, None, options.chance_seed));
            }
        };
        for agent in agents.iter_mut() {
            agent.observe(&state, &ply);
        }
        // A refused ply leaves the state as it was.
        if let Err(illegal) = state.try_play_ply(&ply) {
            let player = culprit(&state, &deciders, &ply);
            let failure = Failure {
                player,
                error: PlayError::IllegalMove {
                    agent: agents[player].spec().to_string(),
                    reason: illegal.reason().to_string(),
                },
            };
            return failure.end(&state, played, options);
        }
        played.plies.push(ply);
        if let Some(adjudicator) = &mut adjudicator {
            adjudicator.read_ply(deciders.iter().zip(&decisions).map(|(&player, decision)| {
                (player, decision.search.as_ref().map(|search| search.value))
            }));
        }
        if options.record_search {
            played.decisions.push(decisions);
        }
    }
}

/// The player whose move in `ply` the rules refused in `state`: the one to
/// move, or at a simultaneous choice the first whose move is not among its
/// choices.
fn culprit<G: Game>(state: &G, deciders: &[Player], ply: &Ply<G::Move>) -> Player {
    let Ply::Joint(moves) = ply else {
        return deciders[0];
    };
    let mut choices = MoveList::new();
    deciders
        .iter()
        .zip(moves)
        .find(|&(&player, mv)| {
            player_choices(state, player, &mut choices).is_err() || !choices.contains(mv)
        })
        .map_or(deciders[0], |(&player, _)| player)
}

/// An agent that failed to choose, or chose an illegal move.
struct Failure {
    player: Player,
    error: PlayError,
}

impl Failure {
    /// Ends the game in `state` after `plies`: abandoned if the stop flag
    /// is raised (a stopped outside engine fails as it is killed), a loss
    /// by forfeit if `options` asks for them, else the error.
    fn end<M>(
        self,
        state: &impl Game,
        played: Played<M>,
        options: &PlayOptions<'_>,
    ) -> Result<PlayedGame<M>, PlayError> {
        if options
            .stop
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
        {
            return Err(PlayError::Interrupted);
        }
        if !options.forfeits {
            return Err(self.error);
        }
        let outcome = forfeit_outcome(state, self.player);
        let mut game = played.ended(outcome, None, options.chance_seed);
        game.forfeit = Some(Forfeit {
            player: self.player,
            reason: self.error.to_string(),
        });
        Ok(game)
    }
}

/// Resolves the chance event `state` waits for, drawing from `rng`.
fn resolve_pending<G: Game>(state: &mut G, rng: &mut GameRng) -> Result<(), PlayError> {
    if resolve_chance(state, rng) {
        Ok(())
    } else {
        Err(PlayError::UnresolvedChance)
    }
}

/// Replays `plies` from `start` as [`play_game`] played them, drawing the
/// chance events between them from `chance_seed`, checking each ply, and
/// calls `visit` with each ply and the state before it. Returns the final
/// state.
///
/// # Errors
/// A ply the rules do not allow, or a chance event the game cannot resolve.
pub fn replay_plies<G: Game>(
    start: &G,
    plies: &[Ply<G::Move>],
    chance_seed: u64,
    mut visit: impl FnMut(&G, &Ply<G::Move>),
) -> Result<G, String> {
    let mut chance = rng_from_seed(chance_seed);
    let mut state = start.clone();
    for (number, ply) in plies.iter().enumerate() {
        resolve_pending_chance(&mut state, &mut chance)?;
        visit(&state, ply);
        state
            .try_play_ply(ply)
            .map_err(|illegal| format!("ply {}: {illegal}", number + 1))?;
    }
    resolve_pending_chance(&mut state, &mut chance)?;
    Ok(state)
}

/// Resolves the chance events `state` waits for, drawing from `rng`, until
/// a player is to choose or the game is over.
pub(crate) fn resolve_pending_chance<G: Game>(
    state: &mut G,
    rng: &mut GameRng,
) -> Result<(), String> {
    while state.status() == Status::Chance {
        resolve_pending(state, rng).map_err(|error| error.to_string())?;
    }
    Ok(())
}

/// The plies of a played game as text, each written from the state it was
/// played in.
///
/// # Errors
/// As [`replay_plies`].
pub fn plies_text<G: Notation>(
    start: &G,
    plies: &[Ply<G::Move>],
    chance_seed: u64,
) -> Result<Vec<PlyText>, String> {
    let mut texts = Vec::with_capacity(plies.len());
    replay_plies(start, plies, chance_seed, |state, ply| {
        texts.push(state.ply_text(ply));
    })?;
    Ok(texts)
}

/// Asks the agents of `deciders` for their moves in `state`: one move for a
/// single decider, a joint move for all players at a simultaneous choice.
/// With `record`, each decision's time and search record are added to it.
/// With `clocks`, each agent is told its clock, and a decision that takes
/// longer than the clock holds loses on time.
fn choose<G: Game>(
    state: &G,
    agents: &mut [Box<dyn Agent<G>>],
    deciders: &[Player],
    mut record: Option<&mut Vec<DecisionRecord<G::Move>>>,
    mut clocks: Option<&mut Clocks>,
) -> Result<Choice<G::Move>, Failure> {
    let mut moves = Vec::with_capacity(deciders.len());
    for &player in deciders {
        let agent = &mut agents[player];
        if let Some(clocks) = clocks.as_deref() {
            agent.clock(clocks.remaining[player], clocks.increment);
        }
        let started = Instant::now();
        let decision = agent.decide(state, player);
        let elapsed = started.elapsed();
        if let Some(record) = record.as_deref_mut() {
            record.push(DecisionRecord {
                seconds: elapsed.as_secs_f64(),
                search: agent.last_search(),
            });
        }
        if let Some(clocks) = clocks.as_deref_mut() {
            // The flag falls before the answer counts.
            match clocks.remaining[player].checked_sub(elapsed) {
                Some(left) => clocks.remaining[player] = left + clocks.increment,
                None => return Ok(Choice::OutOfTime(player)),
            }
        }
        match decision {
            Ok(Decision::Play(mv)) => moves.push(mv),
            Ok(Decision::Resign) => return Ok(Choice::Resign(player)),
            Err(error) => {
                return Err(Failure {
                    player,
                    error: PlayError::AgentFailed {
                        agent: agent.spec().to_string(),
                        reason: error.to_string(),
                    },
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
