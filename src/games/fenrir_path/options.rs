//! The rules options of Fenrir's Path: every house rule and the size of
//! the game.

use super::board::{MAX_COLOURS, MAX_TILES};
use crate::core::{Declared, ParseError};
use serde::Serialize;
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
    /// The option's word for the turn order: `free` or `fixed`.
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

/// The turn orders, the rules without moves and for a stuck god, in the
/// order of their options' words.
const TURN_ORDERS: [TurnOrder; 2] = [TurnOrder::Free, TurnOrder::Fixed];
const NO_MOVES: [NoMoves; 2] = [NoMoves::Lose, NoMoves::Pass];
const STUCK_GODS: [StuckGod; 2] = [StuckGod::Skip, StuckGod::Block];

/// Every option of [`FenrirPathRules`], in the order its text is written.
const OPTIONS: &[Declared<FenrirPathRules>] = &[
    // The sizes are bytes, as the state's tile numbers are; how they
    // fit together is checked by `check_together`.
    crate::whole_option!(
        "colours",
        colours,
        2,
        MAX_COLOURS as u64,
        "colours, and gods (red, blue, green, yellow in that order)"
    ),
    crate::whole_option!(
        "tiles-per-colour",
        tiles_per_colour,
        1,
        255,
        "fetter tiles of each colour (at most 24 tiles in all)"
    ),
    crate::whole_option!(
        "sets",
        sets_to_win,
        1,
        MAX_COLOURS as u64,
        "complete colours needed to win (at most the colours)"
    ),
    crate::whole_option!(
        "spacing",
        god_spacing,
        1,
        255,
        "the gods start on tiles `spacing`, `2 × spacing`, ... (all before the wolf)"
    ),
    crate::choice_option!(
        "turn-order",
        turn_order,
        TURN_ORDERS,
        &["free", "fixed"],
        "`free`: the god that moved names the next; `fixed`: red, blue, green, yellow in rotation"
    ),
    crate::switch_option!(
        "repeat-mover",
        repeat_mover,
        "house rule: whether the god that moved may name itself (free turn order)"
    ),
    crate::switch_option!(
        "odin-landing",
        odin_landing,
        "house rule: whether a god may end on the Odin tile while other gods stand there"
    ),
    crate::switch_option!(
        "wolf-sweeps",
        wolf_sweeps,
        "house rule: whether gods the wolf passes over on its two-tile move go to Odin too"
    ),
    crate::choice_option!(
        "no-moves",
        no_moves,
        NO_MOVES,
        &["lose", "pass"],
        "house rule: `lose`, or `pass`: the team loses its turn, the wolf advances two tiles, repeated until a god can move"
    ),
    crate::choice_option!(
        "stuck-god",
        stuck_god,
        STUCK_GODS,
        &["skip", "block"],
        "house rule, fixed turn order: a god that cannot move is `skip`ped, or `block`s the team (then `no-moves` applies)"
    ),
];

crate::rules_options!(FenrirPathRules, "fenrir-path rules", OPTIONS, {
    /// Checks that the sizes fit together and fit the state's tile numbers
    /// (the products are taken in `u32`, so that no size wraps around).
    fn check_together(&self) -> Result<(), String> {
        let tiles = u32::from(self.colours) * u32::from(self.tiles_per_colour);
        if tiles as usize > MAX_TILES {
            return Err(format!(
                "`tiles-per-colour` must give at most {MAX_TILES} tiles ({} colours of {} is {tiles})",
                self.colours, self.tiles_per_colour,
            ));
        }
        if self.sets_to_win > self.colours {
            return Err(format!(
                "`sets` must be between 1 and the number of colours ({}), not {}",
                self.colours, self.sets_to_win
            ));
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
});

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

    /// Whether the team names the next god (`free`, the default) or the gods move
    /// in rotation (`fixed`).
    pub fn turn_order(&self) -> TurnOrder {
        self.turn_order
    }

    /// House rule: whether the god that moved may name itself to move again (free
    /// turn order only; default no).
    pub fn repeat_mover(&self) -> bool {
        self.repeat_mover
    }

    /// House rule: whether a god may land on the Odin tile while other gods stand
    /// there (default yes).
    pub fn odin_landing(&self) -> bool {
        self.odin_landing
    }

    /// House rule: whether the gods the wolf passes over on its two-tile move are
    /// sent to Odin too (default no).
    pub fn wolf_sweeps(&self) -> bool {
        self.wolf_sweeps
    }

    /// House rule: what happens when no god that may be named can move.
    pub fn no_moves(&self) -> NoMoves {
        self.no_moves
    }

    /// House rule, fixed turn order: what happens when the god whose turn it is
    /// cannot move.
    pub fn stuck_god(&self) -> StuckGod {
        self.stuck_god
    }
}
