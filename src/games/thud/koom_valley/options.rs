//! The rules options of Koom Valley Thud: the engine's two draw limits.

use crate::core::{
    ParseError, RulesOptions, limit_text, parse_key_values, parse_limit, unknown_key,
};
use serde::Serialize;
use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

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

impl RulesOptions for KoomValleyRules {
    /// Any limits make a playable game.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

impl FromStr for KoomValleyRules {
    type Err = ParseError;

    /// Reads `no-capture-limit=N|none,ply-limit=N|none`; options left out
    /// keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        const WHAT: &str = "koom-valley rules";
        let mut rules = KoomValleyRules::default();
        for (key, value) in parse_key_values(text, WHAT)? {
            match key {
                "no-capture-limit" => rules.no_capture_limit = parse_limit(WHAT, text, key, value)?,
                "ply-limit" => rules.ply_limit = parse_limit(WHAT, text, key, value)?,
                _ => {
                    return Err(unknown_key(
                        WHAT,
                        text,
                        key,
                        &["no-capture-limit", "ply-limit"],
                    ));
                }
            }
        }
        Ok(rules)
    }
}

impl fmt::Display for KoomValleyRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no-capture-limit={},ply-limit={}",
            limit_text(self.no_capture_limit),
            limit_text(self.ply_limit)
        )
    }
}
