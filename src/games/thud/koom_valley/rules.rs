//! Playing a move (tramples, custodial captures, the Rock, counters, the end
//! of the game) and explaining why a move is illegal.

use super::movegen::TROLL_RANGE;
use super::moves::{KoomValleyMove, KoomValleyMoveKind};
use super::state::{EndReason, KEYS, KoomValley};
use crate::bitboard::{Bitboard256, Direction, Square};
use crate::core::{Game, MoveList, limit_reached};
use crate::games::thud::board::{
    ADJACENT, GRID, PLAYABLE, RAYS, STEPS, Side, square_at, square_name,
};
use crate::games::thud::move_text::Piece;
use crate::games::thud::setup::square_list;
use crate::games::thud::state::shared_turn_rules;

/// The dwarfs' goal: the five squares of rank 1, `F1` to `K1`.
pub const GOAL: Bitboard256 = Bitboard256::from_squares(&[
    square_at(0, 5),
    square_at(0, 6),
    square_at(0, 7),
    square_at(0, 8),
    square_at(0, 9),
]);

/// The trolls win when this many of them stand next to the Rock after a troll move.
pub const TROLLS_AROUND_ROCK: u32 = 3;

/// The trolls a dwarf standing on `to` traps against other dwarfs: in each
/// direction, a troll next to it with a dwarf right behind that troll.
pub(crate) fn custodial_captures(
    to: Square,
    dwarfs: Bitboard256,
    trolls: Bitboard256,
) -> Bitboard256 {
    let mut captured = Bitboard256::EMPTY;
    for direction in Direction::ALL {
        let Some(troll) = STEPS
            .neighbour(to, direction)
            .filter(|&s| trolls.contains(s))
        else {
            continue;
        };
        if STEPS
            .neighbour(troll, direction)
            .is_some_and(|anvil| dwarfs.contains(anvil))
        {
            captured = captured.with(troll);
        }
    }
    captured
}

impl KoomValley {
    /// The pieces `mv` would capture if played now: the trolls a dwarf move
    /// traps, or the dwarfs a trample crosses.
    pub fn captures_of(&self, mv: KoomValleyMove) -> Bitboard256 {
        match mv.kind {
            KoomValleyMoveKind::DwarfMove => {
                let dwarfs = self.dwarfs.without(mv.from).with(mv.to);
                custodial_captures(mv.to, dwarfs, self.trolls)
            }
            KoomValleyMoveKind::Trample => mv.trampled().into_iter().collect(),
            KoomValleyMoveKind::RockMove | KoomValleyMoveKind::TrollMove => Bitboard256::EMPTY,
        }
    }

    /// Plays a legal move: moves the piece, removes what the move captures,
    /// passes the turn, updates the counters and the hash, and decides
    /// whether the game is over.
    #[inline]
    pub(crate) fn apply_move(&mut self, mv: KoomValleyMove) {
        let progress = match mv.kind {
            KoomValleyMoveKind::DwarfMove => {
                self.dwarfs = self.dwarfs.without(mv.from).with(mv.to);
                self.hash ^= KEYS.dwarf(mv.from) ^ KEYS.dwarf(mv.to);
                let captured = custodial_captures(mv.to, self.dwarfs, self.trolls);
                self.trolls ^= captured;
                for square in captured.squares() {
                    self.hash ^= KEYS.troll(square);
                }
                captured.any()
            }
            KoomValleyMoveKind::RockMove => {
                self.hash ^= KEYS.rock(self.rock) ^ KEYS.rock(mv.to);
                self.rock = mv.to;
                true
            }
            KoomValleyMoveKind::TrollMove | KoomValleyMoveKind::Trample => {
                self.trolls = self.trolls.without(mv.from).with(mv.to);
                self.hash ^= KEYS.troll(mv.from) ^ KEYS.troll(mv.to);
                for over in mv.trampled() {
                    self.dwarfs = self.dwarfs.without(over);
                    self.hash ^= KEYS.dwarf(over);
                }
                mv.kind == KoomValleyMoveKind::Trample
            }
        };
        self.pass_turn(progress);
    }

    shared_turn_rules!();

    /// The end that applies to the position as it stands, in order of
    /// precedence: the Rock home, the Rock surrounded just after a troll
    /// move (the dwarfs are to move), no legal move, then the draw limits.
    pub(crate) fn ending_now(&self) -> Option<EndReason> {
        if GOAL.contains(self.rock) {
            return Some(EndReason::RockHome);
        }
        if self.to_move == Side::Dwarfs && self.trolls_around_rock().count() >= TROLLS_AROUND_ROCK {
            return Some(EndReason::RockSurrounded);
        }
        self.stalemate_or_limit()
    }

    /// Follows a trample by the troll on `path[0]` through the landing
    /// squares `path[1..]`, and returns the dwarfs it crosses or why the path
    /// is not a trample.
    pub(crate) fn walk_trample(&self, path: &[Square]) -> Result<Bitboard256, String> {
        let mut at = path[0];
        let mut dwarfs = self.dwarfs;
        let mut empty = (PLAYABLE & !self.occupied()).with(at);
        for &landing in &path[1..] {
            let jump = GRID
                .direction_between(at, landing)
                .filter(|_| GRID.distance(at, landing) == 2);
            let Some(direction) = jump else {
                return Err(format!(
                    "a trample jumps two squares in a line over a dwarf, and {} to {} is not such a jump",
                    square_name(at),
                    square_name(landing)
                ));
            };
            let over = STEPS
                .neighbour(at, direction)
                .expect("the landing square is on the board");
            if !dwarfs.contains(over) {
                return Err(format!(
                    "there is no dwarf on {} to trample",
                    square_name(over)
                ));
            }
            if !empty.contains(landing) {
                return Err(format!(
                    "the troll cannot land on {}: it is occupied",
                    square_name(landing)
                ));
            }
            dwarfs = dwarfs.without(over);
            empty = empty.with(over).with(at).without(landing);
            at = landing;
        }
        Ok(self.dwarfs & !dwarfs)
    }

    /// Explains a valid trample path that is not the listed one: another
    /// path to the same position is.
    fn listed_trample(&self, from: Square, to: Square, crossed: Bitboard256) -> String {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .find(|mv| {
                mv.kind == KoomValleyMoveKind::Trample
                    && (mv.from, mv.to) == (from, to)
                    && self.captures_of(**mv) == crossed
            })
            .map_or_else(
                || format!("{}-...-{} is not a legal trample here", square_name(from), square_name(to)),
                |listed| format!("this trample reaches the same position as {listed}, which is the move to play"),
            )
    }

    /// Why a move of `piece` along `path` (its start and landing squares),
    /// capturing `claimed` if given, is not legal here. Called only for moves
    /// that are not in the legal list.
    pub(crate) fn explain_illegal(
        &self,
        piece: Piece,
        path: &[Square],
        claimed: Option<Bitboard256>,
    ) -> String {
        if let Some(reason) = self.ending {
            return format!("the game is over ({})", reason.name());
        }
        let side = match piece {
            Piece::Dwarf | Piece::Rock => Side::Dwarfs,
            Piece::Troll => Side::Trolls,
        };
        if side != self.to_move {
            return format!("the {} are to move", self.to_move);
        }
        let (from, to) = (path[0], path[path.len() - 1]);
        let (from_name, to_name) = (square_name(from), square_name(to));
        let captures_nothing = |what: &str| {
            claimed
                .filter(|claimed| claimed.any())
                .map(|_| format!("{what} captures nothing"))
        };
        match piece {
            Piece::Rock => {
                if from != self.rock {
                    return format!(
                        "the Rock stands on {}, not on {from_name}",
                        square_name(self.rock)
                    );
                }
                if path.len() != 2 || GRID.distance(from, to) != 1 {
                    return "the Rock moves one square".into();
                }
                if self.occupied().contains(to) {
                    return format!("{to_name} is occupied");
                }
                if !ADJACENT.targets(from).intersects(self.dwarfs) {
                    return "the Rock can only be moved while a dwarf stands next to it".into();
                }
                if !ADJACENT.targets(to).intersects(self.dwarfs) {
                    return format!(
                        "the Rock must end next to a dwarf, and none stands next to {to_name}"
                    );
                }
                if let Some(problem) = captures_nothing("moving the Rock") {
                    return problem;
                }
            }
            Piece::Dwarf | Piece::Troll => {
                let (own, one) = if piece == Piece::Dwarf {
                    (self.dwarfs, "dwarf")
                } else {
                    (self.trolls, "troll")
                };
                if !own.contains(from) {
                    return format!("there is no {one} on {from_name}");
                }
                if path.len() == 2 && from == to {
                    return "a piece must move at least one square".into();
                }
                let first_jump_over_dwarf = GRID
                    .direction_between(from, path[1])
                    .filter(|_| GRID.distance(from, path[1]) == 2)
                    .and_then(|direction| STEPS.neighbour(from, direction))
                    .is_some_and(|over| self.dwarfs.contains(over));
                if piece == Piece::Troll && (path.len() > 2 || first_jump_over_dwarf) {
                    return match self.walk_trample(path) {
                        Err(problem) => problem,
                        Ok(crossed) => match claimed.filter(|&claimed| claimed != crossed) {
                            Some(_) => format!("this trample captures {}", square_list(crossed)),
                            None => self.listed_trample(from, to, crossed),
                        },
                    };
                }
                if path.len() != 2 {
                    return format!("a {one} moves from one square to another (from-to)");
                }
                let Some(direction) = GRID.direction_between(from, to) else {
                    return format!(
                        "{from_name} and {to_name} are not on one rank, file or diagonal"
                    );
                };
                if piece == Piece::Troll && u32::from(GRID.distance(from, to)) > TROLL_RANGE {
                    return format!(
                        "a troll moves one to {TROLL_RANGE} squares (or tramples over dwarfs)"
                    );
                }
                let between = RAYS.ray(direction, from) & !RAYS.ray(direction, to).with(to);
                if let Some(block) = (between & self.occupied()).lowest() {
                    return format!(
                        "the way from {from_name} to {to_name} is blocked on {}",
                        square_name(block)
                    );
                }
                if self.occupied().contains(to) {
                    return format!("{to_name} is occupied");
                }
                if piece == Piece::Troll {
                    if let Some(problem) = captures_nothing("a troll move that is not a trample") {
                        return problem;
                    }
                } else if let Some(claimed) = claimed {
                    let mv = KoomValleyMove::simple(KoomValleyMoveKind::DwarfMove, from, to);
                    let actual = self.captures_of(mv);
                    if claimed != actual {
                        return match actual.any() {
                            true => {
                                format!("d{from_name}-{to_name} captures {}", square_list(actual))
                            }
                            false => format!("d{from_name}-{to_name} captures nothing"),
                        };
                    }
                }
            }
        }
        format!("{from_name}-{to_name} is not a legal move here")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Notation;
    use crate::games::thud::KoomValleyRules;
    use crate::games::thud::board::parse_square;

    #[test]
    fn an_unlisted_path_to_a_listed_trample_points_to_the_listed_one() {
        // A troll on D5 can circle over D6, E7 and E6 either way round.
        let game = KoomValley::from_position_text(
            "5/7/9/11/2T10/3dd10/4d10/7R7/15/15/13/11/9/7/5 trolls",
            KoomValleyRules::default(),
        )
        .unwrap();
        let d5 = parse_square("D5").unwrap();
        let mut jumps = 0;
        for (count, direction) in [Direction::NorthEast, Direction::West, Direction::South]
            .into_iter()
            .enumerate()
        {
            jumps = KoomValleyMove::add_jump(jumps, count as u8, direction);
        }
        let anticlockwise = KoomValleyMove::trample(d5, d5, jumps, 3);
        assert_eq!(anticlockwise.to_string(), "TD5-F7-D7-D5xE6xE7xD6");
        let error = game.check_move(anticlockwise).unwrap_err();
        assert!(
            error
                .reason()
                .contains("same position as TD5-D7-F7-D5xD6xE7xE6"),
            "{error}"
        );
        assert_eq!(
            game.parse_move("TD5-F7-D7-D5").unwrap().to_string(),
            "TD5-D7-F7-D5xD6xE7xE6"
        );
    }
}
