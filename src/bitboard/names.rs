use super::{Bitboard, Grid, Square};
use crate::core::ParseError;

/// How a game names its squares: a file letter followed by a rank number
/// from 1, such as `f6` in Hnefatafl or `H8` in Thud.
///
/// Built in constants: `SquareNames::new(grid, "abcdefghijk")`, then
/// [`ignoring_case`](SquareNames::ignoring_case) if a file letter may be
/// written in either case, and [`with_playable`](SquareNames::with_playable)
/// if some squares of the grid are not on the board.
#[derive(Clone, Copy, Debug)]
pub struct SquareNames<B> {
    grid: Grid,
    /// One ASCII letter per file, in order: the letters names are written with.
    files: &'static str,
    ignore_case: bool,
    /// The squares of the board and the problem reported for a name outside them.
    playable: Option<(B, &'static str)>,
}

impl<B: Copy> SquareNames<B> {
    /// Names on `grid` whose file letters are `files` (one ASCII letter per
    /// file), matched exactly, every square of the grid on the board.
    pub const fn new(grid: Grid, files: &'static str) -> Self {
        assert!(files.len() == grid.width() as usize, "one letter per file");
        assert!(files.is_ascii(), "file letters are ASCII");
        SquareNames {
            grid,
            files,
            ignore_case: false,
            playable: None,
        }
    }

    /// The same names, with file letters also read in the other case.
    pub const fn ignoring_case(self) -> Self {
        SquareNames {
            ignore_case: true,
            ..self
        }
    }

    /// The same names with only the squares of `playable` on the board; a
    /// name of any other square is refused as `problem`.
    pub const fn with_playable(self, playable: B, problem: &'static str) -> Self {
        SquareNames {
            playable: Some((playable, problem)),
            ..self
        }
    }
}

impl<B: Bitboard> SquareNames<B> {
    /// The name of `square`.
    pub fn name(&self, square: Square) -> String {
        let file = self.files.as_bytes()[self.grid.file(square) as usize] as char;
        format!("{file}{}", self.grid.rank(square) + 1)
    }

    /// Reads a square name: a file letter and a rank number (as Rust reads an
    /// integer, so a leading `+` or zeros are accepted).
    pub fn parse(&self, text: &str) -> Result<Square, ParseError> {
        let bad = |problem: &str| ParseError::new("square", text, problem);
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(|| bad("empty square name"))?;
        let file = self
            .files
            .chars()
            .position(|file| {
                file == letter || (self.ignore_case && file.eq_ignore_ascii_case(&letter))
            })
            .ok_or_else(|| bad(&self.file_problem()))?;
        let height = self.grid.height() as i32;
        // The rank is checked before any arithmetic, so that no number, however
        // large or small, can overflow.
        let rank: i32 = chars
            .as_str()
            .parse()
            .ok()
            .filter(|rank| (1..=height).contains(rank))
            .ok_or_else(|| bad(&format!("the rank must be a number from 1 to {height}")))?;
        let square = self
            .grid
            .square(file as i32, rank - 1)
            .expect("the file and rank are on the grid");
        match self.playable {
            Some((playable, problem)) if !playable.contains(square) => Err(bad(problem)),
            _ => Ok(square),
        }
    }

    /// The problem of a name whose first letter is no file letter, naming
    /// the first and last letters and any letters skipped between them.
    fn file_problem(&self) -> String {
        let letters = self.files.as_bytes();
        let (first, last) = (letters[0], letters[letters.len() - 1]);
        let skipped: Vec<String> = (first..=last)
            .filter(|letter| !letters.contains(letter))
            .map(|letter| (letter as char).to_string())
            .collect();
        let mut problem = format!(
            "the file must be a letter from {} to {}",
            first as char, last as char
        );
        if !skipped.is_empty() {
            problem.push_str(&format!(" (there is no {})", skipped.join(" or ")));
        }
        problem
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_boards;
    use super::super::{Bitboard128, Bitboard256};
    use super::*;

    const TAFL: SquareNames<Bitboard128> = SquareNames::new(Grid::new(11, 11), "abcdefghijk");
    const CHESS: SquareNames<Bitboard128> = SquareNames::new(Grid::new(10, 8), "abcdefghij");

    fn problem(names: &SquareNames<impl Bitboard>, text: &str) -> String {
        let error = names.parse(text).unwrap_err().to_string();
        assert!(error.contains(text), "{error}");
        error
    }

    #[test]
    fn names_round_trip_on_every_square() {
        for (names, grid) in [(TAFL, Grid::new(11, 11)), (CHESS, Grid::new(10, 8))] {
            for index in 0..grid.len() {
                let square = Square::new(index as u8);
                assert_eq!(names.parse(&names.name(square)).unwrap(), square);
            }
        }
        let octagon = test_boards::octagon();
        let thud = SquareNames::new(octagon.grid, "ABCDEFGHJKLMNOP")
            .ignoring_case()
            .with_playable(octagon.playable, "off the board");
        for square in octagon.squares() {
            assert_eq!(thud.parse(&thud.name(square)).unwrap(), square);
            assert_eq!(
                thud.parse(&thud.name(square).to_lowercase()).unwrap(),
                square
            );
        }
        assert_eq!(CHESS.name(CHESS.parse("j8").unwrap()), "j8");
        assert_eq!(thud.name(octagon.square(8, 0)), "J1");
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        assert!(problem(&TAFL, "").contains("empty square name"));
        assert!(problem(&TAFL, "A1").contains("the file must be a letter from a to k"));
        assert!(problem(&TAFL, "a12").contains("the rank must be a number from 1 to 11"));
        assert!(problem(&CHESS, "k1").contains("from a to j"));
        assert!(problem(&CHESS, "a9").contains("from 1 to 8"));
        for text in [
            "a0",
            "a",
            "a1x",
            "é3",
            "a-1",
            "b-2147483648",
            "a99999999999",
        ] {
            assert!(CHESS.parse(text).is_err(), "{text}");
        }
        let octagon = test_boards::octagon();
        let thud: SquareNames<Bitboard256> = SquareNames::new(octagon.grid, "ABCDEFGHJKLMNOP")
            .with_playable(octagon.playable, "the square is in a cut-off corner");
        assert!(problem(&thud, "I5").contains("from A to P (there is no I)"));
        assert!(problem(&thud, "h8").contains("from A to P"));
        assert!(problem(&thud, "A1").contains("cut-off corner"));
    }
}
