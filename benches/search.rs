//! Search speed on Copenhagen Hnefatafl from the starting position: MCTS
//! iterations per second with one and two threads (root and tree
//! parallelism), MCTS expansions per second when every child of a leaf is
//! built and evaluated at once, and alpha-beta nodes per second and time
//! to a fixed depth.

use criterion::measurement::WallTime;
use criterion::{
    BatchSize, BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
};
use norn::core::Game;
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::search::{
    AlphaBeta, AlphaBetaConfig, Expansion, FinalChoice, Mcts, MctsConfig, Parallelism,
};
use std::hint::black_box;

/// Iterations per tree: root parallelism with two threads grows two trees of
/// this size, so it is compared with one thread growing one such tree; tree
/// parallelism grows one tree of twice the size, compared with one thread
/// doing the same.
const PER_TREE: u64 = 10_000;

/// Benchmarks one search from `start` with `config`, from an empty tree
/// every time, counting its iterations.
fn bench_search(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    config: MctsConfig,
    start: &Hnefatafl,
) {
    let iterations = config.iterations.expect("an iteration budget");
    let mut search = Mcts::new(config, 1).expect("a thread pool");
    group.throughput(Throughput::Elements(iterations));
    group.bench_function(BenchmarkId::new(name, iterations), |b| {
        b.iter(|| {
            search.clear();
            black_box(search.search(start).unwrap().best_move)
        })
    });
}

fn mcts(c: &mut Criterion) {
    let start = Hnefatafl::new(HnefataflRules::default());
    for playout in [10, 0] {
        let mut group = c.benchmark_group(format!("mcts_start_playout{playout}"));
        group.sample_size(10);
        for (name, iterations, threads, parallelism) in [
            ("1_thread", PER_TREE, 1, Parallelism::Root),
            ("2_threads_root", 2 * PER_TREE, 2, Parallelism::Root),
            ("1_thread", 2 * PER_TREE, 1, Parallelism::Root),
            ("2_threads_tree", 2 * PER_TREE, 2, Parallelism::Tree),
        ] {
            let config = MctsConfig {
                iterations: Some(iterations),
                threads,
                parallelism,
                playout_plies: Some(playout),
                ..MctsConfig::default()
            };
            bench_search(&mut group, name, config, &start);
        }
        group.finish();
    }
}

/// Expansions per tree with `Expansion::All`: each builds and evaluates
/// every child of a leaf (about a hundred in Hnefatafl), so an iteration
/// costs about as much as a hundred of the classic search's.
const EXPANSIONS_PER_TREE: u64 = 1_000;

fn mcts_expand_all(c: &mut Criterion) {
    let start = Hnefatafl::new(HnefataflRules::default());
    let mut group = c.benchmark_group("mcts_start_expand_all");
    group.sample_size(10);
    // Two threads share one tree: without playouts nothing random is left,
    // so root-parallel trees would all be the same tree, which the searcher
    // refuses.
    for (name, iterations, threads, parallelism) in [
        ("1_thread", EXPANSIONS_PER_TREE, 1, Parallelism::Root),
        (
            "2_threads_tree",
            2 * EXPANSIONS_PER_TREE,
            2,
            Parallelism::Tree,
        ),
    ] {
        // The settings of the equal-time ladders (bench-results/strength.md).
        let config = MctsConfig {
            iterations: Some(iterations),
            threads,
            parallelism,
            expansion: Expansion::All,
            playout_plies: Some(0),
            minimax_weight: 1.0,
            exploration: 0.0,
            final_choice: FinalChoice::BestValue,
            ..MctsConfig::default()
        };
        bench_search(&mut group, name, config, &start);
    }
    group.finish();
}

fn alphabeta(c: &mut Criterion) {
    let start = Hnefatafl::new(HnefataflRules::default());
    let mut group = c.benchmark_group("alphabeta_start");
    group.sample_size(10);
    for (depth, threads) in [(4, 1), (5, 1), (5, 2), (6, 1)] {
        let config = AlphaBetaConfig {
            depth: Some(depth),
            threads,
            ..AlphaBetaConfig::default()
        };
        // One thread visits the same nodes every time, so the count of a
        // first search gives the throughput in nodes per second; with two
        // threads the count (of both threads) varies a little between runs.
        let nodes = AlphaBeta::new(config.clone()).search(&start).unwrap().nodes;
        group.throughput(Throughput::Elements(nodes));
        let id = BenchmarkId::new(format!("depth{depth}"), format!("{threads}_threads"));
        group.bench_function(id, |b| {
            b.iter_batched(
                || AlphaBeta::new(config.clone()),
                |mut search| black_box(search.search(&start).unwrap().score),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, mcts, mcts_expand_all, alphabeta);
criterion_main!(benches);
