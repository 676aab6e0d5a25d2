//! Positions as written, before they are checked against the rules.
//!
//! A position is `G,K,H,S,B:TOD:NO`, the five characters' points in
//! sequence order and the pairs in front of Tod's and NO's screens (`-` for
//! none), optionally followed by `:X`, the letter of the character to move
//! next while a round's movement phase is under way (the screens then hold
//! this round's revealed pairs), and by `@N`, the round number when it is
//! not 1. The start is `33,44,43,30,10:SB:-`; `33,44,43,30,10:GK:HS:K@4`
//! is round 4 after Tod revealed Gunther and Kriemhild and NO Hagen and
//! Siegfried, with Gunther's move made and Kriemhild's to come.

use super::board::{bit, parse_point, point, point_name};
use super::moves::{Character, Pair};
use super::options::{NibelungenRules, parse_screen, screen_text};
use crate::core::{ParseError, Setup};
use crate::games::board_text::single_letter;
use std::fmt;
use std::str::FromStr;

/// The start points: Gunther, Kriemhild and Hagen at the north, east and
/// west points of Worms, Siegfried at the north point of Xanten, Brunhild
/// at the west point of Isen.
pub const START_POINTS: [u8; 5] = [
    point(3, 3),
    point(4, 4),
    point(4, 3),
    point(3, 0),
    point(1, 0),
];

/// A position as read from text, not yet checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NibelungenSetup {
    /// The point of each character, in sequence order.
    pub points: [u8; 5],
    /// The pairs in front of Tod's and NO's screens.
    pub screens: [Option<Pair>; 2],
    /// The character to move next in the movement phase.
    pub next: Option<Character>,
    /// The round number, from 1.
    pub round: u32,
}

impl Setup for NibelungenSetup {}

impl FromStr for NibelungenSetup {
    type Err = ParseError;

    /// Reads the text form (see the module documentation).
    fn from_str(text: &str) -> Result<NibelungenSetup, ParseError> {
        let bad = |problem: String| ParseError::new("position", text, problem);
        let (body, round) = match text.trim().split_once('@') {
            Some((body, round)) => {
                let round: u32 = round
                    .parse()
                    .map_err(|_| bad(format!("`{round}` is not a round number")))?;
                (body, round)
            }
            None => (text.trim(), 1),
        };
        let fields: Vec<&str> = body.split(':').collect();
        let (characters, tod, no, next) = match *fields.as_slice() {
            [characters, tod, no] => (characters, tod, no, None),
            [characters, tod, no, next] => (characters, tod, no, Some(next)),
            _ => {
                return Err(bad(
                    "expected G,K,H,S,B:TOD:NO, optionally followed by :X (the character to move) and @N (the round)"
                        .to_string(),
                ));
            }
        };
        let names: Vec<&str> = characters.split(',').collect();
        if names.len() != 5 {
            return Err(bad(format!(
                "five points, one per character in the order G,K,H,S,B, not {}",
                names.len()
            )));
        }
        let mut points = [0; 5];
        for (slot, name) in points.iter_mut().zip(&names) {
            *slot = parse_point(name).ok_or_else(|| {
                bad(format!(
                    "`{name}` is not a point (rk, row 0..4 and k 0..row)"
                ))
            })?;
        }
        let screen = |text: &str, side: &str| {
            parse_screen(text)
                .map_err(|problem| bad(format!("{side}'s screen: {problem} (or `-`)")))
        };
        let screens = [screen(tod, "Tod")?, screen(no, "NO")?];
        let next = match next {
            None => None,
            Some(letter) => Some(single_letter(letter, Character::from_letter).ok_or_else(
                || {
                    bad(format!(
                        "`{letter}` is not the letter of a character to move (G K H S B)"
                    ))
                },
            )?),
        };
        Ok(NibelungenSetup {
            points,
            screens,
            next,
            round,
        })
    }
}

impl NibelungenSetup {
    /// Checks the setup against `rules`: five different points, a round
    /// within the limit, and during a movement phase two revealed pairs and
    /// a character that moves this round.
    pub fn validate(&self, rules: &NibelungenRules) -> Result<(), String> {
        let occupied = self
            .points
            .iter()
            .fold(0u16, |set, &point| set | bit(point));
        if occupied.count_ones() != 5 {
            return Err("two characters stand on the same point".to_string());
        }
        if self.round == 0 {
            return Err("rounds are numbered from 1".to_string());
        }
        if self.round > 1 && self.screens.contains(&None) {
            return Err(format!(
                "in round {} both screens have a pair in front of them",
                self.round
            ));
        }
        let limit = rules.round_limit.map_or(u32::MAX, |limit| limit.get());
        match self.next {
            None if self.round > limit.saturating_add(1) => Err(format!(
                "round {} is past the round limit {limit} (the game is drawn from round {})",
                self.round,
                limit.saturating_add(1)
            )),
            None => Ok(()),
            Some(_) if self.round > limit => Err(format!(
                "round {} is past the round limit {limit}",
                self.round
            )),
            Some(character) => {
                let [Some(tod), Some(no)] = self.screens else {
                    return Err(format!(
                        "{character} moves once both pairs are revealed: both screens need a pair"
                    ));
                };
                let common = tod.bits() & no.bits();
                if tod == no
                    || common & character.bit() != 0
                    || (tod.bits() | no.bits()) & character.bit() == 0
                {
                    return Err(format!(
                        "{character} does not move in a round where Tod reveals {tod} and NO {no}"
                    ));
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for NibelungenSetup {
    /// The text form that `from_str` reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let points: Vec<String> = self.points.iter().map(|&point| point_name(point)).collect();
        write!(
            f,
            "{}:{}:{}",
            points.join(","),
            screen_text(self.screens[0]),
            screen_text(self.screens[1])
        )?;
        if let Some(next) = self.next {
            write!(f, ":{}", next.letter())?;
        }
        if self.round != 1 {
            write!(f, "@{}", self.round)?;
        }
        Ok(())
    }
}
