//! The rules options of Copenhagen Hnefatafl: the repetition rule and the
//! engine's ply limit.

use crate::core::Declared;
use serde::Serialize;
use std::num::NonZeroU32;

/// The rules options of Copenhagen Hnefatafl. `Default` is the standard game
/// with the engine's ply limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HnefataflRules {
    /// The defenders lose when a position (board and side to move) occurs for
    /// the third time (Copenhagen: perpetual repetition is a loss for white).
    pub repetition_loses: bool,
    /// The game is drawn after this many plies; `None` plays on forever.
    pub ply_limit: Option<NonZeroU32>,
}

impl Default for HnefataflRules {
    fn default() -> Self {
        HnefataflRules {
            repetition_loses: true,
            ply_limit: NonZeroU32::new(400),
        }
    }
}

/// Every option of [`HnefataflRules`], in the order its text is written.
const OPTIONS: &[Declared<HnefataflRules>] = &[
    crate::switch_option!(
        "repetition",
        repetition_loses,
        "the third occurrence of a position is a loss for the defenders"
    ),
    crate::limit_option!(
        "ply-limit",
        ply_limit,
        "the game is drawn after this many plies"
    ),
];

crate::rules_options!(HnefataflRules, "hnefatafl rules", OPTIONS);
