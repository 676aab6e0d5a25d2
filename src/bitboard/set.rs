use super::{Bitboard128, Bitboard256, Square};
use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The operations [`Bitboard128`] and [`Bitboard256`] share, so that the
/// board helpers ([`Geometry`](super::Geometry), [`Rays`](super::Rays),
/// [`Leaps`](super::Leaps)) are written once for both widths.
///
/// Each method is the inherent method of the same name; generic code is
/// monomorphised and inlined, so it costs the same as the inherent call.
pub trait Bitboard:
    Copy
    + Eq
    + Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// The set holding only `square`.
    fn from_square(square: Square) -> Self;
    /// Whether `square` is in the set.
    fn contains(self, square: Square) -> bool;
    /// The set with `square` added.
    fn with(self, square: Square) -> Self;
    /// Whether the set has no square.
    fn is_empty(self) -> bool;
    /// The number of squares in the set.
    fn count(self) -> u32;
    /// The square with the lowest index.
    fn lowest(self) -> Option<Square>;
    /// The square with the highest index.
    fn highest(self) -> Option<Square>;
    /// Every square shifted `by` indices upwards (bits pushed past the top are lost).
    fn shift_up(self, by: u32) -> Self;
    /// Every square shifted `by` indices downwards (bits pushed below 0 are lost).
    fn shift_down(self, by: u32) -> Self;
}

macro_rules! delegate_to_inherent {
    ($bitboard:ident) => {
        impl Bitboard for $bitboard {
            const EMPTY: Self = $bitboard::EMPTY;
            #[inline]
            fn from_square(square: Square) -> Self {
                $bitboard::from_square(square)
            }
            #[inline]
            fn contains(self, square: Square) -> bool {
                $bitboard::contains(self, square)
            }
            #[inline]
            fn with(self, square: Square) -> Self {
                $bitboard::with(self, square)
            }
            #[inline]
            fn is_empty(self) -> bool {
                $bitboard::is_empty(self)
            }
            #[inline]
            fn count(self) -> u32 {
                $bitboard::count(self)
            }
            #[inline]
            fn lowest(self) -> Option<Square> {
                $bitboard::lowest(self)
            }
            #[inline]
            fn highest(self) -> Option<Square> {
                $bitboard::highest(self)
            }
            #[inline]
            fn shift_up(self, by: u32) -> Self {
                $bitboard::shift_up(self, by)
            }
            #[inline]
            fn shift_down(self, by: u32) -> Self {
                $bitboard::shift_down(self, by)
            }
        }
    };
}

delegate_to_inherent!(Bitboard128);
delegate_to_inherent!(Bitboard256);

/// The set operators (`&`, `|`, `^`, their assigning forms and `!`), collecting
/// squares into a set and the exact size of the square iterator, for a
/// bitboard type whose `zip_words` applies an operation word by word.
macro_rules! set_operators {
    ($bitboard:ident, $squares:ident) => {
        set_operators!(@binary $bitboard,
            BitAnd bitand BitAndAssign bitand_assign &,
            BitOr bitor BitOrAssign bitor_assign |,
            BitXor bitxor BitXorAssign bitxor_assign ^
        );

        impl Not for $bitboard {
            type Output = $bitboard;
            #[inline]
            fn not(self) -> $bitboard {
                // Each word complemented: the second operand goes unused.
                self.zip_words(self, |word, _| !word)
            }
        }

        impl ExactSizeIterator for $squares {}

        impl FromIterator<Square> for $bitboard {
            fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
                iter.into_iter().fold($bitboard::EMPTY, $bitboard::with)
            }
        }
    };
    (@binary $bitboard:ident, $($trait:ident $method:ident $assign_trait:ident $assign_method:ident $op:tt),*) => {$(
        impl $trait for $bitboard {
            type Output = $bitboard;
            #[inline]
            fn $method(self, rhs: $bitboard) -> $bitboard {
                self.zip_words(rhs, |a, b| a $op b)
            }
        }
        impl $assign_trait for $bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: $bitboard) {
                *self = *self $op rhs;
            }
        }
    )*};
}

pub(super) use set_operators;
