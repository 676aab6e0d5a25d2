//! The state of a Koom Valley Thud game, its accessors, how a game ends,
//! the Zobrist keys and the [`Game`] implementation.

use super::moves::{KoomValleyMove, KoomValleyMoveKind};
use super::options::KoomValleyRules;
use crate::bitboard::{Bitboard256, Square};
use crate::core::zobrist::zobrist_keys;
use crate::core::{Game, IllegalMove, MoveList, Outcome, Payoffs, Scoring, two_sided_turns};
use crate::games::thud::board::{ADJACENT, Side};
use serde::Serialize;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The Rock reached a goal square (dwarfs win).
    RockHome,
    /// Three trolls stood next to the Rock after a troll move (trolls win).
    RockSurrounded,
    /// The side to move had no legal move and lost.
    NoMoves,
    /// The limit of plies without a capture or Rock move was reached (draw).
    NoCaptureLimit,
    /// The total ply limit was reached (draw).
    PlyLimit,
}

impl EndReason {
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::RockHome => "rock-home",
            EndReason::RockSurrounded => "rock-surrounded",
            EndReason::NoMoves => "no-moves",
            EndReason::NoCaptureLimit => "no-capture-limit",
            EndReason::PlyLimit => "ply-limit",
        }
    }
}

/// Zobrist keys: one per (piece kind, square) and one for "trolls to move".
static KEYS: [u64; 3 * 256 + 1] = zobrist_keys(0x6e6f_726e_6b6f_6f6d);

#[inline]
pub(crate) fn dwarf_key(square: Square) -> u64 {
    KEYS[square.index()]
}

#[inline]
pub(crate) fn troll_key(square: Square) -> u64 {
    KEYS[256 + square.index()]
}

#[inline]
pub(crate) fn rock_key(square: Square) -> u64 {
    KEYS[2 * 256 + square.index()]
}

#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS[3 * 256]
}

/// A position of Koom Valley Thud with its ply counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoomValley {
    pub(crate) dwarfs: Bitboard256,
    pub(crate) trolls: Bitboard256,
    pub(crate) rock: Square,
    pub(crate) to_move: Side,
    pub(crate) ply: u32,
    /// Plies since the last capture or Rock move.
    pub(crate) quiet_plies: u32,
    pub(crate) hash: u64,
    pub(crate) rules: KoomValleyRules,
    pub(crate) ending: Option<EndReason>,
}

impl KoomValley {
    pub fn dwarfs(&self) -> Bitboard256 {
        self.dwarfs
    }

    pub fn trolls(&self) -> Bitboard256 {
        self.trolls
    }

    pub fn rock(&self) -> Square {
        self.rock
    }

    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// Plies since the last capture or Rock move.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// How the game ended, if it has; the outcome of
    /// [`status`](Game::status) says who won.
    pub fn ending(&self) -> Option<EndReason> {
        self.ending
    }

    /// Every square a piece cannot move onto or through.
    #[inline]
    pub fn occupied(&self) -> Bitboard256 {
        (self.dwarfs | self.trolls).with(self.rock)
    }

    /// The trolls standing next to the Rock.
    #[inline]
    pub fn trolls_around_rock(&self) -> Bitboard256 {
        ADJACENT.targets(self.rock) & self.trolls
    }

    /// The hash computed from the pieces alone, without incremental updates.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = rock_key(self.rock);
        for square in self.dwarfs.squares() {
            hash ^= dwarf_key(square);
        }
        for square in self.trolls.squares() {
            hash ^= troll_key(square);
        }
        if self.to_move == Side::Trolls {
            hash ^= side_key();
        }
        hash
    }

    /// The side that won a game that ended for `reason` (`None` for a
    /// draw). A side left without moves loses.
    pub(crate) fn winner(&self, reason: EndReason) -> Option<Side> {
        match reason {
            EndReason::RockHome => Some(Side::Dwarfs),
            EndReason::RockSurrounded => Some(Side::Trolls),
            EndReason::NoMoves => Some(self.to_move.opponent()),
            EndReason::NoCaptureLimit | EndReason::PlyLimit => None,
        }
    }

    fn outcome(&self, reason: EndReason) -> Outcome {
        Outcome {
            payoffs: Payoffs::win_or_draw(self.winner(reason).map(Side::player)),
            reason: reason.name(),
        }
    }
}

impl Game for KoomValley {
    type Move = KoomValleyMove;
    type Rules = KoomValleyRules;

    const NAME: &'static str = "koom-valley";
    const SCORING: Scoring = Scoring::WinLoss;

    two_sided_turns!(Side);

    /// `Ok` if `mv` is legal here, and otherwise why it is not.
    fn check_move(&self, mv: KoomValleyMove) -> Result<(), IllegalMove> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            return Ok(());
        }
        let mut path = vec![mv.from];
        path.extend(mv.landings());
        let piece = match mv.kind {
            KoomValleyMoveKind::DwarfMove => crate::games::thud::Piece::Dwarf,
            KoomValleyMoveKind::RockMove => crate::games::thud::Piece::Rock,
            _ => crate::games::thud::Piece::Troll,
        };
        Err(IllegalMove::new(self.explain_illegal(piece, &path, None)))
    }

    fn payoff_range(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }
}
