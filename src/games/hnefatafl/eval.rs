//! The evaluation that searchers use where they stop short of the game's end.
//!
//! The estimate is built from the defenders' side and negated for the
//! attackers (the game is zero-sum). A raw sum `x` of weighted terms goes
//! through `x / (1 + |x|)` and is scaled to at most [`MAX_ESTIMATE`], so that no estimate
//! reaches the payoff of a real win (`±1`). The terms, with the weights of
//! the game's own evaluation ([`HnefataflWeights::HAND_SET`]):
//!
//! | term | meaning | hand-set weight |
//! |------|---------|-----------------|
//! | material | defenders left / 12 − attackers left / 24 (a defender is worth two attackers) | 1.5 |
//! | open corners | corners the king reaches in one move (at most 2 count) | 0.35 |
//! | corners in two | corners the king reaches in two moves over empty lines | 0.12 |
//! | forks | squares the king reaches in one move that see two corners or touch one, at most 2 | 0.25 |
//! | edge lines | edge squares the king reaches in one move | 0.02 |
//! | king's room | edge squares the king could walk to over empty squares, / 40 | 0.4 |
//! | defenders' edge | edge squares reachable by any defender through squares free of attackers, / 40 (the opposite of encirclement pressure) | 0.3 |
//! | corner guards | attackers within two squares of a corner, at most 3 per corner, / 12 | −0.35 |
//! | king pressed | attackers beside the king | −0.08 |
//!
//! The weights are data ([`HnefataflWeights`]): [`HnefataflEvaluation`]
//! searches with any set, such as [`HnefataflWeights::TUNED`], fitted to
//! the recorded games by [`super::tuning`].
//!
//! Some positions are judged before the sum. A king with an open line to a
//! corner wins on the defenders' move ([`MAX_ESTIMATE`]); on the attackers'
//! move it still wins if two corners are open or no attacker can step into
//! the line (a little less). A king that can reach, on the defenders' move, a
//! square that sees two corners or touches one is usually through as well
//! (less again). These special cases are not weighted, so tuning leaves
//! them as they are.

use super::board::{CORNERS, EDGE, GEOMETRY, RAYS, STEPS, Side, THRONE};
use super::moves::HnefataflMove;
use super::rules::is_hostile_square;
use super::state::Hnefatafl;
use crate::bitboard::{Bitboard128, Direction};
use crate::core::{Evaluate, Evaluator, Game, Player};
use crate::games::zero_sum_evaluation;

/// The largest estimate of a position that is not over.
pub const MAX_ESTIMATE: f64 = 0.9;

/// The number of weighted terms in the evaluation.
pub const TERM_COUNT: usize = 9;

/// What each term's count is divided by before its weight applies: the
/// edge squares and the corner guards count as fractions of their most.
const TERM_SCALES: [f64; TERM_COUNT] = [1.0, 1.0, 1.0, 1.0, 1.0, 40.0, 40.0, 12.0, 1.0];

/// Declares the weighted terms once, in their order: the weights' fields
/// (with their documentation), [`TERM_NAMES`], and the conversions of the
/// weights to and from an array in that order.
macro_rules! weighted_terms {
    ($($(#[doc = $doc:literal])* $term:ident,)*) => {
        /// The weights of the evaluation's terms, seen from the defenders: a
        /// positive weight makes a term good for them, a negative one bad. The raw
        /// sum is each weight times its term's value (described at each field);
        /// the positions judged before the sum (an open corner, a fork on the
        /// defenders' move) do not use the weights.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct HnefataflWeights {
            $($(#[doc = $doc])* pub $term: f64,)*
        }

        /// The terms' names, in the order of [`HnefataflWeights::to_array`]
        /// and [`EvaluationTerms::values`].
        pub const TERM_NAMES: [&str; TERM_COUNT] = [$(stringify!($term)),*];

        impl HnefataflWeights {
            /// The weights in the order of [`TERM_NAMES`].
            pub const fn to_array(&self) -> [f64; TERM_COUNT] {
                [$(self.$term),*]
            }

            /// Weights from values in the order of [`TERM_NAMES`].
            pub const fn from_array(values: [f64; TERM_COUNT]) -> HnefataflWeights {
                let [$($term),*] = values;
                HnefataflWeights { $($term),* }
            }
        }
    };
}

weighted_terms! {
    /// Defenders left / 12 − attackers left / 24.
    material,
    /// Corners the king reaches in one move (on the attackers' move, at
    /// most one: more is judged before the sum).
    open_corners,
    /// Corners the king reaches in two moves over empty lines.
    corners_in_two,
    /// Squares the king reaches in one move that see two corners or touch
    /// one, at most 2.
    forks,
    /// Edge squares the king reaches in one move.
    edge_lines,
    /// Edge squares the king could walk to over empty squares, / 40.
    king_room,
    /// Edge squares any defender can reach through squares free of
    /// attackers, / 40 (the opposite of encirclement pressure).
    defenders_edge,
    /// Attackers within two squares of a corner, at most 3 per corner, / 12.
    corner_guards,
    /// Attackers beside the king.
    king_pressed,
}

impl HnefataflWeights {
    /// The weights set by hand: the game's own evaluation ([`Evaluate`]).
    pub const HAND_SET: HnefataflWeights = HnefataflWeights {
        material: 1.5,
        open_corners: 0.35,
        corners_in_two: 0.12,
        forks: 0.25,
        edge_lines: 0.02,
        king_room: 0.4,
        defenders_edge: 0.3,
        corner_guards: -0.35,
        king_pressed: -0.08,
    };

    /// The weights fitted to the outcomes of the recorded games
    /// (`tests/data/copenhagen-games.csv`) by
    /// `cargo run --release --example texel_tuning` (log-loss with `K`
    /// fixed at 2.9722, the hand-set weights' best; see [`super::tuning`]),
    /// rounded to four places.
    pub const TUNED: HnefataflWeights = HnefataflWeights {
        material: 2.2887,
        open_corners: -0.0094,
        corners_in_two: 0.1099,
        forks: 0.1320,
        edge_lines: 0.0368,
        king_room: 0.3006,
        defenders_edge: 0.2171,
        corner_guards: -0.2315,
        king_pressed: 0.0541,
    };
}

/// The terms of the evaluation in one position that the weights decide
/// (see [`Hnefatafl::evaluation_terms`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvaluationTerms {
    /// Each term's count before its scale: kept apart so that the weighted
    /// sum rounds exactly as the evaluation always has.
    counts: [f64; TERM_COUNT],
}

impl EvaluationTerms {
    /// Each term's value, the quantity its weight multiplies, in the order
    /// of [`TERM_NAMES`].
    pub fn values(&self) -> [f64; TERM_COUNT] {
        std::array::from_fn(|term| self.counts[term] / TERM_SCALES[term])
    }

    /// The raw sum: each weight times its term's value.
    pub fn weighted_sum(&self, weights: &HnefataflWeights) -> f64 {
        let weights = weights.to_array();
        (0..TERM_COUNT).fold(0.0, |sum, term| {
            sum + weights[term] * self.counts[term] / TERM_SCALES[term]
        })
    }
}

/// The estimate for the defenders of a raw sum: a cheap sigmoid, odd,
/// increasing, and below 1 in size, scaled to [`MAX_ESTIMATE`].
fn squash(raw: f64) -> f64 {
    MAX_ESTIMATE * raw / (1.0 + raw.abs())
}

/// How the evaluation sees a position that is not over.
enum Judgement {
    /// A king that is through, judged before the sum: the estimate for the
    /// defenders.
    Decided(f64),
    /// Left to the weighted terms.
    Weighed(EvaluationTerms),
}

/// The squares within two steps (in both directions) of each corner.
const CORNER_ZONES: [Bitboard128; 4] = corner_zones();

const fn corner_zones() -> [Bitboard128; 4] {
    let mut zones = [Bitboard128::EMPTY; 4];
    let corners = [(0, 0), (10, 0), (0, 10), (10, 10)];
    let mut c = 0;
    while c < 4 {
        let (corner_file, corner_rank) = corners[c];
        let mut df = 0;
        while df <= 2 {
            let mut dr = 0;
            while dr <= 2 {
                if df + dr > 0 {
                    let file = if corner_file == 0 {
                        df
                    } else {
                        corner_file - df
                    };
                    let rank = if corner_rank == 0 {
                        dr
                    } else {
                        corner_rank - dr
                    };
                    if let Some(square) = super::board::GRID.square(file, rank) {
                        zones[c] = zones[c].with(square);
                    }
                }
                dr += 1;
            }
            df += 1;
        }
        c += 1;
    }
    zones
}

impl Hnefatafl {
    /// Whether an attacker can step between the king and the corner it sees.
    fn attackers_can_block(&self, corner: Bitboard128, occupied: Bitboard128) -> bool {
        let Some(corner) = corner.lowest() else {
            return false;
        };
        let between = RAYS.rook_attacks(self.king, occupied) & RAYS.rook_attacks(corner, occupied);
        self.attackers
            .squares()
            .any(|attacker| RAYS.rook_attacks(attacker, occupied).intersects(between))
    }

    /// The special cases judged before the sum, or else the terms.
    fn judge(&self) -> Judgement {
        let occupied = self.occupied();
        let empty = super::board::BOARD & !occupied;
        let king_moves = RAYS.rook_attacks(self.king, occupied) & empty;
        let open_corners = king_moves & CORNERS;
        match self.to_move {
            Side::Defenders if open_corners.any() => return Judgement::Decided(MAX_ESTIMATE),
            Side::Attackers if open_corners.count() > 1 => {
                return Judgement::Decided(MAX_ESTIMATE * 0.95);
            }
            Side::Attackers
                if open_corners.any() && !self.attackers_can_block(open_corners, occupied) =>
            {
                return Judgement::Decided(MAX_ESTIMATE * 0.95);
            }
            _ => {}
        }
        let without_king = occupied.without(self.king);
        let mut corners_in_two = Bitboard128::EMPTY;
        let mut forks = 0;
        for stop in king_moves.squares() {
            let seen = RAYS.rook_attacks(stop, without_king) & CORNERS;
            let beside_corner =
                (GEOMETRY.orthogonal_neighbours(Bitboard128::from_square(stop)) & CORNERS).any();
            forks += u32::from(seen.count() >= 2 || beside_corner);
            corners_in_two |= seen;
        }
        if forks > 0 && self.to_move == Side::Defenders {
            return Judgement::Decided(MAX_ESTIMATE * 0.9);
        }
        let king_room = GEOMETRY.flood_fill(Bitboard128::from_square(self.king), empty) & EDGE;
        let reach = GEOMETRY.flood_fill(
            self.pieces(Side::Defenders),
            super::board::BOARD & !self.attackers,
        );
        let guards: u32 = CORNER_ZONES
            .iter()
            .map(|zone| (self.attackers & *zone).count().min(3))
            .sum();
        let pressed = (GEOMETRY.orthogonal_neighbours(Bitboard128::from_square(self.king))
            & self.attackers)
            .count();
        let material =
            f64::from(self.defenders.count()) / 12.0 - f64::from(self.attackers.count()) / 24.0;
        Judgement::Weighed(EvaluationTerms {
            counts: [
                material,
                f64::from(open_corners.count()),
                f64::from(corners_in_two.count()),
                f64::from(forks.min(2)),
                f64::from((king_moves & EDGE).count()),
                f64::from(king_room.count()),
                f64::from((reach & EDGE).count()),
                f64::from(guards),
                f64::from(pressed),
            ],
        })
    }

    /// The terms that `weights` decide in this position, or `None` if the
    /// game is over or the position is one of those judged before the sum
    /// (see the module documentation).
    pub fn evaluation_terms(&self) -> Option<EvaluationTerms> {
        if self.status().is_over() {
            return None;
        }
        match self.judge() {
            Judgement::Decided(_) => None,
            Judgement::Weighed(terms) => Some(terms),
        }
    }

    /// `player`'s payoff if the game is over, otherwise the estimate with
    /// the terms weighted by `weights`, in `[-MAX_ESTIMATE, MAX_ESTIMATE]`.
    pub fn evaluate_with(&self, weights: &HnefataflWeights, player: Player) -> f64 {
        zero_sum_evaluation(self, player, Side::Defenders.player(), || {
            match self.judge() {
                Judgement::Decided(estimate) => estimate,
                Judgement::Weighed(terms) => squash(terms.weighted_sum(weights)),
            }
        })
    }
}

/// The evaluation with chosen weights: the game's own is
/// `HnefataflEvaluation { weights: HnefataflWeights::HAND_SET }`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HnefataflEvaluation {
    /// The weight of each term.
    pub weights: HnefataflWeights,
}

impl Evaluator<Hnefatafl> for HnefataflEvaluation {
    fn evaluate(&self, state: &Hnefatafl, player: Player) -> f64 {
        state.evaluate_with(&self.weights, player)
    }

    fn is_tactical(&self, state: &Hnefatafl, mv: HnefataflMove) -> bool {
        state.is_tactical(mv)
    }
}

impl Evaluate for Hnefatafl {
    /// The payoff if the game is over, otherwise the estimate described in
    /// the module documentation, with the hand-set weights.
    fn evaluate(&self, player: Player) -> f64 {
        self.evaluate_with(&HnefataflWeights::HAND_SET, player)
    }

    /// `hand` ([`HnefataflWeights::HAND_SET`], the game's own) and `tuned`
    /// ([`HnefataflWeights::TUNED`]).
    const EVALUATION_NAMES: &'static [&'static str] = &["hand", "tuned"];

    fn named_evaluation(name: &str) -> Option<Box<dyn Evaluator<Self>>> {
        let weights = match name {
            "hand" => HnefataflWeights::HAND_SET,
            "tuned" => HnefataflWeights::TUNED,
            _ => return None,
        };
        Some(Box::new(HnefataflEvaluation { weights }))
    }

    /// Custodial captures, a king capture, and the king's escape to a corner
    /// (shieldwall captures are left out: rare, and costly to detect here).
    fn is_tactical(&self, mv: HnefataflMove) -> bool {
        let mover = self.to_move;
        let king_after = if mv.from == self.king {
            mv.to
        } else {
            self.king
        };
        if mv.from == self.king && CORNERS.contains(mv.to) {
            return true;
        }
        let friends = self.pieces(mover).without(mv.from).with(mv.to);
        let victims = match mover {
            Side::Attackers => self.defenders,
            Side::Defenders => self.attackers,
        };
        let victim_side = mover.opponent();
        for direction in Direction::ORTHOGONAL {
            let Some(target) = STEPS.neighbour(mv.to, direction) else {
                continue;
            };
            if !victims.contains(target) {
                continue;
            }
            if let Some(anvil) = STEPS.neighbour(target, direction)
                && (friends.contains(anvil) || is_hostile_square(anvil, victim_side, king_after))
            {
                return true;
            }
        }
        let beside_king = Direction::ORTHOGONAL
            .into_iter()
            .any(|direction| STEPS.neighbour(self.king, direction) == Some(mv.to));
        if mover == Side::Attackers && beside_king && !EDGE.contains(self.king) {
            let around = GEOMETRY.orthogonal_neighbours(Bitboard128::from_square(self.king));
            return (around & !friends.with(THRONE)).is_empty();
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{MoveList, Notation};
    use crate::games::hnefatafl::HnefataflRules;
    use crate::testing::playout_states;

    fn position(text: &str) -> Hnefatafl {
        Hnefatafl::from_position_text(text, HnefataflRules::default()).unwrap()
    }

    #[test]
    fn corner_zones_hold_eight_squares_each() {
        for zone in CORNER_ZONES {
            assert_eq!(zone.count(), 8);
            assert!(!zone.intersects(CORNERS));
        }
    }

    #[test]
    fn the_start_is_close_to_even_and_estimates_stay_inside_the_range() {
        let start = Hnefatafl::start(HnefataflRules::default());
        let value = start.evaluate(0);
        assert!(value.abs() < 0.4, "{value}");
        assert_eq!(start.evaluate(1), -value);
        for state in playout_states(&start, 20, 200, 5) {
            if !state.status().is_over() {
                assert!(state.evaluate(0).abs() <= MAX_ESTIMATE);
            }
        }
    }

    #[test]
    fn an_open_corner_is_nearly_won_for_the_defenders_to_move() {
        let open = position("/11/11/11/11/11/K10/11/11/11/11/1t9/ defenders");
        assert_eq!(open.evaluate(1), MAX_ESTIMATE);
        let material_down = position("/11/5t5/4tKt4/11/11/11/11/11/11/11/11/ defenders");
        assert!(material_down.evaluate(1) < open.evaluate(1));
    }

    #[test]
    fn tactical_moves_are_the_captures_and_escapes_of_random_games() {
        let start = Hnefatafl::start(HnefataflRules::default());
        let mut moves = MoveList::new();
        let mut tactical = 0;
        for state in playout_states(&start, 10, 300, 9) {
            state.legal_moves(&mut moves);
            for &mv in moves.iter() {
                let (captured, king) = state.captures_of(mv);
                let escape = mv.from == state.king() && CORNERS.contains(mv.to);
                let expected = captured.any() || king || escape;
                let only_shieldwall = captured.any() && EDGE.contains(mv.to);
                if state.is_tactical(mv) != expected {
                    assert!(
                        only_shieldwall && !state.is_tactical(mv),
                        "{} in {}",
                        state.move_text(mv),
                        state.position_text()
                    );
                }
                tactical += usize::from(expected);
            }
        }
        assert!(tactical > 100, "the games should have had captures");
    }
}
