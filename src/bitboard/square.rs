use std::fmt;

/// A square index on a board of up to 256 squares, counted along ranks from
/// the first square of the first rank (`index = rank * width + file`).
///
/// The index alone does not know the board's width; a [`Grid`](super::Grid)
/// turns it into a file and a rank.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square(u8);

impl Square {
    /// The square with this index.
    #[inline]
    pub const fn new(index: u8) -> Self {
        Square(index)
    }

    /// The index as a `usize`, for table look-ups.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The raw index.
    #[inline]
    pub const fn raw(self) -> u8 {
        self.0
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.0)
    }
}
