//! Captures and the board-shape game ends: custodial and shieldwall captures,
//! king capture, encirclement and the exit fort.

use super::board::{BOARD, CORNERS, EDGE, GEOMETRY, RESTRICTED, SIZE, STEPS, Side, THRONE};
use super::state::{Hnefatafl, is_hostile_square};
use crate::bitboard::{Bitboard128, Direction, Square};

const LAST: u8 = SIZE - 1;

/// For a square on an edge line parallel to `along`, the direction pointing
/// into the board from that line; `None` if the square is not on such a line.
fn inward_from_edge(square: Square, along: Direction) -> Option<Direction> {
    let (file, rank) = (
        super::board::GRID.file(square),
        super::board::GRID.rank(square),
    );
    match along {
        Direction::East | Direction::West => match rank {
            0 => Some(Direction::North),
            LAST => Some(Direction::South),
            _ => None,
        },
        _ => match file {
            0 => Some(Direction::East),
            LAST => Some(Direction::West),
            _ => None,
        },
    }
}

impl Hnefatafl {
    /// The soldiers captured by `mover`'s piece that has just arrived on `to`:
    /// custodial captures on the four sides, plus shieldwalls along the edge.
    /// The king is never among them; see [`Hnefatafl::king_is_captured`].
    pub(crate) fn captures_by(&self, mover: Side, to: Square) -> Bitboard128 {
        let victim = mover.opponent();
        let friends = self.pieces(mover);
        let soldiers = match victim {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        };
        let mut captured = Bitboard128::EMPTY;
        for direction in Direction::ORTHOGONAL {
            let Some(target) = STEPS.neighbour(to, direction) else {
                continue;
            };
            if !soldiers.contains(target) {
                continue;
            }
            // The edge is never hostile: a piece on it cannot be sandwiched across it.
            let Some(anvil) = STEPS.neighbour(target, direction) else {
                continue;
            };
            if friends.contains(anvil) || is_hostile_square(anvil, victim, self.king) {
                captured = captured.with(target);
            }
        }
        if EDGE.contains(to) {
            captured |= self.shieldwall_captures(mover, to);
        }
        captured
    }

    /// Rows of the opponent's pieces along the edge that the piece on `to`
    /// brackets at one end, with a bracket or a corner at the other end and one
    /// of `mover`'s pieces in front of every member.
    fn shieldwall_captures(&self, mover: Side, to: Square) -> Bitboard128 {
        let friends = self.pieces(mover);
        let row_pieces = self.pieces(mover.opponent());
        let mut captured = Bitboard128::EMPTY;
        for along in Direction::ORTHOGONAL {
            let Some(inward) = inward_from_edge(to, along) else {
                continue;
            };
            let mut row = Bitboard128::EMPTY;
            let mut cursor = to;
            let closing_square = loop {
                match STEPS.neighbour(cursor, along) {
                    Some(next) if row_pieces.contains(next) => {
                        row = row.with(next);
                        cursor = next;
                    }
                    other => break other,
                }
            };
            let bracketed = closing_square
                .is_some_and(|square| friends.contains(square) || CORNERS.contains(square));
            let faced = row.squares().all(|member| {
                STEPS
                    .neighbour(member, inward)
                    .is_some_and(|front| friends.contains(front))
            });
            if row.count() >= 2 && bracketed && faced {
                // A king in the row survives; the soldiers beside it do not.
                captured |= row.without(self.king);
            }
        }
        captured
    }

    /// Whether the attacker that has just arrived on `to` closed a trap on the
    /// king: attackers on all four sides, or on three with the empty throne as
    /// the fourth. A king on the edge cannot be captured.
    pub(crate) fn king_is_captured(&self, to: Square) -> bool {
        let king = Bitboard128::from_square(self.king);
        if EDGE.contains(self.king) || !GEOMETRY.orthogonal_neighbours(king).contains(to) {
            return false;
        }
        let surrounding = GEOMETRY.orthogonal_neighbours(king);
        // The king is off the throne here whenever the throne is one of its
        // neighbours, so the throne counts as an attacker exactly when it is empty.
        let hostile = self.attackers.with(THRONE);
        (surrounding & !hostile).is_empty()
    }

    /// Whether no defender, king included, can reach the edge through squares
    /// free of attackers (a flood fill in the four rook directions).
    pub(crate) fn is_encircled(&self) -> bool {
        let passable = BOARD & !self.attackers;
        let mut reached = self.defenders.with(self.king);
        loop {
            if reached.intersects(EDGE) {
                return false;
            }
            let next = reached | (GEOMETRY.orthogonal_neighbours(reached) & passable);
            if next == reached {
                return true;
            }
            reached = next;
        }
    }

    /// Whether the king, standing on the edge after a defender move, is inside
    /// an exit fort: it can move, no attacker can reach it, and no sequence of
    /// attacker moves can capture any defender of the wall around it.
    ///
    /// The test is sound but not complete: it declares a fort only when every
    /// wall defender is provably safe (see [`Hnefatafl::unbreakable_defenders`]),
    /// so it may miss an unusual fort but never declares a breakable one.
    pub(crate) fn is_exit_fort(&self) -> bool {
        let king = Bitboard128::from_square(self.king);
        let empty = BOARD & !self.occupied();
        if (GEOMETRY.orthogonal_neighbours(king) & empty).is_empty() {
            return false;
        }
        let inside = GEOMETRY.flood_fill(king, BOARD & !self.defenders);
        if inside.intersects(self.attackers) {
            return false;
        }
        let wall = GEOMETRY.orthogonal_neighbours(inside) & self.defenders;
        (wall & !self.unbreakable_defenders(inside)).is_empty()
    }

    /// The largest set of defenders that can never be captured while none of
    /// them moves, given the fort's `inside` (squares attackers can never enter
    /// while the wall stands).
    ///
    /// A defender is kept when, on each axis, one of its two neighbours can never
    /// become hostile: off the board, inside the fort (but not the empty throne
    /// or a corner, which are hostile), or another kept defender. A defender on
    /// the edge must also be out of reach of a shieldwall: the square in front
    /// of it can never hold an attacker, or a square beside it along the edge is
    /// inside the fort (an open end that cannot be bracketed, or the king,
    /// whose own front is inside or walled). Starting from all defenders and
    /// removing those that fail, the first capture of a kept defender would need
    /// a hostile neighbour that cannot exist, so none is ever captured.
    fn unbreakable_defenders(&self, inside: Bitboard128) -> Bitboard128 {
        let never_hostile_inside = inside & !RESTRICTED;
        let mut safe = self.defenders;
        loop {
            let shelter = safe | never_hostile_inside;
            let covers = |square: Option<Square>| square.is_none_or(|s| shelter.contains(s));
            let mut kept = safe;
            for defender in safe.squares() {
                let vertical = covers(STEPS.neighbour(defender, Direction::North))
                    || covers(STEPS.neighbour(defender, Direction::South));
                let horizontal = covers(STEPS.neighbour(defender, Direction::East))
                    || covers(STEPS.neighbour(defender, Direction::West));
                let shielded = [Direction::East, Direction::North]
                    .into_iter()
                    .all(|along| {
                        let Some(inward) = inward_from_edge(defender, along) else {
                            return true;
                        };
                        let front = STEPS.neighbour(defender, inward);
                        let open_end = [along, along.opposite()].into_iter().any(|side| {
                            STEPS
                                .neighbour(defender, side)
                                .is_some_and(|s| never_hostile_inside.contains(s))
                        });
                        covers(front) || open_end
                    });
                if !(vertical && horizontal && shielded) {
                    kept = kept.without(defender);
                }
            }
            if kept == safe {
                return safe;
            }
            safe = kept;
        }
    }
}
