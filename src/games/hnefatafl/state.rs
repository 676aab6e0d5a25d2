//! The game state, its accessors, how a game ends, the Zobrist keys and
//! the [`Game`] implementation.

use super::board::{RAYS, RESTRICTED, Side, square_name};
use super::moves::HnefataflMove;
use super::options::HnefataflRules;
use crate::bitboard::{Bitboard128, Square};
use crate::core::zobrist::zobrist_keys;
use crate::core::{Game, IllegalMove, RepetitionHistory, Scoring, scramble, two_sided_turns};
use serde::Serialize;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The king reached an escape square: a corner in Copenhagen (and, in
    /// some other tafl games, any edge square).
    Escape,
    /// The king sits on the edge inside a fort the attackers cannot break.
    ExitFort,
    /// The attackers surrounded the king.
    KingCaptured,
    /// The attackers cut every defender off from the edge.
    Encirclement,
    /// A position occurred for the third time.
    Repetition,
    /// The side to move had no legal move.
    NoMoves,
    /// The engine's ply limit was reached.
    PlyLimit,
}

impl EndReason {
    /// The reason's name in records and reports.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Escape => "escape",
            EndReason::ExitFort => "exit-fort",
            EndReason::KingCaptured => "king-captured",
            EndReason::Encirclement => "encirclement",
            EndReason::Repetition => "repetition",
            EndReason::NoMoves => "no-moves",
            EndReason::PlyLimit => "ply-limit",
        }
    }
}

/// Zobrist keys: one per (piece kind, square) and one for "defenders to move".
static KEYS: [u64; 3 * 128 + 1] = zobrist_keys(0x6e6f_726e_7461_666c);
const SIDE_KEY: usize = 3 * 128;

#[derive(Clone, Copy)]
pub(crate) enum Piece {
    Attacker = 0,
    Defender = 1,
    King = 2,
}

#[inline]
pub(crate) fn piece_key(piece: Piece, square: Square) -> u64 {
    KEYS[piece as usize * 128 + square.index()]
}

/// The key of "defenders to move".
#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS[SIDE_KEY]
}

/// A position of Copenhagen Hnefatafl with its history of recent positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hnefatafl {
    pub(crate) attackers: Bitboard128,
    /// The defenders' soldiers; the king is kept apart.
    pub(crate) defenders: Bitboard128,
    pub(crate) king: Square,
    pub(crate) to_move: Side,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) rules: HnefataflRules,
    pub(crate) ending: Option<EndReason>,
    /// The positions since the last capture (a capture can never be
    /// undone), for the repetition rule.
    pub(crate) history: RepetitionHistory<16>,
}

impl Hnefatafl {
    /// The attackers' squares.
    pub fn attackers(&self) -> Bitboard128 {
        self.attackers
    }

    /// The defenders' soldiers, without the king.
    pub fn defenders(&self) -> Bitboard128 {
        self.defenders
    }

    /// The king's square.
    pub fn king(&self) -> Square {
        self.king
    }

    /// The side whose turn it is.
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// How the game ended, if it has; the outcome of
    /// [`status`](Game::status) says who won.
    pub fn ending(&self) -> Option<EndReason> {
        self.ending
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard128 {
        self.attackers | self.defenders.with(self.king)
    }

    /// The pieces of `side`, the king included for the defenders.
    #[inline]
    pub fn pieces(&self, side: Side) -> Bitboard128 {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders.with(self.king),
        }
    }

    /// The hash computed from the pieces alone, without the incremental updates.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = piece_key(Piece::King, self.king);
        for square in self.attackers.squares() {
            hash ^= piece_key(Piece::Attacker, square);
        }
        for square in self.defenders.squares() {
            hash ^= piece_key(Piece::Defender, square);
        }
        if self.to_move == Side::Defenders {
            hash ^= side_key();
        }
        hash
    }

    /// The side that won a game that ended for `reason` (`None` for a
    /// draw). A side left without moves loses to the side that moved last.
    pub(crate) fn winner(&self, reason: EndReason) -> Option<Side> {
        match reason {
            EndReason::Escape | EndReason::ExitFort => Some(Side::Defenders),
            EndReason::KingCaptured | EndReason::Encirclement | EndReason::Repetition => {
                Some(Side::Attackers)
            }
            EndReason::NoMoves => Some(self.to_move.opponent()),
            EndReason::PlyLimit => None,
        }
    }
}

impl Game for Hnefatafl {
    type Move = HnefataflMove;
    type Rules = HnefataflRules;

    const NAME: &'static str = "hnefatafl";
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
    fn check_move(&self, mv: HnefataflMove) -> Result<(), IllegalMove> {
        if let Some(reason) = self.ending {
            return Err(IllegalMove::new(format!(
                "the game is over ({})",
                reason.name()
            )));
        }
        let from_name = square_name(mv.from);
        let is_king = mv.from == self.king;
        if !self.occupied().contains(mv.from) {
            return Err(IllegalMove::new(format!(
                "there is no piece on {from_name}"
            )));
        }
        if !self.pieces(self.to_move).contains(mv.from) {
            return Err(IllegalMove::new(format!(
                "the piece on {from_name} belongs to the {}, but the {} are to move",
                self.to_move.opponent(),
                self.to_move
            )));
        }
        if mv.from == mv.to {
            return Err(IllegalMove::new("a piece must move at least one square"));
        }
        let to_name = square_name(mv.to);
        let between = RAYS.rook_attacks(mv.from, self.occupied());
        let along_line = RAYS.rook_attacks(mv.from, Bitboard128::EMPTY);
        if !along_line.contains(mv.to) {
            return Err(IllegalMove::new(format!(
                "{from_name} and {to_name} are not on the same rank or file"
            )));
        }
        if !between.contains(mv.to) || self.occupied().contains(mv.to) {
            return Err(IllegalMove::new(format!(
                "the way from {from_name} to {to_name} is blocked"
            )));
        }
        if !is_king && RESTRICTED.contains(mv.to) {
            return Err(IllegalMove::new(format!(
                "only the king may stop on {to_name} (the throne and the corners are restricted)"
            )));
        }
        Ok(())
    }
}
