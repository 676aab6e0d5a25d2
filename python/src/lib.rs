//! The `norn._norn` extension module: norn's games, agents and experiments
//! for Python, shaped after OpenSpiel's `pyspiel`. The library does the
//! work (`norn::learning`); this crate only converts between Python and
//! Rust values and turns every error into a Python exception.

use norn::learning::{DynAgent, DynGame, DynState, Turn, load_game as load};
use norn::registry::{self, GameInfo as Info};
use norn::search::StopFlag;
use numpy::{IntoPyArray, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

mod experiments;
mod guided;
mod net;
mod numbers;
mod solvers;
mod train;
mod vector;

use numbers::Whole;

/// OpenSpiel's player number of a chance node.
const CHANCE: i64 = -1;
/// OpenSpiel's player number of a simultaneous node.
const SIMULTANEOUS: i64 = -2;
/// OpenSpiel's player number of a terminal state.
const TERMINAL: i64 = -4;

/// A `ValueError` carrying norn's message.
fn value_error(error: impl ToString) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// What the registry says about one game.
#[pyclass(module = "norn._norn", name = "GameInfo", frozen, get_all)]
struct GameInfo {
    /// The game's name, as `load_game` takes it.
    name: &'static str,
    /// A one-line description.
    title: &'static str,
    /// The sides' names, player 0 first (empty where players are numbered).
    sides: Vec<&'static str>,
    /// Whether chance deals or draws.
    chance: bool,
    /// Whether players hold information the others cannot see.
    hidden_information: bool,
    /// Whether the players choose at once, in secret.
    simultaneous_moves: bool,
    /// What the payoffs mean: `win-loss`, `margin` or `team`.
    scoring: &'static str,
}

impl GameInfo {
    fn of(info: Info) -> GameInfo {
        let capabilities = info.capabilities;
        GameInfo {
            name: info.name,
            title: info.title,
            sides: info.sides.to_vec(),
            chance: capabilities.chance,
            hidden_information: capabilities.hidden_information,
            simultaneous_moves: capabilities.simultaneous_moves,
            scoring: if capabilities.cooperative() {
                "team"
            } else if capabilities.scored() {
                "margin"
            } else {
                "win-loss"
            },
        }
    }
}

#[pymethods]
impl GameInfo {
    fn __repr__(&self) -> String {
        format!("GameInfo(name={:?}, title={:?})", self.name, self.title)
    }
}

/// Every game norn knows, with its sides and capabilities.
#[pyfunction]
fn games() -> Vec<GameInfo> {
    registry::games().into_iter().map(GameInfo::of).collect()
}

/// A game under fixed rules: the factory of its states and agents.
#[pyclass(module = "norn._norn", name = "Game", frozen)]
struct Game {
    inner: Arc<dyn DynGame>,
}

/// Loads a game by name, under rules given as `key=value,...` text
/// (empty for the defaults).
#[pyfunction]
#[pyo3(signature = (name, rules = ""))]
fn load_game(name: &str, rules: &str) -> PyResult<Game> {
    Ok(Game {
        inner: load(name, rules).map_err(value_error)?,
    })
}

#[pymethods]
impl Game {
    /// The game's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.info().name
    }

    /// What the registry says about the game.
    #[getter]
    fn info(&self) -> GameInfo {
        GameInfo::of(self.inner.info())
    }

    /// The rules in force, every option written out.
    #[getter]
    fn rules(&self) -> String {
        self.inner.rules()
    }

    /// How many players the game has under these rules.
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    /// How many action ids the game uses: the width of a legal-action mask.
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_actions()
    }

    /// The lowest payoff a player can get.
    fn min_utility(&self) -> f64 {
        self.inner.payoff_range().0
    }

    /// The highest payoff a player can get.
    fn max_utility(&self) -> f64 {
        self.inner.payoff_range().1
    }

    /// How many chance outcome ids the game uses (0 without chance).
    fn max_chance_outcomes(&self) -> usize {
        self.inner.max_chance_outcomes()
    }

    /// The shape of an observation tensor.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.inner.observation_shape()
    }

    /// The number of values of an observation tensor.
    fn observation_tensor_size(&self) -> usize {
        self.inner.observation_shape().iter().product()
    }

    /// The most actions one game can take, or `None` where the rules set
    /// no bound.
    fn max_game_length(&self) -> Option<usize> {
        self.inner.max_game_length()
    }

    /// The starting state, or the state of `position` (the game's position
    /// text) when given.
    #[pyo3(signature = (position = None))]
    fn new_initial_state(&self, position: Option<&str>) -> PyResult<State> {
        let inner = match position {
            Some(text) => self.inner.state_from_position(text).map_err(value_error)?,
            None => self.inner.new_initial_state(),
        };
        Ok(State {
            game: self.inner.clone(),
            inner,
        })
    }

    /// An agent built from a spec, as on the command line.
    #[pyo3(signature = (spec, seed = Whole::Value(0)))]
    fn agent(&self, spec: &str, seed: Whole) -> PyResult<Agent> {
        Agent::build(&self.inner, spec, seed.at_least("seed", 0)?)
    }

    fn __repr__(&self) -> String {
        format!("norn.load_game({:?}, {:?})", self.name(), self.rules())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let load = module_function(py, "load_game")?;
        (load, (self.name(), self.rules())).into_pyobject(py)
    }
}

/// A state of a game, seen through action ids as in OpenSpiel.
#[pyclass(module = "norn._norn", name = "State")]
pub(crate) struct State {
    pub(crate) game: Arc<dyn DynGame>,
    pub(crate) inner: Box<dyn DynState>,
}

impl State {
    /// The legal action ids of `player` (see `legal_actions`).
    fn legal_ids(&self, player: Option<Whole>) -> PyResult<Vec<u32>> {
        match (&player, self.inner.turn()) {
            (None, Turn::Chance) => Ok(self.inner.legal_actions(0)),
            (None, Turn::Terminal) => Ok(Vec::new()),
            _ => Ok(self.inner.legal_actions(self.player(player)?)),
        }
    }

    /// `player`, checked, or the player to move when `None`.
    fn player(&self, player: Option<Whole>) -> PyResult<usize> {
        let players = self.inner.num_players();
        match player {
            Some(player) => player.within("player", 0, players as i128 - 1),
            None => match self.inner.turn() {
                Turn::Player(player) => Ok(player),
                turn => Err(value_error(format!(
                    "no single player acts here ({}): name the player",
                    turn_name(turn)
                ))),
            },
        }
    }
}

/// Action ids below this have their Python ints made once and shared by
/// every list of legal actions: more than any game's action count, so that
/// listing the legal actions, which a Python loop does at every step,
/// allocates one list and no ints.
const SHARED_IDS: u32 = 1 << 15;

static ID_INTS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

/// `ids` as a Python list of ints.
fn id_list<'py>(py: Python<'py>, ids: &[u32]) -> PyResult<Bound<'py, PyList>> {
    let shared = ID_INTS.get_or_init(py, || {
        (0..SHARED_IDS)
            .map(|id| python_int(py, id).unbind())
            .collect()
    });
    PyList::new(
        py,
        ids.iter().map(|&id| match shared.get(id as usize) {
            Some(int) => int.bind(py).clone(),
            None => python_int(py, id),
        }),
    )
}

fn python_int(py: Python<'_>, id: u32) -> Bound<'_, PyAny> {
    let Ok(int) = id.into_pyobject(py);
    int.into_any()
}

fn turn_name(turn: Turn) -> &'static str {
    match turn {
        Turn::Player(_) => "a player's turn",
        Turn::Chance => "a chance node",
        Turn::Simultaneous => "a simultaneous node",
        Turn::Terminal => "the game is over",
    }
}

/// A function of this module as pickle finds it again: by its module and
/// name.
fn module_function<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("norn._norn")?.getattr(name)
}

/// Restores a pickled state: the game, its start and the actions since.
#[pyfunction]
#[pyo3(name = "_restore_state")]
fn restore_state(
    name: &str,
    rules: &str,
    start: Option<&str>,
    history: Vec<u32>,
) -> PyResult<State> {
    let game = load_game(name, rules)?;
    let mut state = game.new_initial_state(start)?;
    state.replay(&history)?;
    Ok(state)
}

impl State {
    /// `action` as an id within the game's range of action ids and chance
    /// outcomes (the state refuses those not legal here).
    fn action_id(&self, action: &Whole) -> PyResult<u32> {
        let actions = self.game.num_actions();
        match action {
            // The common case, without asking for the chance outcomes.
            Whole::Value(id) if (0..actions as i128).contains(id) => Ok(*id as u32),
            _ => action.action(actions.max(self.game.max_chance_outcomes())),
        }
    }

    /// Applies a history's actions, taking a simultaneous node's actions
    /// together.
    fn replay(&mut self, history: &[u32]) -> PyResult<()> {
        let mut rest = history;
        while let Some(&first) = rest.first() {
            if self.inner.turn() == Turn::Simultaneous {
                let players = self.inner.num_players();
                let joint = rest
                    .get(..players)
                    .ok_or_else(|| value_error("the history ends inside a simultaneous node"))?;
                self.inner.apply_actions(joint).map_err(value_error)?;
                rest = &rest[players..];
            } else {
                self.inner.apply_action(first).map_err(value_error)?;
                rest = &rest[1..];
            }
        }
        Ok(())
    }
}

#[pymethods]
impl State {
    /// The game this state belongs to.
    fn get_game(&self) -> Game {
        Game {
            inner: self.game.clone(),
        }
    }

    /// How many players the game has.
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    /// The player to act: a player's number, or `CHANCE`, `SIMULTANEOUS`
    /// or `TERMINAL`.
    fn current_player(&self) -> i64 {
        self.inner.turn().code()
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.turn() == Turn::Terminal
    }

    /// Whether nature acts next.
    fn is_chance_node(&self) -> bool {
        self.inner.turn() == Turn::Chance
    }

    /// Whether every player chooses at once next.
    fn is_simultaneous_node(&self) -> bool {
        self.inner.turn() == Turn::Simultaneous
    }

    /// Whether one player acts next.
    fn is_player_node(&self) -> bool {
        matches!(self.inner.turn(), Turn::Player(_))
    }

    /// Each player's payoff: the result once the game is over, zeros before.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    /// The action ids `player` (the player to move by default) may choose,
    /// in increasing order; the chance outcomes at a chance node.
    #[pyo3(signature = (player = None))]
    fn legal_actions<'py>(
        &self,
        py: Python<'py>,
        player: Option<Whole>,
    ) -> PyResult<Bound<'py, PyList>> {
        id_list(py, &self.legal_ids(player)?)
    }

    /// A list of `num_distinct_actions` zeros and ones: one where the
    /// action is legal for `player`.
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask(&self, player: Option<Whole>) -> PyResult<Vec<u8>> {
        let mut mask = vec![0; self.game.num_actions()];
        for id in self.legal_ids(player)? {
            mask[id as usize] = 1;
        }
        Ok(mask)
    }

    /// Applies the action of the player to move, or a chance outcome.
    fn apply_action(&mut self, action: Whole) -> PyResult<()> {
        let id = self.action_id(&action)?;
        self.inner.apply_action(id).map_err(value_error)
    }

    /// Applies one action per player at a simultaneous node.
    fn apply_actions(&mut self, actions: Vec<Whole>) -> PyResult<()> {
        let ids = actions
            .iter()
            .map(|action| self.action_id(action))
            .collect::<PyResult<Vec<u32>>>()?;
        self.inner.apply_actions(&ids).map_err(value_error)
    }

    /// The next chance draw's outcomes with their probabilities (summing
    /// to 1); empty where nature does not act.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        self.inner.chance_outcomes()
    }

    /// What `player` sees, as a float32 array of the game's observation
    /// shape.
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<Whole>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let player = self.player(player)?;
        let shape = self.game.observation_shape();
        let mut values = vec![0.0; shape.iter().product()];
        self.inner.write_observation(player, &mut values);
        values.into_pyarray(py).reshape(shape)
    }

    /// What every player sees, as a float32 array of the game's
    /// observation shape: the observation without any player's private
    /// information (the same as any player's in a game of perfect
    /// information).
    fn public_observation_tensor<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let shape = self.game.observation_shape();
        let mut values = vec![0.0; shape.iter().product()];
        self.inner.write_public_observation(&mut values);
        values.into_pyarray(py).reshape(shape)
    }

    /// What every player sees, as text.
    fn public_observation_string(&self) -> String {
        self.inner.public_observation_string()
    }

    /// Everything every player has seen, as text.
    fn public_information_state_string(&self) -> String {
        self.inner.public_information_state_string()
    }

    /// What `player` sees, as text.
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<Whole>) -> PyResult<String> {
        Ok(self.inner.observation_string(self.player(player)?))
    }

    /// Everything `player` has seen, as text: equal exactly when the
    /// player cannot tell two states apart.
    #[pyo3(signature = (player = None))]
    fn information_state_string(&self, player: Option<Whole>) -> PyResult<String> {
        Ok(self.inner.information_state_string(self.player(player)?))
    }

    /// An action as text in the game's notation: `action_to_string(action)`
    /// for the player to move, or `action_to_string(player, action)`.
    #[pyo3(signature = (first, second = None))]
    fn action_to_string(&self, first: Whole, second: Option<Whole>) -> PyResult<String> {
        let (player, action) = match second {
            Some(action) => (Some(first), action),
            None => (None, first),
        };
        let player = match (player, self.inner.turn()) {
            (None, Turn::Chance) => 0,
            (player, _) => self.player(player)?,
        };
        let id = self.action_id(&action)?;
        self.inner.action_to_string(player, id).map_err(value_error)
    }

    /// The action written `text`: `string_to_action(text)` for the player
    /// to move, or `string_to_action(player, text)`.
    #[pyo3(signature = (first, second = None))]
    fn string_to_action(&self, first: &Bound<'_, PyAny>, second: Option<&str>) -> PyResult<u32> {
        let (player, text) = match second {
            Some(text) => (Some(first.extract::<Whole>()?), text.to_string()),
            None => (None, first.extract::<String>()?),
        };
        let player = match (player, self.inner.turn()) {
            (None, Turn::Chance) => 0,
            (player, _) => self.player(player)?,
        };
        self.inner
            .string_to_action(player, &text)
            .map_err(value_error)
    }

    /// Every action and chance outcome applied since the start.
    fn history(&self) -> Vec<u32> {
        self.inner.history().to_vec()
    }

    /// The ids already taken of a move that takes several decisions.
    fn pending(&self) -> Vec<u32> {
        self.inner.pending().to_vec()
    }

    /// The position in the game's text form, which `new_initial_state`
    /// reads back (before a move or a deal under way).
    fn position(&self) -> String {
        self.inner.position_text()
    }

    /// A copy of this state.
    fn clone(&self) -> State {
        State {
            game: self.game.clone(),
            inner: self.inner.clone_state(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    fn __str__(&self) -> String {
        self.inner.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "<norn State of {} after {} actions>",
            self.inner.game_name(),
            self.inner.history().len()
        )
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let restore = module_function(py, "_restore_state")?;
        let arguments = (
            self.inner.game_name(),
            self.game.rules(),
            self.inner.start_position().map(str::to_string),
            self.inner.history().to_vec(),
        );
        (restore, arguments).into_pyobject(py)
    }
}

/// An agent built from a spec, as on the command line.
#[pyclass(module = "norn._norn", name = "Agent", frozen)]
struct Agent {
    game: Arc<dyn DynGame>,
    inner: Mutex<Box<dyn DynAgent>>,
    /// Raised by a Ctrl-C during a decision, to end the search.
    stop: Arc<AtomicBool>,
    /// Whether the agent searches (and checks `stop`): its decisions then
    /// run on a thread of their own while this one looks for Ctrl-C.
    searches: bool,
}

impl Agent {
    fn build(game: &Arc<dyn DynGame>, spec: &str, seed: u64) -> PyResult<Agent> {
        let mut agent = game.agent(spec, seed).map_err(value_error)?;
        let stop = Arc::new(AtomicBool::new(false));
        let searches = agent.set_stop_flag(StopFlag::new(stop.clone()));
        Ok(Agent {
            game: game.clone(),
            inner: Mutex::new(agent),
            stop,
            searches,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Box<dyn DynAgent>> {
        // A panic while the agent was held is already an exception; the
        // agent itself holds no invariant that a second call would break.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The norn state of `state`: a norn `State`, or an OpenSpiel state of a
/// norn game (`norn.openspiel`), whose norn state is its `inner`.
pub(crate) fn norn_state<'py>(state: &Bound<'py, PyAny>) -> PyResult<PyRef<'py, State>> {
    if let Ok(state) = state.extract::<PyRef<'py, State>>() {
        return Ok(state);
    }
    state
        .getattr("inner")
        .ok()
        .and_then(|inner| inner.extract::<PyRef<'py, State>>().ok())
        .ok_or_else(|| {
            pyo3::exceptions::PyTypeError::new_err(
                "expected a norn State or an OpenSpiel state of a norn game",
            )
        })
}

/// Builds an agent for `game` from a spec such as `mcts:iters=2000`.
#[pyfunction]
#[pyo3(signature = (spec, game, seed = Whole::Value(0)))]
fn agent(spec: &str, game: &Game, seed: Whole) -> PyResult<Agent> {
    Agent::build(&game.inner, spec, seed.at_least("seed", 0)?)
}

#[pymethods]
impl Agent {
    /// The spec the agent was built from.
    #[getter]
    fn spec(&self) -> String {
        self.lock().spec().to_string()
    }

    /// Every setting it plays with, as a spec.
    #[getter]
    fn configuration(&self) -> String {
        self.lock().configuration()
    }

    /// The agent's next action in `state` (a norn state, or an OpenSpiel
    /// state of a norn game), for the player to move (or for `player` at a
    /// simultaneous node). A move that takes several decisions is given
    /// one id per call, the rest following the first. Searches run without
    /// holding the interpreter, and Ctrl-C stops them (KeyboardInterrupt).
    #[pyo3(signature = (state, player = None))]
    fn step(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        player: Option<Whole>,
    ) -> PyResult<u32> {
        Ok(self.choose(py, state, player)?[0])
    }

    /// All the remaining decisions of the agent's move in `state`.
    #[pyo3(signature = (state, player = None))]
    fn choose(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        player: Option<Whole>,
    ) -> PyResult<Vec<u32>> {
        let state = norn_state(state)?;
        if !Arc::ptr_eq(&self.game, &state.game) && self.game.rules() != state.game.rules() {
            return Err(value_error(
                "the state is of other rules than the agent's game",
            ));
        }
        let player = state.player(player)?;
        let mut guard = self.lock();
        let agent: &mut Box<dyn DynAgent> = &mut guard;
        let seen: &dyn DynState = state.inner.as_ref();
        if !self.searches {
            return py
                .detach(move || agent.choose(seen, player))
                .map_err(value_error);
        }
        self.stop.store(false, Ordering::Relaxed);
        experiments::interruptible(py, &self.stop, move || agent.choose(seen, player))?
            .map_err(value_error)
    }

    /// Forgets the game it was playing.
    fn reset(&self) {
        self.lock().reset();
    }

    /// What the agent's last decision found and cost, for the searchers
    /// (alpha-beta and MCTS): a dictionary of `seconds`, `nodes`, `value`
    /// (the chosen move's value for the mover, from -1 for a loss to 1 for
    /// a win), `pv` (the expected line in the game's notation, the chosen
    /// move first), and `depth` (alpha-beta) or `iterations` and
    /// `visit_share` (MCTS). `None` for other agents and before a decision.
    fn last_search<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(record) = self.lock().last_search() else {
            return Ok(None);
        };
        let text = serde_json::to_string(&record).map_err(value_error)?;
        Ok(Some(py.import("json")?.call_method1("loads", (text,))?))
    }

    fn __repr__(&self) -> String {
        format!("<norn Agent {}>", self.spec())
    }
}

/// norn's games, agents and experiments, shaped after OpenSpiel.
#[pymodule]
fn _norn(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("CHANCE", CHANCE)?;
    module.add("SIMULTANEOUS", SIMULTANEOUS)?;
    module.add("TERMINAL", TERMINAL)?;
    module.add_class::<GameInfo>()?;
    module.add_class::<Game>()?;
    module.add_class::<State>()?;
    module.add_class::<Agent>()?;
    module.add_class::<vector::VectorGame>()?;
    module.add_class::<net::Network>()?;
    module.add_function(wrap_pyfunction!(games, module)?)?;
    module.add_function(wrap_pyfunction!(load_game, module)?)?;
    module.add_function(wrap_pyfunction!(agent, module)?)?;
    module.add_function(wrap_pyfunction!(restore_state, module)?)?;
    module.add_function(wrap_pyfunction!(experiments::tournament, module)?)?;
    module.add_function(wrap_pyfunction!(experiments::winrate, module)?)?;
    module.add_function(wrap_pyfunction!(experiments::play_match, module)?)?;
    module.add_function(wrap_pyfunction!(solvers::solve, module)?)?;
    module.add_function(wrap_pyfunction!(solvers::solve_matrix, module)?)?;
    module.add_function(wrap_pyfunction!(guided::guided_search, module)?)?;
    module.add_function(wrap_pyfunction!(guided::self_play, module)?)?;
    module.add_function(wrap_pyfunction!(train::train, module)?)?;
    Ok(())
}
