//! Reusable move lists.

use std::ops::Deref;

/// A list of moves that searchers keep and refill, one per depth, so that move
/// generation does not allocate once the lists have grown to their working size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveList<M> {
    moves: Vec<M>,
}

impl<M> MoveList<M> {
    /// An empty list.
    pub fn new() -> Self {
        MoveList { moves: Vec::new() }
    }

    /// An empty list with room for `capacity` moves.
    pub fn with_capacity(capacity: usize) -> Self {
        MoveList {
            moves: Vec::with_capacity(capacity),
        }
    }

    /// Removes every move and keeps the storage.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: M) {
        self.moves.push(mv);
    }

    /// The moves as a mutable slice, e.g. to sort them for search.
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves
    }
}

impl<M> Deref for MoveList<M> {
    type Target = [M];

    fn deref(&self) -> &[M] {
        &self.moves
    }
}

impl<'a, M> IntoIterator for &'a MoveList<M> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;

    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

impl<M> Extend<M> for MoveList<M> {
    fn extend<I: IntoIterator<Item = M>>(&mut self, iter: I) {
        self.moves.extend(iter);
    }
}
