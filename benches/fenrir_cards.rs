//! Fetters of Fenrir: determinizations per second (with the sampler's tables
//! built once per observation, and built afresh every time), IS-MCTS
//! iterations per second, and whole games per second under the cheap
//! policies.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use norn::agents::{Agent, Decision};
use norn::companions::fenrir_cards::policies::build_agent;
use norn::core::{Game, ImperfectInformation, Stochastic, rng_from_seed};
use norn::games::fenrir_cards::{FenrirCards, FenrirCardsRules, FenrirObservation, FenrirPlayout};
use norn::search::{Ismcts, IsmctsConfig};
use std::hint::black_box;

const SEARCH_ITERATIONS: u64 = 1_000;

/// The observation of the player to move after `plies` moves of the
/// counting team on deal `seed`: a mid-game information set.
fn midgame(players: usize, plies: usize, seed: u64) -> (FenrirCards, FenrirObservation) {
    let rules: FenrirCardsRules = format!("players={players}").parse().unwrap();
    let mut state = FenrirCards::new(rules);
    state.resolve_chance(&mut rng_from_seed(seed));
    let mut team = build_agent("counting", seed).unwrap();
    for _ in 0..plies {
        if state.status().is_over() {
            break;
        }
        let Decision::Play(mv) = team
            .decide(&state, state.status().player_to_move().unwrap())
            .unwrap()
        else {
            unreachable!("counting never resigns")
        };
        state.play(mv);
    }
    assert!(
        !state.status().is_over(),
        "the benchmark needs a game in progress"
    );
    let player = state.status().player_to_move().unwrap();
    let observation = state.observation(player);
    (state, observation)
}

fn determinize(c: &mut Criterion) {
    let mut group = c.benchmark_group("fenrir_cards_determinize");
    group.throughput(Throughput::Elements(1));
    for players in [2, 3, 4] {
        let (state, observation) = midgame(players, 25, 7);
        let player = state.status().player_to_move().unwrap();
        let mut rng = rng_from_seed(1);
        // The first call builds the tables; later calls only sample.
        FenrirCards::determinize(&observation, &mut rng);
        group.bench_function(format!("{players}_players_sample"), |b| {
            b.iter(|| black_box(FenrirCards::determinize(&observation, &mut rng)))
        });
        group.bench_function(format!("{players}_players_build_and_sample"), |b| {
            b.iter_batched(
                || state.observation(player),
                |fresh| black_box(FenrirCards::determinize(&fresh, &mut rng)),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn ismcts(c: &mut Criterion) {
    let mut group = c.benchmark_group("fenrir_cards_ismcts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(SEARCH_ITERATIONS));
    let config = IsmctsConfig {
        iterations: SEARCH_ITERATIONS,
        ..IsmctsConfig::default()
    };
    for players in [2, 3, 4] {
        let (state, observation) = midgame(players, 10, 11);
        let mut search = Ismcts::with_playout(config.clone(), FenrirPlayout::honest(), 3);
        group.bench_function(format!("{players}_players_counting_playouts"), |b| {
            b.iter(|| black_box(search.search(&observation).unwrap().best_move))
        });
        let mut open = Ismcts::with_playout(config.clone(), FenrirPlayout::open_hand(), 3);
        group.bench_function(format!("{players}_players_open_hand"), |b| {
            b.iter(|| black_box(open.search_state(&state).unwrap().best_move))
        });
    }
    group.finish();
}

fn whole_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("fenrir_cards_games");
    group.throughput(Throughput::Elements(1));
    for players in [2, 4] {
        let rules: FenrirCardsRules = format!("players={players}").parse().unwrap();
        for spec in ["random", "counting"] {
            let mut seed = 0;
            group.bench_function(format!("{players}_players_{spec}"), |b| {
                b.iter(|| {
                    seed += 1;
                    let mut state = FenrirCards::new(rules);
                    state.resolve_chance(&mut rng_from_seed(seed));
                    let mut team: Box<dyn Agent<FenrirCards>> = build_agent(spec, seed).unwrap();
                    while state.status().player_to_move().is_some() {
                        let Decision::Play(mv) = team
                            .decide(&state, state.status().player_to_move().unwrap())
                            .unwrap()
                        else {
                            unreachable!("honest policies never resign")
                        };
                        state.play(mv);
                    }
                    black_box(state.pawn())
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, determinize, ismcts, whole_games);
criterion_main!(benches);
