//! The 11x11 board: squares, special squares, sides and the precomputed tables.

use crate::bitboard::{Bitboard128, Direction, Grid, Rays128, Square};
use crate::core::ParseError;
use std::fmt;

/// Board size: 11 files (`a`..`k`) and 11 ranks (`1`..`11`), `a1` bottom left.
pub const SIZE: u8 = 11;
pub const GRID: Grid = Grid::new(SIZE, SIZE);
pub(crate) static RAYS: Rays128 = Rays128::new(GRID, BOARD);

pub const THRONE: Square = square_at(5, 5);
pub const CORNERS: Bitboard128 = Bitboard128::from_squares(&[
    square_at(0, 0),
    square_at(10, 0),
    square_at(0, 10),
    square_at(10, 10),
]);
/// Squares only the king may stop on.
pub const RESTRICTED: Bitboard128 = CORNERS.with(THRONE);
pub const BOARD: Bitboard128 = GRID.all_squares_128();
pub const EDGE: Bitboard128 = GRID.edge_128();

const fn square_at(file: i32, rank: i32) -> Square {
    match GRID.square(file, rank) {
        Some(square) => square,
        None => panic!("square outside the board"),
    }
}

const FILE_A: Bitboard128 = file_mask(0);
const FILE_K: Bitboard128 = file_mask(10);

const fn file_mask(file: i32) -> Bitboard128 {
    let mut mask = Bitboard128::EMPTY;
    let mut rank = 0;
    while rank < SIZE as i32 {
        mask = mask.with(square_at(file, rank));
        rank += 1;
    }
    mask
}

/// The squares orthogonally next to any square of `set`.
#[inline]
pub fn orthogonal_neighbours(set: Bitboard128) -> Bitboard128 {
    let east = (set & !FILE_K).shift_up(1);
    let west = (set & !FILE_A).shift_down(1);
    let north = set.shift_up(SIZE as u32);
    let south = set.shift_down(SIZE as u32);
    (east | west | north | south) & BOARD
}

/// The squares that pieces on `sources` slide over towards `direction`
/// (orthogonal only) through `passable` squares, the sources included: an
/// occluded fill, four shift-and-mask rounds instead of a walk per piece.
/// Each passable square in the result is reached by exactly one source, the
/// nearest one behind it, which is what bulk move counting relies on.
#[inline]
pub fn slide_fill(
    sources: Bitboard128,
    passable: Bitboard128,
    direction: Direction,
) -> Bitboard128 {
    // A step east must not wrap from file k onto file a of the next rank, nor
    // a step west the other way; ranks need only the board mask.
    let (up, step, entry_mask) = match direction {
        Direction::East => (true, 1, BOARD & !FILE_A),
        Direction::West => (false, 1, BOARD & !FILE_K),
        Direction::North => (true, SIZE as u32, BOARD),
        Direction::South => (false, SIZE as u32, BOARD),
        _ => unreachable!("slide_fill is for the four rook directions"),
    };
    let shift = |set: Bitboard128, by: u32| {
        if up {
            set.shift_up(by)
        } else {
            set.shift_down(by)
        }
    };
    let mut reached = sources;
    let mut open = passable & entry_mask;
    reached |= open & shift(reached, step);
    open &= shift(open, step);
    reached |= open & shift(reached, 2 * step);
    open &= shift(open, 2 * step);
    reached |= open & shift(reached, 4 * step);
    open &= shift(open, 4 * step);
    reached |= open & shift(reached, 8 * step);
    reached
}

/// Every square reachable from `start` by orthogonal steps through `passable`
/// (the start squares are included whether passable or not).
pub fn flood_fill(start: Bitboard128, passable: Bitboard128) -> Bitboard128 {
    let mut reached = start;
    loop {
        let next = reached | (orthogonal_neighbours(reached) & passable);
        if next == reached {
            return reached;
        }
        reached = next;
    }
}

/// The square one step from `square` towards `direction`, if on the board.
#[inline]
pub fn neighbour(square: Square, direction: Direction) -> Option<Square> {
    let entry = NEIGHBOURS[direction.index()][square.index()];
    (entry != NO_SQUARE).then(|| Square::new(entry))
}

const NO_SQUARE: u8 = u8::MAX;
static NEIGHBOURS: [[u8; 128]; 4] = neighbour_table();

const fn neighbour_table() -> [[u8; 128]; 4] {
    let mut table = [[NO_SQUARE; 128]; 4];
    let mut d = 0;
    while d < 4 {
        let mut index = 0;
        while index < GRID.len() {
            if let Some(target) = GRID.step(Square::new(index as u8), Direction::ORTHOGONAL[d], 1) {
                table[d][index] = target.raw();
            }
            index += 1;
        }
        d += 1;
    }
    table
}

/// The two sides. Attackers (black) move first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Attackers,
    Defenders,
}

impl Side {
    /// The player index: attackers are player 0, defenders player 1.
    pub const fn player(self) -> usize {
        match self {
            Side::Attackers => 0,
            Side::Defenders => 1,
        }
    }

    pub const fn from_player(player: usize) -> Side {
        if player == 0 {
            Side::Attackers
        } else {
            Side::Defenders
        }
    }

    pub const fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }

    /// Reads a side: `attackers`/`a`/`black`/`b` or `defenders`/`d`/`white`/`w`.
    pub fn parse(text: &str) -> Option<Side> {
        match text.to_ascii_lowercase().as_str() {
            "attackers" | "attacker" | "a" | "black" | "b" => Some(Side::Attackers),
            "defenders" | "defender" | "d" | "white" | "w" => Some(Side::Defenders),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name of a square, `a1`..`k11`.
pub fn square_name(square: Square) -> String {
    let file = (b'a' + GRID.file(square)) as char;
    format!("{file}{}", GRID.rank(square) + 1)
}

/// Reads a square name such as `f6`.
pub fn parse_square(text: &str) -> Result<Square, ParseError> {
    let bad = |problem: &str| ParseError::new("square", text, problem);
    let mut chars = text.chars();
    let file = chars.next().ok_or_else(|| bad("empty square name"))?;
    if !('a'..='k').contains(&file) {
        return Err(bad("the file must be a letter from a to k"));
    }
    let rank: i32 = chars
        .as_str()
        .parse()
        .map_err(|_| bad("the rank must be a number from 1 to 11"))?;
    GRID.square(file as i32 - 'a' as i32, rank - 1)
        .ok_or_else(|| bad("the rank must be a number from 1 to 11"))
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
        for text in ["", "l1", "a0", "a12", "a", "1a", "a1x", "é3"] {
            assert!(parse_square(text).is_err(), "{text}");
        }
    }

    #[test]
    fn neighbours_stop_at_the_edge() {
        let corner = parse_square("a1").unwrap();
        assert_eq!(
            orthogonal_neighbours(Bitboard128::from_square(corner)).count(),
            2
        );
        assert_eq!(neighbour(corner, Direction::West), None);
        assert_eq!(
            neighbour(corner, Direction::North),
            Some(parse_square("a2").unwrap())
        );
        let k6 = parse_square("k6").unwrap();
        assert!(
            !orthogonal_neighbours(Bitboard128::from_square(k6))
                .contains(parse_square("a7").unwrap())
        );
    }
}
