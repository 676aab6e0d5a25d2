//! The evaluation that searchers use where they stop short of the game's
//! end.
//!
//! The estimate is built for White and negated for Black (the game is
//! zero-sum). A raw sum `x` of the terms below (in pawns) goes through
//! `x / (SCALE + |x|)` and is scaled to at most [`MAX_ESTIMATE`], so that no
//! estimate reaches the payoff of a real win (`±1`).
//!
//! | term | meaning |
//! |------|---------|
//! | material | pawn 1, knight 3, bishop 3.25, rook 5, queen 9; an Assassin on the chessboard 2.5, in a Slurk 1.5 plus 0.1 per Slurk move counted (up to 15: from then on it may emerge anywhere) |
//! | mobility | 0.04 per square the knights, bishops, rooks and queens attack that holds no piece of their own |
//! | king safety | −0.3 per square next to the king where an enemy Assassin could emerge, −0.4 per enemy Assassin on the chessboard that could leap onto the king or next to it |

use super::board::{
    CHESSBOARD, KING, KNIGHT, Kind, LEAPS, RAYS, SLURKS, Side, WIDEST_EMERGENCE, slurk_slot,
};
use super::moves::{Special, StealthChessMove};
use super::state::StealthChess;
use crate::core::{Evaluate, Player};
use crate::games::zero_sum_evaluation;

/// The largest estimate of a position that is not over.
pub const MAX_ESTIMATE: f64 = 0.9;

/// The raw sum at which the estimate is half of [`MAX_ESTIMATE`]: a
/// rook's worth of advantage.
const SCALE: f64 = 5.0;
const VALUES: [f64; 5] = [1.0, 3.0, 3.25, 5.0, 9.0];
const ASSASSIN_ON_CHESSBOARD: f64 = 2.5;
const ASSASSIN_IN_SLURK: f64 = 1.5;
const PER_SLURK_MOVE: f64 = 0.1;
const MOBILITY: f64 = 0.04;
const EMERGENCE_THREAT: f64 = 0.3;
const LEAP_THREAT: f64 = 0.4;

impl StealthChess {
    /// `side`'s material in pawns, its Assassins valued by their Slurk counts.
    fn material(&self, side: Side) -> f64 {
        let mut total = 0.0;
        for (kind, value) in Kind::ALL.into_iter().zip(VALUES) {
            total += value * f64::from(self.pieces(side, kind).count());
        }
        let assassins = self.pieces(side, Kind::Assassin);
        total += ASSASSIN_ON_CHESSBOARD * f64::from((assassins & CHESSBOARD).count());
        for square in (assassins & SLURKS).squares() {
            let count = self.slurk[slurk_slot(square)].count.min(WIDEST_EMERGENCE);
            total += ASSASSIN_IN_SLURK + PER_SLURK_MOVE * f64::from(count);
        }
        total
    }

    /// The squares `side`'s knights and sliders attack, not holding its own
    /// pieces, counted.
    fn mobility(&self, side: Side) -> u32 {
        let own = self.side_pieces(side);
        let occupied = self.occupied();
        let queens = self.pieces(side, Kind::Queen);
        let mut squares = 0;
        for from in self.pieces(side, Kind::Knight).squares() {
            squares += (KNIGHT.targets(from) & !own).count();
        }
        for from in (self.pieces(side, Kind::Bishop) | queens).squares() {
            squares += (RAYS.bishop_attacks(from, occupied) & !own).count();
        }
        for from in (self.pieces(side, Kind::Rook) | queens).squares() {
            squares += (RAYS.rook_attacks(from, occupied) & !own).count();
        }
        squares
    }

    /// How exposed `side`'s king is to the enemy Assassins: squares next to
    /// it where one could emerge, and Assassins that could leap onto it or
    /// next to it.
    fn king_danger(&self, side: Side) -> f64 {
        let king = self.king(side);
        let around = KING.targets(king);
        let enemy = side.opponent();
        let emergences = (around & self.emergence_zone(enemy) & !self.occupied()).count();
        let near = around.with(king);
        let leapers = (self.pieces(enemy, Kind::Assassin) & CHESSBOARD)
            .squares()
            .filter(|&assassin| LEAPS.targets(assassin).intersects(near))
            .count();
        EMERGENCE_THREAT * f64::from(emergences) + LEAP_THREAT * leapers as f64
    }

    /// The estimate for White, in `[-MAX_ESTIMATE, MAX_ESTIMATE]`.
    fn white_estimate(&self) -> f64 {
        let raw = self.material(Side::White) - self.material(Side::Black)
            + MOBILITY
                * (f64::from(self.mobility(Side::White)) - f64::from(self.mobility(Side::Black)))
            - self.king_danger(Side::White)
            + self.king_danger(Side::Black);
        MAX_ESTIMATE * raw / (SCALE + raw.abs())
    }
}

impl Evaluate for StealthChess {
    /// The payoff if the game is over, otherwise the estimate described in
    /// the module documentation.
    fn evaluate(&self, player: Player) -> f64 {
        zero_sum_evaluation(self, player, Side::White.player(), || self.white_estimate())
    }

    /// Captures (of either side's pieces, by an Assassin too) and promotions.
    fn is_tactical(&self, mv: StealthChessMove) -> bool {
        match mv.special {
            Special::EnPassant | Special::EmergeCapture(_) | Special::Promotion(_) => true,
            Special::Castle => false,
            _ => self.occupied().contains(mv.to),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Notation;
    use crate::games::stealth_chess::StealthChessRules;

    fn position(text: &str) -> StealthChess {
        StealthChess::from_position_text(text, StealthChessRules::default()).unwrap()
    }

    #[test]
    fn the_start_is_even_and_a_queen_up_is_good() {
        let start = StealthChess::start(StealthChessRules::default());
        assert!(start.evaluate(0).abs() < 1e-9);
        let queen_up = position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(queen_up.evaluate(0) > 0.5);
        assert_eq!(queen_up.evaluate(1), -queen_up.evaluate(0));
    }

    #[test]
    fn an_assassin_is_worth_more_the_longer_it_has_moved_in_its_slurk() {
        let fresh = position("5k4/10/10/10/10/10/10/A4K4 w - - 0 1 a1:a1:0");
        let ripe = position("5k4/10/10/10/10/10/10/A4K4 w - - 0 1 a1:a1:4");
        assert!(ripe.material(Side::White) > fresh.material(Side::White));
        // b1..b4, c1..c3, d1, d2 and e1.
        assert_eq!(ripe.emergence_zone(Side::White).count(), 10);
    }
}
