//! Fenrir's Path: a cooperative tile game. Four gods walk and jump along a
//! path of coloured fetter tiles, collecting the tiles of their own colour,
//! and must complete three colours before the wolf Fenrir reaches Odin.
//!
//! docs/rules/fenrir-path.md states the rules, including the house rules this
//! engine settles; [`FenrirPathRules`] holds them all, with the size of the
//! game, so that small versions can be solved exhaustively. The team is one
//! player with a shared payoff (1 for a win, 0 for a loss); a move names the
//! god that moves and the tile it ends on, so choosing the next god is part
//! of the team's move.
//!
//! ```
//! use norn::core::{Game, MoveList, Notation};
//! use norn::games::fenrir_path::{FenrirPath, FenrirPathRules};
//!
//! let deal = "RRRRRRBBBBBBGGGGGGYYYYYY:RBGY";
//! let mut game = FenrirPath::from_position_text(deal, FenrirPathRules::default()).unwrap();
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! // Each god walks one tile either way; blue may also jump back over red,
//! // five tiles away, landing five tiles beyond it on Odin's tile.
//! assert_eq!(moves.len(), 9);
//! let collect = game.parse_move("R6").unwrap(); // red walks onto a red tile
//! game.try_play(collect).unwrap();
//! assert_eq!(game.collected().count_ones(), 1);
//! assert!(game.parse_move("R7").is_err(), "red moved last and must name another god");
//! ```

mod board;
mod encoding;
mod eval;
mod movegen;
mod moves;
mod notation;
mod options;
mod picture;
mod rules;
mod setup;
mod state;

pub use board::{Colour, MAX_COLOURS, MAX_TILES, ODIN, tiles_of};
pub use eval::{SafetyMargin, ShortestWin};
pub use moves::FenrirPathMove;
pub use options::{FenrirPathRules, NoMoves, StuckGod, TurnOrder};
pub use setup::{Deal, DealtSetup, FenrirPathSetup, UNDEALT};
pub use state::{EndReason, FenrirPath};
