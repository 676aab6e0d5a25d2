//! The rules options of Fenrir's Path: every house rule and the size of
//! the game.

use super::board::{MAX_COLOURS, MAX_TILES};
use crate::core::{
    ParseError, RulesOptions, parse_key_values, parse_switch, parse_value, unknown_key,
};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Who moves next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TurnOrder {
    /// The god that moved names the next god (the team decides).
    Free,
    /// The gods move in a fixed rotation: red, blue, green, yellow, red, ...
    Fixed,
}

impl TurnOrder {
    pub fn name(self) -> &'static str {
        match self {
            TurnOrder::Free => "free",
            TurnOrder::Fixed => "fixed",
        }
    }
}

impl FromStr for TurnOrder {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        match text.trim() {
            "free" => Ok(TurnOrder::Free),
            "fixed" => Ok(TurnOrder::Fixed),
            _ => Err(ParseError::new(
                "turn order",
                text,
                "the turn order is `free` or `fixed`",
            )),
        }
    }
}

/// The configuration of Fenrir's Path: every house rule and the size of the
/// game. `Default` is the real game: four colours of six tiles, three sets to
/// win, gods on tiles 5, 10, 15 and 20, and the house rules of
/// docs/rules/fenrir-path.md.
///
/// Smaller sizes keep every rule and make exhaustive checks possible. The
/// path has `colours * tiles_per_colour` fetter tiles after the Odin tile;
/// the wolf starts on the last one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct FenrirPathRules {
    /// Number of colours, and of gods (2 to 4; the colours are taken in the
    /// order red, blue, green, yellow).
    colours: u8,
    /// Tiles of each colour on the path (at most 24 tiles in all).
    tiles_per_colour: u8,
    /// Complete sets the gods need to win.
    sets_to_win: u8,
    /// The gods start on tiles `spacing`, `2 * spacing`, ...
    god_spacing: u8,
    /// Whether the team names the next god or the gods move in rotation.
    turn_order: TurnOrder,
    /// House rule: the god that moved may name itself to move again
    /// (default: no, it must name another god). Free turn order only.
    repeat_mover: bool,
    /// House rule: a god may land on the Odin tile while other gods stand
    /// there (default: yes, it counts as empty for landing).
    odin_landing: bool,
    /// House rule: the gods the wolf passes over on its two-tile move are
    /// sent to Odin too (default: no, only the god where it stops).
    wolf_sweeps: bool,
    /// House rule: what happens when no god that may be named can move.
    no_moves: NoMoves,
    /// House rule, fixed turn order: what happens when the god whose turn it
    /// is cannot move.
    stuck_god: StuckGod,
}

/// What happens when the team has no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NoMoves {
    /// The gods lose (default).
    Lose,
    /// The turn is lost: the wolf moves two tiles forward, and in free turn
    /// order any god may be named next; repeated until someone can move.
    Pass,
}

/// Fixed turn order: what happens when the god whose turn it is cannot move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StuckGod {
    /// The turn goes to the next god in the rotation that can move (default).
    Skip,
    /// The team has no move (and [`NoMoves`] decides what follows).
    Block,
}

impl Default for FenrirPathRules {
    fn default() -> Self {
        FenrirPathRules {
            colours: 4,
            tiles_per_colour: 6,
            sets_to_win: 3,
            god_spacing: 5,
            turn_order: TurnOrder::Free,
            repeat_mover: false,
            odin_landing: true,
            wolf_sweeps: false,
            no_moves: NoMoves::Lose,
            stuck_god: StuckGod::Skip,
        }
    }
}

impl FenrirPathRules {
    /// The option names of the text form, in the order `Display` writes them.
    pub const KEYS: [&'static str; 10] = [
        "colours",
        "tiles-per-colour",
        "sets",
        "spacing",
        "turn-order",
        "repeat-mover",
        "odin-landing",
        "wolf-sweeps",
        "no-moves",
        "stuck-god",
    ];

    /// The index of the last fetter tile, where the wolf starts (valid rules
    /// keep it within [`MAX_TILES`]).
    #[inline]
    pub fn last_tile(&self) -> u8 {
        self.colours * self.tiles_per_colour
    }

    /// The starting tile of the `index`-th god of a deal (0 nearest Odin).
    #[inline]
    pub fn start_tile(&self, index: usize) -> u8 {
        self.god_spacing * (index as u8 + 1)
    }
}

impl RulesOptions for FenrirPathRules {
    /// Checks that the sizes fit together and fit the state's tile numbers
    /// (the products are taken in `u32`, so that no size wraps around).
    fn validate(&self) -> Result<(), String> {
        if !(2..=MAX_COLOURS as u8).contains(&self.colours) {
            return Err(format!(
                "`colours` must be between 2 and {MAX_COLOURS}, not {}",
                self.colours
            ));
        }
        let tiles = u32::from(self.colours) * u32::from(self.tiles_per_colour);
        if self.tiles_per_colour == 0 || tiles as usize > MAX_TILES {
            return Err(format!(
                "`tiles-per-colour` must be at least 1 and give at most {MAX_TILES} tiles ({} colours of {} is {tiles})",
                self.colours, self.tiles_per_colour,
            ));
        }
        if !(1..=self.colours).contains(&self.sets_to_win) {
            return Err(format!(
                "`sets` must be between 1 and the number of colours ({}), not {}",
                self.colours, self.sets_to_win
            ));
        }
        if self.god_spacing == 0 {
            return Err(
                "`spacing` must be at least 1: the gods stand on different tiles after the start"
                    .into(),
            );
        }
        let last_god = u32::from(self.god_spacing) * u32::from(self.colours);
        if last_god >= tiles {
            return Err(format!(
                "`spacing` {} puts the last god on tile {last_god}, which must be before the wolf's tile {tiles}",
                self.god_spacing
            ));
        }
        Ok(())
    }
}

impl FromStr for FenrirPathRules {
    type Err = ParseError;

    /// Reads `key=value` options, e.g. `turn-order=fixed,colours=3,sets=2`;
    /// options left out keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        const WHAT: &str = "fenrir-path rules";
        let mut rules = FenrirPathRules::default();
        for (key, value) in parse_key_values(text, WHAT)? {
            let switch = || parse_switch(WHAT, text, key, value);
            let choice = |options: &[&str]| {
                options.iter().position(|&o| o == value).ok_or_else(|| {
                    ParseError::new(
                        WHAT,
                        text,
                        format!("`{key}` takes {}, not `{value}`", options.join(" or ")),
                    )
                })
            };
            match key {
                "colours" => rules.colours = parse_value(WHAT, text, key, value)?,
                "tiles-per-colour" => rules.tiles_per_colour = parse_value(WHAT, text, key, value)?,
                "sets" => rules.sets_to_win = parse_value(WHAT, text, key, value)?,
                "spacing" => rules.god_spacing = parse_value(WHAT, text, key, value)?,
                "turn-order" => {
                    rules.turn_order =
                        [TurnOrder::Free, TurnOrder::Fixed][choice(&["free", "fixed"])?]
                }
                "repeat-mover" => rules.repeat_mover = switch()?,
                "odin-landing" => rules.odin_landing = switch()?,
                "wolf-sweeps" => rules.wolf_sweeps = switch()?,
                "no-moves" => {
                    rules.no_moves = [NoMoves::Lose, NoMoves::Pass][choice(&["lose", "pass"])?]
                }
                "stuck-god" => {
                    rules.stuck_god = [StuckGod::Skip, StuckGod::Block][choice(&["skip", "block"])?]
                }
                _ => return Err(unknown_key(WHAT, text, key, &FenrirPathRules::KEYS)),
            }
        }
        rules
            .validate()
            .map_err(|problem| ParseError::new(WHAT, text, problem))?;
        Ok(rules)
    }
}

impl fmt::Display for FenrirPathRules {
    /// The full text form, which reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let switch = |on: bool| if on { "on" } else { "off" };
        write!(
            f,
            "colours={},tiles-per-colour={},sets={},spacing={},turn-order={},repeat-mover={},\
             odin-landing={},wolf-sweeps={},no-moves={},stuck-god={}",
            self.colours,
            self.tiles_per_colour,
            self.sets_to_win,
            self.god_spacing,
            self.turn_order.name(),
            switch(self.repeat_mover),
            switch(self.odin_landing),
            switch(self.wolf_sweeps),
            match self.no_moves {
                NoMoves::Lose => "lose",
                NoMoves::Pass => "pass",
            },
            match self.stuck_god {
                StuckGod::Skip => "skip",
                StuckGod::Block => "block",
            },
        )
    }
}

impl FenrirPathRules {
    /// The number of colours, and of gods (2 to 4).
    pub fn colours(&self) -> u8 {
        self.colours
    }

    /// Tiles of each colour on the path.
    pub fn tiles_per_colour(&self) -> u8 {
        self.tiles_per_colour
    }

    /// Complete sets the gods need to win.
    pub fn sets_to_win(&self) -> u8 {
        self.sets_to_win
    }

    /// The distance between the gods' starting tiles.
    pub fn god_spacing(&self) -> u8 {
        self.god_spacing
    }

    pub fn turn_order(&self) -> TurnOrder {
        self.turn_order
    }

    pub fn repeat_mover(&self) -> bool {
        self.repeat_mover
    }

    pub fn odin_landing(&self) -> bool {
        self.odin_landing
    }

    pub fn wolf_sweeps(&self) -> bool {
        self.wolf_sweeps
    }

    pub fn no_moves(&self) -> NoMoves {
        self.no_moves
    }

    pub fn stuck_god(&self) -> StuckGod {
        self.stuck_god
    }
}
