//! The rules options of Stealth Chess: which draw rules end the game by
//! themselves, and the engine's ply limit.

use crate::core::{
    ParseError, RulesOptions, limit_text, parse_key_values, parse_limit, parse_switch, switch_text,
    unknown_key,
};
use serde::Serialize;
use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

/// The rules options of Stealth Chess. `Default` is the game of the rules
/// page: every draw rule on, no ply limit (the fifty-move rule already
/// bounds every game).
///
/// Turning the draw rules off gives plain move-generation counts, as the
/// published chess perft numbers count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StealthChessRules {
    /// A position occurring for the third time (same side to move, castling
    /// rights, en passant chance, Slurk counts and entry points) is a draw.
    pub repetition: bool,
    /// A hundred plies without a pawn move or a capture are a draw.
    pub fifty_moves: bool,
    /// Kings alone, or a king and one bishop or knight against a king, with
    /// no pawn or Assassin left, are a draw.
    pub insufficient_material: bool,
    /// The game is drawn after this many plies; `None` plays on.
    pub ply_limit: Option<NonZeroU32>,
}

impl StealthChessRules {
    /// Every draw rule off and no ply limit: the game ends only by
    /// checkmate and stalemate, as chess perft counts it.
    pub const MOVES_ONLY: StealthChessRules = StealthChessRules {
        repetition: false,
        fifty_moves: false,
        insufficient_material: false,
        ply_limit: None,
    };
}

impl Default for StealthChessRules {
    fn default() -> Self {
        StealthChessRules {
            repetition: true,
            fifty_moves: true,
            insufficient_material: true,
            ply_limit: None,
        }
    }
}

impl RulesOptions for StealthChessRules {
    /// Any combination of the switches and any ply limit make a playable game.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

const KEYS: [&str; 4] = [
    "repetition",
    "fifty-moves",
    "insufficient-material",
    "ply-limit",
];

impl FromStr for StealthChessRules {
    type Err = ParseError;

    /// Reads `repetition=on|off,fifty-moves=on|off,
    /// insufficient-material=on|off,ply-limit=N|none`; options left out keep
    /// their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        const WHAT: &str = "stealth-chess rules";
        let mut rules = StealthChessRules::default();
        for (key, value) in parse_key_values(text, WHAT)? {
            match key {
                "repetition" => rules.repetition = parse_switch(WHAT, text, key, value)?,
                "fifty-moves" => rules.fifty_moves = parse_switch(WHAT, text, key, value)?,
                "insufficient-material" => {
                    rules.insufficient_material = parse_switch(WHAT, text, key, value)?;
                }
                "ply-limit" => rules.ply_limit = parse_limit(WHAT, text, key, value)?,
                _ => return Err(unknown_key(WHAT, text, key, &KEYS)),
            }
        }
        Ok(rules)
    }
}

impl fmt::Display for StealthChessRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "repetition={},fifty-moves={},insufficient-material={},ply-limit={}",
            switch_text(self.repetition),
            switch_text(self.fifty_moves),
            switch_text(self.insufficient_material),
            limit_text(self.ply_limit)
        )
    }
}
