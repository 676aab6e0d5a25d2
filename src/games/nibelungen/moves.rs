//! The characters, the pairs of player pieces chosen behind the screens,
//! and the move type.

use super::board::point_name;
use std::fmt;

/// A character (board piece), in sequence order: the order in which the
/// characters move within a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Character {
    /// Sequence 1, letter `G`; starts on 33 in Worms.
    Gunther = 0,
    /// Sequence 2, letter `K`; starts on 44 in Worms.
    Kriemhild = 1,
    /// Sequence 3, letter `H`; starts on 43 in Worms.
    Hagen = 2,
    /// Sequence 4, letter `S`; starts on 30 in Xanten.
    Siegfried = 3,
    /// Sequence 5, letter `B`; starts on 10 in Isen.
    Brunhild = 4,
}

impl Character {
    /// Every character in sequence order.
    pub const ALL: [Character; 5] = [
        Character::Gunther,
        Character::Kriemhild,
        Character::Hagen,
        Character::Siegfried,
        Character::Brunhild,
    ];

    /// The index `0..5` (the sequence number minus one).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter of the notation: `G K H S B`.
    pub const fn letter(self) -> char {
        match self {
            Character::Gunther => 'G',
            Character::Kriemhild => 'K',
            Character::Hagen => 'H',
            Character::Siegfried => 'S',
            Character::Brunhild => 'B',
        }
    }

    /// The character's name, capitalised (`Gunther`), as `Display` writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Character::Gunther => "Gunther",
            Character::Kriemhild => "Kriemhild",
            Character::Hagen => "Hagen",
            Character::Siegfried => "Siegfried",
            Character::Brunhild => "Brunhild",
        }
    }

    /// The character of a letter (upper or lower case).
    pub fn from_letter(letter: char) -> Option<Character> {
        Character::ALL
            .into_iter()
            .find(|character| character.letter() == letter.to_ascii_uppercase())
    }

    /// The bit of this character in a set of characters.
    #[inline]
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Character {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Two different player pieces chosen together, kept as a set of
/// characters (bit `i` is the character of index `i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair(u8);

impl Pair {
    /// Siegfried and Brunhild: in front of Tod's screen at the start, and
    /// never chosen together by a player choosing among all five.
    pub const SIEGFRIED_BRUNHILD: Pair = Pair::of(Character::Siegfried, Character::Brunhild);

    /// The pair of two different characters.
    ///
    /// # Panics
    /// If `first` and `second` are the same character.
    pub const fn of(first: Character, second: Character) -> Pair {
        assert!(first as u8 != second as u8, "a pair holds two characters");
        Pair(first.bit() | second.bit())
    }

    /// All ten pairs, in the order of their text (`GK GH GS GB KH ...`).
    pub fn all() -> impl Iterator<Item = Pair> {
        Character::ALL
            .into_iter()
            .enumerate()
            .flat_map(|(i, first)| {
                Character::ALL[i + 1..]
                    .iter()
                    .map(move |&second| Pair::of(first, second))
            })
    }

    /// The pair's characters as bits.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `character` is one of the pair.
    #[inline]
    pub const fn contains(self, character: Character) -> bool {
        self.0 & character.bit() != 0
    }

    /// The two characters in sequence order.
    pub fn characters(self) -> impl Iterator<Item = Character> {
        Character::ALL
            .into_iter()
            .filter(move |&character| self.contains(character))
    }

    /// Reads two different letters of `G K H S B`, in any order.
    pub fn parse(text: &str) -> Result<Pair, String> {
        let letters: Vec<char> = text.chars().collect();
        let &[first, second] = letters.as_slice() else {
            return Err("a pair is two of the letters G K H S B".to_string());
        };
        let character = |letter: char| {
            Character::from_letter(letter)
                .ok_or_else(|| format!("`{letter}` is not a character (G K H S B)"))
        };
        let (first, second) = (character(first)?, character(second)?);
        if first == second {
            return Err(format!(
                "a pair holds two different characters, not {first} twice"
            ));
        }
        Ok(Pair::of(first, second))
    }
}

impl fmt::Display for Pair {
    /// The two letters in sequence order, e.g. `GK`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for character in self.characters() {
            write!(f, "{}", character.letter())?;
        }
        Ok(())
    }
}

/// A move: a pair chosen behind a player's screen, or the point where the
/// character whose turn it is ends its move (its own point when it stays).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NibelungenMove {
    /// The pair a player chooses behind its screen, at the simultaneous choice of a
    /// round.
    Choose(Pair),
    /// The point (`0..15`) where the character to move ends its move: its own
    /// point when it stays.
    MoveTo(u8),
}

impl fmt::Display for NibelungenMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NibelungenMove::Choose(pair) => write!(f, "{pair}"),
            NibelungenMove::MoveTo(point) => f.write_str(&point_name(*point)),
        }
    }
}
