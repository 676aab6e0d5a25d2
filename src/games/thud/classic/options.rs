//! The rules options of classic Thud: the troll capture house rule and the
//! engine's two limits.

use crate::core::{
    Configurable, Declared, Kind, LIMIT, ParseError, RulesOptions, Value, read_options,
    write_options,
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

impl RulesOptions for ThudRules {}

/// The troll capture rules in the order of their option's words.
const TROLL_CAPTURES: [TrollCaptures; 2] = [TrollCaptures::AllOrNone, TrollCaptures::AnySubset];

impl Configurable for ThudRules {
    const WHAT: &'static str = "thud rules";
    const OPTIONS: &'static [Declared<Self>] = &[
        Declared {
            key: "troll-captures",
            kind: Kind::Choice(&[
                TrollCaptures::AllOrNone.name(),
                TrollCaptures::AnySubset.name(),
            ]),
            help: "house rule: after a step or shove a troll takes every dwarf around it or, after a step, none; `any-subset` lets it take any set of them",
            get: |rules| Value::chosen(&TROLL_CAPTURES, &rules.troll_captures),
            set: |rules, value| {
                rules.troll_captures = value.choose(&TROLL_CAPTURES);
                Ok(())
            },
        },
        Declared {
            key: "no-capture-limit",
            kind: LIMIT,
            help: "the battle ends after this many plies in a row without a capture",
            get: |rules| Value::from_limit(rules.no_capture_limit),
            set: |rules, value| {
                rules.no_capture_limit = value.limit();
                Ok(())
            },
        },
        Declared {
            key: "ply-limit",
            kind: LIMIT,
            help: "the battle ends after this many plies in all",
            get: |rules| Value::from_limit(rules.ply_limit),
            set: |rules, value| {
                rules.ply_limit = value.limit();
                Ok(())
            },
        },
    ];
}

impl FromStr for ThudRules {
    type Err = ParseError;

    /// Reads `troll-captures=all-or-none|any-subset,no-capture-limit=N|none,
    /// ply-limit=N|none`; options left out keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        read_options(text)
    }
}

impl fmt::Display for ThudRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_options(self))
    }
}
