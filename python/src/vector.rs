//! `norn.VectorGame`: many environments of one game stepped in Rust across
//! threads (`norn::learning::vector`), with numpy arrays in and out.

use crate::value_error;
use norn::learning::{DynGame, DynVector, StepBuffers, VectorConfig, load_game};
use numpy::{AllowTypeChange, PyArray1, PyArray2, PyArrayDyn, PyArrayLike1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex};

/// The most threads a batch may ask for.
const MOST_THREADS: usize = 256;
/// The most bytes of output buffers a batch may take.
const MOST_BUFFER_BYTES: usize = 1 << 32;

/// Many environments of one game, stepped together in Rust.
///
/// `VectorGame(name, num_envs, seed, opponent=None, rules="", threads=None,
/// max_steps=None)`. `reset()` returns `(observations, info)` and
/// `step(actions)` returns `(observations, rewards, terminated, truncated,
/// info)`, with `info["action_mask"]` the legal-action masks and
/// `info["current_player"]` the player each next action is for. Finished
/// episodes reset in the same step.
#[pyclass(module = "norn._norn", name = "VectorGame", frozen)]
pub struct VectorGame {
    /// The game the environments play.
    pub(crate) game: Arc<dyn DynGame>,
    pub(crate) inner: Mutex<Box<dyn DynVector>>,
    pool: rayon::ThreadPool,
    observation_shape: Vec<usize>,
    num_actions: usize,
    num_players: usize,
}

/// The arrays one call fills.
struct Arrays<'py> {
    observations: Bound<'py, PyArrayDyn<f32>>,
    masks: Bound<'py, PyArray2<u8>>,
    rewards: Bound<'py, PyArray2<f32>>,
    terminated: Bound<'py, PyArray1<bool>>,
    truncated: Bound<'py, PyArray1<bool>>,
    players: Bound<'py, PyArray1<i64>>,
}

impl VectorGame {
    /// New arrays for one call, left uninitialised: a reset or a step
    /// writes every value of every buffer (`StepBuffers`), so zeroing them
    /// first would only write them twice.
    ///
    /// # Safety
    /// Nothing may read the arrays before a reset or a step has filled
    /// them; they are dropped unread when the call fails.
    unsafe fn arrays<'py>(&self, py: Python<'py>, envs: usize) -> Arrays<'py> {
        let mut shape = vec![envs];
        shape.extend_from_slice(&self.observation_shape);
        // SAFETY: the caller fills the arrays before anything reads them.
        unsafe {
            Arrays {
                observations: PyArrayDyn::new(py, shape, false),
                masks: PyArray2::new(py, [envs, self.num_actions], false),
                rewards: PyArray2::new(py, [envs, self.num_players], false),
                terminated: PyArray1::new(py, envs, false),
                truncated: PyArray1::new(py, envs, false),
                players: PyArray1::new(py, envs, false),
            }
        }
    }

    /// Runs `fill` on the arrays' memory without holding the interpreter.
    fn fill<'py, T: Send>(
        &self,
        py: Python<'py>,
        fill: impl FnOnce(&mut Box<dyn DynVector>, &rayon::ThreadPool, StepBuffers<'_>) -> T + Send,
    ) -> PyResult<(Arrays<'py>, T)> {
        let mut vector = self
            .inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let envs = vector.num_envs();
        // SAFETY: `fill` writes every value of the buffers (`StepBuffers`)
        // and reads none of them; a failed step's arrays are dropped unread.
        let arrays = unsafe { self.arrays(py, envs) };
        // SAFETY: the arrays were just made here and no other reference to
        // their memory exists until they are returned.
        let buffers = unsafe {
            StepBuffers {
                observations: arrays.observations.as_slice_mut()?,
                masks: arrays.masks.as_slice_mut()?,
                rewards: arrays.rewards.as_slice_mut()?,
                terminated: arrays.terminated.as_slice_mut()?,
                truncated: arrays.truncated.as_slice_mut()?,
                players: arrays.players.as_slice_mut()?,
            }
        };
        let vector: &mut Box<dyn DynVector> = &mut vector;
        let pool = &self.pool;
        let result = py.detach(move || fill(vector, pool, buffers));
        Ok((arrays, result))
    }
}

fn info<'py>(py: Python<'py>, arrays: &Arrays<'py>) -> PyResult<Bound<'py, PyDict>> {
    let info = PyDict::new(py);
    info.set_item("action_mask", &arrays.masks)?;
    info.set_item("current_player", &arrays.players)?;
    Ok(info)
}

#[pymethods]
impl VectorGame {
    #[new]
    #[pyo3(signature = (name, num_envs, seed, opponent = None, rules = "", threads = None, max_steps = None))]
    fn new(
        name: &str,
        num_envs: usize,
        seed: u64,
        opponent: Option<String>,
        rules: &str,
        threads: Option<usize>,
        max_steps: Option<usize>,
    ) -> PyResult<VectorGame> {
        let game = load_game(name, rules).map_err(value_error)?;
        let observation_shape = game.observation_shape();
        let num_actions = game.num_actions();
        let num_players = game.num_players();
        let per_env =
            observation_shape.iter().product::<usize>() * 4 + num_actions + num_players * 4 + 10;
        if num_envs == 0
            || num_envs
                .checked_mul(per_env)
                .is_none_or(|bytes| bytes > MOST_BUFFER_BYTES)
        {
            return Err(value_error(format!(
                "num_envs must be from 1 to {} for {name}",
                MOST_BUFFER_BYTES / per_env
            )));
        }
        if max_steps == Some(0) {
            return Err(value_error("max_steps must be at least 1"));
        }
        let threads = threads.unwrap_or_else(rayon::current_num_threads);
        if threads == 0 || threads > MOST_THREADS {
            return Err(value_error(format!(
                "threads must be from 1 to {MOST_THREADS}, not {threads}"
            )));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|error| value_error(format!("cannot start {threads} threads: {error}")))?;
        let config = VectorConfig {
            num_envs,
            seed,
            opponent,
            max_steps,
        };
        Ok(VectorGame {
            inner: Mutex::new(game.vector(&config).map_err(value_error)?),
            game,
            pool,
            observation_shape,
            num_actions,
            num_players,
        })
    }

    /// How many environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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
    fn reset<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArrayDyn<f32>>, Bound<'py, PyDict>)> {
        let (arrays, ()) = self.fill(py, |vector, pool, buffers| vector.reset(pool, buffers))?;
        let info = info(py, &arrays)?;
        Ok((arrays.observations, info))
    }

    /// Takes one action per environment: `(observations, rewards,
    /// terminated, truncated, info)`; rewards are `[num_envs,
    /// num_players]`.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: PyArrayLike1<'py, i64, AllowTypeChange>,
    ) -> PyResult<(
        Bound<'py, PyArrayDyn<f32>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyDict>,
    )> {
        let ids = actions
            .as_slice()?
            .iter()
            .map(|&action| {
                u32::try_from(action)
                    .map_err(|_| value_error(format!("action {action} is not an action id")))
            })
            .collect::<PyResult<Vec<u32>>>()?;
        let (arrays, stepped) = self.fill(py, move |vector, pool, buffers| {
            vector.step(&ids, pool, buffers)
        })?;
        stepped.map_err(value_error)?;
        let info = info(py, &arrays)?;
        Ok((
            arrays.observations,
            arrays.rewards,
            arrays.terminated,
            arrays.truncated,
            info,
        ))
    }
}
