//! The rules options of Nibelungen: every house rule and the round limit.

use super::moves::Pair;
use crate::core::{Declared, Kind, Value};
use std::num::NonZeroU32;

/// When the winning conditions are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinCheck {
    /// After every single character move, on the board as the move leaves
    /// it; the first condition met ends the game (default).
    EveryMove,
    /// Once, after all the characters of a round have moved.
    EndOfRound,
}

impl WinCheck {
    /// The word for the rule in the `win-check` option.
    pub const fn name(self) -> &'static str {
        match self {
            WinCheck::EveryMove => "move",
            WinCheck::EndOfRound => "round",
        }
    }
}

/// The configuration of Nibelungen. `Default` is the game of
/// docs/rules/nibelungen.md: Tod starts with Siegfried and Brunhild in front
/// of its screen and NO with nothing, characters may stay and never pass
/// through occupied points, the conditions are checked after every move,
/// and 30 complete rounds without a winner draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NibelungenRules {
    /// House rule: the pair in front of Tod's screen before round 1
    /// (`tod-start`, default `SB`; `-` for none).
    pub tod_start: Option<Pair>,
    /// House rule: the pair in front of NO's screen before round 1
    /// (`no-start`, default `-`).
    pub no_start: Option<Pair>,
    /// House rule: a character allowed to move may stay where it is
    /// (`stay`, default on). Off: it must end on another point when it can.
    pub stay: bool,
    /// House rule: a two-step move may pass over an occupied point
    /// (`pass-through`, default off).
    pub pass_through: bool,
    /// House rule: when the winning conditions are checked (`win-check`,
    /// `move` by default, or `round`).
    pub win_check: WinCheck,
    /// House rule: the number of complete rounds without a winner after
    /// which the game is drawn (`round-limit`, default 30; `none` for no
    /// limit).
    pub round_limit: Option<NonZeroU32>,
}

impl Default for NibelungenRules {
    fn default() -> Self {
        NibelungenRules {
            tod_start: Some(Pair::SIEGFRIED_BRUNHILD),
            no_start: None,
            stay: true,
            pass_through: false,
            win_check: WinCheck::EveryMove,
            round_limit: NonZeroU32::new(30),
        }
    }
}

/// When the winning conditions are checked, in the order of the option's words.
const WIN_CHECKS: [WinCheck; 2] = [WinCheck::EveryMove, WinCheck::EndOfRound];

/// The declaration of a screen's starting pair.
macro_rules! screen {
    ($key:literal, $field:ident, $help:literal) => {
        Declared {
            key: $key,
            kind: Kind::Text("a pair of two characters' letters (`SB`), or `-` for none"),
            help: $help,
            get: |rules| Value::Text(screen_text(rules.$field)),
            set: |rules, value| {
                rules.$field = parse_screen(value.text())
                    .map_err(|problem| format!("`{}`: {problem} (or `-`)", $key))?;
                Ok(())
            },
        }
    };
}

/// Every option of [`NibelungenRules`], in the order its text is written.
const OPTIONS: &[Declared<NibelungenRules>] = &[
    screen!(
        "tod-start",
        tod_start,
        "house rule: the pair in front of Tod's screen before round 1"
    ),
    screen!(
        "no-start",
        no_start,
        "house rule: the pair in front of NO's screen before round 1"
    ),
    crate::switch_option!(
        "stay",
        stay,
        "house rule: a character allowed to move may stay where it is; `off`: it must end elsewhere when it can"
    ),
    crate::switch_option!(
        "pass-through",
        pass_through,
        "house rule: whether a two-step move may pass over an occupied point (it always ends on an empty one)"
    ),
    crate::choice_option!(
        "win-check",
        win_check,
        WIN_CHECKS,
        &[WinCheck::EveryMove.name(), WinCheck::EndOfRound.name()],
        "house rule: `move`: the conditions are checked after every character move; `round`: once, when all the round's characters have moved"
    ),
    crate::limit_option!(
        "round-limit",
        round_limit,
        "house rule: complete rounds without a winner after which the game is a draw"
    ),
];

crate::rules_options!(NibelungenRules, "nibelungen rules", OPTIONS);

/// A screen's pair as an option value or in a position: `-` for none.
pub(crate) fn screen_text(pair: Option<Pair>) -> String {
    pair.map_or_else(|| "-".to_string(), |pair| pair.to_string())
}

/// Reads a screen's pair written by [`screen_text`].
pub(crate) fn parse_screen(text: &str) -> Result<Option<Pair>, String> {
    match text {
        "-" => Ok(None),
        _ => Pair::parse(text).map(Some),
    }
}
