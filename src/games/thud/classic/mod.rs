//! Classic Thud: 32 dwarfs against 8 trolls around the Thudstone, scored by
//! the margin of surviving pieces (a dwarf 1 point, a troll 4).
//!
//! docs/rules/thud.md states the rules with every house rule the engine
//! adds. The position is two 256-bit bitboards (dwarfs and trolls; the
//! Thudstone never moves) plus the side to move and the ply counters.
//!
//! ```
//! use norn::core::{Game, MoveList, Notation};
//! use norn::games::thud::{Thud, ThudRules};
//!
//! let mut battle = Thud::new(ThudRules::default());
//! let mut moves = MoveList::new();
//! battle.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 656);
//! let mv = battle.parse_move("dA6-D6").unwrap();
//! battle.try_play(mv).unwrap();
//! assert_eq!(battle.player_name(battle.status().player_to_move().unwrap()), "trolls");
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

pub use moves::{ThudMove, ThudMoveKind};
pub use options::{ThudRules, TrollCaptures};
pub use setup::{MAX_DWARFS, MAX_TROLLS, START_POSITION};
pub use state::{DWARF_POINTS, EndReason, TROLL_POINTS, Thud};
