//! The rules options of Copenhagen Hnefatafl: the repetition rule and the
//! engine's ply limit.

use crate::core::{
    ParseError, RulesOptions, limit_text, parse_key_values, parse_limit, parse_switch, switch_text,
    unknown_key,
};
use serde::Serialize;
use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

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

impl RulesOptions for HnefataflRules {
    /// Any repetition switch and ply limit make a playable game.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

impl FromStr for HnefataflRules {
    type Err = ParseError;

    /// Reads `repetition=on|off,ply-limit=N|none`; options left out keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        const WHAT: &str = "hnefatafl rules";
        let mut rules = HnefataflRules::default();
        for (key, value) in parse_key_values(text, WHAT)? {
            match key {
                "repetition" => rules.repetition_loses = parse_switch(WHAT, text, key, value)?,
                "ply-limit" => rules.ply_limit = parse_limit(WHAT, text, key, value)?,
                _ => return Err(unknown_key(WHAT, text, key, &["repetition", "ply-limit"])),
            }
        }
        Ok(rules)
    }
}

impl fmt::Display for HnefataflRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "repetition={},ply-limit={}",
            switch_text(self.repetition_loses),
            limit_text(self.ply_limit)
        )
    }
}
