//! Text forms of Koom Valley Thud: positions (see [`ThudSetup`]), moves and
//! diagrams.

use super::moves::{KoomValleyMove, KoomValleyMoveKind};
use super::options::KoomValleyRules;
use super::rules::GOAL;
use super::setup::{MAX_DWARFS, MAX_TROLLS};
use super::state::KoomValley;
use crate::core::{Game, MoveList, Notation, ParseError, Picture};
use crate::games::thud::board::{diagram, square_name};
use crate::games::thud::move_text::{Piece, WrittenMove};
use crate::games::thud::setup::ThudSetup;

impl KoomValley {
    /// The move of `piece` along `path` with the written captures, matched
    /// against the legal moves.
    fn find_move(&self, written: &WrittenMove) -> Result<KoomValleyMove, String> {
        let piece_kinds: &[KoomValleyMoveKind] = match written.piece {
            Piece::Dwarf => &[KoomValleyMoveKind::DwarfMove],
            Piece::Rock => &[KoomValleyMoveKind::RockMove],
            Piece::Troll => &[KoomValleyMoveKind::TrollMove, KoomValleyMoveKind::Trample],
        };
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        let same_path = |mv: &&KoomValleyMove| {
            piece_kinds.contains(&mv.kind)
                && mv.from == written.from()
                && mv.landings() == written.path[1..]
        };
        let found = moves.iter().find(same_path).copied().or_else(|| {
            // A trample written along a different path to the same result.
            let crossed = self.walk_trample(&written.path).ok()?;
            moves.iter().copied().find(|mv| {
                mv.kind == KoomValleyMoveKind::Trample
                    && written.piece == Piece::Troll
                    && mv.from == written.from()
                    && mv.to == written.to()
                    && self.captures_of(*mv) == crossed
            })
        });
        let claimed = written.captures_written.then_some(written.captures);
        match found {
            Some(mv) if claimed.is_none_or(|claimed| claimed == self.captures_of(mv)) => Ok(mv),
            _ => Err(self.explain_illegal(written.piece, &written.path, claimed)),
        }
    }
}

impl Notation for KoomValley {
    type Setup = ThudSetup;

    /// A validated state from an unvalidated setup: at most 16 dwarfs and 8
    /// trolls, and the Rock on the board.
    fn from_setup(setup: &ThudSetup, rules: KoomValleyRules) -> Result<Self, ParseError> {
        setup.check_counts(MAX_DWARFS, MAX_TROLLS)?;
        Ok(KoomValley::from_valid_setup(setup, rules))
    }

    fn setup(&self) -> ThudSetup {
        ThudSetup {
            dwarfs: self.dwarfs,
            trolls: self.trolls,
            rock: Some(self.rock),
            to_move: self.to_move,
            quiet_plies: self.quiet_plies,
            ply: self.ply,
        }
    }

    /// `dA10-D10` (with `xSQ` for each troll it traps), `RH8-H7`, `TF2-F5`,
    /// and tramples with every landing square and the dwarfs crossed in
    /// order, e.g. `TF3-F5-H5xF4xG5`.
    fn move_text(&self, mv: KoomValleyMove) -> String {
        let mut text = mv.to_string();
        if mv.kind == KoomValleyMoveKind::DwarfMove {
            for captured in self.captures_of(mv).squares() {
                text.push('x');
                text.push_str(&square_name(captured));
            }
        }
        text
    }

    /// Reads a move. Captures may be left out; when given they must be
    /// exactly those the move makes. A trample may be written along any of
    /// its paths.
    fn parse_move(&self, text: &str) -> Result<KoomValleyMove, ParseError> {
        let written: WrittenMove = text.trim().parse()?;
        self.find_move(&written)
            .map_err(|problem| ParseError::new("move", text, problem))
    }

    fn diagram(&self) -> String {
        let mut out = diagram(self.dwarfs, self.trolls, self.rock, GOAL);
        match self.ending {
            Some(reason) => {
                let result = match self.winner(reason) {
                    Some(side) => format!("{side} win"),
                    None => "draw".to_string(),
                };
                out.push_str(&format!(
                    "game over after {} plies: {result} ({})\n",
                    self.ply,
                    reason.name()
                ));
            }
            None => {
                let mut moves = MoveList::new();
                self.legal_moves(&mut moves);
                out.push_str(&format!(
                    "{} to move, {} legal moves, ply {}, {} plies without capture or Rock move; \
                     {} dwarfs, {} trolls, {} trolls next to the Rock\n",
                    self.to_move,
                    moves.len(),
                    self.ply,
                    self.quiet_plies,
                    self.dwarfs.count(),
                    self.trolls.count(),
                    self.trolls_around_rock().count(),
                ));
            }
        }
        out
    }

    /// The board with its goal squares and the Rock, who is to move, the
    /// pieces left and the ply counters.
    fn picture(&self) -> Picture {
        crate::games::thud::picture::koom_valley(self)
    }

    fn default_openings() -> Option<&'static str> {
        Some(include_str!("../../../../openings/koom-valley.txt"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard256;
    use crate::games::thud::board::parse_square;
    use crate::games::thud::koom_valley::START_POSITION;

    #[test]
    fn the_start_position_matches_the_rules_page() {
        let start = KoomValley::new(KoomValleyRules::default());
        assert_eq!(start.position_text(), START_POSITION);
        let names = |set: Bitboard256| set.squares().map(square_name).collect::<Vec<_>>().join(" ");
        assert_eq!(names(start.trolls()), "F2 H2 K2 E3 F3 H3 K3 L3");
        assert_eq!(
            names(start.dwarfs()),
            "H9 A10 P10 B11 O11 C12 N12 D13 M13 E14 L14 F15 G15 H15 J15 K15"
        );
        assert_eq!(square_name(start.rock()), "H8");
        assert_eq!(names(GOAL), "F1 G1 H1 J1 K1");
        assert!(start.parse_move("dH9-H10").is_ok());
        assert!(start.parse_move("RH8-G8").is_ok());
        let error = start.parse_move("RH8-G7").unwrap_err().to_string();
        assert!(error.contains("must end next to a dwarf"), "{error}");
        let error = start.parse_move("RH8-H9").unwrap_err().to_string();
        assert!(error.contains("H9 is occupied"), "{error}");
        assert_eq!(parse_square("H8").unwrap(), start.rock());
    }
}
