//! Fetters of Fenrir: a cooperative card game of hidden hands for 2 to 4
//! players.
//!
//! Three suits of cards (Leyding, Dromi, Gleipnir) are dealt out; players ask
//! each other for cards by suit and rank. A card given up moves the wolf's
//! pawn back by its value; a failed ask costs a discard that moves it forward.
//! The gods win if every card is discarded before the pawn reaches Odin.
//! docs/rules/fenrir-cards.md states the rules and every house-rule option.
//!
//! The deal is the game's only chance event: the stock's order is part of the
//! deal, so a dealt game is deterministic. Hands and the stock are hidden;
//! each player's [`FenrirObservation`] holds its own cards and the public
//! history, and [`determinize`](crate::core::ImperfectInformation::determinize)
//! samples, uniformly, a full deal consistent with it.
//!
//! ```
//! use norn::core::{Game, Notation, Status};
//! use norn::games::fenrir_cards::{FenrirCards, FenrirCardsRules};
//!
//! let rules: FenrirCardsRules = "players=3,ranks=2,track=10".parse().unwrap();
//! let mut game = FenrirCards::from_position_text("L1,D1/L2,G1/D2,G2", rules).unwrap();
//! // Player 0 asks player 1 for L2 and gets it: the pawn stays at 0.
//! game.try_play(game.parse_move("1:L2").unwrap()).unwrap();
//! assert_eq!(game.pawn(), 0);
//! // It asks player 2 for D2 and gets it, then asks player 1 for D2 again:
//! // naming a discarded card is allowed by default and always fails, so it
//! // discards its last Dromi, D1, and the pawn moves forward by 1.
//! for text in ["2:D2", "1:D2", "xD1"] {
//!     game.try_play(game.parse_move(text).unwrap()).unwrap();
//! }
//! assert_eq!(game.pawn(), 1);
//! assert_eq!(game.status(), Status::ToMove(1));
//! ```

mod cards;
mod counting;
mod determinize;
mod encoding;
mod eval;
mod movegen;
mod moves;
mod notation;
mod observation;
mod options;
mod picture;
mod rules;
mod setup;
mod state;

pub use cards::{Card, CardSet, MAX_RANKS, SUIT_NAMES, SUITS, WrittenCard};
pub(crate) use counting::{KnownLacks, PublicView, counting_move};
pub use eval::{FenrirPlayout, PlayoutMoves, sort_by_counting_rule};
pub use moves::FenrirCardsMove;
pub use observation::FenrirObservation;
pub use options::{EmptyHandRule, FenrirCardsRules, StuckRule};
pub use setup::{Deal, DealSetup, FenrirCardsSetup, UNDEALT};
pub use state::{EndReason, Event, FenrirCards, Phase};
