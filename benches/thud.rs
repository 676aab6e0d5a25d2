//! Move generation, bulk counting, perft and random playouts for classic
//! Thud and Koom Valley Thud. Results are recorded in bench-results/thud.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use norn::core::{Game, MoveList, rng_from_seed};
use norn::games::thud::{KoomValley, KoomValleyRules, Thud, ThudRules};
use norn::search::perft_parallel;
use rand::RngExt;
use std::hint::black_box;

/// Positions reached by random play from the start: `count` states after
/// 20 to 120 plies, from a fixed seed.
fn midgame_positions<G: Game>(start: &G, count: usize, seed: u64) -> Vec<G> {
    let mut rng = rng_from_seed(seed);
    let mut moves = MoveList::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut state = start.clone();
        let plies = rng.random_range(20..120);
        for _ in 0..plies {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state.play(moves[rng.random_range(0..moves.len())]);
        }
        if !state.status().is_over() {
            out.push(state);
        }
    }
    out
}

/// One random game from `start` to its end; returns the number of plies.
fn playout<G: Game>(start: &G, seed: u64, moves: &mut MoveList<G::Move>) -> u32 {
    let mut rng = rng_from_seed(seed);
    let mut state = start.clone();
    loop {
        state.legal_moves(moves);
        if moves.is_empty() {
            return state.ply();
        }
        state.play(moves[rng.random_range(0..moves.len())]);
    }
}

fn bench_game<G: Game>(c: &mut Criterion, name: &str, start: G) {
    let positions = midgame_positions(&start, 64, 7);
    let mut group = c.benchmark_group(name);
    let mut moves = MoveList::new();

    group.throughput(Throughput::Elements(1));
    group.bench_function("movegen/start", |b| {
        b.iter(|| {
            black_box(&start).legal_moves(&mut moves);
            moves.len()
        })
    });
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("movegen/midgame-64", |b| {
        b.iter(|| {
            let mut total = 0;
            for state in black_box(&positions) {
                state.legal_moves(&mut moves);
                total += moves.len();
            }
            total
        })
    });
    group.bench_function("count/midgame-64", |b| {
        b.iter(|| {
            let mut total = 0;
            for state in black_box(&positions) {
                total += state.count_legal_moves(&mut moves);
            }
            total
        })
    });
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("playout", |b| {
        b.iter(|| {
            seed += 1;
            playout(black_box(&start), seed, &mut moves)
        })
    });
    group.finish();
}

fn thud(c: &mut Criterion) {
    bench_game(c, "thud", Thud::new(ThudRules::default()));
    let start = Thud::new(ThudRules::default());
    let mut group = c.benchmark_group("thud");
    group.sample_size(10);
    group.bench_function("perft3/2-threads", |b| {
        b.iter(|| perft_parallel(black_box(&start), 3, 2).unwrap())
    });
    group.finish();
}

fn koom_valley(c: &mut Criterion) {
    bench_game(
        c,
        "koom-valley",
        KoomValley::new(KoomValleyRules::default()),
    );
}

criterion_group!(benches, thud, koom_valley);
criterion_main!(benches);
