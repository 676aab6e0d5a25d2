//! The evaluation that searchers use where they stop short of the game's end.
//!
//! The estimate is built from the defenders' side and negated for the
//! attackers (the game is zero-sum). A raw sum `x` of weighted terms goes
//! through `x / (1 + |x|)` and is scaled to at most [`MAX_ESTIMATE`], so that no estimate
//! reaches the payoff of a real win (`±1`). The terms:
//!
//! | term | meaning | sign for the defenders |
//! |------|---------|------------------------|
//! | material | defenders left / 12 − attackers left / 24 (a defender is worth two attackers) | + |
//! | open corners | corners the king reaches in one move (at most 2 count) | + |
//! | corners in two | corners the king reaches in two moves over empty lines | + |
//! | forks | squares the king reaches in one move that see two corners or touch one | + |
//! | edge lines | edge squares the king reaches in one move | + |
//! | king's room | edge squares the king could walk to over empty squares, / 40 | + |
//! | defenders' edge | edge squares reachable by any defender through squares free of attackers, / 40 (the opposite of encirclement pressure) | + |
//! | corner guards | attackers within two squares of a corner, at most 3 per corner, / 12 | − |
//! | king pressed | attackers beside the king | − |
//!
//! Some positions are judged before the sum. A king with an open line to a
//! corner wins on the defenders' move ([`MAX_ESTIMATE`]); on the attackers'
//! move it still wins if two corners are open or no attacker can step into
//! the line (a little less). A king that can reach, on the defenders' move, a
//! square that sees two corners or touches one is usually through as well
//! (less again).

use super::board::{CORNERS, EDGE, GEOMETRY, RAYS, STEPS, Side, THRONE};
use super::moves::HnefataflMove;
use super::rules::is_hostile_square;
use super::state::Hnefatafl;
use crate::bitboard::{Bitboard128, Direction};
use crate::core::{Evaluate, Game, Player};

/// The largest estimate of a position that is not over.
pub const MAX_ESTIMATE: f64 = 0.9;

const MATERIAL: f64 = 1.5;
const OPEN_CORNER: f64 = 0.35;
const CORNER_IN_TWO: f64 = 0.12;
const FORK: f64 = 0.25;
const EDGE_LINE: f64 = 0.02;
const KING_ROOM: f64 = 0.4;
const DEFENDERS_EDGE: f64 = 0.3;
const CORNER_GUARD: f64 = 0.35;
const KING_PRESSED: f64 = 0.08;

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

    /// The estimate for the defenders, in `[-MAX_ESTIMATE, MAX_ESTIMATE]`.
    fn defenders_estimate(&self) -> f64 {
        let occupied = self.occupied();
        let empty = super::board::BOARD & !occupied;
        let king_moves = RAYS.rook_attacks(self.king, occupied) & empty;
        let open_corners = king_moves & CORNERS;
        match self.to_move {
            Side::Defenders if open_corners.any() => return MAX_ESTIMATE,
            Side::Attackers if open_corners.count() > 1 => return MAX_ESTIMATE * 0.95,
            Side::Attackers
                if open_corners.any() && !self.attackers_can_block(open_corners, occupied) =>
            {
                return MAX_ESTIMATE * 0.95;
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
            return MAX_ESTIMATE * 0.9;
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
        let raw = MATERIAL * material
            + OPEN_CORNER * f64::from(open_corners.count())
            + CORNER_IN_TWO * f64::from(corners_in_two.count())
            + FORK * f64::from(forks.min(2))
            + EDGE_LINE * f64::from((king_moves & EDGE).count())
            + KING_ROOM * f64::from(king_room.count()) / 40.0
            + DEFENDERS_EDGE * f64::from((reach & EDGE).count()) / 40.0
            - CORNER_GUARD * f64::from(guards) / 12.0
            - KING_PRESSED * f64::from(pressed);
        // A cheap sigmoid: odd, increasing, and below 1 in size.
        MAX_ESTIMATE * raw / (1.0 + raw.abs())
    }
}

impl Evaluate for Hnefatafl {
    /// The payoff if the game is over, otherwise the estimate described in
    /// the module documentation.
    fn evaluate(&self, player: Player) -> f64 {
        if let Some(outcome) = self.status().outcome() {
            return outcome.payoffs.get(player);
        }
        let defenders = self.defenders_estimate();
        if player == Side::Defenders.player() {
            defenders
        } else {
            -defenders
        }
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
    use crate::testing::{Budget, for_each_playout};

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
        let budget = Budget {
            playouts: 20,
            max_plies: 200,
            seed: 5,
            ..Budget::SUITE
        };
        for_each_playout(&start, &budget, |state, _| {
            if !state.status().is_over() {
                assert!(state.evaluate(0).abs() <= MAX_ESTIMATE);
            }
        });
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
        let budget = Budget {
            playouts: 10,
            max_plies: 300,
            seed: 9,
            ..Budget::SUITE
        };
        for_each_playout(&start, &budget, |state, _| {
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
        });
        assert!(tactical > 100, "the games should have had captures");
    }
}
