//! The state of a classic Thud battle, its accessors, how a battle ends,
//! the Zobrist keys and the [`Game`] implementation.

use super::moves::ThudMove;
use super::options::ThudRules;
use super::setup::{MAX_DWARFS, MAX_TROLLS};
use crate::bitboard::Bitboard256;
use crate::core::{Game, IllegalMove, Outcome, Payoffs, Scoring, two_sided_turns};
use crate::games::thud::board::{CENTRE, Side};
use crate::games::thud::state::{ZobristKeys, army_accessors, check_listed, thud_state};

/// The points a surviving dwarf scores.
pub const DWARF_POINTS: i32 = 1;
/// The points a surviving troll scores: a troll is worth four dwarfs.
pub const TROLL_POINTS: i32 = 4;

thud_state! {
    /// Why a battle ended. Every end is scored the same way, by the margin.
    pub enum EndReason {}

    /// A position of a classic Thud battle with its ply counters.
    pub struct Thud {
        rules: ThudRules,
    }

    from_valid_setup(setup)
}

/// Zobrist keys: one per (piece kind, square) and one for "trolls to move".
pub(crate) static KEYS: ZobristKeys<{ 2 * 256 + 1 }> = ZobristKeys::new(0x6e6f_726e_7468_7564);

impl Thud {
    army_accessors!(EndReason);

    /// Every square a piece cannot move onto or through: the pieces and the Thudstone.
    #[inline]
    pub fn occupied(&self) -> Bitboard256 {
        (self.dwarfs | self.trolls).with(CENTRE)
    }

    /// The dwarfs' points minus the trolls' points on the board now.
    pub fn margin(&self) -> i32 {
        self.dwarfs.count() as i32 * DWARF_POINTS - self.trolls.count() as i32 * TROLL_POINTS
    }

    /// The hash computed from the pieces alone, without incremental updates.
    pub fn hash_from_scratch(&self) -> u64 {
        KEYS.armies(self.dwarfs, self.trolls, self.to_move)
    }

    /// The outcome of a finished battle: the margin for the dwarfs, its
    /// negation for the trolls.
    fn outcome(&self, reason: EndReason) -> Outcome {
        let margin = f64::from(self.margin());
        Outcome {
            // `0.0 - margin` keeps a drawn battle at +0 for both sides.
            payoffs: Payoffs::from_slice(&[margin, 0.0 - margin]),
            reason: reason.name(),
        }
    }
}

impl Game for Thud {
    type Move = ThudMove;
    type Rules = ThudRules;

    const NAME: &'static str = "thud";
    const SCORING: Scoring = Scoring::Margin;

    two_sided_turns!(Side, |battle, reason| battle.outcome(reason));

    /// `Ok` if `mv` is legal here, and otherwise why it is not.
    fn check_move(&self, mv: ThudMove) -> Result<(), IllegalMove> {
        check_listed(self, mv, || {
            self.explain_illegal(mv.side(), mv.from, mv.to, mv.captured())
        })
    }

    /// From all 8 trolls and no dwarf left (-32) to all 32 dwarfs and no troll (+32).
    fn payoff_range(&self) -> (f64, f64) {
        let extreme = f64::from(MAX_TROLLS as i32 * TROLL_POINTS).max(f64::from(MAX_DWARFS));
        (-extreme, extreme)
    }
}
