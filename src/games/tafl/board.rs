//! The boards: the square names of any size from 7x7 to 19x19, the sides,
//! and for each size and set width the tables the move generator reads
//! (rays, neighbours, the edge), built once when a size is first played.

use super::bits::{Bits, Words};
use crate::core::{ParseError, two_sides};
use std::sync::OnceLock;

/// The smallest board side.
pub const MIN_DIM: usize = 7;
/// The largest board side.
pub const MAX_DIM: usize = 19;
/// The most squares of any board.
pub const MAX_SQUARES: usize = MAX_DIM * MAX_DIM;
/// The file letters, `a` to `s`: no letter is skipped.
const FILES: &[u8; MAX_DIM] = b"abcdefghijklmnopqrs";

two_sides! {
    /// The two sides: the attackers (black) and the defenders (white), whose
    /// king tries to escape.
    pub enum Side {
        Attackers = "attackers" | "attacker" | "a" | "black" | "b",
        Defenders = "defenders" | "defender" | "d" | "white" | "w",
    }
}

/// The four directions a piece slides in: north (towards higher ranks),
/// east, south and west, in the order of the tables.
pub(crate) const DIRECTIONS: usize = 4;

/// Whether a step in direction `d` raises the square index.
#[inline(always)]
pub(crate) const fn increases(d: usize) -> bool {
    d < 2
}

/// The direction opposite `d`.
#[inline(always)]
pub(crate) const fn opposite(d: usize) -> usize {
    (d + 2) % DIRECTIONS
}

/// The name of square `index` on a board of side `dim`, such as `f6`.
pub fn square_name(dim: usize, index: usize) -> String {
    format!("{}{}", FILES[index % dim] as char, index / dim + 1)
}

/// Reads a square name on a board of side `dim`: a lower-case file letter
/// and a rank from 1.
///
/// # Errors
/// A name that is not of that form or a square off the board.
pub fn parse_square(dim: usize, text: &str) -> Result<usize, ParseError> {
    let bad = |problem: String| ParseError::new("square", text, problem);
    let mut chars = text.chars();
    let letter = chars
        .next()
        .ok_or_else(|| bad("empty square name".into()))?;
    let last = FILES[dim - 1] as char;
    let file = FILES[..dim]
        .iter()
        .position(|&file| file as char == letter)
        .ok_or_else(|| bad(format!("the file must be a letter from a to {last}")))?;
    let digits = chars.as_str();
    let rank = digits
        .parse::<usize>()
        .ok()
        .filter(|rank| (1..=dim).contains(rank) && digits.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| bad(format!("the rank must be a number from 1 to {dim}")))?;
    Ok((rank - 1) * dim + file)
}

/// A board side for which there is no table: outside 7..19 or even.
pub(crate) fn check_dim(dim: usize) -> Result<(), String> {
    if (MIN_DIM..=MAX_DIM).contains(&dim) && dim % 2 == 1 {
        Ok(())
    } else {
        Err(format!(
            "the board side must be odd, from {MIN_DIM} to {MAX_DIM}, not {dim}"
        ))
    }
}

/// The squares next to `index` in each direction, `NONE` past the edge.
pub(crate) const NONE: u16 = u16::MAX;

/// The tables of one board size for sets of width `B`.
pub struct Geometry<B> {
    /// The board side.
    pub dim: usize,
    /// Every square of the board.
    pub all: B,
    /// The squares of the outermost ring.
    pub edge: B,
    /// The squares off the first file (where an eastward step may land).
    pub off_first_file: B,
    /// The squares off the last file (where a westward step may land).
    pub off_last_file: B,
    /// For every square and direction, the squares beyond it to the edge.
    rays: Box<[[B; DIRECTIONS]]>,
    /// For every square, its neighbour in each direction (`NONE` off the board).
    neighbours: Box<[[u16; DIRECTIONS]]>,
}

impl<B: Bits> Geometry<B> {
    /// Builds the tables of a `dim` x `dim` board.
    fn new(dim: usize) -> Geometry<B> {
        let len = dim * dim;
        assert!(len <= B::CAPACITY);
        let step = |index: usize, d: usize| -> Option<usize> {
            let (file, rank) = (index % dim, index / dim);
            match d {
                0 if rank + 1 < dim => Some(index + dim),
                1 if file + 1 < dim => Some(index + 1),
                2 if rank > 0 => Some(index - dim),
                3 if file > 0 => Some(index - 1),
                _ => None,
            }
        };
        let mut rays = vec![[B::EMPTY; DIRECTIONS]; len].into_boxed_slice();
        let mut neighbours = vec![[NONE; DIRECTIONS]; len].into_boxed_slice();
        for index in 0..len {
            for d in 0..DIRECTIONS {
                neighbours[index][d] = step(index, d).map_or(NONE, |next| next as u16);
                let mut cursor = index;
                while let Some(next) = step(cursor, d) {
                    rays[index][d] = rays[index][d].with(next);
                    cursor = next;
                }
            }
        }
        let all = B::of(0..len);
        let edge = B::of((0..len).filter(|&i| {
            let (file, rank) = (i % dim, i / dim);
            file == 0 || rank == 0 || file == dim - 1 || rank == dim - 1
        }));
        Geometry {
            dim,
            all,
            edge,
            off_first_file: B::of((0..len).filter(|&i| i % dim != 0)),
            off_last_file: B::of((0..len).filter(|&i| i % dim != dim - 1)),
            rays,
            neighbours,
        }
    }

    /// The number of squares.
    #[inline]
    pub fn len(&self) -> usize {
        self.dim * self.dim
    }

    /// The neighbour of `index` in direction `d`, if on the board.
    #[inline(always)]
    pub fn neighbour(&self, index: usize, d: usize) -> Option<usize> {
        let next = self.neighbours[index][d];
        (next != NONE).then_some(next as usize)
    }

    /// The squares a rook on `from` reaches when `blockers` stop it: every
    /// square up to and including the first blocker in each direction.
    #[inline(always)]
    pub fn slide(&self, from: usize, blockers: B) -> B {
        let rays = &self.rays[from];
        let mut reach = B::EMPTY;
        for (d, &ray) in rays.iter().enumerate() {
            let hits = ray & blockers;
            reach |= if hits.is_empty() {
                ray
            } else {
                let first = if increases(d) {
                    hits.lowest()
                } else {
                    hits.highest()
                };
                ray ^ self.rays[first][d]
            };
        }
        reach
    }

    /// The squares orthogonally next to a square of `set`.
    #[inline]
    pub fn around(&self, set: B) -> B {
        let dim = self.dim as u32;
        ((set & self.off_last_file).up(1)
            | (set & self.off_first_file).down(1)
            | set.up(dim)
            | set.down(dim))
            & self.all
    }

    /// Every square of `set` moved `span` steps in direction `d`, as index
    /// arithmetic (a step east from the last file wraps onto the next
    /// rank's first file: callers mask the landing squares).
    #[inline(always)]
    fn shift(&self, set: B, d: usize, span: u32) -> B {
        let dim = self.dim as u32;
        match d {
            0 => set.up(dim * span),
            1 => set.up(span),
            2 => set.down(dim * span),
            _ => set.down(span),
        }
    }

    /// The squares a step in direction `d` may land on without wrapping.
    #[inline(always)]
    fn landing(&self, d: usize) -> B {
        match d {
            1 => self.off_first_file,
            3 => self.off_last_file,
            _ => self.all,
        }
    }

    /// The squares pieces on `sources` slide over in direction `d` through
    /// `passable` squares, the sources included: an occluded
    /// (Kogge-Stone) fill, a few shift-and-mask rounds for the whole set.
    /// Each passable square reached is reached by exactly one source, the
    /// nearest behind it, which is what counting moves in bulk relies on.
    #[inline]
    pub fn slide_fill(&self, sources: B, passable: B, d: usize) -> B {
        let mut reached = sources;
        let mut open = passable & self.landing(d);
        let mut span = 1;
        loop {
            reached |= open & self.shift(reached, d, span);
            // `reached` now covers slides of up to 2 * span - 1 steps.
            if 2 * span as usize >= self.dim {
                return reached;
            }
            open &= self.shift(open, d, span);
            span *= 2;
        }
    }

    /// The squares one step from a square of `set` in direction `d`.
    #[inline]
    pub fn step(&self, set: B, d: usize) -> B {
        self.shift(set, d, 1) & self.landing(d)
    }

    /// Every square reachable from `start` by orthogonal steps through
    /// `passable` (the start squares included).
    pub fn flood(&self, start: B, passable: B) -> B {
        let mut reached = start;
        loop {
            let next = reached | (self.around(reached) & passable);
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }
}

/// A set width with the tables of every board size it holds, built when a
/// size is first used.
pub trait Width: Bits {
    /// The tables of the `dim` x `dim` board (`dim` odd, and the board
    /// within this width).
    fn geometry(dim: usize) -> &'static Geometry<Self>;
}

macro_rules! width_tables {
    ($bits:ty) => {
        impl Width for $bits {
            fn geometry(dim: usize) -> &'static Geometry<Self> {
                static TABLES: [OnceLock<Geometry<$bits>>; (MAX_DIM - MIN_DIM) / 2 + 1] =
                    [const { OnceLock::new() }; (MAX_DIM - MIN_DIM) / 2 + 1];
                TABLES[(dim - MIN_DIM) / 2].get_or_init(|| Geometry::new(dim))
            }
        }
    };
}

width_tables!(u64);
width_tables!(u128);
width_tables!(Words<4>);
width_tables!(Words<6>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_every_board() {
        for dim in (MIN_DIM..=MAX_DIM).step_by(2) {
            for index in 0..dim * dim {
                assert_eq!(parse_square(dim, &square_name(dim, index)).unwrap(), index);
            }
        }
        assert_eq!(square_name(19, 360), "s19");
        assert_eq!(square_name(7, 24), "d4");
        for bad in [
            "",
            "h1",
            "a8",
            "a0",
            "A1",
            "a+1",
            "a01x",
            "é1",
            "a99999999999999999999",
        ] {
            assert!(parse_square(7, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn slides_stop_at_the_first_blocker_and_rays_at_the_edge() {
        let geometry = <u128 as Width>::geometry(9);
        let e5 = parse_square(9, "e5").unwrap();
        assert_eq!(geometry.slide(e5, 0).count(), 16);
        let blockers = u128::of([
            parse_square(9, "e7").unwrap(),
            parse_square(9, "b5").unwrap(),
        ]);
        // North: e6 e7; east: f5..i5; south: e4..e1; west: d5 c5 b5.
        assert_eq!(geometry.slide(e5, blockers).count(), 2 + 4 + 4 + 3);
        assert_eq!(geometry.edge.count(), 32);
        let a1 = 0;
        assert_eq!(geometry.neighbour(a1, 3), None);
        assert_eq!(geometry.around(u128::bit(a1)).count(), 2);
        let big = <Words<6> as Width>::geometry(19);
        assert_eq!(big.all.count(), 361);
        assert_eq!(big.slide(180, Words::EMPTY).count(), 36);
    }

    /// Bulk fills agree with each piece's own slides on every board width.
    fn check_fills<B: Width>(dim: usize) {
        let geometry = B::geometry(dim);
        let len = dim * dim;
        // Scattered pieces and blockers, changing with the board.
        let sources = B::of((0..len).filter(|i| i % 7 == 3));
        let blocked = B::of((0..len).filter(|i| i % 5 == 1));
        let passable = geometry.all & !sources & !blocked;
        for d in 0..DIRECTIONS {
            let mut walked = sources;
            for from in sources.squares() {
                let mut cursor = from;
                while let Some(next) = geometry.neighbour(cursor, d) {
                    if !passable.has(next) {
                        break;
                    }
                    walked = walked.with(next);
                    cursor = next;
                }
            }
            assert_eq!(
                geometry.slide_fill(sources, passable, d),
                walked,
                "{dim} {d}"
            );
            let stepped = B::of(
                sources
                    .squares()
                    .filter_map(|from| geometry.neighbour(from, d)),
            );
            assert_eq!(geometry.step(sources, d), stepped, "{dim} {d}");
        }
    }

    #[test]
    fn bulk_fills_match_square_by_square_walks() {
        check_fills::<u64>(7);
        check_fills::<u128>(9);
        check_fills::<u128>(11);
        check_fills::<Words<4>>(13);
        check_fills::<Words<4>>(15);
        check_fills::<Words<6>>(17);
        check_fills::<Words<6>>(19);
    }
}
