//! Fenrir's Path: move generation, playouts, and the exact cooperative solver
//! (deals solved per second, the figure the win-rate estimates depend on).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use norn::agents::RandomAgent;
use norn::arena::winrate::{ExactPolicy, WinRateRun, deal, estimate_win_rate, play_out};
use norn::companions::fenrir_path::policies::GreedyCollector;
use norn::core::{Game, MoveList, Notation};
use norn::games::fenrir_path::{FenrirPath, FenrirPathRules};
use norn::search::{CoopSolver, perft};
use std::hint::black_box;

fn rules(text: &str) -> FenrirPathRules {
    text.parse().unwrap()
}

fn deals(rules: &FenrirPathRules, count: u64) -> Vec<FenrirPath> {
    (0..count).map(|index| deal(rules, 0, index)).collect()
}

fn move_generation(c: &mut Criterion) {
    let start =
        FenrirPath::from_position_text("GBRRBYBYRRBGGBYRBYGRGYYG:RYBG", FenrirPathRules::default())
            .unwrap();
    let mut moves = MoveList::new();
    c.bench_function("fenrir-path/legal_moves/start", |b| {
        b.iter(|| {
            black_box(&start).legal_moves(&mut moves);
            moves.len()
        })
    });
    start.legal_moves(&mut moves);
    let all_moves = moves.clone();
    c.bench_function("fenrir-path/clone_and_play/every start move", |b| {
        b.iter(|| {
            all_moves
                .iter()
                .map(|&mv| {
                    let mut child = black_box(&start).clone();
                    child.play(mv);
                    child.hash()
                })
                .fold(0, |acc, hash| acc ^ hash)
        })
    });
    let mut group = c.benchmark_group("fenrir-path/perft");
    group.sample_size(10);
    group.bench_function("depth 5, 1 thread", |b| {
        b.iter(|| perft(black_box(&start), 5))
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let dealt = deals(&FenrirPathRules::default(), 100);
    let mut group = c.benchmark_group("fenrir-path/playouts");
    group.throughput(Throughput::Elements(dealt.len() as u64));
    group.bench_function("random, 100 deals", |b| {
        b.iter(|| {
            dealt
                .iter()
                .enumerate()
                .filter(|&(seed, state)| {
                    play_out(&mut RandomAgent::new(seed as u64), state).unwrap()
                })
                .count()
        })
    });
    group.bench_function("greedy, 100 deals", |b| {
        b.iter(|| {
            dealt
                .iter()
                .enumerate()
                .filter(|&(seed, state)| {
                    play_out(&mut GreedyCollector::new(seed as u64), state).unwrap()
                })
                .count()
        })
    });
    group.finish();
}

fn exact_solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("fenrir-path/exact");
    group.sample_size(10);
    // Batches large enough that starting the thread pool and allocating the
    // solvers' tables are small next to the solving, and that one slow deal
    // does not leave a thread idle for most of the batch.
    for (name, order, count) in [
        ("free", "turn-order=free", 10_000),
        ("fixed", "turn-order=fixed", 200),
    ] {
        let rules = rules(order);
        let dealt = deals(&rules, count);
        let mut solver = CoopSolver::<FenrirPath>::new();
        group.throughput(Throughput::Elements(count));
        group.bench_function(format!("{name} turn order, {count} deals, 1 thread"), |b| {
            b.iter(|| {
                dealt
                    .iter()
                    .filter(|&state| {
                        solver.solve(state).unwrap().verdict == norn::search::Verdict::Win
                    })
                    .count()
            })
        });
        group.bench_function(
            format!("{name} turn order, {count} deals, 2 threads (estimator)"),
            |b| {
                b.iter(|| {
                    let run = WinRateRun {
                        deals: count,
                        master_seed: 0,
                        threads: 2,
                    };
                    estimate_win_rate::<FenrirPath>(&rules, &ExactPolicy, run, &|| {})
                        .unwrap()
                        .rate
                        .wins
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, move_generation, playouts, exact_solver);
criterion_main!(benches);
