//! A network as the guided search's evaluator of tensors.
//!
//! Kept here, small, until the network guides a search by itself (a
//! `TensorEvaluator` implementation of `net::Network`, with one value
//! layout type shared by the search and the networks); training then
//! hands the search its network directly.

use crate::net::{self, Network};
use crate::search::guided::{EvaluationError, TensorEvaluator, ValueLayout};
use std::borrow::Borrow;

/// The search's name of a network's value layout.
pub(super) fn search_layout(layout: net::ValueLayout) -> ValueLayout {
    match layout {
        net::ValueLayout::ToMove => ValueLayout::ToMove,
        net::ValueLayout::Team => ValueLayout::Team,
        net::ValueLayout::PerPlayer(players) => ValueLayout::PerPlayer(players),
    }
}

/// A network, owned or borrowed, answering for a search's leaves with
/// [`Network::forward`] (the masks unread: the search reads only the
/// legal ids' logits).
pub(super) struct NetworkEvaluator<N>(pub(super) N);

impl<N: Borrow<Network> + Send> TensorEvaluator for NetworkEvaluator<N> {
    fn layout(&self) -> ValueLayout {
        search_layout(self.0.borrow().description().value_layout)
    }

    fn evaluate(
        &mut self,
        observations: &[f32],
        _masks: &[u8],
        batch: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvaluationError> {
        self.0
            .borrow()
            .forward(observations, batch, logits, values)
            .map_err(|error| EvaluationError::new(error.to_string()))
    }
}
