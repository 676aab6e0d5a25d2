//! Deals as written: each player's hand and the order of the stock, read and
//! checked against the rules before a game is made from them.
//!
//! - A card is its suit letter and rank: `L1`, `D7`, `G12`.
//! - A deal lists each hand, from player 0, separated by `/`, the cards of a
//!   hand separated by commas; the two-player game adds `:` and the stock,
//!   top card first: `L1,D4,.../G2,.../...` or `L1,.../D2,...:G7,L3,...`.

use super::cards::{Card, CardSet};
use super::options::FenrirCardsRules;
use crate::core::{MAX_PLAYERS, ParseError};
use std::fmt::Write;

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
        let ranks = rules.ranks();
        let hands: Vec<String> = self.hands[..rules.players()]
            .iter()
            .map(|hand| hand.text(ranks))
            .collect();
        let mut text = hands.join("/");
        if rules.players() == 2 {
            let stock: Vec<String> = self.stock().iter().map(|card| card.text(ranks)).collect();
            write!(text, ":{}", stock.join(",")).expect("writing to a string");
        }
        text
    }

    /// Reads a deal written by [`Deal::text`] and checks it against `rules`:
    /// one hand per player of the size the rules deal, the stock for two
    /// players, and every card of the deck exactly once.
    pub fn parse(text: &str, rules: &FenrirCardsRules) -> Result<Deal, ParseError> {
        let bad = |problem: String| ParseError::new("deal", text, problem);
        let ranks = rules.ranks();
        let (hands_text, stock_text) = match text.trim().split_once(':') {
            Some((hands, stock)) => (hands, Some(stock)),
            None => (text.trim(), None),
        };
        let cards_of = |list: &str| -> Result<Vec<Card>, ParseError> {
            list.split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(|item| Card::parse(item, ranks).map_err(|error| bad(error.to_string())))
                .collect()
        };
        let hands: Vec<Vec<Card>> = hands_text
            .split('/')
            .map(cards_of)
            .collect::<Result<_, _>>()?;
        let stock = match stock_text {
            Some(stock) => cards_of(stock)?,
            None => Vec::new(),
        };
        if hands.len() != rules.players() {
            return Err(bad(format!(
                "the deal has {} hand(s) but the game has {} players",
                hands.len(),
                rules.players()
            )));
        }
        let sizes = rules.hand_sizes();
        for (player, hand) in hands.iter().enumerate() {
            if hand.len() != sizes[player] {
                return Err(bad(format!(
                    "player {player} has {} cards but the rules deal {}",
                    hand.len(),
                    sizes[player]
                )));
            }
        }
        if stock.len() != rules.stock_size() {
            return Err(bad(if rules.players() == 2 {
                format!(
                    "the stock has {} cards but should have {}",
                    stock.len(),
                    rules.stock_size()
                )
            } else {
                "only the two-player game has a stock".into()
            }));
        }
        let mut seen = CardSet::EMPTY;
        for &card in hands.iter().flatten().chain(&stock) {
            if seen.contains(card) {
                return Err(bad(format!("{} is dealt twice", card.text(ranks))));
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
}
