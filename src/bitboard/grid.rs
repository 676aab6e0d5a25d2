use super::{Bitboard128, Square};

/// One of the eight directions on a square grid. `North` is towards higher
/// ranks (higher square indices), `East` towards higher files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    North,
    East,
    South,
    West,
    NorthEast,
    SouthEast,
    SouthWest,
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

    pub const fn width(self) -> u8 {
        self.width
    }

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

    pub const fn file(self, square: Square) -> u8 {
        square.raw() % self.width
    }

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

    /// Every square of the board.
    pub const fn all_squares_128(self) -> Bitboard128 {
        Bitboard128::first_n(self.len())
    }

    /// The squares on the outermost files and ranks.
    pub const fn edge_128(self) -> Bitboard128 {
        let mut edge = Bitboard128::EMPTY;
        let mut index = 0;
        while index < self.len() {
            let square = Square::new(index as u8);
            let (file, rank) = (self.file(square), self.rank(square));
            if file == 0 || rank == 0 || file == self.width - 1 || rank == self.height - 1 {
                edge = edge.with(square);
            }
            index += 1;
        }
        edge
    }
}

/// For every square and direction, the squares beyond it up to the board's
/// edge: the tables behind sliding moves on boards of up to 128 squares.
pub struct Rays128 {
    rays: [[Bitboard128; 128]; 8],
}

impl Rays128 {
    pub const fn new(grid: Grid) -> Rays128 {
        let mut rays = [[Bitboard128::EMPTY; 128]; 8];
        let mut d = 0;
        while d < 8 {
            let direction = Direction::ALL[d];
            let mut index = 0;
            while index < grid.len() {
                let mut ray = Bitboard128::EMPTY;
                let mut distance = 1;
                while let Some(target) = grid.step(Square::new(index as u8), direction, distance) {
                    ray = ray.with(target);
                    distance += 1;
                }
                rays[d][index] = ray;
                index += 1;
            }
            d += 1;
        }
        Rays128 { rays }
    }

    /// The squares beyond `square` towards `direction`, up to the edge.
    #[inline]
    pub const fn ray(&self, direction: Direction, square: Square) -> Bitboard128 {
        self.rays[direction.index()][square.index()]
    }

    /// The squares a slider on `square` sees towards `direction`: the empty
    /// ones and the first occupied one.
    #[inline]
    pub fn attacks(
        &self,
        direction: Direction,
        square: Square,
        occupied: Bitboard128,
    ) -> Bitboard128 {
        let ray = self.ray(direction, square);
        let blockers = ray & occupied;
        let nearest = if direction.increases_index() {
            blockers.lowest()
        } else {
            blockers.highest()
        };
        match nearest {
            Some(blocker) => ray ^ self.ray(direction, blocker),
            None => ray,
        }
    }

    /// The squares a rook on `square` sees.
    #[inline]
    pub fn rook_attacks(&self, square: Square, occupied: Bitboard128) -> Bitboard128 {
        self.attacks(Direction::North, square, occupied)
            | self.attacks(Direction::East, square, occupied)
            | self.attacks(Direction::South, square, occupied)
            | self.attacks(Direction::West, square, occupied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRID: Grid = Grid::new(11, 11);
    static RAYS: Rays128 = Rays128::new(GRID);

    fn sq(file: i32, rank: i32) -> Square {
        GRID.square(file, rank).unwrap()
    }

    #[test]
    fn rays_stop_at_the_edge_without_wrapping() {
        assert_eq!(RAYS.ray(Direction::East, sq(9, 0)).count(), 1);
        assert_eq!(RAYS.ray(Direction::East, sq(10, 0)).count(), 0);
        assert_eq!(RAYS.ray(Direction::NorthWest, sq(0, 5)).count(), 0);
        assert_eq!(RAYS.ray(Direction::North, sq(3, 3)).count(), 7);
    }

    #[test]
    fn attacks_include_the_first_blocker_in_each_direction() {
        let occupied = Bitboard128::from_squares(&[sq(5, 8), sq(5, 2), sq(1, 5)]);
        let attacks = RAYS.rook_attacks(sq(5, 5), occupied);
        let expected: Bitboard128 = [
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
        ]
        .into_iter()
        .collect();
        assert_eq!(attacks, expected);
    }

    #[test]
    fn edge_of_an_eleven_board_has_forty_squares() {
        assert_eq!(GRID.edge_128().count(), 40);
    }
}
