//! Copenhagen Hnefatafl on the 11x11 board.
//!
//! The rules are those of the Copenhagen rule set; docs/rules/hnefatafl.md
//! lists them with the choices this engine makes where the official text is
//! silent. The position is three 128-bit bitboards (attackers, defenders, king
//! square) plus the hashes of the positions since the last capture, which the
//! repetition rule needs.
//!
//! ```
//! use norn::core::{Game, MoveList, Notation};
//! use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
//!
//! let mut game = Hnefatafl::new(HnefataflRules::default());
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 116);
//! let mv = game.parse_move("d1-d3").unwrap();
//! game.try_play(mv).unwrap();
//! assert_eq!(game.player_name(game.status().player_to_move().unwrap()), "defenders");
//! ```

mod board;
mod encoding;
mod eval;
mod movegen;
mod moves;
mod notation;
pub mod opentafl;
mod options;
mod picture;
mod records;
mod rules;
mod setup;
mod state;
pub mod tuning;

pub use board::{
    BOARD, CORNERS, EDGE, GRID, RESTRICTED, SIZE, Side, THRONE, parse_square, square_name,
};
pub use eval::{
    EvaluationTerms, HnefataflEvaluation, HnefataflWeights, MAX_ESTIMATE, TERM_COUNT, TERM_NAMES,
};
pub use moves::HnefataflMove;
pub use notation::RecordedMove;
pub use options::HnefataflRules;
pub use records::{GameRecord, RecordReplay, ReplaySummary, read_records, replay_records};
pub use setup::{HnefataflSetup, START_POSITION};
pub use state::{EndReason, Hnefatafl};
