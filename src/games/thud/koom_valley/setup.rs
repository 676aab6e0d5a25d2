//! Koom Valley Thud's validation of the shared position text
//! ([`ThudSetup`]): the counts, and the start position.

use super::options::KoomValleyRules;
use super::state::KoomValley;
use crate::bitboard::Bitboard256;
use crate::games::thud::board::{CENTRE, Side, square_at};
use crate::games::thud::setup::ThudSetup;

/// The most dwarfs a game has (the starting number); no position can hold
/// more.
pub const MAX_DWARFS: u32 = 16;
/// The most trolls a game has (the starting number).
pub const MAX_TROLLS: u32 = 8;

/// The starting position: trolls on `F2 H2 K2 E3 F3 H3 K3 L3`, the Rock on
/// `H8`, sixteen dwarfs on `H9` and along the lower diagonal edges and rank
/// 15; dwarfs to move.
pub const START_POSITION: &str =
    "5/1T1T1T1/1TT1T1TT1/11/13/15/15/7R7/7d7/d13d/d11d/d9d/d7d/d5d/ddddd dwarfs 0 0";

/// The start position, built from constants: eight trolls on ranks 2 and 3,
/// the Rock on `H8`, sixteen dwarfs on `H9`, the lower diagonal edges and
/// rank 15; dwarfs to move. It prints as [`START_POSITION`].
#[rustfmt::skip]
const START: ThudSetup = ThudSetup {
    dwarfs: Bitboard256::from_squares(&[
        // H9, next to the Rock.
        square_at(8, 7),
        // The lower diagonal edges: A10 to E14, and P10 to L14.
        square_at(9, 0), square_at(10, 1), square_at(11, 2), square_at(12, 3), square_at(13, 4),
        square_at(9, 14), square_at(10, 13), square_at(11, 12), square_at(12, 11), square_at(13, 10),
        // Rank 15: F15 to K15.
        square_at(14, 5), square_at(14, 6), square_at(14, 7), square_at(14, 8), square_at(14, 9),
    ]),
    trolls: Bitboard256::from_squares(&[
        // F2, H2 and K2.
        square_at(1, 5), square_at(1, 7), square_at(1, 9),
        // E3, F3, H3, K3 and L3.
        square_at(2, 4), square_at(2, 5), square_at(2, 7), square_at(2, 9), square_at(2, 10),
    ]),
    rock: Some(CENTRE),
    to_move: Side::Dwarfs,
    quiet_plies: 0,
    ply: 0,
};

impl KoomValley {
    /// The starting position, dwarfs to move.
    pub fn start(rules: KoomValleyRules) -> KoomValley {
        KoomValley::from_valid_setup(&START, rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_built_from_constants_prints_as_documented() {
        crate::games::check_start_constants::<KoomValley>(
            &START,
            START_POSITION,
            KoomValleyRules::default(),
        );
    }
}
