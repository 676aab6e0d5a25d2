//! The octagonal board both games are played on: a 15x15 grid with a
//! triangle of 15 squares cut from each corner (165 playable squares), the
//! square names of the Thud! program, the two sides, and the precomputed
//! neighbour and ray tables.

use crate::bitboard::{
    Bitboard256, Geometry256, Grid, Leaps256, Rays256, Square, SquareNames, Steps256,
};
use crate::core::{ParseError, two_sides};
use crate::games::board_text::square_name_functions;

/// The grid is 15 squares wide and high.
pub const SIZE: u8 = 15;
/// Square indices are `row * 15 + column`; row 0 is rank 1, the top row of
/// the board as printed, and column 0 is file `A`.
pub const GRID: Grid = Grid::new(SIZE, SIZE);

/// The file letters, `A` to `P` without `I`.
const FILES: &str = "ABCDEFGHJKLMNOP";

/// The number of playable squares.
pub const PLAYABLE_SQUARES: u32 = 165;

/// Whether (row, column) is on the octagon: rows 0..4 lose 5..1 squares at
/// each end, and the bottom rows mirror them.
const fn is_playable(row: i32, column: i32) -> bool {
    if row < 0 || column < 0 || row >= SIZE as i32 || column >= SIZE as i32 {
        return false;
    }
    let from_edge = if row < 7 { row } else { 14 - row };
    let cut = if from_edge < 5 { 5 - from_edge } else { 0 };
    column >= cut && column <= 14 - cut
}

const fn playable_mask() -> Bitboard256 {
    let mut mask = Bitboard256::EMPTY;
    let mut row = 0;
    while row < SIZE as i32 {
        let mut column = 0;
        while column < SIZE as i32 {
            if is_playable(row, column) {
                mask = mask.with(Square::new((row * SIZE as i32 + column) as u8));
            }
            column += 1;
        }
        row += 1;
    }
    mask
}

/// The playable squares.
pub const PLAYABLE: Bitboard256 = playable_mask();

/// The square in `row` and `column` (both from 0).
///
/// # Panics
/// If the square is not playable (in constants this is a compile error).
pub const fn square_at(row: i32, column: i32) -> Square {
    assert!(is_playable(row, column), "square outside the octagon");
    Square::new((row * SIZE as i32 + column) as u8)
}

/// The squares next to the outside of the board along a rank or file: the
/// straight edges and the diagonal edges of the cut corners (36 squares).
pub const PERIMETER: Bitboard256 = GEOMETRY.edge();

/// The centre square `H8`: the Thudstone in classic Thud, the Rock's
/// starting square in Koom Valley Thud.
pub const CENTRE: Square = square_at(7, 7);

/// The octagon as bitboard operations on whole sets of squares.
pub(crate) const GEOMETRY: Geometry256 = Geometry256::new(GRID, PLAYABLE);
pub(crate) static RAYS: Rays256 = Rays256::new(GRID, PLAYABLE);
pub(crate) static STEPS: Steps256 = Steps256::new(GRID, PLAYABLE);
/// The (up to eight) playable squares around each square.
pub static ADJACENT: Leaps256 = Leaps256::king(GRID, PLAYABLE);

/// The row of a square: 0 for rank 1, the top row.
#[inline]
pub const fn row(square: Square) -> u8 {
    GRID.rank(square)
}

/// The column of a square: 0 for file `A`.
#[inline]
pub const fn column(square: Square) -> u8 {
    GRID.file(square)
}

/// Square names as the Thud! program writes them: a file letter `A`..`P`
/// (no `I`, read in either case) and a rank `1`..`15`, rank 1 at the top.
const NAMES: SquareNames<Bitboard256> = SquareNames::new(GRID, FILES)
    .ignoring_case()
    .with_playable(PLAYABLE, "the square is in a cut-off corner of the board");

square_name_functions!(NAMES, "H8");

/// The board as text for a terminal: rank 1 at the top, `d` dwarf, `T`
/// troll, `R` the rock (Thudstone or Rock), `.` an empty square and `*` an
/// empty square of `marked` (the goal squares of Koom Valley Thud).
pub fn diagram(
    dwarfs: Bitboard256,
    trolls: Bitboard256,
    rock: Square,
    marked: Bitboard256,
) -> String {
    let header: String = FILES.chars().map(|file| format!(" {file}")).collect();
    let mut out = format!("   {header}\n");
    for row in 0..SIZE as i32 {
        out.push_str(&format!("{:>2} ", row + 1));
        for column in 0..SIZE as i32 {
            let symbol = if !is_playable(row, column) {
                ' '
            } else {
                let square = square_at(row, column);
                if dwarfs.contains(square) {
                    'd'
                } else if trolls.contains(square) {
                    'T'
                } else if square == rock {
                    'R'
                } else if marked.contains(square) {
                    '*'
                } else {
                    '.'
                }
            };
            out.push(' ');
            out.push(symbol);
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

two_sides! {
    /// The two sides. The dwarfs move first and are player 0.
    pub enum Side {
        Dwarfs = "dwarfs" | "dwarf" | "dwarves" | "d",
        Trolls = "trolls" | "troll" | "t",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_octagon_has_165_squares_and_36_on_its_perimeter() {
        assert_eq!(PLAYABLE.count(), PLAYABLE_SQUARES);
        assert_eq!(PERIMETER.count(), 36);
        let row_lengths: Vec<u32> = (0..15)
            .map(|row| (0..15).filter(|&column| is_playable(row, column)).count() as u32)
            .collect();
        assert_eq!(
            row_lengths,
            [5, 7, 9, 11, 13, 15, 15, 15, 15, 15, 13, 11, 9, 7, 5]
        );
    }

    #[test]
    fn square_names_round_trip_over_the_whole_board() {
        for square in PLAYABLE.squares() {
            assert_eq!(parse_square(&square_name(square)).unwrap(), square);
        }
        assert_eq!(square_name(CENTRE), "H8");
        assert_eq!(square_name(square_at(5, 0)), "A6");
        assert_eq!(square_name(square_at(0, 14 - 5)), "K1");
        assert_eq!(parse_square("j1").unwrap(), square_at(0, 8));
    }

    #[test]
    fn bad_square_names_are_errors() {
        for text in [
            "",
            "I5",
            "Q3",
            "A0",
            "A16",
            "A1",
            "P15",
            "E1",
            "H",
            "8H",
            "H8x",
            "é3",
            "B-2147483648",
        ] {
            assert!(parse_square(text).is_err(), "{text}");
        }
    }

    #[test]
    fn tables_stay_on_the_octagon() {
        use crate::bitboard::Direction;
        assert_eq!(ADJACENT.targets(CENTRE).count(), 8);
        assert_eq!(ADJACENT.targets(square_at(0, 5)).count(), 4);
        assert_eq!(ADJACENT.targets(square_at(1, 4)).count(), 5);
        let f1 = parse_square("F1").unwrap();
        assert_eq!(STEPS.neighbour(f1, Direction::West), None);
        assert_eq!(RAYS.ray(Direction::East, f1).count(), 4);
        assert_eq!(RAYS.ray(Direction::North, CENTRE).count(), 7);
        assert_eq!(
            STEPS.step(CENTRE, Direction::North, 7).map(square_name),
            Some("H15".into())
        );
        assert_eq!(STEPS.step(CENTRE, Direction::North, 8), None);
        assert_eq!(
            GEOMETRY.neighbours(Bitboard256::from_square(f1)),
            ADJACENT.targets(f1)
        );
    }
}
