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
//! A finished episode resets in the same step ("same-step" auto-reset, as
//! Gymnasium's `AutoresetMode.SAME_STEP`): the rewards and the `terminated`
//! (game over) or `truncated` (step limit) flag are the finished episode's,
//! its last observation is written apart (the final observation, which a
//! learner needs to bootstrap a value at a cut), and the observation and
//! legal actions are already the new episode's first decision. Since the
//! environments share nothing, the results for a seed are the same whatever
//! the number of threads.
//!
//! The buffers are the caller's and can be the same from step to step: a
//! step writes into them and allocates nothing of its size.

use super::{ActionState, Turn};
use crate::agents::{Agent, Decision};
use crate::core::{
    ActionPath, GameRng, IllegalMove, MoveList, ParseError, Player, derive_seed, rng_from_seed,
};
use crate::registry::{self, Registered};
use crate::search::StopFlag;
use crate::search::guided::{SearchOutcome, TensorEvaluator};
use rand::RngExt;
use rayon::iter::Either;
use rayon::prelude::*;

/// The buffers one step writes, each holding every environment's values
/// one after another. A reset or a step writes every value of every buffer
/// but the final observations, of which it writes the rows of the
/// environments whose episode ended in the step.
pub struct StepBuffers<'a> {
    /// Observations, `observation size` values per environment, from the
    /// view of the player who acts next.
    pub observations: &'a mut [f32],
    /// Legal-action masks, `num_actions` values per environment (1 legal),
    /// or `None` where the caller reads the legal ids instead
    /// ([`DynVector::write_legal_ids`]).
    pub masks: Option<&'a mut [u8]>,
    /// The last observation of an episode that ended in the step, `observation
    /// size` values per environment (see [`DynVector::step`]), or `None`.
    pub final_observations: Option<&'a mut [f32]>,
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
    /// Whether each step lists every environment's legal ids in order, for
    /// [`DynVector::write_legal_ids`].
    pub legal_ids: bool,
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
    /// chance to the learner's next decision, and writes the results. The
    /// final observation of an episode that ends is what the step would
    /// have shown had it not reset: the view of the learner's next player
    /// where the step limit cut the game, and at the game's end the view of
    /// the player whose action ended it (the learner's seat against an
    /// opponent); `players` then still holds the new episode's next player.
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
    /// for the leaves ([`super::guided::search_positions`], `stop` ending
    /// it early): the chosen actions are the ones to step with.
    ///
    /// # Errors
    /// A batch not reset yet, and as
    /// `search_positions`.
    fn guided_search(
        &self,
        options: &str,
        evaluator: &mut dyn TensorEvaluator,
        seed: u64,
        stop: &StopFlag,
    ) -> Result<Vec<SearchOutcome<String>>, String>;

    /// How many legal ids the environments' next decisions have in all:
    /// the length [`write_legal_ids`](Self::write_legal_ids) needs.
    fn legal_id_count(&self) -> usize;

    /// Writes every environment's legal ids for its next decision, in
    /// increasing order, one environment after another, into `ids` (at
    /// least [`legal_id_count`](Self::legal_id_count) long), and where
    /// each environment's ids start into `offsets` (`num_envs + 1` values,
    /// the last the total): the compressed rows of a sparse matrix. Only
    /// for a batch made with [`VectorConfig::legal_ids`].
    ///
    /// # Panics
    /// Buffers too short, or a batch made without `legal_ids`.
    fn write_legal_ids(&self, ids: &mut [i32], offsets: &mut [i64]);
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
                ordered: config.legal_ids,
                marks: Vec::new(),
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
        legal_ids: config.legal_ids,
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
    legal_ids: bool,
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
    /// no order unless `ordered`; a few hundred at most, so a scan finds
    /// one).
    legal: Vec<u32>,
    /// Whether `legal` is kept in increasing order without repeats.
    ordered: bool,
    /// The bitmap that orders `legal`, clear between steps.
    marks: Vec<u64>,
}

/// One environment's share of the buffers.
struct Slot<'a> {
    observation: &'a mut [f32],
    mask: Option<&'a mut [u8]>,
    final_observation: Option<&'a mut [f32]>,
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    player: &'a mut i64,
}

impl<G: Registered> Vector<G> {
    /// Splits the buffers per environment and runs `each` on every
    /// environment with its slot (and its index), in parallel, without
    /// allocating.
    fn for_each_env(
        &mut self,
        threads: &rayon::ThreadPool,
        out: StepBuffers<'_>,
        each: impl Fn(usize, &mut Env<G>, Slot<'_>) + Sync + Send,
    ) {
        let envs = self.envs.len();
        let size = self.observation_size.max(1);
        let masks = match out.masks {
            Some(masks) => Either::Left(masks.par_chunks_mut(self.num_actions).map(Some)),
            None => Either::Right((0..envs).into_par_iter().map(|_| None)),
        };
        let finals = match out.final_observations {
            Some(finals) => Either::Left(finals.par_chunks_mut(size).map(Some)),
            None => Either::Right((0..envs).into_par_iter().map(|_| None)),
        };
        let slots = out
            .observations
            .par_chunks_mut(size)
            .zip(masks)
            .zip(finals)
            .zip(out.rewards.par_chunks_mut(self.players))
            .zip(out.terminated.par_iter_mut())
            .zip(out.truncated.par_iter_mut())
            .zip(out.players.par_iter_mut())
            .map(
                |(
                    (((((observation, mask), final_observation), rewards), terminated), truncated),
                    player,
                )| Slot {
                    observation,
                    mask,
                    final_observation,
                    rewards,
                    terminated,
                    truncated,
                    player,
                },
            );
        threads.install(|| {
            self.envs
                .par_iter_mut()
                .zip(slots)
                .enumerate()
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
        stop: &StopFlag,
    ) -> Result<Vec<SearchOutcome<String>>, String> {
        if !self.started {
            return Err("reset the environments before searching them".into());
        }
        let positions: Vec<(&G, &[u32])> = self
            .envs
            .iter()
            .map(|env| (env.state.state(), env.state.pending()))
            .collect();
        super::guided::search_positions(&positions, options, evaluator, seed, stop)
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
        self.for_each_env(threads, out, |index, env, mut slot| {
            let ended = env.learner_acts(actions[index], max_steps, slot.final_observation.take());
            env.write(slot, ended);
        });
        Ok(())
    }

    fn legal_id_count(&self) -> usize {
        self.envs.iter().map(|env| env.legal.len()).sum()
    }

    fn write_legal_ids(&self, ids: &mut [i32], offsets: &mut [i64]) {
        assert!(self.legal_ids, "a batch made to list its legal ids");
        let mut next = 0;
        offsets[0] = 0;
        for (env, offset) in self.envs.iter().zip(&mut offsets[1..]) {
            let row = &mut ids[next..next + env.legal.len()];
            for (slot, &id) in row.iter_mut().zip(&env.legal) {
                // Action ids are below 2^31 (every game's count is far less).
                *slot = id as i32;
            }
            next += env.legal.len();
            *offset = next as i64;
        }
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
        if self.ordered {
            self.legal.binary_search(&action).is_ok()
        } else {
            self.legal.contains(&action)
        }
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
    /// decision, starting a new episode when this one ends; then writes the
    /// ended episode's last observation into `final_observation` (see
    /// [`DynVector::step`]).
    fn learner_acts(
        &mut self,
        action: u32,
        max_steps: Option<usize>,
        final_observation: Option<&mut [f32]>,
    ) -> Option<Ended> {
        let actor = self.learner_player();
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
            if let Some(out) = final_observation {
                let viewer = if self.state.is_terminal() {
                    actor
                } else {
                    self.learner_player()
                };
                self.state.write_observation(viewer, out);
            }
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
        self.state.list_legal_moves();
        let legal = &mut self.legal;
        if self.ordered {
            self.state
                .write_ordered_legal_actions(player, legal, &mut self.marks);
        } else {
            legal.clear();
            self.state
                .for_each_legal_action(player, |id| legal.push(id));
        }
        if let Some(mask) = slot.mask {
            mask.fill(0);
            for &id in legal.iter() {
                mask[id as usize] = 1;
            }
        }
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
