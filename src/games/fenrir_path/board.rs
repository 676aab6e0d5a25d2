//! The path: colours, sets of tiles as bits, and deals.

use super::state::FenrirPathRules;
use crate::core::ParseError;
use rand::seq::SliceRandom;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// The Odin tile: the first tile of the path, where the wolf wins and where
/// gods caught by the wolf are sent.
pub const ODIN: u8 = 0;

/// The most colours (and gods) a configuration can have.
pub const MAX_COLOURS: usize = 4;

/// The most tiles a path can have besides the Odin tile, so that a set of
/// tiles fits in the low 25 bits of a `u32`.
pub const MAX_TILES: usize = 24;

/// The colour of a god and of the fetter tiles it collects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Red = 0,
    Blue = 1,
    Green = 2,
    Yellow = 3,
}

impl Colour {
    /// Every colour, in the order a game with fewer colours takes them.
    pub const ALL: [Colour; MAX_COLOURS] =
        [Colour::Red, Colour::Blue, Colour::Green, Colour::Yellow];

    /// The colour with index `index` (0 red .. 3 yellow).
    ///
    /// # Panics
    /// If `index` is 4 or more.
    pub fn from_index(index: usize) -> Colour {
        Colour::ALL[index]
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter used in deals and moves: `R`, `B`, `G` or `Y`.
    pub fn letter(self) -> char {
        ['R', 'B', 'G', 'Y'][self.index()]
    }

    /// Reads a colour letter in either case.
    pub fn from_letter(letter: char) -> Option<Colour> {
        match letter.to_ascii_uppercase() {
            'R' => Some(Colour::Red),
            'B' => Some(Colour::Blue),
            'G' => Some(Colour::Green),
            'Y' => Some(Colour::Yellow),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        ["red", "blue", "green", "yellow"][self.index()]
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The set containing only `tile`.
#[inline]
pub const fn tile_bit(tile: u8) -> u32 {
    1 << tile
}

/// The tiles `low..=high` (empty when `low > high`).
#[inline]
pub const fn tile_range(low: u8, high: u8) -> u32 {
    if low > high {
        0
    } else {
        (u32::MAX >> (31 - high)) & (u32::MAX << low)
    }
}

/// The tiles of a set, in increasing order.
pub fn tiles_of(mut set: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let tile = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(tile)
    })
}

/// A deal: the colours of the fetter tiles along the path from tile 1, and
/// the colours of the gods on their starting tiles, nearest Odin first.
///
/// Its text form is the tile letters, a colon and the god letters:
/// `RRRRRRBBBBBBGGGGGGYYYYYY:RBGY`. Parsing checks only the letters; whether
/// the deal fits a configuration is checked by [`Deal::validate`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    pub tiles: Vec<Colour>,
    pub gods: Vec<Colour>,
}

impl Deal {
    /// A uniformly random deal for `rules`: every order of the tiles and
    /// every order of the gods is equally likely.
    pub fn random(rules: &FenrirPathRules, rng: &mut crate::core::GameRng) -> Deal {
        let colours = &Colour::ALL[..rules.colours as usize];
        let mut tiles: Vec<Colour> = colours
            .iter()
            .flat_map(|&colour| std::iter::repeat_n(colour, rules.tiles_per_colour as usize))
            .collect();
        tiles.shuffle(rng);
        let mut gods = colours.to_vec();
        gods.shuffle(rng);
        Deal { tiles, gods }
    }

    /// The deal of the real game with tiles and gods in colour order, as the
    /// tiles come out of the box.
    pub fn sorted(rules: &FenrirPathRules) -> Deal {
        let colours = &Colour::ALL[..rules.colours as usize];
        Deal {
            tiles: colours
                .iter()
                .flat_map(|&colour| std::iter::repeat_n(colour, rules.tiles_per_colour as usize))
                .collect(),
            gods: colours.to_vec(),
        }
    }

    /// Checks that the deal has the tiles and gods `rules` call for.
    pub fn validate(&self, rules: &FenrirPathRules) -> Result<(), ParseError> {
        let text = self.to_string();
        let bad = |problem: String| Err(ParseError::new("deal", &text, problem));
        let colours = rules.colours as usize;
        let per_colour = rules.tiles_per_colour as usize;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;

    #[test]
    fn tile_ranges_cover_exactly_their_tiles() {
        assert_eq!(tile_range(0, 0), 1);
        assert_eq!(tile_range(2, 4), 0b11100);
        assert_eq!(tile_range(5, 4), 0);
        assert_eq!(tile_range(0, 31), u32::MAX);
        assert_eq!(tiles_of(0b10110).collect::<Vec<_>>(), vec![1, 2, 4]);
    }

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
}
