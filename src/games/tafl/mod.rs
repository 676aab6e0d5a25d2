//! The tafl family: every variant OpenTafl plays, from 7x7 to 19x19,
//! described by an OpenTafl rules string.
//!
//! One game type plays them all. Its rules ([`TaflRules`]) are a built-in
//! variant by name ([`VARIANTS`]: `brandub`, `tablut`, `copenhagen`, ...) or
//! any rules string (`otn=dim:7 ...`), read once into a checked
//! [`RulesString`] and compiled for play. The position is a set of
//! bitboards at the width of the board's size (a `u64` for 7x7 up to six
//! words for 19x19), so each size runs at the speed of its own width while
//! the rest of norn sees one game. docs/rules/tafl.md states the rules
//! and the choices made where OpenTafl's description is silent.
//!
//! ```
//! use norn::core::{Game, MoveList, Notation};
//! use norn::games::tafl::{Tafl, TaflRules};
//!
//! let mut game = Tafl::new(TaflRules::variant("brandub").unwrap());
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 40);
//! let mv = game.parse_move("d1-c1").unwrap();
//! game.try_play(mv).unwrap();
//! assert_eq!(game.player_name(game.status().player_to_move().unwrap()), "defenders");
//!
//! let own: TaflRules = "otn=dim:9 esc:e ks:w start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
//!     .parse()
//!     .unwrap();
//! assert_eq!(Tafl::new(own).dim(), 9);
//! ```

mod bits;
mod board;
mod encoding;
mod eval;
mod forced;
mod fort;
mod movegen;
mod moves;
mod notation;
pub mod opentafl;
mod options;
mod picture;
mod pieces;
mod rules;
mod rules_string;
mod rules_values;
mod setup;
pub(crate) mod spec;
mod state;
mod variants;

pub use board::{MAX_DIM, MIN_DIM, Side, parse_square, square_name};
pub use encoding::symmetric_action;
pub use eval::{
    CONVERSION_LEAD, MAX_ESTIMATE, TERM_COUNT, TERM_NAMES, TaflEvaluation, TaflWeights,
};
pub use moves::TaflMove;
pub use notation::WrittenMove;
pub use options::{RepetitionRule, TaflRules};
pub use pieces::{Kind, LETTERS, Piece, PieceSet};
pub use rules::Captures;
pub use rules_string::{
    Berserk, Escape, Jump, KingArmed, KingStrength, Region, RegionRules, RulesString, Shieldwall,
    ThirdRepetition, position_record,
};
pub use setup::TaflSetup;
pub use spec::MAX_COMPILED;
pub use state::{EndReason, Tafl};
pub use variants::{VARIANTS, Variant, variant};
