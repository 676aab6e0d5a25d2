//! The rules options of Koom Valley Thud: the engine's two draw limits.

use crate::core::{
    Configurable, Declared, LIMIT, ParseError, RulesOptions, Value, read_options, write_options,
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

impl RulesOptions for KoomValleyRules {}

impl Configurable for KoomValleyRules {
    const WHAT: &'static str = "koom-valley rules";
    const OPTIONS: &'static [Declared<Self>] = &[
        Declared {
            key: "no-capture-limit",
            kind: LIMIT,
            help: "the game is drawn after this many plies in a row with neither a capture nor a Rock move",
            get: |rules| Value::from_limit(rules.no_capture_limit),
            set: |rules, value| {
                rules.no_capture_limit = value.limit();
                Ok(())
            },
        },
        Declared {
            key: "ply-limit",
            kind: LIMIT,
            help: "the game is drawn after this many plies in all",
            get: |rules| Value::from_limit(rules.ply_limit),
            set: |rules, value| {
                rules.ply_limit = value.limit();
                Ok(())
            },
        },
    ];
}

impl FromStr for KoomValleyRules {
    type Err = ParseError;

    /// Reads `no-capture-limit=N|none,ply-limit=N|none`; options left out
    /// keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        read_options(text)
    }
}

impl fmt::Display for KoomValleyRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_options(self))
    }
}
