//! Playing a move: the piece slides, custodial and shieldwall captures, king
//! capture, the repetition history, and the ends of the game (escape, exit
//! fort, encirclement, repetition, no moves, the ply limit).

use super::board::{BOARD, CORNERS, EDGE, GEOMETRY, RESTRICTED, SIZE, STEPS, Side, THRONE};
use super::moves::HnefataflMove;
use super::state::{EndReason, Hnefatafl, Piece, piece_key, side_key};
use crate::bitboard::{Bitboard128, Direction, Square};
use crate::core::limit_reached;

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
    /// Plays a legal move: the piece slides, captures are taken, the turn
    /// passes, the position is remembered and the game may end.
    #[inline]
    pub(crate) fn apply_move(&mut self, mv: HnefataflMove) {
        let mover = self.to_move;
        self.move_piece(mv);
        let captured = self.captures_by(mover, mv.to);
        if captured.any() {
            let (board, piece) = match mover {
                Side::Attackers => (&mut self.defenders, Piece::Defender),
                Side::Defenders => (&mut self.attackers, Piece::Attacker),
            };
            *board ^= captured;
            for square in captured.squares() {
                self.hash ^= piece_key(piece, square);
            }
        }
        let king_captured = mover == Side::Attackers && self.king_is_captured(mv.to);
        self.to_move = mover.opponent();
        self.hash ^= side_key();
        self.ply += 1;
        self.remember_position(captured.any());
        self.ending = self.ending_after_move(mover, king_captured);
    }

    /// The soldiers a move to `to` would capture, and whether it captures the
    /// king, if `mv` were played now. Used to write captures in move records.
    pub fn captures_of(&self, mv: HnefataflMove) -> (Bitboard128, bool) {
        let mut after = self.clone();
        after.move_piece(mv);
        let soldiers = after.captures_by(self.to_move, mv.to);
        let king = self.to_move == Side::Attackers && after.king_is_captured(mv.to);
        (soldiers, king)
    }

    /// Moves the piece on `mv.from` to `mv.to`, updating the hash; no captures.
    #[inline]
    fn move_piece(&mut self, mv: HnefataflMove) {
        let piece = if mv.from == self.king {
            self.king = mv.to;
            Piece::King
        } else if self.to_move == Side::Attackers {
            self.attackers = self.attackers.without(mv.from).with(mv.to);
            Piece::Attacker
        } else {
            self.defenders = self.defenders.without(mv.from).with(mv.to);
            Piece::Defender
        };
        self.hash ^= piece_key(piece, mv.from) ^ piece_key(piece, mv.to);
    }

    /// Records the current position for the repetition rule; a capture first
    /// forgets every earlier position, since none of them can occur again.
    #[inline]
    pub(crate) fn remember_position(&mut self, after_capture: bool) {
        if self.rules.repetition_loses {
            self.history.remember(self.hash, after_capture);
        }
    }

    /// The game end that applies to a freshly set-up position: a king already in
    /// a corner, or a side to move without moves.
    pub(crate) fn ending_at_setup(&self) -> Option<EndReason> {
        if CORNERS.contains(self.king) {
            return Some(EndReason::Escape);
        }
        if !self.has_legal_move() {
            return Some(EndReason::NoMoves);
        }
        None
    }

    /// The game end after `mover` played a move to `to`, if any. The checks run
    /// in order of precedence: decisive results before the ply-limit draw.
    fn ending_after_move(&self, mover: Side, king_captured: bool) -> Option<EndReason> {
        match mover {
            Side::Defenders => {
                if CORNERS.contains(self.king) {
                    return Some(EndReason::Escape);
                }
                if EDGE.contains(self.king) && self.is_exit_fort() {
                    return Some(EndReason::ExitFort);
                }
            }
            Side::Attackers => {
                if king_captured {
                    return Some(EndReason::KingCaptured);
                }
                if self.is_encircled() {
                    return Some(EndReason::Encirclement);
                }
            }
        }
        if self.rules.repetition_loses && self.history.occurrences(self.hash) >= 3 {
            return Some(EndReason::Repetition);
        }
        if !self.has_legal_move() {
            return Some(EndReason::NoMoves);
        }
        if limit_reached(self.rules.ply_limit, self.ply) {
            return Some(EndReason::PlyLimit);
        }
        None
    }

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

/// Throne hostility as it matters for capturing a piece of `victim`'s side.
#[inline]
pub(crate) fn is_hostile_square(square: Square, victim: Side, king: Square) -> bool {
    CORNERS.contains(square) || (square == THRONE && (victim == Side::Attackers || king != THRONE))
}
