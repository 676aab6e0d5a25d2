//! The path: its tiles, their colours, and sets of tiles as bits.

use serde::Serialize;
use std::fmt;

/// The Odin tile: the first tile of the path, where the wolf wins and where
/// gods caught by the wolf are sent.
pub const ODIN: u8 = 0;

/// The most colours (and gods) a configuration can have.
pub const MAX_COLOURS: usize = 4;

/// The most tiles a path can have besides the Odin tile, so that a set of
/// tiles fits in the low 25 bits of a `u32`.
pub const MAX_TILES: usize = 24;

/// The colour of a god and of the fetter tiles it collects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// The first colour, index 0: always in the game.
    Red = 0,
    /// The second colour, index 1: always in the game.
    Blue = 1,
    /// The third colour, index 2: in games of three or four colours.
    Green = 2,
    /// The fourth colour, index 3: in games of four colours.
    Yellow = 3,
}

impl Colour {
    /// Every colour, in the order a game with fewer colours takes them.
    pub const ALL: [Colour; MAX_COLOURS] =
        [Colour::Red, Colour::Blue, Colour::Green, Colour::Yellow];

    /// The colour with index `index` (0 red .. 3 yellow).
    ///
    /// # Panics
    /// If `index` is 4 or more.
    pub fn from_index(index: usize) -> Colour {
        Colour::ALL[index]
    }

    /// The index of the colour, 0 red .. 3 yellow: its place in [`Colour::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter used in deals and moves: `R`, `B`, `G` or `Y`.
    pub fn letter(self) -> char {
        ['R', 'B', 'G', 'Y'][self.index()]
    }

    /// Reads a colour letter in either case.
    pub fn from_letter(letter: char) -> Option<Colour> {
        match letter.to_ascii_uppercase() {
            'R' => Some(Colour::Red),
            'B' => Some(Colour::Blue),
            'G' => Some(Colour::Green),
            'Y' => Some(Colour::Yellow),
            _ => None,
        }
    }

    /// The colour's name in lower case (`red`), as `Display` writes it.
    pub fn name(self) -> &'static str {
        ["red", "blue", "green", "yellow"][self.index()]
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The set containing only `tile`.
#[inline]
pub const fn tile_bit(tile: u8) -> u32 {
    1 << tile
}

/// The tiles `low..=high` (empty when `low > high`).
#[inline]
pub const fn tile_range(low: u8, high: u8) -> u32 {
    if low > high {
        0
    } else {
        (u32::MAX >> (31 - high)) & (u32::MAX << low)
    }
}

/// The tiles of a set, in increasing order.
pub fn tiles_of(mut set: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let tile = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(tile)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_ranges_cover_exactly_their_tiles() {
        assert_eq!(tile_range(0, 0), 1);
        assert_eq!(tile_range(2, 4), 0b11100);
        assert_eq!(tile_range(5, 4), 0);
        assert_eq!(tile_range(0, 31), u32::MAX);
        assert_eq!(tiles_of(0b10110).collect::<Vec<_>>(), vec![1, 2, 4]);
    }
}
