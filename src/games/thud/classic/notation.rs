//! Text forms of classic Thud: positions (see [`ThudSetup`]), moves and diagrams.

use super::moves::ThudMove;
use super::options::ThudRules;
use super::setup::{MAX_DWARFS, MAX_TROLLS};
use super::state::Thud;
use crate::bitboard::Bitboard256;
use crate::core::{Game, MoveList, Notation, ParseError, Picture};
use crate::games::thud::board::{CENTRE, Side, diagram, square_name};
use crate::games::thud::move_text::{Piece, WrittenMove};
use crate::games::thud::setup::ThudSetup;

impl Notation for Thud {
    type Setup = ThudSetup;

    /// A validated state from an unvalidated setup: at most 32 dwarfs and 8
    /// trolls, and the Thudstone on `H8`.
    fn from_setup(setup: &ThudSetup, rules: ThudRules) -> Result<Self, ParseError> {
        let rock = setup.check_counts(MAX_DWARFS, MAX_TROLLS)?;
        if rock != CENTRE {
            return Err(ParseError::new(
                "position",
                &setup.to_string(),
                format!(
                    "the Thudstone (R) must stand on H8, not on {}",
                    square_name(rock)
                ),
            ));
        }
        Ok(Thud::from_valid_setup(setup, rules))
    }

    fn setup(&self) -> ThudSetup {
        ThudSetup {
            dwarfs: self.dwarfs,
            trolls: self.trolls,
            rock: Some(CENTRE),
            to_move: self.to_move,
            quiet_plies: self.quiet_plies,
            ply: self.ply,
        }
    }

    /// `dA6-D6` (move), `dE7-G7xG7` (hurl), `TH7-H6xG5xH5` (step or shove
    /// with its captures, in square order).
    fn move_text(&self, mv: ThudMove) -> String {
        mv.to_string()
    }

    /// Reads a move. A troll move captures exactly the squares written after
    /// `x` (none if there are none); a hurl may leave out its capture.
    fn parse_move(&self, text: &str) -> Result<ThudMove, ParseError> {
        let written: WrittenMove = text.trim().parse()?;
        let bad = |problem: String| ParseError::new("move", text, problem);
        let side = match written.piece {
            Piece::Dwarf => Side::Dwarfs,
            Piece::Troll => Side::Trolls,
            Piece::Rock => return Err(bad("the Thudstone never moves".into())),
        };
        if written.path.len() != 2 {
            return Err(bad(
                "a classic Thud move goes from one square to another (from-to)".into(),
            ));
        }
        let (from, to) = (written.from(), written.to());
        let claimed = if written.captures_written {
            written.captures
        } else if side == Side::Dwarfs && self.trolls.contains(to) {
            Bitboard256::from_square(to)
        } else {
            Bitboard256::EMPTY
        };
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|mv| {
                mv.side() == side && mv.from == from && mv.to == to && mv.captured() == claimed
            })
            .ok_or_else(|| bad(self.explain_illegal(side, from, to, claimed)))
    }

    fn diagram(&self) -> String {
        let mut out = diagram(self.dwarfs, self.trolls, CENTRE, Bitboard256::EMPTY);
        let score = format!(
            "dwarfs {} points, trolls {} points, margin {:+}",
            self.dwarfs.count(),
            4 * self.trolls.count(),
            self.margin()
        );
        match self.ending {
            Some(reason) => out.push_str(&format!(
                "battle over ({}) after {} plies: {score}\n",
                reason.name(),
                self.ply
            )),
            None => {
                let mut moves = MoveList::new();
                self.legal_moves(&mut moves);
                out.push_str(&format!(
                    "{} to move, {} legal moves, ply {}, {} plies without capture; {score}\n",
                    self.to_move,
                    moves.len(),
                    self.ply,
                    self.quiet_plies
                ));
            }
        }
        out
    }

    /// The board with the Thudstone, who is to move, the score and the ply
    /// counters.
    fn picture(&self) -> Picture {
        crate::games::thud::picture::classic(self)
    }

    fn default_openings() -> Option<&'static str> {
        Some(include_str!("../../../../openings/thud.txt"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::thud::classic::START_POSITION;
    use crate::testing::check_move_texts_refused;

    #[test]
    fn the_start_position_round_trips() {
        let start = Thud::new(ThudRules::default());
        assert_eq!(start.position_text(), START_POSITION);
        assert_eq!(start.margin(), 0);
    }

    #[test]
    fn moves_of_the_wrong_side_or_piece_are_explained() {
        let start = Thud::new(ThudRules::default());
        check_move_texts_refused(
            &start,
            &[
                ("TG7-G6", "dwarfs are to move"),
                ("dB6-D6", "no dwarf on B6"),
                ("dA6-C7", "not on one rank, file or diagonal"),
                ("dA6-A6", "at least one square"),
                ("RH8-H7", "never moves"),
                ("dA6-D6-E6", "from one square to another"),
                ("dA6-D6xD6", "captures nothing"),
                ("dA6-P6", "P6 is occupied"),
                ("dA7-K7", "blocked on G7"),
            ],
        );
        assert!(start.parse_move("dA6-D6").is_ok());
        assert!(start.parse_move("da6-d6").is_ok());
    }
}
