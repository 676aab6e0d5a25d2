//! One forward pass over a chunk of samples, keeping every activation the
//! backward pass needs (a [`Tape`]), and that backward pass.
//!
//! A residual network's activations are channel-major within a chunk: a
//! channel's row holds every square of the first sample, then of the
//! second, so that a convolution over the whole chunk is one matrix
//! product. The heads' features and a perceptron's activations are
//! sample-major: one row per sample.

use super::ops::{
    Grid, Matrix, add, fill_columns, fill_rows, fold, matmul, regroup, relu, relu_backward,
    sum_columns, sum_rows, unfold,
};
use std::ops::Range;

/// Where a layer's weight and bias sit among the parameters (and the
/// gradients, which have the same layout).
#[derive(Clone, Debug)]
pub(super) struct Layer {
    pub weight: Range<usize>,
    pub bias: Range<usize>,
    /// Outputs (rows of the weight).
    pub outputs: usize,
    /// Inputs of each output (the weight's other dimensions together).
    pub inputs: usize,
}

impl Layer {
    fn weight<'a>(&self, params: &'a [f32]) -> &'a [f32] {
        &params[self.weight.clone()]
    }

    fn bias<'a>(&self, params: &'a [f32]) -> &'a [f32] {
        &params[self.bias.clone()]
    }
}

/// The shape of a network as its passes need it.
#[derive(Clone, Debug)]
pub(super) enum Shape {
    /// A residual network: the stem, two layers per block, the heads.
    Residual {
        planes: usize,
        height: usize,
        width: usize,
        stem: Layer,
        blocks: Vec<[Layer; 2]>,
        policy_conv: Layer,
        value_conv: Layer,
    },
    /// A perceptron's hidden layers.
    Mlp { hidden: Vec<Layer> },
}

/// Every layer of a network, in the order of its parameters.
#[derive(Clone, Debug)]
pub(super) struct Layers {
    pub shape: Shape,
    pub policy_fc: Layer,
    pub value_fc1: Layer,
    pub value_fc2: Layer,
}

/// The activations of one chunk's forward pass.
#[derive(Default)]
pub(super) struct Tape {
    samples: usize,
    /// The observations (channel-major for a residual network).
    input: Vec<f32>,
    /// Each layer's output after its ReLU: a residual network's stem, then
    /// per block the first convolution's and the block's output; a
    /// perceptron's hidden layers.
    trunk: Vec<Vec<f32>>,
    /// The policy head's features (sample-major), after their ReLU; a
    /// perceptron's policy reads its last hidden layer instead.
    policy_features: Vec<f32>,
    /// The value head's features, likewise.
    value_features: Vec<f32>,
    /// The value head's hidden layer after its ReLU.
    value_hidden: Vec<f32>,
    /// The policy logits, sample after sample.
    pub logits: Vec<f32>,
    /// The values after `tanh`, sample after sample.
    pub values: Vec<f32>,
    /// The unfolded neighbourhoods of a convolution's input.
    unfolded: Vec<f32>,
    /// Gradients of a residual network's channel-major activations.
    grad: Vec<f32>,
    grad_other: Vec<f32>,
}

/// `buffer` resized to `len` (its values are overwritten before use).
fn sized(buffer: &mut Vec<f32>, len: usize) -> &mut [f32] {
    buffer.resize(len, 0.0);
    &mut buffer[..]
}

/// `out = W * input + b` for a 3x3 convolution of `inputs` channels over
/// `grid`, with `unfolded` as scratch.
fn conv3x3(
    params: &[f32],
    layer: &Layer,
    input: &[f32],
    grid: Grid,
    unfolded: &mut Vec<f32>,
    out: &mut [f32],
) {
    let channels = layer.inputs / 9;
    let columns = grid.columns();
    let unfolded = sized(unfolded, layer.inputs * columns);
    unfold(input, channels, grid, unfolded);
    fill_rows(out, layer.bias(params));
    matmul(
        Matrix::rows(layer.weight(params), layer.outputs, layer.inputs),
        Matrix::rows(unfolded, layer.inputs, columns),
        out,
        true,
    );
}

/// `out = W * input + b` for a 1x1 convolution over `columns`.
fn conv1x1(params: &[f32], layer: &Layer, input: &[f32], columns: usize, out: &mut [f32]) {
    fill_rows(out, layer.bias(params));
    matmul(
        Matrix::rows(layer.weight(params), layer.outputs, layer.inputs),
        Matrix::rows(input, layer.inputs, columns),
        out,
        true,
    );
}

/// `out = input * W^T + b` for `samples` rows of inputs.
fn linear(params: &[f32], layer: &Layer, input: &[f32], samples: usize, out: &mut [f32]) {
    fill_columns(out, layer.bias(params));
    matmul(
        Matrix::rows(input, samples, layer.inputs),
        Matrix::transposed(layer.weight(params), layer.inputs, layer.outputs),
        out,
        true,
    );
}

/// A linear layer's gradients from the gradient of its outputs `grad`:
/// adds to its weight's and bias's, and writes the inputs' into
/// `input_grad` where asked.
fn linear_backward(
    params: &[f32],
    layer: &Layer,
    input: &[f32],
    grad: &[f32],
    samples: usize,
    grads: &mut [f32],
    input_grad: Option<&mut [f32]>,
) {
    matmul(
        Matrix::transposed(grad, layer.outputs, samples),
        Matrix::rows(input, samples, layer.inputs),
        &mut grads[layer.weight.clone()],
        true,
    );
    sum_columns(grad, &mut grads[layer.bias.clone()]);
    if let Some(input_grad) = input_grad {
        matmul(
            Matrix::rows(grad, samples, layer.outputs),
            Matrix::rows(layer.weight(params), layer.outputs, layer.inputs),
            input_grad,
            false,
        );
    }
}

/// A convolution's weight and bias gradients from its outputs' gradient
/// `grad` (channel-major) and its unfolded input (`inputs` rows of
/// `columns`; for a 1x1 convolution, the input itself).
fn conv_weight_backward(
    layer: &Layer,
    unfolded_input: &[f32],
    grad: &[f32],
    columns: usize,
    grads: &mut [f32],
) {
    matmul(
        Matrix::rows(grad, layer.outputs, columns),
        Matrix::transposed(unfolded_input, columns, layer.inputs),
        &mut grads[layer.weight.clone()],
        true,
    );
    sum_rows(grad, columns, &mut grads[layer.bias.clone()]);
}

/// `W^T * grad`: the gradient of a convolution's (unfolded) input.
fn conv_input_backward(
    params: &[f32],
    layer: &Layer,
    grad: &[f32],
    columns: usize,
    out: &mut [f32],
    accumulate: bool,
) {
    matmul(
        Matrix::transposed(layer.weight(params), layer.inputs, layer.outputs),
        Matrix::rows(grad, layer.outputs, columns),
        out,
        accumulate,
    );
}

impl Layers {
    /// How many values a head's features have per sample (policy or
    /// value).
    fn features(&self, policy: bool) -> usize {
        if policy {
            self.policy_fc.inputs
        } else {
            self.value_fc1.inputs
        }
    }

    /// Runs `samples` observations (sample after sample) forward, keeping
    /// the activations in `tape`.
    pub fn forward(&self, params: &[f32], observations: &[f32], samples: usize, tape: &mut Tape) {
        tape.samples = samples;
        match &self.shape {
            Shape::Residual {
                planes,
                height,
                width,
                stem,
                blocks,
                policy_conv,
                value_conv,
            } => {
                let grid = Grid {
                    height: *height,
                    width: *width,
                    samples,
                };
                let columns = grid.columns();
                let input = sized(&mut tape.input, planes * columns);
                regroup(observations, input, *planes, grid, true);
                let activations = 1 + 2 * blocks.len();
                tape.trunk.resize_with(activations, Vec::new);
                let channels = stem.outputs;
                let size = channels * columns;
                let (first, _) = tape.trunk.split_at_mut(1);
                let out = sized(&mut first[0], size);
                conv3x3(params, stem, &tape.input, grid, &mut tape.unfolded, out);
                relu(out);
                for (index, [conv1, conv2]) in blocks.iter().enumerate() {
                    let (done, rest) = tape.trunk.split_at_mut(2 * index + 1);
                    let previous = &done[2 * index];
                    let (hidden, rest) = rest.split_at_mut(1);
                    let hidden = sized(&mut hidden[0], size);
                    conv3x3(params, conv1, previous, grid, &mut tape.unfolded, hidden);
                    relu(hidden);
                    let out = sized(&mut rest[0], size);
                    conv3x3(params, conv2, hidden, grid, &mut tape.unfolded, out);
                    add(out, previous);
                    relu(out);
                }
                let last = &tape.trunk[activations - 1];
                for (conv, features) in [
                    (policy_conv, &mut tape.policy_features),
                    (value_conv, &mut tape.value_features),
                ] {
                    let head = sized(&mut tape.grad, conv.outputs * columns);
                    conv1x1(params, conv, last, columns, head);
                    relu(head);
                    let features = sized(features, samples * conv.outputs * grid.squares());
                    regroup(head, features, conv.outputs, grid, false);
                }
            }
            Shape::Mlp { hidden } => {
                tape.input.clear();
                tape.input.extend_from_slice(observations);
                tape.trunk.resize_with(hidden.len(), Vec::new);
                for (index, layer) in hidden.iter().enumerate() {
                    let (done, rest) = tape.trunk.split_at_mut(index);
                    let input = done.last().unwrap_or(&tape.input);
                    let out = sized(&mut rest[0], samples * layer.outputs);
                    linear(params, layer, input, samples, out);
                    relu(out);
                }
            }
        }
        let mut logits = std::mem::take(&mut tape.logits);
        logits.resize(samples * self.policy_fc.outputs, 0.0);
        let features = self.head_features(tape, true);
        linear(params, &self.policy_fc, features, samples, &mut logits);
        tape.logits = logits;
        let mut hidden = std::mem::take(&mut tape.value_hidden);
        hidden.resize(samples * self.value_fc1.outputs, 0.0);
        let features = self.head_features(tape, false);
        linear(params, &self.value_fc1, features, samples, &mut hidden);
        relu(&mut hidden);
        tape.value_hidden = hidden;
        let values = &mut tape.values;
        values.resize(samples * self.value_fc2.outputs, 0.0);
        linear(params, &self.value_fc2, &tape.value_hidden, samples, values);
        for value in values.iter_mut() {
            *value = value.tanh();
        }
    }

    /// The features a head reads: its own (residual), or the last hidden
    /// layer (perceptron).
    fn head_features<'a>(&self, tape: &'a Tape, policy: bool) -> &'a [f32] {
        let features = match self.shape {
            Shape::Residual { .. } if policy => &tape.policy_features,
            Shape::Residual { .. } => &tape.value_features,
            Shape::Mlp { .. } => tape.trunk.last().expect("a hidden layer"),
        };
        debug_assert_eq!(features.len(), tape.samples * self.features(policy));
        features
    }

    /// Adds to `grads` the gradients of the loss whose gradients with
    /// respect to the logits and to the values before `tanh` are
    /// `logit_grad` and `value_grad` (sample after sample), for the chunk
    /// `tape` holds.
    pub fn backward(
        &self,
        params: &[f32],
        tape: &mut Tape,
        logit_grad: &[f32],
        value_grad: &[f32],
        grads: &mut [f32],
    ) {
        let samples = tape.samples;
        // The value head.
        let mut hidden_grad = vec![0.0; samples * self.value_fc1.outputs];
        linear_backward(
            params,
            &self.value_fc2,
            &tape.value_hidden,
            value_grad,
            samples,
            grads,
            Some(&mut hidden_grad),
        );
        relu_backward(&mut hidden_grad, &tape.value_hidden);
        let mut value_features_grad = vec![0.0; samples * self.features(false)];
        linear_backward(
            params,
            &self.value_fc1,
            self.head_features(tape, false),
            &hidden_grad,
            samples,
            grads,
            Some(&mut value_features_grad),
        );
        // The policy head.
        let mut policy_features_grad = vec![0.0; samples * self.features(true)];
        linear_backward(
            params,
            &self.policy_fc,
            self.head_features(tape, true),
            logit_grad,
            samples,
            grads,
            Some(&mut policy_features_grad),
        );
        match &self.shape {
            Shape::Mlp { hidden } => {
                let mut grad = policy_features_grad;
                add(&mut grad, &value_features_grad);
                for (index, layer) in hidden.iter().enumerate().rev() {
                    relu_backward(&mut grad, &tape.trunk[index]);
                    let input = if index == 0 {
                        &tape.input
                    } else {
                        &tape.trunk[index - 1]
                    };
                    let mut input_grad = vec![0.0; samples * layer.inputs];
                    linear_backward(
                        params,
                        layer,
                        input,
                        &grad,
                        samples,
                        grads,
                        (index > 0).then_some(&mut input_grad[..]),
                    );
                    grad = input_grad;
                }
            }
            Shape::Residual {
                height,
                width,
                stem,
                blocks,
                policy_conv,
                value_conv,
                ..
            } => {
                let grid = Grid {
                    height: *height,
                    width: *width,
                    samples,
                };
                let columns = grid.columns();
                let size = stem.outputs * columns;
                let last = tape.trunk.len() - 1;
                let mut grad = std::mem::take(&mut tape.grad);
                grad.clear();
                grad.resize(size, 0.0);
                for (index, (conv, features, features_grad)) in [
                    (
                        policy_conv,
                        &tape.policy_features,
                        &mut policy_features_grad,
                    ),
                    (value_conv, &tape.value_features, &mut value_features_grad),
                ]
                .into_iter()
                .enumerate()
                {
                    relu_backward(features_grad, features);
                    let mut head_grad = vec![0.0; conv.outputs * columns];
                    regroup(features_grad, &mut head_grad, conv.outputs, grid, true);
                    conv_weight_backward(conv, &tape.trunk[last], &head_grad, columns, grads);
                    conv_input_backward(params, conv, &head_grad, columns, &mut grad, index > 0);
                }
                let mut other = std::mem::take(&mut tape.grad_other);
                other.resize(size, 0.0);
                for (index, [conv1, conv2]) in blocks.iter().enumerate().rev() {
                    let (input, hidden, output) = (
                        &tape.trunk[2 * index],
                        &tape.trunk[2 * index + 1],
                        &tape.trunk[2 * index + 2],
                    );
                    relu_backward(&mut grad, output);
                    // The second convolution, from the first's output.
                    conv3x3_backward(
                        params,
                        conv2,
                        hidden,
                        &grad,
                        grid,
                        &mut tape.unfolded,
                        grads,
                    );
                    other.fill(0.0);
                    fold(&tape.unfolded, stem.outputs, grid, &mut other);
                    relu_backward(&mut other, hidden);
                    // The first, from the block's input; the skip
                    // connection passes `grad` on as it is.
                    conv3x3_backward(
                        params,
                        conv1,
                        input,
                        &other,
                        grid,
                        &mut tape.unfolded,
                        grads,
                    );
                    fold(&tape.unfolded, stem.outputs, grid, &mut grad);
                }
                relu_backward(&mut grad, &tape.trunk[0]);
                let unfolded = sized(&mut tape.unfolded, stem.inputs * columns);
                unfold(&tape.input, stem.inputs / 9, grid, unfolded);
                conv_weight_backward(stem, unfolded, &grad, columns, grads);
                tape.grad = grad;
                tape.grad_other = other;
            }
        }
    }
}

/// A 3x3 convolution's weight and bias gradients from its input and its
/// output's gradient, leaving its unfolded input's gradient in `unfolded`
/// (for [`fold`]).
fn conv3x3_backward(
    params: &[f32],
    layer: &Layer,
    input: &[f32],
    grad: &[f32],
    grid: Grid,
    unfolded: &mut Vec<f32>,
    grads: &mut [f32],
) {
    let columns = grid.columns();
    let unfolded = sized(unfolded, layer.inputs * columns);
    unfold(input, layer.inputs / 9, grid, unfolded);
    conv_weight_backward(layer, unfolded, grad, columns, grads);
    conv_input_backward(params, layer, grad, columns, unfolded, false);
}
