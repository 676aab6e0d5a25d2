//! Many games stepped at once, for learning: each call takes one action per
//! environment and writes every environment's observation, legal-action
//! mask, rewards and end flags into flat buffers, with no work per
//! environment left to the caller.
//!
//! Each environment is an [`ActionState`] with its own random generator
//! (seeded from the run's seed and the environment's index) that draws the
//! chance events, and, when an opponent is given, its own opponent agent
//! that plays every seat but the learner's. The learner's seat alternates
//! from one episode to the next (player 0 first), so that a policy learns
//! every side. Without an opponent the learner acts for whoever is to
//! move: self-play. At a simultaneous node the learner's players choose in
//! consecutive steps, each seeing the state before any of the choices.
//!
//! A finished episode resets in the same step ("same-step" auto-reset): the
//! rewards and the `terminated` (game over) or `truncated` (step limit) flag
//! are the finished episode's, and the observation and mask are already the
//! new episode's first decision. Since the environments share nothing, the
//! results for a seed are the same whatever the number of threads.

use super::{ActionState, Turn};
use crate::agents::{Agent, Decision};
use crate::core::{
    ActionPath, GameRng, IllegalMove, MoveList, ParseError, Player, derive_seed, rng_from_seed,
};
use crate::registry::{self, Registered};
use crate::search::guided::{SearchOutcome, TensorEvaluator};
use rand::RngExt;
use rayon::prelude::*;

/// The buffers one step writes, each holding every environment's values
/// one after another. A reset or a step writes every value of every buffer.
pub struct StepBuffers<'a> {
    /// Observations, `observation size` values per environment, from the
    /// view of the player who acts next.
    pub observations: &'a mut [f32],
    /// Legal-action masks, `num_actions` values per environment (1 legal).
    pub masks: &'a mut [u8],
    /// Each player's reward this step, `num_players` values per
    /// environment: the game's payoffs in the step that ends it, 0 before.
    pub rewards: &'a mut [f32],
    /// Whether the step ended the episode by the game's end.
    pub terminated: &'a mut [bool],
    /// Whether the step ended the episode at the step limit.
    pub truncated: &'a mut [bool],
    /// The player who acts next in each environment.
    pub players: &'a mut [i64],
}

/// How a batch of environments is made.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorConfig {
    /// How many environments.
    pub num_envs: usize,
    /// The run's seed; environment `i` draws from `derive_seed(seed, i)`.
    pub seed: u64,
    /// The spec of the agent that plays every seat but the learner's, or
    /// `None` for self-play.
    pub opponent: Option<String>,
    /// The most learner steps of an episode before it is cut short
    /// (`truncated`), or `None` to play every game to its end.
    pub max_steps: Option<usize>,
}

/// A batch of environments of one game, whatever its type (see the module
/// docs).
pub trait DynVector: Send {
    /// How many environments.
    fn num_envs(&self) -> usize;

    /// Starts a new episode in every environment and writes their first
    /// observations and masks (rewards zero, no end flags).
    fn reset(&mut self, threads: &rayon::ThreadPool, out: StepBuffers<'_>);

    /// Applies `actions[i]` in environment `i`, plays the opponents and
    /// chance to the learner's next decision, and writes the results.
    ///
    /// # Errors
    /// An action that is not legal in its environment: no environment is
    /// changed then.
    fn step(
        &mut self,
        actions: &[u32],
        threads: &rayon::ThreadPool,
        out: StepBuffers<'_>,
    ) -> Result<(), IllegalMove>;

    /// Searches every environment's next decision together with the
    /// guided search of the `az` options `options`, `evaluator` answering
    /// for the leaves ([`super::guided::search_positions`]): the chosen
    /// actions are the ones to step with.
    ///
    /// # Errors
    /// A batch not reset yet, and as
    /// `search_positions`.
    fn guided_search(
        &self,
        options: &str,
        evaluator: &mut dyn TensorEvaluator,
        seed: u64,
    ) -> Result<Vec<SearchOutcome<String>>, String>;
}

/// Makes the environments of game `G` under `rules`.
///
/// # Errors
/// An opponent spec that does not build.
pub fn vector_of<G: Registered>(
    rules: &G::Rules,
    config: &VectorConfig,
) -> Result<Box<dyn DynVector>, ParseError> {
    let envs = (0..config.num_envs)
        .map(|index| {
            let seed = derive_seed(config.seed, index as u64);
            let opponent = config
                .opponent
                .as_deref()
                .map(|spec| registry::build_agent::<G>(spec, derive_seed(seed, 1)))
                .transpose()?;
            Ok(Env {
                state: ActionState::new(rules.clone()),
                rng: rng_from_seed(seed),
                opponent,
                episode: 0,
                steps: 0,
                joint: Vec::new(),
                legal: Vec::new(),
            })
        })
        .collect::<Result<Vec<_>, ParseError>>()?;
    let start = G::new(rules.clone());
    Ok(Box::new(Vector {
        envs,
        started: false,
        observation_size: G::observation_shape(rules).iter().product(),
        num_actions: G::num_actions(rules),
        players: start.num_players(),
        max_steps: config.max_steps,
    }))
}

struct Vector<G: Registered> {
    envs: Vec<Env<G>>,
    /// Whether `reset` ran: a step needs each environment's legal ids.
    started: bool,
    observation_size: usize,
    num_actions: usize,
    players: usize,
    max_steps: Option<usize>,
}

/// One environment.
struct Env<G: Registered> {
    state: ActionState<G>,
    rng: GameRng,
    opponent: Option<Box<dyn Agent<G>>>,
    /// Episodes finished, which picks the learner's seat.
    episode: u64,
    /// Learner steps in this episode.
    steps: usize,
    /// The learner's choices so far at a simultaneous node, player 0 first.
    joint: Vec<u32>,
    /// The learner's legal ids for its next decision, as last written (in
    /// no order; a few hundred at most, so a scan finds one).
    legal: Vec<u32>,
}

/// One environment's share of the buffers.
struct Slot<'a> {
    observation: &'a mut [f32],
    mask: &'a mut [u8],
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    player: &'a mut i64,
}

impl<G: Registered> Vector<G> {
    /// Splits the buffers per environment and runs `each` on every
    /// environment with its slot (and its index), in parallel.
    fn for_each_env(
        &mut self,
        threads: &rayon::ThreadPool,
        out: StepBuffers<'_>,
        each: impl Fn(usize, &mut Env<G>, Slot<'_>) + Sync,
    ) {
        let players = self.players;
        let slots = out
            .observations
            .chunks_mut(self.observation_size.max(1))
            .zip(out.masks.chunks_mut(self.num_actions))
            .zip(out.rewards.chunks_mut(players))
            .zip(out.terminated.iter_mut())
            .zip(out.truncated.iter_mut())
            .zip(out.players.iter_mut())
            .map(
                |(((((observation, mask), rewards), terminated), truncated), player)| Slot {
                    observation,
                    mask,
                    rewards,
                    terminated,
                    truncated,
                    player,
                },
            );
        let work: Vec<(usize, (&mut Env<G>, Slot<'_>))> =
            self.envs.iter_mut().zip(slots).enumerate().collect();
        threads.install(|| {
            work.into_par_iter()
                .for_each(|(index, (env, slot))| each(index, env, slot));
        });
    }
}

impl<G: Registered> DynVector for Vector<G> {
    fn num_envs(&self) -> usize {
        self.envs.len()
    }

    fn guided_search(
        &self,
        options: &str,
        evaluator: &mut dyn TensorEvaluator,
        seed: u64,
    ) -> Result<Vec<SearchOutcome<String>>, String> {
        if !self.started {
            return Err("reset the environments before searching them".into());
        }
        let positions: Vec<(&G, &[u32])> = self
            .envs
            .iter()
            .map(|env| (env.state.state(), env.state.pending()))
            .collect();
        super::guided::search_positions(&positions, options, evaluator, seed)
    }

    fn reset(&mut self, threads: &rayon::ThreadPool, out: StepBuffers<'_>) {
        self.started = true;
        self.for_each_env(threads, out, |_, env, slot| {
            env.new_episode();
            env.write(slot, None);
        });
    }

    fn step(
        &mut self,
        actions: &[u32],
        threads: &rayon::ThreadPool,
        out: StepBuffers<'_>,
    ) -> Result<(), IllegalMove> {
        if !self.started {
            return Err(IllegalMove::new(
                "reset the environments before the first step",
            ));
        }
        if actions.len() != self.envs.len() {
            return Err(IllegalMove::new(format!(
                "one action per environment ({}), not {}",
                self.envs.len(),
                actions.len()
            )));
        }
        // Checked across the threads, which each check environments
        // mutably borrowed (an opponent agent need not be shareable).
        let illegal = threads.install(|| {
            self.envs
                .par_iter_mut()
                .zip(actions)
                .position_first(|(env, &action)| !env.learner_may(action))
        });
        if let Some(index) = illegal {
            return Err(IllegalMove::new(format!(
                "action {} is not legal in environment {index}",
                actions[index]
            )));
        }
        let max_steps = self.max_steps;
        self.for_each_env(threads, out, |index, env, slot| {
            let ended = env.learner_acts(actions[index], max_steps);
            env.write(slot, ended);
        });
        Ok(())
    }
}

/// How an episode ended in a step: each player's payoff, and whether by
/// the step limit.
struct Ended {
    payoffs: Vec<f64>,
    truncated: bool,
}

impl<G: Registered> Env<G> {
    /// The seat the learner plays this episode when there is an opponent.
    fn seat(&self) -> Player {
        (self.episode % self.state.state().num_players() as u64) as Player
    }

    /// The player whose decision the learner takes next.
    fn learner_player(&self) -> Player {
        match self.state.turn() {
            Turn::Player(player) => player,
            Turn::Simultaneous if self.opponent.is_some() => self.seat(),
            _ => self.joint.len(),
        }
    }

    fn learner_may(&self, action: u32) -> bool {
        self.legal.contains(&action)
    }

    fn new_episode(&mut self) {
        self.state = ActionState::new(self.state.state().rules().clone());
        self.steps = 0;
        self.joint.clear();
        if let Some(opponent) = &mut self.opponent {
            opponent.reset();
        }
        self.advance();
    }

    /// Plays chance and the opponent until the learner decides or the game
    /// ends.
    fn advance(&mut self) {
        loop {
            match self.state.turn() {
                Turn::Chance => {
                    let outcomes = self.state.chance_outcomes();
                    let draw: f64 = self.rng.random();
                    let mut total = 0.0;
                    let mut chosen = outcomes[outcomes.len() - 1].0;
                    for &(id, probability) in &outcomes {
                        total += probability;
                        if draw < total {
                            chosen = id;
                            break;
                        }
                    }
                    self.state
                        .apply_action(chosen)
                        .expect("a listed chance outcome");
                }
                Turn::Player(player) if self.opponent.is_some() && player != self.seat() => {
                    // The opponent's moves are applied whole, so none is
                    // under way here.
                    let path = self.opponent_path(player);
                    for &id in path.as_slice() {
                        self.state
                            .apply_action(id)
                            .expect("the opponent's legal move");
                    }
                }
                _ => return,
            }
        }
    }

    /// The whole path of the opponent's move for `player`; a random legal
    /// move's if the agent fails or resigns, so that a batch never stops
    /// on one agent's error.
    fn opponent_path(&mut self, player: Player) -> ActionPath {
        let state = self.state.state();
        let opponent = self.opponent.as_mut().expect("an opponent");
        let mv = match opponent.decide(state, player) {
            Ok(Decision::Play(mv)) if state.check_move(mv).is_ok() => mv,
            _ => {
                let mut moves = MoveList::new();
                state.legal_moves(&mut moves);
                moves[self.rng.random_range(0..moves.len())]
            }
        };
        let mut path = ActionPath::new();
        state.action_path(mv, &mut path);
        path
    }

    /// Applies the learner's (checked) action and plays on to its next
    /// decision, starting a new episode when this one ends.
    fn learner_acts(&mut self, action: u32, max_steps: Option<usize>) -> Option<Ended> {
        if self.state.turn() == Turn::Simultaneous {
            self.joint.push(action);
            let seat = self.seat();
            if let Some(opponent) = self.opponent.as_mut() {
                let state = self.state.state();
                let players = state.num_players();
                let mut joint = Vec::with_capacity(players);
                for player in 0..players {
                    if player == seat {
                        joint.push(action);
                        continue;
                    }
                    let legal = self.state.legal_actions(player);
                    let mut path = ActionPath::new();
                    if let Ok(Decision::Play(mv)) = opponent.decide(state, player) {
                        state.action_path(mv, &mut path);
                    }
                    // A failed or resigning agent, or a choice that is not
                    // legal, is replaced by a random choice (as above).
                    match path.as_slice() {
                        [id] if legal.binary_search(id).is_ok() => joint.push(*id),
                        _ => joint.push(legal[self.rng.random_range(0..legal.len())]),
                    }
                }
                self.joint = joint;
            }
            if self.joint.len() == self.state.state().num_players() {
                let joint = std::mem::take(&mut self.joint);
                self.state.apply_actions(&joint).expect("checked choices");
            }
        } else {
            self.state.apply_action(action).expect("a checked action");
        }
        self.steps += 1;
        self.advance();
        let ended = if self.state.is_terminal() {
            Some(Ended {
                payoffs: self.state.returns(),
                truncated: false,
            })
        } else if max_steps.is_some_and(|most| self.steps >= most) {
            Some(Ended {
                payoffs: vec![0.0; self.state.state().num_players()],
                truncated: true,
            })
        } else {
            None
        };
        if ended.is_some() {
            self.episode += 1;
            self.new_episode();
        }
        ended
    }

    /// Writes the learner's next decision's observation and mask, and how
    /// the step ended.
    fn write(&mut self, slot: Slot<'_>, ended: Option<Ended>) {
        let player = self.learner_player();
        *slot.player = player as i64;
        if !slot.observation.is_empty() {
            self.state.write_observation(player, slot.observation);
        }
        slot.mask.fill(0);
        let legal = &mut self.legal;
        legal.clear();
        self.state.for_each_legal_action(player, |id| {
            legal.push(id);
            slot.mask[id as usize] = 1;
        });
        slot.rewards.fill(0.0);
        *slot.terminated = false;
        *slot.truncated = false;
        if let Some(ended) = ended {
            for (reward, payoff) in slot.rewards.iter_mut().zip(ended.payoffs) {
                *reward = payoff as f32;
            }
            *slot.terminated = !ended.truncated;
            *slot.truncated = ended.truncated;
        }
    }
}
