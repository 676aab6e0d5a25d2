//! Sets of squares for every board of the family, one bit per square index.
//!
//! The boards run from 7x7 (49 squares) to 19x19 (361), more than the
//! crate's [`Bitboard256`](crate::bitboard::Bitboard256) and its one-byte
//! square index hold. A board takes the narrowest set it fits in: a `u64`
//! for 7x7 (the board learned agents train on), a `u128` for 9x9 and
//! 11x11, four words for 13x13 and 15x15, six for 17x17 and 19x19. The
//! engine is written once over [`Bits`] and compiled for each width, so a
//! small board never pays for the words of a large one.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of square indices (`index = rank * dim + file`).
pub trait Bits:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The number of squares the set can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;
    /// The set of `index` alone.
    fn bit(index: usize) -> Self;
    /// Whether `index` is in the set.
    fn has(self, index: usize) -> bool;
    /// The number of squares in the set.
    fn count(self) -> u32;
    /// Whether the set holds no square.
    fn is_empty(self) -> bool;
    /// The lowest index in a set that is not empty.
    fn lowest(self) -> usize;
    /// The highest index in a set that is not empty.
    fn highest(self) -> usize;
    /// Every index moved up by `by` (indices past the top are lost).
    fn up(self, by: u32) -> Self;
    /// Every index moved down by `by` (indices below 0 are lost).
    fn down(self, by: u32) -> Self;

    /// Whether the set holds at least one square.
    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// The set with `index` added.
    #[inline]
    fn with(self, index: usize) -> Self {
        self | Self::bit(index)
    }

    /// The set with `index` removed.
    #[inline]
    fn without(self, index: usize) -> Self {
        self & !Self::bit(index)
    }

    /// Whether the two sets share a square.
    #[inline]
    fn meets(self, other: Self) -> bool {
        (self & other).any()
    }

    /// The indices of the set, lowest first.
    #[inline]
    fn squares(self) -> Indices<Self> {
        Indices(self)
    }

    /// The set of the given indices.
    fn of(indices: impl IntoIterator<Item = usize>) -> Self {
        indices.into_iter().fold(Self::EMPTY, Self::with)
    }
}

/// The indices of a set, lowest first.
pub struct Indices<B>(B);

impl<B: Bits> Iterator for Indices<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let index = self.0.lowest();
        self.0 = self.0.without(index);
        Some(index)
    }
}

macro_rules! native_bits {
    ($integer:ty) => {
        impl Bits for $integer {
            const CAPACITY: usize = <$integer>::BITS as usize;
            const EMPTY: Self = 0;

            #[inline]
            fn bit(index: usize) -> Self {
                1 << index
            }

            #[inline]
            fn has(self, index: usize) -> bool {
                self >> index & 1 != 0
            }

            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }

            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }

            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }

            #[inline]
            fn highest(self) -> usize {
                (<$integer>::BITS - 1 - self.leading_zeros()) as usize
            }

            #[inline]
            fn up(self, by: u32) -> Self {
                self.checked_shl(by).unwrap_or(0)
            }

            #[inline]
            fn down(self, by: u32) -> Self {
                self.checked_shr(by).unwrap_or(0)
            }
        }
    };
}

native_bits!(u64);
native_bits!(u128);

/// A set of `64 * N` squares as `N` words, word 0 holding indices 0..64.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Words<const N: usize>(pub [u64; N]);

impl<const N: usize> Words<N> {
    /// The set whose words are `op` of the two sets' words.
    #[inline]
    fn zip(self, other: Self, op: impl Fn(u64, u64) -> u64) -> Self {
        Words(std::array::from_fn(|word| op(self.0[word], other.0[word])))
    }
}

impl<const N: usize> Debug for Words<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Words({:x?})", self.0)
    }
}

impl<const N: usize> Bits for Words<N> {
    const CAPACITY: usize = 64 * N;
    const EMPTY: Self = Words([0; N]);

    #[inline]
    fn bit(index: usize) -> Self {
        let mut words = [0; N];
        words[index / 64] = 1 << (index % 64);
        Words(words)
    }

    #[inline]
    fn has(self, index: usize) -> bool {
        self.0[index / 64] >> (index % 64) & 1 != 0
    }

    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|word| word.count_ones()).sum()
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().fold(0, |all, word| all | word) == 0
    }

    #[inline]
    fn lowest(self) -> usize {
        for (index, word) in self.0.iter().enumerate() {
            if *word != 0 {
                return index * 64 + word.trailing_zeros() as usize;
            }
        }
        Self::CAPACITY
    }

    #[inline]
    fn highest(self) -> usize {
        for (index, word) in self.0.iter().enumerate().rev() {
            if *word != 0 {
                return index * 64 + 63 - word.leading_zeros() as usize;
            }
        }
        Self::CAPACITY
    }

    #[inline]
    fn up(self, by: u32) -> Self {
        let (whole, bits) = ((by / 64) as usize, by % 64);
        Words(std::array::from_fn(|word| {
            if word < whole {
                return 0;
            }
            let source = word - whole;
            let mut value = self.0[source] << bits;
            if bits > 0 && source > 0 {
                value |= self.0[source - 1] >> (64 - bits);
            }
            value
        }))
    }

    #[inline]
    fn down(self, by: u32) -> Self {
        let (whole, bits) = ((by / 64) as usize, by % 64);
        Words(std::array::from_fn(|word| {
            let source = word + whole;
            if source >= N {
                return 0;
            }
            let mut value = self.0[source] >> bits;
            if bits > 0 && source + 1 < N {
                value |= self.0[source + 1] << (64 - bits);
            }
            value
        }))
    }
}

macro_rules! word_operators {
    ($($trait:ident $method:ident $assign_trait:ident $assign_method:ident $op:tt),*) => {$(
        impl<const N: usize> $trait for Words<N> {
            type Output = Self;
            #[inline]
            fn $method(self, other: Self) -> Self {
                self.zip(other, |a, b| a $op b)
            }
        }
        impl<const N: usize> $assign_trait for Words<N> {
            #[inline]
            fn $assign_method(&mut self, other: Self) {
                *self = *self $op other;
            }
        }
    )*};
}

word_operators!(
    BitAnd bitand BitAndAssign bitand_assign &,
    BitOr bitor BitOrAssign bitor_assign |,
    BitXor bitxor BitXorAssign bitxor_assign ^
);

impl<const N: usize> Not for Words<N> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Words(self.0.map(|word| !word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The indices of a set, read bit by bit.
    fn indices<B: Bits>(set: B) -> Vec<usize> {
        (0..B::CAPACITY).filter(|&index| set.has(index)).collect()
    }

    fn check_width<B: Bits>() {
        let sample = [0, 1, 63, 64, 65, 127, B::CAPACITY / 2, B::CAPACITY - 1];
        let set = B::of(sample.iter().copied().filter(|&i| i < B::CAPACITY));
        let mut expected: Vec<usize> = sample
            .iter()
            .copied()
            .filter(|&i| i < B::CAPACITY)
            .collect();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(indices(set), expected);
        assert_eq!(set.squares().collect::<Vec<_>>(), expected);
        assert_eq!(set.count() as usize, expected.len());
        assert_eq!(set.lowest(), expected[0]);
        assert_eq!(set.highest(), *expected.last().unwrap());
        for by in [0u32, 1, 7, 19, 63, 64, 65, 130, 300] {
            let up: Vec<usize> = expected
                .iter()
                .map(|&i| i + by as usize)
                .filter(|&i| i < B::CAPACITY)
                .collect();
            assert_eq!(indices(set.up(by)), up, "up {by}");
            let down: Vec<usize> = expected
                .iter()
                .filter(|&&i| i >= by as usize)
                .map(|&i| i - by as usize)
                .collect();
            assert_eq!(indices(set.down(by)), down, "down {by}");
        }
        let other = B::of([1, 2, B::CAPACITY - 1]);
        assert_eq!(indices(set & other), vec![1, B::CAPACITY - 1]);
        assert_eq!((!set).count() as usize, B::CAPACITY - expected.len());
        assert!(set.meets(other) && !set.meets(other & !set));
        assert!(B::EMPTY.is_empty() && !set.is_empty());
    }

    #[test]
    fn every_width_agrees_with_a_set_of_indices() {
        check_width::<u64>();
        check_width::<u128>();
        check_width::<Words<4>>();
        check_width::<Words<6>>();
    }
}
