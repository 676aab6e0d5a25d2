//! Cards, suits and sets of cards.
//!
//! A deck has three suits of `ranks` cards each (12 in the standard game).
//! A card is a small index, `suit * ranks + rank - 1`, so a set of cards is a
//! 64-bit mask and every hand, the discard pile and every constraint of the
//! determinizer are bit operations.

use crate::core::ParseError;
use std::fmt;

/// The most ranks per suit a deck may have: three suits of 16 fit in a mask
/// with room to spare, and keep every count of the determinizer in a `u128`.
pub const MAX_RANKS: u8 = 16;

/// The number of suits.
pub const SUITS: usize = 3;

/// The suits, named after the three fetters of the myth, with the letter
/// each is written with.
pub const SUIT_NAMES: [(&str, char); SUITS] = [("Leyding", 'L'), ("Dromi", 'D'), ("Gleipnir", 'G')];

/// A card of a deck with a given number of ranks per suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(pub u8);

impl Card {
    /// The card of `suit` (0..3) and `rank` (1..=ranks).
    pub fn new(suit: usize, rank: u8, ranks: u8) -> Card {
        debug_assert!(suit < SUITS && (1..=ranks).contains(&rank));
        Card(suit as u8 * ranks + rank - 1)
    }

    /// The suit, 0..3.
    #[inline]
    pub fn suit(self, ranks: u8) -> usize {
        (self.0 / ranks) as usize
    }

    /// The rank, 1..=ranks.
    #[inline]
    pub fn rank(self, ranks: u8) -> u8 {
        self.0 % ranks + 1
    }

    /// The card as written: the suit letter and the rank, e.g. `D7`.
    pub fn text(self, ranks: u8) -> String {
        WrittenCard::of(self, ranks).to_string()
    }

    /// Reads a card such as `D7` or `g12` for a deck of `ranks` ranks.
    pub fn parse(text: &str, ranks: u8) -> Result<Card, ParseError> {
        text.parse::<WrittenCard>()?
            .card(ranks)
            .map_err(|problem| ParseError::new("card", text, problem))
    }
}

/// A card as written, its suit and its rank, before the rules say how many
/// ranks a suit has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenCard {
    /// The suit, 0..3.
    pub suit: usize,
    /// The rank as written, checked by [`WrittenCard::card`].
    pub rank: u8,
}

impl WrittenCard {
    /// How `card` is written in a deck of `ranks` ranks.
    pub fn of(card: Card, ranks: u8) -> WrittenCard {
        WrittenCard {
            suit: card.suit(ranks),
            rank: card.rank(ranks),
        }
    }

    /// The card in a deck of `ranks` ranks, or why there is none.
    pub fn card(self, ranks: u8) -> Result<Card, String> {
        if !(1..=ranks).contains(&self.rank) {
            return Err(format!("the ranks run from 1 to {ranks}"));
        }
        Ok(Card::new(self.suit, self.rank, ranks))
    }
}

impl std::str::FromStr for WrittenCard {
    type Err = ParseError;

    /// Reads a suit letter (in either case) and a rank, e.g. `D7` or `g12`.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: String| ParseError::new("card", text, problem);
        let mut chars = text.chars();
        let letter = chars
            .next()
            .ok_or_else(|| bad("the card is empty".into()))?
            .to_ascii_uppercase();
        let suit = SUIT_NAMES
            .iter()
            .position(|&(_, suit_letter)| suit_letter == letter)
            .ok_or_else(|| bad(format!("`{letter}` is not a suit (L, D or G)")))?;
        let rank_text = chars.as_str();
        let rank = rank_text
            .parse()
            .map_err(|_| bad(format!("`{rank_text}` is not a rank")))?;
        Ok(WrittenCard { suit, rank })
    }
}

impl fmt::Display for WrittenCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", SUIT_NAMES[self.suit].1, self.rank)
    }
}

/// A set of cards as a bit mask (bit `i` is card `i`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The set of no cards.
    pub const EMPTY: CardSet = CardSet(0);

    /// Every card of a deck with `ranks` ranks per suit.
    pub fn deck(ranks: u8) -> CardSet {
        CardSet((1u64 << (SUITS as u32 * ranks as u32)) - 1)
    }

    /// Every card of `suit`.
    pub fn suit(suit: usize, ranks: u8) -> CardSet {
        CardSet(((1u64 << ranks) - 1) << (suit as u32 * ranks as u32))
    }

    /// Whether `card` is in the set.
    #[inline]
    pub fn contains(self, card: Card) -> bool {
        self.0 >> card.0 & 1 != 0
    }

    /// Adds `card` to the set (no change if it is there).
    #[inline]
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Takes `card` out of the set (no change if it is not there).
    #[inline]
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// The number of cards in the set.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds no card.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest card, if any.
    #[inline]
    pub fn first(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(self.0.trailing_zeros() as u8))
    }

    /// The cards in increasing order (by suit, then rank).
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let card = (bits != 0).then(|| Card(bits.trailing_zeros() as u8))?;
            bits &= bits - 1;
            Some(card)
        })
    }

    /// The suits that have at least one card in the set, as a 3-bit mask.
    pub fn suits(self, ranks: u8) -> u8 {
        (0..SUITS)
            .filter(|&suit| !(self & CardSet::suit(suit, ranks)).is_empty())
            .fold(0, |mask, suit| mask | 1 << suit)
    }

    /// The cards as written, separated by commas, in increasing order.
    pub fn text(self, ranks: u8) -> String {
        self.iter()
            .map(|card| card.text(ranks))
            .collect::<Vec<_>>()
            .join(",")
    }
}

impl std::ops::BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }
}

impl std::ops::BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for CardSet {
    fn bitor_assign(&mut self, other: CardSet) {
        self.0 |= other.0;
    }
}

impl std::ops::Not for CardSet {
    type Output = CardSet;
    fn not(self) -> CardSet {
        CardSet(!self.0)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet({:#x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_round_trip_through_text() {
        for ranks in [1, 4, 12, MAX_RANKS] {
            for card in CardSet::deck(ranks).iter() {
                assert_eq!(Card::parse(&card.text(ranks), ranks).unwrap(), card);
            }
        }
        assert_eq!(Card::new(1, 7, 12).text(12), "D7");
        assert_eq!(Card::parse("g12", 12).unwrap(), Card::new(2, 12, 12));
    }

    #[test]
    fn bad_cards_are_errors() {
        for text in ["", "X3", "L0", "L13", "L", "Lx", "L1.5"] {
            assert!(Card::parse(text, 12).is_err(), "{text}");
        }
    }

    #[test]
    fn suits_partition_the_deck() {
        let ranks = 12;
        let union = (0..SUITS).fold(CardSet::EMPTY, |all, suit| all | CardSet::suit(suit, ranks));
        assert_eq!(union, CardSet::deck(ranks));
        assert_eq!(CardSet::deck(ranks).len(), 36);
        assert_eq!(CardSet::suit(2, ranks).suits(ranks), 0b100);
    }
}
