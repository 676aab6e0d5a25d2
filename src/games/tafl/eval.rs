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
//! | `cordon_open` | 1 if the king's region holds an escape square, else 0 (the attackers' cordon is not closed) |
//! | `cordon_escapes` | escape squares in the king's region / escape squares |
//! | `cordon_room` | squares of the king's region / squares of the board |
//!
//! The king's region is every square the king could walk to by orthogonal
//! steps through squares free of attackers: a flood fill, eight directions
//! of the board at once through the bitboards. Defenders do not bound it,
//! since they can step aside; attackers do, so the region is what the
//! attackers' cordon holds, and its border is the squares he must cross.
//! Under edge escape every edge square is an escape square, so the cordon
//! must keep the king off the whole edge; under corner escape only off the
//! corners.
//!
//! The weights ([`TaflWeights`]) depend on the board size and the escape
//! rule: [`TaflWeights::for_rules`] picks the hand-set ones, which leave the
//! cordon out (weight zero), and [`TaflWeights::cordon_for_rules`] adds the
//! cordon terms to them; how they were chosen is in bench-results/tafl.md.
//! A new term is one more entry of [`TERM_NAMES`], one more field of
//! [`TaflWeights`] and one more count in `judge`.
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
pub const TERM_NAMES: [&str; TERM_COUNT] = [
    "material",
    "open_escapes",
    "escapes_in_two",
    "king_mobility",
    "king_room",
    "defenders_edge",
    "king_pressure",
    "escape_guards",
    "cordon_open",
    "cordon_escapes",
    "cordon_room",
];

/// The number of weighted terms.
pub const TERM_COUNT: usize = 11;

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
    /// See the module's table.
    pub cordon_open: f64,
    /// See the module's table.
    pub cordon_escapes: f64,
    /// See the module's table.
    pub cordon_room: f64,
}

impl TaflWeights {
    /// The weights in the order of [`TERM_NAMES`].
    pub const fn to_array(&self) -> [f64; TERM_COUNT] {
        [
            self.material,
            self.open_escapes,
            self.escapes_in_two,
            self.king_mobility,
            self.king_room,
            self.defenders_edge,
            self.king_pressure,
            self.escape_guards,
            self.cordon_open,
            self.cordon_escapes,
            self.cordon_room,
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
        ..ZERO
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
        ..ZERO
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
        ..ZERO
    };

    /// The weights of a game under `rules`: by escape rule and board size.
    pub fn for_rules(rules: &super::TaflRules) -> TaflWeights {
        match (rules.rules_string().escape, rules.dim()) {
            (Escape::Edge, _) => TaflWeights::EDGES,
            (Escape::Corner, dim) if dim <= 9 => TaflWeights::SMALL_CORNERS,
            (Escape::Corner, _) => TaflWeights::LARGE_CORNERS,
        }
    }

    /// The hand-set weights of `rules` ([`TaflWeights::for_rules`]) with the
    /// attackers' cordon weighed: a closed cordon is worth about as much
    /// as a third of the defenders, and each escape square left inside it
    /// and each square of room the king keeps count against the attackers
    /// besides. Under edge escape the room counts more, since every edge
    /// square is a way out and a loose cordon leaks.
    pub fn cordon_for_rules(rules: &super::TaflRules) -> TaflWeights {
        let (cordon_escapes, cordon_room) = match rules.rules_string().escape {
            Escape::Edge => (0.4, 0.8),
            Escape::Corner => (0.3, 0.6),
        };
        TaflWeights {
            cordon_open: 0.5,
            cordon_escapes,
            cordon_room,
            ..TaflWeights::for_rules(rules)
        }
    }
}

/// Every weight zero. The hand-set weights take their cordon terms from
/// it, so that they give the evaluation the family had before the cordon
/// was measured.
const ZERO: TaflWeights = TaflWeights {
    material: 0.0,
    open_escapes: 0.0,
    escapes_in_two: 0.0,
    king_mobility: 0.0,
    king_room: 0.0,
    defenders_edge: 0.0,
    king_pressure: 0.0,
    escape_guards: 0.0,
    cordon_open: 0.0,
    cordon_escapes: 0.0,
    cordon_room: 0.0,
};

/// How the evaluation sees a position that is not over.
enum Judgement {
    /// A king that is through: the estimate for the defenders.
    Decided(f64),
    /// The terms' values, in the order of [`TERM_NAMES`].
    Weighed([f64; TERM_COUNT]),
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

/// `side`'s share of its pieces of `start` left in `pos` (the king counted
/// with the defenders) minus the other side's share of theirs.
fn lead<B: Width>(pos: &Pos<B>, start: &Pos<B>, side: Side) -> f64 {
    let share =
        |of: Side| f64::from(pos.side(of).count()) / f64::from(start.side(of).count()).max(1.0);
    share(side) - share(side.opponent())
}

/// The judgement of a position with `to_move` to move; the cordon's terms
/// are measured only if `cordon` (they are zero otherwise), so that weights
/// without them pay nothing for them.
fn judge<B: Width>(pos: &Pos<B>, spec: &Spec<B>, to_move: Side, cordon: bool) -> Judgement {
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
    let material = lead(pos, &spec.start, Side::Defenders);
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
    let cordoned = if cordon {
        geo.flood(B::bit(king), geo.all & !pos.side(Side::Attackers))
    } else {
        B::EMPTY
    };
    let escapes_inside = cordoned & spec.escape;
    Judgement::Weighed([
        material,
        f64::from(open.count().min(2)),
        (f64::from(in_two.count()) / 4.0).min(1.0),
        f64::from(king_moves.count()) / (2.0 * (geo.dim as f64 - 1.0)),
        f64::from(king_room.count()) / edge,
        f64::from(reach.count()) / edge,
        f64::from(pressure.count()) / 4.0,
        f64::from(guards.count()) / f64::from(zone.count().max(1)),
        f64::from(u8::from(escapes_inside.any())),
        f64::from(escapes_inside.count()) / f64::from(spec.escape.count().max(1)),
        f64::from(cordoned.count()) / f64::from(geo.all.count()),
    ])
}

/// Whether `square` is next to the king.
fn beside_king<B: Width>(pos: &Pos<B>, spec: &Spec<B>, square: usize) -> bool {
    spec.geo.around(B::bit(pos.king as usize)).has(square)
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
    pub fn evaluation_terms(&self) -> Option<[f64; TERM_COUNT]> {
        if self.status().is_over() {
            return None;
        }
        match with_board!(self, |pos, spec| judge(pos, spec, self.to_move, true)) {
            Judgement::Decided(_) => None,
            Judgement::Weighed(terms) => Some(terms),
        }
    }

    /// `player`'s payoff if the game is over, otherwise the estimate with
    /// the terms weighted by `weights`, in `[-MAX_ESTIMATE, MAX_ESTIMATE]`.
    pub fn evaluate_with(&self, weights: &TaflWeights, player: Player) -> f64 {
        let cordon = weights.cordon_open != 0.0
            || weights.cordon_escapes != 0.0
            || weights.cordon_room != 0.0;
        zero_sum_evaluation(self, player, Side::Defenders.player(), || {
            match with_board!(self, |pos, spec| judge(pos, spec, self.to_move, cordon)) {
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

    /// Whether `mv` is an attacker's move to a square beside the king: the
    /// moves that build a king's capture, tried early by the cordon
    /// evaluation's searches so that the capture is found within the depth.
    fn presses_king(&self, mv: TaflMove) -> bool {
        self.to_move == Side::Attackers
            && with_board!(self, |pos, spec| beside_king(pos, spec, mv.to.into()))
    }
}

/// The evaluation with chosen weights, or those of each game's rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TaflEvaluation {
    /// The hand-set weights of the game's board size and escape rule
    /// ([`TaflWeights::for_rules`]): the game's own evaluation.
    Hand,
    /// The hand-set weights with the attackers' cordon
    /// ([`TaflWeights::cordon_for_rules`]); the attackers' moves beside the
    /// king count as tactical besides captures and escapes, and searches
    /// extend them by a ply ([`Evaluator::extends`]).
    Cordon,
    /// These weights, whatever the rules.
    Weights(TaflWeights),
}

impl TaflWeights {
    /// Material alone: the baseline the hand-set weights were checked
    /// against (bench-results/tafl.md).
    pub const MATERIAL: TaflWeights = TaflWeights {
        material: 1.0,
        ..ZERO
    };
}

impl Evaluator<Tafl> for TaflEvaluation {
    fn evaluate(&self, state: &Tafl, player: Player) -> f64 {
        match self {
            TaflEvaluation::Hand => state.evaluate(player),
            TaflEvaluation::Cordon => {
                state.evaluate_with(&TaflWeights::cordon_for_rules(&state.rules), player)
            }
            TaflEvaluation::Weights(weights) => state.evaluate_with(weights, player),
        }
    }

    fn is_tactical(&self, state: &Tafl, mv: TaflMove) -> bool {
        state.captures_or_escapes(mv) || *self == TaflEvaluation::Cordon && state.presses_king(mv)
    }

    /// With the cordon, an attacker's move beside the king: the king's
    /// capture it prepares lies two plies on, past a search that stops
    /// right after the defenders' answer.
    fn extends(&self, state: &Tafl, mv: TaflMove) -> bool {
        *self == TaflEvaluation::Cordon && state.presses_king(mv)
    }

    fn may_extend(&self) -> bool {
        *self == TaflEvaluation::Cordon
    }

    fn root_extension(&self, state: &Tafl) -> u32 {
        state.root_extension()
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
    /// own), `cordon` (those with the attackers' cordon weighed and king
    /// presses tried early) and `material` (material alone, a baseline).
    const EVALUATION_NAMES: &'static [&'static str] = &["hand", "cordon", "material"];

    fn named_evaluation(name: &str) -> Option<Box<dyn Evaluator<Self>>> {
        let evaluation = match name {
            "hand" => TaflEvaluation::Hand,
            "cordon" => TaflEvaluation::Cordon,
            "material" => TaflEvaluation::Weights(TaflWeights::MATERIAL),
            _ => return None,
        };
        Some(Box::new(evaluation))
    }

    /// Captures (custodial, jump and shieldwall), the king's capture, and
    /// the king's escape.
    fn is_tactical(&self, mv: TaflMove) -> bool {
        self.captures_or_escapes(mv)
    }

    /// One ply for the side to move when it leads by [`CONVERSION_LEAD`]:
    /// the attackers' capture of the king or the defenders' escape lies
    /// past a horizon that holds the other side's defence, and at equal
    /// depth the side behind holds about half of such positions
    /// (bench-results/tafl.md).
    fn root_extension(&self) -> u32 {
        u32::from(self.ending().is_none() && self.lead(self.to_move) >= CONVERSION_LEAD)
    }
}

/// How far a side must lead (its share of its starting pieces minus the
/// other side's share of theirs) for its fixed-depth searches to look a ply
/// further ([`Evaluate::root_extension`]): the lead that makes a position
/// of the attack set (tests/data/tafl-attack-positions.tsv) "far ahead".
pub const CONVERSION_LEAD: f64 = 0.4;

impl Tafl {
    /// `side`'s share of its starting pieces left (the king counted with
    /// the defenders) minus the other side's share of theirs.
    pub fn lead(&self, side: Side) -> f64 {
        with_board!(self, |pos, spec| lead(pos, &spec.start, side))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Notation;
    use crate::games::tafl::{TaflRules, VARIANTS};
    use crate::testing::playout_states;

    #[test]
    fn a_side_to_move_far_ahead_asks_for_a_ply_more() {
        let rules = TaflRules::variant("brandub").unwrap();
        let start = Tafl::new(rules);
        // Brandubh's start without its four defenders: eight attackers of
        // eight against the king alone of five.
        let lone_king = "/3t3/3t3/7/tt1K1tt/7/3t3/3t3/";
        let ahead = Tafl::from_position_text(&format!("{lone_king} attackers"), rules).unwrap();
        let behind = Tafl::from_position_text(&format!("{lone_king} defenders"), rules).unwrap();
        assert_eq!(start.lead(Side::Attackers), 0.0);
        assert!((ahead.lead(Side::Attackers) - 0.8).abs() < 1e-12);
        assert!((behind.lead(Side::Defenders) + 0.8).abs() < 1e-12);
        assert_eq!(
            [&start, &ahead, &behind].map(|state| state.root_extension()),
            [0, 1, 0]
        );
    }

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

    /// The king of these positions can walk to d3, e3, e2 and e1 through
    /// squares free of attackers, and nowhere else: e1 is an edge square
    /// but not a corner.
    const POCKET_7: &str = "/7/7/7/3tt2/2tK1t1/3t1t1/3t1t1/ defenders";
    const POCKET_9: &str = "/9/9/9/9/9/3tt4/2tK1t3/3t1t3/3t1t3/ defenders";

    /// The cordon's terms (open, escape squares inside, room) as fractions
    /// of what they count.
    fn cordon_terms(variant: &str, text: &str) -> [f64; 3] {
        let rules = TaflRules::variant(variant).unwrap();
        let state = Tafl::from_position_text(text, rules).unwrap();
        let terms = state
            .evaluation_terms()
            .expect("a position left to the terms");
        [terms[8], terms[9], terms[10]]
    }

    #[test]
    fn the_cordon_is_the_kings_region_and_closed_only_off_every_escape() {
        // Corner escape: the pocket reaches the edge but none of the 4
        // corners of the 49 squares.
        assert_eq!(cordon_terms("brandub", POCKET_7), [0.0, 0.0, 4.0 / 49.0]);
        // Edge escape: the same pocket holds one of the 32 edge squares, e1.
        assert_eq!(
            cordon_terms("tablut", POCKET_9),
            [1.0, 1.0 / 32.0, 4.0 / 81.0]
        );
        // Without the attacker on d1 the brandub pocket runs along the
        // bottom edge to the corner a1, and on to every square but the
        // seven attackers', all four corners with them.
        let leaky = POCKET_7.replace("/3t1t1/ defenders", "/5t1/ defenders");
        assert_eq!(cordon_terms("brandub", &leaky), [1.0, 1.0, 42.0 / 49.0]);
    }

    #[test]
    fn the_hand_set_weights_leave_the_cordon_out_and_the_cordon_weights_favour_closing_it() {
        let rules = TaflRules::variant("brandub").unwrap();
        let closed = Tafl::from_position_text(POCKET_7, rules).unwrap();
        let leaky = POCKET_7.replace("/3t1t1/ defenders", "/5t1/ defenders");
        let open = Tafl::from_position_text(&leaky, rules).unwrap();
        let hand = TaflWeights::for_rules(&rules);
        assert_eq!(hand.to_array()[8..], [0.0; 3]);
        let cordon = TaflWeights::cordon_for_rules(&rules);
        let attackers = Side::Attackers.player();
        let gain = |weights: &TaflWeights| {
            closed.evaluate_with(weights, attackers) - open.evaluate_with(weights, attackers)
        };
        assert!(
            gain(&cordon) > gain(&hand) + 0.1,
            "{} {}",
            gain(&cordon),
            gain(&hand)
        );
    }

    #[test]
    fn only_the_cordon_evaluation_extends_moves() {
        let rules = TaflRules::variant("brandub").unwrap();
        let state =
            Tafl::from_position_text(POCKET_7.replace("defenders", "attackers").as_str(), rules)
                .unwrap();
        let mut moves = crate::core::MoveList::new();
        state.legal_moves(&mut moves);
        let extended = |evaluation: TaflEvaluation| {
            moves
                .iter()
                .filter(|&&mv| evaluation.extends(&state, mv))
                .count()
        };
        assert!(extended(TaflEvaluation::Cordon) > 0);
        assert_eq!(extended(TaflEvaluation::Hand), 0);
        assert!(TaflEvaluation::Cordon.may_extend());
        assert!(!TaflEvaluation::Hand.may_extend());
        assert!(!TaflEvaluation::Weights(TaflWeights::MATERIAL).may_extend());
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
