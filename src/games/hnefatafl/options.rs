//! The rules options of Copenhagen Hnefatafl: the repetition rule and the
//! engine's ply limit.

use crate::core::{
    Configurable, Declared, Kind, LIMIT, ParseError, RulesOptions, Value, read_options,
    write_options,
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

impl RulesOptions for HnefataflRules {}

impl Configurable for HnefataflRules {
    const WHAT: &'static str = "hnefatafl rules";
    const OPTIONS: &'static [Declared<Self>] = &[
        Declared {
            key: "repetition",
            kind: Kind::Switch,
            help: "the third occurrence of a position is a loss for the defenders",
            get: |rules| Value::Switch(rules.repetition_loses),
            set: |rules, value| {
                rules.repetition_loses = value.switch();
                Ok(())
            },
        },
        Declared {
            key: "ply-limit",
            kind: LIMIT,
            help: "the game is drawn after this many plies",
            get: |rules| Value::from_limit(rules.ply_limit),
            set: |rules, value| {
                rules.ply_limit = value.limit();
                Ok(())
            },
        },
    ];
}

impl FromStr for HnefataflRules {
    type Err = ParseError;

    /// Reads `repetition=on|off,ply-limit=N|none`; options left out keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        read_options(text)
    }
}

impl fmt::Display for HnefataflRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_options(self))
    }
}
