//! Every registered game, the same two measures: listing the legal moves of
//! positions from random play, and random playouts (steps per second: plies,
//! joint moves and chance events). The registry is iterated, so a new game
//! is measured as soon as it is registered.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use norn::core::{Game, MoveList, Status, rng_from_seed};
use norn::registry::{self, GameVisitor, Registered};
use norn::testing::{Budget, for_each_playout, random_successor};
use std::hint::black_box;

/// Positions of random play: every 10th state of a few playouts.
fn positions<G: Game>(start: &G) -> Vec<G> {
    let budget = Budget {
        playouts: 4,
        max_plies: 200,
        ..Budget::SUITE
    };
    let mut positions = Vec::new();
    let mut seen = 0;
    for_each_playout(start, &budget, |state, _| {
        if seen % 10 == 0 && matches!(state.status(), Status::ToMove(_)) {
            positions.push(state.clone());
        }
        seen += 1;
    });
    positions
}

struct Measure<'a> {
    criterion: &'a mut Criterion,
}

impl GameVisitor for Measure<'_> {
    type Output = ();

    fn visit<G: Registered>(&mut self) {
        let start = G::new(G::Rules::default());
        let positions = positions(&start);
        let mut group = self.criterion.benchmark_group(G::NAME);
        group.sample_size(20);
        if !positions.is_empty() {
            let mut moves = MoveList::new();
            group.throughput(Throughput::Elements(positions.len() as u64));
            group.bench_function("legal_moves", |b| {
                b.iter(|| {
                    positions
                        .iter()
                        .map(|state| {
                            black_box(state).legal_moves(&mut moves);
                            moves.len()
                        })
                        .sum::<usize>()
                })
            });
        }
        // One playout to the end per iteration; the throughput is the steps
        // of the playouts (plies and chance events), counted once beforehand
        // with the same seeds.
        let playout = |seed: u64| {
            let mut rng = rng_from_seed(seed);
            let mut state = start.clone();
            let mut plies = 0u64;
            while let Some(next) = random_successor(&state, &mut rng) {
                state = next;
                plies += 1;
            }
            plies
        };
        let total: u64 = (0..100).map(playout).sum();
        group.throughput(Throughput::Elements(total / 100));
        let mut seed = 0;
        group.bench_function("random_playout", |b| {
            b.iter_batched(
                || {
                    seed = (seed + 1) % 100;
                    seed
                },
                |seed| black_box(playout(seed)),
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

fn all_games(c: &mut Criterion) {
    registry::visit_all(&mut Measure { criterion: c });
}

criterion_group!(benches, all_games);
criterion_main!(benches);
