//! Text forms: positions (a deal and the moves played from it, see
//! [`FenrirCardsSetup`](super::FenrirCardsSetup)), moves and diagrams.
//!
//! A move is `2:D7` (ask player 2 for D7) or `xD3` (discard D3).

use super::cards::Card;
use super::moves::FenrirCardsMove;
use super::options::FenrirCardsRules;
use super::setup::{DealSetup, FenrirCardsSetup};
use super::state::{FenrirCards, Phase};
use crate::core::{Game, Notation, ParseError, Picture};
use std::fmt::Write;

impl Notation for FenrirCards {
    type Setup = FenrirCardsSetup;

    /// A validated state from an unvalidated setup: the deal checked
    /// against the rules, then each move checked and played.
    fn from_setup(setup: &FenrirCardsSetup, rules: FenrirCardsRules) -> Result<Self, ParseError> {
        let FenrirCardsSetup::Dealt { deal, moves } = setup else {
            return Ok(FenrirCards::new(rules));
        };
        let deal = deal
            .validate(&rules)
            .map_err(|problem| ParseError::new("deal", &deal.to_string(), problem))?;
        let mut state = FenrirCards::from_deal(deal, rules);
        for (index, word) in moves.iter().enumerate() {
            let mv = state.parse_move(word).map_err(|error| {
                ParseError::new(
                    "position",
                    &setup.to_string(),
                    format!("move {} `{word}`: {}", index + 1, error.problem()),
                )
            })?;
            state.play(mv);
        }
        Ok(state)
    }

    /// The unvalidated setup of this position: its deal and the moves
    /// played from it.
    fn setup(&self) -> FenrirCardsSetup {
        if !self.is_dealt() {
            return FenrirCardsSetup::Undealt;
        }
        let mut replay = FenrirCards::from_deal(self.deal, self.rules);
        let moves = self
            .moves_played()
            .map(|mv| {
                let text = replay.move_text(mv);
                replay.play(mv);
                text
            })
            .collect();
        FenrirCardsSetup::Dealt {
            deal: DealSetup::of(&self.deal, &self.rules),
            moves,
        }
    }

    fn move_text(&self, mv: FenrirCardsMove) -> String {
        let ranks = self.rules.ranks();
        match mv {
            FenrirCardsMove::Ask { target, card } => format!("{target}:{}", card.text(ranks)),
            FenrirCardsMove::Discard(card) => format!("x{}", card.text(ranks)),
        }
    }

    fn parse_move(&self, text: &str) -> Result<FenrirCardsMove, ParseError> {
        let ranks = self.rules.ranks();
        let bad = |problem: String| ParseError::new("move", text, problem);
        let card_of = |card_text: &str| {
            Card::parse(card_text, ranks).map_err(|error| bad(error.problem().to_string()))
        };
        let mv = if let Some(card_text) = text.strip_prefix(['x', 'X']) {
            FenrirCardsMove::Discard(card_of(card_text)?)
        } else if let Some((target_text, card_text)) = text.split_once(':') {
            let target: u8 = target_text
                .parse()
                .map_err(|_| bad(format!("`{target_text}` is not a player number")))?;
            FenrirCardsMove::Ask {
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
        let ranks = rules.ranks();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Fetters of Fenrir: {} players, {} ranks, track {}",
            rules.players(),
            ranks,
            rules.track()
        );
        if !self.is_dealt() {
            let _ = writeln!(out, "(not dealt yet)");
            return out;
        }
        let _ = writeln!(out, "pawn     {} of {}", self.pawn, rules.track());
        for player in 0..rules.players() {
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
        if rules.players() == 2 {
            let stock: Vec<String> = self.stock().iter().map(|card| card.text(ranks)).collect();
            let _ = writeln!(out, "stock    {}", stock.join(" "));
        }
        let _ = writeln!(
            out,
            "discards {}",
            self.discarded.text(ranks).replace(',', " ")
        );
        let _ = writeln!(out, "{}", phase_text(self.phase, self.to_move));
        out
    }

    /// The track, the hands (each seen only by its holder), the discards
    /// and the public counters (see `picture.rs`).
    fn picture(&self) -> Picture {
        self.drawn()
    }
}

/// Where the game stands, as a line of text: whose turn it is and what
/// that player does, or how the game ended.
pub(super) fn phase_text(phase: Phase, to_move: u8) -> String {
    match phase {
        Phase::Deal => "to deal".to_string(),
        Phase::Ask => format!("player{to_move} asks"),
        Phase::FailedAsk { suit, target } => format!(
            "player{to_move} failed to get a card from player{target} and discards a {}",
            super::cards::SUIT_NAMES[suit as usize].0
        ),
        Phase::Stuck => format!("player{to_move} has no legal ask and discards"),
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
}

impl FenrirCards {
    /// The moves played since the deal, recovered from the public history
    /// (draws and skips follow from the rules and are not moves).
    pub fn moves_played(&self) -> impl Iterator<Item = FenrirCardsMove> + '_ {
        self.history.iter().filter_map(|event| match *event {
            super::state::Event::Ask { target, card, .. } => {
                Some(FenrirCardsMove::Ask { target, card })
            }
            super::state::Event::Discard { card, .. } => Some(FenrirCardsMove::Discard(card)),
            super::state::Event::Draw { .. } => None,
        })
    }
}
