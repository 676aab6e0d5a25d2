//! Positions as written, before they are checked against the rules: the
//! OpenTafl board string and the side to move, read into an unvalidated
//! setup; its validation and the start position.

use super::board::{GRID, RESTRICTED, SIZE, Side, THRONE, square_name, squares_at};
use super::options::HnefataflRules;
use super::state::Hnefatafl;
use crate::bitboard::{Bitboard128, Square};
use crate::core::{ParseError, RepetitionHistory, Setup};
use crate::games::board_text::{ArmiesText, RowError, board_and_side, read_row, write_row};
use std::fmt;
use std::str::FromStr;

/// The starting position in OpenTafl notation, attackers to move.
pub const START_POSITION: &str =
    "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ attackers";

/// The start position, built from constants: a T of six attackers in the
/// middle of each edge, twelve defenders in a diamond around the king on
/// the throne, attackers to move. It prints as [`START_POSITION`].
#[rustfmt::skip]
const START: HnefataflSetup = HnefataflSetup {
    attackers: squares_at(&[
        // The bottom edge (rank 1) and the square in front of it.
        (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (5, 1),
        // The top edge (rank 11).
        (3, 10), (4, 10), (5, 10), (6, 10), (7, 10), (5, 9),
        // The left edge (file a).
        (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (1, 5),
        // The right edge (file k).
        (10, 3), (10, 4), (10, 5), (10, 6), (10, 7), (9, 5),
    ]),
    defenders: squares_at(&[
        (5, 3),
        (4, 4), (5, 4), (6, 4),
        (3, 5), (4, 5), (6, 5), (7, 5),
        (4, 6), (5, 6), (6, 6),
        (5, 7),
    ]),
    king: Some(THRONE),
    to_move: Side::Attackers,
};

/// The letters of the pieces: `t` an attacker, `T` a defender, `K` the king.
const PIECE_LETTERS: ArmiesText = ArmiesText {
    armies: ['t', 'T'],
    single: 'K',
    single_name: "king",
    legend: "t attacker, T defender, K king",
};

/// The most pieces each side has at the start; no position can hold more.
const MAX_ATTACKERS: u32 = 24;
const MAX_DEFENDERS: u32 = 12;

/// A position as written, before it is checked against the rules: where the
/// pieces stand and who is to move.
///
/// Text is read into a setup first ([`FromStr`]), then validated by
/// [`Notation::from_setup`](crate::core::Notation::from_setup), so malformed text and impossible positions both
/// give a [`ParseError`] that says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HnefataflSetup {
    /// The attackers' squares.
    pub attackers: Bitboard128,
    /// The defenders' soldiers, without the king.
    pub defenders: Bitboard128,
    /// The king's square (`None` until one is read; validation requires it).
    pub king: Option<Square>,
    /// The side to move.
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

impl Setup for HnefataflSetup {}

impl FromStr for HnefataflSetup {
    type Err = ParseError;

    /// Reads an OpenTafl board string (top rank first, `t` attacker, `T`
    /// defender, `K` king, digits for runs of empty squares, ranks separated by
    /// `/`), optionally followed by the side to move (`attackers` or
    /// `defenders`; attackers if left out).
    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: String| ParseError::new("position", text, problem);
        let (board, to_move, mut words) = board_and_side(text, Side::parse_to_move, bad)?;
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
                PIECE_LETTERS
                    .place(
                        c,
                        square,
                        [&mut setup.attackers, &mut setup.defenders],
                        &mut setup.king,
                    )
                    .map_err(bad)?;
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
                    PIECE_LETTERS.letter(square, [self.attackers, self.defenders], self.king)
                }),
            )?;
            f.write_str("/")?;
        }
        write!(f, " {}", self.to_move)
    }
}

impl Hnefatafl {
    /// The standard starting position, attackers to move.
    pub fn start(rules: HnefataflRules) -> Hnefatafl {
        Hnefatafl::from_valid_setup(&START, rules)
    }

    /// The state of a setup that passes [`HnefataflSetup::validate`].
    pub(super) fn from_valid_setup(setup: &HnefataflSetup, rules: HnefataflRules) -> Hnefatafl {
        let mut state = Hnefatafl {
            attackers: setup.attackers,
            defenders: setup.defenders,
            king: setup.king.expect("validated setups have a king"),
            to_move: setup.to_move,
            ply: 0,
            hash: 0,
            rules,
            ending: None,
            history: RepetitionHistory::new(),
        };
        state.hash = state.hash_from_scratch();
        state.remember_position(false);
        state.ending = state.ending_at_setup();
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::check_position_texts;

    #[test]
    fn the_start_position_prints_as_it_was_read() {
        let setup: HnefataflSetup = START_POSITION.parse().unwrap();
        assert_eq!(setup.to_string(), START_POSITION);
        assert_eq!(setup.attackers.count(), 24);
        assert_eq!(setup.defenders.count(), 12);
        assert_eq!(setup.king, Some(THRONE));
    }

    #[test]
    fn the_start_built_from_constants_prints_as_documented() {
        assert!(START.validate().is_ok());
        crate::games::check_start_constants::<Hnefatafl>(
            &START,
            START_POSITION,
            HnefataflRules::default(),
        );
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
        check_position_texts::<Hnefatafl>(&rules, &cases);
    }
}
