//! Stealth Chess: chess on a 10x8 board whose outer files are the Slurks,
//! where each side's two Assassins hide, count their moves, and emerge.
//!
//! Files `b`..`i` are an ordinary chessboard with the ordinary armies; the
//! Assassins start on `a1`, `j1`, `a8` and `j8`. An Assassin steps one
//! square, captures by leaping exactly two squares along a line (any piece
//! of either side but a king or an Assassin), and in its Slurk counts its
//! moves up and down the file: with count `N` it may reappear on any empty
//! chessboard square within Manhattan distance `N` of where it entered, and
//! capture next to it in the same move. A king is in check when an enemy
//! Assassin could take it by a leap or by emerging next to it (stealth
//! check). docs/rules/stealth-chess.md gives the rules as implemented.
//!
//! The position is a bitboard per kind and per side on the 128-bit board,
//! the Slurk state of each Assassin in a Slurk, and the usual chess
//! counters. Move generation is legal, with bulk counting of the last
//! perft ply.
//!
//! ```
//! use norn::core::{Game, MoveList, Notation};
//! use norn::games::stealth_chess::{StealthChess, StealthChessRules};
//!
//! let mut game = StealthChess::new(StealthChessRules::default());
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! // The twenty chess moves and each side's two Slurk moves up the file.
//! assert_eq!(moves.len(), 22);
//! game.try_play(game.parse_move("a1a2").unwrap()).unwrap();
//! // The Slurk field lists squares in order: j1 comes before a2.
//! assert!(game.position_text().ends_with("j1:j1:0,a2:a1:1,a8:a8:0,j8:j8:0"));
//! ```

mod board;
mod encoding;
mod eval;
mod movegen;
mod moves;
mod notation;
mod options;
pub mod pgn;
mod picture;
mod rules;
mod setup;
mod state;

pub use board::{Kind, Piece, Side, parse_square, square_name};
pub use moves::{Special, StealthChessMove};
pub use options::StealthChessRules;
pub use setup::{START_POSITION, StealthChessSetup};
pub use state::{EndReason, SlurkMark, StealthChess};
