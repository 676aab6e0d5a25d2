use super::Square;
use super::set::set_operators;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares on a board of at most 256 squares (the 15x15 Thud board),
/// one bit per square index, stored as four 64-bit words (word 0 holds
/// squares 0..64). The methods have the same names and meaning as those of
/// [`Bitboard128`](super::Bitboard128).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard256(pub [u64; 4]);

impl Bitboard256 {
    /// The set of no squares.
    pub const EMPTY: Bitboard256 = Bitboard256([0; 4]);

    /// The set holding only `square`.
    #[inline]
    pub const fn from_square(square: Square) -> Self {
        Bitboard256::EMPTY.with(square)
    }

    /// The set of the given squares.
    pub const fn from_squares(squares: &[Square]) -> Self {
        let mut set = Bitboard256::EMPTY;
        let mut i = 0;
        while i < squares.len() {
            set = set.with(squares[i]);
            i += 1;
        }
        set
    }

    /// The set of the first `n` squares (`0..n`).
    pub const fn first_n(n: usize) -> Self {
        let mut words = [0u64; 4];
        let mut word = 0;
        while word < 4 {
            let start = word * 64;
            words[word] = if n >= start + 64 {
                u64::MAX
            } else if n <= start {
                0
            } else {
                (1 << (n - start)) - 1
            };
            word += 1;
        }
        Bitboard256(words)
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        let index = square.index();
        self.0[index / 64] >> (index % 64) & 1 != 0
    }

    /// The set with `square` added (unchanged if it was there).
    #[inline]
    pub const fn with(self, square: Square) -> Self {
        let index = square.index();
        let mut words = self.0;
        words[index / 64] |= 1 << (index % 64);
        Bitboard256(words)
    }

    /// The set with `square` removed (unchanged if it was not there).
    #[inline]
    pub const fn without(self, square: Square) -> Self {
        let index = square.index();
        let mut words = self.0;
        words[index / 64] &= !(1 << (index % 64));
        Bitboard256(words)
    }

    /// Whether the set holds no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    /// Whether the set holds at least one square: the opposite of `is_empty`.
    #[inline]
    pub const fn any(self) -> bool {
        !self.is_empty()
    }

    /// Whether the two sets share at least one square.
    #[inline]
    pub const fn intersects(self, other: Bitboard256) -> bool {
        (self.0[0] & other.0[0])
            | (self.0[1] & other.0[1])
            | (self.0[2] & other.0[2])
            | (self.0[3] & other.0[3])
            != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// The square with the lowest index.
    #[inline]
    pub const fn lowest(self) -> Option<Square> {
        let mut word = 0;
        while word < 4 {
            if self.0[word] != 0 {
                let index = word * 64 + self.0[word].trailing_zeros() as usize;
                return Some(Square::new(index as u8));
            }
            word += 1;
        }
        None
    }

    /// The square with the highest index.
    #[inline]
    pub const fn highest(self) -> Option<Square> {
        let mut word = 4;
        while word > 0 {
            word -= 1;
            if self.0[word] != 0 {
                let index = word * 64 + 63 - self.0[word].leading_zeros() as usize;
                return Some(Square::new(index as u8));
            }
        }
        None
    }

    /// The squares in increasing order of index.
    #[inline]
    pub fn squares(self) -> Squares256 {
        Squares256 {
            words: self.0,
            word: 0,
        }
    }

    /// Every square shifted `by` indices upwards (bits pushed past 255 are lost).
    #[inline]
    pub const fn shift_up(self, by: u32) -> Self {
        let (whole, bits) = ((by / 64) as usize, by % 64);
        let mut words = [0u64; 4];
        let mut word = 4;
        while word > whole {
            word -= 1;
            let source = word - whole;
            let mut value = self.0[source] << bits;
            if bits > 0 && source > 0 {
                value |= self.0[source - 1] >> (64 - bits);
            }
            words[word] = value;
        }
        Bitboard256(words)
    }

    /// Every square shifted `by` indices downwards (bits pushed below 0 are lost).
    #[inline]
    pub const fn shift_down(self, by: u32) -> Self {
        let (whole, bits) = ((by / 64) as usize, by % 64);
        let mut words = [0u64; 4];
        let mut word = 0;
        while word + whole < 4 {
            let source = word + whole;
            let mut value = self.0[source] >> bits;
            if bits > 0 && source < 3 {
                value |= self.0[source + 1] << (64 - bits);
            }
            words[word] = value;
            word += 1;
        }
        Bitboard256(words)
    }

    /// The set whose bits are `op` of the two sets' bits, word by word.
    #[inline]
    fn zip_words(self, rhs: Bitboard256, op: impl Fn(u64, u64) -> u64) -> Self {
        Bitboard256([
            op(self.0[0], rhs.0[0]),
            op(self.0[1], rhs.0[1]),
            op(self.0[2], rhs.0[2]),
            op(self.0[3], rhs.0[3]),
        ])
    }

    /// The set and `other` combined, usable in constants.
    #[inline]
    pub const fn union(self, other: Bitboard256) -> Self {
        Bitboard256([
            self.0[0] | other.0[0],
            self.0[1] | other.0[1],
            self.0[2] | other.0[2],
            self.0[3] | other.0[3],
        ])
    }
}

/// Iterator over the squares of a [`Bitboard256`], lowest index first.
pub struct Squares256 {
    words: [u64; 4],
    word: usize,
}

impl Iterator for Squares256 {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.word < 4 {
            let bits = self.words[self.word];
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1);
                let index = self.word * 64 + bits.trailing_zeros() as usize;
                return Some(Square::new(index as u8));
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = Bitboard256(self.words).count() as usize;
        (n, Some(n))
    }
}

set_operators!(Bitboard256, Squares256);

impl fmt::Debug for Bitboard256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Bitboard256({:#x}, {:#x}, {:#x}, {:#x})",
            self.0[0], self.0[1], self.0[2], self.0[3]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain set of indices to check the bit operations against.
    fn indices(set: Bitboard256) -> Vec<usize> {
        set.squares().map(Square::index).collect()
    }

    #[test]
    fn single_bits_land_in_every_word() {
        for index in [0usize, 63, 64, 127, 128, 200, 255] {
            let set = Bitboard256::from_square(Square::new(index as u8));
            assert_eq!(indices(set), vec![index]);
            assert_eq!(set.lowest(), Some(Square::new(index as u8)));
            assert_eq!(set.highest(), Some(Square::new(index as u8)));
            assert!(set.without(Square::new(index as u8)).is_empty());
        }
        assert_eq!(Bitboard256::EMPTY.lowest(), None);
        assert_eq!(Bitboard256::EMPTY.highest(), None);
    }

    #[test]
    fn first_n_counts_across_word_boundaries() {
        for n in [0usize, 1, 63, 64, 65, 128, 225, 255, 256, 300] {
            assert_eq!(Bitboard256::first_n(n).count() as usize, n.min(256), "{n}");
        }
    }

    #[test]
    fn shifts_move_every_bit_by_the_same_amount() {
        let set: Bitboard256 = [0u8, 5, 63, 64, 100, 127, 128, 191, 250]
            .into_iter()
            .map(Square::new)
            .collect();
        for by in [0u32, 1, 14, 15, 16, 63, 64, 65, 130, 255] {
            let expected_up: Vec<usize> = indices(set)
                .into_iter()
                .map(|i| i + by as usize)
                .filter(|&i| i < 256)
                .collect();
            assert_eq!(indices(set.shift_up(by)), expected_up, "up {by}");
            let expected_down: Vec<usize> = indices(set)
                .into_iter()
                .filter(|&i| i >= by as usize)
                .map(|i| i - by as usize)
                .collect();
            assert_eq!(indices(set.shift_down(by)), expected_down, "down {by}");
        }
    }

    #[test]
    fn operators_agree_with_set_logic() {
        let a: Bitboard256 = [1u8, 70, 130, 200].into_iter().map(Square::new).collect();
        let b: Bitboard256 = [70u8, 131, 200, 254].into_iter().map(Square::new).collect();
        assert_eq!(indices(a & b), vec![70, 200]);
        assert_eq!(indices(a | b), vec![1, 70, 130, 131, 200, 254]);
        assert_eq!(indices(a ^ b), vec![1, 130, 131, 254]);
        assert_eq!((!a).count(), 252);
        assert!(a.intersects(b));
        assert!(!a.intersects(b ^ (a & b)));
        assert_eq!(a.union(b), a | b);
    }
}
