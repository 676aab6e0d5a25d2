//! [`Network`]: a description and its weights, and batched inference over
//! CPU threads.

use super::NetError;
use super::description::{Architecture, Init, NetDescription, TensorSpec};
use super::pass::{Layer, Layers, Shape, Tape};
use crate::core::{check_memory, rng_from_seed, thread_pool};
use crate::search::guided::{EvaluationError, GameShape, TensorEvaluator, ValueLayout};
use rand::RngExt;
use rayon::prelude::*;
use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

/// The most samples one thread runs through the network at a time: the
/// activations of a chunk of a board game's small network stay within a
/// core's cache. Any chunk size gives the same outputs.
const MAX_CHUNK: usize = 16;

/// A policy-value network: a [`NetDescription`] and its weights, with the
/// threads its batched inference runs on.
///
/// ```
/// use norn::learning::load_game;
/// use norn::net::{GameShape, NetDescription, NetOptions, Network};
///
/// let game = load_game("hnefatafl", "").unwrap();
/// let shape = GameShape::of(game.as_ref());
/// let options: NetOptions = "blocks=1,channels=8".parse().unwrap();
/// let network = Network::init(NetDescription::new(&shape, &options).unwrap(), 7).unwrap();
///
/// let mut observation = vec![0.0; network.description().input_len()];
/// game.new_initial_state().write_observation(0, &mut observation);
/// let mut logits = vec![0.0; shape.num_actions];
/// let mut values = vec![0.0; 1];
/// network.forward(&observation, 1, &mut logits, &mut values).unwrap();
/// assert!(values[0].abs() <= 1.0);
/// ```
#[derive(Clone)]
pub struct Network {
    description: NetDescription,
    specs: Vec<TensorSpec>,
    params: Vec<f32>,
    layers: Layers,
    threads: usize,
    /// The workers for more than one thread; one thread runs on the
    /// caller's.
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("description", &self.description)
            .field("parameters", &self.params.len())
            .field("threads", &self.threads)
            .finish()
    }
}

thread_local! {
    /// Each thread's activations, kept between calls so that inference
    /// allocates nothing once warm.
    static TAPE: RefCell<Tape> = RefCell::new(Tape::default());
}

/// Runs `work` with this thread's activations.
pub(super) fn with_tape<R>(work: impl FnOnce(&mut Tape) -> R) -> R {
    TAPE.with_borrow_mut(work)
}

impl Network {
    /// A fresh network of `description`, its weights drawn from `seed`
    /// (the same seed, the same weights): He's initialisation for layers
    /// followed by a ReLU, scaled down by the square root of the block
    /// count for each residual block's last convolution, Glorot's for the
    /// output layers, zero biases (see [`Init`]).
    ///
    /// # Errors
    /// A description that does not validate, or weights that do not fit
    /// in memory.
    pub fn init(description: NetDescription, seed: u64) -> Result<Network, NetError> {
        let specs = checked_specs(&description)?;
        let mut rng = rng_from_seed(seed);
        let mut params = Vec::with_capacity(specs.iter().map(TensorSpec::len).sum());
        for spec in &specs {
            let fan_in = spec.fan_in() as f64;
            // The outputs each input reaches: out * kh * kw.
            let fan_out = (spec.len() / spec.shape.get(1).copied().unwrap_or(1).max(1)) as f64;
            let bound = match spec.init {
                Init::Zero => 0.0,
                Init::Relu => (6.0 / fan_in).sqrt(),
                Init::Residual(blocks) => (6.0 / fan_in).sqrt() / (blocks.max(1) as f64).sqrt(),
                Init::Output => (6.0 / (fan_in + fan_out)).sqrt(),
            };
            params.extend((0..spec.len()).map(|_| {
                if bound == 0.0 {
                    0.0
                } else {
                    rng.random_range(-bound..bound) as f32
                }
            }));
        }
        Network::from_parts(description, specs, params)
    }

    /// A network of `description` with the weights `params`, in the order
    /// and layouts of [`NetDescription::tensor_specs`].
    ///
    /// # Errors
    /// A description that does not validate, a parameter count other than
    /// the description's, or a weight that is not finite.
    pub fn from_parameters(
        description: NetDescription,
        params: Vec<f32>,
    ) -> Result<Network, NetError> {
        let specs = checked_specs(&description)?;
        Network::from_parts(description, specs, params)
    }

    pub(super) fn from_parts(
        description: NetDescription,
        specs: Vec<TensorSpec>,
        params: Vec<f32>,
    ) -> Result<Network, NetError> {
        let expected: usize = specs.iter().map(TensorSpec::len).sum();
        if params.len() != expected {
            return Err(NetError::Weights(format!(
                "{} parameters, where the description has {expected}",
                params.len()
            )));
        }
        check_finite(&specs, &params)?;
        let layers = layers(&description, &specs);
        Ok(Network {
            description,
            specs,
            params,
            layers,
            threads: 1,
            pool: None,
        })
    }

    /// What the network is.
    pub fn description(&self) -> &NetDescription {
        &self.description
    }

    /// Its tensors, in the order of [`parameters`](Self::parameters).
    pub fn tensor_specs(&self) -> &[TensorSpec] {
        &self.specs
    }

    /// Every weight, tensor after tensor as
    /// [`tensor_specs`](Self::tensor_specs) lists them, each in row-major
    /// order.
    pub fn parameters(&self) -> &[f32] {
        &self.params
    }

    pub(super) fn parameters_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    pub(super) fn layers(&self) -> &Layers {
        &self.layers
    }

    /// The pool of more than one thread, if set.
    pub(super) fn pool(&self) -> Option<&rayon::ThreadPool> {
        self.pool.as_deref()
    }

    /// How many threads [`forward`](Self::forward) runs on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs [`forward`](Self::forward) on `threads` threads (1, the
    /// default, runs on the caller's thread). The outputs do not depend on
    /// it.
    ///
    /// # Errors
    /// A thread count the machine cannot give
    /// ([`crate::core::check_threads`]).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), NetError> {
        self.pool = if threads > 1 {
            Some(Arc::new(thread_pool(threads).map_err(NetError::Threads)?))
        } else {
            crate::core::check_threads("the thread count", threads).map_err(NetError::Threads)?;
            None
        };
        self.threads = threads;
        Ok(())
    }

    /// Runs `batch` observations (each
    /// [`input_len`](NetDescription::input_len) values, one after another)
    /// through the network, writing each one's policy logits (`num_actions`
    /// values, over every action id: mask the illegal ones yourself) into
    /// `logits` and its values (`num_values`, from -1 to 1) into `values`.
    ///
    /// A sample's outputs are bitwise the same whatever the batch around
    /// it, its place in the batch and the thread count.
    ///
    /// # Errors
    /// Buffers of the wrong lengths, or an observation value that is not
    /// finite.
    pub fn forward(
        &self,
        observations: &[f32],
        batch: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), NetError> {
        let description = &self.description;
        let (input, actions, outputs) = (
            description.input_len(),
            description.num_actions,
            description.num_values,
        );
        for (what, len, each) in [
            ("observations", observations.len(), input),
            ("logits", logits.len(), actions),
            ("values", values.len(), outputs),
        ] {
            if Some(len) != batch.checked_mul(each) {
                return Err(NetError::Input(format!(
                    "{len} {what} for a batch of {batch} with {each} each"
                )));
            }
        }
        check_observations(observations)?;
        if batch == 0 {
            return Ok(());
        }
        let chunk = batch.div_ceil(self.threads).clamp(1, MAX_CHUNK);
        let run = |((observations, logits), values): ((&[f32], &mut [f32]), &mut [f32])| {
            with_tape(|tape| {
                let samples = logits.len() / actions;
                self.layers
                    .forward(&self.params, observations, samples, tape);
                logits.copy_from_slice(&tape.logits);
                values.copy_from_slice(&tape.values);
            });
        };
        let chunks = observations
            .chunks(chunk * input)
            .zip(logits.chunks_mut(chunk * actions))
            .zip(values.chunks_mut(chunk * outputs));
        match &self.pool {
            None => chunks.for_each(run),
            Some(pool) => pool.install(|| {
                observations
                    .par_chunks(chunk * input)
                    .zip(logits.par_chunks_mut(chunk * actions))
                    .zip(values.par_chunks_mut(chunk * outputs))
                    .for_each(run);
            }),
        }
        Ok(())
    }
}

/// A network guides a search ([`crate::search::guided`]): it checks that
/// it was made for the game searched ([`NetDescription::check_game`]) and
/// answers every leaf with [`Network::forward`], the masks unread (the
/// search reads the legal ids' logits alone). A shared network (`&Network`,
/// one a Python object or several agents hold) guides a search the same
/// way.
impl TensorEvaluator for &Network {
    fn layout(&self) -> ValueLayout {
        self.description.value_layout
    }

    fn check_game(&self, game: &GameShape) -> Result<(), EvaluationError> {
        self.description
            .check_game(game)
            .map_err(|error| EvaluationError::new(error.to_string()))
    }

    fn evaluate(
        &mut self,
        observations: &[f32],
        _masks: &[u8],
        batch: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvaluationError> {
        self.forward(observations, batch, logits, values)
            .map_err(|error| EvaluationError::new(error.to_string()))
    }
}

/// An owned network guides a search as a shared one does.
impl TensorEvaluator for Network {
    fn layout(&self) -> ValueLayout {
        (&self).layout()
    }

    fn check_game(&self, game: &GameShape) -> Result<(), EvaluationError> {
        (&self).check_game(game)
    }

    fn evaluate(
        &mut self,
        observations: &[f32],
        masks: &[u8],
        batch: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvaluationError> {
        (&*self).evaluate(observations, masks, batch, logits, values)
    }
}

/// The description's tensors, once it validates and its weights fit in
/// memory.
fn checked_specs(description: &NetDescription) -> Result<Vec<TensorSpec>, NetError> {
    description.validate()?;
    let specs = description.tensor_specs();
    let count: usize = specs.iter().map(TensorSpec::len).sum();
    check_memory(
        &format!("a network of {count} parameters"),
        (count as u64).saturating_mul(4),
    )
    .map_err(NetError::Memory)?;
    Ok(specs)
}

/// Refuses a weight that is not finite, naming its tensor.
fn check_finite(specs: &[TensorSpec], params: &[f32]) -> Result<(), NetError> {
    let mut rest = params;
    for spec in specs {
        let (tensor, after) = rest.split_at(spec.len());
        if let Some(index) = tensor.iter().position(|value| !value.is_finite()) {
            return Err(NetError::Weights(format!(
                "{}[{index}] is {}, not a finite number",
                spec.name, tensor[index]
            )));
        }
        rest = after;
    }
    Ok(())
}

/// Refuses an observation value that is not finite.
fn check_observations(observations: &[f32]) -> Result<(), NetError> {
    match observations.iter().position(|value| !value.is_finite()) {
        Some(index) => Err(NetError::Input(format!(
            "observation value {index} is {}, not a finite number",
            observations[index]
        ))),
        None => Ok(()),
    }
}

/// Where each layer's tensors sit among the parameters of `specs`, which
/// come in pairs (weight, bias) in the order of the layers.
fn layers(description: &NetDescription, specs: &[TensorSpec]) -> Layers {
    let mut offset = 0;
    let mut all: Vec<Layer> = specs
        .chunks_exact(2)
        .map(|pair| {
            let (weight, bias) = (&pair[0], &pair[1]);
            let layer = Layer {
                weight: offset..offset + weight.len(),
                bias: offset + weight.len()..offset + weight.len() + bias.len(),
                outputs: weight.shape[0],
                inputs: weight.fan_in(),
            };
            offset = layer.bias.end;
            layer
        })
        .collect();
    let value_fc2 = all.pop().expect("a value output layer");
    let value_fc1 = all.pop().expect("a value hidden layer");
    let (shape, policy_fc) = match &description.architecture {
        Architecture::Residual { .. } => {
            let value_conv = all.pop().expect("a value convolution");
            let policy_fc = all.pop().expect("a policy layer");
            let policy_conv = all.pop().expect("a policy convolution");
            let mut trunk = all.into_iter();
            let stem = trunk.next().expect("a stem");
            let mut blocks = Vec::new();
            while let (Some(conv1), Some(conv2)) = (trunk.next(), trunk.next()) {
                blocks.push([conv1, conv2]);
            }
            let input = &description.input_shape;
            let shape = Shape::Residual {
                planes: input[0],
                height: input[1],
                width: input[2],
                stem,
                blocks,
                policy_conv,
                value_conv,
            };
            (shape, policy_fc)
        }
        Architecture::Mlp { .. } => {
            let policy_fc = all.pop().expect("a policy layer");
            (Shape::Mlp { hidden: all }, policy_fc)
        }
    };
    Layers {
        shape,
        policy_fc,
        value_fc1,
        value_fc2,
    }
}
