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
//! batch of 64 trees), and the guided search with an evaluator of tensors
//! that answers zeros, so that the cost of writing observations and masks
//! shows, and of a Python evaluator by difference (python/benchmarks).

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

fn main() {
    const SIMULATIONS: u32 = 800;
    let states = positions(64);
    let started = Instant::now();
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
    let mcts_rate = iterations as f64 / started.elapsed().as_secs_f64();
    println!(
        "mcts (playout=10, one tree, {SIMULATIONS} iterations, {} positions): {mcts_rate:.0} iterations/s",
        states.len()
    );
    for gumbel in [false, true] {
        for batch in [1, 64] {
            let search = GuidedSearch::new(GuidedConfig {
                simulations: SIMULATIONS,
                gumbel,
                ..GuidedConfig::default()
            })
            .unwrap();
            let started = Instant::now();
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
            let rate = simulations as f64 / started.elapsed().as_secs_f64();
            println!(
                "guided {} (uniform, playout=10, batch {batch}): {rate:.0} simulations/s, {:.2} of mcts",
                if gumbel { "gumbel" } else { "puct" },
                rate / mcts_rate
            );
        }
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
