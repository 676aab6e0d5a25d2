//! Text forms: positions (a deal plus where everything stands), moves such as
//! `R7`, and diagrams.
//!
//! A position is written as its deal followed by `key=value` fields:
//! `RRRRRRBBBBBBGGGGGGYYYYYY:RBGY gods=R1,B10,G15,Y20 wolf=22 collected=1 last=R`.
//! Fields left out take their starting values, so a deal alone is the start of
//! that deal.

use super::board::{Colour, Deal, MAX_COLOURS, ODIN, tile_bit, tile_range, tiles_of};
use super::state::{FenrirPath, FenrirPathRules, PathMove, TurnOrder};
use crate::core::{Game, MoveList, Notation, ParseError};
use std::fmt;
use std::str::FromStr;

/// A position as written, before it is checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenrirPathSetup {
    pub deal: Deal,
    /// The tile of each god by colour index; `None` puts every god on its
    /// starting tile.
    pub gods: Option<[u8; MAX_COLOURS]>,
    /// The wolf's tile; `None` is its starting tile, the last of the path.
    pub wolf: Option<u8>,
    /// Collected tiles as bits (bit `i` is tile `i`).
    pub collected: u32,
    /// The god that moved last, which may not move next in free turn order.
    pub last_mover: Option<Colour>,
}

impl FenrirPathSetup {
    /// The start of `deal`: gods on their starting tiles, the wolf on the last
    /// tile, nothing collected, no god has moved.
    pub fn start_of(deal: Deal) -> FenrirPathSetup {
        FenrirPathSetup {
            deal,
            gods: None,
            wolf: None,
            collected: 0,
            last_mover: None,
        }
    }

    /// The tile of each god, the starting tiles filled in.
    pub fn god_tiles(&self, rules: &FenrirPathRules) -> [u8; MAX_COLOURS] {
        self.gods.unwrap_or_else(|| {
            let mut tiles = [ODIN; MAX_COLOURS];
            for (order, god) in self.deal.gods.iter().enumerate() {
                tiles[god.index()] = rules.start_tile(order);
            }
            tiles
        })
    }

    /// The wolf's tile, the starting tile filled in.
    pub fn wolf_tile(&self, rules: &FenrirPathRules) -> u8 {
        self.wolf.unwrap_or(rules.last_tile())
    }

    /// Checks what the rules require of any position.
    pub fn validate(&self, rules: &FenrirPathRules) -> Result<(), ParseError> {
        self.deal.validate(rules)?;
        let text = self.to_string();
        let bad = |problem: String| Err(ParseError::new("position", &text, problem));
        let last = rules.last_tile();
        let colours = rules.colours as usize;
        let gods = self.god_tiles(rules);
        let wolf = self.wolf_tile(rules);
        if wolf > last {
            return bad(format!(
                "the wolf is on tile {wolf}, but the path ends at {last}"
            ));
        }
        for god in &Colour::ALL[..colours] {
            let tile = gods[god.index()];
            if tile > last {
                return bad(format!(
                    "{god} is on tile {tile}, but the path ends at {last}"
                ));
            }
            if tile != ODIN && tile == wolf {
                return bad(format!("{god} and the wolf are both on tile {tile}"));
            }
            if let Some(other) = Colour::ALL[..god.index()]
                .iter()
                .find(|other| tile != ODIN && gods[other.index()] == tile)
            {
                return bad(format!(
                    "{other} and {god} are both on tile {tile}; only Odin's tile is shared"
                ));
            }
        }
        if self.collected & !tile_range(1, last) != 0 {
            return bad(format!(
                "collected tiles must be between 1 and {last} (Odin's tile has no colour)"
            ));
        }
        if let Some(mover) = self.last_mover
            && mover.index() >= colours
        {
            return bad(format!("there is no {mover} god in this game"));
        }
        if wolf == ODIN {
            let mut colour_tiles = [0u32; MAX_COLOURS];
            for (index, colour) in self.deal.tiles.iter().enumerate() {
                colour_tiles[colour.index()] |= tile_bit(index as u8 + 1);
            }
            let complete = colour_tiles[..colours]
                .iter()
                .filter(|&&tiles| tiles & !self.collected == 0)
                .count();
            if complete >= rules.sets_to_win as usize {
                return bad("the wolf is on Odin's tile, but the gods have already won".into());
            }
        }
        Ok(())
    }
}

/// Reads a tile number.
fn parse_tile(text: &str, value: &str, what: &str) -> Result<u8, ParseError> {
    value.parse().map_err(|_| {
        ParseError::new(
            "position",
            text,
            format!("`{value}` is not a tile number ({what})"),
        )
    })
}

impl FromStr for FenrirPathSetup {
    type Err = ParseError;

    /// Reads a deal optionally followed by `gods=R5,B10,...`, `wolf=N`,
    /// `collected=1,7,...` (or `-`) and `last=R` (or `-`), in any order.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: String| ParseError::new("position", text, problem);
        let mut words = text.split_whitespace();
        let deal: Deal = words
            .next()
            .ok_or_else(|| bad("the text is empty".into()))?
            .parse()?;
        let mut setup = FenrirPathSetup::start_of(deal);
        let mut seen: Vec<&str> = Vec::new();
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| bad(format!("`{word}` is not of the form key=value")))?;
            if seen.contains(&key) {
                return Err(bad(format!("`{key}` is given twice")));
            }
            seen.push(key);
            match key {
                "gods" => {
                    let mut tiles = [ODIN; MAX_COLOURS];
                    let mut listed = [false; MAX_COLOURS];
                    for item in value.split(',') {
                        let mut chars = item.chars();
                        let colour =
                            chars.next().and_then(Colour::from_letter).ok_or_else(|| {
                                bad(format!("`{item}` is not a god and a tile, e.g. R5"))
                            })?;
                        if listed[colour.index()] {
                            return Err(bad(format!("{colour} is placed twice")));
                        }
                        listed[colour.index()] = true;
                        tiles[colour.index()] = parse_tile(text, chars.as_str(), "gods")?;
                    }
                    let count = setup.deal.gods.len();
                    if let Some(missing) = setup.deal.gods.iter().find(|god| !listed[god.index()]) {
                        return Err(bad(format!("`gods` does not place {missing}")));
                    }
                    if listed.iter().filter(|&&l| l).count() != count {
                        return Err(bad(format!(
                            "`gods` places more than the deal's {count} gods"
                        )));
                    }
                    setup.gods = Some(tiles);
                }
                "wolf" => setup.wolf = Some(parse_tile(text, value, "wolf")?),
                "collected" => {
                    if value != "-" {
                        for item in value.split(',') {
                            let tile = parse_tile(text, item, "collected")?;
                            if tile > 31 {
                                return Err(bad(format!("tile {tile} is not on the path")));
                            }
                            setup.collected |= tile_bit(tile);
                        }
                    }
                }
                "last" => {
                    setup.last_mover = match value {
                        "-" => None,
                        _ => {
                            let mut chars = value.chars();
                            match (chars.next().and_then(Colour::from_letter), chars.next()) {
                                (Some(colour), None) => Some(colour),
                                _ => {
                                    return Err(bad(format!(
                                        "`last` takes a god's letter (R, B, G, Y) or -, not `{value}`"
                                    )));
                                }
                            }
                        }
                    }
                }
                _ => {
                    return Err(bad(format!(
                        "unknown field `{key}` (fields: gods, wolf, collected, last)"
                    )));
                }
            }
        }
        Ok(setup)
    }
}

impl fmt::Display for FenrirPathSetup {
    /// The deal, then only the fields that are given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.deal)?;
        if let Some(tiles) = self.gods {
            let mut gods: Vec<Colour> = self.deal.gods.clone();
            gods.sort();
            let placed: Vec<String> = gods
                .iter()
                .map(|god| format!("{}{}", god.letter(), tiles[god.index()]))
                .collect();
            write!(f, " gods={}", placed.join(","))?;
        }
        if let Some(wolf) = self.wolf {
            write!(f, " wolf={wolf}")?;
        }
        if self.gods.is_some() || self.collected != 0 {
            let tiles: Vec<String> = tiles_of(self.collected).map(|t| t.to_string()).collect();
            let list = if tiles.is_empty() {
                "-".to_string()
            } else {
                tiles.join(",")
            };
            write!(f, " collected={list}")?;
        }
        if self.gods.is_some() || self.last_mover.is_some() {
            match self.last_mover {
                Some(god) => write!(f, " last={}", god.letter())?,
                None => f.write_str(" last=-")?,
            }
        }
        Ok(())
    }
}

impl Notation for FenrirPath {
    /// The deal and every field, e.g.
    /// `RRRRRRBBBBBBGGGGGGYYYYYY:RBGY gods=R5,B10,G15,Y20 wolf=24 collected=- last=-`.
    /// Before the deal there is no position, and the text is `undealt`.
    fn position_text(&self) -> String {
        if !self.dealt {
            return "undealt".to_string();
        }
        self.setup().to_string()
    }

    fn from_position_text(text: &str, rules: FenrirPathRules) -> Result<Self, ParseError> {
        if text.trim() == "undealt" {
            return Ok(FenrirPath::new(rules));
        }
        FenrirPath::from_setup(&text.parse()?, rules)
    }

    fn move_text(&self, mv: PathMove) -> String {
        mv.to_string()
    }

    /// Reads a god's letter and the tile it ends on, e.g. `R7` or `g12`.
    fn parse_move(&self, text: &str) -> Result<PathMove, ParseError> {
        let trimmed = text.trim();
        let mut chars = trimmed.chars();
        let god = chars.next().and_then(Colour::from_letter).ok_or_else(|| {
            ParseError::new(
                "move",
                text,
                "a move is a god's letter (R, B, G, Y) and the tile it ends on, e.g. R7",
            )
        })?;
        let to: u8 = chars.as_str().parse().map_err(|_| {
            ParseError::new(
                "move",
                text,
                format!("`{}` is not a tile number", chars.as_str()),
            )
        })?;
        let mv = PathMove { god, to };
        self.check_move(mv)
            .map_err(|illegal| ParseError::new("move", text, illegal.reason()))?;
        Ok(mv)
    }

    /// Two rows under the tile numbers: the tile colours (`-` when
    /// collected) and the pieces (`W` the wolf, god letters), then the
    /// state of play.
    fn diagram(&self) -> String {
        if !self.dealt {
            return "the tiles have not been dealt\n".to_string();
        }
        let last = self.rules.last_tile();
        let odin_gods: String = self
            .colours()
            .filter(|god| self.gods[god.index()] == ODIN)
            .map(Colour::letter)
            .collect();
        let odin_width = odin_gods.len().max(4);
        let mut numbers = format!("tile  {:>odin_width$}", "0");
        let mut colours = format!("path  {:>odin_width$}", "Odin");
        let mut pieces = format!("      {odin_gods:>odin_width$}");
        for tile in 1..=last {
            numbers.push_str(&format!("{tile:>3}"));
            let colour = match self.tile_colour(tile) {
                _ if self.collected & tile_bit(tile) != 0 => '-',
                Some(colour) => colour.letter(),
                None => '?',
            };
            colours.push_str(&format!("{colour:>3}"));
            let piece = if self.wolf == tile {
                'W'
            } else {
                self.colours()
                    .find(|god| self.gods[god.index()] == tile)
                    .map_or(' ', Colour::letter)
            };
            pieces.push_str(&format!("{piece:>3}"));
        }
        let mut out = format!("{numbers}\n{colours}\n{}\n", pieces.trim_end());
        out.push_str(&format!(
            "sets complete {}/{}, wolf on tile {}\n",
            self.complete_sets(),
            self.rules.sets_to_win,
            self.wolf
        ));
        match self.ending {
            Some(reason) => {
                let result = if reason.is_win() {
                    "the gods win"
                } else {
                    "the gods lose"
                };
                out.push_str(&format!("game over: {result} ({})\n", reason.name()));
            }
            None => {
                let mut moves = MoveList::new();
                self.legal_moves(&mut moves);
                let who: Vec<&str> = self.gods_to_move().map(Colour::name).collect();
                let order = match self.rules.turn_order {
                    TurnOrder::Free => "free turn order",
                    TurnOrder::Fixed => "fixed turn order",
                };
                out.push_str(&format!(
                    "to move: {} ({order}), {} legal moves, ply {}\n",
                    who.join(" or "),
                    moves.len(),
                    self.ply
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_alone_is_the_start_of_the_deal() {
        let rules = FenrirPathRules::default();
        let state = FenrirPath::from_position_text("RRRRRRBBBBBBGGGGGGYYYYYY:GRYB", rules).unwrap();
        assert_eq!(
            state.position_text(),
            "RRRRRRBBBBBBGGGGGGYYYYYY:GRYB gods=R10,B20,G5,Y15 wolf=24 collected=- last=-"
        );
        let again = FenrirPath::from_position_text(&state.position_text(), rules).unwrap();
        assert_eq!(again, state);
    }

    #[test]
    fn malformed_positions_name_the_problem() {
        let rules = FenrirPathRules::default();
        let deal = "RRRRRRBBBBBBGGGGGGYYYYYY:RBGY";
        let cases = [
            ("", "empty"),
            ("x", "colon"),
            (&format!("{deal} wolf"), "key=value"),
            (&format!("{deal} wolf=x"), "not a tile number"),
            (&format!("{deal} wolf=25"), "path ends at 24"),
            (&format!("{deal} wolf=3 wolf=4"), "twice"),
            (&format!("{deal} gods=R5,B10,G15"), "does not place yellow"),
            (&format!("{deal} gods=R5,B10,G15,Y20,R3"), "placed twice"),
            (&format!("{deal} gods=R5,B5,G15,Y20"), "both on tile 5"),
            (&format!("{deal} gods=R0,B0,G15,Y20"), ""),
            (
                &format!("{deal} gods=R5,B10,G15,Y24"),
                "yellow and the wolf",
            ),
            (&format!("{deal} collected=0"), "Odin's tile has no colour"),
            (&format!("{deal} last=Q"), "`last`"),
            (&format!("{deal} turn=R"), "unknown field"),
            (
                &format!("{deal} wolf=0 collected=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18"),
                "already won",
            ),
        ];
        for (text, expected) in cases {
            match FenrirPath::from_position_text(text, rules) {
                Ok(_) => assert!(expected.is_empty(), "{text} should be rejected"),
                Err(error) => assert!(
                    !expected.is_empty() && error.to_string().contains(expected),
                    "{text}: {error}"
                ),
            }
        }
    }

    #[test]
    fn moves_are_read_and_explained() {
        let rules = FenrirPathRules::default();
        let state = FenrirPath::from_position_text("RRRRRRBBBBBBGGGGGGYYYYYY:RBGY", rules).unwrap();
        assert_eq!(
            state.parse_move("r6").unwrap(),
            PathMove {
                god: Colour::Red,
                to: 6
            }
        );
        for (text, expected) in [
            ("", "god's letter"),
            ("X4", "god's letter"),
            ("R", "not a tile number"),
            ("R9", "cannot end a move on tile 9"),
            ("R40", "cannot end a move on tile 40"),
            ("R300", "not a tile number"),
        ] {
            let error = state.parse_move(text).unwrap_err().to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
