use super::Square;
use super::set::set_operators;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares on a board of at most 128 squares (11x11 tafl, 10x8
/// stealth chess), one bit per square index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard128(pub u128);

impl Bitboard128 {
    /// The set of no squares.
    pub const EMPTY: Bitboard128 = Bitboard128(0);

    /// The set holding only `square`.
    #[inline]
    pub const fn from_square(square: Square) -> Self {
        Bitboard128(1 << square.index())
    }

    /// The set of the given squares.
    pub const fn from_squares(squares: &[Square]) -> Self {
        let mut bits = 0u128;
        let mut i = 0;
        while i < squares.len() {
            bits |= 1 << squares[i].index();
            i += 1;
        }
        Bitboard128(bits)
    }

    /// The set of the first `n` squares (`0..n`).
    pub const fn first_n(n: usize) -> Self {
        if n >= 128 {
            Bitboard128(u128::MAX)
        } else {
            Bitboard128((1 << n) - 1)
        }
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 >> square.index() & 1 != 0
    }

    /// The set with `square` added (unchanged if it was there).
    #[inline]
    pub const fn with(self, square: Square) -> Self {
        Bitboard128(self.0 | 1 << square.index())
    }

    /// The set with `square` removed (unchanged if it was not there).
    #[inline]
    pub const fn without(self, square: Square) -> Self {
        Bitboard128(self.0 & !(1 << square.index()))
    }

    /// Whether the set holds no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one square: the opposite of `is_empty`.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether the two sets share at least one square.
    #[inline]
    pub const fn intersects(self, other: Bitboard128) -> bool {
        self.0 & other.0 != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The square with the lowest index.
    #[inline]
    pub const fn lowest(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The square with the highest index.
    #[inline]
    pub const fn highest(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(127 - self.0.leading_zeros() as u8))
        }
    }

    /// The squares in increasing order of index.
    #[inline]
    pub fn squares(self) -> Squares128 {
        Squares128(self.0)
    }

    /// Every square shifted `by` indices upwards (bits pushed past 127 are lost).
    #[inline]
    pub const fn shift_up(self, by: u32) -> Self {
        Bitboard128(self.0 << by)
    }

    /// Every square shifted `by` indices downwards (bits pushed below 0 are lost).
    #[inline]
    pub const fn shift_down(self, by: u32) -> Self {
        Bitboard128(self.0 >> by)
    }

    /// The set whose bits are `op` of the two sets' bits.
    #[inline]
    fn zip_words(self, rhs: Bitboard128, op: impl Fn(u128, u128) -> u128) -> Self {
        Bitboard128(op(self.0, rhs.0))
    }
}

/// Iterator over the squares of a [`Bitboard128`], lowest index first.
pub struct Squares128(u128);

impl Iterator for Squares128 {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square::new(index as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

set_operators!(Bitboard128, Squares128);

impl fmt::Debug for Bitboard128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard128({:#x})", self.0)
    }
}
