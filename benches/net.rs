//! Network speed: positions evaluated per second by `norn::net` for every
//! game at batches of 1, 64 and 256 on one and two threads (the default
//! architecture of each game, and 6 blocks of 64 channels on Hnefatafl),
//! and training samples per second for one AdamW step on a batch of 256.
//! The observations are of random playouts' positions.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use norn::core::rng_from_seed;
use norn::learning::{DynGame, Turn, load_game};
use norn::net::{GameShape, NetDescription, Network, TrainConfig, Trainer, TrainingBatch};
use norn::rand::RngExt;
use std::hint::black_box;

/// Observations and masks of `count` positions of random playouts.
fn positions(game: &dyn DynGame, count: usize) -> (Vec<f32>, Vec<u8>) {
    let len: usize = game.observation_shape().iter().product();
    let mut rng = rng_from_seed(1);
    let (mut observations, mut masks) = (Vec::new(), Vec::new());
    let mut state = game.new_initial_state();
    while observations.len() < count * len {
        match state.turn() {
            Turn::Player(player) => {
                let mut observation = vec![0.0; len];
                state.write_observation(player, &mut observation);
                observations.extend(observation);
                let legal = state.legal_actions(player);
                let mut mask = vec![0u8; game.num_actions()];
                for &id in &legal {
                    mask[id as usize] = 1;
                }
                masks.extend(mask);
                state
                    .apply_action(legal[rng.random_range(0..legal.len())])
                    .unwrap();
            }
            Turn::Chance => {
                let outcomes = state.chance_outcomes();
                let id = outcomes[rng.random_range(0..outcomes.len())].0;
                state.apply_action(id).unwrap();
            }
            Turn::Simultaneous => {
                // Simultaneous moves: player 0's view, then a random joint
                // choice.
                let mut observation = vec![0.0; len];
                state.write_observation(0, &mut observation);
                observations.extend(observation);
                let mut mask = vec![0u8; game.num_actions()];
                for id in state.legal_actions(0) {
                    mask[id as usize] = 1;
                }
                masks.extend(mask);
                let joint: Vec<u32> = (0..state.num_players())
                    .map(|player| {
                        let legal = state.legal_actions(player);
                        legal[rng.random_range(0..legal.len())]
                    })
                    .collect();
                state.apply_actions(&joint).unwrap();
            }
            Turn::Terminal => state = game.new_initial_state(),
        }
    }
    (observations, masks)
}

/// The games and architectures measured.
const NETWORKS: [(&str, &str); 9] = [
    ("hnefatafl", ""),
    ("hnefatafl", "blocks=6,channels=64"),
    // The tafl family's smallest board, on which training is measured.
    ("brandub", ""),
    ("thud", ""),
    ("koom-valley", ""),
    ("stealth-chess", ""),
    ("fenrir-path", ""),
    ("fenrir-cards", ""),
    ("nibelungen", ""),
];

fn network_for(name: &str, options: &str) -> (std::sync::Arc<dyn DynGame>, Network) {
    let game = load_game(name, "").unwrap();
    let shape = GameShape::of(game.as_ref());
    let description = NetDescription::new(&shape, &options.parse().unwrap()).unwrap();
    (game, Network::init(description, 1).unwrap())
}

fn label(name: &str, options: &str, network: &Network) -> String {
    let size = if options.is_empty() {
        "default"
    } else {
        options
    };
    format!("{name}/{size}/{}params", network.parameters().len())
}

fn forward(c: &mut Criterion) {
    for (name, options) in NETWORKS {
        let (game, mut network) = network_for(name, options);
        let (observations, _) = positions(game.as_ref(), 256);
        let description = network.description().clone();
        let mut group = c.benchmark_group(format!("forward/{}", label(name, options, &network)));
        group.sample_size(10);
        for threads in [1, 2] {
            network.set_threads(threads).unwrap();
            for batch in [1, 64, 256] {
                let mut logits = vec![0.0; batch * description.num_actions];
                let mut values = vec![0.0; batch * description.num_values];
                let inputs = &observations[..batch * description.input_len()];
                group.throughput(Throughput::Elements(batch as u64));
                group.bench_function(BenchmarkId::new(format!("{threads}_threads"), batch), |b| {
                    b.iter(|| {
                        network
                            .forward(inputs, batch, &mut logits, &mut values)
                            .unwrap();
                        black_box(values[0])
                    })
                });
            }
        }
        group.finish();
    }
}

fn train(c: &mut Criterion) {
    let batch = 256;
    for (name, options) in [NETWORKS[0], NETWORKS[1], NETWORKS[5]] {
        let (game, network) = network_for(name, options);
        let (observations, masks) = positions(game.as_ref(), batch);
        let description = network.description().clone();
        // The uniform policy over the legal actions, and a value of 0.
        let mut policies = vec![0.0f32; masks.len()];
        for (row, mask) in policies
            .chunks_mut(description.num_actions)
            .zip(masks.chunks(description.num_actions))
        {
            let legal = mask.iter().filter(|&&legal| legal != 0).count() as f32;
            for (target, &legal_here) in row.iter_mut().zip(mask) {
                *target = f32::from(legal_here) / legal;
            }
        }
        let values = vec![0.0f32; batch * description.num_values];
        let samples = TrainingBatch {
            observations: &observations,
            masks: &masks,
            policies: &policies,
            values: &values,
        };
        let mut group = c.benchmark_group(format!("train/{}", label(name, options, &network)));
        group.sample_size(10);
        let mut trainer = Trainer::new(network, TrainConfig::default()).unwrap();
        for threads in [1, 2] {
            trainer.set_threads(threads).unwrap();
            group.throughput(Throughput::Elements(batch as u64));
            group.bench_function(BenchmarkId::new(format!("{threads}_threads"), batch), |b| {
                b.iter(|| black_box(trainer.step(&samples).unwrap().total))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, forward, train);
criterion_main!(benches);
