use super::{Bitboard128, Bitboard256, Direction, Grid, Square};

/// For every square and direction, the playable square one step away: the
/// per-square look-up behind piece-by-piece walks (captures, jumps). `N` is
/// the number of squares of the bitboard width; use [`Steps128`] or
/// [`Steps256`]. The grid may have at most 255 squares.
pub struct Steps<const N: usize> {
    /// The index of the square one step away, or [`NO_SQUARE`]: one byte an
    /// entry, half the size of an `Option<Square>` table, and fewer
    /// instructions in the Hnefatafl and Thud perft.
    next: [[u8; N]; 8],
}

/// The entry of a step off the board; no square of a grid of at most 255
/// squares has this index.
const NO_SQUARE: u8 = u8::MAX;

/// The steps of a board of up to 128 squares.
pub type Steps128 = Steps<128>;
/// The steps of a board of up to 255 squares.
pub type Steps256 = Steps<256>;

// A `const fn` cannot call trait methods, so the constructor is written once
// per bitboard width.
macro_rules! steps_constructor {
    ($bitboard:ident, $squares:literal) => {
        impl Steps<$squares> {
            /// The steps of `grid` between squares of `playable`; squares
            /// outside `playable` have none.
            pub const fn new(grid: Grid, playable: $bitboard) -> Self {
                assert!(grid.len() <= NO_SQUARE as usize, "at most 255 squares");
                let mut next = [[NO_SQUARE; $squares]; 8];
                let mut d = 0;
                while d < 8 {
                    let mut index = 0;
                    while index < grid.len() {
                        let from = Square::new(index as u8);
                        if playable.contains(from)
                            && let Some(to) = grid.step(from, Direction::ALL[d], 1)
                            && playable.contains(to)
                        {
                            next[d][index] = to.raw();
                        }
                        index += 1;
                    }
                    d += 1;
                }
                Steps { next }
            }
        }
    };
}

steps_constructor!(Bitboard128, 128);
steps_constructor!(Bitboard256, 256);

impl<const N: usize> Steps<N> {
    /// The square one step from `square` towards `direction`, if playable.
    #[inline]
    pub const fn neighbour(&self, square: Square, direction: Direction) -> Option<Square> {
        match self.next[direction.index()][square.index()] {
            NO_SQUARE => None,
            index => Some(Square::new(index)),
        }
    }

    /// The square `distance` steps from `square` towards `direction`, if it
    /// and every square on the way are playable.
    #[inline]
    pub fn step(&self, square: Square, direction: Direction, distance: u32) -> Option<Square> {
        let mut at = square;
        for _ in 0..distance {
            at = self.neighbour(at, direction)?;
        }
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Bitboard;
    use super::super::test_boards::{self, TestBoard};
    use super::*;

    /// Checks the steps that `build` makes for `board` against the grid.
    fn check_against_the_grid<B: Bitboard, const N: usize>(
        board: &TestBoard<B>,
        build: impl Fn(Grid, B) -> Steps<N>,
    ) {
        let steps = build(board.grid, board.playable);
        for square in board.squares() {
            for direction in Direction::ALL {
                for distance in 0..4 {
                    let path_playable = (1..=distance).all(|d| {
                        board
                            .grid
                            .step(square, direction, d)
                            .is_some_and(|s| board.playable.contains(s))
                    });
                    let expected = board
                        .grid
                        .step(square, direction, distance)
                        .filter(|_| path_playable);
                    assert_eq!(
                        steps.step(square, direction, distance as u32),
                        expected,
                        "{}",
                        board.name
                    );
                }
            }
        }
        // Squares off the board have no steps.
        for index in 0..board.grid.len() {
            let square = Square::new(index as u8);
            if !board.playable.contains(square) {
                for direction in Direction::ALL {
                    assert_eq!(steps.neighbour(square, direction), None);
                }
            }
        }
    }

    #[test]
    fn steps_match_the_grid_on_every_test_board() {
        check_against_the_grid(&test_boards::tafl(), Steps128::new);
        check_against_the_grid(&test_boards::stealth_chess_middle_files(), Steps128::new);
        check_against_the_grid(&test_boards::octagon(), Steps256::new);
        check_against_the_grid(&test_boards::fifteen_by_seventeen(), Steps256::new);
    }

    #[test]
    fn steps_stop_at_the_edge() {
        let tafl = test_boards::tafl();
        let steps = Steps128::new(tafl.grid, tafl.playable);
        let a1 = tafl.square(0, 0);
        assert_eq!(steps.neighbour(a1, Direction::West), None);
        assert_eq!(
            steps.neighbour(a1, Direction::North),
            Some(tafl.square(0, 1))
        );
        assert_eq!(steps.neighbour(tafl.square(10, 5), Direction::East), None);
    }
}
