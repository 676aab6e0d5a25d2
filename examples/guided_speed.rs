//! Simulations per second of the guided search on Hnefatafl against plain
//! MCTS's iterations per second, on the same positions and playouts, one
//! after the other in one run (bench-results/guided-search.md):
//!
//! ```sh
//! cargo run --release --example guided_speed
//! ```
//!
//! It prints MCTS (`mcts:playout=10`, one tree), the guided search with
//! uniform priors and the same playouts (PUCT and Gumbel, one tree and a
//! batch of 64 trees), each over three rounds taken in turn, by the wall
//! clock and by the thread's own time (which a busy machine's other
//! programs do not inflate); then the guided search with an evaluator of
//! tensors that answers zeros, so that the cost of writing observations
//! and masks shows, and of a Python evaluator by difference
//! (python/benchmarks).

use norn::core::{Game, MoveList, rng_from_seed};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::search::guided::{
    EvaluationError, GuidedConfig, GuidedSearch, SearchRoot, TensorEvaluator, Tensors,
    UniformPlayout, ValueLayout,
};
use norn::search::{Mcts, MctsConfig};
use rand::RngExt;
use std::time::Instant;

/// Positions of random games after 10 to 40 plies.
fn positions(count: u64) -> Vec<Hnefatafl> {
    (0..count)
        .map(|seed| {
            let mut rng = rng_from_seed(seed);
            let mut state = Hnefatafl::new(HnefataflRules::default());
            let mut moves = MoveList::new();
            for _ in 0..10 + seed % 31 {
                state.legal_moves(&mut moves);
                if state.status().is_over() || moves.is_empty() {
                    break;
                }
                state.play(moves[rng.random_range(0..moves.len())]);
            }
            state
        })
        .filter(|state| !state.status().is_over())
        .collect()
}

/// Answers zero logits and a draw for every position.
struct Zeros;

impl TensorEvaluator for Zeros {
    fn layout(&self) -> ValueLayout {
        ValueLayout::ToMove
    }

    fn evaluate(
        &mut self,
        _: &[f32],
        _: &[u8],
        _: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvaluationError> {
        logits.fill(0.0);
        values.fill(0.0);
        Ok(())
    }
}

/// The time this thread has run, in seconds: unlike the wall clock, it
/// does not count the time other programs of a busy machine take.
#[cfg(unix)]
fn thread_seconds() -> f64 {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    time.tv_sec as f64 + time.tv_nsec as f64 * 1e-9
}

/// Without a thread clock, the time since the program started.
#[cfg(not(unix))]
fn thread_seconds() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// Wall-clock and thread seconds of `work`, added to `totals`, and what it
/// returns.
fn timed(totals: &mut (f64, f64), work: impl FnOnce() -> u64) -> u64 {
    let (wall, cpu) = (Instant::now(), thread_seconds());
    let done = work();
    totals.0 += wall.elapsed().as_secs_f64();
    totals.1 += thread_seconds() - cpu;
    done
}

fn main() {
    const SIMULATIONS: u32 = 800;
    // Rounds of every searcher in turn, so that a change in the machine's
    // load falls on all of them alike.
    const ROUNDS: usize = 3;
    let states = positions(64);
    let guided = [(false, 1), (false, 64), (true, 1), (true, 64)];
    let mut mcts_time = (0.0, 0.0);
    let mut mcts_iterations = 0;
    let mut guided_time = [(0.0, 0.0); 4];
    let mut guided_simulations = [0u64; 4];
    for _ in 0..ROUNDS {
        mcts_iterations += timed(&mut mcts_time, || {
            let mut iterations = 0;
            for (index, state) in states.iter().enumerate() {
                let config = MctsConfig {
                    iterations: Some(u64::from(SIMULATIONS)),
                    reuse_tree: false,
                    ..MctsConfig::default()
                };
                let mut mcts = Mcts::new(config, index as u64).unwrap();
                iterations += mcts.search(state).unwrap().iterations;
            }
            iterations
        });
        for (which, &(gumbel, batch)) in guided.iter().enumerate() {
            let search = GuidedSearch::new(GuidedConfig {
                simulations: SIMULATIONS,
                gumbel,
                ..GuidedConfig::default()
            })
            .unwrap();
            guided_simulations[which] += timed(&mut guided_time[which], || {
                let mut simulations = 0;
                for chunk in states.chunks(batch) {
                    let roots: Vec<SearchRoot<'_, Hnefatafl>> = chunk
                        .iter()
                        .enumerate()
                        .map(|(index, state)| SearchRoot {
                            state,
                            pending: &[],
                            seed: index as u64,
                        })
                        .collect();
                    let outcomes = search
                        .search(&roots, &mut UniformPlayout { plies: Some(10) })
                        .unwrap();
                    simulations += outcomes
                        .iter()
                        .map(|outcome| u64::from(outcome.simulations))
                        .sum::<u64>();
                }
                simulations
            });
        }
    }
    let rates = |count: u64, (wall, cpu): (f64, f64)| (count as f64 / wall, count as f64 / cpu);
    let (mcts_wall, mcts_cpu) = rates(mcts_iterations, mcts_time);
    println!(
        "mcts (playout=10, one tree, {SIMULATIONS} iterations, {} positions, {ROUNDS} rounds): {mcts_wall:.0} iterations/s ({mcts_cpu:.0} per second of the thread's time)",
        states.len()
    );
    for (which, &(gumbel, batch)) in guided.iter().enumerate() {
        let (wall, cpu) = rates(guided_simulations[which], guided_time[which]);
        println!(
            "guided {} (uniform, playout=10, batch {batch}): {wall:.0} simulations/s, {:.2} of mcts ({cpu:.0} per second of the thread's time, {:.2} of mcts)",
            if gumbel { "gumbel" } else { "puct" },
            wall / mcts_wall,
            cpu / mcts_cpu
        );
    }
    let search = GuidedSearch::new(GuidedConfig {
        simulations: 16,
        ..GuidedConfig::default()
    })
    .unwrap();
    let roots: Vec<SearchRoot<'_, Hnefatafl>> = states
        .iter()
        .enumerate()
        .map(|(index, state)| SearchRoot {
            state,
            pending: &[],
            seed: index as u64,
        })
        .collect();
    let started = Instant::now();
    let rounds = 20;
    for _ in 0..rounds {
        search.search(&roots, &mut Tensors(Zeros)).unwrap();
    }
    let seconds = started.elapsed().as_secs_f64() / f64::from(rounds);
    println!(
        "guided gumbel, tensors of zeros, batch {}, 16 simulations: {:.1} ms a search, {:.3} ms a round of 17",
        roots.len(),
        1e3 * seconds,
        1e3 * seconds / 17.0
    );
}
