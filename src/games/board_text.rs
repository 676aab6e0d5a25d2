//! Text shared by the board games' position formats: a row is written as its
//! pieces' letters, with each run of empty squares given as its length; and
//! a field that names one thing by a single letter.

use crate::bitboard::{Bitboard, Square};
use crate::core::ParseError;
use std::fmt;
use std::str::SplitWhitespace;

/// What a text of exactly one letter names, read by `read`; `None` for any
/// other text or an unknown letter.
pub(crate) fn single_letter<T>(text: &str, read: impl FnOnce(char) -> Option<T>) -> Option<T> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(letter), None) => read(letter),
        _ => None,
    }
}

/// Writes one row of a board as position strings spell it: each piece as its
/// letter, each run of empty squares as its length (`3dT2`).
pub(crate) fn write_row(
    f: &mut impl fmt::Write,
    cells: impl IntoIterator<Item = Option<char>>,
) -> fmt::Result {
    let mut empty_run = 0;
    for cell in cells {
        match cell {
            None => empty_run += 1,
            Some(piece) => {
                if empty_run > 0 {
                    write!(f, "{empty_run}")?;
                    empty_run = 0;
                }
                f.write_char(piece)?;
            }
        }
    }
    if empty_run > 0 {
        write!(f, "{empty_run}")?;
    }
    Ok(())
}

/// What is wrong with a row of a position string.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RowError {
    /// A run of empty squares that starts with the digit 0.
    ZeroRun,
    /// The row spells out this many squares (saturating), not its width.
    Length(usize),
}

/// Reads one row of `width` squares written by [`write_row`]: the pieces'
/// letters with their columns, left to right. Which letters are pieces is
/// the caller's to check.
pub(crate) fn read_row(text: &str, width: usize) -> Result<Vec<(usize, char)>, RowError> {
    let mut pieces = Vec::new();
    let mut column = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c.to_digit(10) {
            Some(0) => return Err(RowError::ZeroRun),
            Some(digit) => {
                let mut run = digit as usize;
                while let Some(next) = chars.peek().and_then(|next| next.to_digit(10)) {
                    run = run.saturating_mul(10).saturating_add(next as usize);
                    chars.next();
                }
                column = column.saturating_add(run);
            }
            None => {
                if column < width {
                    pieces.push((column, c));
                }
                column = column.saturating_add(1);
            }
        }
    }
    if column == width {
        Ok(pieces)
    } else {
        Err(RowError::Length(column))
    }
}

/// Splits a position text into its board, the side to move (read by
/// `parse_to_move`, which gives the first side when the word is left out)
/// and the words that follow, which are the game's to read. `bad` turns a
/// problem into the error that names the whole text.
pub(crate) fn board_and_side<'a, S>(
    text: &'a str,
    parse_to_move: impl FnOnce(Option<&str>) -> Result<S, String>,
    bad: impl Fn(String) -> ParseError,
) -> Result<(&'a str, S, SplitWhitespace<'a>), ParseError> {
    let mut words = text.split_whitespace();
    let board = words
        .next()
        .ok_or_else(|| bad("the text is empty".into()))?;
    let to_move = parse_to_move(words.next()).map_err(&bad)?;
    Ok((board, to_move, words))
}

/// How the position text spells a board of two armies and one piece of its
/// own (Hnefatafl's king, Thud's Thudstone or Rock): a letter for each
/// army, a letter and a name for the single piece, and the legend an
/// unknown letter's error lists.
pub(crate) struct ArmiesText {
    pub(crate) armies: [char; 2],
    pub(crate) single: char,
    pub(crate) single_name: &'static str,
    pub(crate) legend: &'static str,
}

impl ArmiesText {
    /// Puts the piece spelt `letter` on `square`: into the army of that
    /// letter, or as the single piece (refused when there is one already).
    pub(crate) fn place<B: Bitboard>(
        &self,
        letter: char,
        square: Square,
        [first, second]: [&mut B; 2],
        single: &mut Option<Square>,
    ) -> Result<(), String> {
        match letter {
            _ if letter == self.armies[0] => *first = first.with(square),
            _ if letter == self.armies[1] => *second = second.with(square),
            _ if letter == self.single && single.is_some() => {
                return Err(format!("more than one {} ({letter})", self.single_name));
            }
            _ if letter == self.single => *single = Some(square),
            other => return Err(format!("`{other}` is not a piece ({})", self.legend)),
        }
        Ok(())
    }

    /// The letter of the piece on `square`, if there is one.
    pub(crate) fn letter<B: Bitboard>(
        &self,
        square: Square,
        armies: [B; 2],
        single: Option<Square>,
    ) -> Option<char> {
        if armies[0].contains(square) {
            Some(self.armies[0])
        } else if armies[1].contains(square) {
            Some(self.armies[1])
        } else if single == Some(square) {
            Some(self.single)
        } else {
            None
        }
    }
}

/// The two functions every board game offers over its square names,
/// `square_name` and `parse_square`, from the board's
/// [`SquareNames`](crate::bitboard::SquareNames) and an example name for
/// their documentation.
macro_rules! square_name_functions {
    ($names:expr, $example:literal) => {
        #[doc = concat!("The name of a square, such as `", $example, "`.")]
        pub fn square_name(square: Square) -> String {
            $names.name(square)
        }

        #[doc = concat!("Reads a square name such as `", $example, "`.")]
        pub fn parse_square(text: &str) -> Result<Square, ParseError> {
            $names.parse(text)
        }
    };
}

pub(crate) use square_name_functions;

#[cfg(test)]
mod tests {
    use super::{RowError, read_row, single_letter, write_row};

    #[test]
    fn a_single_letter_is_read_only_when_it_stands_alone() {
        let digit = |letter: char| letter.to_digit(10);
        assert_eq!(single_letter("7", digit), Some(7));
        assert_eq!(single_letter("77", digit), None);
        assert_eq!(single_letter("7 ", digit), None);
        assert_eq!(single_letter("", digit), None);
        assert_eq!(single_letter("x", digit), None);
    }

    #[test]
    fn empty_runs_are_counted_between_pieces_and_at_the_ends() {
        let mut text = String::new();
        let row = [None, None, Some('d'), Some('T'), None, Some('R'), None];
        write_row(&mut text, row).unwrap();
        assert_eq!(text, "2dT1R1");
        text.clear();
        write_row(&mut text, [None; 11]).unwrap();
        assert_eq!(text, "11");
    }

    #[test]
    fn rows_read_back_what_was_written_and_bad_rows_are_refused() {
        let mut text = String::new();
        write_row(
            &mut text,
            [None, None, Some('d'), Some('T'), None, Some('R'), None],
        )
        .unwrap();
        assert_eq!(read_row(&text, 7), Ok(vec![(2, 'd'), (3, 'T'), (5, 'R')]));
        assert_eq!(read_row("11", 11), Ok(vec![]));
        assert_eq!(read_row("3x", 5), Err(RowError::Length(4)));
        assert_eq!(read_row("4dd", 5), Err(RowError::Length(6)));
        assert_eq!(read_row("05", 5), Err(RowError::ZeroRun));
        // A run too long for any integer is too long, not wrapped around.
        assert_eq!(
            read_row("99999999999999999999999999", 11),
            Err(RowError::Length(usize::MAX))
        );
    }
}
