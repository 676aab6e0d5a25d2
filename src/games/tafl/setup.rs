//! Positions as written, before they are checked against the rules.
//!
//! norn's position text of a tafl game is OpenTafl's position record
//! (ranks between slashes, **rank 1 first**, `t`/`T` taflmen, `K` the
//! king, `c n m g` and their capitals the other kinds, digits for runs of
//! empty squares), then the side to move, then, when a piece must move
//! again under the berserk rule, its square:
//! `/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ attackers`. The board's side is the
//! number of ranks.

use super::bits::Words;
use super::board::{Side, parse_square, square_name};
use super::options::TaflRules;
use super::pieces::{Kind, Piece};
use super::rules_string::{position_record, read_record};
use super::spec::{AnySpec, Pos};
use super::state::{AnyPos, Tafl};
use crate::core::{ParseError, RepetitionHistory, Setup};
use crate::games::board_text::board_and_side;
use std::fmt;
use std::str::FromStr;

/// A position as written: the pieces, who is to move, and the piece that
/// must move again (berserk), if one must.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaflSetup {
    /// The board side.
    pub dim: usize,
    /// The piece on each square, by index (rank 1 first).
    pub pieces: Vec<Option<Piece>>,
    /// The side to move.
    pub to_move: Side,
    /// The square of the piece that must move again, if any.
    pub berserk: Option<usize>,
}

impl TaflSetup {
    /// Checks the position against `rules`: their board side, one
    /// defenders' king and no attackers' king, and a berserk piece (if
    /// any) of the side to move under rules that have berserk moves.
    pub fn validate(&self, rules: &TaflRules) -> Result<(), ParseError> {
        let text = self.to_string();
        let bad = |problem: String| Err(ParseError::new("position", &text, problem));
        if self.dim != rules.dim() {
            return bad(format!(
                "a {0}x{0} board, but these rules play on {1}x{1}",
                self.dim,
                rules.dim()
            ));
        }
        let count = |side, kind| {
            self.pieces
                .iter()
                .filter(|piece| **piece == Some(Piece { side, kind }))
                .count()
        };
        if count(Side::Attackers, Kind::King) > 0 {
            return bad("an attackers' king (`k`) is not supported".into());
        }
        match count(Side::Defenders, Kind::King) {
            1 => {}
            0 => return bad("there is no king (K)".into()),
            kings => return bad(format!("{kings} kings; one is supported")),
        }
        if let Some(square) = self.berserk {
            if rules.rules_string().berserk == super::rules_string::Berserk::None {
                return bad("a piece moves again only under the berserk rule (`ber`)".into());
            }
            if self.pieces[square].is_none_or(|piece| piece.side != self.to_move) {
                return bad(format!(
                    "the piece to move again, on {}, is not one of the {}",
                    square_name(self.dim, square),
                    self.to_move
                ));
            }
        }
        Ok(())
    }
}

impl Setup for TaflSetup {}

impl FromStr for TaflSetup {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: String| ParseError::new("position", text, problem);
        let (board, to_move, mut words) = board_and_side(text, Side::parse_to_move, bad)?;
        let (dim, pieces) = read_record(board, false).map_err(bad)?;
        let berserk =
            match words.next() {
                None => None,
                Some(square) => Some(parse_square(dim, square).map_err(|error| {
                    bad(format!("the piece to move again: {}", error.problem()))
                })?),
            };
        if let Some(extra) = words.next() {
            return Err(bad(format!("unexpected `{extra}` at the end")));
        }
        Ok(TaflSetup {
            dim,
            pieces,
            to_move,
            berserk,
        })
    }
}

impl fmt::Display for TaflSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}",
            position_record(self.dim, |index| self.pieces[index]),
            self.to_move
        )?;
        if let Some(square) = self.berserk {
            write!(f, " {}", square_name(self.dim, square))?;
        }
        Ok(())
    }
}

impl Tafl {
    /// The start position of the rules, with the side that moves first.
    pub fn start(rules: TaflRules) -> Tafl {
        let string = rules.rules_string();
        let to_move = if string.attackers_first {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let pos = match &rules.compiled().spec {
            AnySpec::W64(spec) => AnyPos::W64(spec.start),
            AnySpec::W128(spec) => AnyPos::W128(spec.start),
            AnySpec::W256(spec) => AnyPos::W256(spec.start),
            AnySpec::W384(spec) => AnyPos::W384(spec.start),
        };
        Tafl::from_parts(pos, rules, to_move, None)
    }

    /// The state of a setup that passes [`TaflSetup::validate`].
    pub(super) fn from_valid_setup(setup: &TaflSetup, rules: TaflRules) -> Tafl {
        let placed = || {
            setup
                .pieces
                .iter()
                .enumerate()
                .filter_map(|(index, piece)| piece.map(|piece| (index, piece)))
        };
        let pos = match &rules.compiled().spec {
            AnySpec::W64(_) => AnyPos::W64(Pos::from_pieces(placed())),
            AnySpec::W128(_) => AnyPos::W128(Pos::from_pieces(placed())),
            AnySpec::W256(_) => AnyPos::W256(Pos::<Words<4>>::from_pieces(placed())),
            AnySpec::W384(_) => AnyPos::W384(Pos::<Words<6>>::from_pieces(placed())),
        };
        Tafl::from_parts(
            pos,
            rules,
            setup.to_move,
            setup.berserk.map(|square| square as u16),
        )
    }

    fn from_parts(pos: AnyPos, rules: TaflRules, to_move: Side, berserk: Option<u16>) -> Tafl {
        let mut state = Tafl {
            pos,
            rules,
            to_move,
            moved_last: to_move.opponent(),
            berserk,
            ply: 0,
            hash: 0,
            ending: None,
            history: RepetitionHistory::new(),
        };
        state.hash = state.hash_from_scratch();
        state.remember_position(false);
        state.ending = state.ending_at_setup();
        state
    }

    /// The pieces and the side to move, as written.
    pub(super) fn to_setup(&self) -> TaflSetup {
        let dim = self.dim();
        TaflSetup {
            dim,
            pieces: (0..dim * dim).map(|index| self.piece_at(index)).collect(),
            to_move: self.to_move,
            berserk: self.berserk_square(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Notation};

    #[test]
    fn every_variant_starts_as_its_rules_string_says() {
        for variant in super::super::variants::VARIANTS {
            let rules = TaflRules::variant(variant.name).unwrap();
            let start = Tafl::new(rules);
            let text = start.position_text();
            let record = variant.rules.split("start:").nth(1).unwrap();
            assert!(text.starts_with(record), "{}: {text}", variant.name);
            let again = Tafl::from_position_text(&text, rules).unwrap();
            assert_eq!(again, start, "{}", variant.name);
        }
    }

    #[test]
    fn malformed_and_impossible_positions_name_the_problem() {
        let rules = TaflRules::variant("brandub").unwrap();
        for (text, expected) in [
            ("", "empty"),
            ("/7/7/7/3K3/7/7/", "6 ranks"),
            ("/7/7/7/3K3/7/7/8/", "more than 7"),
            ("/7/7/7/3K3/7/7/6x/", "not a piece"),
            ("/7/7/7/3K3/7/7/7/ nobody", "side"),
            ("/7/7/7/3K3/7/7/7/ attackers d4 x", "unexpected"),
            ("/7/7/7/3K3/7/7/7/ attackers z9", "to move again"),
            ("/9/9/9/9/4K4/9/9/9/9/", "9x9 board"),
            ("/7/7/7/7/7/7/7/", "no king"),
            ("/7/7/7/3K3/7/7/6k/", "attackers' king"),
            ("/7/7/7/3KK2/7/7/7/", "2 kings"),
            ("/7/7/7/3K3/7/7/7/ attackers d4", "berserk rule"),
        ] {
            let error = Tafl::from_position_text(text, rules)
                .unwrap_err()
                .to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
