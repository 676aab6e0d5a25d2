//! The octagonal board both games are played on: a 15x15 grid with a
//! triangle of 15 squares cut from each corner (165 playable squares), the
//! square names of the Thud! program, the two sides, and the precomputed
//! neighbour and ray tables.

use crate::bitboard::{Bitboard256, Direction, Grid, Rays256, Square};
use crate::core::{ParseError, two_sides};

/// The grid is 15 squares wide and high.
pub const SIZE: u8 = 15;
/// Square indices are `row * 15 + column`; row 0 is rank 1, the top row of
/// the board as printed, and column 0 is file `A`.
pub const GRID: Grid = Grid::new(SIZE, SIZE);

/// The file letters, `A` to `P` without `I`.
const FILES: &[u8; 15] = b"ABCDEFGHJKLMNOP";

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
pub const PERIMETER: Bitboard256 = perimeter_mask();

const fn perimeter_mask() -> Bitboard256 {
    let mut mask = Bitboard256::EMPTY;
    let mut row = 0;
    while row < SIZE as i32 {
        let mut column = 0;
        while column < SIZE as i32 {
            if is_playable(row, column)
                && !(is_playable(row - 1, column)
                    && is_playable(row + 1, column)
                    && is_playable(row, column - 1)
                    && is_playable(row, column + 1))
            {
                mask = mask.with(square_at(row, column));
            }
            column += 1;
        }
        row += 1;
    }
    mask
}

/// The centre square `H8`: the Thudstone in classic Thud, the Rock's
/// starting square in Koom Valley Thud.
pub const CENTRE: Square = square_at(7, 7);

pub(crate) static RAYS: Rays256 = Rays256::new(GRID, PLAYABLE);

const NO_SQUARE: u8 = u8::MAX;
static NEIGHBOURS: [[u8; 256]; 8] = neighbour_table();
static ADJACENT: [Bitboard256; 256] = adjacent_table();

const fn neighbour_table() -> [[u8; 256]; 8] {
    let mut table = [[NO_SQUARE; 256]; 8];
    let mut d = 0;
    while d < 8 {
        let mut index = 0;
        while index < GRID.len() {
            let from = Square::new(index as u8);
            if PLAYABLE.contains(from)
                && let Some(target) = GRID.step(from, Direction::ALL[d], 1)
                && PLAYABLE.contains(target)
            {
                table[d][index] = target.raw();
            }
            index += 1;
        }
        d += 1;
    }
    table
}

const fn adjacent_table() -> [Bitboard256; 256] {
    let neighbours = neighbour_table();
    let mut table = [Bitboard256::EMPTY; 256];
    let mut index = 0;
    while index < 256 {
        let mut d = 0;
        while d < 8 {
            if neighbours[d][index] != NO_SQUARE {
                table[index] = table[index].with(Square::new(neighbours[d][index]));
            }
            d += 1;
        }
        index += 1;
    }
    table
}

/// The square one step from `square` towards `direction`, if playable.
#[inline]
pub fn neighbour(square: Square, direction: Direction) -> Option<Square> {
    let entry = NEIGHBOURS[direction.index()][square.index()];
    (entry != NO_SQUARE).then(|| Square::new(entry))
}

/// The square `distance` steps from `square` towards `direction`, if playable.
#[inline]
pub fn step(square: Square, direction: Direction, distance: u32) -> Option<Square> {
    let mut at = square;
    for _ in 0..distance {
        at = neighbour(at, direction)?;
    }
    Some(at)
}

/// The (up to eight) playable squares around `square`.
#[inline]
pub fn adjacent(square: Square) -> Bitboard256 {
    ADJACENT[square.index()]
}

const COLUMN_A: Bitboard256 = column_mask(0);
const COLUMN_P: Bitboard256 = column_mask(14);

const fn column_mask(column: usize) -> Bitboard256 {
    let mut mask = Bitboard256::EMPTY;
    let mut row = 0;
    while row < SIZE as usize {
        mask = mask.with(Square::new((row * SIZE as usize + column) as u8));
        row += 1;
    }
    mask
}

/// The playable squares next to (8-neighbourhood) any square of `set`,
/// computed for the whole set at once by shifting.
#[inline]
pub fn neighbours(set: Bitboard256) -> Bitboard256 {
    let width = SIZE as u32;
    let not_last = set & !COLUMN_P;
    let not_first = set & !COLUMN_A;
    let around = set.shift_up(width)
        | set.shift_down(width)
        | not_last.shift_up(1)
        | not_last.shift_up(width + 1)
        | not_last.shift_down(width - 1)
        | not_first.shift_down(1)
        | not_first.shift_down(width + 1)
        | not_first.shift_up(width - 1);
    around & PLAYABLE
}

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

/// The number of king steps between two squares (the larger of the row and
/// column differences); along a line it is the distance travelled.
#[inline]
pub const fn distance(a: Square, b: Square) -> u8 {
    let rows = row(a).abs_diff(row(b));
    let columns = column(a).abs_diff(column(b));
    if rows > columns { rows } else { columns }
}

/// The direction from `from` to `to` if they lie on one rank, file or
/// diagonal (and differ).
pub fn direction_between(from: Square, to: Square) -> Option<Direction> {
    let rows = row(to) as i32 - row(from) as i32;
    let columns = column(to) as i32 - column(from) as i32;
    if (rows, columns) == (0, 0) || (rows != 0 && columns != 0 && rows.abs() != columns.abs()) {
        return None;
    }
    let unit = (columns.signum() as i8, rows.signum() as i8);
    Direction::ALL
        .into_iter()
        .find(|direction| direction.delta() == unit)
}

/// The name of a square in the Thud! program's notation: a file letter
/// `A`..`P` (no `I`) and a rank `1`..`15`, rank 1 at the top, e.g. `H8`.
pub fn square_name(square: Square) -> String {
    format!(
        "{}{}",
        FILES[column(square) as usize] as char,
        row(square) + 1
    )
}

/// Reads a square name such as `A6` (the letter may be lower case).
pub fn parse_square(text: &str) -> Result<Square, ParseError> {
    let bad = |problem: &str| ParseError::new("square", text, problem);
    let mut chars = text.chars();
    let letter = chars
        .next()
        .ok_or_else(|| bad("empty square name"))?
        .to_ascii_uppercase();
    let column = FILES
        .iter()
        .position(|&file| file as char == letter)
        .ok_or_else(|| bad("the file must be a letter from A to P (there is no I)"))?;
    let rank: i32 = chars
        .as_str()
        .parse()
        .ok()
        .filter(|rank| (1..=SIZE as i32).contains(rank))
        .ok_or_else(|| bad("the rank must be a number from 1 to 15"))?;
    let (row, column) = (rank - 1, column as i32);
    if !is_playable(row, column) {
        return Err(bad("the square is in a cut-off corner of the board"));
    }
    Ok(square_at(row, column))
}

/// The board as text for a terminal: rank 1 at the top, `d` dwarf, `T`
/// troll, `R` the rock (Thudstone or Rock), `.` an empty square and `*` an
/// empty square of `marked` (the goal squares of Koom Valley Thud).
pub fn diagram(
    dwarfs: Bitboard256,
    trolls: Bitboard256,
    rock: Square,
    marked: Bitboard256,
) -> String {
    let header: String = FILES
        .iter()
        .map(|&file| format!(" {}", file as char))
        .collect();
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
            "", "I5", "Q3", "A0", "A16", "A1", "P15", "E1", "H", "8H", "H8x", "é3",
        ] {
            assert!(parse_square(text).is_err(), "{text}");
        }
    }

    #[test]
    fn neighbours_by_shifting_match_the_table() {
        for square in PLAYABLE.squares() {
            assert_eq!(
                neighbours(Bitboard256::from_square(square)),
                adjacent(square),
                "{}",
                square_name(square)
            );
        }
        assert_eq!(adjacent(CENTRE).count(), 8);
        assert_eq!(adjacent(square_at(0, 5)).count(), 4);
        assert_eq!(adjacent(square_at(1, 4)).count(), 5);
    }

    #[test]
    fn rays_and_steps_stay_on_the_octagon() {
        let f1 = parse_square("F1").unwrap();
        assert_eq!(neighbour(f1, Direction::West), None);
        assert_eq!(RAYS.ray(Direction::East, f1).count(), 4);
        assert_eq!(RAYS.ray(Direction::North, CENTRE).count(), 7);
        assert_eq!(
            step(CENTRE, Direction::North, 7).map(square_name),
            Some("H15".into())
        );
        assert_eq!(step(CENTRE, Direction::North, 8), None);
    }

    #[test]
    fn directions_between_squares_follow_lines_only() {
        let a6 = parse_square("A6").unwrap();
        let d6 = parse_square("D6").unwrap();
        assert_eq!(direction_between(a6, d6), Some(Direction::East));
        assert_eq!(direction_between(d6, a6), Some(Direction::West));
        assert_eq!(
            direction_between(a6, parse_square("C8").unwrap()),
            Some(Direction::NorthEast)
        );
        assert_eq!(direction_between(a6, parse_square("C9").unwrap()), None);
        assert_eq!(direction_between(a6, a6), None);
        assert_eq!(distance(a6, d6), 3);
    }
}
