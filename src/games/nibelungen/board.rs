//! The board: fifteen points on a triangular grid with five points on each
//! edge, the lines that join them, its sixteen small triangles and its three
//! castles, all computed once at compile time.
//!
//! A point is an index `0..15`, row by row from the apex: point `(row, k)`
//! (row `0..5` from the apex, `k = 0..=row` from the west) is
//! `row * (row + 1) / 2 + k`. Sets of points are bits of a `u16`.

/// The number of rows, and of points on each edge.
pub const ROWS: u8 = 5;

/// The number of points.
pub const POINTS: usize = 15;

/// The index of point `(row, k)`.
pub const fn point(row: u8, k: u8) -> u8 {
    row * (row + 1) / 2 + k
}

/// The bit of `point` in a set of points.
#[inline]
pub const fn bit(point: u8) -> u16 {
    1 << point
}

/// The row and the position within the row of every point.
pub const COORDINATES: [(u8, u8); POINTS] = {
    let mut coordinates = [(0, 0); POINTS];
    let mut row = 0;
    while row < ROWS {
        let mut k = 0;
        while k <= row {
            coordinates[point(row, k) as usize] = (row, k);
            k += 1;
        }
        row += 1;
    }
    coordinates
};

/// The points joined to each point by a grid line: `(r,k)` is joined to
/// `(r,k±1)`, `(r±1,k)` and `(r±1,k±1)` (both signs the same) where those
/// points exist.
pub const NEIGHBOURS: [u16; POINTS] = {
    let mut neighbours = [0; POINTS];
    let mut row = 0;
    while row < ROWS {
        let mut k = 0;
        while k <= row {
            let here = point(row, k);
            let mut joined = [None; 3];
            if k < row {
                joined[0] = Some(point(row, k + 1));
            }
            if row + 1 < ROWS {
                joined[1] = Some(point(row + 1, k));
                joined[2] = Some(point(row + 1, k + 1));
            }
            let mut i = 0;
            while i < 3 {
                if let Some(there) = joined[i] {
                    neighbours[here as usize] |= bit(there);
                    neighbours[there as usize] |= bit(here);
                }
                i += 1;
            }
            k += 1;
        }
        row += 1;
    }
    neighbours
};

/// The sixteen small triangles (three mutually adjacent points): ten point
/// up, `(r,k) (r+1,k) (r+1,k+1)`, and six point down,
/// `(r,k) (r,k+1) (r+1,k+1)`.
pub const SMALL_TRIANGLES: [u16; 16] = {
    let mut triangles = [0; 16];
    let mut count = 0;
    let mut row = 0;
    while row + 1 < ROWS {
        let mut k = 0;
        while k <= row {
            triangles[count] =
                bit(point(row, k)) | bit(point(row + 1, k)) | bit(point(row + 1, k + 1));
            count += 1;
            if k < row {
                triangles[count] =
                    bit(point(row, k)) | bit(point(row, k + 1)) | bit(point(row + 1, k + 1));
                count += 1;
            }
            k += 1;
        }
        row += 1;
    }
    triangles
};

/// A castle: the three points of a corner of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Castle {
    /// The castle's name: `Isen`, `Xanten` or `Worms`.
    pub name: &'static str,
    /// Its three points as a set (bit `i` is point `i`).
    pub points: u16,
}

/// Isen (the apex), Xanten (the west corner) and Worms (the east corner).
pub const CASTLES: [Castle; 3] = [
    Castle {
        name: "Isen",
        points: bit(point(0, 0)) | bit(point(1, 0)) | bit(point(1, 1)),
    },
    Castle {
        name: "Xanten",
        points: bit(point(4, 0)) | bit(point(3, 0)) | bit(point(4, 1)),
    },
    Castle {
        name: "Worms",
        points: bit(point(4, 4)) | bit(point(3, 3)) | bit(point(4, 3)),
    },
];

/// Every point of every castle.
pub const CASTLE_POINTS: u16 = CASTLES[0].points | CASTLES[1].points | CASTLES[2].points;

/// The small triangles without a castle point: where Gunther and Hagen can
/// murder Siegfried (the four central ones).
pub const MURDER_TRIANGLES: [u16; 4] = {
    let mut found = [0; 4];
    let mut count = 0;
    let mut i = 0;
    while i < SMALL_TRIANGLES.len() {
        if SMALL_TRIANGLES[i] & CASTLE_POINTS == 0 {
            found[count] = SMALL_TRIANGLES[i];
            count += 1;
        }
        i += 1;
    }
    assert!(count == 4, "the grid has four castle-free small triangles");
    found
};

/// The number of steps between two points along the grid lines (ignoring
/// the pieces): the grid's steps change the row, the position in the row, or
/// both by one in the same direction.
pub const DISTANCE: [[u8; POINTS]; POINTS] = {
    let mut distance = [[0; POINTS]; POINTS];
    let mut from = 0;
    while from < POINTS {
        let mut to = 0;
        while to < POINTS {
            let rows = COORDINATES[to].0 as i8 - COORDINATES[from].0 as i8;
            let ks = COORDINATES[to].1 as i8 - COORDINATES[from].1 as i8;
            let (rows_abs, ks_abs) = (rows.unsigned_abs(), ks.unsigned_abs());
            distance[from][to] = if (rows >= 0) == (ks >= 0) {
                if rows_abs > ks_abs { rows_abs } else { ks_abs }
            } else {
                rows_abs + ks_abs
            };
            to += 1;
        }
        from += 1;
    }
    distance
};

/// The points of a set, lowest first.
pub fn points_of(set: u16) -> impl Iterator<Item = u8> {
    (0..POINTS as u8).filter(move |&point| set & bit(point) != 0)
}

/// A point's name `rk`: its row from the apex and its place in the row,
/// e.g. `00` for the apex and `44` for the east corner.
pub fn point_name(point: u8) -> String {
    let (row, k) = COORDINATES[point as usize];
    format!("{row}{k}")
}

/// Reads a point's name `rk`; `None` unless it names a point of the grid.
pub fn parse_point(text: &str) -> Option<u8> {
    let &[row, k] = text.as_bytes() else {
        return None;
    };
    let (row, k) = (row.wrapping_sub(b'0'), k.wrapping_sub(b'0'));
    (row < ROWS && k <= row).then(|| point(row, k))
}
