//! Stopping a search from outside it: the program that runs a search (a
//! Python call that sees Ctrl-C, say) raises a flag, and the search, which
//! checks it between iterations, at each depth and every few hundred nodes,
//! returns what it found so far.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag that ends a search early once raised; the default is never
/// raised. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Option<Arc<AtomicBool>>);

impl StopFlag {
    /// A flag that stops the searches it is given once `raised` is true.
    pub fn new(raised: Arc<AtomicBool>) -> Self {
        StopFlag(Some(raised))
    }

    /// Whether the search should stop now.
    pub fn raised(&self) -> bool {
        self.0
            .as_ref()
            .is_some_and(|raised| raised.load(Ordering::Relaxed))
    }
}
