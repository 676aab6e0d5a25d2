//! Openings: where the games of a tournament or match start.
//!
//! Deterministic agents (alpha-beta at a fixed depth, a greedy player) play
//! the same game every time they meet from the same position, and a repeated
//! game is no new evidence. As engine testers do (cutechess, fastchess),
//! each colour-swapped pair of games therefore starts from an opening: a
//! position, or a few plies played from the game's start. Both games of a
//! pair play the same opening, so the only difference between them is who
//! plays which side, and pair `j` of every pairing plays the same opening as
//! pair `j` of every other pairing, so every pairing meets the same openings.
//!
//! An opening set is read from text, one opening per line:
//! - a position in the game's notation ([`Notation::position_text`]), or
//! - plies from the game's start in its move notation, separated by spaces
//!   (`h1-h3 f8-i8`); a ply of simultaneous choices is written as every
//!   player's move joined by `&` (`GK&GS`).
//!
//! A line that reads as a position is a position; any other line must be
//! plies. Blank lines and lines starting with `#` are skipped.

use crate::core::{Game, Notation, ParseError, Ply, PlyText, Status};
use serde::{Deserialize, Serialize};

/// The start of one game: a position, or plies played from the game's
/// start (which keeps the game's history, such as repetitions).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opening {
    /// A position in the game's notation.
    Position(String),
    /// Plies from the game's start, each in the notation of the state it is
    /// played in.
    Moves(Vec<PlyText>),
}

/// The most openings a set may hold: the set is kept in every run's
/// `config.json`, so a larger one is a mistake rather than a plan.
pub const MAX_OPENINGS: usize = 100_000;

/// The most plies of an opening, given or random: openings are the first
/// few moves of a game, and a long random walk mostly ends the game.
pub const MAX_OPENING_PLIES: usize = 200;

/// Separates the players' moves of a ply of simultaneous choices on an
/// opening's line.
const JOINT_SEPARATOR: char = '&';

impl Opening {
    /// Reads one opening: a position if `text` reads as one under the rules
    /// of `start`, and otherwise plies from `start`.
    ///
    /// # Errors
    /// If the text is neither, or its plies end the game or reach a chance
    /// event; the message says why the text is not a position and why it
    /// is not plies from the start.
    pub fn parse<G: Notation>(text: &str, start: &G) -> Result<Opening, String> {
        let text = text.trim();
        let position_error = match G::from_position_text(text, start.rules().clone()) {
            Ok(_) => {
                let opening = Opening::Position(text.to_string());
                opening.apply(start)?;
                return Ok(opening);
            }
            Err(error) => error,
        };
        let plies: Vec<PlyText> = text
            .split_whitespace()
            .map(|ply| {
                if ply.contains(JOINT_SEPARATOR) {
                    PlyText::Joint(ply.split(JOINT_SEPARATOR).map(str::to_string).collect())
                } else {
                    PlyText::Move(ply.to_string())
                }
            })
            .collect();
        let opening = Opening::Moves(plies);
        match opening.apply(start) {
            Ok(_) => Ok(opening),
            Err(moves_error) => Err(format!(
                "neither a position ({position_error}) nor plies from the start ({moves_error})"
            )),
        }
    }

    /// The state this opening leads to from `start` (whose rules apply),
    /// checking every ply.
    ///
    /// # Errors
    /// If a position does not read, a ply is not legal, or the opening
    /// ends the game or reaches a chance event (openings are played
    /// without chance).
    pub fn apply<G: Notation>(&self, start: &G) -> Result<G, String> {
        let OpeningPlies { mut from, plies } = self.plies(start)?;
        for ply in &plies {
            from.play_ply(ply);
        }
        Ok(from)
    }

    /// Where a game with this opening begins and the plies played from
    /// there before the agents choose: a position and no plies, or `start`
    /// and the opening's plies (so that agents can be told them, as
    /// [`crate::arena::play_game_after`] does). Checked as
    /// [`Opening::apply`].
    ///
    /// # Errors
    /// As [`Opening::apply`].
    pub fn plies<G: Notation>(&self, start: &G) -> Result<OpeningPlies<G>, String> {
        match self {
            Opening::Position(text) => {
                let state = G::from_position_text(text, start.rules().clone())
                    .map_err(|error| error.to_string())?;
                check_playable(&state)?;
                Ok(OpeningPlies {
                    from: state,
                    plies: Vec::new(),
                })
            }
            Opening::Moves(texts) => {
                if texts.is_empty() {
                    return Err("no plies".into());
                }
                if texts.len() > MAX_OPENING_PLIES {
                    return Err(format!(
                        "{} plies, more than the {MAX_OPENING_PLIES} an opening may have",
                        texts.len()
                    ));
                }
                let mut state = start.clone();
                let mut plies = Vec::with_capacity(texts.len());
                for (number, text) in texts.iter().enumerate() {
                    check_playable(&state)
                        .map_err(|problem| format!("before ply {}: {problem}", number + 1))?;
                    let ply = state
                        .parse_ply(text)
                        .map_err(|error: ParseError| format!("ply {}: {error}", number + 1))?;
                    state
                        .try_play_ply(&ply)
                        .map_err(|illegal| format!("ply {}: {illegal}", number + 1))?;
                    plies.push(ply);
                }
                check_playable(&state)?;
                Ok(OpeningPlies {
                    from: start.clone(),
                    plies,
                })
            }
        }
    }

    /// The opening as a line of an openings file.
    pub fn line(&self) -> String {
        match self {
            Opening::Position(text) => text.clone(),
            Opening::Moves(plies) => plies
                .iter()
                .map(|ply| match ply {
                    PlyText::Move(text) => text.clone(),
                    PlyText::Joint(texts) => texts.join(&JOINT_SEPARATOR.to_string()),
                })
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// Where a game with an opening begins, and the opening's plies from there
/// ([`Opening::plies`]).
pub struct OpeningPlies<G: Game> {
    /// The state the opening's plies are played from: the game's start for
    /// an opening of moves, the opening's own for a position.
    pub from: G,
    /// The opening's plies, played before the agents choose (empty for an
    /// opening given as a position).
    pub plies: Vec<Ply<G::Move>>,
}

/// Refuses a state a game cannot start from: one whose game is over, or
/// one waiting for a chance event.
pub(super) fn check_playable<G: Game>(state: &G) -> Result<(), String> {
    match state.status() {
        Status::Over(outcome) => Err(format!("the game is over ({})", outcome.reason)),
        Status::Chance => Err("the game waits for a chance event".into()),
        Status::ToMove(_) | Status::Simultaneous => Ok(()),
    }
}

/// Reads an opening set: one opening per line ([`Opening::parse`]), blank
/// lines and `#` comments skipped.
///
/// # Errors
/// The first bad line, by number, and a text with no opening or more than
/// [`MAX_OPENINGS`].
pub fn parse_openings<G: Notation>(text: &str, start: &G) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for_each_opening(text, start, |opening| openings.push(opening))?;
    Ok(openings)
}

/// Reads the openings of `text` one at a time, as [`parse_openings`]
/// describes, and hands each to `each`, so that a large set is never held
/// whole as parsed openings.
pub(super) fn for_each_opening<G: Notation>(
    text: &str,
    start: &G,
    each: impl FnMut(Opening),
) -> Result<(), String> {
    let count = for_each_line(text, start, each, |number, error| {
        Err(format!("line {number}: {error}"))
    })?;
    if count == 0 {
        return Err("no openings (every line is blank or a # comment)".into());
    }
    Ok(())
}

/// Reads the openings of `text` as [`for_each_opening`] does, but skips
/// the lines that are not openings under the rules of `start` (plies the
/// rules refuse, or that end the game), as a built-in set played under
/// other rules has them; the number of lines skipped.
///
/// # Errors
/// A text with more than [`MAX_OPENINGS`] openings, or none left.
pub(super) fn for_each_playable_opening<G: Notation>(
    text: &str,
    start: &G,
    each: impl FnMut(Opening),
) -> Result<usize, String> {
    let mut skipped = 0;
    let skip = |_, _| {
        skipped += 1;
        Ok(())
    };
    let count = for_each_line(text, start, each, skip)?;
    if count == 0 {
        return Err(format!(
            "none of its {skipped} openings can be played under these rules"
        ));
    }
    Ok(skipped)
}

/// The loop of [`for_each_opening`]: `on_bad` decides what a line that is
/// not an opening does (its number from 1, and why); the number of
/// openings read.
fn for_each_line<G: Notation>(
    text: &str,
    start: &G,
    mut each: impl FnMut(Opening),
    mut on_bad: impl FnMut(usize, String) -> Result<(), String>,
) -> Result<usize, String> {
    let mut count = 0;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if count == MAX_OPENINGS {
            return Err(format!(
                "more than {MAX_OPENINGS} openings; use a smaller set"
            ));
        }
        match Opening::parse(line, start) {
            Ok(opening) => {
                each(opening);
                count += 1;
            }
            Err(error) => on_bad(number + 1, error)?,
        }
    }
    Ok(count)
}
