//! The 11x11 board: squares, special squares, sides and the precomputed tables.

use crate::bitboard::{Bitboard128, Geometry128, Grid, Rays128, Square, SquareNames, Steps128};
use crate::core::{ParseError, two_sides};
use crate::games::board_text::square_name_functions;

/// Board size: 11 files (`a`..`k`) and 11 ranks (`1`..`11`), `a1` bottom left.
pub const SIZE: u8 = 11;
/// The 11x11 grid: square index `rank * 11 + file`, `a1` is 0 and `k11` is 120.
pub const GRID: Grid = Grid::new(SIZE, SIZE);
/// The whole grid is the board.
pub(crate) const GEOMETRY: Geometry128 = Geometry128::rectangle(GRID);
pub(crate) static RAYS: Rays128 = Rays128::new(GRID, BOARD);
pub(crate) static STEPS: Steps128 = Steps128::new(GRID, BOARD);

/// The throne, `f6`, the centre square, where the king starts.
pub const THRONE: Square = square_at(5, 5);
/// The four corners, `a1`, `k1`, `a11` and `k11`: the king escapes on any of them.
pub const CORNERS: Bitboard128 = Bitboard128::from_squares(&[
    square_at(0, 0),
    square_at(10, 0),
    square_at(0, 10),
    square_at(10, 10),
]);
/// Squares only the king may stop on.
pub const RESTRICTED: Bitboard128 = CORNERS.with(THRONE);
/// Every square of the board, all 121.
pub const BOARD: Bitboard128 = GEOMETRY.playable();
/// The 40 squares of the outermost ring: ranks 1 and 11, files `a` and `k`.
pub const EDGE: Bitboard128 = GEOMETRY.edge();

/// The square on `file` and `rank`, both from 0 (a compile error in constants
/// if it is off the board).
pub(crate) const fn square_at(file: i32, rank: i32) -> Square {
    match GRID.square(file, rank) {
        Some(square) => square,
        None => panic!("square outside the board"),
    }
}

/// The squares at `(file, rank)` coordinates, both from 0.
pub(crate) const fn squares_at(coordinates: &[(i32, i32)]) -> Bitboard128 {
    let mut squares = Bitboard128::EMPTY;
    let mut index = 0;
    while index < coordinates.len() {
        let (file, rank) = coordinates[index];
        squares = squares.with(square_at(file, rank));
        index += 1;
    }
    squares
}

/// File letters are read in lower case only; the engine protocol lower-cases
/// a name before reading it.
const NAMES: SquareNames<Bitboard128> = SquareNames::new(GRID, "abcdefghijk");

square_name_functions!(NAMES, "f6");

two_sides! {
    /// The two sides. Attackers (black) move first.
    pub enum Side {
        Attackers = "attackers" | "attacker" | "a" | "black" | "b",
        Defenders = "defenders" | "defender" | "d" | "white" | "w",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip_over_the_whole_board() {
        for index in 0..GRID.len() {
            let square = Square::new(index as u8);
            assert_eq!(parse_square(&square_name(square)).unwrap(), square);
        }
        assert_eq!(square_name(THRONE), "f6");
    }

    #[test]
    fn bad_square_names_are_errors() {
        for text in [
            "",
            "l1",
            "a0",
            "a12",
            "a",
            "1a",
            "a1x",
            "é3",
            "A1",
            "b-2147483648",
        ] {
            assert!(parse_square(text).is_err(), "{text}");
        }
    }

    #[test]
    fn neighbours_stop_at_the_edge() {
        let corner = parse_square("a1").unwrap();
        let k6 = Bitboard128::from_square(parse_square("k6").unwrap());
        assert_eq!(
            GEOMETRY
                .orthogonal_neighbours(Bitboard128::from_square(corner))
                .count(),
            2
        );
        assert!(
            !GEOMETRY
                .orthogonal_neighbours(k6)
                .contains(parse_square("a7").unwrap())
        );
        assert_eq!(
            STEPS.neighbour(corner, crate::bitboard::Direction::West),
            None
        );
        assert_eq!(EDGE.count(), 40);
    }
}
