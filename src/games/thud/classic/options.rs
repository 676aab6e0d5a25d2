//! The rules options of classic Thud: the troll capture house rule and the
//! engine's two limits.

use crate::core::{
    ParseError, RulesOptions, limit_text, parse_choice, parse_key_values, parse_limit, unknown_key,
};
use serde::Serialize;
use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

/// Which dwarfs a troll may take after a step or a shove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrollCaptures {
    /// All the dwarfs around the troll's new square, or (after a step) none.
    AllOrNone,
    /// Any set of them; a shove must take at least one.
    AnySubset,
}

impl TrollCaptures {
    pub const fn name(self) -> &'static str {
        match self {
            TrollCaptures::AllOrNone => "all-or-none",
            TrollCaptures::AnySubset => "any-subset",
        }
    }
}

/// The rules options of classic Thud. `Default` is the standard battle with
/// the engine's house rules: all-or-none troll captures and the two limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ThudRules {
    /// Which dwarfs a troll may take (house rule; default all or none).
    pub troll_captures: TrollCaptures,
    /// The battle ends after this many plies without a capture; `None` never.
    pub no_capture_limit: Option<NonZeroU32>,
    /// The battle ends after this many plies in all; `None` never.
    pub ply_limit: Option<NonZeroU32>,
}

impl Default for ThudRules {
    fn default() -> Self {
        ThudRules {
            troll_captures: TrollCaptures::AllOrNone,
            no_capture_limit: NonZeroU32::new(200),
            ply_limit: NonZeroU32::new(800),
        }
    }
}

impl RulesOptions for ThudRules {
    /// Any capture rule and limits make a playable battle.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

impl FromStr for ThudRules {
    type Err = ParseError;

    /// Reads `troll-captures=all-or-none|any-subset,no-capture-limit=N|none,
    /// ply-limit=N|none`; options left out keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        const WHAT: &str = "thud rules";
        let mut rules = ThudRules::default();
        for (key, value) in parse_key_values(text, WHAT)? {
            match key {
                "troll-captures" => {
                    rules.troll_captures = parse_choice(
                        WHAT,
                        text,
                        key,
                        value,
                        &[
                            ("all-or-none", TrollCaptures::AllOrNone),
                            ("any-subset", TrollCaptures::AnySubset),
                        ],
                    )?
                }
                "no-capture-limit" => rules.no_capture_limit = parse_limit(WHAT, text, key, value)?,
                "ply-limit" => rules.ply_limit = parse_limit(WHAT, text, key, value)?,
                _ => {
                    return Err(unknown_key(
                        WHAT,
                        text,
                        key,
                        &["troll-captures", "no-capture-limit", "ply-limit"],
                    ));
                }
            }
        }
        Ok(rules)
    }
}

impl fmt::Display for ThudRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "troll-captures={},no-capture-limit={},ply-limit={}",
            self.troll_captures.name(),
            limit_text(self.no_capture_limit),
            limit_text(self.ply_limit)
        )
    }
}
