//! The boards the helper tests run on, and simple sets of squares to try.

use super::{Bitboard, Bitboard128, Bitboard256, Direction, Grid, Square};

pub struct TestBoard<B> {
    pub name: &'static str,
    pub grid: Grid,
    pub playable: B,
}

impl<B: Bitboard> TestBoard<B> {
    fn new(name: &'static str, grid: Grid, playable: impl Fn(i32, i32) -> bool) -> Self {
        let mut set = B::EMPTY;
        for rank in 0..grid.height() as i32 {
            for file in 0..grid.width() as i32 {
                if playable(file, rank) {
                    set = set.with(grid.square(file, rank).unwrap());
                }
            }
        }
        TestBoard {
            name,
            grid,
            playable: set,
        }
    }

    /// The playable squares.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.grid.len())
            .map(|index| Square::new(index as u8))
            .filter(|&square| self.playable.contains(square))
    }

    pub fn square(&self, file: i32, rank: i32) -> Square {
        self.grid.square(file, rank).unwrap()
    }

    /// The squares beyond `from` in `direction`, nearest first, walked one
    /// step at a time up to the edge or the first square off the board:
    /// what the helpers under test compute with shifts and tables.
    pub fn line(&self, from: Square, direction: Direction) -> impl Iterator<Item = Square> + '_ {
        (1..)
            .map_while(move |distance| self.grid.step(from, direction, distance))
            .take_while(|&square| self.playable.contains(square))
    }
}

/// The 11x11 tafl board.
pub fn tafl() -> TestBoard<Bitboard128> {
    TestBoard::new("11x11", Grid::new(11, 11), |_, _| true)
}

/// The whole 10x8 Stealth Chess board.
pub fn stealth_chess() -> TestBoard<Bitboard128> {
    TestBoard::new("10x8", Grid::new(10, 8), |_, _| true)
}

/// Files b..i of the 10x8 board: where the ordinary chess pieces move.
pub fn stealth_chess_middle_files() -> TestBoard<Bitboard128> {
    TestBoard::new("10x8 files b..i", Grid::new(10, 8), |file, _| {
        (1..=8).contains(&file)
    })
}

/// The 15x15 Thud octagon: a triangle of 15 squares cut from each corner.
pub fn octagon() -> TestBoard<Bitboard256> {
    TestBoard::new("15x15 octagon", Grid::new(15, 15), |file, rank| {
        let from_edge = rank.min(14 - rank);
        let cut = (5 - from_edge).max(0);
        (cut..=14 - cut).contains(&file)
    })
}

/// A 16x16 board: every bit of a 256-bit board is a square.
pub fn sixteen() -> TestBoard<Bitboard256> {
    TestBoard::new("16x16", Grid::new(16, 16), |_, _| true)
}

/// A 15x17 board: 255 squares, the most a [`Steps`](super::Steps) table takes.
pub fn fifteen_by_seventeen() -> TestBoard<Bitboard256> {
    TestBoard::new("15x17", Grid::new(15, 17), |_, _| true)
}

/// Some sets of playable squares: none, all, and a few scattered ones drawn
/// from a fixed sequence of pseudo-random numbers.
pub fn occupancies<B: Bitboard>(board: &TestBoard<B>) -> Vec<B> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut sets = vec![B::EMPTY, board.playable];
    for density in [2u64, 4, 8] {
        let mut set = B::EMPTY;
        for square in board.squares() {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            if (state >> 33).is_multiple_of(density) {
                set = set.with(square);
            }
        }
        sets.push(set);
    }
    sets
}
