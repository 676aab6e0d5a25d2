//! The rules options of Koom Valley Thud: the engine's two draw limits.

use crate::core::Declared;
use serde::Serialize;
use std::num::NonZeroU32;

/// The rules options of Koom Valley Thud. `Default` is the standard game
/// with the engine's draw rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KoomValleyRules {
    /// The game is drawn after this many plies without a capture or a Rock
    /// move; `None` never.
    pub no_capture_limit: Option<NonZeroU32>,
    /// The game is drawn after this many plies in all; `None` never.
    pub ply_limit: Option<NonZeroU32>,
}

impl Default for KoomValleyRules {
    fn default() -> Self {
        KoomValleyRules {
            no_capture_limit: NonZeroU32::new(100),
            ply_limit: NonZeroU32::new(400),
        }
    }
}

/// Every option of [`KoomValleyRules`], in the order its text is written.
const OPTIONS: &[Declared<KoomValleyRules>] = &[
    crate::limit_option!(
        "no-capture-limit",
        no_capture_limit,
        "the game is drawn after this many plies in a row with neither a capture nor a Rock move"
    ),
    crate::limit_option!(
        "ply-limit",
        ply_limit,
        "the game is drawn after this many plies in all"
    ),
];

crate::rules_options!(KoomValleyRules, "koom-valley rules", OPTIONS);
