//! Positions as written, before they are checked against the rules: the
//! deal (the path's colours and the gods' order) and where everything stands.
//!
//! A position is written as its deal followed by `key=value` fields:
//! `RRRRRRBBBBBBGGGGGGYYYYYY:RBGY gods=R1,B10,G15,Y20 wolf=22 collected=1 last=R`.
//! Fields left out take their starting values, so a deal alone is the start of
//! that deal.

use super::board::{Colour, MAX_COLOURS, MAX_TILES, ODIN, tile_bit, tile_range, tiles_of};
use super::options::FenrirPathRules;
use crate::core::{ParseError, Setup};
use crate::games::board_text::single_letter;
use rand::seq::SliceRandom;
use std::fmt;
use std::str::FromStr;

/// A deal: the colours of the fetter tiles along the path from tile 1, and
/// the colours of the gods on their starting tiles, nearest Odin first.
///
/// Its text form is the tile letters, a colon and the god letters:
/// `RRRRRRBBBBBBGGGGGGYYYYYY:RBGY`. Parsing checks only the letters; whether
/// the deal fits a configuration is checked by [`Deal::validate`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    /// The colour of each fetter tile along the path, tile 1 first.
    pub tiles: Vec<Colour>,
    /// The colour of each god on its starting tile, nearest Odin first.
    pub gods: Vec<Colour>,
}

impl Deal {
    /// A uniformly random deal for `rules`: every order of the tiles and
    /// every order of the gods is equally likely.
    pub fn random(rules: &FenrirPathRules, rng: &mut crate::core::GameRng) -> Deal {
        let colours = &Colour::ALL[..rules.colours() as usize];
        let mut tiles: Vec<Colour> = colours
            .iter()
            .flat_map(|&colour| std::iter::repeat_n(colour, rules.tiles_per_colour() as usize))
            .collect();
        tiles.shuffle(rng);
        let mut gods = colours.to_vec();
        gods.shuffle(rng);
        Deal { tiles, gods }
    }

    /// The deal of the real game with tiles and gods in colour order, as the
    /// tiles come out of the box.
    pub fn sorted(rules: &FenrirPathRules) -> Deal {
        let colours = &Colour::ALL[..rules.colours() as usize];
        Deal {
            tiles: colours
                .iter()
                .flat_map(|&colour| std::iter::repeat_n(colour, rules.tiles_per_colour() as usize))
                .collect(),
            gods: colours.to_vec(),
        }
    }

    /// Checks that the deal has the tiles and gods `rules` call for.
    pub fn validate(&self, rules: &FenrirPathRules) -> Result<(), ParseError> {
        let text = self.to_string();
        let bad = |problem: String| Err(ParseError::new("deal", &text, problem));
        let colours = rules.colours() as usize;
        let per_colour = rules.tiles_per_colour() as usize;
        if self.tiles.len() != colours * per_colour {
            return bad(format!(
                "{} tiles, but the game has {} ({colours} colours of {per_colour})",
                self.tiles.len(),
                colours * per_colour
            ));
        }
        for &colour in &Colour::ALL {
            let count = self.tiles.iter().filter(|&&tile| tile == colour).count();
            if colour.index() >= colours {
                if count > 0 {
                    return bad(format!(
                        "{colour} tiles, but the game has only {}",
                        colour_list(colours)
                    ));
                }
            } else if count != per_colour {
                return bad(format!("{count} {colour} tiles instead of {per_colour}"));
            }
        }
        if self.gods.len() != colours {
            return bad(format!(
                "{} gods, but the game has {colours}",
                self.gods.len()
            ));
        }
        for (index, &god) in self.gods.iter().enumerate() {
            if god.index() >= colours {
                return bad(format!(
                    "a {god} god, but the game has only {}",
                    colour_list(colours)
                ));
            }
            if self.gods[..index].contains(&god) {
                return bad(format!("two {god} gods"));
            }
        }
        Ok(())
    }
}

/// "red and blue", "red, blue and green", ...
fn colour_list(colours: usize) -> String {
    let names: Vec<&str> = Colour::ALL[..colours].iter().map(|c| c.name()).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl Setup for Deal {}

impl FromStr for Deal {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: String| ParseError::new("deal", text, problem);
        let trimmed = text.trim();
        let (tiles, gods) = trimmed.split_once(':').ok_or_else(|| {
            bad("a deal is the tile colours, a colon and the god colours, e.g. RRRRRRBBBBBBGGGGGGYYYYYY:RBGY".into())
        })?;
        let letters = |part: &str, what: &str| -> Result<Vec<Colour>, ParseError> {
            part.chars()
                .enumerate()
                .map(|(index, letter)| {
                    Colour::from_letter(letter).ok_or_else(|| {
                        bad(format!(
                            "`{letter}` ({what} {}) is not a colour (R, B, G or Y)",
                            index + 1
                        ))
                    })
                })
                .collect()
        };
        let tiles = letters(tiles, "tile")?;
        if tiles.len() > MAX_TILES {
            return Err(bad(format!(
                "{} tiles, but a path has at most {MAX_TILES}",
                tiles.len()
            )));
        }
        Ok(Deal {
            tiles,
            gods: letters(gods, "god")?,
        })
    }
}

impl fmt::Display for Deal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for tile in &self.tiles {
            write!(f, "{}", tile.letter())?;
        }
        f.write_str(":")?;
        for god in &self.gods {
            write!(f, "{}", god.letter())?;
        }
        Ok(())
    }
}

/// The text of the state before the deal.
pub const UNDEALT: &str = "undealt";

/// A position as written, before it is checked against the rules: `undealt`
/// before the deal, and afterwards the deal and where everything stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenrirPathSetup {
    /// The state before the deal.
    Undealt,
    /// A dealt position.
    Dealt(DealtSetup),
}

impl From<Deal> for FenrirPathSetup {
    /// The start of `deal`.
    fn from(deal: Deal) -> FenrirPathSetup {
        FenrirPathSetup::Dealt(DealtSetup::start_of(deal))
    }
}

impl Setup for FenrirPathSetup {}

impl FromStr for FenrirPathSetup {
    type Err = ParseError;

    /// Reads `undealt` or a dealt position (see [`DealtSetup`]).
    fn from_str(text: &str) -> Result<Self, ParseError> {
        if text.trim() == UNDEALT {
            return Ok(FenrirPathSetup::Undealt);
        }
        text.parse().map(FenrirPathSetup::Dealt)
    }
}

impl fmt::Display for FenrirPathSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenrirPathSetup::Undealt => f.write_str(UNDEALT),
            FenrirPathSetup::Dealt(setup) => setup.fmt(f),
        }
    }
}

/// A dealt position as written, before it is checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealtSetup {
    /// The tiles and the gods as dealt.
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

impl DealtSetup {
    /// The start of `deal`: gods on their starting tiles, the wolf on the last
    /// tile, nothing collected, no god has moved.
    pub fn start_of(deal: Deal) -> DealtSetup {
        DealtSetup {
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
        let colours = rules.colours() as usize;
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
            if complete >= rules.sets_to_win() as usize {
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

impl FromStr for DealtSetup {
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
        let mut setup = DealtSetup::start_of(deal);
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
                    if let Some(extra) = Colour::ALL
                        .into_iter()
                        .find(|god| listed[god.index()] && !setup.deal.gods.contains(god))
                    {
                        return Err(bad(format!(
                            "`gods` places {extra}, a god the deal does not have"
                        )));
                    }
                    // A deal that names a god twice has fewer gods to place.
                    let placed = listed.iter().filter(|&&l| l).count();
                    if placed != count {
                        return Err(bad(format!(
                            "`gods` places {placed} gods, but the deal has {count}"
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
                        _ => Some(single_letter(value, Colour::from_letter).ok_or_else(|| {
                            bad(format!(
                                "`last` takes a god's letter (R, B, G, Y) or -, not `{value}`"
                            ))
                        })?),
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

impl fmt::Display for DealtSetup {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;

    #[test]
    fn deals_print_as_they_were_read() {
        let text = "RRRRRRBBBBBBGGGGGGYYYYYY:RBGY";
        let deal: Deal = text.parse().unwrap();
        assert_eq!(deal.to_string(), text);
        deal.validate(&FenrirPathRules::default()).unwrap();
        assert_eq!(deal, Deal::sorted(&FenrirPathRules::default()));
    }

    #[test]
    fn bad_deals_name_the_problem() {
        let rules = FenrirPathRules::default();
        let cases = [
            ("RRRRRRBBBBBBGGGGGGYYYYYY", "colon"),
            ("RRRRRRBBBBBBGGGGGGYYYYYX:RBGY", "`X`"),
            ("RRRRRRBBBBBBGGGGGGYYYYY:RBGY", "23 tiles"),
            ("RRRRRRRBBBBBGGGGGGYYYYYY:RBGY", "7 red tiles"),
            ("RRRRRRBBBBBBGGGGGGYYYYYY:RBG", "3 gods"),
            ("RRRRRRBBBBBBGGGGGGYYYYYY:RBGG", "two green gods"),
            ("RRRRRRBBBBBBGGGGGGYYYYYYR:RBGY", "at most 24"),
        ];
        for (text, expected) in cases {
            let error = text
                .parse::<Deal>()
                .and_then(|deal| deal.validate(&rules))
                .unwrap_err()
                .to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }

    #[test]
    fn random_deals_are_valid_and_vary() {
        let rules = FenrirPathRules::default();
        let mut rng = rng_from_seed(1);
        let first = Deal::random(&rules, &mut rng);
        first.validate(&rules).unwrap();
        let second = Deal::random(&rules, &mut rng);
        second.validate(&rules).unwrap();
        assert_ne!(first, second);
    }

    #[test]
    fn the_state_before_the_deal_has_a_setup() {
        use crate::core::{Game, Notation};
        use crate::games::fenrir_path::FenrirPath;
        let rules = FenrirPathRules::default();
        let undealt = FenrirPath::new(rules);
        assert_eq!(undealt.setup(), FenrirPathSetup::Undealt);
        assert_eq!(undealt.setup().to_string(), UNDEALT);
        let setup: FenrirPathSetup = " undealt ".parse().unwrap();
        assert_eq!(FenrirPath::from_setup(&setup, rules).unwrap(), undealt);
    }

    #[test]
    fn gods_placed_must_be_the_gods_of_the_deal() {
        // Each was read once and printed as a text that did not read back.
        for (text, problem) in [
            (
                "GYYRBGGYYRBBGRRBGYYGRBBR:RYGR gods=R3,B0,G16,Y10",
                "blue, a god the deal does not have",
            ),
            (
                "GYYRBGGYYRBBGRRBGYYGRBBR:RYGR gods=R3,G16,Y10",
                "places 3 gods, but the deal has 4",
            ),
        ] {
            let error = text.parse::<DealtSetup>().unwrap_err().to_string();
            assert!(error.contains(problem), "{text}: {error}");
        }
    }
}
