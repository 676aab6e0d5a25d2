//! The simultaneous-move solvers on Nibelungen: the depth-first exact
//! solver from the start for 1 to 3 rounds (states solved per second), one
//! layer of the retrograde table (states per second), and SM-MCTS
//! iterations per second with one and two threads (two root-parallel trees
//! either way, so that both runs do the same work).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use norn::companions::nibelungen::retrograde::{LAYER_STATES, RetrogradeTable};
use norn::core::Game;
use norn::games::nibelungen::{Nibelungen, NibelungenRules};
use norn::search::{Selection, SimultaneousSolver, SmMcts, SmMctsConfig};
use std::hint::black_box;
use std::time::Duration;

fn depth_first(c: &mut Criterion) {
    let start = Nibelungen::new(NibelungenRules::default());
    let mut group = c.benchmark_group("nibelungen_depth_first");
    group.sample_size(10);
    for rounds in 1..=3 {
        let mut probe = SimultaneousSolver::new(rounds, |_: &Nibelungen| 0.0, usize::MAX);
        probe.solve(&start).expect("the start solves");
        group.throughput(Throughput::Elements(probe.states() as u64));
        group.bench_function(
            BenchmarkId::from_parameter(format!("{rounds}_rounds")),
            |b| {
                b.iter(|| {
                    let mut solver =
                        SimultaneousSolver::new(rounds, |_: &Nibelungen| 0.0, usize::MAX);
                    black_box(solver.solve(&start).expect("the start solves").value)
                })
            },
        );
    }
    group.finish();
}

fn retrograde_layer(c: &mut Criterion) {
    let rules = NibelungenRules::default();
    let mut group = c.benchmark_group("nibelungen_retrograde");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    group.throughput(Throughput::Elements(LAYER_STATES as u64));
    group.bench_function("one_layer", |b| {
        b.iter(|| {
            let table = RetrogradeTable::solve(rules, 1, false, &|_| {}).expect("memory");
            black_box(table.last_rounds_left())
        })
    });
    group.finish();
}

fn smmcts(c: &mut Criterion) {
    const ITERATIONS: u64 = 10_000;
    let start = Nibelungen::new(NibelungenRules::default());
    let mut group = c.benchmark_group("nibelungen_smmcts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ITERATIONS));
    for selection in [Selection::Duct, Selection::RegretMatching] {
        for threads in [1, 2] {
            let config = SmMctsConfig {
                iterations: ITERATIONS,
                selection,
                trees: 2,
                threads,
                ..SmMctsConfig::default()
            };
            let mut search = SmMcts::new(config, 1).expect("threads start");
            let name = format!("{}_{threads}_threads", selection.name());
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter(|| black_box(search.search(&start).expect("the start searches").mean))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, depth_first, retrograde_layer, smmcts);
criterion_main!(benches);
