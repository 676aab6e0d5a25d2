//! The values of the rules string's keys: where the king escapes, how he
//! is captured, the jumps, shieldwalls, berserk moves, and the regions of
//! squares with rules of their own.

use super::board::Side;
use super::pieces::PieceSet;

/// Where the king escapes (`esc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Escape {
    /// On a corner square (`c`).
    Corner,
    /// On any edge square (`e`).
    Edge,
}

/// What the third occurrence of a position does (`tfr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThirdRepetition {
    /// The game is drawn (`d`).
    Draw,
    /// Nothing (`i`).
    Ignored,
    /// The side that made the move into it loses (`w`).
    MoverLoses,
    /// The side that made the move into it wins (`l`).
    MoverWins,
}

/// Whether the king takes part in captures (`ka`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingArmed {
    /// As the moving piece and as the far side (`y`).
    Both,
    /// Only as the far side, the anvil (`a`).
    Anvil,
    /// Only as the moving piece, the hammer (`h`).
    Hammer,
    /// Not at all (`n`).
    Neither,
}

impl KingArmed {
    /// Whether the king's own move can capture.
    pub const fn hammer(self) -> bool {
        matches!(self, KingArmed::Both | KingArmed::Hammer)
    }

    /// Whether the king closes a capture as the far side.
    pub const fn anvil(self) -> bool {
        matches!(self, KingArmed::Both | KingArmed::Anvil)
    }
}

/// How the king is captured (`ks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingStrength {
    /// Enemies on all four sides (`s`).
    Strong,
    /// Between two, as a taflman (`w`).
    Weak,
    /// Strong on or next to the centre, weak elsewhere (`c`).
    CentreStrong,
    /// Strong, but captured when every neighbouring square is hostile, so
    /// that the edge takes the place of a fourth enemy (`m`).
    Middleweight,
}

/// A piece's jump (`kj`, `nj`, `cj`, `mj`, `gj`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Jump {
    /// No jump (`n`).
    None,
    /// Over one enemy piece, only from or to the centre, a corner or a
    /// friendly fortress (`r`).
    Restricted,
    /// Over one enemy piece, which stays (`j`).
    Plain,
    /// Over one enemy piece, which is captured (`c`).
    Capturing,
}

/// Shieldwall captures (`sw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shieldwall {
    /// None (`n`).
    None,
    /// A corner may not close the wall (`w`).
    Weak,
    /// A corner may close the wall (`s`).
    Strong,
}

/// Berserk moves (`ber`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Berserk {
    /// None (`n`).
    None,
    /// After a capture the piece moves again if it can capture again, and
    /// only to capture (`c`).
    CaptureOnly,
    /// After a capture the piece makes one more move, any move (`m`).
    AnyMove,
}

/// The squares with rules of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Region {
    /// The corners (`cor`): where the king escapes under `esc:c`.
    Corner = 0,
    /// The centre, the throne (`cen`).
    Centre = 1,
    /// The attackers' fortresses (`afor`).
    AttackerFortress = 2,
    /// The defenders' fortresses (`dfor`).
    DefenderFortress = 3,
}

impl Region {
    /// Every region, in the order of the rules page.
    pub const ALL: [Region; 4] = [
        Region::Corner,
        Region::Centre,
        Region::AttackerFortress,
        Region::DefenderFortress,
    ];

    /// The prefix of the region's keys (`cor`, `cen`, `afor`, `dfor`).
    pub const fn key(self) -> &'static str {
        match self {
            Region::Corner => "cor",
            Region::Centre => "cen",
            Region::AttackerFortress => "afor",
            Region::DefenderFortress => "dfor",
        }
    }

    /// Whose fortress the region is, if it is one.
    pub const fn owner(self) -> Option<Side> {
        match self {
            Region::AttackerFortress => Some(Side::Attackers),
            Region::DefenderFortress => Some(Side::Defenders),
            _ => None,
        }
    }
}

/// Which pieces a region is hostile to, lets through, lets stop and lets
/// come back in from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegionRules {
    /// The pieces it is hostile to, an anvil against them (the centre:
    /// while occupied; [`RulesString::centre_hostile_empty`](crate::games::tafl::RulesString::centre_hostile_empty) while empty).
    pub hostile: PieceSet,
    /// The pieces that may pass over it.
    pub pass: PieceSet,
    /// The pieces that may stop on it.
    pub stop: PieceSet,
    /// The pieces that may end a move on it coming from another square.
    pub reenter: PieceSet,
}

impl RegionRules {
    /// The defaults of the rules page.
    pub(super) const fn default_of(region: Region) -> RegionRules {
        match region {
            Region::Corner => RegionRules {
                hostile: PieceSet::ALL,
                pass: PieceSet::KING,
                stop: PieceSet::KING,
                reenter: PieceSet::ALL,
            },
            Region::Centre => RegionRules {
                hostile: PieceSet::ATTACKERS_ARMED,
                pass: PieceSet::ALL,
                stop: PieceSet::KING,
                reenter: PieceSet::ALL,
            },
            Region::AttackerFortress => RegionRules {
                hostile: PieceSet::DEFENDERS_ARMED,
                pass: PieceSet::ALL,
                stop: PieceSet::ALL,
                reenter: PieceSet::ALL,
            },
            Region::DefenderFortress => RegionRules {
                hostile: PieceSet::ATTACKERS_ARMED,
                pass: PieceSet::DEFENDERS,
                stop: PieceSet::DEFENDERS,
                reenter: PieceSet::ALL,
            },
        }
    }
}
