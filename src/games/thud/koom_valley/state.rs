//! The state of a Koom Valley Thud game, its accessors, how a game ends,
//! the Zobrist keys and the [`Game`] implementation.

use super::moves::{KoomValleyMove, KoomValleyMoveKind};
use super::options::KoomValleyRules;
use crate::bitboard::{Bitboard256, Square};
use crate::core::{Game, IllegalMove, Scoring, two_sided_turns};
use crate::games::thud::board::{ADJACENT, Side};
use crate::games::thud::state::{ZobristKeys, army_accessors, check_listed, thud_state};

thud_state! {
    /// Why a game ended. A side left without moves loses; the two limits
    /// end the game drawn.
    pub enum EndReason {
        /// The Rock reached a goal square (dwarfs win).
        RockHome = "rock-home",
        /// Three trolls stood next to the Rock after a troll move (trolls win).
        RockSurrounded = "rock-surrounded",
    }

    /// A position of Koom Valley Thud with its ply counters.
    pub struct KoomValley {
        rules: KoomValleyRules,
        rock: Square = setup.rock.expect("validated setups have a Rock"),
    }

    from_valid_setup(setup)
}

/// Zobrist keys: one per (piece kind, square) and one for "trolls to move".
pub(crate) static KEYS: ZobristKeys<{ 3 * 256 + 1 }> = ZobristKeys::new(0x6e6f_726e_6b6f_6f6d);

impl KoomValley {
    army_accessors!(EndReason);

    /// The square of the Rock, which the dwarfs carry towards the goal.
    pub fn rock(&self) -> Square {
        self.rock
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
        KEYS.rock(self.rock) ^ KEYS.armies(self.dwarfs, self.trolls, self.to_move)
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
}

impl Game for KoomValley {
    type Move = KoomValleyMove;
    type Rules = KoomValleyRules;

    const NAME: &'static str = "koom-valley";
    const SCORING: Scoring = Scoring::WinLoss;

    two_sided_turns!(Side);

    /// `Ok` if `mv` is legal here, and otherwise why it is not.
    fn check_move(&self, mv: KoomValleyMove) -> Result<(), IllegalMove> {
        check_listed(self, mv, || {
            let mut path = vec![mv.from];
            path.extend(mv.landings());
            let piece = match mv.kind {
                KoomValleyMoveKind::DwarfMove => crate::games::thud::Piece::Dwarf,
                KoomValleyMoveKind::RockMove => crate::games::thud::Piece::Rock,
                _ => crate::games::thud::Piece::Troll,
            };
            self.explain_illegal(piece, &path, None)
        })
    }
}
