//! The kinds of piece, their letters, and sets of piece letters as the
//! rules string writes them (`tcnkTCNK`).

use super::board::Side;
use std::fmt;

/// What a piece is, beyond its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// An ordinary piece (`t`, "taflman").
    Taflman = 0,
    /// A commander (`c`): a taflman with the commanders' jump.
    Commander = 1,
    /// A knight (`n`): a taflman with the knights' jump.
    Knight = 2,
    /// The king (`K`), who escapes.
    King = 3,
    /// A mercenary (`m`): a taflman that changes side when captured.
    Mercenary = 4,
    /// A guard (`g`): it neither captures nor is captured.
    Guard = 5,
}

impl Kind {
    /// Every kind, in the order of the letters `tcnkmg`.
    pub const ALL: [Kind; 6] = [
        Kind::Taflman,
        Kind::Commander,
        Kind::Knight,
        Kind::King,
        Kind::Mercenary,
        Kind::Guard,
    ];

    /// The kinds that are marked apart from the taflmen on the board.
    pub const SPECIAL: [Kind; 4] = [Kind::Commander, Kind::Knight, Kind::Mercenary, Kind::Guard];

    /// The kind's name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Taflman => "taflman",
            Kind::Commander => "commander",
            Kind::Knight => "knight",
            Kind::King => "king",
            Kind::Mercenary => "mercenary",
            Kind::Guard => "guard",
        }
    }
}

/// The letters of the pieces, attackers (lower case) then defenders, each
/// in the kinds' order: the index of a piece is `side * 6 + kind`.
pub const LETTERS: &str = "tcnkmgTCNKMG";

/// A piece: its side and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose it is.
    pub side: Side,
    /// What it is.
    pub kind: Kind,
}

impl Piece {
    /// The piece's index among the twelve, in the order of [`LETTERS`].
    #[inline]
    pub const fn index(self) -> usize {
        self.side.player() * 6 + self.kind as usize
    }

    /// The piece of index `index` (below 12).
    pub const fn from_index(index: usize) -> Piece {
        Piece {
            side: Side::from_player(index / 6),
            kind: Kind::ALL[index % 6],
        }
    }

    /// The piece's letter.
    pub fn letter(self) -> char {
        LETTERS.as_bytes()[self.index()] as char
    }

    /// The piece a letter stands for.
    pub fn from_letter(letter: char) -> Option<Piece> {
        LETTERS.find(letter).map(Piece::from_index)
    }
}

/// A set of the twelve pieces, as a rules string lists them by letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PieceSet(u16);

impl PieceSet {
    /// No piece.
    pub const NONE: PieceSet = PieceSet(0);
    /// Every piece.
    pub const ALL: PieceSet = PieceSet(0xfff);
    /// The king alone.
    pub const KING: PieceSet = PieceSet(1 << (6 + Kind::King as usize));
    /// The attackers' pieces but their guards, `tcnkm`.
    pub const ATTACKERS_ARMED: PieceSet = PieceSet(0b01_1111);
    /// The defenders' pieces but their guards, `TCNKM`.
    pub const DEFENDERS_ARMED: PieceSet = PieceSet(0b01_1111 << 6);
    /// Every defenders' piece, `TCNKMG`.
    pub const DEFENDERS: PieceSet = PieceSet(0b11_1111 << 6);

    /// Whether `piece` is in the set.
    #[inline]
    pub const fn contains(self, piece: Piece) -> bool {
        self.0 >> piece.index() & 1 != 0
    }

    /// Whether the piece of index `index` is in the set.
    #[inline]
    pub const fn has_index(self, index: usize) -> bool {
        self.0 >> index & 1 != 0
    }

    /// Reads letters of [`LETTERS`] (each at most once is not required).
    ///
    /// # Errors
    /// The first character that is no piece letter.
    pub fn parse(text: &str) -> Result<PieceSet, char> {
        let mut set = 0;
        for letter in text.chars() {
            let piece = Piece::from_letter(letter).ok_or(letter)?;
            set |= 1 << piece.index();
        }
        Ok(PieceSet(set))
    }
}

impl fmt::Display for PieceSet {
    /// The letters in the order of [`LETTERS`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, letter) in LETTERS.chars().enumerate() {
            if self.has_index(index) {
                write!(f, "{letter}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_and_indices_agree() {
        for (index, letter) in LETTERS.chars().enumerate() {
            let piece = Piece::from_letter(letter).unwrap();
            assert_eq!(piece.index(), index);
            assert_eq!(piece.letter(), letter);
            assert_eq!(Piece::from_index(index), piece);
        }
        assert_eq!(PieceSet::parse("tcnkm").unwrap(), PieceSet::ATTACKERS_ARMED);
        assert_eq!(PieceSet::parse("TCNKM").unwrap(), PieceSet::DEFENDERS_ARMED);
        assert_eq!(PieceSet::parse("K").unwrap(), PieceSet::KING);
        assert_eq!(PieceSet::parse(LETTERS).unwrap(), PieceSet::ALL);
        assert_eq!(PieceSet::parse("Kt").unwrap().to_string(), "tK");
        assert_eq!(PieceSet::parse("tx"), Err('x'));
    }
}
