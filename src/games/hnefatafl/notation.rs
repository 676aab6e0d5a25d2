//! Text forms: OpenTafl position strings (see [`HnefataflSetup`]),
//! record-style moves and diagrams.

use super::board::{CORNERS, GRID, SIZE, THRONE, parse_square, square_name};
use super::moves::HnefataflMove;
use super::options::HnefataflRules;
use super::setup::HnefataflSetup;
use super::state::Hnefatafl;
use crate::bitboard::{Bitboard128, Square};
use crate::core::{Game, MoveList, Notation, ParseError, Picture};
use std::str::FromStr;

/// A move as written in game records: `from-to` and the captured squares as
/// `xSQ` (possibly repeated, as some records do).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it moves to.
    pub to: Square,
    /// The squares the record says were captured (checked against the rules'
    /// captures when the move is matched).
    pub captures: Bitboard128,
}

impl RecordedMove {
    /// The move from `from` to `to`, whatever captures the record marks.
    pub fn mv(&self) -> HnefataflMove {
        HnefataflMove {
            from: self.from,
            to: self.to,
        }
    }
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
    type Setup = HnefataflSetup;

    /// The game counts as just started: the ply counter is zero and there is
    /// no repetition history.
    fn from_setup(setup: &HnefataflSetup, rules: HnefataflRules) -> Result<Self, ParseError> {
        setup.validate()?;
        Ok(Hnefatafl::from_valid_setup(setup, rules))
    }

    /// The pieces and the side to move.
    fn setup(&self) -> HnefataflSetup {
        HnefataflSetup {
            attackers: self.attackers,
            defenders: self.defenders,
            king: Some(self.king),
            to_move: self.to_move,
        }
    }

    fn move_text(&self, mv: HnefataflMove) -> String {
        let (captured, _) = self.captures_of(mv);
        format!("{mv}{}", capture_suffix(captured))
    }

    /// Reads `from-to`, with or without its captures; captures that are given
    /// must be exactly those the move makes.
    fn parse_move(&self, text: &str) -> Result<HnefataflMove, ParseError> {
        let recorded: RecordedMove = text.trim().parse()?;
        let mv = recorded.mv();
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
            Some(reason) => {
                let result = match self.winner(reason) {
                    Some(side) => format!("{side} win"),
                    None => "draw".to_string(),
                };
                out.push_str(&format!("game over: {result} ({})\n", reason.name()));
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

    /// The board with its throne and corners marked, and who is to move.
    fn picture(&self) -> Picture {
        super::picture::picture(self)
    }

    fn default_openings() -> Option<&'static str> {
        Some(include_str!("../../../openings/hnefatafl.txt"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
