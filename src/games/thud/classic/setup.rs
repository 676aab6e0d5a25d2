//! Classic Thud's validation of the shared position text ([`ThudSetup`]):
//! the counts, the Thudstone's square, and the start position.

use super::options::ThudRules;
use super::state::Thud;
use crate::bitboard::Bitboard256;
use crate::games::thud::board::{CENTRE, PERIMETER, Side, square_at};
use crate::games::thud::setup::ThudSetup;

/// The most dwarfs a battle has (the starting number); no position can
/// hold more.
pub const MAX_DWARFS: u32 = 32;
/// The most trolls a battle has (the starting number).
pub const MAX_TROLLS: u32 = 8;

/// The starting position: the trolls around the Thudstone, the dwarfs on
/// the perimeter except the four squares in line with the stone; dwarfs to move.
pub const START_POSITION: &str =
    "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd dwarfs 0 0";

/// The start position, built from constants: the dwarfs on the perimeter
/// but the four squares in line with the Thudstone (`H1`, `A8`, `P8`,
/// `H15`), the trolls on the eight squares around it; dwarfs to move. It
/// prints as [`START_POSITION`].
#[rustfmt::skip]
const START: ThudSetup = ThudSetup {
    dwarfs: PERIMETER
        .without(square_at(0, 7))
        .without(square_at(7, 0))
        .without(square_at(7, 14))
        .without(square_at(14, 7)),
    trolls: Bitboard256::from_squares(&[
        square_at(6, 6), square_at(6, 7), square_at(6, 8),
        square_at(7, 6), square_at(7, 8),
        square_at(8, 6), square_at(8, 7), square_at(8, 8),
    ]),
    rock: Some(CENTRE),
    to_move: Side::Dwarfs,
    quiet_plies: 0,
    ply: 0,
};

impl Thud {
    /// The standard starting position, dwarfs to move.
    pub fn start(rules: ThudRules) -> Thud {
        Thud::from_valid_setup(&START, rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_built_from_constants_prints_as_documented() {
        crate::games::check_start_constants::<Thud>(&START, START_POSITION, ThudRules::default());
    }
}
