//! Playing a move (captures, counters, the end of the battle) and explaining
//! why a move is illegal.

use super::movegen::line_length;
use super::moves::{ThudMove, ThudMoveKind};
use super::options::TrollCaptures;
use super::state::{EndReason, KEYS, Thud};
use crate::bitboard::{Bitboard256, Square};
use crate::core::limit_reached;
use crate::games::thud::board::{ADJACENT, GRID, RAYS, Side, square_name};
use crate::games::thud::setup::square_list;
use crate::games::thud::state::shared_turn_rules;

impl Thud {
    /// Plays a legal move: moves the piece, removes what the move captures,
    /// passes the turn, updates the counters and the hash, and decides
    /// whether the battle is over.
    #[inline]
    pub(crate) fn apply_move(&mut self, mv: ThudMove) {
        let captured = mv.captured();
        match mv.kind {
            ThudMoveKind::DwarfMove | ThudMoveKind::Hurl => {
                if mv.kind == ThudMoveKind::Hurl {
                    self.trolls = self.trolls.without(mv.to);
                    self.hash ^= KEYS.troll(mv.to);
                }
                self.dwarfs = self.dwarfs.without(mv.from).with(mv.to);
                self.hash ^= KEYS.dwarf(mv.from) ^ KEYS.dwarf(mv.to);
            }
            ThudMoveKind::TrollStep | ThudMoveKind::Shove => {
                self.trolls = self.trolls.without(mv.from).with(mv.to);
                self.hash ^= KEYS.troll(mv.from) ^ KEYS.troll(mv.to);
                self.dwarfs ^= captured;
                for square in captured.squares() {
                    self.hash ^= KEYS.dwarf(square);
                }
            }
        }
        self.pass_turn(captured.any());
    }

    shared_turn_rules!();

    /// The end that applies to the position as it stands: no legal move for
    /// the side to move, then the two limits.
    pub(crate) fn ending_now(&self) -> Option<EndReason> {
        self.stalemate_or_limit()
    }

    /// Why a move of `piece` from `from` to `to` capturing `captured` is not
    /// legal here. Called only for moves that are not in the legal list.
    pub(crate) fn explain_illegal(
        &self,
        piece: Side,
        from: Square,
        to: Square,
        captured: Bitboard256,
    ) -> String {
        if let Some(reason) = self.ending {
            return format!("the battle is over ({})", reason.name());
        }
        if piece != self.to_move {
            return format!("the {} are to move", self.to_move);
        }
        let (own, one) = match piece {
            Side::Dwarfs => (self.dwarfs, "dwarf"),
            Side::Trolls => (self.trolls, "troll"),
        };
        let (from_name, to_name) = (square_name(from), square_name(to));
        if !own.contains(from) {
            return format!("there is no {one} on {from_name}");
        }
        if from == to {
            return "a piece must move at least one square".into();
        }
        let Some(direction) = GRID.direction_between(from, to) else {
            return format!("{from_name} and {to_name} are not on one rank, file or diagonal");
        };
        let reach = u32::from(GRID.distance(from, to));
        let path = RAYS.ray(direction, from) & !RAYS.ray(direction, to).with(to);
        if let Some(block) = (path & self.occupied()).lowest() {
            return format!(
                "the way from {from_name} to {to_name} is blocked on {}",
                square_name(block)
            );
        }
        match piece {
            Side::Dwarfs => {
                if self.trolls.contains(to) {
                    let line = line_length(from, direction.opposite(), self.dwarfs);
                    if line < reach {
                        return format!(
                            "a hurl over {reach} squares needs a line of at least {reach} dwarfs, \
                             and the line ending on {from_name} has {line}"
                        );
                    }
                    if captured != Bitboard256::from_square(to) {
                        return format!("a hurl onto {to_name} captures exactly the troll there");
                    }
                } else if self.occupied().contains(to) {
                    return format!("{to_name} is occupied");
                } else if captured.any() {
                    return "a dwarf move captures nothing; only a hurl onto a troll does".into();
                }
            }
            Side::Trolls => {
                if self.occupied().contains(to) {
                    return format!(
                        "{to_name} is occupied (trolls take the dwarfs next to where they land)"
                    );
                }
                let victims = ADJACENT.targets(to) & self.dwarfs;
                if reach >= 2 {
                    let line = line_length(from, direction.opposite(), self.trolls);
                    if line < reach {
                        return format!(
                            "a troll steps one square; a shove over {reach} squares needs a line \
                             of at least {reach} trolls, and the line ending on {from_name} has {line}"
                        );
                    }
                    if victims.is_empty() {
                        return format!(
                            "a shove must capture, and no dwarf stands next to {to_name}"
                        );
                    }
                }
                if let Some(stray) = (captured & !victims).lowest() {
                    return format!(
                        "only dwarfs next to {to_name} can be captured, and {} is not one",
                        square_name(stray)
                    );
                }
                if self.rules.troll_captures == TrollCaptures::AllOrNone
                    && captured.any()
                    && captured != victims
                {
                    return format!(
                        "the troll takes all the dwarfs next to {to_name} ({}) or none \
                         (rule troll-captures=all-or-none)",
                        square_list(victims)
                    );
                }
                if reach >= 2 && captured.is_empty() {
                    return format!(
                        "a shove must capture: write the dwarfs taken as x{}",
                        square_list(victims).replace(' ', "x")
                    );
                }
            }
        }
        format!(
            "{}{from_name}-{to_name} is not a legal move here",
            match piece {
                Side::Dwarfs => 'd',
                Side::Trolls => 'T',
            }
        )
    }
}
