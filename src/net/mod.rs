//! Policy-value networks on the CPU: the networks that guide a search and
//! that self-play trains.
//!
//! A network reads a game as [`crate::learning`] presents it: an
//! observation tensor in, logits over the game's fixed action ids and
//! values out. Observations of shape `[C, H, W]` (the board games) go
//! through a small residual convolutional network, any other shape through
//! a multilayer perceptron over the flattened observation
//! ([`Architecture`]); [`NetOptions`] choose the sizes.
//!
//! - [`NetDescription`]: the game, the shapes and the architecture, as
//!   JSON; [`ValueLayout`]: what the values mean (the guided search's
//!   type, re-exported).
//! - [`Network`]: [`init`](Network::init) from a seed,
//!   [`forward`](Network::forward) over a batch on CPU threads,
//!   [`save`](Network::save) and [`load`](Network::load) as safetensors.
//! - [`Trainer`]: policy cross-entropy and value error, their gradients,
//!   and AdamW steps, checkpointed with the optimizer's state.
//!
//! # Same outputs in any batch
//!
//! A batched search evaluates a position in whatever batch its round
//! gathers, on however many threads; its results must not depend on that.
//! So a sample's outputs here are bitwise the same for any batch size, any
//! place in the batch and any thread count (on one machine: another
//! processor's vector instructions may round differently). Two choices
//! give it:
//!
//! - No batch normalisation, nor any layer that mixes samples. A residual
//!   network without normalisation starts stable through its
//!   initialisation instead: each block's last convolution is drawn small
//!   (scaled by `1 / sqrt(blocks)`, as Fixup does), so the blocks add
//!   little to the trunk at first and the activations keep their scale
//!   through any depth.
//! - Matrix products whose sums run in an order fixed by the layer's shape:
//!   `matrixmultiply`, which sums the inner dimension in fixed blocks,
//!   each in order, whatever the other dimensions, where tensor frameworks
//!   pick their kernels and blockings by the batch's size. Tests check the
//!   bits for batches of 1 to 37 samples at every place, on 1 to 3
//!   threads.
//!
//! Training sums the gradients of fixed chunks of 16 samples and adds the
//! chunks in order, so a step's result, too, does not depend on the thread
//! count.

mod description;
mod file;
mod network;
mod ops;
mod pass;
mod train;

/// What a network knows of its game and how it lays out its values: the
/// guided search's own types, which every evaluator shares.
pub use crate::search::guided::{GameShape, ValueLayout};
pub use description::{
    Architecture, Init, NET_FORMAT, NetDescription, NetKind, NetOptions, TensorSpec,
};
pub use file::{DESCRIPTION_KEY, read_network_file};
pub use network::Network;
pub use train::{Losses, TrainConfig, Trainer, TrainingBatch};

use std::fmt;
use std::path::Path;

/// Why a network could not be built, read, written, run or trained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// A file that cannot be read or written.
    Io(String),
    /// Bytes that are not a network file: not safetensors, no description.
    Format(String),
    /// A description that is invalid or does not fit the game.
    Description(String),
    /// Weights that do not match the description: missing, extra,
    /// mis-shaped or not finite.
    Weights(String),
    /// A network for another game, other rules or another shape.
    WrongGame(String),
    /// Inputs of the wrong size, or values that are not finite.
    Input(String),
    /// More memory than the machine allows.
    Memory(String),
    /// A thread count the machine cannot give.
    Threads(String),
    /// A training batch or setting that cannot be used.
    Training(String),
}

impl NetError {
    /// The same error, saying which file it is about.
    fn in_file(self, path: &Path) -> NetError {
        let name = crate::core::escape_control(&path.display().to_string());
        match self {
            NetError::Format(text) => NetError::Format(format!("{name}: {text}")),
            NetError::Description(text) => NetError::Description(format!("{name}: {text}")),
            NetError::Weights(text) => NetError::Weights(format!("{name}: {text}")),
            other => other,
        }
    }
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, text) = match self {
            NetError::Io(text) => ("cannot use the file", text),
            NetError::Format(text) => ("not a network file", text),
            NetError::Description(text) => ("bad network description", text),
            NetError::Weights(text) => ("bad network weights", text),
            NetError::WrongGame(text) => ("network of another game", text),
            NetError::Input(text) => ("bad network input", text),
            NetError::Memory(text) => ("not enough memory", text),
            NetError::Threads(text) => ("bad thread count", text),
            NetError::Training(text) => ("cannot train", text),
        };
        write!(f, "{what}: {}", crate::core::escape_control(text))
    }
}

impl std::error::Error for NetError {}

#[cfg(test)]
mod tests;
