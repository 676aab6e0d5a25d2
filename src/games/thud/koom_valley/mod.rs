//! Koom Valley Thud: sixteen dwarfs try to carry the Rock to the far side of
//! the valley while eight trolls try to surround it.
//!
//! docs/rules/thud.md states the rules with every house rule the engine
//! adds. The position is two 256-bit bitboards (dwarfs and trolls), the
//! Rock's square, the side to move and the ply counters.
//!
//! ```
//! use norn::core::{Game, MoveList, Notation};
//! use norn::games::thud::{KoomValley, KoomValleyRules};
//!
//! let mut game = KoomValley::new(KoomValleyRules::default());
//! let mv = game.parse_move("RH8-G8").unwrap();
//! game.try_play(mv).unwrap();
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert!(moves.iter().all(|&mv| game.move_text(mv).starts_with('T')));
//! ```

mod encoding;
mod eval;
mod movegen;
mod moves;
mod notation;
mod options;
mod rules;
mod setup;
mod state;

pub use movegen::TROLL_RANGE;
pub use moves::{KoomValleyMove, KoomValleyMoveKind};
pub use options::KoomValleyRules;
pub use rules::{GOAL, TROLLS_AROUND_ROCK};
pub use setup::{MAX_DWARFS, MAX_TROLLS, START_POSITION};
pub use state::{EndReason, KoomValley};
