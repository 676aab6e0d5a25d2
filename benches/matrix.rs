//! Matrix-game solving on seeded random games with payoffs in [-1, 1): the
//! exact simplex solution, and regret matching (plain and +) for a fixed
//! number of iterations.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use norn::core::rng_from_seed;
use norn::search::{MatrixGame, regret_matching, regret_matching_plus};
use rand::RngExt;
use std::hint::black_box;

const REGRET_ITERATIONS: u64 = 1000;

fn random_game(side: usize) -> MatrixGame {
    let mut rng = rng_from_seed(side as u64);
    let payoffs = (0..side * side)
        .map(|_| rng.random_range(-1.0..1.0))
        .collect();
    MatrixGame::new(side, side, payoffs).expect("a valid matrix")
}

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("matrix_solve");
    for side in [10, 50] {
        let game = random_game(side);
        group.bench_function(BenchmarkId::from_parameter(format!("{side}x{side}")), |b| {
            b.iter(|| black_box(game.solve().unwrap().value))
        });
    }
    group.finish();
}

fn regret(c: &mut Criterion) {
    let mut group = c.benchmark_group("matrix_regret_matching");
    group.throughput(Throughput::Elements(REGRET_ITERATIONS));
    for side in [10, 50] {
        let game = random_game(side);
        for (name, run) in [
            ("plain", regret_matching as fn(_, _) -> _),
            ("plus", regret_matching_plus),
        ] {
            let id = BenchmarkId::new(name, format!("{side}x{side}"));
            group.bench_function(id, |b| {
                b.iter(|| black_box(run(&game, REGRET_ITERATIONS).unwrap().value))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, solve, regret);
criterion_main!(benches);
