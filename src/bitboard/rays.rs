use super::{Bitboard, Bitboard128, Bitboard256, Direction, Grid, Square};

/// For every square and direction, the squares beyond it up to the edge of
/// the playable area: the tables behind sliding moves. `N` is the number of
/// squares the bitboard `B` holds; use [`Rays128`] or [`Rays256`].
///
/// The playable squares must form a convex shape (a rectangle, the octagon
/// of Thud, the eight middle files of Stealth Chess), so that a ray that
/// leaves them never re-enters: a ray stops at the first square off them.
pub struct Rays<B, const N: usize> {
    rays: [[B; N]; 8],
}

/// The rays of a board of up to 128 squares.
pub type Rays128 = Rays<Bitboard128, 128>;
/// The rays of a board of up to 256 squares.
pub type Rays256 = Rays<Bitboard256, 256>;

// A `const fn` cannot call trait methods, so the constructor is written once
// per bitboard width.
macro_rules! rays_constructor {
    ($bitboard:ident, $squares:literal) => {
        impl Rays<$bitboard, $squares> {
            /// The rays of `grid` restricted to `playable`; squares outside
            /// `playable` have no rays.
            pub const fn new(grid: Grid, playable: $bitboard) -> Self {
                let mut rays = [[$bitboard::EMPTY; $squares]; 8];
                let mut d = 0;
                while d < 8 {
                    let direction = Direction::ALL[d];
                    let mut index = 0;
                    while index < grid.len() {
                        let from = Square::new(index as u8);
                        let mut ray = $bitboard::EMPTY;
                        if playable.contains(from) {
                            let mut distance = 1;
                            while let Some(target) = grid.step(from, direction, distance) {
                                if !playable.contains(target) {
                                    break;
                                }
                                ray = ray.with(target);
                                distance += 1;
                            }
                        }
                        rays[d][index] = ray;
                        index += 1;
                    }
                    d += 1;
                }
                Rays { rays }
            }
        }
    };
}

rays_constructor!(Bitboard128, 128);
rays_constructor!(Bitboard256, 256);

impl<B: Bitboard, const N: usize> Rays<B, N> {
    /// The squares beyond `square` towards `direction`, up to the edge.
    #[inline]
    pub const fn ray(&self, direction: Direction, square: Square) -> B {
        self.rays[direction.index()][square.index()]
    }

    /// The first square of `occupied` beyond `square` towards `direction`.
    #[inline]
    pub fn nearest(&self, direction: Direction, square: Square, occupied: B) -> Option<Square> {
        let blockers = self.ray(direction, square) & occupied;
        if direction.increases_index() {
            blockers.lowest()
        } else {
            blockers.highest()
        }
    }

    /// The squares a slider on `square` sees towards `direction`: the empty
    /// ones and the first occupied one.
    #[inline]
    pub fn attacks(&self, direction: Direction, square: Square, occupied: B) -> B {
        let ray = self.ray(direction, square);
        match self.nearest(direction, square, occupied) {
            Some(blocker) => ray ^ self.ray(direction, blocker),
            None => ray,
        }
    }

    // The attacks of several directions are spelled out one direction at a
    // time rather than looped over: with each direction a constant, the
    // choice between the lowest and the highest blocker is made at compile
    // time instead of by a branch per direction, which the processor
    // mispredicts on busy boards.

    /// The squares a rook on `square` sees.
    #[inline]
    pub fn rook_attacks(&self, square: Square, occupied: B) -> B {
        self.attacks(Direction::North, square, occupied)
            | self.attacks(Direction::East, square, occupied)
            | self.attacks(Direction::South, square, occupied)
            | self.attacks(Direction::West, square, occupied)
    }

    /// The squares a bishop on `square` sees.
    #[inline]
    pub fn bishop_attacks(&self, square: Square, occupied: B) -> B {
        self.attacks(Direction::NorthEast, square, occupied)
            | self.attacks(Direction::SouthEast, square, occupied)
            | self.attacks(Direction::SouthWest, square, occupied)
            | self.attacks(Direction::NorthWest, square, occupied)
    }

    /// The squares a queen on `square` sees in all eight directions.
    #[inline]
    pub fn queen_attacks(&self, square: Square, occupied: B) -> B {
        self.rook_attacks(square, occupied) | self.bishop_attacks(square, occupied)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_boards::{self, TestBoard};
    use super::*;

    /// The squares a slider sees, found by walking one square at a time.
    fn walk<B: Bitboard>(
        board: &TestBoard<B>,
        from: Square,
        direction: Direction,
        occupied: B,
    ) -> B {
        let mut seen = B::EMPTY;
        for to in board.line(from, direction) {
            seen = seen.with(to);
            if occupied.contains(to) {
                break;
            }
        }
        seen
    }

    /// Checks the rays that `build` makes for `board` against walks.
    fn check_against_walks<B: Bitboard, const N: usize>(
        board: &TestBoard<B>,
        build: impl Fn(Grid, B) -> Rays<B, N>,
    ) {
        let rays = build(board.grid, board.playable);
        for occupied in test_boards::occupancies(board) {
            for from in board.squares() {
                let mut rook = B::EMPTY;
                let mut bishop = B::EMPTY;
                for direction in Direction::ALL {
                    let seen = walk(board, from, direction, occupied);
                    assert_eq!(
                        rays.attacks(direction, from, occupied),
                        seen,
                        "{} {from:?} {direction:?}",
                        board.name
                    );
                    let first = seen & occupied;
                    assert_eq!(rays.nearest(direction, from, occupied), first.lowest());
                    if Direction::ORTHOGONAL.contains(&direction) {
                        rook |= seen;
                    } else {
                        bishop |= seen;
                    }
                }
                assert_eq!(rays.rook_attacks(from, occupied), rook);
                assert_eq!(rays.bishop_attacks(from, occupied), bishop);
                assert_eq!(rays.queen_attacks(from, occupied), rook | bishop);
            }
        }
    }

    #[test]
    fn attacks_match_a_walk_on_every_test_board() {
        check_against_walks(&test_boards::tafl(), Rays128::new);
        check_against_walks(&test_boards::stealth_chess(), Rays128::new);
        check_against_walks(&test_boards::stealth_chess_middle_files(), Rays128::new);
        check_against_walks(&test_boards::octagon(), Rays256::new);
    }

    #[test]
    fn rays_stop_at_the_edge_without_wrapping() {
        let tafl = test_boards::tafl();
        let rays = Rays128::new(tafl.grid, tafl.playable);
        let sq = |file, rank| tafl.square(file, rank);
        assert_eq!(rays.ray(Direction::East, sq(9, 0)).count(), 1);
        assert_eq!(rays.ray(Direction::East, sq(10, 0)).count(), 0);
        assert_eq!(rays.ray(Direction::NorthWest, sq(0, 5)).count(), 0);
        assert_eq!(rays.ray(Direction::North, sq(3, 3)).count(), 7);
    }

    #[test]
    fn rook_attacks_include_the_first_blocker_in_each_direction() {
        let tafl = test_boards::tafl();
        let rays = Rays128::new(tafl.grid, tafl.playable);
        let sq = |file, rank| tafl.square(file, rank);
        let occupied = Bitboard128::from_squares(&[sq(5, 8), sq(5, 2), sq(1, 5)]);
        let expected = Bitboard128::from_squares(&[
            sq(5, 6),
            sq(5, 7),
            sq(5, 8), // north up to the blocker
            sq(5, 4),
            sq(5, 3),
            sq(5, 2), // south up to the blocker
            sq(4, 5),
            sq(3, 5),
            sq(2, 5),
            sq(1, 5), // west up to the blocker
            sq(6, 5),
            sq(7, 5),
            sq(8, 5),
            sq(9, 5),
            sq(10, 5), // east to the edge
        ]);
        assert_eq!(rays.rook_attacks(sq(5, 5), occupied), expected);
    }

    #[test]
    fn a_queen_in_the_centre_of_an_empty_ten_by_eight_board() {
        let chess = test_boards::stealth_chess();
        let rays = Rays128::new(chess.grid, chess.playable);
        // e4 (file 4, rank 3): 9 squares along the rank, 7 along the file,
        // 4 + 4 diagonal squares upwards and 3 + 3 downwards.
        let e4 = chess.square(4, 3);
        assert_eq!(rays.rook_attacks(e4, Bitboard128::EMPTY).count(), 16);
        assert_eq!(rays.bishop_attacks(e4, Bitboard128::EMPTY).count(), 14);
        assert_eq!(rays.queen_attacks(e4, Bitboard128::EMPTY).count(), 30);
        // On files b..i only, the rook no longer reaches files a and j.
        let middle = test_boards::stealth_chess_middle_files();
        let rays = Rays128::new(middle.grid, middle.playable);
        assert_eq!(rays.rook_attacks(e4, Bitboard128::EMPTY).count(), 14);
        assert!(rays.ray(Direction::North, chess.square(0, 3)).is_empty());
    }

    #[test]
    fn rays_on_the_octagon() {
        let octagon = test_boards::octagon();
        let rays = Rays256::new(octagon.grid, octagon.playable);
        let sq = |file, rank| octagon.square(file, rank);
        assert_eq!(rays.ray(Direction::East, sq(13, 5)).count(), 1);
        // From the centre: 7 squares each way along the rank and file, but
        // the cut corners leave 4 on each diagonal.
        assert_eq!(rays.queen_attacks(sq(7, 7), Bitboard256::EMPTY).count(), 44);
        let occupied = Bitboard256::from_squares(&[sq(7, 10), sq(3, 3)]);
        let north = rays.attacks(Direction::North, sq(7, 7), occupied);
        assert_eq!(
            north,
            Bitboard256::from_squares(&[sq(7, 8), sq(7, 9), sq(7, 10)])
        );
        assert_eq!(
            rays.nearest(Direction::SouthWest, sq(7, 7), occupied),
            Some(sq(3, 3))
        );
    }
}
