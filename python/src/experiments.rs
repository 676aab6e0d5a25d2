//! The experiments of the command line, run from Python: the work runs on
//! its own threads while the calling thread, without the interpreter lock,
//! waits for it and checks for Ctrl-C.

use crate::numbers::{Bounded, Whole};
use crate::{State, value_error};
use norn::arena::GameLine;
use norn::arena::winrate::{Unwatched, WinRateConfig, WinRateOptions};
use norn::arena::{DEFAULT_MAX_FORFEITS, MatchOptions, Openings, Shard, Sprt, TournamentConfig};
use norn::learning::{DynGame, DynPolicy, DynState, Turn, load_game};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often a waiting call looks for Ctrl-C.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own while this one, without the
/// interpreter lock, looks for Ctrl-C every few tens of milliseconds; a
/// Ctrl-C (or any signal handler's exception) raises `stop`, which `work`
/// checks, waits for `work` to wind down and re-raises.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let result = work();
            done.store(true, Ordering::Release);
            result
        });
        let mut interrupted = None;
        while !done.load(Ordering::Acquire) {
            py.detach(|| {
                let waited = std::time::Instant::now();
                while !done.load(Ordering::Acquire) && waited.elapsed() < SIGNAL_CHECK {
                    std::thread::sleep(Duration::from_millis(2));
                }
            });
            if interrupted.is_none()
                && let Err(error) = py.check_signals()
            {
                stop.store(true, Ordering::Release);
                interrupted = Some(error);
            }
        }
        let result = py
            .detach(|| worker.join())
            .map_err(|_| value_error("the experiment's thread panicked"))?;
        match interrupted {
            Some(error) => Err(error),
            None => Ok(result),
        }
    })
}

/// An experiment's seed and thread count, checked, and its optional
/// `limit` (`max_plies`, `sweep_step`), at least 1 where given.
fn run_counts<T: Bounded>(
    seed: &Whole,
    threads: &Whole,
    limit: Option<(&Whole, &str)>,
) -> PyResult<(u64, usize, Option<T>)> {
    Ok((
        seed.at_least("seed", 0)?,
        threads.at_least("threads", 1)?,
        limit
            .map(|(limit, name)| limit.at_least(name, 1))
            .transpose()?,
    ))
}

/// Where a tournament's games start: `None` for the game's built-in set
/// (as on the command line), `"start"`, `"random:N"` for N random plies,
/// or a position in the game's notation.
fn openings(text: Option<&str>) -> PyResult<Openings> {
    Ok(match text.map(str::trim) {
        None | Some("builtin") => Openings::BuiltIn,
        Some("start") => Openings::Start,
        Some(text) => {
            match text.strip_prefix("random:") {
                Some(plies) => Openings::RandomPlies(plies.trim().parse().map_err(|_| {
                    value_error(format!("`{text}`: random:N needs a number of plies"))
                })?),
                None => Openings::Position(text.to_string()),
            }
        }
    })
}

/// A Python callable playing as an agent: called with the interpreter
/// lock for each of its decisions, with a `norn.State` (and the player at
/// a simultaneous node); what it returns is the action id.
struct PythonPolicy {
    callable: Py<PyAny>,
    game: Arc<dyn DynGame>,
}

impl DynPolicy for PythonPolicy {
    fn choose(&self, state: &dyn DynState, player: usize) -> Result<u32, String> {
        Python::attach(|py| {
            let seen = Py::new(
                py,
                State {
                    game: self.game.clone(),
                    inner: state.clone_state(),
                },
            )?;
            let chosen = if state.turn() == Turn::Simultaneous {
                self.callable.call1(py, (seen, player))?
            } else {
                self.callable.call1(py, (seen,))?
            };
            let count = self.game.num_actions();
            chosen.extract::<Whole>(py)?.action(count)
        })
        .map_err(|error: PyErr| error.to_string())
    }
}

/// Python callables by the names they play under.
type Policies = Vec<(String, Arc<dyn DynPolicy>)>;

/// The agents of an experiment: each a spec, a Python callable (named by
/// its `__name__`), or a `(name, callable)` pair; the specs to run and the
/// callables by name.
fn agents_and_policies(
    game: &Arc<dyn DynGame>,
    agents: &[Bound<'_, PyAny>],
) -> PyResult<(Vec<String>, Policies)> {
    let mut specs = Vec::with_capacity(agents.len());
    let mut policies: Policies = Vec::new();
    for agent in agents {
        if let Ok(spec) = agent.extract::<String>() {
            specs.push(spec);
            continue;
        }
        let (name, callable) = match agent.extract::<(String, Bound<'_, PyAny>)>() {
            Ok(pair) => pair,
            Err(_) => {
                let name = match agent.getattr("__name__") {
                    Ok(name) => name.extract::<String>()?,
                    Err(_) => agent.get_type().name()?.to_string(),
                };
                (name, agent.clone())
            }
        };
        if !callable.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "an agent is a spec, a callable or a (name, callable) pair, not {}",
                callable.get_type().name()?
            )));
        }
        if policies.iter().any(|(other, _)| *other == name) {
            return Err(value_error(format!(
                "two Python agents are both called `{name}`: give them names as (name, callable) pairs"
            )));
        }
        specs.push(name.clone());
        let policy = PythonPolicy {
            callable: callable.unbind(),
            game: game.clone(),
        };
        policies.push((name, Arc::new(policy)));
    }
    Ok((specs, policies))
}

/// Runs a round-robin tournament (or, with `gauntlet`, that agent against
/// each of `agents`) as `norn tournament` does and returns its summary as a
/// dictionary (the `--json` output and `summary.json`). An agent is a spec
/// or a Python callable (see `agents_and_policies`).
#[pyfunction]
#[pyo3(signature = (game, agents, games = Whole::Value(2), seed = Whole::Value(0), rules = "", threads = Whole::Value(1), openings = None, max_plies = None, out = None, gauntlet = None, anchor = None))]
#[allow(clippy::too_many_arguments)]
pub fn tournament<'py>(
    py: Python<'py>,
    game: &str,
    agents: Vec<Bound<'py, PyAny>>,
    games: Whole,
    seed: Whole,
    rules: &str,
    threads: Whole,
    openings: Option<&str>,
    max_plies: Option<Whole>,
    out: Option<PathBuf>,
    gauntlet: Option<Bound<'py, PyAny>>,
    anchor: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let games = games.at_least("games", 1)?;
    let (seed, threads, max_plies) = run_counts(
        &seed,
        &threads,
        max_plies.as_ref().map(|plies| (plies, "max_plies")),
    )?;
    let loaded = load_game(game, rules).map_err(value_error)?;
    let is_gauntlet = gauntlet.is_some();
    // As on the command line: the challenger is the first agent.
    let everyone: Vec<Bound<'py, PyAny>> = gauntlet.into_iter().chain(agents).collect();
    let (specs, policies) = agents_and_policies(&loaded, &everyone)?;
    let config = TournamentConfig {
        game: game.to_string(),
        rules: rules.to_string(),
        gauntlet: is_gauntlet,
        time_control: None,
        adjudication: None,
        agents: specs,
        games_per_pair: games,
        seed,
        max_plies,
        anchor,
        openings: self::openings(openings)?,
    };
    let stop = AtomicBool::new(false);
    let result = interruptible(py, &stop, || {
        loaded.tournament(&config, threads, out, &stop, &policies)
    })?
    .map_err(value_error)?;
    if result.missing > 0 {
        return Err(value_error(format!(
            "interrupted with {} games still to play",
            result.missing
        )));
    }
    let summary = as_dict(py, serde_json::to_string(&result.summary))?;
    summary.set_item("forfeits", forfeits(py, &result.games)?)?;
    Ok(summary)
}

/// A report as Python data, read from its JSON.
fn as_dict<'py>(py: Python<'py>, json: serde_json::Result<String>) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (json.map_err(value_error)?,))
}

/// The games lost by forfeit: each game's index, the agent that failed
/// (as the reports name it) and what went wrong.
fn forfeits<'py>(py: Python<'py>, games: &[GameLine]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for game in games {
        if let Some(forfeit) = &game.forfeit {
            let entry = PyDict::new(py);
            entry.set_item("game", game.index)?;
            entry.set_item("agent", &game.agents[forfeit.seat])?;
            entry.set_item("reason", &forfeit.reason)?;
            list.append(entry)?;
        }
    }
    Ok(list)
}

/// Runs a win-rate experiment of a cooperative game as `norn winrate` does
/// and returns its summary as a dictionary (the `--json` output, and
/// `summary.json` or, for a sweep, `sweep.json`).
#[pyfunction]
#[pyo3(signature = (game, policies, deals = Whole::Value(1000), seed = Whole::Value(0), rules = "", threads = Whole::Value(1), deal = None, sweep = None, sweep_step = None, shard = None, out = None, force_resume = false))]
#[allow(clippy::too_many_arguments)]
pub fn winrate<'py>(
    py: Python<'py>,
    game: &str,
    policies: Vec<String>,
    deals: Whole,
    seed: Whole,
    rules: &str,
    threads: Whole,
    deal: Option<String>,
    sweep: Option<String>,
    sweep_step: Option<Whole>,
    shard: Option<&str>,
    out: Option<PathBuf>,
    force_resume: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let deals = deals.at_least("deals", 1)?;
    let (seed, threads, sweep_step) = run_counts(
        &seed,
        &threads,
        sweep_step.as_ref().map(|step| (step, "sweep_step")),
    )?;
    let loaded = match sweep {
        // A sweep's rules are completed by each value of the option.
        Some(_) => load_game(game, ""),
        None => load_game(game, rules),
    }
    .map_err(value_error)?;
    let config = WinRateConfig {
        policies,
        deals,
        seed,
        threads,
        rules: rules.to_string(),
        deal,
        sweep: sweep.map(|text| (text, sweep_step)),
        shard: match shard {
            Some(text) => Shard::parse(text).map_err(value_error)?,
            None => Shard::ALL,
        },
    };
    let stop = Arc::new(AtomicBool::new(false));
    let outcome = interruptible(py, &stop, || {
        loaded.winrate(
            &config,
            &WinRateOptions {
                out_dir: out,
                force_resume,
                stop: Some(stop.clone()),
                progress: &Unwatched,
            },
        )
    })?
    .map_err(value_error)?;
    let text = serde_json::to_string(&outcome).map_err(value_error)?;
    py.import("json")?.call_method1("loads", (text,))
}

/// Plays a match between `tested` and `baseline` (specs or Python
/// callables, as in `tournament`) in colour-swapped pairs until the
/// sequential probability ratio test of `elo0` against `elo1` (with error
/// rates `alpha` and `beta`) decides, or `max_games` are played, as `norn
/// match` does; returns its report as a dictionary (the `--json` output).
#[pyfunction]
#[pyo3(name = "match", signature = (game, tested, baseline, elo0 = 0.0, elo1 = 10.0, alpha = 0.05, beta = 0.05, max_games = Whole::Value(20_000), seed = Whole::Value(0), rules = "", threads = Whole::Value(1), openings = None, max_plies = None, out = None))]
#[allow(clippy::too_many_arguments)]
pub fn play_match<'py>(
    py: Python<'py>,
    game: &str,
    tested: Bound<'py, PyAny>,
    baseline: Bound<'py, PyAny>,
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    max_games: Whole,
    seed: Whole,
    rules: &str,
    threads: Whole,
    openings: Option<&str>,
    max_plies: Option<Whole>,
    out: Option<PathBuf>,
) -> PyResult<Bound<'py, PyAny>> {
    let max_games: usize = max_games.at_least("max_games", 2)?;
    let (seed, threads, max_plies) = run_counts(
        &seed,
        &threads,
        max_plies.as_ref().map(|plies| (plies, "max_plies")),
    )?;
    let loaded = load_game(game, rules).map_err(value_error)?;
    let (specs, policies) = agents_and_policies(&loaded, &[tested, baseline])?;
    let config = TournamentConfig {
        game: game.to_string(),
        rules: rules.to_string(),
        gauntlet: false,
        time_control: None,
        adjudication: None,
        agents: specs,
        games_per_pair: 2,
        seed,
        max_plies,
        anchor: None,
        openings: self::openings(openings)?,
    };
    let stop = AtomicBool::new(false);
    let options = MatchOptions {
        sprt: Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        },
        max_pairs: max_games / 2,
        threads,
        stop: &stop,
        progress: &norn::arena::Unwatched,
        max_forfeits: DEFAULT_MAX_FORFEITS,
        record_search: true,
        out_dir: out.as_deref(),
        repair: false,
        force_resume: false,
    };
    let report = interruptible(py, &stop, || loaded.run_match(&config, &options, &policies))?
        .map_err(value_error)?;
    let summary = as_dict(py, serde_json::to_string(&report))?;
    summary.set_item("forfeits", forfeits(py, &report.game_lines)?)?;
    Ok(summary)
}
