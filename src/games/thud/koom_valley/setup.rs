//! Koom Valley Thud's validation of the shared position text
//! ([`ThudSetup`]): the counts, and the start position.

use super::options::KoomValleyRules;
use super::state::KoomValley;
use crate::core::ParseError;
use crate::games::thud::setup::ThudSetup;

/// The most dwarfs and trolls a game has (the starting numbers); no
/// position can hold more.
pub const MAX_DWARFS: u32 = 16;
pub const MAX_TROLLS: u32 = 8;

/// The starting position: trolls on `F2 H2 K2 E3 F3 H3 K3 L3`, the Rock on
/// `H8`, sixteen dwarfs on `H9` and along the lower diagonal edges and rank
/// 15; dwarfs to move.
pub const START_POSITION: &str =
    "5/1T1T1T1/1TT1T1TT1/11/13/15/15/7R7/7d7/d13d/d11d/d9d/d7d/d5d/ddddd dwarfs 0 0";

impl KoomValley {
    /// The starting position, dwarfs to move.
    pub fn start(rules: KoomValleyRules) -> KoomValley {
        let setup: ThudSetup = START_POSITION.parse().expect("the start position is valid");
        KoomValley::from_setup(&setup, rules).expect("the start position is valid")
    }

    /// A validated state from an unvalidated setup: at most 16 dwarfs and 8
    /// trolls, and the Rock on the board.
    pub fn from_setup(setup: &ThudSetup, rules: KoomValleyRules) -> Result<KoomValley, ParseError> {
        let rock = setup.check_counts(MAX_DWARFS, MAX_TROLLS)?;
        let mut state = KoomValley {
            dwarfs: setup.dwarfs,
            trolls: setup.trolls,
            rock,
            to_move: setup.to_move,
            ply: setup.ply,
            quiet_plies: setup.quiet_plies,
            hash: 0,
            rules,
            ending: None,
        };
        state.hash = state.hash_from_scratch();
        state.ending = state.ending_now();
        Ok(state)
    }

    /// The unvalidated setup of this position.
    pub fn setup(&self) -> ThudSetup {
        ThudSetup {
            dwarfs: self.dwarfs,
            trolls: self.trolls,
            rock: Some(self.rock),
            to_move: self.to_move,
            quiet_plies: self.quiet_plies,
            ply: self.ply,
        }
    }
}
