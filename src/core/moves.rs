//! Reusable move lists, and the sinks that move generation writes to.

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

/// Where move generation puts moves: a [`MoveList`] keeps them, a
/// [`MoveCounter`] only counts them (perft's bulk counting of the last ply).
/// One generator written against a sink serves both, and the counter never
/// builds the moves it counts.
pub trait MoveSink<M> {
    /// Adds `count` moves, the items of `moves`. A counter reads only
    /// `count`, so `moves` should be a lazy iterator.
    fn add(&mut self, count: usize, moves: impl IntoIterator<Item = M>);

    /// Adds one move.
    fn push_move(&mut self, mv: M) {
        self.add(1, [mv]);
    }
}

impl<M> MoveSink<M> for MoveList<M> {
    #[inline]
    fn add(&mut self, count: usize, moves: impl IntoIterator<Item = M>) {
        let before = self.moves.len();
        // `for_each` rather than a `for` loop: an adapter such as `map` then
        // runs its closure apart from the iterator it wraps, so what the
        // closure captures can stay in registers.
        moves.into_iter().for_each(|mv| self.moves.push(mv));
        debug_assert_eq!(
            self.moves.len() - before,
            count,
            "a sink was told a wrong count"
        );
    }

    #[inline]
    fn push_move(&mut self, mv: M) {
        self.moves.push(mv);
    }
}

/// A sink that counts moves without building them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveCounter(pub usize);

impl<M> MoveSink<M> for MoveCounter {
    #[inline]
    fn add(&mut self, count: usize, _moves: impl IntoIterator<Item = M>) {
        self.0 += count;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A generator written once against a sink.
    fn evens(sink: &mut impl MoveSink<u32>, below: u32) {
        sink.add(below.div_ceil(2) as usize, (0..below).step_by(2));
        sink.push_move(99);
    }

    #[test]
    fn a_list_keeps_and_a_counter_counts_the_same_moves() {
        let mut list = MoveList::new();
        evens(&mut list, 7);
        assert_eq!(&list[..], &[0, 2, 4, 6, 99]);
        let mut counter = MoveCounter::default();
        evens(&mut counter, 7);
        assert_eq!(counter.0, list.len());
    }
}
