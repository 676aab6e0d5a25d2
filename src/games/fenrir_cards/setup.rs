//! Deals and positions as written: each player's hand and the order of the
//! stock, and the moves played from the deal, read and checked against the
//! rules before a game is made from them.
//!
//! - A card is its suit letter and rank: `L1`, `D7`, `G12`.
//! - A deal lists each hand, from player 0, separated by `/`, the cards of a
//!   hand separated by commas; the two-player game adds `:` and the stock,
//!   top card first: `L1,D4,.../G2,.../...` or `L1,.../D2,...:G7,L3,...`.
//! - A position is its deal followed by the moves played, separated by
//!   spaces; `undealt` is the state before the deal.

use super::cards::{Card, CardSet, WrittenCard};
use super::options::FenrirCardsRules;
use crate::core::{MAX_PLAYERS, ParseError, Setup};
use std::fmt;
use std::str::FromStr;

/// The most cards a deck has (three suits of [`MAX_RANKS`](super::MAX_RANKS)).
const MAX_CARDS: usize = 48;

/// The text of the state before the deal.
pub const UNDEALT: &str = "undealt";

/// A deal: each player's hand and the order of the stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    pub(crate) hands: [CardSet; MAX_PLAYERS],
    stock: [Card; MAX_CARDS],
    stock_len: u8,
}

impl Deal {
    /// No cards anywhere: the placeholder of an undealt game.
    pub fn empty() -> Deal {
        Deal {
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            stock: [Card(0); MAX_CARDS],
            stock_len: 0,
        }
    }

    /// A deal of `hands` with `stock` (top card first). Not validated:
    /// [`Deal::parse`] checks deals that come from users.
    pub fn new(hands: [CardSet; MAX_PLAYERS], stock: &[Card]) -> Deal {
        let mut deal = Deal::empty();
        deal.hands = hands;
        deal.stock[..stock.len()].copy_from_slice(stock);
        deal.stock_len = stock.len() as u8;
        deal
    }

    /// The hands, indexed by player.
    pub fn hands(&self) -> &[CardSet; MAX_PLAYERS] {
        &self.hands
    }

    /// The stock, top card first.
    pub fn stock(&self) -> &[Card] {
        &self.stock[..self.stock_len as usize]
    }

    /// The deal as text for a game with `rules`.
    pub fn text(&self, rules: &FenrirCardsRules) -> String {
        DealSetup::of(self, rules).to_string()
    }

    /// Reads a deal written by [`Deal::text`] and checks it against `rules`:
    /// one hand per player of the size the rules deal, the stock for two
    /// players, and every card of the deck exactly once.
    pub fn parse(text: &str, rules: &FenrirCardsRules) -> Result<Deal, ParseError> {
        text.parse::<DealSetup>()?
            .validate(rules)
            .map_err(|problem| ParseError::new("deal", text, problem))
    }
}

/// A deal as written, before it is checked against the rules: the cards of
/// each hand in the order written, and the stock if one is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealSetup {
    /// The hands, from player 0.
    pub hands: Vec<Vec<WrittenCard>>,
    /// The stock, top card first, if the text has one (after a `:`).
    pub stock: Option<Vec<WrittenCard>>,
}

impl DealSetup {
    /// How `deal` is written for a game with `rules`: the cards of each hand
    /// in increasing order, and the stock only in the two-player game.
    pub fn of(deal: &Deal, rules: &FenrirCardsRules) -> DealSetup {
        let ranks = rules.ranks();
        let written = |cards: &mut dyn Iterator<Item = Card>| -> Vec<WrittenCard> {
            cards.map(|card| WrittenCard::of(card, ranks)).collect()
        };
        DealSetup {
            hands: deal.hands[..rules.players()]
                .iter()
                .map(|hand| written(&mut hand.iter()))
                .collect(),
            stock: (rules.players() == 2).then(|| written(&mut deal.stock().iter().copied())),
        }
    }

    /// The deal, if it fits `rules`: one hand per player of the size the
    /// rules deal, the stock for two players, and every card of the deck
    /// exactly once; otherwise what is wrong.
    pub fn validate(&self, rules: &FenrirCardsRules) -> Result<Deal, String> {
        let ranks = rules.ranks();
        let cards_of = |list: &[WrittenCard]| -> Result<Vec<Card>, String> {
            list.iter()
                .map(|written| {
                    written.card(ranks).map_err(|problem| {
                        ParseError::new("card", &written.to_string(), problem).to_string()
                    })
                })
                .collect()
        };
        let hands: Vec<Vec<Card>> = self
            .hands
            .iter()
            .map(|hand| cards_of(hand))
            .collect::<Result<_, _>>()?;
        let stock = cards_of(self.stock.as_deref().unwrap_or_default())?;
        if hands.len() != rules.players() {
            return Err(format!(
                "the deal has {} hand(s) but the game has {} players",
                hands.len(),
                rules.players()
            ));
        }
        let sizes = rules.hand_sizes();
        for (player, hand) in hands.iter().enumerate() {
            if hand.len() != sizes[player] {
                return Err(format!(
                    "player {player} has {} cards but the rules deal {}",
                    hand.len(),
                    sizes[player]
                ));
            }
        }
        if stock.len() != rules.stock_size() {
            return Err(if rules.players() == 2 {
                format!(
                    "the stock has {} cards but should have {}",
                    stock.len(),
                    rules.stock_size()
                )
            } else {
                "only the two-player game has a stock".into()
            });
        }
        let mut seen = CardSet::EMPTY;
        for &card in hands.iter().flatten().chain(&stock) {
            if seen.contains(card) {
                return Err(format!("{} is dealt twice", card.text(ranks)));
            }
            seen.insert(card);
        }
        let mut hand_sets = [CardSet::EMPTY; MAX_PLAYERS];
        for (set, hand) in hand_sets.iter_mut().zip(&hands) {
            *set = hand.iter().copied().collect();
        }
        Ok(Deal::new(hand_sets, &stock))
    }
}

impl Setup for DealSetup {}

impl FromStr for DealSetup {
    type Err = ParseError;

    /// Reads the hands separated by `/`, each a list of cards separated by
    /// commas, and the stock after a `:`; only the cards are checked here.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: String| ParseError::new("deal", text, problem);
        let (hands_text, stock_text) = match text.trim().split_once(':') {
            Some((hands, stock)) => (hands, Some(stock)),
            None => (text.trim(), None),
        };
        let cards_of = |list: &str| -> Result<Vec<WrittenCard>, ParseError> {
            list.split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(|item| {
                    item.parse()
                        .map_err(|error: ParseError| bad(error.to_string()))
                })
                .collect()
        };
        let hands: Vec<Vec<WrittenCard>> = hands_text
            .split('/')
            .map(cards_of)
            .collect::<Result<_, _>>()?;
        let stock = stock_text.map(cards_of).transpose()?;
        if stock.is_none() && hands.iter().all(Vec::is_empty) && hands.len() == 1 {
            // It would print as nothing, which reads as no deal at all.
            return Err(bad("the deal lists no cards".into()));
        }
        Ok(DealSetup { hands, stock })
    }
}

impl fmt::Display for DealSetup {
    /// The hands separated by `/`, each as its cards separated by commas,
    /// then `:` and the stock if there is one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |cards: &[WrittenCard]| -> String {
            let texts: Vec<String> = cards.iter().map(WrittenCard::to_string).collect();
            texts.join(",")
        };
        let hands: Vec<String> = self.hands.iter().map(|hand| list(hand)).collect();
        f.write_str(&hands.join("/"))?;
        if let Some(stock) = &self.stock {
            write!(f, ":{}", list(stock))?;
        }
        Ok(())
    }
}

/// A position as written, before it is checked against the rules: `undealt`
/// before the deal, and afterwards the deal and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenrirCardsSetup {
    /// The state before the deal.
    Undealt,
    /// A deal and the moves played from it, as written.
    Dealt {
        /// The deal.
        deal: DealSetup,
        /// The moves played from the deal, each as written (`2:D7`, `xD3`).
        moves: Vec<String>,
    },
}

impl From<DealSetup> for FenrirCardsSetup {
    /// The start of `deal`.
    fn from(deal: DealSetup) -> FenrirCardsSetup {
        FenrirCardsSetup::Dealt {
            deal,
            moves: Vec::new(),
        }
    }
}

impl Setup for FenrirCardsSetup {}

impl FromStr for FenrirCardsSetup {
    type Err = ParseError;

    /// Reads `undealt`, or a deal followed by moves, separated by spaces.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: &str| ParseError::new("position", text, problem);
        let mut words = text.split_whitespace();
        let first = words.next().ok_or_else(|| bad("the text is empty"))?;
        if first == UNDEALT {
            return match words.next() {
                None => Ok(FenrirCardsSetup::Undealt),
                Some(_) => Err(bad("no move can be played before the deal")),
            };
        }
        Ok(FenrirCardsSetup::Dealt {
            deal: first.parse()?,
            moves: words.map(str::to_string).collect(),
        })
    }
}

impl fmt::Display for FenrirCardsSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenrirCardsSetup::Undealt => f.write_str(UNDEALT),
            FenrirCardsSetup::Dealt { deal, moves } => {
                write!(f, "{deal}")?;
                moves.iter().try_for_each(|mv| write!(f, " {mv}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deals_round_trip_and_bad_deals_are_explained() {
        let rules: FenrirCardsRules = "players=2,ranks=3".parse().unwrap();
        // 9 cards: hands of 2, a stock of 5.
        let deal = Deal::parse("L1,D2/G3,L2:D1,D3,G1,G2,L3", &rules).unwrap();
        assert_eq!(deal.text(&rules), "L1,D2/L2,G3:D1,D3,G1,G2,L3");
        for (text, problem) in [
            ("L1,D2/G3,L2", "stock"),
            ("L1,D2,D1/G3,L2:D3,G1,G2,L3", "player 0 has 3 cards"),
            ("L1,D2/G3,L2:D1,D3,G1,G2,L2", "twice"),
            ("L1,D2/G3,Q2:D1,D3,G1,G2,L3", "suit"),
            ("L1,D2:G3,L2,D1,D3,G1,G2,L3", "1 hand(s)"),
        ] {
            let error = Deal::parse(text, &rules).unwrap_err().to_string();
            assert!(error.contains(problem), "{text}: {error}");
        }
    }

    #[test]
    fn deals_read_without_the_rules_and_are_checked_against_them() {
        let text = "L1,D2/G3,L2:D1,D3,G1,G2,L3";
        let written: DealSetup = text.parse().unwrap();
        assert_eq!(written.to_string(), text);
        let three_ranks: FenrirCardsRules = "players=2,ranks=3".parse().unwrap();
        assert_eq!(
            written.validate(&three_ranks).unwrap(),
            Deal::parse(text, &three_ranks).unwrap()
        );
        let beyond_the_ranks: DealSetup = "L1,D2/G3,L4:D1,D3,G1,G2,L3".parse().unwrap();
        let problem = beyond_the_ranks.validate(&three_ranks).unwrap_err();
        assert!(problem.contains("the ranks run from 1 to 3"), "{problem}");
    }

    #[test]
    fn a_deal_without_cards_is_refused_rather_than_printed_as_nothing() {
        for text in [",", " , ", ",,"] {
            let error = text.parse::<DealSetup>().unwrap_err().to_string();
            assert!(error.contains("no cards"), "{text:?}: {error}");
        }
        assert_eq!("/".parse::<DealSetup>().unwrap().to_string(), "/");
    }

    #[test]
    fn positions_read_as_a_deal_and_the_moves_written_after_it() {
        let setup: FenrirCardsSetup = "L1,D2/G3,L2:D1,D3,G1,G2,L3  2:D7 xD3".parse().unwrap();
        assert_eq!(setup.to_string(), "L1,D2/G3,L2:D1,D3,G1,G2,L3 2:D7 xD3");
        assert_eq!(
            "undealt".parse::<FenrirCardsSetup>().unwrap(),
            FenrirCardsSetup::Undealt
        );
        let error = "undealt 2:D7".parse::<FenrirCardsSetup>().unwrap_err();
        assert!(error.to_string().contains("before the deal"), "{error}");
    }
}
