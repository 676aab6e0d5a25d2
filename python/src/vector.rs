//! `norn.VectorGame`: many environments of one game stepped in Rust across
//! threads (`norn::learning::vector`), with numpy arrays in and out. The
//! arrays are made once and written in place at every step (unless the
//! batch was made with `copy=True`), so that a step allocates nothing of
//! the batch's size.

use crate::numbers::Whole;
use crate::value_error;
use norn::learning::{DynGame, DynVector, StepBuffers, VectorConfig, load_game};
use numpy::{PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex};

/// The most threads a batch may ask for.
const MOST_THREADS: usize = 256;
/// The most bytes of output buffers a batch may take.
const MOST_BUFFER_BYTES: usize = 1 << 32;

/// How a batch gives its legal actions, chosen when it is made.
#[derive(Clone, Copy, PartialEq)]
enum Legal {
    /// `info["action_mask"]`, one row of `num_distinct_actions` per
    /// environment.
    Mask,
    /// `info["legal_ids"]` and `info["legal_offsets"]`: every environment's
    /// legal ids one after another, and where each one's start.
    Ids,
    /// Both.
    Both,
}

impl Legal {
    fn read(text: &str) -> PyResult<Legal> {
        match text {
            "mask" => Ok(Legal::Mask),
            "ids" => Ok(Legal::Ids),
            "both" => Ok(Legal::Both),
            other => Err(value_error(format!(
                "legal must be \"mask\", \"ids\" or \"both\", not {other:?}"
            ))),
        }
    }

    fn mask(self) -> bool {
        self != Legal::Ids
    }

    fn ids(self) -> bool {
        self != Legal::Mask
    }
}

/// Many environments of one game, stepped together in Rust.
///
/// `VectorGame(name, num_envs, seed, opponent=None, rules="", threads=None,
/// max_steps=None, legal="mask", copy=False)`. `reset()` returns
/// `(observations, info)` and `step(actions)` returns `(observations,
/// rewards, terminated, truncated, info)`; see docs/python.md for the
/// arrays of `info`. Finished episodes reset in the same step, their last
/// observation in `info["final_obs"]`.
#[pyclass(module = "norn._norn", name = "VectorGame", frozen)]
pub struct VectorGame {
    /// The game the environments play.
    pub(crate) game: Arc<dyn DynGame>,
    pub(crate) inner: Mutex<Batch>,
    pool: rayon::ThreadPool,
    observation_shape: Vec<usize>,
    num_actions: usize,
    num_players: usize,
    legal: Legal,
    copy: bool,
}

/// The environments and the arrays every call writes.
pub(crate) struct Batch {
    pub(crate) vector: Box<dyn DynVector>,
    arrays: Arrays,
    /// The last step's actions as ids: the vector is reused.
    actions: Vec<u32>,
}

/// The arrays of a batch, made once.
struct Arrays {
    observations: Py<PyArrayDyn<f32>>,
    masks: Option<Py<PyArray2<u8>>>,
    final_observations: Py<PyArrayDyn<f32>>,
    /// Which environments' episodes ended in the last step.
    ended: Py<PyArray1<bool>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    players: Py<PyArray1<i64>>,
    /// The legal ids, with room for more than the last step needed; a
    /// step's ids are its first `legal_offsets[-1]` values.
    legal_ids: Option<Py<PyArray1<i32>>>,
    legal_offsets: Option<Py<PyArray1<i64>>>,
}

impl Arrays {
    fn new(py: Python<'_>, envs: usize, game: &VectorGame) -> Arrays {
        let mut shape = vec![envs];
        shape.extend_from_slice(&game.observation_shape);
        Arrays {
            observations: PyArrayDyn::zeros(py, shape.clone(), false).unbind(),
            masks: game
                .legal
                .mask()
                .then(|| PyArray2::zeros(py, [envs, game.num_actions], false).unbind()),
            final_observations: PyArrayDyn::zeros(py, shape, false).unbind(),
            ended: PyArray1::zeros(py, envs, false).unbind(),
            rewards: PyArray2::zeros(py, [envs, game.num_players], false).unbind(),
            terminated: PyArray1::zeros(py, envs, false).unbind(),
            truncated: PyArray1::zeros(py, envs, false).unbind(),
            players: PyArray1::zeros(py, envs, false).unbind(),
            legal_ids: game
                .legal
                .ids()
                .then(|| PyArray1::zeros(py, envs * 16, false).unbind()),
            legal_offsets: game
                .legal
                .ids()
                .then(|| PyArray1::zeros(py, envs + 1, false).unbind()),
        }
    }
}

/// What a reset or a step returns, before it is put in tuples.
struct Output<'py> {
    observations: Bound<'py, PyAny>,
    rewards: Bound<'py, PyAny>,
    terminated: Bound<'py, PyAny>,
    truncated: Bound<'py, PyAny>,
    info: Bound<'py, PyDict>,
}

impl VectorGame {
    fn lock(&self) -> std::sync::MutexGuard<'_, Batch> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Runs `fill` on the arrays' memory without holding the interpreter,
    /// then gathers what the call returns.
    fn run<'py>(
        &self,
        py: Python<'py>,
        step: bool,
        fill: impl FnOnce(&mut dyn DynVector, &rayon::ThreadPool, StepBuffers<'_>) -> PyResult<()>
        + Send,
    ) -> PyResult<Output<'py>> {
        let mut batch = self.lock();
        let Batch { vector, arrays, .. } = &mut *batch;
        {
            let mut observations = arrays.observations.bind(py).try_readwrite()?;
            let mut masks = match &arrays.masks {
                Some(masks) => Some(masks.bind(py).try_readwrite()?),
                None => None,
            };
            let mut finals = arrays.final_observations.bind(py).try_readwrite()?;
            let mut rewards = arrays.rewards.bind(py).try_readwrite()?;
            let mut terminated = arrays.terminated.bind(py).try_readwrite()?;
            let mut truncated = arrays.truncated.bind(py).try_readwrite()?;
            let mut players = arrays.players.bind(py).try_readwrite()?;
            let buffers = StepBuffers {
                observations: observations.as_slice_mut()?,
                masks: match &mut masks {
                    Some(masks) => Some(masks.as_slice_mut()?),
                    None => None,
                },
                final_observations: step.then_some(finals.as_slice_mut()?),
                rewards: rewards.as_slice_mut()?,
                terminated: terminated.as_slice_mut()?,
                truncated: truncated.as_slice_mut()?,
                players: players.as_slice_mut()?,
            };
            let vector: &mut dyn DynVector = vector.as_mut();
            let pool = &self.pool;
            py.detach(move || fill(vector, pool, buffers))?;
        }
        let Batch { vector, arrays, .. } = &mut *batch;
        self.write_ids(py, vector.as_ref(), arrays)?;
        self.output(py, arrays, step)
    }

    /// Writes the legal ids of a batch that gives them, growing their
    /// array when a step needs more room than it has.
    fn write_ids(
        &self,
        py: Python<'_>,
        vector: &dyn DynVector,
        arrays: &mut Arrays,
    ) -> PyResult<()> {
        let (Some(ids), Some(offsets)) = (&mut arrays.legal_ids, &arrays.legal_offsets) else {
            return Ok(());
        };
        let needed = vector.legal_id_count();
        if ids.bind(py).len() < needed {
            *ids = PyArray1::zeros(py, needed * 2, false).unbind();
        }
        let mut ids = ids.bind(py).try_readwrite()?;
        let mut offsets = offsets.bind(py).try_readwrite()?;
        vector.write_legal_ids(ids.as_slice_mut()?, offsets.as_slice_mut()?);
        Ok(())
    }

    /// The arrays a call returns: the batch's own, or copies of them.
    fn output<'py>(&self, py: Python<'py>, arrays: &Arrays, step: bool) -> PyResult<Output<'py>> {
        let give = |array: Bound<'py, PyAny>| -> PyResult<Bound<'py, PyAny>> {
            if self.copy {
                array.call_method0("copy")
            } else {
                Ok(array)
            }
        };
        let info = PyDict::new(py);
        if let Some(masks) = &arrays.masks {
            info.set_item("action_mask", give(masks.bind(py).clone().into_any())?)?;
        }
        if let (Some(ids), Some(offsets)) = (&arrays.legal_ids, &arrays.legal_offsets) {
            let offsets = offsets.bind(py);
            let total = offsets.readonly().as_slice()?.last().copied().unwrap_or(0);
            // A view of the ids written, never a copy: slicing is cheap.
            let ids = ids.bind(py).as_any().get_item(pyo3::types::PySlice::new(
                py,
                0,
                total as isize,
                1,
            ))?;
            info.set_item("legal_ids", give(ids)?)?;
            info.set_item("legal_offsets", give(offsets.clone().into_any())?)?;
        }
        info.set_item(
            "current_player",
            give(arrays.players.bind(py).clone().into_any())?,
        )?;
        let terminated = arrays.terminated.bind(py);
        let truncated = arrays.truncated.bind(py);
        if step {
            let ended = arrays.ended.bind(py);
            let any_ended = {
                let mut flags = ended.try_readwrite()?;
                let flags = flags.as_slice_mut()?;
                let terminated = terminated.readonly();
                let truncated = truncated.readonly();
                for ((flag, &over), &cut) in flags
                    .iter_mut()
                    .zip(terminated.as_slice()?)
                    .zip(truncated.as_slice()?)
                {
                    *flag = over || cut;
                }
                flags.iter().any(|&flag| flag)
            };
            // As Gymnasium's same-step auto-reset: the keys are there when
            // an episode ended, each with its mask of the environments.
            if any_ended {
                let ended = give(ended.clone().into_any())?;
                info.set_item(
                    "final_obs",
                    give(arrays.final_observations.bind(py).clone().into_any())?,
                )?;
                info.set_item("_final_obs", &ended)?;
                // A step's info tells the next decision; of a finished
                // episode there is nothing more to tell than its rewards
                // and flags.
                info.set_item("final_info", PyDict::new(py))?;
                info.set_item("_final_info", &ended)?;
            }
        }
        Ok(Output {
            observations: give(arrays.observations.bind(py).clone().into_any())?,
            rewards: give(arrays.rewards.bind(py).clone().into_any())?,
            terminated: give(terminated.clone().into_any())?,
            truncated: give(truncated.clone().into_any())?,
            info,
        })
    }
}

/// Reads the actions of a step into `ids`: whole numbers of any numeric
/// dtype (a float must have no fraction, as in `apply_action`). An array of
/// int64 or int32, what a learner's numpy code gives, is read in place.
fn action_ids(
    py: Python<'_>,
    actions: &Bound<'_, PyAny>,
    count: usize,
    ids: &mut Vec<u32>,
) -> PyResult<()> {
    ids.clear();
    let id = |value: i128| Whole::Value(value).action(count);
    if let Ok(array) = actions.cast::<PyArray1<i64>>() {
        for &value in array.readonly().as_array() {
            ids.push(id(value.into())?);
        }
        return Ok(());
    }
    if let Ok(array) = actions.cast::<PyArray1<i32>>() {
        for &value in array.readonly().as_array() {
            ids.push(id(value.into())?);
        }
        return Ok(());
    }
    let array = py.import("numpy")?.call_method1("asarray", (actions,))?;
    if array.getattr("ndim")?.extract::<usize>()? != 1 {
        return Err(value_error("the actions must be one list of ids"));
    }
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    match kind.as_str() {
        // Integers and booleans convert exactly.
        "i" | "b" => {
            let values = array.call_method1("astype", ("int64",))?;
            for &value in values.cast::<PyArray1<i64>>()?.readonly().as_array() {
                ids.push(id(value.into())?);
            }
        }
        "u" => {
            let values = array.call_method1("astype", ("uint64",))?;
            for &value in values.cast::<PyArray1<u64>>()?.readonly().as_array() {
                ids.push(id(value.into())?);
            }
        }
        "f" | "O" => {
            for value in array.call_method0("tolist")?.extract::<Vec<Whole>>()? {
                ids.push(value.action(count)?);
            }
        }
        other => {
            return Err(PyTypeError::new_err(format!(
                "actions must be numbers, not an array of dtype kind '{other}'"
            )));
        }
    }
    Ok(())
}

#[pymethods]
impl VectorGame {
    #[new]
    #[pyo3(signature = (name, num_envs, seed, opponent = None, rules = "", threads = None, max_steps = None, legal = "mask", copy = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        name: &str,
        num_envs: Whole,
        seed: Whole,
        opponent: Option<String>,
        rules: &str,
        threads: Option<Whole>,
        max_steps: Option<Whole>,
        legal: &str,
        copy: bool,
    ) -> PyResult<VectorGame> {
        let game = load_game(name, rules).map_err(value_error)?;
        let legal = Legal::read(legal)?;
        let observation_shape = game.observation_shape();
        let num_actions = game.num_actions();
        let num_players = game.num_players();
        let per_env =
            observation_shape.iter().product::<usize>() * 8 + num_actions + num_players * 4 + 10;
        let num_envs: usize =
            num_envs.within("num_envs", 1, (MOST_BUFFER_BYTES / per_env) as i128)?;
        let seed = seed.at_least("seed", 0)?;
        let max_steps = max_steps
            .map(|steps| steps.at_least("max_steps", 1))
            .transpose()?;
        let threads = match threads {
            Some(threads) => threads.within("threads", 1, MOST_THREADS as i128)?,
            None => rayon::current_num_threads().min(MOST_THREADS),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|error| value_error(format!("cannot start {threads} threads: {error}")))?;
        let config = VectorConfig {
            num_envs,
            seed,
            opponent,
            max_steps,
            legal_ids: legal.ids(),
        };
        let vector = game.vector(&config).map_err(value_error)?;
        let mut made = VectorGame {
            game,
            inner: Mutex::new(Batch {
                vector,
                arrays: Arrays {
                    observations: PyArrayDyn::zeros(py, vec![0], false).unbind(),
                    masks: None,
                    final_observations: PyArrayDyn::zeros(py, vec![0], false).unbind(),
                    ended: PyArray1::zeros(py, 0, false).unbind(),
                    rewards: PyArray2::zeros(py, [0, 0], false).unbind(),
                    terminated: PyArray1::zeros(py, 0, false).unbind(),
                    truncated: PyArray1::zeros(py, 0, false).unbind(),
                    players: PyArray1::zeros(py, 0, false).unbind(),
                    legal_ids: None,
                    legal_offsets: None,
                },
                actions: Vec::new(),
            }),
            pool,
            observation_shape,
            num_actions,
            num_players,
            legal,
            copy,
        };
        let arrays = Arrays::new(py, num_envs, &made);
        made.inner
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .arrays = arrays;
        Ok(made)
    }

    /// How many environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .vector
            .num_envs()
    }

    /// The shape of one environment's observation.
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.observation_shape.clone()
    }

    /// The width of a legal-action mask.
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.num_actions
    }

    /// How many players the game has (the width of the rewards).
    #[getter]
    fn num_players(&self) -> usize {
        self.num_players
    }

    /// Starts a new episode in every environment: `(observations, info)`.
    fn reset<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyDict>)> {
        let output = self.run(py, false, |vector, pool, buffers| {
            vector.reset(pool, buffers);
            Ok(())
        })?;
        Ok((output.observations, output.info))
    }

    /// Takes one action per environment: `(observations, rewards,
    /// terminated, truncated, info)`; rewards are `[num_envs,
    /// num_players]`.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyDict>,
    )> {
        let mut ids = std::mem::take(&mut self.lock().actions);
        action_ids(py, actions, self.num_actions, &mut ids)?;
        let output = self.run(py, true, |vector, pool, buffers| {
            vector.step(&ids, pool, buffers).map_err(value_error)
        });
        self.lock().actions = ids;
        let output = output?;
        Ok((
            output.observations,
            output.rewards,
            output.terminated,
            output.truncated,
            output.info,
        ))
    }
}
