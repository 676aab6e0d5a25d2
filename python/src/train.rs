//! `norn.train`: `norn train` from Python, the run's report returned.

use crate::experiments::interruptible;
use crate::numbers::Whole;
use crate::value_error;
use norn::learning::load_game;
use norn::learning::train::evaluate::{EvaluationRequest, RATINGS_FILE};
use norn::learning::train::options::SettingsText;
use norn::learning::train::winrates::WIN_RATES_FILE;
use norn::learning::train::workers::{MAX_WAIT_SECONDS, Workers};
use norn::learning::train::{TrainSession, store};
use norn::search::StopFlag;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Trains a network for `game` by self-play in the run directory `out`,
/// as `norn train` does with the same options (`eval_every`, `eval_games`
/// and `baselines` as `--eval-every`, `--eval-games` and `--baselines`),
/// and returns the run's report: the last checkpoint's generation, steps,
/// games, samples, seconds and mean losses, `trained` (the generations
/// this call trained), `checkpoints` (every checkpoint's record) and
/// `ratings` (`ratings.json`, where the run was evaluated) and `win_rates`
/// (`winrates.json`, the same of a cooperative game). The work runs
/// without the interpreter lock; Ctrl-C stops it before the next training
/// step or round of self-play's searches, its checkpoints kept.
#[pyfunction]
#[pyo3(signature = (game, out, generations = None, minutes = None, games_per_generation = Whole::Value(64), sims = None, puct = false, search = "", arch = "", learning_rate = None, training = "", batch_size = Whole::Value(256), buffer = Whole::Value(100_000), steps = None, threads = Whole::Value(1), seed = Whole::Value(0), rules = "", workers = None, wait = 600.0, force_resume = false, eval_every = None, eval_games = Whole::Value(20), baselines = None))]
#[allow(clippy::too_many_arguments)]
pub fn train<'py>(
    py: Python<'py>,
    game: &str,
    out: PathBuf,
    generations: Option<Whole>,
    minutes: Option<f64>,
    games_per_generation: Whole,
    sims: Option<Whole>,
    puct: bool,
    search: &str,
    arch: &str,
    learning_rate: Option<f64>,
    training: &str,
    batch_size: Whole,
    buffer: Whole,
    steps: Option<Whole>,
    threads: Whole,
    seed: Whole,
    rules: &str,
    workers: Option<Whole>,
    wait: f64,
    force_resume: bool,
    eval_every: Option<Whole>,
    eval_games: Whole,
    baselines: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let evaluation = eval_every
        .map(|every| -> PyResult<EvaluationRequest> {
            Ok(EvaluationRequest {
                every: every.at_least("eval_every", 1)?,
                games_per_pair: eval_games.at_least("eval_games", 1)?,
                baselines: baselines.unwrap_or_default(),
            })
        })
        .transpose()?;
    let settings = SettingsText {
        prefix: "",
        games_per_generation: games_per_generation.at_least("games_per_generation", 1)?,
        sims: sims.map(|sims| sims.at_least("sims", 1)).transpose()?,
        puct,
        search,
        arch,
        learning_rate,
        training,
        batch_size: batch_size.at_least("batch_size", 1)?,
        buffer: buffer.at_least("buffer", 1)?,
        steps: steps.map(|steps| steps.at_least("steps", 1)).transpose()?,
        seed: seed.at_least("seed", 0)?,
    }
    .settings()
    .map_err(value_error)?;
    let workers = workers
        .map(|count| -> PyResult<Workers> {
            if !(wait > 0.0 && wait <= MAX_WAIT_SECONDS) {
                return Err(value_error(format!(
                    "wait must be a number of seconds from 0 to {MAX_WAIT_SECONDS}, not {wait}"
                )));
            }
            Ok(Workers {
                count: count.at_least("workers", 1)?,
                wait: Duration::from_secs_f64(wait),
            })
        })
        .transpose()?;
    let stop = Arc::new(AtomicBool::new(false));
    let session = TrainSession {
        generations: generations
            .map(|generations| generations.at_least("generations", 1))
            .transpose()?,
        minutes,
        threads: threads.at_least("threads", 1)?,
        force_resume,
        workers,
        stop: StopFlag::new(stop.clone()),
    };
    let loaded = load_game(game, rules).map_err(value_error)?;
    let summary = interruptible(py, &stop, || {
        loaded.train(&settings, &session, evaluation.as_ref(), &out)
    })?
    .map_err(value_error)?;
    let json = py.import("json")?;
    let report = PyDict::new(py);
    let last = json.call_method1(
        "loads",
        (serde_json::to_string(&summary.last).map_err(value_error)?,),
    )?;
    for (key, value) in last.cast::<PyDict>()?.iter() {
        report.set_item(key, value)?;
    }
    report.del_item("sha256")?;
    report.set_item("trained", summary.trained)?;
    let checkpoints = PyList::empty(py);
    for generation in 0..=summary.last.generation {
        let record = Path::new(&out)
            .join(store::CHECKPOINTS)
            .join(generation.to_string())
            .join(store::CHECKPOINT_FILE);
        checkpoints.append(json.call_method1("loads", (read(&record)?,))?)?;
    }
    report.set_item("checkpoints", checkpoints)?;
    for (key, file) in [("ratings", RATINGS_FILE), ("win_rates", WIN_RATES_FILE)] {
        let path = out.join(file);
        let found = match path.exists() {
            true => json.call_method1("loads", (read(&path)?,))?,
            false => py.None().into_bound(py),
        };
        report.set_item(key, found)?;
    }
    Ok(report.into_any())
}

/// A file of the run, as text.
fn read(path: &Path) -> PyResult<String> {
    std::fs::read_to_string(path)
        .map_err(|error| value_error(format!("cannot read {}: {error}", path.display())))
}
