//! The rules options of Stealth Chess: which draw rules end the game by
//! themselves, and the engine's ply limit.

use crate::core::Declared;
use serde::Serialize;
use std::num::NonZeroU32;

/// The rules options of Stealth Chess. `Default` is the game of the rules
/// page: every draw rule on, no ply limit (the fifty-move rule already
/// bounds every game).
///
/// Turning the draw rules off gives plain move-generation counts, as the
/// published chess perft numbers count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StealthChessRules {
    /// A position occurring for the third time (same side to move, castling
    /// rights, en passant chance, Slurk counts and entry points) is a draw.
    pub repetition: bool,
    /// A hundred plies without a pawn move or a capture are a draw.
    pub fifty_moves: bool,
    /// Kings alone, or a king and one bishop or knight against a king, with
    /// no pawn or Assassin left, are a draw.
    pub insufficient_material: bool,
    /// The game is drawn after this many plies; `None` plays on.
    pub ply_limit: Option<NonZeroU32>,
}

impl StealthChessRules {
    /// Every draw rule off: the game ends only by checkmate and stalemate,
    /// as chess perft counts it, within any number of plies that can be
    /// counted. The ply limit, `u32::MAX`, is beyond every count; without
    /// one a game could go on forever, which the rules refuse.
    pub const MOVES_ONLY: StealthChessRules = StealthChessRules {
        repetition: false,
        fifty_moves: false,
        insufficient_material: false,
        ply_limit: Some(NonZeroU32::MAX),
    };
}

impl Default for StealthChessRules {
    fn default() -> Self {
        StealthChessRules {
            repetition: true,
            fifty_moves: true,
            insufficient_material: true,
            ply_limit: None,
        }
    }
}

/// Every option of [`StealthChessRules`], in the order its text is written.
const OPTIONS: &[Declared<StealthChessRules>] = &[
    crate::switch_option!(
        "repetition",
        repetition,
        "the third occurrence of a position is a draw"
    ),
    crate::switch_option!(
        "fifty-moves",
        fifty_moves,
        "a hundred plies without a pawn move or a capture are a draw"
    ),
    crate::switch_option!(
        "insufficient-material",
        insufficient_material,
        "kings alone, or king and one bishop or knight against a king, with no pawn or Assassin, are a draw"
    ),
    crate::limit_option!(
        "ply-limit",
        ply_limit,
        "the game is drawn after this many plies"
    ),
];

crate::rules_options!(StealthChessRules, "stealth-chess rules", OPTIONS, {
    /// Refuses rules under which a game need never end: with every draw
    /// rule off and no ply limit, two bare kings may shuffle forever.
    /// Counting moves (perft) with every draw rule off takes a ply limit
    /// beyond the depth counted, as [`StealthChessRules::MOVES_ONLY`] has.
    fn check_together(&self) -> Result<(), String> {
        let some_draw_rule = self.repetition || self.fifty_moves || self.insufficient_material;
        if some_draw_rule || self.ply_limit.is_some() {
            return Ok(());
        }
        Err(
            "with `repetition`, `fifty-moves` and `insufficient-material` all off a game \
             need never end (two bare kings can move forever): turn one on or set `ply-limit`"
                .into(),
        )
    }
});
