//! `norn.guided_search`: the batched guided search (PUCT or Gumbel) over a
//! list of states or a `VectorGame`'s environments, guided by a Python
//! function of numpy arrays; the search runs in Rust without the
//! interpreter, which it takes back only to call the function.

use crate::experiments::interruptible;
use crate::net::Network;
use crate::vector::VectorGame;
use crate::{State, value_error};
use norn::learning::DynGame;
use norn::search::StopFlag;
use norn::search::guided::{EvaluationError, SearchOutcome, TensorEvaluator, ValueLayout};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A Python function `f(observations, masks) -> (logits, values)` as an
/// evaluator; what it raises is kept to be raised again once the search
/// has stopped.
struct PythonEvaluator {
    function: Py<PyAny>,
    layout: ValueLayout,
    observation_shape: Vec<usize>,
    num_actions: usize,
    raised: Option<PyErr>,
}

impl PythonEvaluator {
    /// Calls the function on one batch and copies its answer out, with
    /// the shapes checked.
    fn call(
        &self,
        py: Python<'_>,
        observations: &[f32],
        masks: &[u8],
        batch: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> PyResult<()> {
        let mut shape = vec![batch];
        shape.extend(&self.observation_shape);
        let observations = PyArray1::from_slice(py, observations).reshape(shape)?;
        let masks: Vec<bool> = masks.iter().map(|&legal| legal != 0).collect();
        let masks = PyArray1::from_vec(py, masks).reshape([batch, self.num_actions])?;
        let answer = self.function.call1(py, (observations, masks))?;
        let answer = answer.bind(py);
        let pair = answer
            .cast::<PyTuple>()
            .ok()
            .filter(|pair| pair.len() == 2)
            .ok_or_else(|| {
                value_error("the evaluator must return a pair (logits, values) of arrays")
            })?;
        let numpy = py.import("numpy")?;
        let as_floats = |item: Bound<'_, PyAny>, what: &str| -> PyResult<(Vec<usize>, Vec<f32>)> {
            let array = numpy
                .call_method1("asarray", (item, "float32"))
                .map_err(|error| {
                    value_error(format!(
                        "the evaluator's {what} are not an array of numbers: {error}"
                    ))
                })?;
            let array: PyReadonlyArrayDyn<'_, f32> = array.extract()?;
            Ok((
                array.shape().to_vec(),
                array.as_array().iter().copied().collect(),
            ))
        };
        let (logit_shape, logit_values) = as_floats(pair.get_item(0)?, "logits")?;
        if logit_shape != [batch, self.num_actions] {
            return Err(value_error(format!(
                "the evaluator returned logits of shape {logit_shape:?}, not [{batch}, {}]",
                self.num_actions
            )));
        }
        logits.copy_from_slice(&logit_values);
        let (value_shape, value_values) = as_floats(pair.get_item(1)?, "values")?;
        let width = self.layout.width();
        let fits = value_shape == [batch, width] || (width == 1 && value_shape == [batch]);
        if !fits {
            return Err(value_error(format!(
                "the evaluator returned values of shape {value_shape:?}, not [{batch}]{} ({} values)",
                if width == 1 {
                    String::new()
                } else {
                    format!(" or [{batch}, {width}]")
                },
                self.layout
            )));
        }
        values.copy_from_slice(&value_values);
        Ok(())
    }
}

impl TensorEvaluator for PythonEvaluator {
    fn layout(&self) -> ValueLayout {
        self.layout
    }

    fn evaluate(
        &mut self,
        observations: &[f32],
        masks: &[u8],
        batch: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvaluationError> {
        Python::attach(|py| {
            self.call(py, observations, masks, batch, logits, values)
                .map_err(|error| {
                    let message = error.to_string();
                    self.raised = Some(error);
                    EvaluationError::new(message)
                })
        })
    }
}

/// What a Python caller gives to answer for the leaves: a function of
/// numpy arrays, or a `norn.Network`, which runs in Rust without the
/// interpreter (and checks that it was made for the game searched).
enum Given {
    Function(PythonEvaluator),
    Network(Py<Network>),
}

impl Given {
    /// The evaluator `evaluator` is for `game`, its values laid out as
    /// `value_layout` says (a network's own layout, if one is named, must
    /// be that one).
    fn new(
        py: Python<'_>,
        evaluator: Py<PyAny>,
        game: &dyn DynGame,
        value_layout: Option<&str>,
    ) -> PyResult<Given> {
        if let Ok(network) = evaluator.bind(py).cast::<Network>() {
            let own = network.get().inner.description().value_layout;
            if let Some(name) = value_layout
                && name != own.name()
            {
                return Err(value_error(format!(
                    "the network's values are laid out {own}, not {name}"
                )));
            }
            return Ok(Given::Network(network.clone().unbind()));
        }
        if !evaluator.bind(py).is_callable() {
            return Err(value_error(
                "the evaluator must be a norn.Network or callable as f(observations, masks)",
            ));
        }
        Ok(Given::Function(PythonEvaluator {
            function: evaluator,
            layout: layout_named(game, value_layout)?,
            observation_shape: game.observation_shape(),
            num_actions: game.num_actions(),
            raised: None,
        }))
    }

    /// Runs `work` with the evaluator as the search takes it.
    fn with<R>(&mut self, work: impl FnOnce(&mut dyn TensorEvaluator) -> R) -> R {
        match self {
            Given::Function(function) => work(function),
            Given::Network(network) => work(&mut &network.get().inner),
        }
    }

    /// What the function raised, to be raised again.
    fn raised(&mut self) -> Option<PyErr> {
        match self {
            Given::Function(function) => function.raised.take(),
            Given::Network(_) => None,
        }
    }
}

/// The value layout named `name`, or the game's own without one.
fn layout_named(game: &dyn DynGame, name: Option<&str>) -> PyResult<ValueLayout> {
    let players = game.num_players();
    let own = ValueLayout::of_scoring(game.info().capabilities.scoring, players);
    let layout = match name {
        None => own,
        Some("to-move") => ValueLayout::ToMove,
        Some("team") => ValueLayout::Team,
        Some("per-player") => ValueLayout::PerPlayer(players),
        Some(other) => {
            return Err(value_error(format!(
                "value_layout takes to-move, team or per-player, not {other:?}"
            )));
        }
    };
    if layout.fits(game.info().capabilities.scoring, players) {
        Ok(layout)
    } else {
        Err(value_error(format!(
            "{} values do not fit {}, whose values are {own}",
            layout.name(),
            game.info().name
        )))
    }
}

/// The arrays of a search's outcomes: the search policies, the chosen
/// actions and the root values.
type Outcomes<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<f32>>,
);

/// Searches every state of `states` (a list of states of one game under
/// the same rules, or a `VectorGame`, whose environments' next decisions
/// are searched) in one batched guided search, `evaluator(observations,
/// masks)` answering for all their leaves at once with `(logits,
/// values)` (or a `norn.Network`, run without the interpreter and refused
/// if made for another game, rules or shapes). `options` are the `az` agent's search options (e.g.
/// `"sims=64,gumbel=on"`); `value_layout` says how `values` are laid
/// out (`to-move`, `team` or `per-player`; the game's own by default).
/// Returns `(policies, actions, values)`: each state's search policy over
/// the action ids, the action chosen and the root's value for the player
/// to move.
#[pyfunction]
#[pyo3(signature = (states, evaluator, options = "", seed = 0, value_layout = None))]
pub fn guided_search<'py>(
    py: Python<'py>,
    states: &Bound<'py, PyAny>,
    evaluator: Py<PyAny>,
    options: &str,
    seed: u64,
    value_layout: Option<&str>,
) -> PyResult<Outcomes<'py>> {
    let vector = states.cast::<VectorGame>().ok();
    let (game, held) = match &vector {
        Some(vector) => (vector.get().game.clone(), Vec::new()),
        None => {
            let mut held = Vec::new();
            let mut game: Option<Arc<dyn DynGame>> = None;
            for item in states.try_iter()? {
                let item = item?;
                let state = item
                    .cast::<State>()
                    .map_err(|_| {
                        value_error("states must be a list of norn states or a VectorGame")
                    })?
                    .borrow();
                if let Some(first) = &game
                    && (first.info().name != state.game.info().name
                        || first.rules() != state.game.rules())
                {
                    return Err(value_error(
                        "the states must be of one game under the same rules",
                    ));
                }
                game.get_or_insert_with(|| state.game.clone());
                held.push(state.inner.clone_state());
            }
            let game = game.ok_or_else(|| value_error("there are no states to search"))?;
            (game, held)
        }
    };
    let mut given = Given::new(py, evaluator, game.as_ref(), value_layout)?;
    // The search runs on a thread of its own while this one watches for
    // Ctrl-C, which ends it after its round of simulations under way.
    let stop = Arc::new(AtomicBool::new(false));
    let stop_flag = StopFlag::new(stop.clone());
    let searched: Result<Vec<SearchOutcome<String>>, String> = match &vector {
        Some(vector) => {
            let inner = &vector.get().inner;
            interruptible(py, &stop, || {
                given.with(|evaluator| {
                    inner
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .vector
                        .guided_search(options, evaluator, seed, &stop_flag)
                })
            })?
        }
        None => {
            let refs: Vec<&dyn norn::learning::DynState> = held.iter().map(AsRef::as_ref).collect();
            let game = game.as_ref();
            interruptible(py, &stop, || {
                given.with(|evaluator| {
                    game.guided_search(&refs, options, evaluator, seed, &stop_flag)
                })
            })?
        }
    };
    if let Some(raised) = given.raised() {
        return Err(raised);
    }
    let outcomes = searched.map_err(value_error)?;
    let actions = game.num_actions();
    let mut policies = vec![0.0f32; outcomes.len() * actions];
    for (outcome, row) in outcomes.iter().zip(policies.chunks_mut(actions.max(1))) {
        outcome.write_policy(row);
    }
    let policies = PyArray1::from_vec(py, policies).reshape([outcomes.len(), actions])?;
    let chosen = PyArray1::from_iter(py, outcomes.iter().map(|outcome| i64::from(outcome.chosen)));
    let values = PyArray1::from_iter(py, outcomes.iter().map(|outcome| outcome.value as f32));
    Ok((policies, chosen, values))
}

/// Plays `games` games of `game` from its start by the guided search of
/// the `az` options `options` against itself, guided by `evaluator`
/// (`f(observations, masks) -> (logits, values)`, or a `norn.Network`) if
/// given and otherwise
/// by the evaluator the options name (`net=uniform` or `net=eval`), and
/// writes every decision as a training sample into the directory `out`:
/// `.npz` shards and `manifest.json`. Returns the manifest as a
/// dictionary.
#[pyfunction]
#[pyo3(signature = (game, out, games = 100, options = "", evaluator = None, seed = 0, batch = 64, shard_samples = 100_000, value_layout = None))]
#[allow(clippy::too_many_arguments)]
pub fn self_play<'py>(
    py: Python<'py>,
    game: &crate::Game,
    out: std::path::PathBuf,
    games: u64,
    options: &str,
    evaluator: Option<Py<PyAny>>,
    seed: u64,
    batch: usize,
    shard_samples: usize,
    value_layout: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    if batch == 0 || shard_samples == 0 {
        return Err(value_error("batch and shard_samples must be at least 1"));
    }
    let dyn_game = game.inner.as_ref();
    // Ctrl-C ends self-play before its next round of searches.
    let stop = Arc::new(AtomicBool::new(false));
    let mut given = evaluator
        .map(|evaluator| Given::new(py, evaluator, dyn_game, value_layout))
        .transpose()?;
    let config = norn::learning::selfplay::SelfPlayConfig {
        games,
        batch,
        shard_samples,
        seed,
        stop: StopFlag::new(stop.clone()),
    };
    let played = interruptible(py, &stop, || match given.as_mut() {
        Some(given) => {
            given.with(|evaluator| dyn_game.self_play(options, Some(evaluator), &config, &out))
        }
        None => dyn_game.self_play(options, None, &config, &out),
    })?;
    if let Some(raised) = given.as_mut().and_then(Given::raised) {
        return Err(raised);
    }
    let manifest = played.map_err(value_error)?;
    let text = serde_json::to_string(&manifest).map_err(value_error)?;
    py.import("json")?.call_method1("loads", (text,))
}
