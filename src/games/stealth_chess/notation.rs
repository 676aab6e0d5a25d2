//! Text forms: the 10-file FEN (see [`StealthChessSetup`]), long algebraic
//! moves and diagrams.

use super::board::{
    FILES, Kind, RANKS, SLURK_SLOTS, SLURKS, parse_square, slurk_slot, square_at, square_name,
};
use super::moves::{Special, StealthChessMove};
use super::options::StealthChessRules;
use super::setup::StealthChessSetup;
use super::state::StealthChess;
use crate::core::{Game, MoveList, Notation, ParseError, Picture};

/// A move as written: its squares and what follows them.
struct WrittenMove {
    from: crate::bitboard::Square,
    to: crate::bitboard::Square,
    /// The promotion letter, if any.
    promotion: Option<Kind>,
    /// For `a5d3xd4`: the square emerged on (`d3`), with `to` the capture.
    via: Option<crate::bitboard::Square>,
}

/// Reads `e2e4`, `e7e8q` or `a5d3xd4` (squares only, no legality).
fn read_move(text: &str) -> Result<WrittenMove, String> {
    let chars: Vec<char> = text.chars().collect();
    let square = |at: usize| -> Result<crate::bitboard::Square, String> {
        let name: String = chars
            .get(at..at + 2)
            .map(|c| c.iter().collect())
            .ok_or_else(|| {
                "a move is written as its squares, e.g. e2e4, e7e8q or a5d3xd4".to_string()
            })?;
        parse_square(&name).map_err(|error| error.problem().to_string())
    };
    let from = square(0)?;
    let second = square(2)?;
    match chars.len() {
        4 => Ok(WrittenMove {
            from,
            to: second,
            promotion: None,
            via: None,
        }),
        5 => {
            let promotion = Kind::from_letter(chars[4])
                .filter(|kind| Kind::PROMOTIONS.contains(kind))
                .ok_or_else(|| format!("`{}` is not a promotion (q, r, b or n)", chars[4]))?;
            Ok(WrittenMove {
                from,
                to: second,
                promotion: Some(promotion),
                via: None,
            })
        }
        7 if chars[4] == 'x' => Ok(WrittenMove {
            from,
            to: square(5)?,
            promotion: None,
            via: Some(second),
        }),
        _ => Err("a move is written as its squares, e.g. e2e4, e7e8q or a5d3xd4".to_string()),
    }
}

impl Notation for StealthChess {
    /// A 10-file FEN with its Slurk field; an 8-file chess FEN reads as one
    /// placed on files `b`..`i`.
    type Setup = StealthChessSetup;

    /// A validated state from an unvalidated setup. The game counts as just
    /// started: the ply counter is zero and there is no repetition history.
    ///
    /// # Errors
    /// What makes the position impossible: a missing king, a piece where it
    /// cannot stand, an inconsistent Slurk field, castling right or en
    /// passant square, or the side not to move in check.
    fn from_setup(setup: &StealthChessSetup, rules: StealthChessRules) -> Result<Self, ParseError> {
        setup.validate()?;
        let state = StealthChess::from_valid_setup(setup, rules);
        let mut other_side = state.clone();
        other_side.to_move = state.to_move.opponent();
        if other_side.in_check() {
            return Err(ParseError::new(
                "position",
                &setup.to_string(),
                format!(
                    "{} is in check, but it is {}'s move",
                    other_side.to_move, state.to_move
                ),
            ));
        }
        Ok(state)
    }

    fn setup(&self) -> StealthChessSetup {
        let mut board = [None; 80];
        for square in self.occupied().squares() {
            board[square.index()] = self.piece_at(square);
        }
        let mut slurk = [None; SLURK_SLOTS];
        for square in SLURKS.squares() {
            slurk[slurk_slot(square)] = self.slurk_mark(square);
        }
        StealthChessSetup {
            board,
            to_move: self.to_move,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove_clock: self.halfmove_clock,
            fullmove: self.fullmove,
            slurk,
        }
    }

    fn move_text(&self, mv: StealthChessMove) -> String {
        mv.to_string()
    }

    /// Reads a long algebraic move, which must be legal here.
    fn parse_move(&self, text: &str) -> Result<StealthChessMove, ParseError> {
        let bad = |problem: String| ParseError::new("move", text, problem);
        let written = read_move(text.trim()).map_err(bad)?;
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        let found = moves.iter().copied().find(|mv| {
            mv.from == written.from
                && mv.to == written.to
                && match mv.special {
                    Special::Promotion(kind) => written.promotion == Some(kind),
                    Special::EmergeCapture(via) => written.via == Some(via),
                    _ => written.promotion.is_none() && written.via.is_none(),
                }
        });
        if let Some(mv) = found {
            return Ok(mv);
        }
        if written.promotion.is_none()
            && moves.iter().any(|mv| {
                mv.from == written.from
                    && mv.to == written.to
                    && matches!(mv.special, Special::Promotion(_))
            })
        {
            return Err(bad(
                "a pawn reaching the last rank names its promotion (q, r, b or n)".to_string(),
            ));
        }
        let special = match (written.promotion, written.via) {
            (Some(kind), _) => Special::Promotion(kind),
            (None, Some(via)) => Special::EmergeCapture(via),
            (None, None) => Special::None,
        };
        let candidate = StealthChessMove::new(written.from, written.to, special);
        let reason = match self.check_move(candidate) {
            Err(illegal) => illegal.reason().to_string(),
            Ok(()) => self.why_illegal(candidate, &moves),
        };
        Err(bad(reason))
    }

    fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..RANKS as i32).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..FILES as i32 {
                let square = square_at(file, rank);
                let symbol = match self.piece_at(square) {
                    Some(piece) => piece.letter(),
                    None if SLURKS.contains(square) => ':',
                    None => '.',
                };
                out.push(' ');
                out.push(symbol);
            }
            out.push('\n');
        }
        out.push_str("   a b c d e f g h i j\n");
        let marks: Vec<String> = SLURKS
            .squares()
            .filter_map(|square| {
                self.slurk_mark(square).map(|mark| {
                    format!(
                        "{} (entered {}, count {})",
                        square_name(square),
                        square_name(mark.entry),
                        mark.count
                    )
                })
            })
            .collect();
        if !marks.is_empty() {
            out.push_str(&format!("in the Slurks: {}\n", marks.join(", ")));
        }
        match self.ending() {
            Some(reason) => {
                let result = match self.winner(reason) {
                    Some(side) => format!("{side} wins"),
                    None => "draw".to_string(),
                };
                out.push_str(&format!("game over: {result} ({})\n", reason.name()));
            }
            None => {
                let check = if self.in_check() { ", in check" } else { "" };
                out.push_str(&format!(
                    "{} to move{check}, {} legal moves, ply {}\n",
                    self.to_move,
                    self.count_moves(),
                    self.ply
                ));
            }
        }
        out
    }

    /// The board between its Slurks, the Slurk count and entry point of
    /// each Assassin in a Slurk, and who is to move.
    fn picture(&self) -> Picture {
        super::picture::picture(self)
    }

    fn default_openings() -> Option<&'static str> {
        Some(include_str!("../../../openings/stealth-chess.txt"))
    }
}
