//! Text forms: deals, positions (a deal and the moves played from it),
//! moves and diagrams.
//!
//! - A card is its suit letter and rank: `L1`, `D7`, `G12`.
//! - A deal lists each hand, from player 0, separated by `/`, the cards of a
//!   hand separated by commas; the two-player game adds `:` and the stock,
//!   top card first: `L1,D4,.../G2,.../...` or `L1,.../D2,...:G7,L3,...`.
//! - A move is `2:D7` (ask player 2 for D7) or `xD3` (discard D3).
//! - A position is its deal followed by the moves played, separated by
//!   spaces; `undealt` is the state before the deal.

use super::cards::{Card, CardSet};
use super::state::{FenrirCards, FenrirCardsRules, FenrirMove, Phase};
use crate::core::{Game, MAX_PLAYERS, Notation, ParseError};
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
        let ranks = rules.ranks;
        let hands: Vec<String> = self.hands[..rules.players]
            .iter()
            .map(|hand| hand.text(ranks))
            .collect();
        let mut text = hands.join("/");
        if rules.players == 2 {
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
        let ranks = rules.ranks;
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
        if hands.len() != rules.players {
            return Err(bad(format!(
                "the deal has {} hand(s) but the game has {} players",
                hands.len(),
                rules.players
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
            return Err(bad(if rules.players == 2 {
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

impl Notation for FenrirCards {
    fn position_text(&self) -> String {
        if !self.is_dealt() {
            return UNDEALT.to_string();
        }
        let mut text = self.deal.text(&self.rules);
        let mut replay = FenrirCards::from_deal(self.deal, self.rules);
        for mv in self.moves_played() {
            write!(text, " {}", replay.move_text(mv)).expect("writing to a string");
            replay.play(mv);
        }
        text
    }

    fn from_position_text(text: &str, rules: FenrirCardsRules) -> Result<Self, ParseError> {
        let mut words = text.split_whitespace();
        let first = words
            .next()
            .ok_or_else(|| ParseError::new("position", text, "the text is empty"))?;
        if first == UNDEALT {
            return match words.next() {
                None => Ok(FenrirCards::new(rules)),
                Some(_) => Err(ParseError::new(
                    "position",
                    text,
                    "no move can be played before the deal",
                )),
            };
        }
        let deal = Deal::parse(first, &rules)?;
        let mut state = FenrirCards::from_deal(deal, rules);
        for (index, word) in words.enumerate() {
            let mv = state.parse_move(word).map_err(|error| {
                ParseError::new(
                    "position",
                    text,
                    format!("move {} `{word}`: {}", index + 1, error.problem()),
                )
            })?;
            state.play(mv);
        }
        Ok(state)
    }

    fn move_text(&self, mv: FenrirMove) -> String {
        let ranks = self.rules.ranks;
        match mv {
            FenrirMove::Ask { target, card } => format!("{target}:{}", card.text(ranks)),
            FenrirMove::Discard(card) => format!("x{}", card.text(ranks)),
        }
    }

    fn parse_move(&self, text: &str) -> Result<FenrirMove, ParseError> {
        let ranks = self.rules.ranks;
        let bad = |problem: String| ParseError::new("move", text, problem);
        let card_of = |card_text: &str| {
            Card::parse(card_text, ranks).map_err(|error| bad(error.problem().to_string()))
        };
        let mv = if let Some(card_text) = text.strip_prefix(['x', 'X']) {
            FenrirMove::Discard(card_of(card_text)?)
        } else if let Some((target_text, card_text)) = text.split_once(':') {
            let target: u8 = target_text
                .parse()
                .map_err(|_| bad(format!("`{target_text}` is not a player number")))?;
            FenrirMove::Ask {
                target,
                card: card_of(card_text)?,
            }
        } else {
            return Err(bad(
                "a move is an ask such as `2:D7` or a discard such as `xD3`".into(),
            ));
        };
        self.check_move(mv)
            .map_err(|error| bad(error.reason().to_string()))?;
        Ok(mv)
    }

    fn diagram(&self) -> String {
        let rules = &self.rules;
        let ranks = rules.ranks;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Fetters of Fenrir: {} players, {} ranks, track {}",
            rules.players, ranks, rules.track
        );
        if !self.is_dealt() {
            let _ = writeln!(out, "(not dealt yet)");
            return out;
        }
        let _ = writeln!(out, "pawn     {} of {}", self.pawn, rules.track);
        for player in 0..rules.players {
            let marker = match self.phase {
                Phase::Ask | Phase::FailedAsk { .. } | Phase::Stuck
                    if self.to_move as usize == player =>
                {
                    "*"
                }
                _ => " ",
            };
            let _ = writeln!(
                out,
                "player{player}{marker} {}",
                self.hands[player].text(ranks).replace(',', " ")
            );
        }
        if rules.players == 2 {
            let stock: Vec<String> = self.stock().iter().map(|card| card.text(ranks)).collect();
            let _ = writeln!(out, "stock    {}", stock.join(" "));
        }
        let _ = writeln!(
            out,
            "discards {}",
            self.discarded.text(ranks).replace(',', " ")
        );
        let _ = writeln!(
            out,
            "{}",
            match self.phase {
                Phase::Deal => "to deal".to_string(),
                Phase::Ask => format!("player{} asks", self.to_move),
                Phase::FailedAsk { suit, target } => format!(
                    "player{} failed to get a card from player{target} and discards a {}",
                    self.to_move,
                    super::cards::SUIT_NAMES[suit as usize].0
                ),
                Phase::Stuck => format!("player{} has no legal ask and discards", self.to_move),
                Phase::Over(end) => format!(
                    "over: {} ({})",
                    if end.is_win() {
                        "the gods win"
                    } else {
                        "the gods lose"
                    },
                    end.name()
                ),
            }
        );
        out
    }
}

impl FenrirCards {
    /// The moves played since the deal, recovered from the public history
    /// (draws and skips follow from the rules and are not moves).
    pub fn moves_played(&self) -> impl Iterator<Item = FenrirMove> + '_ {
        self.history.iter().filter_map(|event| match *event {
            super::state::Event::Ask { target, card, .. } => Some(FenrirMove::Ask { target, card }),
            super::state::Event::Discard { card, .. } => Some(FenrirMove::Discard(card)),
            super::state::Event::Draw { .. } => None,
        })
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
