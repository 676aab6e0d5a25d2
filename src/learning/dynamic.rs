//! Games chosen by name while the program runs: every registered game
//! behind one object-safe interface, as the Python package and other
//! language bindings need it.
//!
//! [`load_game`] reads a game's name and rules text and gives a
//! [`DynGame`]; its states ([`DynState`]) are [`ActionState`]s seen
//! through trait objects, and its agents ([`DynAgent`]) are the agents the
//! command line builds from the same specs.

use super::guided::{read_az_options, refuse_unsearchable, search_positions};
use super::policy::{NamedPolicies, policy_or_agent};
use super::selfplay::{Manifest, SelfPlayConfig, self_play};
use super::solving::{Solution, SolveRequest, solve_state};
use super::train::evaluate::{EvaluationRequest, EvaluationSettings};
use super::train::{TrainSession, TrainSettings, TrainSummary};
use super::vector::{DynVector, VectorConfig, vector_of};
use super::{ActionState, Turn};
use crate::agents::{Agent, AgentError, Decision, SearchRecord};
use crate::arena::winrate::{WinRateConfig, WinRateOptions, WinRateOutcome, run_win_rate};
use crate::arena::{
    DEFAULT_MAX_FORFEITS, MatchOptions, MatchReport, RunOptions, RunResult, Shard,
    TournamentConfig, Unwatched, run_match, run_tournament,
};
use crate::core::write_options;
use crate::core::{ActionPath, Game, IllegalMove, ParseError, Player, chance_outcome_count};
use crate::registry::{self, BuiltIn, GameInfo, GameList, GameVisitor, Registered, UnknownGame};
use crate::search::StopFlag;
use crate::search::guided::{
    EvaluationBlend, GuidedSearch, SearchOutcome, TensorEvaluator, Tensors,
};
use std::any::Any;
use std::fmt;
use std::path::Path;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Why [`load_game`] could not load a game.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadError {
    /// No registered game has the name.
    UnknownGame(UnknownGame),
    /// The rules text does not read as the game's rules.
    Rules(ParseError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::UnknownGame(error) => error.fmt(f),
            LoadError::Rules(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

/// A registered game under fixed rules, whatever its type.
pub trait DynGame: Send + Sync {
    /// What the registry says about the game: name, title, sides and
    /// capabilities.
    fn info(&self) -> GameInfo;

    /// The rules in force, as `key=value` text with every option written
    /// out.
    fn rules(&self) -> String;

    /// How many players the game has under these rules.
    fn num_players(&self) -> usize;

    /// How many action ids the game uses
    /// ([`Encoding::num_actions`](crate::core::Encoding::num_actions)).
    fn num_actions(&self) -> usize;

    /// The lowest and highest payoff a player can get.
    fn payoff_range(&self) -> (f64, f64);

    /// The shape of an observation tensor.
    fn observation_shape(&self) -> Vec<usize>;

    /// The most actions one game can take, where the rules bound it.
    fn max_game_length(&self) -> Option<usize>;

    /// How many chance outcome ids the game uses (0 without chance).
    fn max_chance_outcomes(&self) -> usize;

    /// The starting state (before the deal, in games with one).
    fn new_initial_state(&self) -> Box<dyn DynState>;

    /// The state of a position (or deal) in the game's text form.
    ///
    /// # Errors
    /// Text that is not a position of the game under these rules.
    fn state_from_position(&self, text: &str) -> Result<Box<dyn DynState>, ParseError>;

    /// An agent built from a spec, as on the command line (presets
    /// included), seeded with `seed`.
    ///
    /// # Errors
    /// An unknown kind, bad options, or a kind this game cannot be played by.
    fn agent(&self, spec: &str, seed: u64) -> Result<Box<dyn DynAgent>, ParseError>;

    /// Runs a tournament of this game under these rules between agents
    /// built from `config.agents` ([`run_tournament`], as `norn tournament`
    /// runs it; `config.rules` must read as this game's rules, and are
    /// recorded as written). An agent named as one of `policies` is that
    /// policy. With an
    /// output directory it keeps the log and writes the reports, and it
    /// resumes a run the directory holds. `stop`, once raised, ends the run
    /// after the games under way; the result then counts the games missing.
    ///
    /// # Errors
    /// A bad configuration, an agent that does not build, or a directory
    /// that cannot be used.
    fn tournament(
        &self,
        config: &TournamentConfig,
        threads: usize,
        out_dir: Option<PathBuf>,
        stop: &AtomicBool,
        policies: &NamedPolicies,
    ) -> Result<RunResult, String> {
        let options = RunOptions {
            threads,
            shard: Shard::ALL,
            out_dir,
            stop,
            progress: &Unwatched,
            repair: false,
            force_resume: false,
            max_forfeits: DEFAULT_MAX_FORFEITS,
            record_search: true,
        };
        self.tournament_with(config, &options, policies)
    }

    /// [`tournament`](Self::tournament) with every option of a run (a shard
    /// of the schedule, progress, repair and resume choices).
    ///
    /// # Errors
    /// A bad configuration, an agent that does not build, or a directory
    /// that cannot be used.
    fn tournament_with(
        &self,
        config: &TournamentConfig,
        options: &RunOptions<'_>,
        policies: &NamedPolicies,
    ) -> Result<RunResult, String>;

    /// Runs a match of this game under these rules between
    /// `config.agents[0]` (tested) and `config.agents[1]` (baseline) until
    /// its sequential test decides ([`run_match`], as `norn match` runs
    /// it); an agent named as one of `policies` is that policy.
    ///
    /// # Errors
    /// A bad configuration or test, an agent that does not build, or a
    /// directory that cannot be used.
    fn run_match(
        &self,
        config: &TournamentConfig,
        options: &MatchOptions<'_>,
        policies: &NamedPolicies,
    ) -> Result<MatchReport, String>;

    /// Runs a win-rate experiment of this cooperative game
    /// ([`run_win_rate`], as `norn winrate` runs it). Without a sweep,
    /// `config.rules` must read as this game's rules (they are recorded as
    /// written); a sweep varies one option of them.
    ///
    /// # Errors
    /// As [`run_win_rate`], and rules that are not this game's.
    fn winrate(
        &self,
        config: &WinRateConfig,
        options: &WinRateOptions<'_>,
    ) -> Result<WinRateOutcome, String>;

    /// Solves a state of this game exactly ([`solve_state`], as `norn
    /// solve` does).
    ///
    /// # Errors
    /// A state of another game or in the middle of a move, and as
    /// [`solve_state`].
    fn solve(&self, state: &dyn DynState, request: &SolveRequest) -> Result<Solution, String>;

    /// A batch of environments for learning ([`super::vector`]).
    ///
    /// # Errors
    /// An opponent spec that does not build.
    fn vector(&self, config: &VectorConfig) -> Result<Box<dyn DynVector>, ParseError>;

    /// Searches `states` together with the guided search of the `az`
    /// options `options`, `evaluator` answering for their leaves
    /// ([`super::guided::search_positions`], `stop` ending it early).
    ///
    /// # Errors
    /// A state of another game, and as
    /// `search_positions`.
    fn guided_search(
        &self,
        states: &[&dyn DynState],
        options: &str,
        evaluator: &mut dyn TensorEvaluator,
        seed: u64,
        stop: &StopFlag,
    ) -> Result<Vec<SearchOutcome<String>>, String>;

    /// Plays self-play games from the start with the guided search of the
    /// `az` options `options` and writes their samples into `dir`
    /// ([`super::selfplay::self_play`]), guided by `evaluator` if given,
    /// by the evaluator the options name (`net=...`) otherwise.
    ///
    /// # Errors
    /// Options that do not read, a game the guided search refuses, and as
    /// `self_play`.
    fn self_play(
        &self,
        options: &str,
        evaluator: Option<&mut dyn TensorEvaluator>,
        config: &SelfPlayConfig,
        dir: &Path,
    ) -> Result<Manifest, String>;

    /// Trains a network by self-play from the start in the run directory
    /// `dir` ([`super::train::train`]), with the evaluations `evaluation`
    /// asks for after the checkpoints: starts the run or resumes it.
    ///
    /// # Errors
    /// Evaluations that cannot be played ([`EvaluationSettings::check`]),
    /// and as `train`.
    fn train(
        &self,
        settings: &TrainSettings,
        session: &TrainSession,
        evaluation: Option<&EvaluationRequest>,
        dir: &Path,
    ) -> Result<TrainSummary, String>;
}

/// A state of a [`DynGame`]: an [`ActionState`] behind a trait object.
/// Player numbers must be below [`num_players`](Self::num_players); the
/// methods that take one may panic otherwise.
pub trait DynState: Send + Sync {
    /// A copy of this state.
    fn clone_state(&self) -> Box<dyn DynState>;

    /// The game's name.
    fn game_name(&self) -> &'static str;

    /// How many players the game has.
    fn num_players(&self) -> usize;

    /// Who acts next.
    fn turn(&self) -> Turn;

    /// Each player's payoff: the result once the game is over, zero before.
    fn returns(&self) -> Vec<f64>;

    /// The action ids `player` may choose now, in increasing order.
    fn legal_actions(&self, player: Player) -> Vec<u32>;

    /// Applies one action of the player to move, or one chance outcome.
    ///
    /// # Errors
    /// An id that is not legal here.
    fn apply_action(&mut self, id: u32) -> Result<(), IllegalMove>;

    /// Applies one action per player at a simultaneous node.
    ///
    /// # Errors
    /// Not a simultaneous node, or an id that is not its player's choice.
    fn apply_actions(&mut self, ids: &[u32]) -> Result<(), IllegalMove>;

    /// The chance outcomes of the next draw with their probabilities.
    fn chance_outcomes(&self) -> Vec<(u32, f64)>;

    /// Writes `player`'s observation tensor into `out`, which is as long
    /// as the product of the game's observation shape.
    fn write_observation(&self, player: Player, out: &mut [f32]);

    /// What `player` sees, as text.
    fn observation_string(&self, player: Player) -> String;

    /// Writes what every player sees into `out` (as
    /// [`write_observation`](Self::write_observation), without private
    /// information).
    fn write_public_observation(&self, out: &mut [f32]);

    /// What every player sees, as text.
    fn public_observation_string(&self) -> String;

    /// Everything every player has seen, as text.
    fn public_information_state_string(&self) -> String;

    /// Everything `player` has seen, as text.
    fn information_state_string(&self, player: Player) -> String;

    /// Action `id` as text, as `player` would choose it here.
    ///
    /// # Errors
    /// An id outside the game's action ids (chance outcome ids at a chance
    /// node).
    fn action_to_string(&self, player: Player, id: u32) -> Result<String, IllegalMove>;

    /// The legal action of `player` written `text`.
    ///
    /// # Errors
    /// Text that names no legal action of `player` here.
    fn string_to_action(&self, player: Player, text: &str) -> Result<u32, ParseError>;

    /// Every action and chance outcome applied since the start position.
    fn history(&self) -> &[u32];

    /// The ids taken so far of a move that takes several decisions.
    fn pending(&self) -> &[u32];

    /// The position the history starts from, in the game's text form;
    /// `None` for the rules' own start. With [`history`](Self::history)
    /// it rebuilds this state ([`DynGame::state_from_position`], then each
    /// action), which is how the Python package pickles a state.
    fn start_position(&self) -> Option<&str>;

    /// The position in the game's text form (before a move whose
    /// decisions are under way, and before a deal under way).
    fn position_text(&self) -> String;

    /// The position as a diagram for a terminal.
    fn diagram(&self) -> String;

    /// The state as [`Any`], for an agent of the same game to read.
    fn as_any(&self) -> &dyn Any;
}

/// An agent of a [`DynGame`].
pub trait DynAgent: Send {
    /// The spec it was built from.
    fn spec(&self) -> &str;

    /// Every setting it plays with, as a spec.
    fn configuration(&self) -> String;

    /// The rest of the move the agent chooses for `player` in `state`: the
    /// ids of its decisions not yet taken. At a simultaneous node that is
    /// the player's one choice.
    ///
    /// # Errors
    /// A state of another game, a state where `player` does not choose, an
    /// agent that cannot play it, or a resignation.
    fn choose(&mut self, state: &dyn DynState, player: Player) -> Result<Vec<u32>, AgentError>;

    /// Forgets the game it was playing, before a new one.
    fn reset(&mut self);

    /// Gives the agent a flag that ends its searches early once raised
    /// ([`Agent::set_stop_flag`]); whether it searches and checks it.
    fn set_stop_flag(&mut self, flag: StopFlag) -> bool;

    /// What its last decision's search found and cost, the line written
    /// in the game's notation ([`Agent::last_search`]); `None` for agents
    /// that do not search.
    fn last_search(&self) -> Option<SearchRecord<String>>;
}

/// Loads the built-in game `name` under the rules `rules` (`key=value`
/// text, empty for the defaults).
///
/// # Errors
/// An unknown name, or rules that do not read.
pub fn load_game(name: &str, rules: &str) -> Result<Arc<dyn DynGame>, LoadError> {
    load_game_in::<BuiltIn>(name, rules)
}

/// Loads game `name` of list `L` under `rules` (see [`load_game`]).
///
/// # Errors
/// An unknown name, or rules that do not read.
pub fn load_game_in<L: GameList>(name: &str, rules: &str) -> Result<Arc<dyn DynGame>, LoadError> {
    let info = registry::find_in::<L>(name).map_err(LoadError::UnknownGame)?;
    registry::visit_in::<L, _>(name, &mut Loader { rules, info })
        .map_err(LoadError::UnknownGame)?
        .map_err(LoadError::Rules)
}

struct Loader<'a> {
    rules: &'a str,
    /// The registry's entry of the name loaded: a variant's name plays its
    /// game under the variant's rules, those given read onto them.
    info: GameInfo,
}

impl GameVisitor for Loader<'_> {
    type Output = Result<Arc<dyn DynGame>, ParseError>;

    fn visit<G: Registered>(&mut self) -> Self::Output {
        let rules: G::Rules = if self.info.is_variant() {
            use crate::core::RulesOptions;
            self.info.rules.parse::<G::Rules>()?.read_onto(self.rules)?
        } else {
            self.rules.parse()?
        };
        let start = G::new(rules.clone());
        Ok(Arc::new(Loaded::<G> {
            rules,
            start,
            info: self.info,
        }))
    }
}

/// A game of type `G` under fixed rules, by the name it was loaded by.
struct Loaded<G: Registered> {
    rules: G::Rules,
    start: G,
    info: GameInfo,
}

impl<G: Registered> Loaded<G> {
    /// Checks that the rules an experiment records as given, `text`, are
    /// this game's.
    fn check_rules(&self, experiment: &str, text: &str) -> Result<(), String> {
        let given = <G as Game>::Rules::from_str(text).map_err(|error| error.to_string())?;
        if <G as Game>::Rules::eq(&given, &self.rules) {
            Ok(())
        } else {
            Err(format!(
                "the {experiment}'s rules `{text}` are not the game's, `{}`",
                self.rules
            ))
        }
    }

    /// `config` under this game's name, once its rules are checked to be
    /// the game's.
    fn own_config(
        &self,
        experiment: &str,
        config: &TournamentConfig,
    ) -> Result<TournamentConfig, String> {
        self.check_rules(experiment, &config.rules)?;
        Ok(TournamentConfig {
            game: G::NAME.to_string(),
            ..config.clone()
        })
    }
}

impl<G: Registered> DynGame for Loaded<G> {
    fn info(&self) -> GameInfo {
        self.info
    }

    fn rules(&self) -> String {
        self.rules.to_string()
    }

    fn num_players(&self) -> usize {
        self.start.num_players()
    }

    fn num_actions(&self) -> usize {
        G::num_actions(&self.rules)
    }

    fn payoff_range(&self) -> (f64, f64) {
        self.start.payoff_range()
    }

    fn observation_shape(&self) -> Vec<usize> {
        G::observation_shape(&self.rules)
    }

    fn max_game_length(&self) -> Option<usize> {
        G::max_game_length(&self.rules)
    }

    fn max_chance_outcomes(&self) -> usize {
        G::deal_model(&self.rules).map_or(0, |model| chance_outcome_count(&model))
    }

    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(Positioned {
            action: ActionState::from_state(self.start.clone()),
            start: None,
            name: self.info.name,
        })
    }

    fn state_from_position(&self, text: &str) -> Result<Box<dyn DynState>, ParseError> {
        let state = G::from_position_text(text, self.rules.clone())?;
        Ok(Box::new(Positioned {
            action: ActionState::from_state(state),
            start: Some(text.trim().to_string()),
            name: self.info.name,
        }))
    }

    fn agent(&self, spec: &str, seed: u64) -> Result<Box<dyn DynAgent>, ParseError> {
        Ok(Box::new(LoadedAgent::<G> {
            agent: registry::build_agent::<G>(spec, seed)?,
            plan: None,
        }))
    }

    fn vector(&self, config: &VectorConfig) -> Result<Box<dyn DynVector>, ParseError> {
        vector_of::<G>(&self.rules, config)
    }

    fn guided_search(
        &self,
        states: &[&dyn DynState],
        options: &str,
        evaluator: &mut dyn TensorEvaluator,
        seed: u64,
        stop: &StopFlag,
    ) -> Result<Vec<SearchOutcome<String>>, String> {
        let positions = states
            .iter()
            .map(|state| {
                let action = &state
                    .as_any()
                    .downcast_ref::<Positioned<G>>()
                    .ok_or_else(|| {
                        format!("a state of {} is not one of {}", state.game_name(), G::NAME)
                    })?
                    .action;
                Ok((action.state(), action.pending()))
            })
            .collect::<Result<Vec<_>, String>>()?;
        search_positions(&positions, options, evaluator, seed, stop)
    }

    fn self_play(
        &self,
        options: &str,
        evaluator: Option<&mut dyn TensorEvaluator>,
        config: &SelfPlayConfig,
        dir: &Path,
    ) -> Result<Manifest, String> {
        refuse_unsearchable::<G>("self-play")?;
        let (search, guide) = read_az_options(options)?;
        let search = GuidedSearch::new(search)?;
        match evaluator {
            Some(evaluator) => self_play(
                &self.start,
                &search,
                &mut EvaluationBlend::new(Tensors(evaluator), search.config().eval_mix),
                "python",
                config,
                dir,
                |_| {},
            ),
            None => self_play(
                &self.start,
                &search,
                &mut guide.evaluator::<G>(search.config())?,
                &write_options(&guide),
                config,
                dir,
                |_| {},
            ),
        }
    }

    fn train(
        &self,
        settings: &TrainSettings,
        session: &TrainSession,
        evaluation: Option<&EvaluationRequest>,
        dir: &Path,
    ) -> Result<TrainSummary, String> {
        let evaluation = evaluation
            .map(|request| EvaluationSettings::of_run(&self.start, request, settings, session))
            .transpose()?;
        super::train::train(
            &self.start,
            settings,
            session,
            dir,
            |_| {},
            &mut |generation| match &evaluation {
                Some(evaluation) => evaluation
                    .after_checkpoint(&self.start, dir, generation)
                    .map(|_| ()),
                None => Ok(()),
            },
        )
    }
    fn tournament_with(
        &self,
        config: &TournamentConfig,
        options: &RunOptions<'_>,
        policies: &NamedPolicies,
    ) -> Result<RunResult, String> {
        let config = self.own_config("tournament", config)?;
        let agents = |spec: &str, seed| policy_or_agent::<G>(policies, self.info.name, spec, seed);
        run_tournament(&config, &self.start, &agents, options).map_err(|error| error.to_string())
    }

    fn run_match(
        &self,
        config: &TournamentConfig,
        options: &MatchOptions<'_>,
        policies: &NamedPolicies,
    ) -> Result<MatchReport, String> {
        let config = self.own_config("match", config)?;
        let agents = |spec: &str, seed| policy_or_agent::<G>(policies, self.info.name, spec, seed);
        run_match(&config, &self.start, &agents, options).map_err(|error| error.to_string())
    }

    fn winrate(
        &self,
        config: &WinRateConfig,
        options: &WinRateOptions<'_>,
    ) -> Result<WinRateOutcome, String> {
        if config.sweep.is_none() {
            self.check_rules("win-rate run", &config.rules)?;
        }
        run_win_rate::<G>(config, Arc::new(registry::build_agent::<G>), options)
    }

    fn solve(&self, state: &dyn DynState, request: &SolveRequest) -> Result<Solution, String> {
        let state = state
            .as_any()
            .downcast_ref::<Positioned<G>>()
            .ok_or_else(|| format!("the state is not one of {}", G::NAME))?;
        if !state.action.pending().is_empty() {
            return Err("a move is under way: solve the state before its first decision".into());
        }
        solve_state(state.action.state(), request)
    }
}

/// `action` behind the dynamic interface, its history starting from its
/// game state's position, as a state of the game loaded as `name`.
pub(super) fn positioned<G: Registered>(
    action: ActionState<G>,
    name: &'static str,
) -> Box<dyn DynState> {
    let start = Some(action.state().position_text());
    Box::new(Positioned {
        action,
        start,
        name,
    })
}

/// An action state with the position its history starts from.
#[derive(Clone)]
struct Positioned<G: Registered> {
    action: ActionState<G>,
    start: Option<String>,
    /// The name the game was loaded by.
    name: &'static str,
}

impl<G: Registered> DynState for Positioned<G> {
    fn clone_state(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }

    fn game_name(&self) -> &'static str {
        self.name
    }

    fn num_players(&self) -> usize {
        self.action.state().num_players()
    }

    fn turn(&self) -> Turn {
        self.action.turn()
    }

    fn returns(&self) -> Vec<f64> {
        self.action.returns()
    }

    fn legal_actions(&self, player: Player) -> Vec<u32> {
        self.action.legal_actions(player)
    }

    fn apply_action(&mut self, id: u32) -> Result<(), IllegalMove> {
        self.action.apply_action(id)
    }

    fn apply_actions(&mut self, ids: &[u32]) -> Result<(), IllegalMove> {
        self.action.apply_actions(ids)
    }

    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        self.action.chance_outcomes()
    }

    fn write_observation(&self, player: Player, out: &mut [f32]) {
        self.action.write_observation(player, out);
    }

    fn observation_string(&self, player: Player) -> String {
        self.action.observation_string(player)
    }

    fn write_public_observation(&self, out: &mut [f32]) {
        self.action.write_public_observation(out);
    }

    fn public_observation_string(&self) -> String {
        self.action.public_observation_string()
    }

    fn public_information_state_string(&self) -> String {
        self.action.public_information_state_string()
    }

    fn information_state_string(&self, player: Player) -> String {
        self.action.information_state_string(player)
    }

    fn action_to_string(&self, player: Player, id: u32) -> Result<String, IllegalMove> {
        self.action.action_to_string(player, id)
    }

    fn string_to_action(&self, player: Player, text: &str) -> Result<u32, ParseError> {
        self.action.string_to_action(player, text)
    }

    fn history(&self) -> &[u32] {
        self.action.history()
    }

    fn pending(&self) -> &[u32] {
        self.action.pending()
    }

    fn start_position(&self) -> Option<&str> {
        self.start.as_deref()
    }

    fn position_text(&self) -> String {
        self.action.state().position_text()
    }

    fn diagram(&self) -> String {
        self.action.state().diagram()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// An agent of game `G`, with the move it chose last so that the later
/// decisions of a move that takes several follow its first.
struct LoadedAgent<G: Registered> {
    agent: Box<dyn Agent<G>>,
    /// The state the agent chose in and the whole path of its move.
    plan: Option<(G, ActionPath)>,
}

impl<G: Registered> LoadedAgent<G> {
    /// The path of the agent's move for `player` in `state`: its earlier
    /// choice when a move of it is under way, a new decision otherwise.
    fn path(&mut self, state: &G, player: Player) -> Result<ActionPath, AgentError> {
        if let Some((planned_in, path)) = &self.plan
            && planned_in == state
        {
            return Ok(*path);
        }
        let mv = match self.agent.decide(state, player)? {
            Decision::Play(mv) => mv,
            Decision::Resign => {
                return Err(AgentError::new(format!(
                    "{} resigns for the {}",
                    self.agent.spec(),
                    state.player_name(player)
                )));
            }
        };
        let mut path = ActionPath::new();
        state.action_path(mv, &mut path);
        self.plan = Some((state.clone(), path));
        Ok(path)
    }
}

impl<G: Registered> DynAgent for LoadedAgent<G> {
    fn spec(&self) -> &str {
        self.agent.spec()
    }

    fn last_search(&self) -> Option<SearchRecord<String>> {
        let record = self.agent.last_search()?;
        let (searched, _) = self.plan.as_ref()?;
        Some(record.written(searched))
    }

    fn configuration(&self) -> String {
        self.agent.configuration()
    }

    fn choose(&mut self, state: &dyn DynState, player: Player) -> Result<Vec<u32>, AgentError> {
        let Some(positioned) = state.as_any().downcast_ref::<Positioned<G>>() else {
            return Err(AgentError::new(format!(
                "an agent of {} cannot play a state of {}",
                G::NAME,
                state.game_name()
            )));
        };
        let action = &positioned.action;
        let chooses = match action.turn() {
            Turn::Player(mover) => mover == player,
            Turn::Simultaneous => player < action.state().num_players(),
            Turn::Chance | Turn::Terminal => false,
        };
        if !chooses {
            return Err(AgentError::new(format!(
                "player {player} has no choice to make here"
            )));
        }
        let path = self.path(action.state(), player)?;
        match path.as_slice().strip_prefix(action.pending()) {
            Some(rest) if !rest.is_empty() => Ok(rest.to_vec()),
            _ => Err(AgentError::new(format!(
                "the agent's move {:?} does not continue the decisions already taken, {:?}",
                path.as_slice(),
                action.pending()
            ))),
        }
    }

    fn reset(&mut self) {
        self.agent.reset();
        self.plan = None;
    }

    fn set_stop_flag(&mut self, flag: StopFlag) -> bool {
        self.agent.set_stop_flag(flag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_game_loads_by_name() {
        for info in registry::games() {
            let game = load_game(info.name, "").unwrap();
            assert_eq!(game.info().name, info.name);
            let state = game.new_initial_state();
            assert_eq!(state.game_name(), info.name);
            assert_eq!(state.num_players(), game.num_players());
            assert!(state.history().is_empty());
        }
    }

    #[test]
    fn unknown_games_and_bad_rules_are_refused() {
        assert!(matches!(
            load_game("chess", ""),
            Err(LoadError::UnknownGame(_))
        ));
        assert!(matches!(
            load_game("hnefatafl", "ply-limit=banana"),
            Err(LoadError::Rules(_))
        ));
    }

    #[test]
    fn a_state_rebuilds_from_its_start_and_history() {
        let game = load_game("thud", "").unwrap();
        let mut state = game.new_initial_state();
        let mut agent = game.agent("random", 3).unwrap();
        for _ in 0..30 {
            let Turn::Player(player) = state.turn() else {
                break;
            };
            let id = agent.choose(state.as_ref(), player).unwrap()[0];
            state.apply_action(id).unwrap();
        }
        let mut rebuilt = game.new_initial_state();
        for &id in state.history() {
            rebuilt.apply_action(id).unwrap();
        }
        assert_eq!(rebuilt.history(), state.history());
        assert_eq!(rebuilt.position_text(), state.position_text());
        assert_eq!(rebuilt.pending(), state.pending());
    }

    /// Ids just past a game's range once reached its tables (an index out
    /// of bounds) or were given made-up names: they are refused, at the
    /// start and, in games with a deal, at a chance node.
    #[test]
    fn ids_outside_the_range_are_refused() {
        for info in registry::games() {
            let game = load_game(info.name, "").unwrap();
            let mut state = game.new_initial_state();
            let outside = game.num_actions().max(game.max_chance_outcomes()) as u32;
            for id in [outside, u32::MAX] {
                assert!(state.action_to_string(0, id).is_err(), "{}", info.name);
                assert!(state.apply_action(id).is_err(), "{}", info.name);
            }
            if state.turn() == Turn::Chance {
                let outcome = state.chance_outcomes()[0].0;
                state.apply_action(outcome).unwrap();
                let error = state.apply_action(outside).unwrap_err();
                assert!(!error.to_string().is_empty());
            }
        }
    }

    #[test]
    fn an_agent_refuses_a_state_of_another_game() {
        let thud = load_game("thud", "").unwrap();
        let hnefatafl = load_game("hnefatafl", "").unwrap();
        let mut agent = thud.agent("random", 1).unwrap();
        let state = hnefatafl.new_initial_state();
        let error = agent.choose(state.as_ref(), 0).unwrap_err();
        assert!(error.to_string().contains("cannot play"), "{error}");
    }
}
