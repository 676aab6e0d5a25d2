//! The experiments of the command line, run from Python: the work runs on
//! its own threads while the calling thread, without the interpreter lock,
//! waits for it and checks for Ctrl-C.

use crate::value_error;
use norn::arena::winrate::{Unwatched, WinRateConfig, WinRateOptions};
use norn::arena::{Openings, Shard, TournamentConfig};
use norn::learning::load_game;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often a waiting call looks for Ctrl-C.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own; a Ctrl-C (or any signal handler's
/// exception) raises `stop`, waits for `work` to wind down and re-raises.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let result = work(&stop);
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

/// Runs a round-robin tournament (or, with `gauntlet`, that agent against
/// each of `agents`) as `norn tournament` does and returns its summary as a
/// dictionary (the `--json` output and `summary.json`).
#[pyfunction]
#[pyo3(signature = (game, agents, games = 2, seed = 0, rules = "", threads = 1, openings = None, max_plies = None, out = None, gauntlet = None, anchor = None))]
#[allow(clippy::too_many_arguments)]
pub fn tournament<'py>(
    py: Python<'py>,
    game: &str,
    agents: Vec<String>,
    games: usize,
    seed: u64,
    rules: &str,
    threads: usize,
    openings: Option<&str>,
    max_plies: Option<usize>,
    out: Option<PathBuf>,
    gauntlet: Option<String>,
    anchor: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let loaded = load_game(game, rules).map_err(value_error)?;
    let config = TournamentConfig {
        game: game.to_string(),
        rules: rules.to_string(),
        gauntlet: gauntlet.is_some(),
        time_control: None,
        // As on the command line: the challenger is the first agent.
        agents: gauntlet.into_iter().chain(agents).collect(),
        games_per_pair: games,
        seed,
        max_plies,
        anchor,
        openings: self::openings(openings)?,
    };
    let result = interruptible(py, |stop| loaded.tournament(&config, threads, out, stop))?
        .map_err(value_error)?;
    if result.missing > 0 {
        return Err(value_error(format!(
            "interrupted with {} games still to play",
            result.missing
        )));
    }
    let text = serde_json::to_string(&result.summary).map_err(value_error)?;
    py.import("json")?.call_method1("loads", (text,))
}

/// Runs a win-rate experiment of a cooperative game as `norn winrate` does
/// and returns its summary as a dictionary (the `--json` output, and
/// `summary.json` or, for a sweep, `sweep.json`).
#[pyfunction]
#[pyo3(signature = (game, policies, deals = 1000, seed = 0, rules = "", threads = 1, deal = None, sweep = None, sweep_step = None, shard = None, out = None, force_resume = false))]
#[allow(clippy::too_many_arguments)]
pub fn winrate<'py>(
    py: Python<'py>,
    game: &str,
    policies: Vec<String>,
    deals: u64,
    seed: u64,
    rules: &str,
    threads: usize,
    deal: Option<String>,
    sweep: Option<String>,
    sweep_step: Option<u64>,
    shard: Option<&str>,
    out: Option<PathBuf>,
    force_resume: bool,
) -> PyResult<Bound<'py, PyAny>> {
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
    let outcome = interruptible(py, |stop| {
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
