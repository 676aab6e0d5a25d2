//! The game state, how a game ends, the Zobrist keys and the [`Game`]
//! implementation.

use super::bits::Words;
use super::board::{MAX_SQUARES, Side, square_name};
use super::moves::TaflMove;
use super::options::{RepetitionRule, TaflRules};
use super::pieces::Piece;
use super::rules_string::ThirdRepetition;
use super::spec::Pos;
use crate::core::zobrist::zobrist_keys;
use crate::core::{Game, IllegalMove, RepetitionHistory, Scoring, scramble, two_sided_turns};
/// How a game ends: the family's endings are Copenhagen Hnefatafl's.
pub use crate::games::hnefatafl::EndReason;

/// Zobrist keys: one per (piece, square), one per square for the piece
/// that must move again (berserk), and one for "defenders to move".
static KEYS: [u64; 13 * MAX_SQUARES + 1] = zobrist_keys(0x6e6f_726e_7461_666d);

/// The key of `piece` on square `index`.
#[inline]
pub(crate) fn piece_key(piece: Piece, index: usize) -> u64 {
    KEYS[piece.index() * MAX_SQUARES + index]
}

/// The key of a pending berserk move of the piece on `index`.
#[inline]
pub(crate) fn berserk_key(index: usize) -> u64 {
    KEYS[12 * MAX_SQUARES + index]
}

/// The key of "defenders to move".
#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS[13 * MAX_SQUARES]
}

/// The pieces at the set width of the board's size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AnyPos {
    /// 7x7.
    W64(Pos<u64>),
    /// 9x9 and 11x11.
    W128(Pos<u128>),
    /// 13x13 and 15x15.
    W256(Pos<Words<4>>),
    /// 17x17 and 19x19.
    W384(Pos<Words<6>>),
}

/// Runs `$body` with `$pos` (the state's pieces) and `$spec` (its compiled
/// rules) bound at the width of the board: the one place that turns the
/// state's width into a type.
macro_rules! with_board {
    ($state:expr, |mut $pos:ident, $spec:ident| $body:expr) => {{
        use $crate::games::tafl::spec::AnySpec;
        use $crate::games::tafl::state::AnyPos;
        let compiled = $state.rules.compiled();
        match (&mut $state.pos, &compiled.spec) {
            (AnyPos::W64($pos), AnySpec::W64($spec)) => $body,
            (AnyPos::W128($pos), AnySpec::W128($spec)) => $body,
            (AnyPos::W256($pos), AnySpec::W256($spec)) => $body,
            (AnyPos::W384($pos), AnySpec::W384($spec)) => $body,
            _ => unreachable!("a position is kept at the width of its rules"),
        }
    }};
    ($state:expr, |$pos:ident, $spec:ident| $body:expr) => {{
        use $crate::games::tafl::spec::AnySpec;
        use $crate::games::tafl::state::AnyPos;
        match (&$state.pos, &$state.rules.compiled().spec) {
            (AnyPos::W64($pos), AnySpec::W64($spec)) => $body,
            (AnyPos::W128($pos), AnySpec::W128($spec)) => $body,
            (AnyPos::W256($pos), AnySpec::W256($spec)) => $body,
            (AnyPos::W384($pos), AnySpec::W384($spec)) => $body,
            _ => unreachable!("a position is kept at the width of its rules"),
        }
    }};
}
pub(crate) use with_board;

/// A position of a tafl game with its rules and its history of recent
/// positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tafl {
    pub(crate) pos: AnyPos,
    pub(crate) rules: TaflRules,
    pub(crate) to_move: Side,
    /// The side that made the last move (the repetition rule may name it).
    pub(crate) moved_last: Side,
    /// The piece that must move again under the berserk rule.
    pub(crate) berserk: Option<u16>,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) ending: Option<EndReason>,
    /// The positions since the last capture that took a piece off the
    /// board, for the repetition rule.
    pub(crate) history: RepetitionHistory<16>,
}

impl Tafl {
    /// The side whose turn it is.
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<EndReason> {
        self.ending
    }

    /// The board side.
    pub fn dim(&self) -> usize {
        self.rules.dim()
    }

    /// The square of the piece that must move again (berserk), if any.
    pub fn berserk_square(&self) -> Option<usize> {
        self.berserk.map(usize::from)
    }

    /// The piece on square `index`, if any.
    pub fn piece_at(&self, index: usize) -> Option<Piece> {
        with_board!(self, |pos, _spec| pos.piece_at(index))
    }

    /// The king's square.
    pub fn king(&self) -> usize {
        with_board!(self, |pos, _spec| pos.king as usize)
    }

    /// The number of pieces of `side`, the king included.
    pub fn count(&self, side: Side) -> u32 {
        with_board!(self, |pos, _spec| super::bits::Bits::count(pos.side(side)))
    }

    /// The name of square `index` on this board.
    pub fn square_name(&self, index: usize) -> String {
        square_name(self.dim(), index)
    }

    /// The hash computed from the pieces alone, without the incremental
    /// updates.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for index in 0..self.dim() * self.dim() {
            if let Some(piece) = self.piece_at(index) {
                hash ^= piece_key(piece, index);
            }
        }
        if self.to_move == Side::Defenders {
            hash ^= side_key();
        }
        if let Some(square) = self.berserk {
            hash ^= berserk_key(square.into());
        }
        hash
    }

    /// Whether the repetition rule in force ends games.
    pub(crate) fn counts_repetitions(&self) -> bool {
        self.rules.repetition == RepetitionRule::DefendersLose
            || self.rules.rules_string().repetition != ThirdRepetition::Ignored
    }

    /// The side that won a game that ended for `reason` (`None` for a draw).
    pub(crate) fn winner(&self, reason: EndReason) -> Option<Side> {
        match reason {
            EndReason::Escape | EndReason::ExitFort => Some(Side::Defenders),
            EndReason::KingCaptured | EndReason::Encirclement => Some(Side::Attackers),
            EndReason::Repetition => match self.rules.repetition {
                RepetitionRule::DefendersLose => Some(Side::Attackers),
                RepetitionRule::RulesString => match self.rules.rules_string().repetition {
                    ThirdRepetition::Draw | ThirdRepetition::Ignored => None,
                    ThirdRepetition::MoverLoses => Some(self.moved_last.opponent()),
                    ThirdRepetition::MoverWins => Some(self.moved_last),
                },
            },
            EndReason::NoMoves => Some(self.to_move.opponent()),
            EndReason::PlyLimit => None,
        }
    }
}

impl Game for Tafl {
    type Move = TaflMove;
    type Rules = TaflRules;

    const NAME: &'static str = "tafl";
    const SCORING: Scoring = Scoring::WinLoss;

    two_sided_turns!(Side);

    /// The positions the repetition rule counts, and the ply where a ply
    /// limit can end the game.
    fn history_key(&self) -> u64 {
        let ply = match self.rules.ply_limit {
            Some(_) => scramble(u64::from(self.ply)),
            None => 0,
        };
        self.history.key() ^ ply
    }

    /// Explains why `mv` is illegal, or returns `Ok` if it is legal.
    fn check_move(&self, mv: TaflMove) -> Result<(), IllegalMove> {
        if let Some(reason) = self.ending {
            return Err(IllegalMove::new(format!(
                "the game is over ({})",
                reason.name()
            )));
        }
        let squares = self.dim() * self.dim();
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        if from >= squares || to >= squares {
            return Err(IllegalMove::new("a square off the board"));
        }
        let from_name = self.square_name(from);
        let Some(piece) = self.piece_at(from) else {
            return Err(IllegalMove::new(format!(
                "there is no piece on {from_name}"
            )));
        };
        if piece.side != self.to_move {
            return Err(IllegalMove::new(format!(
                "the piece on {from_name} belongs to the {}, but the {} are to move",
                piece.side, self.to_move
            )));
        }
        if let Some(square) = self.berserk
            && usize::from(square) != from
        {
            return Err(IllegalMove::new(format!(
                "the piece on {} must move again (berserk)",
                self.square_name(square.into())
            )));
        }
        if self.is_legal(mv) {
            return Ok(());
        }
        let to_name = self.square_name(to);
        let dim = self.dim();
        let reason = if from == to {
            "a piece must move at least one square".to_string()
        } else if from % dim != to % dim && from / dim != to / dim {
            format!("{from_name} and {to_name} are not on the same rank or file")
        } else if self.berserk.is_some() {
            format!("{from_name}-{to_name} captures nothing, and a berserk move must")
        } else {
            format!(
                "the {} on {from_name} cannot move to {to_name} (the way is blocked, or the square is closed to it)",
                piece.kind.name()
            )
        };
        Err(IllegalMove::new(reason))
    }
}
