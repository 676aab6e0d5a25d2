//! The 10x8 board: files `a`..`j`, the Slurks on files `a` and `j`, the
//! ordinary chessboard on files `b`..`i`; the sides, the kinds of piece and
//! the precomputed tables of move generation.
//!
//! Squares are numbered along ranks from `a1` (`index = rank * 10 + file`).
//! The Slurk files lie between the chessboard and the ends of each rank, so
//! a shift of the whole chessboard by one file or one diagonal step never
//! wraps onto another rank's chessboard squares: pawn captures are computed
//! by plain shifts and one mask.

use crate::bitboard::{Bitboard128, Grid, Leaps128, Rays128, Square, SquareNames};
use crate::core::{ParseError, two_sides};
use crate::games::board_text::square_name_functions;

/// The number of files, `a`..`j`.
pub const FILES: u8 = 10;
/// The number of ranks, `1`..`8`.
pub const RANKS: u8 = 8;
pub const GRID: Grid = Grid::new(FILES, RANKS);

/// Every square of the 10x8 board.
pub const ALL_SQUARES: Bitboard128 = Bitboard128::first_n(GRID.len());
/// Files `a` and `j`, where only Assassins may stand.
pub const SLURKS: Bitboard128 = Bitboard128(file_mask(0).0 | file_mask(FILES - 1).0);
/// Files `b`..`i`: the ordinary chessboard.
pub const CHESSBOARD: Bitboard128 = Bitboard128(ALL_SQUARES.0 & !SLURKS.0);
/// The first and the last rank, where pawns promote.
pub const BACK_RANKS: Bitboard128 = Bitboard128(rank_mask(0).0 | rank_mask(RANKS - 1).0);

/// The squares of a file (0 is `a`).
pub const fn file_mask(file: u8) -> Bitboard128 {
    rectangle(file, file, 0, RANKS - 1)
}

/// The squares of a rank (0 is rank 1).
pub const fn rank_mask(rank: u8) -> Bitboard128 {
    rectangle(0, FILES - 1, rank, rank)
}

/// The squares from file `first_file` to `last_file` on the ranks from
/// `first_rank` to `last_rank`, all inclusive.
const fn rectangle(first_file: u8, last_file: u8, first_rank: u8, last_rank: u8) -> Bitboard128 {
    let mut set = Bitboard128::EMPTY;
    let mut file = first_file;
    while file <= last_file {
        let mut rank = first_rank;
        while rank <= last_rank {
            set = set.with(square_at(file as i32, rank as i32));
            rank += 1;
        }
        file += 1;
    }
    set
}

/// The square on `file` and `rank`, both from 0 (a compile error in
/// constants if it is off the board).
pub const fn square_at(file: i32, rank: i32) -> Square {
    match GRID.square(file, rank) {
        Some(square) => square,
        None => panic!("square outside the board"),
    }
}

/// File letters are read in lower case, as long algebraic moves write them.
const NAMES: SquareNames<Bitboard128> = SquareNames::new(GRID, "abcdefghij");

square_name_functions!(NAMES, "f3");

two_sides! {
    /// The two sides. White moves first.
    pub enum Side {
        White = "white" | "w",
        Black = "black" | "b",
    }
}

impl Side {
    /// The change of square index of one pawn step forwards.
    pub(crate) const fn forward(self) -> i32 {
        match self {
            Side::White => FILES as i32,
            Side::Black => -(FILES as i32),
        }
    }
}

/// The kinds of piece, in the order of the state's bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Letter `P`; moves and promotes as in chess.
    Pawn,
    /// Letter `N`.
    Knight,
    /// Letter `B`.
    Bishop,
    /// Letter `R`.
    Rook,
    /// Letter `Q`.
    Queen,
    /// Letter `K`.
    King,
    /// Letter `A`; steps, leaps two squares to capture, and hides in and emerges
    /// from the Slurks.
    Assassin,
}

impl Kind {
    /// Every kind, in the order of [`Kind::index`].
    pub const ALL: [Kind; 7] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
        Kind::Assassin,
    ];
    /// What a pawn may promote to (never a king or an Assassin).
    pub const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

    /// The index `0..7` of the kind: its place in [`Kind::ALL`] and the state's
    /// bitboards.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter of a white piece in positions (upper case); black pieces
    /// are written in lower case.
    pub const fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Queen => 'Q',
            Kind::King => 'K',
            Kind::Assassin => 'A',
        }
    }

    /// The kind of a position letter, in either case.
    pub fn from_letter(letter: char) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|kind| kind.letter() == letter.to_ascii_uppercase())
    }
}

/// A piece: its side and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The side that owns the piece.
    pub side: Side,
    /// What the piece is.
    pub kind: Kind,
}

impl Piece {
    /// The piece's letter in positions: upper case for White.
    pub fn letter(self) -> char {
        match self.side {
            Side::White => self.kind.letter(),
            Side::Black => self.kind.letter().to_ascii_lowercase(),
        }
    }

    /// The piece of a position letter (upper case for White).
    pub fn from_letter(letter: char) -> Option<Piece> {
        let kind = Kind::from_letter(letter)?;
        let side = if letter.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        Some(Piece { side, kind })
    }
}

/// Castling rights, one bit each.
pub const WHITE_KINGSIDE: u8 = 1;
pub const WHITE_QUEENSIDE: u8 = 2;
pub const BLACK_KINGSIDE: u8 = 4;
pub const BLACK_QUEENSIDE: u8 = 8;

/// One castling: the right it needs, where the king and rook start and end,
/// the squares that must be empty, and the square the king passes over.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Castling {
    pub right: u8,
    pub letter: char,
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    pub must_be_empty: Bitboard128,
    pub passed: Square,
}

/// The file both kings start on (`f`).
const KING_FILE: i32 = 5;

const fn castling(side: Side, kingside: bool) -> Castling {
    let (rank, rights, letters) = match side {
        Side::White => (0, [WHITE_KINGSIDE, WHITE_QUEENSIDE], ['K', 'Q']),
        Side::Black => (7, [BLACK_KINGSIDE, BLACK_QUEENSIDE], ['k', 'q']),
    };
    let (wing, rook_file, step) = if kingside { (0, 8, 1) } else { (1, 1, -1) };
    // The king moves two files towards the rook, and the rook lands on the
    // square the king passes; every square between them must be empty.
    let mut must_be_empty = Bitboard128::EMPTY;
    let mut file = KING_FILE + step;
    while file != rook_file {
        must_be_empty = must_be_empty.with(square_at(file, rank));
        file += step;
    }
    Castling {
        right: rights[wing],
        letter: letters[wing],
        king_from: square_at(KING_FILE, rank),
        king_to: square_at(KING_FILE + 2 * step, rank),
        rook_from: square_at(rook_file, rank),
        rook_to: square_at(KING_FILE + step, rank),
        must_be_empty,
        passed: square_at(KING_FILE + step, rank),
    }
}

/// The four castlings in the order of their letters in positions: `KQkq`.
pub(crate) const CASTLINGS: [Castling; 4] = [
    castling(Side::White, true),
    castling(Side::White, false),
    castling(Side::Black, true),
    castling(Side::Black, false),
];

/// The castlings of one side: kingside first.
pub(crate) const fn castlings_of(side: Side) -> [Castling; 2] {
    match side {
        Side::White => [CASTLINGS[0], CASTLINGS[1]],
        Side::Black => [CASTLINGS[2], CASTLINGS[3]],
    }
}

/// For every square, the castling rights kept when a piece leaves or
/// arrives there: a king's or rook's start square clears its rights.
pub(crate) static CASTLING_KEPT: [u8; 80] = castling_kept();

const fn castling_kept() -> [u8; 80] {
    let mut kept = [0b1111u8; 80];
    let mut i = 0;
    while i < 4 {
        let c = CASTLINGS[i];
        kept[c.king_from.index()] &= !c.right;
        kept[c.rook_from.index()] &= !c.right;
        i += 1;
    }
    kept
}

/// Sliding moves stay on the chessboard: a ray stops before a Slurk.
pub(crate) static RAYS: Rays128 = Rays128::new(GRID, CHESSBOARD);
pub(crate) static KNIGHT: Leaps128 = Leaps128::knight(GRID, CHESSBOARD);
/// A king's steps, and the squares next to a square on the chessboard.
pub(crate) static KING: Leaps128 = Leaps128::king(GRID, CHESSBOARD);
/// An Assassin's steps from the chessboard, into a Slurk included.
pub(crate) static ASSASSIN_STEPS: Leaps128 = Leaps128::king(GRID, ALL_SQUARES);
/// An Assassin's two-square leaps, from and to the chessboard.
pub(crate) static LEAPS: Leaps128 = Leaps128::straight_two(GRID, CHESSBOARD);

/// For each square, the chessboard squares on its diagonals: where a
/// bishop there would see on an empty board.
pub(crate) static DIAGONALS: [Bitboard128; 80] = lines(crate::bitboard::Direction::DIAGONAL);
/// For each square, the chessboard squares on its rank and file.
pub(crate) static ORTHOGONALS: [Bitboard128; 80] = lines(crate::bitboard::Direction::ORTHOGONAL);

const fn lines(directions: [crate::bitboard::Direction; 4]) -> [Bitboard128; 80] {
    let mut table = [Bitboard128::EMPTY; 80];
    let mut index = 0;
    while index < 80 {
        let mut d = 0;
        while d < 4 {
            table[index].0 |= RAYS.ray(directions[d], Square::new(index as u8)).0;
            d += 1;
        }
        index += 1;
    }
    table
}

/// For each side and square, the squares a pawn of that side on it attacks.
pub(crate) static PAWN_ATTACKS: [[Bitboard128; 80]; 2] =
    [pawn_attacks(Side::White), pawn_attacks(Side::Black)];

const fn pawn_attacks(side: Side) -> [Bitboard128; 80] {
    let mut table = [Bitboard128::EMPTY; 80];
    let dr = match side {
        Side::White => 1,
        Side::Black => -1,
    };
    let mut index = 0;
    while index < GRID.len() {
        let from = Square::new(index as u8);
        if CHESSBOARD.contains(from) {
            let (file, rank) = (GRID.file(from) as i32, GRID.rank(from) as i32);
            let mut df = -1;
            while df <= 1 {
                if let Some(to) = GRID.square(file + df, rank + dr)
                    && CHESSBOARD.contains(to)
                {
                    table[index] = table[index].with(to);
                }
                df += 2;
            }
        }
        index += 1;
    }
    table
}

/// For two squares of the chessboard on one line, the squares strictly
/// between them; empty otherwise.
pub(crate) static BETWEEN: [[Bitboard128; 80]; 80] = between();

const fn between() -> [[Bitboard128; 80]; 80] {
    let mut table = [[Bitboard128::EMPTY; 80]; 80];
    let mut a = 0;
    while a < 80 {
        let from = Square::new(a as u8);
        let mut d = 0;
        while d < 8 && CHESSBOARD.contains(from) {
            let direction = crate::bitboard::Direction::ALL[d];
            let mut walked = Bitboard128::EMPTY;
            let mut distance = 1;
            while let Some(to) = GRID.step(from, direction, distance) {
                if !CHESSBOARD.contains(to) {
                    break;
                }
                table[a][to.index()] = walked;
                walked = walked.with(to);
                distance += 1;
            }
            d += 1;
        }
        a += 1;
    }
    table
}

/// The Slurk squares, one slot each: two per rank, file `a` first.
pub(crate) const SLURK_SLOTS: usize = 16;

/// The slot of a Slurk square.
#[inline]
pub(crate) const fn slurk_slot(square: Square) -> usize {
    let rank = GRID.rank(square) as usize;
    rank * 2 + (GRID.file(square) != 0) as usize
}

/// The largest Slurk count that still widens an emergence: from `a1` the
/// far corner `i8` is 8 + 7 = 15 away.
pub(crate) const WIDEST_EMERGENCE: u16 = 15;

/// For each entry point (a Slurk slot) and count up to
/// [`WIDEST_EMERGENCE`], the chessboard squares within that Manhattan
/// distance of the entry point: where an emergence may land.
pub(crate) static DIAMONDS: [[Bitboard128; WIDEST_EMERGENCE as usize + 1]; SLURK_SLOTS] =
    diamonds();

const fn diamonds() -> [[Bitboard128; WIDEST_EMERGENCE as usize + 1]; SLURK_SLOTS] {
    let mut table = [[Bitboard128::EMPTY; WIDEST_EMERGENCE as usize + 1]; SLURK_SLOTS];
    let mut index = 0;
    while index < GRID.len() {
        let entry = Square::new(index as u8);
        if SLURKS.contains(entry) {
            let slot = slurk_slot(entry);
            let mut to = 0;
            while to < GRID.len() {
                let target = Square::new(to as u8);
                if CHESSBOARD.contains(target) {
                    let distance = GRID.file(entry).abs_diff(GRID.file(target)) as usize
                        + GRID.rank(entry).abs_diff(GRID.rank(target)) as usize;
                    let mut count = distance;
                    while count <= WIDEST_EMERGENCE as usize {
                        table[slot][count] = table[slot][count].with(target);
                        count += 1;
                    }
                }
                to += 1;
            }
        }
        index += 1;
    }
    table
}

/// The squares an emergence may land on from `entry` with Slurk `count`.
#[inline]
pub(crate) fn emergence_squares(entry: Square, count: u16) -> Bitboard128 {
    DIAMONDS[slurk_slot(entry)][count.min(WIDEST_EMERGENCE) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slurks_and_the_chessboard_split_the_board() {
        assert_eq!(SLURKS.count(), 16);
        assert_eq!(CHESSBOARD.count(), 64);
        assert!(SLURKS.contains(parse_square("a1").unwrap()));
        assert!(SLURKS.contains(parse_square("j8").unwrap()));
        assert!(CHESSBOARD.contains(parse_square("b1").unwrap()));
        assert!(!CHESSBOARD.contains(parse_square("j4").unwrap()));
    }

    #[test]
    fn diamonds_grow_with_the_count_until_they_cover_the_chessboard() {
        let a1 = parse_square("a1").unwrap();
        assert!(emergence_squares(a1, 0).is_empty());
        assert_eq!(emergence_squares(a1, 1).count(), 1); // b1
        assert_eq!(emergence_squares(a1, 2).count(), 3); // b1 c1 b2
        assert_eq!(emergence_squares(a1, 14).count(), 63); // all but i8
        assert_eq!(emergence_squares(a1, 15), CHESSBOARD);
        assert_eq!(emergence_squares(a1, 400), CHESSBOARD);
        let j5 = parse_square("j5").unwrap();
        assert_eq!(
            emergence_squares(j5, 1),
            Bitboard128::from_square(parse_square("i5").unwrap())
        );
    }

    #[test]
    fn betweens_follow_lines_of_the_chessboard() {
        let sq = |name| parse_square(name).unwrap();
        assert_eq!(BETWEEN[sq("b1").index()][sq("i8").index()].count(), 6);
        assert_eq!(BETWEEN[sq("i8").index()][sq("b1").index()].count(), 6);
        assert_eq!(BETWEEN[sq("b1").index()][sq("c3").index()].count(), 0);
        assert_eq!(BETWEEN[sq("c1").index()][sq("c5").index()].count(), 3);
        // No line runs into a Slurk.
        assert!(BETWEEN[sq("a4").index()][sq("d4").index()].is_empty());
    }
}
