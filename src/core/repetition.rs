//! The positions a repetition rule remembers, for the games that have one.

use smallvec::SmallVec;

/// The hashes of the positions since the last irreversible move (a capture,
/// a pawn move): only they can occur again. `N` of them are kept inline, so
/// that cloning a state for search rarely allocates.
///
/// Beside the list it keeps an order-free key of it (a sum of mixed hashes),
/// the part of [`Game::history_key`](super::Game::history_key) that a
/// repetition rule contributes: two states whose boards and keys agree have
/// the same repetitions ahead of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RepetitionHistory<const N: usize> {
    positions: SmallVec<[u64; N]>,
    key: u64,
}

impl<const N: usize> RepetitionHistory<N> {
    /// An empty history: no position seen yet.
    pub fn new() -> Self {
        RepetitionHistory {
            positions: SmallVec::new(),
            key: 0,
        }
    }

    /// Records the position `hash`, reached by a move; an irreversible move
    /// first forgets every earlier position, since none of them can recur.
    #[inline]
    pub fn remember(&mut self, hash: u64, irreversible: bool) {
        if irreversible {
            self.positions.clear();
            self.key = 0;
        }
        self.positions.push(hash);
        self.key = self.key.wrapping_add(scramble(hash));
    }

    /// How often the position `hash` has occurred, counting only positions
    /// with the same player to move as the latest one (every second entry
    /// from the end).
    pub fn occurrences(&self, hash: u64) -> usize {
        self.positions
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&seen| seen == hash)
            .count()
    }

    /// How often the position `hash` has occurred, counting every entry:
    /// for games where a player may move twice in a row (a berserk move in
    /// tafl), so that the players do not alternate entry by entry. The
    /// hash must tell the player to move apart.
    pub fn count(&self, hash: u64) -> usize {
        self.positions.iter().filter(|&&seen| seen == hash).count()
    }

    /// The order-free key of the remembered positions (`0` when none are).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }
}

/// A scramble of a position's hash, so that sums of related Zobrist keys
/// do not cancel as plain sums or XORs of them can.
#[inline]
pub fn scramble(hash: u64) -> u64 {
    super::zobrist::splitmix64(hash).1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_ignores_order_and_an_irreversible_move_resets_it() {
        let mut one = RepetitionHistory::<4>::new();
        let mut other = RepetitionHistory::<4>::new();
        for hash in [1, 2, 3] {
            one.remember(hash, false);
        }
        for hash in [3, 1, 2] {
            other.remember(hash, false);
        }
        assert_eq!(one.key(), other.key());
        other.remember(2, false);
        assert_ne!(one.key(), other.key());
        other.remember(9, true);
        one.remember(9, true);
        assert_eq!(one, other);
        assert_eq!(one.occurrences(9), 1);
    }

    #[test]
    fn occurrences_count_every_second_position_from_the_latest() {
        let mut history = RepetitionHistory::<2>::new();
        for hash in [5, 6, 5, 6, 5] {
            history.remember(hash, false);
        }
        assert_eq!(history.occurrences(5), 3);
        assert_eq!(history.occurrences(6), 0);
    }
}
