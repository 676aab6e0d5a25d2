//! Moves as written by players, shared by both games: the piece letter, the
//! squares the piece goes through separated by `-`, then each captured
//! square after an `x`, e.g. `dA6-D6`, `TH7-H6xG5xH5`, `TF3-F5-H5xF4xG5`.

use super::board::parse_square;
use crate::bitboard::{Bitboard256, Square};
use crate::core::ParseError;
use std::str::FromStr;

/// The piece a move text names by its first letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// `d`
    Dwarf,
    /// `T`
    Troll,
    /// `R`: the Rock of Koom Valley Thud (the Thudstone never moves).
    Rock,
}

/// A move as written, before it is matched against the legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// The kind of piece the text names (its letter).
    pub piece: Piece,
    /// The starting square and every square the piece lands on, in order
    /// (two squares except for a trample of several dwarfs).
    pub path: Vec<Square>,
    /// The squares written after `x`.
    pub captures: Bitboard256,
    /// Whether any capture was written at all.
    pub captures_written: bool,
}

impl WrittenMove {
    /// The first square of the path: where the piece starts.
    pub fn from(&self) -> Square {
        self.path[0]
    }

    /// The last square of the path.
    pub fn to(&self) -> Square {
        self.path[self.path.len() - 1]
    }
}

impl FromStr for WrittenMove {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: String| ParseError::new("move", text, problem);
        let mut chars = text.chars();
        let piece = match chars.next() {
            Some('d' | 'D') => Piece::Dwarf,
            Some('t' | 'T') => Piece::Troll,
            Some('r' | 'R') => Piece::Rock,
            _ => {
                return Err(bad(
                    "a move starts with the piece: d dwarf, T troll, R rock (e.g. dA6-D6)".into(),
                ));
            }
        };
        let square = |name: &str| {
            parse_square(name).map_err(|error| ParseError::new("move", text, error.to_string()))
        };
        let mut parts = chars.as_str().split(['x', 'X']);
        let squares = parts.next().unwrap_or_default();
        let path = squares
            .split('-')
            .map(square)
            .collect::<Result<Vec<Square>, ParseError>>()?;
        if path.len() < 2 {
            return Err(bad("a move is written from-to, e.g. dA6-D6".into()));
        }
        let mut captures = Bitboard256::EMPTY;
        let mut captures_written = false;
        for captured in parts {
            captures = captures.with(square(captured)?);
            captures_written = true;
        }
        Ok(WrittenMove {
            piece,
            path,
            captures,
            captures_written,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::thud::board::square_name;

    #[test]
    fn moves_read_piece_path_and_captures() {
        let mv: WrittenMove = "TF3-F5-H5xF4xG5".parse().unwrap();
        assert_eq!(mv.piece, Piece::Troll);
        let path: Vec<String> = mv.path.iter().map(|&s| square_name(s)).collect();
        assert_eq!(path, ["F3", "F5", "H5"]);
        assert_eq!(mv.captures.count(), 2);
        assert!(mv.captures_written);
        let plain: WrittenMove = "dA6-D6".parse().unwrap();
        assert_eq!((plain.piece, plain.path.len()), (Piece::Dwarf, 2));
        assert!(!plain.captures_written);
        assert_eq!(square_name(plain.to()), "D6");
    }

    #[test]
    fn malformed_moves_name_the_problem() {
        for (text, expected) in [
            ("", "starts with the piece"),
            ("xA6-D6", "starts with the piece"),
            ("dA6", "from-to"),
            ("dA6-", "square"),
            ("dA6-I6", "no I"),
            ("dA6-D6x", "square"),
            ("dA6-D6xZ9", "file"),
            ("dA1-D6", "cut-off corner"),
        ] {
            let error = text.parse::<WrittenMove>().unwrap_err().to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
