use super::{Bitboard, Bitboard128, Bitboard256, Direction, Grid, Square};

/// For every square, the squares a leaping piece reaches from it in one move
/// (a king, a knight, the two-square leap of the Stealth Chess Assassin).
/// `N` is the number of squares the bitboard `B` holds; use [`Leaps128`] or
/// [`Leaps256`].
pub struct Leaps<B, const N: usize> {
    targets: [B; N],
}

/// The leaps of a board of up to 128 squares.
pub type Leaps128 = Leaps<Bitboard128, 128>;
/// The leaps of a board of up to 256 squares.
pub type Leaps256 = Leaps<Bitboard256, 256>;

/// The (file, rank) changes of a move of `distance` squares in each of the
/// eight directions: a king's step for 1, the Assassin's straight leap for 2.
const fn straight(distance: i8) -> [(i8, i8); 8] {
    let mut offsets = [(0, 0); 8];
    let mut i = 0;
    while i < 8 {
        let (file, rank) = Direction::ALL[i].delta();
        offsets[i] = (file * distance, rank * distance);
        i += 1;
    }
    offsets
}

/// One step in each of the eight directions.
const KING: [(i8, i8); 8] = straight(1);

/// A knight's eight leaps.
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Exactly two squares in each of the eight directions.
const STRAIGHT_TWO: [(i8, i8); 8] = straight(2);

// A `const fn` cannot call trait methods, so the constructors are written
// once per bitboard width.
macro_rules! leaps_constructors {
    ($bitboard:ident, $squares:literal) => {
        impl Leaps<$bitboard, $squares> {
            /// The leaps by the given (file, rank) changes from every square
            /// of `playable` to squares of `playable`; squares outside
            /// `playable` have none.
            pub const fn new(grid: Grid, playable: $bitboard, offsets: &[(i8, i8)]) -> Self {
                let mut targets = [$bitboard::EMPTY; $squares];
                let mut index = 0;
                while index < grid.len() {
                    let from = Square::new(index as u8);
                    let mut i = 0;
                    while i < offsets.len() && playable.contains(from) {
                        let (file, rank) = offsets[i];
                        if let Some(to) = grid.square(
                            grid.file(from) as i32 + file as i32,
                            grid.rank(from) as i32 + rank as i32,
                        ) && playable.contains(to)
                        {
                            targets[index] = targets[index].with(to);
                        }
                        i += 1;
                    }
                    index += 1;
                }
                Leaps { targets }
            }

            /// A king's steps: the (up to eight) neighbours of each square.
            pub const fn king(grid: Grid, playable: $bitboard) -> Self {
                Self::new(grid, playable, &KING)
            }

            /// A knight's leaps.
            pub const fn knight(grid: Grid, playable: $bitboard) -> Self {
                Self::new(grid, playable, &KNIGHT)
            }

            /// Leaps of exactly two squares in a straight line, orthogonal or
            /// diagonal, over whatever stands between (the capture of the
            /// Stealth Chess Assassin).
            pub const fn straight_two(grid: Grid, playable: $bitboard) -> Self {
                Self::new(grid, playable, &STRAIGHT_TWO)
            }
        }
    };
}

leaps_constructors!(Bitboard128, 128);
leaps_constructors!(Bitboard256, 256);

impl<B: Bitboard, const N: usize> Leaps<B, N> {
    /// The squares a leaper on `square` reaches.
    #[inline]
    pub const fn targets(&self, square: Square) -> B {
        self.targets[square.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_boards::{self, TestBoard};
    use super::super::{Direction, Geometry128, Geometry256, Steps};
    use super::*;

    fn check_king<B: Bitboard, const N: usize>(
        board: &TestBoard<B>,
        build: impl Fn(Grid, B) -> Leaps<B, N>,
        neighbours: impl Fn(B) -> B,
    ) {
        let king = build(board.grid, board.playable);
        for square in board.squares() {
            assert_eq!(
                king.targets(square),
                neighbours(B::from_square(square)),
                "{}",
                board.name
            );
        }
    }

    #[test]
    fn king_steps_are_the_neighbours() {
        let tafl = test_boards::tafl();
        let geometry = Geometry128::rectangle(tafl.grid);
        check_king(&tafl, Leaps128::king, |set| geometry.neighbours(set));
        let middle = test_boards::stealth_chess_middle_files();
        let geometry = Geometry128::new(middle.grid, middle.playable);
        check_king(&middle, Leaps128::king, |set| geometry.neighbours(set));
        let octagon = test_boards::octagon();
        let geometry = Geometry256::new(octagon.grid, octagon.playable);
        check_king(&octagon, Leaps256::king, |set| geometry.neighbours(set));
    }

    #[test]
    fn knights_on_an_eight_by_eight_board() {
        // Files b..i of the 10x8 board are an ordinary chessboard.
        let middle = test_boards::stealth_chess_middle_files();
        let knight = Leaps128::knight(middle.grid, middle.playable);
        let count = |file, rank| knight.targets(middle.square(file, rank)).count();
        assert_eq!(count(1, 0), 2); // a corner
        assert_eq!(count(2, 0), 3);
        assert_eq!(count(2, 1), 4);
        assert_eq!(count(4, 3), 8); // the centre
        let total: u32 = middle.squares().map(|s| knight.targets(s).count()).sum();
        assert_eq!(total, 336); // twice the 168 knight moves of a chessboard
        // On the whole 10x8 board a knight on b1 also reaches a3.
        let chess = test_boards::stealth_chess();
        let knight = Leaps128::knight(chess.grid, chess.playable);
        assert_eq!(knight.targets(chess.square(1, 0)).count(), 3);
    }

    #[test]
    fn straight_two_leaps_are_two_steps_along_a_line() {
        let chess = test_boards::stealth_chess();
        let leaps = Leaps128::straight_two(chess.grid, chess.playable);
        let steps = Steps::<128>::new(chess.grid, chess.playable);
        for square in chess.squares() {
            let expected: Bitboard128 = Direction::ALL
                .into_iter()
                .filter_map(|direction| steps.step(square, direction, 2))
                .collect();
            assert_eq!(leaps.targets(square), expected);
        }
        assert_eq!(leaps.targets(chess.square(0, 0)).count(), 3);
        assert_eq!(leaps.targets(chess.square(4, 3)).count(), 8);
        assert_eq!(leaps.targets(chess.square(4, 7)).count(), 5);
    }
}
