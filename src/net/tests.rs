//! The networks checked against a plain reference in `f64` (outputs and,
//! by finite differences, gradients), for the same bits in any batch, and
//! against hostile files.

use super::*;
use crate::core::{Scoring, rng_from_seed};
use crate::learning::{DynState, Turn, load_game};
use crate::rand::RngExt;
use safetensors::Dtype;
use safetensors::tensor::TensorView;
use std::collections::HashMap;
use std::sync::Arc;

/// A residual network on a 3x4 board of 2 planes (not square, so that
/// height and width cannot be mixed up), with two values per sample.
fn residual_description() -> NetDescription {
    NetDescription {
        format: NET_FORMAT,
        game: "test".into(),
        rules: String::new(),
        input_shape: vec![2, 3, 4],
        num_actions: 5,
        num_values: 2,
        value_layout: ValueLayout::PerPlayer(2),
        payoff_range: (-1.0, 1.0),
        architecture: Architecture::Residual {
            blocks: 2,
            channels: 3,
            policy_channels: 2,
            value_channels: 2,
            value_hidden: 4,
        },
    }
}

fn mlp_description(hidden: Vec<usize>) -> NetDescription {
    NetDescription {
        format: NET_FORMAT,
        game: "test".into(),
        rules: String::new(),
        input_shape: vec![2, 3],
        num_actions: 6,
        num_values: 1,
        value_layout: ValueLayout::ToMove,
        payoff_range: (-1.0, 1.0),
        architecture: Architecture::Mlp {
            hidden,
            value_hidden: 4,
        },
    }
}

/// A network of `description` whose every weight and bias is drawn from
/// `seed`, so that no gradient is zero by construction.
fn random_network(description: NetDescription, seed: u64) -> Network {
    let count = description.parameter_count();
    let mut rng = rng_from_seed(seed);
    let params = (0..count).map(|_| rng.random_range(-0.6..0.6)).collect();
    Network::from_parameters(description, params).unwrap()
}

fn random_values(len: usize, seed: u64) -> Vec<f32> {
    let mut rng = rng_from_seed(seed);
    (0..len).map(|_| rng.random_range(0.0..1.0)).collect()
}

// ---------------------------------------------------------------------
// The reference: each layer by its definition, in f64.

/// The tensors of a network by name, as f64.
fn named(network: &Network) -> HashMap<String, Vec<f64>> {
    let mut rest = network.parameters();
    let mut tensors = HashMap::new();
    for spec in network.tensor_specs() {
        let (tensor, after) = rest.split_at(spec.len());
        tensors.insert(
            spec.name.clone(),
            tensor.iter().map(|&value| f64::from(value)).collect(),
        );
        rest = after;
    }
    tensors
}

/// A `size x size` convolution with zero padding, by its definition.
fn convolution(
    input: &[f64],
    weight: &[f64],
    bias: &[f64],
    (inputs, height, width): (usize, usize, usize),
    size: usize,
) -> Vec<f64> {
    let outputs = bias.len();
    let half = (size / 2) as isize;
    let mut out = vec![0.0; outputs * height * width];
    for o in 0..outputs {
        for y in 0..height {
            for x in 0..width {
                let mut sum = bias[o];
                for i in 0..inputs {
                    for ky in 0..size {
                        for kx in 0..size {
                            let (from_y, from_x) = (
                                y as isize + ky as isize - half,
                                x as isize + kx as isize - half,
                            );
                            if (0..height as isize).contains(&from_y)
                                && (0..width as isize).contains(&from_x)
                            {
                                let w = weight[((o * inputs + i) * size + ky) * size + kx];
                                sum += w * input
                                    [(i * height + from_y as usize) * width + from_x as usize];
                            }
                        }
                    }
                }
                out[(o * height + y) * width + x] = sum;
            }
        }
    }
    out
}

fn dense(input: &[f64], weight: &[f64], bias: &[f64]) -> Vec<f64> {
    bias.iter()
        .enumerate()
        .map(|(o, &b)| {
            b + (0..input.len())
                .map(|i| weight[o * input.len() + i] * input[i])
                .sum::<f64>()
        })
        .collect()
}

fn rectified(values: Vec<f64>) -> Vec<f64> {
    values.into_iter().map(|value| value.max(0.0)).collect()
}

/// One sample's logits and values by the reference.
fn reference(
    description: &NetDescription,
    tensors: &HashMap<String, Vec<f64>>,
    observation: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let t = |name: &str| &tensors[name][..];
    let layer = |input: &[f64], name: &str| {
        dense(
            input,
            t(&format!("{name}.weight")),
            t(&format!("{name}.bias")),
        )
    };
    let (policy_features, value_features) = match &description.architecture {
        Architecture::Residual {
            blocks, channels, ..
        } => {
            let (planes, height, width) = (
                description.input_shape[0],
                description.input_shape[1],
                description.input_shape[2],
            );
            let conv = |input: &[f64], name: &str, inputs: usize, size: usize| {
                convolution(
                    input,
                    t(&format!("{name}.weight")),
                    t(&format!("{name}.bias")),
                    (inputs, height, width),
                    size,
                )
            };
            let mut x = rectified(conv(observation, "stem", planes, 3));
            for block in 0..*blocks {
                let hidden = rectified(conv(&x, &format!("blocks.{block}.conv1"), *channels, 3));
                let y = conv(&hidden, &format!("blocks.{block}.conv2"), *channels, 3);
                x = rectified(x.iter().zip(&y).map(|(a, b)| a + b).collect());
            }
            (
                rectified(conv(&x, "policy.conv", *channels, 1)),
                rectified(conv(&x, "value.conv", *channels, 1)),
            )
        }
        Architecture::Mlp { hidden, .. } => {
            let mut x = observation.to_vec();
            for index in 0..hidden.len() {
                x = rectified(layer(&x, &format!("trunk.{index}")));
            }
            (x.clone(), x)
        }
    };
    let logits = layer(&policy_features, "policy.fc");
    let hidden = rectified(layer(&value_features, "value.fc1"));
    let values = layer(&hidden, "value.fc2")
        .into_iter()
        .map(f64::tanh)
        .collect();
    (logits, values)
}

/// A batch's mean loss by the reference, as [`Trainer`] defines it.
fn reference_loss(
    description: &NetDescription,
    tensors: &HashMap<String, Vec<f64>>,
    batch: &TrainingBatch<'_>,
    config: &TrainConfig,
) -> f64 {
    let (input, actions, outputs) = (
        description.input_len(),
        description.num_actions,
        description.num_values,
    );
    let samples = batch.observations.len() / input;
    let mut total = 0.0;
    for sample in 0..samples {
        let observation: Vec<f64> = batch.observations[sample * input..(sample + 1) * input]
            .iter()
            .map(|&value| f64::from(value))
            .collect();
        let (logits, values) = reference(description, tensors, &observation);
        let legal: Vec<usize> = (0..actions)
            .filter(|&action| batch.masks[sample * actions + action] != 0)
            .collect();
        let normaliser = legal
            .iter()
            .map(|&action| logits[action].exp())
            .sum::<f64>()
            .ln();
        let cross_entropy: f64 = legal
            .iter()
            .map(|&action| {
                -f64::from(batch.policies[sample * actions + action])
                    * (logits[action] - normaliser)
            })
            .sum();
        let error: f64 = values
            .iter()
            .enumerate()
            .map(|(index, value)| {
                (value - f64::from(batch.values[sample * outputs + index])).powi(2)
            })
            .sum::<f64>()
            / outputs as f64;
        total += config.policy_weight * cross_entropy + config.value_weight * error;
    }
    total / samples as f64
}

/// A batch of `samples` with random observations, masks with some
/// illegal actions, target policies over the legal ones and targets
/// values.
struct OwnedBatch {
    observations: Vec<f32>,
    masks: Vec<u8>,
    policies: Vec<f32>,
    values: Vec<f32>,
}

impl OwnedBatch {
    fn random(description: &NetDescription, samples: usize, seed: u64) -> OwnedBatch {
        let actions = description.num_actions;
        let mut rng = rng_from_seed(seed);
        let observations = random_values(samples * description.input_len(), seed + 1);
        let mut masks = vec![0u8; samples * actions];
        let mut policies = vec![0.0f32; samples * actions];
        for sample in 0..samples {
            let row = sample * actions..(sample + 1) * actions;
            for action in row.clone() {
                masks[action] = u8::from(rng.random_range(0..3) > 0);
            }
            masks[row.start + sample % actions] = 1;
            let weights: Vec<f32> = row
                .clone()
                .map(|action| f32::from(masks[action]) * rng.random_range(0.0..1.0))
                .collect();
            let sum: f32 = weights.iter().sum();
            for (action, weight) in row.zip(weights) {
                policies[action] = weight / sum;
            }
        }
        let values = (0..samples * description.num_values)
            .map(|_| rng.random_range(-1.0..1.0))
            .collect();
        OwnedBatch {
            observations,
            masks,
            policies,
            values,
        }
    }

    fn view(&self) -> TrainingBatch<'_> {
        TrainingBatch {
            observations: &self.observations,
            masks: &self.masks,
            policies: &self.policies,
            values: &self.values,
        }
    }
}

fn outputs(network: &Network, observations: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let description = network.description();
    let batch = observations.len() / description.input_len();
    let mut logits = vec![0.0; batch * description.num_actions];
    let mut values = vec![0.0; batch * description.num_values];
    network
        .forward(observations, batch, &mut logits, &mut values)
        .unwrap();
    (logits, values)
}

// ---------------------------------------------------------------------
// Outputs and gradients.

#[test]
fn outputs_match_the_reference_for_both_kinds() {
    for description in [residual_description(), mlp_description(vec![7, 5])] {
        let network = random_network(description.clone(), 3);
        let observations = random_values(4 * description.input_len(), 4);
        let (logits, values) = outputs(&network, &observations);
        let tensors = named(&network);
        for (sample, observation) in observations.chunks(description.input_len()).enumerate() {
            let observation: Vec<f64> = observation.iter().map(|&v| f64::from(v)).collect();
            let (want_logits, want_values) = reference(&description, &tensors, &observation);
            let (actions, outputs) = (description.num_actions, description.num_values);
            let got = logits[sample * actions..(sample + 1) * actions]
                .iter()
                .chain(&values[sample * outputs..(sample + 1) * outputs]);
            for (got, want) in got.zip(want_logits.iter().chain(&want_values)) {
                assert!(
                    (f64::from(*got) - want).abs() < 1e-5 * want.abs().max(1.0),
                    "{got} against {want}"
                );
            }
        }
    }
}

#[test]
fn gradients_match_finite_differences_of_the_reference_for_every_tensor() {
    let config = TrainConfig {
        policy_weight: 1.0,
        value_weight: 0.7,
        ..TrainConfig::default()
    };
    for (description, samples) in [
        (residual_description(), 17),
        (mlp_description(vec![7, 5]), 3),
        (mlp_description(vec![4]), 2),
    ] {
        let network = random_network(description.clone(), 11);
        let batch = OwnedBatch::random(&description, samples, 12);
        let mut trainer = Trainer::new(network.clone(), config.clone()).unwrap();
        let gradients = trainer.gradients(&batch.view()).unwrap();
        let mut tensors = named(&network);
        let mut offset = 0;
        for spec in network.tensor_specs() {
            // Every value of the small tensors, a spread of the larger.
            for index in (0..spec.len()).step_by(spec.len().div_ceil(24)) {
                let step = 1e-6;
                let original = tensors[&spec.name][index];
                let mut at = |value: f64| {
                    tensors.get_mut(&spec.name).unwrap()[index] = value;
                    reference_loss(&description, &tensors, &batch.view(), &config)
                };
                let numeric = (at(original + step) - at(original - step)) / (2.0 * step);
                at(original);
                let analytic = f64::from(gradients[offset + index]);
                assert!(
                    (analytic - numeric).abs() < 1e-4 + 1e-3 * numeric.abs(),
                    "{}[{index}]: backward {analytic}, finite differences {numeric}",
                    spec.name
                );
            }
            offset += spec.len();
        }
    }
}

#[test]
fn losses_of_a_network_of_zeros_are_the_uniform_policys() {
    // All weights zero: every logit is 0 and every value tanh(0) = 0, so
    // the cross-entropy is the log of the legal actions' count against a
    // one-hot target, and the squared error the target's square.
    let description = mlp_description(vec![3]);
    let count = description.parameter_count();
    let network = Network::from_parameters(description.clone(), vec![0.0; count]).unwrap();
    let mut masks = vec![1u8; 12];
    masks[..3].fill(0);
    let mut policies = vec![0.0f32; 12];
    policies[4] = 1.0;
    policies[6] = 1.0;
    let batch = TrainingBatch {
        observations: &random_values(12, 1),
        masks: &masks,
        policies: &policies,
        values: &[0.5, -0.25],
    };
    let trainer = Trainer::new(network, TrainConfig::default()).unwrap();
    let losses = trainer.losses(&batch).unwrap();
    let want_policy = (3f64.ln() + 6f64.ln()) / 2.0;
    let want_value = (0.25 + 0.0625) / 2.0;
    assert!((losses.policy - want_policy).abs() < 1e-6, "{losses:?}");
    assert!((losses.value - want_value).abs() < 1e-6, "{losses:?}");
    assert!((losses.total - want_policy - want_value).abs() < 1e-6);
}

#[test]
fn a_tiny_network_learns_a_fixed_policy_and_value() {
    // Four inputs, one-hot; each has its own target distribution over its
    // legal actions and its own value.
    let description = NetDescription {
        input_shape: vec![4],
        num_actions: 3,
        architecture: Architecture::Mlp {
            hidden: vec![16, 16],
            value_hidden: 8,
        },
        ..mlp_description(vec![1])
    };
    let observations: Vec<f32> = (0..16).map(|i| f32::from(i % 5 == 0)).collect();
    let masks = [1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0];
    let policies = [0.7, 0.2, 0.1, 0.25, 0.0, 0.75, 0.0, 0.5, 0.5, 0.0, 1.0, 0.0];
    let values = [0.8, -0.6, 0.1, -0.9];
    let batch = TrainingBatch {
        observations: &observations,
        masks: &masks,
        policies: &policies,
        values: &values,
    };
    let network = Network::init(description.clone(), 5).unwrap();
    let config = TrainConfig {
        learning_rate: 0.01,
        ..TrainConfig::default()
    };
    let mut trainer = Trainer::new(network, config).unwrap();
    let first = trainer.losses(&batch).unwrap();
    for _ in 0..400 {
        trainer.step(&batch).unwrap();
    }
    let (logits, got_values) = outputs(trainer.network(), &observations);
    let mut fitted = true;
    for sample in 0..4 {
        let row = sample * 3..(sample + 1) * 3;
        let legal: Vec<usize> = row.clone().filter(|&action| masks[action] != 0).collect();
        let total: f32 = legal.iter().map(|&action| logits[action].exp()).sum();
        for &action in &legal {
            let probability = logits[action].exp() / total;
            fitted &= (probability - policies[action]).abs() < 0.05;
        }
        fitted &= (got_values[sample] - values[sample]).abs() < 0.05;
    }
    let last = trainer.losses(&batch).unwrap();
    assert!(fitted, "{logits:?} {got_values:?} {first:?} {last:?}");
}

// ---------------------------------------------------------------------
// Determinism.

/// Observations of real positions: random playouts of `game`.
fn playout_observations(game: &str, count: usize) -> Vec<f32> {
    let game = load_game(game, "").unwrap();
    let len: usize = game.observation_shape().iter().product();
    let mut rng = rng_from_seed(9);
    let mut observations = Vec::new();
    let mut state: Box<dyn DynState> = game.new_initial_state();
    while observations.len() < count * len {
        match state.turn() {
            Turn::Player(player) => {
                let mut observation = vec![0.0; len];
                state.write_observation(player, &mut observation);
                observations.extend(observation);
                let legal = state.legal_actions(player);
                state
                    .apply_action(legal[rng.random_range(0..legal.len())])
                    .unwrap();
            }
            Turn::Chance => {
                let outcomes = state.chance_outcomes();
                state
                    .apply_action(outcomes[rng.random_range(0..outcomes.len())].0)
                    .unwrap();
            }
            Turn::Simultaneous => {
                // Simultaneous moves: player 0's view, then a random joint
                // choice.
                let mut observation = vec![0.0; len];
                state.write_observation(0, &mut observation);
                observations.extend(observation);
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
    observations
}

#[test]
fn a_samples_outputs_are_the_same_bits_in_any_batch_at_any_place_on_any_threads() {
    for (game, options) in [
        ("hnefatafl", "blocks=2,channels=8"),
        ("stealth-chess", "blocks=1,channels=5,policy-channels=1"),
        ("nibelungen", "hidden-layers=2,hidden-size=24"),
    ] {
        let shape = GameShape::of(load_game(game, "").unwrap().as_ref());
        let description = NetDescription::new(&shape, &options.parse().unwrap()).unwrap();
        let mut network = Network::init(description.clone(), 1).unwrap();
        let samples = 37;
        let input = description.input_len();
        let observations = playout_observations(game, samples);
        let (actions, outputs_each) = (description.num_actions, description.num_values);
        let (logits, values) = outputs(&network, &observations);
        let check = |logits_got: &[f32], values_got: &[f32], sample: usize, at: usize| {
            let same = |a: &[f32], b: &[f32]| {
                a.iter()
                    .map(|v| v.to_bits())
                    .eq(b.iter().map(|v| v.to_bits()))
            };
            assert!(same(
                &logits_got[at * actions..(at + 1) * actions],
                &logits[sample * actions..(sample + 1) * actions]
            ));
            assert!(same(
                &values_got[at * outputs_each..(at + 1) * outputs_each],
                &values[sample * outputs_each..(sample + 1) * outputs_each]
            ));
        };
        for sample in 0..samples {
            let (one_logits, one_values) = outputs(
                &network,
                &observations[sample * input..(sample + 1) * input],
            );
            check(&one_logits, &one_values, sample, 0);
        }
        let reversed: Vec<f32> = observations
            .chunks(input)
            .rev()
            .flatten()
            .copied()
            .collect();
        for threads in [1, 2, 3] {
            network.set_threads(threads).unwrap();
            let (all_logits, all_values) = outputs(&network, &observations);
            let (back_logits, back_values) = outputs(&network, &reversed);
            let (part_logits, part_values) =
                outputs(&network, &observations[9 * input..26 * input]);
            for sample in 0..samples {
                check(&all_logits, &all_values, sample, sample);
                check(&back_logits, &back_values, sample, samples - 1 - sample);
                if (9..26).contains(&sample) {
                    check(&part_logits, &part_values, sample, sample - 9);
                }
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_weights_and_another_seed_others() {
    let description = residual_description();
    let first = Network::init(description.clone(), 42).unwrap();
    let again = Network::init(description.clone(), 42).unwrap();
    let other = Network::init(description, 43).unwrap();
    assert_eq!(first.parameters(), again.parameters());
    assert_ne!(first.parameters(), other.parameters());
}

#[test]
fn training_steps_are_the_same_bits_on_any_thread_count_and_after_a_resume() {
    let description = residual_description();
    let batch = OwnedBatch::random(&description, 37, 8);
    let config = TrainConfig {
        clip_norm: Some(0.5),
        ..TrainConfig::default()
    };
    let train = |threads: usize, steps: usize, start: Option<Trainer>| {
        let mut trainer = start.unwrap_or_else(|| {
            Trainer::new(
                Network::init(description.clone(), 2).unwrap(),
                config.clone(),
            )
            .unwrap()
        });
        trainer.set_threads(threads).unwrap();
        let losses: Vec<Losses> = (0..steps)
            .map(|_| trainer.step(&batch.view()).unwrap())
            .collect();
        (trainer, losses)
    };
    let (straight, losses) = train(1, 5, None);
    assert!(losses[4].total < losses[0].total, "{losses:?}");
    for threads in [2, 3] {
        let (other, other_losses) = train(threads, 5, None);
        assert_eq!(
            other.network().parameters(),
            straight.network().parameters()
        );
        assert_eq!(other_losses, losses);
    }
    let (halfway, _) = train(2, 3, None);
    let path = std::env::temp_dir().join(format!(
        "norn-net-resume-{}.safetensors",
        std::process::id()
    ));
    halfway.save(&path).unwrap();
    let resumed = Trainer::load(&path).unwrap();
    assert_eq!(resumed.steps(), 3);
    let (resumed, _) = train(1, 2, Some(resumed));
    let bits = |trainer: &Trainer| -> Vec<u32> {
        trainer
            .network()
            .parameters()
            .iter()
            .map(|v| v.to_bits())
            .collect()
    };
    assert_eq!(bits(&resumed), bits(&straight));
    // A checkpoint also reads as its network.
    let network = Network::load(&path).unwrap();
    assert_eq!(network.parameters(), halfway.network().parameters());
    std::fs::remove_file(&path).unwrap();
}

// ---------------------------------------------------------------------
// Descriptions and files.

#[test]
fn every_registered_game_gets_a_network_of_its_kind() {
    for info in crate::registry::games() {
        let game = load_game(info.name, "").unwrap();
        let shape = GameShape::of(game.as_ref());
        let description = NetDescription::new(&shape, &NetOptions::default()).unwrap();
        let board = shape.observation_shape.len() == 3;
        assert_eq!(
            matches!(description.architecture, Architecture::Residual { .. }),
            board,
            "{}",
            info.name
        );
        let layout = description.value_layout;
        assert_eq!(
            layout,
            if info.capabilities.scoring == Scoring::Team {
                ValueLayout::Team
            } else {
                ValueLayout::ToMove
            }
        );
        description.check_game(&shape).unwrap();
        let text = serde_json::to_string(&description).unwrap();
        assert_eq!(
            serde_json::from_str::<NetDescription>(&text).unwrap(),
            description
        );
    }
}

#[test]
fn a_residual_network_needs_a_board() {
    let game = load_game("nibelungen", "").unwrap();
    let error = NetDescription::new(
        &GameShape::of(game.as_ref()),
        &"kind=residual".parse().unwrap(),
    )
    .unwrap_err();
    assert!(error.to_string().contains("[C, H, W]"), "{error}");
}

#[test]
fn a_network_file_reads_back_the_same_bits() {
    let network = random_network(residual_description(), 21);
    let path =
        std::env::temp_dir().join(format!("norn-net-file-{}.safetensors", std::process::id()));
    network.save(&path).unwrap();
    let read = Network::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(read.description(), network.description());
    let bits = |n: &Network| {
        n.parameters()
            .iter()
            .map(|v| v.to_bits())
            .collect::<Vec<_>>()
    };
    assert_eq!(bits(&read), bits(&network));
}

/// A file asked for again, unchanged, is the network already loaded (the
/// agents of a tournament share it); another thread count, a file written
/// anew, or one that is gone is not.
#[test]
fn a_network_shared_by_path_is_loaded_again_only_when_its_file_changes() {
    let path = std::env::temp_dir().join(format!(
        "norn-net-shared-{}.safetensors",
        std::process::id()
    ));
    let first = random_network(mlp_description(vec![3]), 1);
    first.save(&path).unwrap();
    let shared = Network::load_shared(&path, 1).unwrap();
    assert_eq!(shared.parameters(), first.parameters());
    let again = Network::load_shared(&path, 1).unwrap();
    assert!(Arc::ptr_eq(&shared, &again), "the file was loaded twice");
    let two_threads = Network::load_shared(&path, 2).unwrap();
    assert!(!Arc::ptr_eq(&shared, &two_threads));
    assert_eq!(two_threads.parameters(), first.parameters());
    // Written anew (the same size): the new weights.
    let second = random_network(mlp_description(vec![3]), 2);
    second.save(&path).unwrap();
    let reloaded = Network::load_shared(&path, 1).unwrap();
    assert_eq!(reloaded.parameters(), second.parameters());
    assert_ne!(reloaded.parameters(), first.parameters());
    std::fs::remove_file(&path).unwrap();
    let error = Network::load_shared(&path, 1).unwrap_err();
    assert!(matches!(error, NetError::Io(_)), "{error}");
}

#[test]
fn saving_the_same_checkpoint_again_writes_the_same_bytes() {
    // A checkpoint's header holds two metadata entries (the description
    // and the optimizer's state): written in a map's arbitrary order, a
    // dozen writes would almost surely not all agree.
    let description = residual_description();
    let batch = OwnedBatch::random(&description, 5, 4);
    let mut trainer = Trainer::new(
        Network::init(description, 3).unwrap(),
        TrainConfig::default(),
    )
    .unwrap();
    trainer.step(&batch.view()).unwrap();
    let path = std::env::temp_dir().join(format!(
        "norn-net-same-bytes-{}.safetensors",
        std::process::id()
    ));
    let write = || {
        trainer.save(&path).unwrap();
        std::fs::read(&path).unwrap()
    };
    let first = write();
    for _ in 0..12 {
        assert!(write() == first, "two writes of one checkpoint differ");
    }
    let read = Trainer::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(read.steps(), 1);
    assert_eq!(read.network().parameters(), trainer.network().parameters());
}

/// The bytes of a file with the description text `description` and the
/// tensors given (name, dtype, shape, bytes).
fn file_with(description: &str, tensors: &[(String, Dtype, Vec<usize>, Vec<u8>)]) -> Vec<u8> {
    let views: Vec<(&str, TensorView<'_>)> = tensors
        .iter()
        .map(|(name, dtype, shape, bytes)| {
            (
                name.as_str(),
                TensorView::new(*dtype, shape.clone(), bytes).unwrap(),
            )
        })
        .collect();
    let metadata = [(DESCRIPTION_KEY.to_string(), description.to_string())]
        .into_iter()
        .collect();
    safetensors::serialize(views, Some(metadata)).unwrap()
}

/// A small network's tensors as `file_with` takes them.
fn tensors_of(network: &Network) -> Vec<(String, Dtype, Vec<usize>, Vec<u8>)> {
    let mut rest = network.parameters();
    network
        .tensor_specs()
        .iter()
        .map(|spec| {
            let (tensor, after) = rest.split_at(spec.len());
            rest = after;
            let bytes = tensor.iter().flat_map(|v| v.to_le_bytes()).collect();
            (spec.name.clone(), Dtype::F32, spec.shape.clone(), bytes)
        })
        .collect()
}

#[test]
fn hostile_and_mismatched_files_are_refused_with_a_reason() {
    let network = random_network(mlp_description(vec![3]), 4);
    let description = serde_json::to_string(network.description()).unwrap();
    let tensors = tensors_of(&network);
    let good = file_with(&description, &tensors);
    assert!(Network::from_bytes(&good).is_ok());
    let refused = |bytes: &[u8], wanted: &str| {
        let error = Network::from_bytes(bytes).unwrap_err().to_string();
        assert!(error.contains(wanted), "{error} lacks {wanted}");
    };
    for cut in [0, 5, 8, 30, good.len() / 2, good.len() - 1] {
        refused(&good[..cut], "not a safetensors file");
    }
    let mut huge_header = good.clone();
    huge_header[..8].copy_from_slice(&(1u64 << 60).to_le_bytes());
    refused(&huge_header, "not a safetensors file");
    refused(&[b'{'; 64], "not a safetensors file");
    refused(
        &safetensors::serialize(Vec::<(&str, TensorView<'_>)>::new(), None).unwrap(),
        "no network description",
    );
    refused(&file_with("{\"format\":", &tensors), "does not read");
    let edited = |from: &str, to: &str| file_with(&description.replace(from, to), &tensors);
    refused(&edited("\"format\":1", "\"format\":2"), "format 2");
    refused(
        &edited("\"hidden\":[3]", "\"hidden\":[1000000000]"),
        "a hidden layer's units 1000000000",
    );
    refused(
        &edited(
            "\"hidden\":[3]",
            "\"hidden\":[16000,16000,16000,16000,16000,16000]",
        ),
        "parameters",
    );
    refused(
        &edited("\"num_values\":1", "\"num_values\":2"),
        "value layout",
    );
    refused(
        &edited("\"input_shape\":[2,3]", "\"input_shape\":[]"),
        "input shape",
    );
    refused(&edited("\"game\"", "\"extra\":1,\"game\""), "does not read");
    // The tensors.
    let mut missing = tensors.clone();
    missing.pop();
    refused(
        &file_with(&description, &missing),
        "no tensor `value.fc2.bias`",
    );
    let mut extra = tensors.clone();
    extra.push(("stowaway".into(), Dtype::F32, vec![1], vec![0; 4]));
    refused(&file_with(&description, &extra), "`stowaway`");
    let mut reshaped = tensors.clone();
    reshaped[0].2 = vec![reshaped[0].2[1], reshaped[0].2[0]];
    refused(&file_with(&description, &reshaped), "has shape");
    let mut wide = tensors.clone();
    wide[0].1 = Dtype::F64;
    wide[0].2 = vec![wide[0].2[0], wide[0].2[1] / 2];
    refused(&file_with(&description, &wide), "not F32");
    let mut poisoned = tensors.clone();
    poisoned[2].3[4..8].copy_from_slice(&f32::NAN.to_le_bytes());
    refused(&file_with(&description, &poisoned), "not a finite number");
    // A file that names a game is checked against it.
    let hnefatafl = GameShape::of(load_game("hnefatafl", "").unwrap().as_ref());
    let thud = GameShape::of(load_game("thud", "").unwrap().as_ref());
    let tafl = NetDescription::new(&hnefatafl, &"blocks=0,channels=2".parse().unwrap()).unwrap();
    // Each refusal says, in its first words, which of the three differs.
    let error = tafl.check_game(&thud).unwrap_err().to_string();
    assert_eq!(
        error,
        "network of another game: the network was made for hnefatafl, not thud"
    );
    let short = GameShape::of(load_game("hnefatafl", "ply-limit=3").unwrap().as_ref());
    let error = tafl.check_game(&short).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "network for other rules: the network was made for hnefatafl under the rules `{}`, and the game is played under the rules `{}`",
            hnefatafl.rules, short.rules
        )
    );
    // The same game and rules, observations shaped otherwise (an encoding
    // of another build).
    let reshaped = GameShape {
        observation_shape: vec![1, 11, 11],
        ..hnefatafl.clone()
    };
    let error = tafl.check_game(&reshaped).unwrap_err().to_string();
    assert!(
        error.starts_with("network of another shape: the network's observation shape is "),
        "{error}"
    );
}

#[test]
fn bad_inputs_to_forward_are_refused() {
    let network = random_network(mlp_description(vec![3]), 4);
    let mut logits = vec![0.0; 12];
    let mut values = vec![0.0; 2];
    let error = network
        .forward(&[0.5; 11], 2, &mut logits, &mut values)
        .unwrap_err();
    assert!(matches!(error, NetError::Input(_)), "{error}");
    let mut observations = [0.5; 12];
    observations[7] = f32::INFINITY;
    let error = network
        .forward(&observations, 2, &mut logits, &mut values)
        .unwrap_err();
    assert!(error.to_string().contains("value 7"), "{error}");
    let error = network
        .forward(&[0.5; 12], usize::MAX, &mut logits, &mut values)
        .unwrap_err();
    assert!(matches!(error, NetError::Input(_)), "{error}");
}

#[test]
fn bad_training_batches_are_refused() {
    let description = mlp_description(vec![3]);
    let network = random_network(description.clone(), 4);
    let mut trainer = Trainer::new(network, TrainConfig::default()).unwrap();
    let good = OwnedBatch::random(&description, 3, 1);
    type Spoil = Box<dyn Fn(&mut OwnedBatch)>;
    let cases: Vec<(Spoil, &str)> = vec![
        (Box::new(|b| b.values[1] = 1.5), "not from -1 to 1"),
        (Box::new(|b| b.policies[0] += 0.5), "sums to"),
        (Box::new(|b| b.masks[..6].fill(0)), "no legal action"),
        (Box::new(|b| b.policies[1] = f32::NAN), "target policy"),
        (
            Box::new(|b| b.observations.pop().map(drop).unwrap()),
            "whole number",
        ),
        (Box::new(|b| b.values.push(0.0)), "value values"),
    ];
    for (spoil, wanted) in cases {
        let mut batch = OwnedBatch {
            observations: good.observations.clone(),
            masks: good.masks.clone(),
            policies: good.policies.clone(),
            values: good.values.clone(),
        };
        spoil(&mut batch);
        let error = trainer.step(&batch.view()).unwrap_err().to_string();
        assert!(error.contains(wanted), "{error} lacks {wanted}");
    }
    // A target on an illegal action.
    let mut batch = OwnedBatch::random(&description, 3, 1);
    let illegal = batch.masks.iter().position(|&legal| legal == 0).unwrap();
    batch.policies[illegal] = 0.1;
    let error = trainer.step(&batch.view()).unwrap_err().to_string();
    assert!(error.contains("illegal action"), "{error}");
    assert_eq!(trainer.steps(), 0);
}
