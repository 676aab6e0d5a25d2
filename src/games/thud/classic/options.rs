//! The rules options of classic Thud: the troll capture house rule and the
//! engine's two limits.

use crate::core::Declared;
use serde::Serialize;
use std::num::NonZeroU32;

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
    /// The word for the rule in the `troll-captures` option.
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

/// The troll capture rules in the order of their option's words.
const TROLL_CAPTURES: [TrollCaptures; 2] = [TrollCaptures::AllOrNone, TrollCaptures::AnySubset];

/// Every option of [`ThudRules`], in the order its text is written.
const OPTIONS: &[Declared<ThudRules>] = &[
    crate::choice_option!(
        "troll-captures",
        troll_captures,
        TROLL_CAPTURES,
        &[
            TrollCaptures::AllOrNone.name(),
            TrollCaptures::AnySubset.name(),
        ],
        "house rule: after a step or shove a troll takes every dwarf around it or, after a step, none; `any-subset` lets it take any set of them"
    ),
    crate::limit_option!(
        "no-capture-limit",
        no_capture_limit,
        "the battle ends after this many plies in a row without a capture"
    ),
    crate::limit_option!(
        "ply-limit",
        ply_limit,
        "the battle ends after this many plies in all"
    ),
];

crate::rules_options!(ThudRules, "thud rules", OPTIONS);
