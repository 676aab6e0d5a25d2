//! The evaluation searchers use where they stop short of a tafl game's
//! end, for every board size and escape rule.
//!
//! The estimate is built from the defenders' side and negated for the
//! attackers. A raw sum `x` of weighted terms goes through `x / (1 + |x|)`
//! and is scaled to at most [`MAX_ESTIMATE`], below the payoff of a real
//! win. Each term is a number of about one in size, seen from the
//! defenders ([`TERM_NAMES`] in order):
//!
//! | term | meaning |
//! |------|---------|
//! | `material` | defenders left / defenders at the start − attackers left / attackers at the start |
//! | `open_escapes` | escape squares the king reaches in one move (at most 2) |
//! | `escapes_in_two` | escape squares the king reaches in two moves over empty lines, / 4 (at most 1) |
//! | `king_mobility` | squares the king reaches in one move / 2(dim − 1) |
//! | `king_room` | edge squares the king could walk to over empty squares / edge squares |
//! | `defenders_edge` | edge squares any defender reaches through squares free of attackers / edge squares (the opposite of encirclement) |
//! | `king_pressure` | the king's neighbours that are attackers or hostile squares / 4 |
//! | `escape_guards` | attackers in the zone that guards the escape squares / the zone's size (within two steps of a corner square; the two outer rings under edge escape) |
//!
//! The weights ([`TaflWeights`]) depend on the board size and the escape
//! rule: [`TaflWeights::for_rules`] picks them, and how they were chosen
//! is in bench-results/tafl.md. A new term is one more entry of
//! [`TERM_NAMES`], one more field of [`TaflWeights`] and one more count in
//! [`terms`].
//!
//! Some positions are judged before the sum: a king with an open line to
//! an escape square wins on the defenders' move ([`MAX_ESTIMATE`]), and on
//! the attackers' move when two are open (a little less).

use super::bits::Bits;
use super::board::{Side, Width};
use super::movegen::destinations;
use super::moves::TaflMove;
use super::pieces::{Kind, Piece};
use super::rules_string::Escape;
use super::spec::{Pos, Spec};
use super::state::{Tafl, with_board};
use crate::core::{Evaluate, Evaluator, Game, Player};
use crate::games::zero_sum_evaluation;

/// The largest estimate of a position that is not over.
pub const MAX_ESTIMATE: f64 = 0.9;

/// The names of the weighted terms, in the order of [`TaflWeights::to_array`].
pub const TERM_NAMES: [&str; 8] = [
    "material",
    "open_escapes",
    "escapes_in_two",
    "king_mobility",
    "king_room",
    "defenders_edge",
    "king_pressure",
    "escape_guards",
];

/// The weights of the terms, seen from the defenders: a positive weight
/// makes a term good for them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TaflWeights {
    /// See the module's table.
    pub material: f64,
    /// See the module's table.
    pub open_escapes: f64,
    /// See the module's table.
    pub escapes_in_two: f64,
    /// See the module's table.
    pub king_mobility: f64,
    /// See the module's table.
    pub king_room: f64,
    /// See the module's table.
    pub defenders_edge: f64,
    /// See the module's table.
    pub king_pressure: f64,
    /// See the module's table.
    pub escape_guards: f64,
}

impl TaflWeights {
    /// The weights in the order of [`TERM_NAMES`].
    pub const fn to_array(&self) -> [f64; 8] {
        [
            self.material,
            self.open_escapes,
            self.escapes_in_two,
            self.king_mobility,
            self.king_room,
            self.defenders_edge,
            self.king_pressure,
            self.escape_guards,
        ]
    }

    /// Corner escape on 7x7 and 9x9: few pieces, so each one counts, and
    /// the king's lines decide quickly.
    pub const SMALL_CORNERS: TaflWeights = TaflWeights {
        material: 1.6,
        open_escapes: 0.45,
        escapes_in_two: 0.3,
        king_mobility: 0.2,
        king_room: 0.3,
        defenders_edge: 0.2,
        king_pressure: -0.35,
        escape_guards: -0.4,
    };

    /// Corner escape on 11x11 and larger boards.
    pub const LARGE_CORNERS: TaflWeights = TaflWeights {
        material: 1.5,
        open_escapes: 0.35,
        escapes_in_two: 0.25,
        king_mobility: 0.15,
        king_room: 0.4,
        defenders_edge: 0.3,
        king_pressure: -0.25,
        escape_guards: -0.35,
    };

    /// Edge escape: every edge square is a way out, so the king's room and
    /// the attackers' ring matter more than single lines.
    pub const EDGES: TaflWeights = TaflWeights {
        material: 1.5,
        open_escapes: 0.3,
        escapes_in_two: 0.2,
        king_mobility: 0.25,
        king_room: 0.5,
        defenders_edge: 0.3,
        king_pressure: -0.35,
        escape_guards: -0.5,
    };

    /// The weights of a game under `rules`: by escape rule and board size.
    pub fn for_rules(rules: &super::TaflRules) -> TaflWeights {
        match (rules.rules_string().escape, rules.dim()) {
            (Escape::Edge, _) => TaflWeights::EDGES,
            (Escape::Corner, dim) if dim <= 9 => TaflWeights::SMALL_CORNERS,
            (Escape::Corner, _) => TaflWeights::LARGE_CORNERS,
        }
    }
}

/// How the evaluation sees a position that is not over.
enum Judgement {
    /// A king that is through: the estimate for the defenders.
    Decided(f64),
    /// The terms' values, in the order of [`TERM_NAMES`].
    Weighed([f64; 8]),
}

/// The zone of attackers that guard the escape squares.
fn guard_zone<B: Width>(spec: &Spec<B>) -> B {
    let geo = spec.geo;
    let escapes = spec.escape;
    if escapes == geo.edge {
        geo.edge | geo.around(geo.edge)
    } else {
        let near = geo.around(escapes) | escapes;
        let far = near | geo.around(near);
        // Diagonal neighbours of a corner square count: two steps away.
        (far | geo.around(geo.around(escapes))) & !escapes
    }
}

/// The judgement of a position with `to_move` to move.
fn judge<B: Width>(pos: &Pos<B>, spec: &Spec<B>, to_move: Side) -> Judgement {
    let geo = spec.geo;
    let occupied = pos.occupied();
    let empty = geo.all & !occupied;
    let king = pos.king as usize;
    let king_piece = Piece {
        side: Side::Defenders,
        kind: Kind::King,
    };
    let king_moves = destinations(pos, spec, king_piece, king, occupied);
    let open = king_moves & spec.escape;
    match to_move {
        Side::Defenders if open.any() => return Judgement::Decided(MAX_ESTIMATE),
        Side::Attackers if open.count() > 1 => return Judgement::Decided(MAX_ESTIMATE * 0.95),
        _ => {}
    }
    let without_king = occupied.without(king);
    let mut in_two = B::EMPTY;
    for stop in king_moves.squares() {
        in_two |= destinations(pos, spec, king_piece, stop, without_king) & spec.escape;
    }
    let start = &spec.start;
    let count = |side: Side, pos: &Pos<B>| f64::from(pos.side(side).count());
    let material = count(Side::Defenders, pos) / count(Side::Defenders, start).max(1.0)
        - count(Side::Attackers, pos) / count(Side::Attackers, start).max(1.0);
    let edge = f64::from(geo.edge.count());
    let king_room = geo.flood(B::bit(king), empty) & geo.edge;
    let reach = geo.flood(
        pos.side(Side::Defenders),
        geo.all & !pos.side(Side::Attackers),
    ) & geo.edge;
    let hostile = pos.side(Side::Attackers) | spec.hostile_squares(king_piece.index(), occupied);
    let pressure = geo.around(B::bit(king)) & hostile;
    let zone = guard_zone(spec);
    let guards = pos.side(Side::Attackers) & zone;
    Judgement::Weighed([
        material,
        f64::from(open.count().min(2)),
        (f64::from(in_two.count()) / 4.0).min(1.0),
        f64::from(king_moves.count()) / (2.0 * (geo.dim as f64 - 1.0)),
        f64::from(king_room.count()) / edge,
        f64::from(reach.count()) / edge,
        f64::from(pressure.count()) / 4.0,
        f64::from(guards.count()) / f64::from(zone.count().max(1)),
    ])
}

/// The estimate for the defenders of a raw sum: a cheap sigmoid, odd,
/// increasing, below 1 in size, scaled to [`MAX_ESTIMATE`].
fn squash(raw: f64) -> f64 {
    MAX_ESTIMATE * raw / (1.0 + raw.abs())
}

impl Tafl {
    /// The values of the weighted terms in this position (in the order of
    /// [`TERM_NAMES`]), or `None` if the game is over or the position is
    /// judged before the sum.
    pub fn evaluation_terms(&self) -> Option<[f64; 8]> {
        if self.status().is_over() {
            return None;
        }
        match with_board!(self, |pos, spec| judge(pos, spec, self.to_move)) {
            Judgement::Decided(_) => None,
            Judgement::Weighed(terms) => Some(terms),
        }
    }

    /// `player`'s payoff if the game is over, otherwise the estimate with
    /// the terms weighted by `weights`, in `[-MAX_ESTIMATE, MAX_ESTIMATE]`.
    pub fn evaluate_with(&self, weights: &TaflWeights, player: Player) -> f64 {
        zero_sum_evaluation(self, player, Side::Defenders.player(), || {
            match with_board!(self, |pos, spec| judge(pos, spec, self.to_move)) {
                Judgement::Decided(estimate) => estimate,
                Judgement::Weighed(terms) => {
                    let raw = weights
                        .to_array()
                        .iter()
                        .zip(terms)
                        .map(|(weight, value)| weight * value)
                        .sum();
                    squash(raw)
                }
            }
        })
    }

    /// Whether `mv` captures, or takes the king to an escape square.
    fn captures_or_escapes(&self, mv: TaflMove) -> bool {
        let from = usize::from(mv.from);
        let escapes = with_board!(self, |pos, spec| {
            from == pos.king as usize && spec.escape.has(mv.to.into())
        });
        escapes || self.captures_of(mv).any()
    }
}

/// The evaluation with chosen weights, or those of each game's rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TaflEvaluation {
    /// The weight of each term; `None` for those of the game's board size
    /// and escape rule ([`TaflWeights::for_rules`]).
    pub weights: Option<TaflWeights>,
}

impl TaflWeights {
    /// Material alone: the baseline the hand-set weights were checked
    /// against (bench-results/tafl.md).
    pub const MATERIAL: TaflWeights = TaflWeights {
        material: 1.0,
        open_escapes: 0.0,
        escapes_in_two: 0.0,
        king_mobility: 0.0,
        king_room: 0.0,
        defenders_edge: 0.0,
        king_pressure: 0.0,
        escape_guards: 0.0,
    };
}

impl Evaluator<Tafl> for TaflEvaluation {
    fn evaluate(&self, state: &Tafl, player: Player) -> f64 {
        match &self.weights {
            Some(weights) => state.evaluate_with(weights, player),
            None => state.evaluate(player),
        }
    }

    fn is_tactical(&self, state: &Tafl, mv: TaflMove) -> bool {
        state.captures_or_escapes(mv)
    }
}

impl Evaluate for Tafl {
    /// The payoff if the game is over, otherwise the estimate described in
    /// the module documentation, with the weights of the rules' board size
    /// and escape rule.
    fn evaluate(&self, player: Player) -> f64 {
        self.evaluate_with(&TaflWeights::for_rules(&self.rules), player)
    }

    /// `hand` (the weights of the rules' size and escape rule, the game's
    /// own) and `material` (material alone, a baseline).
    const EVALUATION_NAMES: &'static [&'static str] = &["hand", "material"];

    fn named_evaluation(name: &str) -> Option<Box<dyn Evaluator<Self>>> {
        let weights = match name {
            "hand" => None,
            "material" => Some(TaflWeights::MATERIAL),
            _ => return None,
        };
        Some(Box::new(TaflEvaluation { weights }))
    }

    /// Captures (custodial, jump and shieldwall), the king's capture, and
    /// the king's escape.
    fn is_tactical(&self, mv: TaflMove) -> bool {
        self.captures_or_escapes(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Notation;
    use crate::games::tafl::{TaflRules, VARIANTS};
    use crate::testing::playout_states;

    #[test]
    fn every_start_is_close_to_even_and_estimates_stay_in_range() {
        for variant in VARIANTS {
            let start = Tafl::new(TaflRules::variant(variant.name).unwrap());
            let value = start.evaluate(0);
            assert!(value.abs() < 0.5, "{}: {value}", variant.name);
            assert_eq!(start.evaluate(1), -value);
            for state in playout_states(&start, 3, 80, 5) {
                if !state.status().is_over() {
                    assert!(state.evaluate(0).abs() <= MAX_ESTIMATE);
                }
            }
        }
    }

    #[test]
    fn an_open_escape_is_won_for_the_defenders_to_move() {
        let rules = TaflRules::variant("brandub").unwrap();
        let open = Tafl::from_position_text("/7/7/7/K6/7/7/1t5/ defenders", rules).unwrap();
        assert_eq!(open.evaluate(Side::Defenders.player()), MAX_ESTIMATE);
        let closed = Tafl::from_position_text("/7/t6/7/K6/7/t6/1t5/ defenders", rules).unwrap();
        assert!(closed.evaluate(Side::Defenders.player()) < MAX_ESTIMATE);
    }
}
