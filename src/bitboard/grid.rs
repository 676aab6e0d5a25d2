use super::Square;

/// One of the eight directions on a square grid. `North` is towards higher
/// ranks (higher square indices), `East` towards higher files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards higher ranks: square index up by the width.
    North,
    /// Towards higher files: square index up by one.
    East,
    /// Towards lower ranks.
    South,
    /// Towards lower files.
    West,
    /// One file east and one rank north.
    NorthEast,
    /// One file east and one rank south.
    SouthEast,
    /// One file west and one rank south.
    SouthWest,
    /// One file west and one rank north.
    NorthWest,
}

impl Direction {
    /// The four rook directions.
    pub const ORTHOGONAL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];
    /// The four bishop directions.
    pub const DIAGONAL: [Direction; 4] = [
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::NorthWest,
    ];
    /// All eight directions, orthogonal ones first.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::NorthWest,
    ];

    /// The position of this direction in [`Direction::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The change of (file, rank) for one step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
            Direction::NorthEast => (1, 1),
            Direction::SouthEast => (1, -1),
            Direction::SouthWest => (-1, -1),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// The direction pointing the other way.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::East => Direction::West,
            Direction::South => Direction::North,
            Direction::West => Direction::East,
            Direction::NorthEast => Direction::SouthWest,
            Direction::SouthEast => Direction::NorthWest,
            Direction::SouthWest => Direction::NorthEast,
            Direction::NorthWest => Direction::SouthEast,
        }
    }

    /// Whether a step this way increases the square index. Ray scans use it to
    /// pick the nearest blocker: the lowest set bit going up, the highest going down.
    pub const fn increases_index(self) -> bool {
        let (file, rank) = self.delta();
        rank > 0 || (rank == 0 && file > 0)
    }
}

/// The shape of a rectangular board: converts between square indices and
/// (file, rank) pairs and walks in directions without leaving the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    width: u8,
    height: u8,
}

impl Grid {
    /// A board `width` files wide and `height` ranks high (at most 256 squares).
    pub const fn new(width: u8, height: u8) -> Grid {
        assert!(width as usize * height as usize <= 256);
        Grid { width, height }
    }

    /// The number of files (columns).
    pub const fn width(self) -> u8 {
        self.width
    }

    /// The number of ranks (rows).
    pub const fn height(self) -> u8 {
        self.height
    }

    /// The number of squares.
    pub const fn len(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Whether the grid has no squares (never true for a real board).
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The square at `file`, `rank` (both from 0), if it is on the board.
    pub const fn square(self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.width as i32 || rank >= self.height as i32 {
            None
        } else {
            Some(Square::new((rank * self.width as i32 + file) as u8))
        }
    }

    /// The file of `square`, from 0 at the west edge.
    pub const fn file(self, square: Square) -> u8 {
        square.raw() % self.width
    }

    /// The rank of `square`, from 0 at the south edge.
    pub const fn rank(self, square: Square) -> u8 {
        square.raw() / self.width
    }

    /// The square `distance` steps from `square` towards `direction`, if on the board.
    pub const fn step(self, square: Square, direction: Direction, distance: i32) -> Option<Square> {
        let (df, dr) = direction.delta();
        self.square(
            self.file(square) as i32 + df as i32 * distance,
            self.rank(square) as i32 + dr as i32 * distance,
        )
    }

    /// The change of square index for one step towards `direction` (ignoring
    /// the board's edges: a step east from the last file lands on the first
    /// file of the next rank).
    pub const fn index_offset(self, direction: Direction) -> i32 {
        let (file, rank) = direction.delta();
        rank as i32 * self.width as i32 + file as i32
    }

    /// The number of king steps between two squares: the larger of the file
    /// and rank differences. Along a line it is the distance travelled.
    #[inline]
    pub const fn distance(self, a: Square, b: Square) -> u8 {
        let files = self.file(a).abs_diff(self.file(b));
        let ranks = self.rank(a).abs_diff(self.rank(b));
        if files > ranks { files } else { ranks }
    }

    /// The direction from `from` to `to` if they differ and lie on one rank,
    /// file or diagonal.
    pub fn direction_between(self, from: Square, to: Square) -> Option<Direction> {
        let files = self.file(to) as i32 - self.file(from) as i32;
        let ranks = self.rank(to) as i32 - self.rank(from) as i32;
        if (files, ranks) == (0, 0) || (files != 0 && ranks != 0 && files.abs() != ranks.abs()) {
            return None;
        }
        let unit = (files.signum() as i8, ranks.signum() as i8);
        Direction::ALL
            .into_iter()
            .find(|direction| direction.delta() == unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: Grid = Grid::new(15, 15);

    fn sq(file: i32, rank: i32) -> Square {
        GRID.square(file, rank).unwrap()
    }

    #[test]
    fn one_step_changes_the_index_by_the_offset_away_from_the_edges() {
        let centre = sq(7, 7);
        for direction in Direction::ALL {
            let next = GRID.step(centre, direction, 1).unwrap();
            assert_eq!(
                next.index() as i32 - centre.index() as i32,
                GRID.index_offset(direction),
                "{direction:?}"
            );
        }
    }

    #[test]
    fn directions_between_squares_follow_lines_only() {
        let (a6, d6) = (sq(0, 5), sq(3, 5));
        assert_eq!(GRID.direction_between(a6, d6), Some(Direction::East));
        assert_eq!(GRID.direction_between(d6, a6), Some(Direction::West));
        assert_eq!(
            GRID.direction_between(a6, sq(2, 7)),
            Some(Direction::NorthEast)
        );
        assert_eq!(GRID.direction_between(a6, sq(2, 8)), None);
        assert_eq!(GRID.direction_between(a6, a6), None);
        for direction in Direction::ALL {
            for distance in 1..=7 {
                let to = GRID.step(sq(7, 7), direction, distance).unwrap();
                assert_eq!(GRID.direction_between(sq(7, 7), to), Some(direction));
                assert_eq!(GRID.distance(sq(7, 7), to), distance as u8);
            }
        }
        assert_eq!(GRID.distance(a6, sq(2, 8)), 3);
    }
}
