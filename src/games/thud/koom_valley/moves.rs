//! A move of Koom Valley Thud, with the jumps of a trample, and its text.

use crate::bitboard::{Direction, Square};
use crate::games::thud::board::{STEPS, Side, square_name};
use std::fmt;

/// The four kinds of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoomValleyMoveKind {
    /// A dwarf moves like a queen; trolls it traps against other dwarfs are captured.
    DwarfMove,
    /// The dwarfs push the Rock one square.
    RockMove,
    /// A troll moves one to three squares in a line.
    TrollMove,
    /// A troll jumps over one or more dwarfs, capturing each.
    Trample,
}

/// A move: the piece on `from` ends on `to`. A trample also records the
/// direction of each jump, so that its path can be written and its victims
/// found without the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KoomValleyMove {
    /// Which of the four kinds of move this is.
    pub kind: KoomValleyMoveKind,
    /// The square of the piece that moves, or of the Rock for a Rock move.
    pub from: Square,
    /// The square where the piece (or the Rock) ends.
    pub to: Square,
    /// The jump directions of a trample, three bits each, first jump lowest.
    jumps: u64,
    jump_count: u8,
}

/// Bits per jump direction in [`KoomValleyMove::jumps`].
const JUMP_BITS: u32 = 3;
/// The most jumps a move can record; more than the dwarfs a game can have.
pub(crate) const MAX_JUMPS: u8 = (u64::BITS / JUMP_BITS) as u8;

impl KoomValleyMove {
    /// A move without jumps (every kind except a trample).
    pub(crate) const fn simple(kind: KoomValleyMoveKind, from: Square, to: Square) -> Self {
        KoomValleyMove {
            kind,
            from,
            to,
            jumps: 0,
            jump_count: 0,
        }
    }

    /// A trample from `from` ending on `to` after the jumps recorded in `jumps`.
    pub(crate) const fn trample(from: Square, to: Square, jumps: u64, jump_count: u8) -> Self {
        KoomValleyMove {
            kind: KoomValleyMoveKind::Trample,
            from,
            to,
            jumps,
            jump_count,
        }
    }

    /// `jumps` with one more jump towards `direction` after `count` jumps.
    pub(crate) const fn add_jump(jumps: u64, count: u8, direction: Direction) -> u64 {
        jumps | (direction.index() as u64) << (count as u32 * JUMP_BITS)
    }

    /// The directions of a trample's jumps, in order (none for other moves).
    pub fn jumps(self) -> impl Iterator<Item = Direction> {
        (0..u32::from(self.jump_count))
            .map(move |i| Direction::ALL[(self.jumps >> (i * JUMP_BITS) & 0b111) as usize])
    }

    /// The squares the piece lands on, in order: every landing of a
    /// trample, or just `to`.
    pub fn landings(self) -> Vec<Square> {
        if self.kind != KoomValleyMoveKind::Trample {
            return vec![self.to];
        }
        let mut at = self.from;
        self.jumps()
            .map(|direction| {
                at = jump_landing(at, direction);
                at
            })
            .collect()
    }

    /// The dwarfs a trample jumps over, in order (empty for other moves).
    pub fn trampled(self) -> Vec<Square> {
        let mut at = self.from;
        self.jumps()
            .map(|direction| {
                let over = STEPS
                    .neighbour(at, direction)
                    .expect("a jump stays on the board");
                at = jump_landing(at, direction);
                over
            })
            .collect()
    }

    /// The side whose turn it is when this move is played.
    pub fn side(self) -> Side {
        match self.kind {
            KoomValleyMoveKind::DwarfMove | KoomValleyMoveKind::RockMove => Side::Dwarfs,
            KoomValleyMoveKind::TrollMove | KoomValleyMoveKind::Trample => Side::Trolls,
        }
    }
}

/// Where a jump from `at` towards `direction` lands.
fn jump_landing(at: Square, direction: Direction) -> Square {
    STEPS
        .neighbour(at, direction)
        .and_then(|over| STEPS.neighbour(over, direction))
        .expect("a jump stays on the board")
}

impl fmt::Display for KoomValleyMove {
    /// The move without the captures of a dwarf move (those need the
    /// position; see [`Notation::move_text`](crate::core::Notation::move_text)):
    /// `dA10-D10`, `RH8-H7`, `TF2-F5`, `TF3-F5-H5xF4xG5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let piece = match self.kind {
            KoomValleyMoveKind::DwarfMove => 'd',
            KoomValleyMoveKind::RockMove => 'R',
            KoomValleyMoveKind::TrollMove | KoomValleyMoveKind::Trample => 'T',
        };
        write!(f, "{piece}{}", square_name(self.from))?;
        for landing in self.landings() {
            write!(f, "-{}", square_name(landing))?;
        }
        for over in self.trampled() {
            write!(f, "x{}", square_name(over))?;
        }
        Ok(())
    }
}
