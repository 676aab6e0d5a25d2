//! What the states of both Thud games share: the layout of their Zobrist
//! keys and the hash computed from the pieces, and the accessors of the
//! fields both states have with the same meaning.

use super::board::Side;
use crate::bitboard::{Bitboard256, Square};
use crate::core::zobrist::zobrist_keys;

/// The Zobrist keys of a Thud game, `N` of them: one per square for a
/// dwarf (`0..256`), one per square for a troll (`256..512`), in Koom
/// Valley Thud one per square for the Rock (`512..768`), and the last for
/// "trolls to move". Classic Thud's Thudstone never moves and has no keys.
pub(crate) struct ZobristKeys<const N: usize>([u64; N]);

impl<const N: usize> ZobristKeys<N> {
    /// The keys drawn from `seed`; each game has its own seed.
    pub(crate) const fn new(seed: u64) -> Self {
        ZobristKeys(zobrist_keys(seed))
    }

    /// The key of a dwarf on `square`.
    #[inline]
    pub(crate) fn dwarf(&self, square: Square) -> u64 {
        self.0[square.index()]
    }

    /// The key of a troll on `square`.
    #[inline]
    pub(crate) fn troll(&self, square: Square) -> u64 {
        self.0[256 + square.index()]
    }

    /// The key of the Rock on `square` (Koom Valley Thud only).
    #[inline]
    pub(crate) fn rock(&self, square: Square) -> u64 {
        self.0[2 * 256 + square.index()]
    }

    /// The key XORed in while the trolls are to move.
    #[inline]
    pub(crate) fn trolls_to_move(&self) -> u64 {
        self.0[N - 1]
    }

    /// The hash of the two armies and the side to move, computed from
    /// scratch (the states update theirs move by move).
    pub(crate) fn armies(&self, dwarfs: Bitboard256, trolls: Bitboard256, to_move: Side) -> u64 {
        let mut hash = 0;
        for square in dwarfs.squares() {
            hash ^= self.dwarf(square);
        }
        for square in trolls.squares() {
            hash ^= self.troll(square);
        }
        if to_move == Side::Trolls {
            hash ^= self.trolls_to_move();
        }
        hash
    }
}

/// The accessors of the fields both Thud states have (`dwarfs`, `trolls`,
/// `to_move`, `quiet_plies`, `ending`), written once for both.
macro_rules! army_accessors {
    ($ending:ty) => {
        /// The squares of the dwarfs.
        pub fn dwarfs(&self) -> Bitboard256 {
            self.dwarfs
        }

        /// The squares of the trolls.
        pub fn trolls(&self) -> Bitboard256 {
            self.trolls
        }

        /// The side whose turn it is.
        pub fn side_to_move(&self) -> Side {
            self.to_move
        }

        /// Plies since the last capture (in Koom Valley Thud, since the
        /// last capture or Rock move): the no-capture limit counts them.
        pub fn quiet_plies(&self) -> u32 {
            self.quiet_plies
        }

        /// Why the game ended, if it has.
        pub fn ending(&self) -> Option<$ending> {
            self.ending
        }
    };
}

pub(crate) use army_accessors;
