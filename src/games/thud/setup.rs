//! The position text both games share, read into an unvalidated setup.
//!
//! A position is written as the 15 rows of the octagon from rank 1 (the top)
//! to rank 15, separated by `/`, each row listing only its playable squares
//! from file `A` side to file `P` side: `d` a dwarf, `T` a troll, `R` the
//! rock (the Thudstone or the Rock), and a number for a run of empty squares.
//! Then come the side to move (`dwarfs` or `trolls`), the number of plies
//! since the last capture (in Koom Valley Thud: since the last capture or
//! Rock move), and the number of plies played. The classic start is
//!
//! ```text
//! dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd dwarfs 0 0
//! ```
//!
//! The counters may be left out when typing a position (they are then 0),
//! as may the side to move (dwarfs).

use super::board::{PLAYABLE, SIZE, Side, square_at, square_name};
use crate::bitboard::{Bitboard256, Square};
use crate::core::{ParseError, Setup};
use crate::games::board_text::{ArmiesText, RowError, board_and_side, read_row, write_row};
use std::fmt;
use std::str::FromStr;

/// The number of playable squares in each row, rank 1 first.
const ROW_LENGTHS: [usize; 15] = [5, 7, 9, 11, 13, 15, 15, 15, 15, 15, 13, 11, 9, 7, 5];

/// The letters of the pieces: `d` a dwarf, `T` a troll, `R` the rock.
const PIECE_LETTERS: ArmiesText = ArmiesText {
    armies: ['d', 'T'],
    single: 'R',
    single_name: "rock",
    legend: "d dwarf, T troll, R rock, digits for empty squares",
};

/// A position as written, before it is checked against either game's rules:
/// where the pieces stand, who is to move and the two ply counters.
///
/// Text is read into a setup first ([`FromStr`]) and then validated by
/// [`Thud::from_setup`](crate::core::Notation::from_setup) or
/// [`KoomValley::from_setup`](crate::core::Notation::from_setup), so malformed
/// text and impossible positions both give a [`ParseError`] saying what is
/// wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThudSetup {
    /// The dwarfs' squares.
    pub dwarfs: Bitboard256,
    /// The trolls' squares.
    pub trolls: Bitboard256,
    /// The Thudstone (classic) or the Rock (Koom Valley).
    pub rock: Option<Square>,
    /// The side to move.
    pub to_move: Side,
    /// Plies since the last capture (Koom Valley: capture or Rock move).
    pub quiet_plies: u32,
    /// Plies played since the start of the game.
    pub ply: u32,
}

impl ThudSetup {
    /// Checks the limits every position of a game with at most `max_dwarfs`
    /// dwarfs and `max_trolls` trolls must respect, and that the rock is there.
    pub fn check_counts(&self, max_dwarfs: u32, max_trolls: u32) -> Result<Square, ParseError> {
        let text = self.to_string();
        let bad = |problem: String| ParseError::new("position", &text, problem);
        let rock = self
            .rock
            .ok_or_else(|| bad("there is no rock (R)".into()))?;
        if self.dwarfs.count() > max_dwarfs {
            return Err(bad(format!(
                "{} dwarfs, but the game has only {max_dwarfs}",
                self.dwarfs.count()
            )));
        }
        if self.trolls.count() > max_trolls {
            return Err(bad(format!(
                "{} trolls, but the game has only {max_trolls}",
                self.trolls.count()
            )));
        }
        if self.quiet_plies > self.ply {
            return Err(bad(format!(
                "{} plies since the last capture, but only {} plies played",
                self.quiet_plies, self.ply
            )));
        }
        Ok(rock)
    }
}

impl Setup for ThudSetup {}

impl FromStr for ThudSetup {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: String| ParseError::new("position", text, problem);
        let (board, to_move, mut words) = board_and_side(text, Side::parse_to_move, bad)?;
        let mut counter = |name: &str| -> Result<u32, ParseError> {
            match words.next() {
                None => Ok(0),
                Some(word) => word.parse().map_err(|_| {
                    bad(format!(
                        "`{word}` is not a number of plies ({name} after the side to move)"
                    ))
                }),
            }
        };
        let quiet_plies = counter("plies since the last capture")?;
        let ply = counter("plies played")?;
        if let Some(extra) = words.next() {
            return Err(bad(format!("unexpected `{extra}` after the ply counters")));
        }
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != SIZE as usize {
            return Err(bad(format!(
                "{} rows, but the board has {SIZE} (separated by /)",
                rows.len()
            )));
        }
        let mut setup = ThudSetup {
            dwarfs: Bitboard256::EMPTY,
            trolls: Bitboard256::EMPTY,
            rock: None,
            to_move,
            quiet_plies,
            ply,
        };
        for (row, row_text) in rows.iter().enumerate() {
            let length = ROW_LENGTHS[row];
            let first_column = (SIZE as usize - length) / 2;
            let pieces = read_row(row_text, length).map_err(|error| match error {
                RowError::ZeroRun => bad(format!(
                    "rank {}: a run of empty squares cannot start with 0",
                    row + 1
                )),
                RowError::Length(found) => bad(format!(
                    "rank {} has {found} squares instead of {length}",
                    row + 1
                )),
            })?;
            for (column, c) in pieces {
                let square = square_at(row as i32, (first_column + column) as i32);
                PIECE_LETTERS
                    .place(
                        c,
                        square,
                        [&mut setup.dwarfs, &mut setup.trolls],
                        &mut setup.rock,
                    )
                    .map_err(bad)?;
            }
        }
        debug_assert!(((setup.dwarfs | setup.trolls) & !PLAYABLE).is_empty());
        Ok(setup)
    }
}

impl fmt::Display for ThudSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (row, &length) in ROW_LENGTHS.iter().enumerate() {
            if row > 0 {
                f.write_str("/")?;
            }
            let first_column = (SIZE as usize - length) / 2;
            write_row(
                f,
                (first_column..first_column + length).map(|column| {
                    let square = square_at(row as i32, column as i32);
                    PIECE_LETTERS.letter(square, [self.dwarfs, self.trolls], self.rock)
                }),
            )?;
        }
        write!(f, " {} {} {}", self.to_move, self.quiet_plies, self.ply)
    }
}

/// The names of a set of squares, in order, separated by spaces.
pub(crate) fn square_list(squares: Bitboard256) -> String {
    squares
        .squares()
        .map(square_name)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::thud::board::{CENTRE, parse_square};

    const CLASSIC_START: &str =
        "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd dwarfs 0 0";

    #[test]
    fn a_position_prints_as_it_was_read() {
        let setup: ThudSetup = CLASSIC_START.parse().unwrap();
        assert_eq!(setup.to_string(), CLASSIC_START);
        assert_eq!(setup.dwarfs.count(), 32);
        assert_eq!(setup.trolls.count(), 8);
        assert_eq!(setup.rock, Some(CENTRE));
        assert!(setup.trolls.contains(parse_square("G7").unwrap()));
        assert!(setup.dwarfs.contains(parse_square("A6").unwrap()));
    }

    #[test]
    fn counters_and_side_may_be_left_out() {
        let board = CLASSIC_START.split_whitespace().next().unwrap();
        let setup: ThudSetup = board.parse().unwrap();
        assert_eq!(
            (setup.to_move, setup.quiet_plies, setup.ply),
            (Side::Dwarfs, 0, 0)
        );
        let setup: ThudSetup = format!("{board} trolls 3 17").parse().unwrap();
        assert_eq!(
            (setup.to_move, setup.quiet_plies, setup.ply),
            (Side::Trolls, 3, 17)
        );
    }

    #[test]
    fn malformed_positions_name_the_problem() {
        let board = CLASSIC_START.split_whitespace().next().unwrap();
        let cases = [
            (String::new(), "empty"),
            ("5/7/9".to_string(), "3 rows"),
            (
                board.replacen("dd1dd", "dd1d", 1),
                "rank 1 has 4 squares instead of 5",
            ),
            (board.replacen("dd1dd", "dd1ddd", 1), "rank 1 has 6 squares"),
            (board.replacen("d5d", "d5x", 1), "`x` is not a piece"),
            (board.replacen("6TRT6", "6RRT6", 1), "more than one rock"),
            (board.replacen("d5d", "d05d", 1), "cannot start with 0"),
            (board.replacen("d5d", "d0d", 1), "cannot start with 0"),
            (format!("{board} elves"), "not a side"),
            (format!("{board} dwarfs x"), "not a number"),
            (format!("{board} dwarfs 1 2 3"), "unexpected `3`"),
            (
                board.replacen("d5d", "d99999999999999999999d", 1),
                "squares instead of 7",
            ),
        ];
        for (text, expected) in cases {
            let error = text.parse::<ThudSetup>().unwrap_err().to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }

    #[test]
    fn counts_are_checked_against_the_game() {
        let setup: ThudSetup = CLASSIC_START.parse().unwrap();
        assert!(setup.check_counts(32, 8).is_ok());
        let error = setup.check_counts(16, 8).unwrap_err().to_string();
        assert!(error.contains("32 dwarfs"), "{error}");
        let no_rock = ThudSetup {
            rock: None,
            ..setup.clone()
        };
        assert!(
            no_rock
                .check_counts(32, 8)
                .unwrap_err()
                .to_string()
                .contains("no rock")
        );
        let counters = ThudSetup {
            quiet_plies: 5,
            ply: 2,
            ..setup
        };
        assert!(counters.check_counts(32, 8).is_err());
    }
}
