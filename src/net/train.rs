//! Training: the loss of a batch, its gradients by the backward pass, and
//! AdamW steps; checkpoints that resume bitwise where they stopped.

use super::NetError;
use super::file::{Extra, parse, read_network_file, serialize, write_bytes};
use super::network::{Network, with_tape};
use super::pass::Tape;
use crate::core::Kind;
use rayon::prelude::*;
use std::path::Path;

/// The samples whose gradients one task sums before the chunks' sums are
/// added in order: fixed, so that a step's result does not depend on the
/// thread count.
const TRAIN_CHUNK: usize = 16;

/// The prefixes of a checkpoint's optimizer tensors: AdamW's first and
/// second moments of each weight.
pub(super) const MOMENT_PREFIXES: [&str; 2] = ["adam.m.", "adam.v."];

/// The metadata key of a checkpoint's optimizer state (JSON).
const OPTIMIZER_KEY: &str = "norn.optimizer";

/// How a [`Trainer`] trains: the loss's weights and AdamW's settings, as
/// `key=value` text (`learning-rate=0.001,weight-decay=0.0001`).
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// AdamW's step size.
    pub learning_rate: f64,
    /// The decay of the gradient's running mean.
    pub beta1: f64,
    /// The decay of the squared gradient's running mean.
    pub beta2: f64,
    /// Added to the root of the squared gradient's mean.
    pub epsilon: f64,
    /// Decoupled weight decay of the weights (not of the biases), per unit
    /// of learning rate.
    pub weight_decay: f64,
    /// The largest gradient norm; a larger gradient is scaled down to it.
    pub clip_norm: Option<f64>,
    /// The weight of the policy's cross-entropy in the loss.
    pub policy_weight: f64,
    /// The weight of the values' squared error in the loss.
    pub value_weight: f64,
    /// What `norn train` makes the value targets of: the share of each
    /// sample's search value (the self-play search's judgement of the
    /// position), the rest the game's outcome. 0 trains on outcomes alone,
    /// as AlphaZero; 1 on the search's values alone, so that the network
    /// learns what a deeper search sees from the position. The trainer
    /// itself takes the targets it is given.
    pub search_value: f64,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            learning_rate: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            weight_decay: 1e-4,
            clip_norm: None,
            policy_weight: 1.0,
            value_weight: 1.0,
            search_value: 0.0,
        }
    }
}

/// Every option of [`TrainConfig`], in the order its text is written.
const TRAIN_OPTIONS: &[crate::core::Declared<TrainConfig>] = &[
    crate::number_option!(
        "learning-rate",
        learning_rate,
        0.0,
        1.0,
        "AdamW's step size"
    ),
    crate::number_option!(
        "beta1",
        beta1,
        0.0,
        0.999_999,
        "decay of the gradient's running mean"
    ),
    crate::number_option!(
        "beta2",
        beta2,
        0.0,
        0.999_999_999,
        "decay of the squared gradient's running mean"
    ),
    crate::number_option!(
        "epsilon",
        epsilon,
        1e-30,
        1.0,
        "added to the root of the squared gradient's mean"
    ),
    crate::number_option!(
        "weight-decay",
        weight_decay,
        0.0,
        1.0,
        "decoupled weight decay of the weights, per unit of learning rate"
    ),
    crate::field_option!(
        "clip-norm",
        clip_norm,
        Kind::Optional(&Kind::Number { min: 1e-6, max: 1e6 }, "off"),
        "the largest gradient norm, or off";
        optional crate::core::Value::Number, number
    ),
    crate::number_option!(
        "policy-weight",
        policy_weight,
        0.0,
        1e3,
        "weight of the policy's cross-entropy in the loss"
    ),
    crate::number_option!(
        "value-weight",
        value_weight,
        0.0,
        1e3,
        "weight of the values' squared error in the loss"
    ),
    crate::number_option!(
        "search-value",
        search_value,
        0.0,
        1.0,
        "share of the self-play search's value of the position in norn train's value targets, \
         the rest the game's outcome"
    ),
];

crate::core::declared_configuration!(TrainConfig, "training options", TRAIN_OPTIONS);

/// A batch of training samples, each field sample after sample.
#[derive(Clone, Copy, Debug)]
pub struct TrainingBatch<'a> {
    /// Observations, [`input_len`](super::NetDescription::input_len)
    /// values each.
    pub observations: &'a [f32],
    /// Legal-action masks, `num_actions` each (non-zero: legal).
    pub masks: &'a [u8],
    /// Target policies, `num_actions` each: probabilities over the legal
    /// actions, summing to 1 (zero on the illegal ones).
    pub policies: &'a [f32],
    /// Target values, `num_values` each, from -1 to 1, in the network's
    /// value layout ([`ValueLayout::gather`](super::ValueLayout::gather);
    /// self-play shards hold them as `outcome`).
    pub values: &'a [f32],
}

/// The losses of a batch, averaged over its samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Losses {
    /// The policy's cross-entropy against the targets, over the legal
    /// actions (the illegal logits masked out).
    pub policy: f64,
    /// The values' squared error, averaged over the values.
    pub value: f64,
    /// `policy_weight * policy + value_weight * value`: what the step
    /// descends.
    pub total: f64,
    /// The gradient's norm before clipping (0 where no gradient was
    /// computed).
    pub gradient_norm: f64,
}

/// A network with an AdamW optimizer.
pub struct Trainer {
    network: Network,
    config: TrainConfig,
    /// Steps taken.
    step: u64,
    first_moment: Vec<f32>,
    second_moment: Vec<f32>,
    /// Whether each parameter decays (the weights, not the biases).
    decays: Vec<bool>,
    /// Each chunk's gradient sum, kept between steps.
    chunk_grads: Vec<Vec<f32>>,
    grads: Vec<f32>,
}

/// What a checkpoint stores of its optimizer besides the moments.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct OptimizerState {
    /// Steps taken.
    step: u64,
    /// The configuration's text.
    config: String,
}

impl Trainer {
    /// A trainer of `network`, its optimizer fresh.
    ///
    /// # Errors
    /// A configuration out of its ranges.
    pub fn new(network: Network, config: TrainConfig) -> Result<Trainer, NetError> {
        let len = network.parameters().len();
        Trainer::resume(network, config, 0, vec![0.0; len], vec![0.0; len])
    }

    fn resume(
        network: Network,
        config: TrainConfig,
        step: u64,
        first_moment: Vec<f32>,
        second_moment: Vec<f32>,
    ) -> Result<Trainer, NetError> {
        config.validate().map_err(NetError::Training)?;
        let decays = network
            .tensor_specs()
            .iter()
            .flat_map(|spec| std::iter::repeat_n(spec.name.ends_with(".weight"), spec.len()))
            .collect();
        let len = network.parameters().len();
        Ok(Trainer {
            network,
            config,
            step,
            first_moment,
            second_moment,
            decays,
            chunk_grads: Vec::new(),
            grads: vec![0.0; len],
        })
    }

    /// The network as trained so far.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The network, leaving the trainer.
    pub fn into_network(self) -> Network {
        self.network
    }

    /// The configuration.
    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// Changes the learning rate from the next step on (a schedule).
    ///
    /// # Errors
    /// A rate outside 0 to 1.
    pub fn set_learning_rate(&mut self, learning_rate: f64) -> Result<(), NetError> {
        let config = TrainConfig {
            learning_rate,
            ..self.config.clone()
        };
        config.validate().map_err(NetError::Training)?;
        self.config = config;
        Ok(())
    }

    /// Runs the steps on `threads` threads (as
    /// [`Network::set_threads`]); the results do not depend on it.
    ///
    /// # Errors
    /// A thread count the machine cannot give.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), NetError> {
        self.network.set_threads(threads)
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// One AdamW step on the batch's loss; the losses are the batch's
    /// before the step.
    ///
    /// # Errors
    /// A batch that is not one of this network's samples: see
    /// [`TrainingBatch`].
    pub fn step(&mut self, batch: &TrainingBatch<'_>) -> Result<Losses, NetError> {
        let (losses, norm) = self.compute_gradients(batch)?;
        let scale = match self.config.clip_norm {
            Some(clip) if norm > clip => (clip / norm) as f32,
            _ => 1.0,
        };
        self.adamw(scale);
        Ok(Losses {
            gradient_norm: norm,
            ..losses
        })
    }

    /// The batch's losses, with the gradient of their weighted mean in
    /// `self.grads`, and its norm.
    fn compute_gradients(&mut self, batch: &TrainingBatch<'_>) -> Result<(Losses, f64), NetError> {
        let samples = self.check_batch(batch)?;
        let chunks = samples.div_ceil(TRAIN_CHUNK);
        let len = self.grads.len();
        self.chunk_grads.resize_with(chunks, Vec::new);
        let (network, config) = (&self.network, &self.config);
        let sums = run_chunks(
            network,
            batch,
            samples,
            self.chunk_grads.par_iter_mut(),
            |tape, chunk, grads| {
                grads.clear();
                grads.resize(len, 0.0);
                let (sums, logit_grad, value_grad) =
                    chunk_losses(network, config, tape, chunk, samples);
                network.layers().backward(
                    network.parameters(),
                    tape,
                    &logit_grad,
                    &value_grad,
                    grads,
                );
                sums
            },
        );
        self.grads.fill(0.0);
        for chunk in &self.chunk_grads[..chunks] {
            super::ops::add(&mut self.grads, chunk);
        }
        let norm = self
            .grads
            .iter()
            .map(|&grad| f64::from(grad) * f64::from(grad))
            .sum::<f64>()
            .sqrt();
        Ok((self.totals(sums, samples), norm))
    }

    /// The gradient of the batch's weighted mean loss with respect to every
    /// parameter, without a step (for tests of the backward pass).
    #[cfg(test)]
    pub(super) fn gradients(&mut self, batch: &TrainingBatch<'_>) -> Result<Vec<f32>, NetError> {
        self.compute_gradients(batch)?;
        Ok(self.grads.clone())
    }

    /// The batch's losses, without a step.
    ///
    /// # Errors
    /// As [`step`](Self::step).
    pub fn losses(&self, batch: &TrainingBatch<'_>) -> Result<Losses, NetError> {
        let samples = self.check_batch(batch)?;
        let mut unused = vec![(); samples.div_ceil(TRAIN_CHUNK)];
        let sums = run_chunks(
            &self.network,
            batch,
            samples,
            unused.par_iter_mut(),
            |tape, chunk, ()| chunk_losses(&self.network, &self.config, tape, chunk, samples).0,
        );
        Ok(self.totals(sums, samples))
    }

    fn totals(&self, (policy, value): (f64, f64), samples: usize) -> Losses {
        let (policy, value) = (policy / samples as f64, value / samples as f64);
        Losses {
            policy,
            value,
            total: self.config.policy_weight * policy + self.config.value_weight * value,
            gradient_norm: 0.0,
        }
    }

    /// AdamW's update with the gradients scaled by `scale` (clipping).
    fn adamw(&mut self, scale: f32) {
        self.step += 1;
        let config = &self.config;
        let exponent = i32::try_from(self.step).unwrap_or(i32::MAX);
        let first_correction = (1.0 - config.beta1.powi(exponent)) as f32;
        let second_correction = (1.0 - config.beta2.powi(exponent)) as f32;
        let (beta1, beta2) = (config.beta1 as f32, config.beta2 as f32);
        let (rate, epsilon) = (config.learning_rate as f32, config.epsilon as f32);
        let decay = (config.learning_rate * config.weight_decay) as f32;
        let params = self.network.parameters_mut();
        let moments = self.first_moment.iter_mut().zip(&mut self.second_moment);
        for ((param, (first, second)), (&grad, &decays)) in params
            .iter_mut()
            .zip(moments)
            .zip(self.grads.iter().zip(&self.decays))
        {
            let grad = grad * scale;
            *first = beta1 * *first + (1.0 - beta1) * grad;
            *second = beta2 * *second + (1.0 - beta2) * grad * grad;
            let step =
                (*first / first_correction) / ((*second / second_correction).sqrt() + epsilon);
            let decayed = if decays {
                *param - decay * *param
            } else {
                *param
            };
            *param = decayed - rate * step;
        }
    }

    /// The batch's sample count, once every part is checked.
    fn check_batch(&self, batch: &TrainingBatch<'_>) -> Result<usize, NetError> {
        let description = self.network.description();
        let (input, actions, outputs) = (
            description.input_len(),
            description.num_actions,
            description.num_values,
        );
        let fail = |text: String| Err(NetError::Training(text));
        let samples = batch.observations.len() / input;
        if samples == 0 || samples * input != batch.observations.len() {
            return fail(format!(
                "{} observation values are not a whole number of observations of {input}",
                batch.observations.len()
            ));
        }
        for (what, len, each) in [
            ("mask", batch.masks.len(), actions),
            ("policy", batch.policies.len(), actions),
            ("value", batch.values.len(), outputs),
        ] {
            if len != samples * each {
                return fail(format!(
                    "{len} {what} values for {samples} samples of {each}"
                ));
            }
        }
        if let Some(index) = batch
            .observations
            .iter()
            .position(|value| !value.is_finite())
        {
            return fail(format!("observation value {index} is not finite"));
        }
        for (sample, (mask, policy)) in batch
            .masks
            .chunks(actions)
            .zip(batch.policies.chunks(actions))
            .enumerate()
        {
            if mask.iter().all(|&legal| legal == 0) {
                return fail(format!("sample {sample} has no legal action"));
            }
            let mut sum = 0.0f64;
            for (action, (&legal, &probability)) in mask.iter().zip(policy).enumerate() {
                if !(probability.is_finite() && probability >= 0.0) {
                    return fail(format!(
                        "sample {sample}'s target policy gives action {action} {probability}"
                    ));
                }
                if legal == 0 && probability != 0.0 {
                    return fail(format!(
                        "sample {sample}'s target policy gives the illegal action {action} {probability}"
                    ));
                }
                sum += f64::from(probability);
            }
            if (sum - 1.0).abs() > 1e-3 {
                return fail(format!(
                    "sample {sample}'s target policy sums to {sum}, not 1"
                ));
            }
        }
        if let Some(index) = batch
            .values
            .iter()
            .position(|value| !(-1.0..=1.0).contains(value))
        {
            return fail(format!(
                "target value {index} is {}, not from -1 to 1",
                batch.values[index]
            ));
        }
        Ok(samples)
    }

    /// Writes the network and the optimizer's state (its moments, step
    /// count and configuration) to `path`, one safetensors file that
    /// [`Network::load`] also reads as the network.
    ///
    /// # Errors
    /// A file that cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        let state = OptimizerState {
            step: self.step,
            config: self.config.to_string(),
        };
        let mut tensors = Vec::new();
        for (prefix, moment) in MOMENT_PREFIXES
            .iter()
            .zip([&self.first_moment, &self.second_moment])
        {
            let mut rest = &moment[..];
            for spec in self.network.tensor_specs() {
                let (tensor, after) = rest.split_at(spec.len());
                tensors.push((
                    format!("{prefix}{}", spec.name),
                    spec.shape.clone(),
                    tensor.to_vec(),
                ));
                rest = after;
            }
        }
        let extra = Extra {
            metadata: vec![(
                OPTIMIZER_KEY.to_string(),
                serde_json::to_string(&state)
                    .map_err(|error| NetError::Format(error.to_string()))?,
            )],
            tensors,
        };
        write_bytes(path, &serialize(&self.network, &extra)?)
    }

    /// Reads a checkpoint written by [`save`](Self::save): the trainer
    /// continues bitwise as the one that wrote it would have.
    ///
    /// # Errors
    /// As [`Network::load`], and a file without a whole optimizer state.
    pub fn load(path: &Path) -> Result<Trainer, NetError> {
        let bytes = read_network_file(path)?;
        let parsed = parse(&bytes, &MOMENT_PREFIXES).map_err(|error| error.in_file(path))?;
        let text = parsed.metadata(OPTIMIZER_KEY).ok_or_else(|| {
            NetError::Format(format!(
                "{}: a network without an optimizer state (metadata `{OPTIMIZER_KEY}`)",
                path.display()
            ))
        })?;
        let state: OptimizerState = serde_json::from_str(text).map_err(|error| {
            NetError::Format(format!("the optimizer state does not read: {error}"))
        })?;
        let config: TrainConfig = state
            .config
            .parse()
            .map_err(|error: crate::core::ParseError| NetError::Training(error.to_string()))?;
        let first = parsed.shadow(MOMENT_PREFIXES[0])?;
        let second = parsed.shadow(MOMENT_PREFIXES[1])?;
        if second.iter().any(|&value| value < 0.0) {
            return Err(NetError::Weights("a second moment is negative".to_string()));
        }
        let network = Network::from_parts(parsed.description, parsed.specs, parsed.params)?;
        Trainer::resume(network, config, state.step, first, second)
    }
}

/// Runs `work` on each chunk of the batch, on the network's threads, with
/// one of `slots` each; returns the chunks' loss sums added in order.
fn run_chunks<'s, S: Send + 's>(
    network: &Network,
    batch: &TrainingBatch<'_>,
    samples: usize,
    slots: impl IndexedParallelIterator<Item = &'s mut S>,
    work: impl Fn(&mut Tape, Chunk<'_>, &mut S) -> (f64, f64) + Sync,
) -> (f64, f64) {
    let run = || -> Vec<(f64, f64)> {
        slots
            .enumerate()
            .map(|(index, slot)| {
                let first = index * TRAIN_CHUNK;
                let count = TRAIN_CHUNK.min(samples - first);
                let chunk = Chunk::of(network, batch, first, count);
                with_tape(|tape| {
                    network
                        .layers()
                        .forward(network.parameters(), chunk.observations, count, tape);
                    work(tape, chunk, slot)
                })
            })
            .collect()
    };
    let sums = match network.pool() {
        Some(pool) => pool.install(run),
        None => run(),
    };
    sums.into_iter()
        .fold((0.0, 0.0), |(policy, value), (p, v)| {
            (policy + p, value + v)
        })
}

/// One chunk's samples of a batch.
#[derive(Clone, Copy)]
struct Chunk<'a> {
    observations: &'a [f32],
    masks: &'a [u8],
    policies: &'a [f32],
    values: &'a [f32],
    samples: usize,
}

impl<'a> Chunk<'a> {
    fn of(network: &Network, batch: &TrainingBatch<'a>, first: usize, samples: usize) -> Chunk<'a> {
        let description = network.description();
        let part = |each: usize| first * each..(first + samples) * each;
        Chunk {
            observations: &batch.observations[part(description.input_len())],
            masks: &batch.masks[part(description.num_actions)],
            policies: &batch.policies[part(description.num_actions)],
            values: &batch.values[part(description.num_values)],
            samples,
        }
    }
}

/// A chunk's loss sums (policy, value) from the outputs in `tape`, and the
/// gradients of the batch's mean loss with respect to its logits and its
/// values before `tanh`.
fn chunk_losses(
    network: &Network,
    config: &TrainConfig,
    tape: &Tape,
    chunk: Chunk<'_>,
    batch_samples: usize,
) -> ((f64, f64), Vec<f32>, Vec<f32>) {
    let description = network.description();
    let (actions, outputs) = (description.num_actions, description.num_values);
    let per_sample = 1.0 / batch_samples as f64;
    let policy_scale = (config.policy_weight * per_sample) as f32;
    let value_scale = (config.value_weight * per_sample) as f32;
    let mut logit_grad = vec![0.0f32; chunk.samples * actions];
    let mut value_grad = vec![0.0f32; chunk.samples * outputs];
    let (mut policy_sum, mut value_sum) = (0.0f64, 0.0f64);
    for sample in 0..chunk.samples {
        let row = sample * actions..(sample + 1) * actions;
        let (logits, mask, target) = (
            &tape.logits[row.clone()],
            &chunk.masks[row.clone()],
            &chunk.policies[row.clone()],
        );
        let legal = || (0..actions).filter(|&action| mask[action] != 0);
        let max = legal()
            .map(|action| logits[action])
            .fold(f32::NEG_INFINITY, f32::max);
        let total: f64 = legal()
            .map(|action| f64::from(logits[action] - max).exp())
            .sum();
        let log_total = total.ln();
        let target_sum: f32 = target.iter().sum();
        let grad = &mut logit_grad[row];
        for action in legal() {
            let log_probability = f64::from(logits[action] - max) - log_total;
            policy_sum -= f64::from(target[action]) * log_probability;
            let probability = log_probability.exp() as f32;
            grad[action] = (probability * target_sum - target[action]) * policy_scale;
        }
        let row = sample * outputs..(sample + 1) * outputs;
        for ((grad, &value), &wanted) in value_grad[row.clone()]
            .iter_mut()
            .zip(&tape.values[row.clone()])
            .zip(&chunk.values[row])
        {
            let error = value - wanted;
            value_sum += f64::from(error * error) / outputs as f64;
            *grad = 2.0 * error / outputs as f32 * (1.0 - value * value) * value_scale;
        }
    }
    ((policy_sum, value_sum), logit_grad, value_grad)
}
