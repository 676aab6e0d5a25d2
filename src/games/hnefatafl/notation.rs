//! Text forms: OpenTafl position strings, record-style moves and diagrams.

use super::board::{CORNERS, GRID, RESTRICTED, SIZE, Side, THRONE, parse_square, square_name};
use super::state::{Hnefatafl, HnefataflMove, HnefataflRules};
use crate::bitboard::{Bitboard128, Square};
use crate::core::{Game, MoveList, Notation, ParseError};
use crate::games::board_text::{RowError, read_row, write_row};
use std::fmt;
use std::str::FromStr;

/// The starting position in OpenTafl notation, attackers to move.
pub const START_POSITION: &str =
    "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ attackers";

/// The most pieces each side has at the start; no position can hold more.
const MAX_ATTACKERS: u32 = 24;
const MAX_DEFENDERS: u32 = 12;

/// A position as written, before it is checked against the rules: where the
/// pieces stand and who is to move.
///
/// Text is read into a setup first ([`FromStr`]), then validated by
/// [`Hnefatafl::from_setup`], so malformed text and impossible positions both
/// give a [`ParseError`] that says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HnefataflSetup {
    pub attackers: Bitboard128,
    /// The defenders' soldiers, without the king.
    pub defenders: Bitboard128,
    pub king: Option<Square>,
    pub to_move: Side,
}

impl HnefataflSetup {
    /// Checks what the rules require of any position.
    pub fn validate(&self) -> Result<(), ParseError> {
        let text = self.to_string();
        let bad = |problem: String| Err(ParseError::new("position", &text, problem));
        let Some(king) = self.king else {
            return bad("there is no king (K)".into());
        };
        if self.attackers.count() > MAX_ATTACKERS {
            return bad(format!(
                "{} attackers, but the game has only {MAX_ATTACKERS}",
                self.attackers.count()
            ));
        }
        if self.defenders.count() > MAX_DEFENDERS {
            return bad(format!(
                "{} defenders besides the king, but the game has only {MAX_DEFENDERS}",
                self.defenders.count()
            ));
        }
        if let Some(square) = ((self.attackers | self.defenders) & RESTRICTED).lowest() {
            return bad(format!(
                "a soldier stands on {}, where only the king may stand",
                square_name(square)
            ));
        }
        if self.attackers.intersects(self.defenders)
            || (self.attackers | self.defenders).contains(king)
        {
            return bad("two pieces on one square".into());
        }
        Ok(())
    }
}

impl FromStr for HnefataflSetup {
    type Err = ParseError;

    /// Reads an OpenTafl board string (top rank first, `t` attacker, `T`
    /// defender, `K` king, digits for runs of empty squares, ranks separated by
    /// `/`), optionally followed by the side to move (`attackers` or
    /// `defenders`; attackers if left out).
    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: String| ParseError::new("position", text, problem);
        let mut words = text.split_whitespace();
        let board = words
            .next()
            .ok_or_else(|| bad("the text is empty".into()))?;
        let to_move = match words.next() {
            None => Side::Attackers,
            Some(word) => Side::parse(word).ok_or_else(|| {
                bad(format!(
                    "`{word}` is not a side to move (attackers or defenders)"
                ))
            })?,
        };
        if let Some(extra) = words.next() {
            return Err(bad(format!("unexpected `{extra}` after the side to move")));
        }
        let ranks: Vec<&str> = board.trim_matches('/').split('/').collect();
        if ranks.len() != SIZE as usize {
            return Err(bad(format!(
                "{} ranks, but the board has {SIZE}",
                ranks.len()
            )));
        }
        let mut setup = HnefataflSetup {
            attackers: Bitboard128::EMPTY,
            defenders: Bitboard128::EMPTY,
            king: None,
            to_move,
        };
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = SIZE as usize - 1 - row;
            let pieces = read_row(rank_text, SIZE as usize).map_err(|error| match error {
                RowError::ZeroRun => bad(format!(
                    "rank {}: an empty run of 0 squares (runs cannot start with 0)",
                    rank + 1
                )),
                RowError::Length(found) => bad(format!(
                    "rank {} has {} squares instead of {SIZE}",
                    rank + 1,
                    if found > SIZE as usize {
                        "more than 11".to_string()
                    } else {
                        found.to_string()
                    }
                )),
            })?;
            for (file, c) in pieces {
                let square = GRID
                    .square(file as i32, rank as i32)
                    .expect("file and rank are within the board");
                match c {
                    't' => setup.attackers = setup.attackers.with(square),
                    'T' => setup.defenders = setup.defenders.with(square),
                    'K' if setup.king.is_some() => {
                        return Err(bad("more than one king".into()));
                    }
                    'K' => setup.king = Some(square),
                    other => {
                        return Err(bad(format!(
                            "`{other}` is not a piece (t attacker, T defender, K king)"
                        )));
                    }
                }
            }
        }
        Ok(setup)
    }
}

impl fmt::Display for HnefataflSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("/")?;
        for rank in (0..SIZE as i32).rev() {
            write_row(
                f,
                (0..SIZE as i32).map(|file| {
                    let square = GRID.square(file, rank).expect("on the board");
                    if self.attackers.contains(square) {
                        Some('t')
                    } else if self.defenders.contains(square) {
                        Some('T')
                    } else if self.king == Some(square) {
                        Some('K')
                    } else {
                        None
                    }
                }),
            )?;
            f.write_str("/")?;
        }
        write!(f, " {}", self.to_move)
    }
}

/// A move as written in game records: `from-to` and the captured squares as
/// `xSQ` (possibly repeated, as some records do).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    pub from: Square,
    pub to: Square,
    pub captures: Bitboard128,
}

impl FromStr for RecordedMove {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: &str| ParseError::new("move", text, problem);
        let mut parts = text.split('x');
        let squares = parts.next().unwrap_or_default();
        let (from, to) = squares
            .split_once('-')
            .ok_or_else(|| bad("a move is written from-to, e.g. d1-d3"))?;
        let square = |name: &str| {
            parse_square(name).map_err(|error| ParseError::new("move", text, error.to_string()))
        };
        let mut captures = Bitboard128::EMPTY;
        for captured in parts {
            captures = captures.with(square(captured)?);
        }
        Ok(RecordedMove {
            from: square(from)?,
            to: square(to)?,
            captures,
        })
    }
}

/// Squares as a chain of `xSQ`, in increasing order.
fn capture_suffix(captures: Bitboard128) -> String {
    captures
        .squares()
        .map(|square| format!("x{}", square_name(square)))
        .collect()
}

impl Notation for Hnefatafl {
    fn position_text(&self) -> String {
        self.setup().to_string()
    }

    fn from_position_text(text: &str, rules: HnefataflRules) -> Result<Self, ParseError> {
        Hnefatafl::from_setup(&text.parse()?, rules)
    }

    fn move_text(&self, mv: HnefataflMove) -> String {
        let (captured, _) = self.captures_of(mv);
        format!("{mv}{}", capture_suffix(captured))
    }

    /// Reads `from-to`, with or without its captures; captures that are given
    /// must be exactly those the move makes.
    fn parse_move(&self, text: &str) -> Result<HnefataflMove, ParseError> {
        let recorded: RecordedMove = text.trim().parse()?;
        let mv = HnefataflMove {
            from: recorded.from,
            to: recorded.to,
        };
        self.check_move(mv)
            .map_err(|illegal| ParseError::new("move", text, illegal.reason()))?;
        if text.contains('x') {
            let (captured, _) = self.captures_of(mv);
            if captured != recorded.captures {
                let actual = match capture_suffix(captured) {
                    none if none.is_empty() => "nothing".to_string(),
                    some => some,
                };
                return Err(ParseError::new(
                    "move",
                    text,
                    format!("{mv} captures {actual}"),
                ));
            }
        }
        Ok(mv)
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..SIZE as i32).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..SIZE as i32 {
                let square = GRID.square(file, rank).expect("on the board");
                let symbol = if self.attackers.contains(square) {
                    'a'
                } else if self.defenders.contains(square) {
                    'd'
                } else if self.king == square {
                    'K'
                } else if square == THRONE || CORNERS.contains(square) {
                    '+'
                } else {
                    '.'
                };
                out.push(' ');
                out.push(symbol);
            }
            out.push('\n');
        }
        out.push_str("    a b c d e f g h i j k\n");
        match self.ending {
            Some(ending) => {
                let result = match ending.winner {
                    Some(side) => format!("{side} win"),
                    None => "draw".to_string(),
                };
                out.push_str(&format!("game over: {result} ({})\n", ending.reason.name()));
            }
            None => {
                let mut moves = MoveList::new();
                self.legal_moves(&mut moves);
                out.push_str(&format!(
                    "{} to move, {} legal moves, ply {}\n",
                    self.to_move,
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
    fn the_start_position_prints_as_it_was_read() {
        let setup: HnefataflSetup = START_POSITION.parse().unwrap();
        assert_eq!(setup.to_string(), START_POSITION);
        assert_eq!(setup.attackers.count(), 24);
        assert_eq!(setup.defenders.count(), 12);
        assert_eq!(setup.king, Some(THRONE));
    }

    #[test]
    fn malformed_positions_name_the_problem() {
        let cases = [
            ("", "empty"),
            ("/11/", "ranks"),
            (
                "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt2/",
                "squares",
            ),
            (
                "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3tttttt3/",
                "squares",
            ),
            (
                "/3ttxtt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
                "not a piece",
            ),
            (
                "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ nobody",
                "side",
            ),
            (
                "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ a b",
                "unexpected",
            ),
            (
                "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TKT3t/t4T4t/11/5t5/3ttttt3/",
                "more than one king",
            ),
            (
                "/3ttttt3/5t5/0t10/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
                "0 squares",
            ),
        ];
        for (text, expected) in cases {
            let error = text.parse::<HnefataflSetup>().unwrap_err().to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }

    #[test]
    fn impossible_positions_are_rejected_by_validation() {
        let rules = HnefataflRules::default();
        let cases = [
            ("/11/11/11/11/11/5T5/11/11/11/11/11/", "no king"),
            ("/t10/11/11/11/11/5K5/11/11/11/11/11/", "only the king"),
            ("/11/11/11/11/11/5T5/11/11/11/11/11/", "no king"),
            ("/11/11/11/11/11/4tKt4/11/11/11/11/11/", ""),
            (
                "/tttttttttt1/tttttttttt1/tttttt5/11/11/5K5/11/11/11/11/11/",
                "attackers",
            ),
        ];
        for (text, expected) in cases {
            match Hnefatafl::from_position_text(text, rules) {
                Ok(_) => assert!(expected.is_empty(), "{text} should be rejected"),
                Err(error) => assert!(
                    !expected.is_empty() && error.to_string().contains(expected),
                    "{text}: {error}"
                ),
            }
        }
    }

    #[test]
    fn record_moves_read_their_captures_once_each() {
        let mv: RecordedMove = "e7-k7xk6xk6".parse().unwrap();
        assert_eq!(square_name(mv.from), "e7");
        assert_eq!(square_name(mv.to), "k7");
        assert_eq!(mv.captures.count(), 1);
        for bad in ["e7k7", "e7-", "e7-k7x", "e7-z7", "-"] {
            assert!(bad.parse::<RecordedMove>().is_err(), "{bad}");
        }
    }
}
