use super::{Bitboard, Bitboard128, Bitboard256, Direction, Grid, Square};

/// The shape of a board as bitboard operations on whole sets of squares: a
/// [`Grid`] and the squares of it that are playable (all of them for a
/// rectangle; the octagon of Thud; files b..i for the chess pieces of Stealth
/// Chess).
///
/// Small and built in constants, so a game keeps one as a `const` and its
/// masks fold into the code of the hot loops. Every result is restricted to
/// the playable squares; the sets passed in are expected to be too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry<B> {
    grid: Grid,
    playable: B,
    /// The playable squares off the first file. A shift of the index by one
    /// pushes the last file onto the first file of the next rank, so a step
    /// with an eastward component may land only here, and one with a
    /// westward component may start only here.
    off_first_file: B,
    /// The playable squares off the last file: where a step with a westward
    /// component may land, and one with an eastward component may start.
    off_last_file: B,
}

/// The geometry of a board of up to 128 squares.
pub type Geometry128 = Geometry<Bitboard128>;
/// The geometry of a board of up to 256 squares.
pub type Geometry256 = Geometry<Bitboard256>;

// A `const fn` cannot call trait methods, so the constructors are written
// once per bitboard width.
macro_rules! geometry_constructors {
    ($bitboard:ident) => {
        impl Geometry<$bitboard> {
            /// The squares of `playable` on `grid`.
            pub const fn new(grid: Grid, playable: $bitboard) -> Self {
                let last = grid.width() - 1;
                let mut off_first_file = $bitboard::EMPTY;
                let mut off_last_file = $bitboard::EMPTY;
                let mut index = 0;
                while index < grid.len() {
                    let square = Square::new(index as u8);
                    if playable.contains(square) {
                        if grid.file(square) != 0 {
                            off_first_file = off_first_file.with(square);
                        }
                        if grid.file(square) != last {
                            off_last_file = off_last_file.with(square);
                        }
                    }
                    index += 1;
                }
                Geometry {
                    grid,
                    playable,
                    off_first_file,
                    off_last_file,
                }
            }

            /// Every square of `grid` playable.
            pub const fn rectangle(grid: Grid) -> Self {
                Self::new(grid, $bitboard::first_n(grid.len()))
            }

            /// The playable squares of `file` (from 0).
            pub const fn file(&self, file: u8) -> $bitboard {
                let mut set = $bitboard::EMPTY;
                let mut rank = 0;
                while rank < self.grid.height() {
                    if let Some(square) = self.grid.square(file as i32, rank as i32)
                        && self.playable.contains(square)
                    {
                        set = set.with(square);
                    }
                    rank += 1;
                }
                set
            }

            /// The playable squares next to the outside along a rank or file:
            /// those with an orthogonal neighbour off the grid or not
            /// playable (the outermost ring of a rectangle).
            pub const fn edge(&self) -> $bitboard {
                let mut edge = $bitboard::EMPTY;
                let mut index = 0;
                while index < self.grid.len() {
                    let square = Square::new(index as u8);
                    let mut d = 0;
                    while d < 4 && self.playable.contains(square) {
                        match self.grid.step(square, Direction::ORTHOGONAL[d], 1) {
                            Some(next) if self.playable.contains(next) => d += 1,
                            _ => {
                                edge = edge.with(square);
                                break;
                            }
                        }
                    }
                    index += 1;
                }
                edge
            }
        }
    };
}

geometry_constructors!(Bitboard128);
geometry_constructors!(Bitboard256);

/// Evaluates `$body` with `$d` bound to `$direction` as a constant, one
/// copy per direction: with a fixed direction and a constant geometry the
/// shift amounts and masks are constants, where a direction known only at
/// run time (a loop the compiler did not unroll) would cost a variable-width
/// 128- or 256-bit shift and a branch on its sign.
macro_rules! with_constant_direction {
    ($direction:expr, |$d:ident| $body:expr) => {
        with_constant_direction!(
            $direction, $d, $body,
            North East South West NorthEast SouthEast SouthWest NorthWest
        )
    };
    ($direction:expr, $d:ident, $body:expr, $($name:ident)*) => {
        match $direction {
            $(Direction::$name => {
                let $d = Direction::$name;
                $body
            })*
        }
    };
}

impl<B: Bitboard> Geometry<B> {
    /// The grid the playable squares lie on.
    pub const fn grid(&self) -> Grid {
        self.grid
    }

    /// The playable squares.
    pub const fn playable(&self) -> B {
        self.playable
    }

    /// Every square of `set` moved one step towards `direction`; steps that
    /// leave the playable squares are dropped.
    #[inline]
    pub fn shift(&self, set: B, direction: Direction) -> B {
        with_constant_direction!(direction, |d| {
            self.shift_unmasked(set, d, 1) & self.landing(d)
        })
    }

    /// The playable squares orthogonally next to a square of `set`.
    #[inline]
    pub fn orthogonal_neighbours(&self, set: B) -> B {
        let width = self.grid.width() as u32;
        // Masking the sources of the side steps, not their targets, leaves
        // a single mask of playable squares at the end; in the Hnefatafl
        // perft this took fewer instructions than masking each target.
        let east = (set & self.off_last_file).shift_up(1);
        let west = (set & self.off_first_file).shift_down(1);
        (east | west | set.shift_up(width) | set.shift_down(width)) & self.playable
    }

    /// The playable squares next to a square of `set` in any of the eight
    /// directions.
    #[inline]
    pub fn neighbours(&self, set: B) -> B {
        let width = self.grid.width() as u32;
        // Three masks instead of eight: the sources of the steps that move
        // east and of those that move west are masked once each, and one
        // mask with the playable squares ends the expression.
        let eastward = set & self.off_last_file;
        let westward = set & self.off_first_file;
        let around = set.shift_up(width)
            | set.shift_down(width)
            | eastward.shift_up(1)
            | eastward.shift_up(width + 1)
            | eastward.shift_down(width - 1)
            | westward.shift_down(1)
            | westward.shift_down(width + 1)
            | westward.shift_up(width - 1);
        around & self.playable
    }

    /// The squares that pieces on `sources` slide over towards `direction`
    /// through `passable` squares, the sources included: an occluded
    /// (Kogge-Stone) fill, a few shift-and-mask rounds for the whole set
    /// instead of a walk per piece. Each passable square in the result is
    /// reached by exactly one source, the nearest one behind it, which is
    /// what bulk move counting relies on.
    #[inline]
    pub fn slide_fill(&self, sources: B, passable: B, direction: Direction) -> B {
        with_constant_direction!(direction, |d| self.slide_fill_towards(sources, passable, d))
    }

    #[inline(always)]
    fn slide_fill_towards(&self, sources: B, passable: B, direction: Direction) -> B {
        let longest_line = self.grid.width().max(self.grid.height()) as u32;
        let mut reached = sources;
        // `open` holds the squares from which `span` further steps stay on
        // passable squares; masking with the landing squares keeps a step
        // from wrapping across the edge files.
        let mut open = passable & self.landing(direction);
        let mut span = 1;
        loop {
            reached |= open & self.shift_unmasked(reached, direction, span);
            // `reached` now covers slides of up to 2 * span - 1 steps.
            if 2 * span >= longest_line {
                return reached;
            }
            open &= self.shift_unmasked(open, direction, span);
            span *= 2;
        }
    }

    /// Every square reachable from `start` by orthogonal steps through
    /// `passable` (the start squares are included whether passable or not).
    pub fn flood_fill(&self, start: B, passable: B) -> B {
        let mut reached = start;
        loop {
            let next = reached | (self.orthogonal_neighbours(reached) & passable);
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// The squares where a step towards `direction` may land.
    #[inline(always)]
    fn landing(&self, direction: Direction) -> B {
        match direction.delta().0 {
            1 => self.off_first_file,
            -1 => self.off_last_file,
            _ => self.playable,
        }
    }

    /// Every square of `set` moved `distance` steps towards `direction` as
    /// index arithmetic, wrapping across the edge files.
    #[inline(always)]
    fn shift_unmasked(&self, set: B, direction: Direction, distance: u32) -> B {
        let offset = self.grid.index_offset(direction);
        if offset > 0 {
            set.shift_up(offset as u32 * distance)
        } else {
            set.shift_down(offset.unsigned_abs() * distance)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_boards::{self, TestBoard};
    use super::*;

    /// The playable squares one step from `square`, found square by square.
    fn steps_from<B: Bitboard>(
        board: &TestBoard<B>,
        square: Square,
        directions: &[Direction],
    ) -> B {
        let mut set = B::EMPTY;
        for &direction in directions {
            if let Some(next) = board.grid.step(square, direction, 1)
                && board.playable.contains(next)
            {
                set = set.with(next);
            }
        }
        set
    }

    fn check_neighbours<B: Bitboard>(board: &TestBoard<B>, geometry: &Geometry<B>) {
        for square in board.squares() {
            let single = B::from_square(square);
            for direction in Direction::ALL {
                assert_eq!(
                    geometry.shift(single, direction),
                    steps_from(board, square, &[direction]),
                    "{} {square:?} {direction:?}",
                    board.name
                );
            }
            assert_eq!(
                geometry.orthogonal_neighbours(single),
                steps_from(board, square, &Direction::ORTHOGONAL)
            );
            assert_eq!(
                geometry.neighbours(single),
                steps_from(board, square, &Direction::ALL)
            );
        }
        for set in test_boards::occupancies(board) {
            let mut expected = B::EMPTY;
            for square in board.squares().filter(|&square| set.contains(square)) {
                expected |= steps_from(board, square, &Direction::ALL);
            }
            assert_eq!(geometry.neighbours(set), expected, "{}", board.name);
        }
    }

    /// The squares each source slides over, walked one square at a time.
    fn slide_walk<B: Bitboard>(
        board: &TestBoard<B>,
        sources: B,
        passable: B,
        direction: Direction,
    ) -> B {
        let mut reached = sources;
        for source in board.squares().filter(|&square| sources.contains(square)) {
            for next in board.line(source, direction) {
                if !passable.contains(next) {
                    break;
                }
                reached = reached.with(next);
            }
        }
        reached
    }

    fn check_fills<B: Bitboard>(board: &TestBoard<B>, geometry: &Geometry<B>) {
        let sets = test_boards::occupancies(board);
        for &sources in &sets {
            for &blocked in &sets {
                let passable = board.playable & !blocked & !sources;
                for direction in Direction::ALL {
                    assert_eq!(
                        geometry.slide_fill(sources, passable, direction),
                        slide_walk(board, sources, passable, direction),
                        "{} {direction:?}",
                        board.name
                    );
                }
            }
        }
        // From the first square, a flood through empty squares covers the
        // board, and a wall along the next file keeps it to the files up to
        // that square's.
        let first = board.squares().next().unwrap();
        let start = B::from_square(first);
        assert_eq!(geometry.flood_fill(start, board.playable), board.playable);
        let wall_file = board.grid.file(first) + 1;
        let mut wall = B::EMPTY;
        for square in board.squares().filter(|&s| board.grid.file(s) == wall_file) {
            wall = wall.with(square);
        }
        let behind_wall = board.squares().filter(|&s| board.grid.file(s) < wall_file);
        assert_eq!(
            geometry.flood_fill(start, board.playable & !wall).count() as usize,
            behind_wall.count()
        );
    }

    /// Neighbours by shifting against single steps, and fills against walks.
    fn check<B: Bitboard>(board: &TestBoard<B>, geometry: &Geometry<B>) {
        check_neighbours(board, geometry);
        check_fills(board, geometry);
    }

    #[test]
    fn shifts_and_fills_match_square_by_square_walks_on_every_test_board() {
        let tafl = test_boards::tafl();
        check(&tafl, &Geometry128::rectangle(tafl.grid));
        let chess = test_boards::stealth_chess();
        check(&chess, &Geometry128::rectangle(chess.grid));
        let middle = test_boards::stealth_chess_middle_files();
        check(&middle, &Geometry128::new(middle.grid, middle.playable));
        let octagon = test_boards::octagon();
        check(&octagon, &Geometry256::new(octagon.grid, octagon.playable));
        let sixteen = test_boards::sixteen();
        check(&sixteen, &Geometry256::rectangle(sixteen.grid));
    }

    #[test]
    fn files_and_edges() {
        let tafl = Geometry128::rectangle(Grid::new(11, 11));
        assert_eq!(tafl.edge().count(), 40);
        assert_eq!(tafl.file(0).count(), 11);
        assert_eq!(tafl.playable().count(), 121);
        let octagon = test_boards::octagon();
        let geometry = Geometry256::new(octagon.grid, octagon.playable);
        assert_eq!(geometry.edge().count(), 36);
        assert_eq!(geometry.file(0).count(), 5);
        assert_eq!(geometry.file(7).count(), 15);
        let middle = test_boards::stealth_chess_middle_files();
        let geometry = Geometry128::new(middle.grid, middle.playable);
        assert!(geometry.file(0).is_empty());
        assert_eq!(geometry.edge().count(), 2 * 8 + 2 * 6);
    }
}
