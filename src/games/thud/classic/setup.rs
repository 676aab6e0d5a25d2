//! Classic Thud's validation of the shared position text ([`ThudSetup`]):
//! the counts, the Thudstone's square, and the start position.

use super::options::ThudRules;
use super::state::Thud;
use crate::core::ParseError;
use crate::games::thud::board::{CENTRE, square_name};
use crate::games::thud::setup::ThudSetup;

/// The most dwarfs and trolls a battle has (the starting numbers); no
/// position can hold more.
pub const MAX_DWARFS: u32 = 32;
pub const MAX_TROLLS: u32 = 8;

/// The starting position: the trolls around the Thudstone, the dwarfs on
/// the perimeter except the four squares in line with the stone; dwarfs to move.
pub const START_POSITION: &str =
    "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd dwarfs 0 0";

impl Thud {
    /// The standard starting position, dwarfs to move.
    pub fn start(rules: ThudRules) -> Thud {
        let setup: ThudSetup = START_POSITION.parse().expect("the start position is valid");
        Thud::from_setup(&setup, rules).expect("the start position is valid")
    }

    /// A validated state from an unvalidated setup: at most 32 dwarfs and 8
    /// trolls, and the Thudstone on `H8`.
    pub fn from_setup(setup: &ThudSetup, rules: ThudRules) -> Result<Thud, ParseError> {
        let rock = setup.check_counts(MAX_DWARFS, MAX_TROLLS)?;
        if rock != CENTRE {
            return Err(ParseError::new(
                "position",
                &setup.to_string(),
                format!(
                    "the Thudstone (R) must stand on H8, not on {}",
                    square_name(rock)
                ),
            ));
        }
        let mut state = Thud {
            dwarfs: setup.dwarfs,
            trolls: setup.trolls,
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
            rock: Some(CENTRE),
            to_move: self.to_move,
            quiet_plies: self.quiet_plies,
            ply: self.ply,
        }
    }
}
