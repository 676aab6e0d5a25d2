//! The rules options of Koom Valley Thud: the engine's two draw limits.

use crate::core::{Configurable, Declared, RulesOptions};
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

impl RulesOptions for KoomValleyRules {}

impl Configurable for KoomValleyRules {
    const WHAT: &'static str = "koom-valley rules";
    const OPTIONS: &'static [Declared<Self>] = &[
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
}

crate::options_text!(KoomValleyRules);
