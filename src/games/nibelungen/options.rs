//! The rules options of Nibelungen: every house rule and the round limit.

use super::moves::Pair;
use crate::core::{
    ParseError, RulesOptions, limit_text, parse_choice, parse_key_values, parse_limit,
    parse_switch, switch_text, unknown_key,
};
use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

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

impl NibelungenRules {
    /// The option names of the text form, in the order `Display` writes them.
    pub const KEYS: [&'static str; 6] = [
        "tod-start",
        "no-start",
        "stay",
        "pass-through",
        "win-check",
        "round-limit",
    ];
}

impl RulesOptions for NibelungenRules {
    /// Every combination of options is a game.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

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

impl FromStr for NibelungenRules {
    type Err = ParseError;

    /// Reads `key=value` options, e.g. `round-limit=10,stay=off`; options
    /// left out keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        const WHAT: &str = "nibelungen rules";
        let mut rules = NibelungenRules::default();
        for (key, value) in parse_key_values(text, WHAT)? {
            let screen = || {
                parse_screen(value).map_err(|problem| {
                    ParseError::new(WHAT, text, format!("`{key}`: {problem} (or `-`)"))
                })
            };
            match key {
                "tod-start" => rules.tod_start = screen()?,
                "no-start" => rules.no_start = screen()?,
                "stay" => rules.stay = parse_switch(WHAT, text, key, value)?,
                "pass-through" => rules.pass_through = parse_switch(WHAT, text, key, value)?,
                "win-check" => {
                    rules.win_check = parse_choice(
                        WHAT,
                        text,
                        key,
                        value,
                        &[
                            ("move", WinCheck::EveryMove),
                            ("round", WinCheck::EndOfRound),
                        ],
                    )?
                }
                "round-limit" => rules.round_limit = parse_limit(WHAT, text, key, value)?,
                _ => return Err(unknown_key(WHAT, text, key, &NibelungenRules::KEYS)),
            }
        }
        Ok(rules)
    }
}

impl fmt::Display for NibelungenRules {
    /// The full text form, which reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tod-start={},no-start={},stay={},pass-through={},win-check={},round-limit={}",
            screen_text(self.tod_start),
            screen_text(self.no_start),
            switch_text(self.stay),
            switch_text(self.pass_through),
            self.win_check.name(),
            limit_text(self.round_limit),
        )
    }
}
