//! What the two Thud games' encodings share: a move along one of the eight
//! lines of the 15x15 board as one id, and the planes of the board.
//!
//! Every move of both games (a dwarf's queen move or hurl, a troll's step,
//! shove or move, the Rock's push, a trample's first jump) goes from a
//! square along one line: id `(from * 8 + direction) * 14 + distance - 1`,
//! with the 225 squares of the 15x15 grid (the cut-off corners included, so
//! that the id reads off the square's index) and the directions in the
//! order of [`Direction::ALL`]: 25,200 ids.

use super::board::{GRID, SIZE, square_name};
use crate::bitboard::{Bitboard256, Direction, Square};

/// The longest move along a line.
const MAX_DISTANCE: u32 = SIZE as u32 - 1;

/// The number of line ids.
pub(super) const LINE_IDS: u32 = GRID.len() as u32 * 8 * MAX_DISTANCE;

/// The place in [`Direction::ALL`] of the direction whose step has the
/// signs `[file sign + 1][rank sign + 1]` (the middle entry, no step, is
/// not a direction). Listing a position's legal ids computes the id of
/// every legal move, so the direction is looked up rather than searched.
const DIRECTION_PLACE: [[u8; 3]; 3] = direction_places();

const fn direction_places() -> [[u8; 3]; 3] {
    let mut places = [[0; 3]; 3];
    let mut place = 0;
    while place < Direction::ALL.len() {
        let (x, y) = Direction::ALL[place].delta();
        places[(x + 1) as usize][(y + 1) as usize] = place as u8;
        place += 1;
    }
    places
}

/// The id of the move from `from` to `to`, which lie on one line.
///
/// # Panics
/// If the two squares are the same or share no line.
pub(super) fn line_id(from: Square, to: Square) -> u32 {
    let (df, dr) = (
        i32::from(GRID.file(to)) - i32::from(GRID.file(from)),
        i32::from(GRID.rank(to)) - i32::from(GRID.rank(from)),
    );
    let distance = df.abs().max(dr.abs());
    assert!(
        distance > 0 && (df == 0 || dr == 0 || df.abs() == dr.abs()),
        "a Thud move goes along a line"
    );
    let direction = DIRECTION_PLACE[(df.signum() + 1) as usize][(dr.signum() + 1) as usize];
    (from.index() as u32 * 8 + u32::from(direction)) * MAX_DISTANCE + distance as u32 - 1
}

/// The squares of a line id: its from-square and where the line ends, if
/// that is on the grid.
pub(super) fn line_squares(id: u32) -> (Square, Option<Square>) {
    let distance = (id % MAX_DISTANCE + 1) as i32;
    let direction = Direction::ALL[(id / MAX_DISTANCE % 8) as usize];
    let from = Square::new((id / MAX_DISTANCE / 8) as u8);
    (from, GRID.step(from, direction, distance))
}

/// A line id as text: `from-to`, or `from:id` where the line leaves the
/// board (no move has such an id).
pub(super) fn line_name(id: u32) -> String {
    match line_squares(id) {
        (from, Some(to)) => format!("{}-{}", square_name(from), square_name(to)),
        (from, None) => format!("{}:{id}", square_name(from)),
    }
}

/// Marks the squares of `set` with ones in a 15x15 plane.
pub(super) fn fill_plane(plane: &mut [f32], set: Bitboard256) {
    for square in set.squares() {
        plane[square.index()] = 1.0;
    }
}

/// The shape of an observation of `planes` planes of the board.
pub(super) fn observation_shape(planes: usize) -> Vec<usize> {
    vec![planes, GRID.height() as usize, GRID.width() as usize]
}

/// Splits an observation `out` into its planes and fills the first three
/// with the dwarfs, the trolls and the `rock` (the Thudstone or the Rock);
/// the planes after them are left to the game.
pub(super) fn piece_planes(
    out: &mut [f32],
    dwarfs: Bitboard256,
    trolls: Bitboard256,
    rock: Square,
) -> std::slice::ChunksExactMut<'_, f32> {
    let mut planes = out.chunks_exact_mut(GRID.len());
    for set in [dwarfs, trolls, Bitboard256::EMPTY.with(rock)] {
        fill_plane(planes.next().expect("a plane per piece"), set);
    }
    planes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_move_has_its_own_id_which_gives_back_its_squares() {
        let mut seen = std::collections::HashSet::new();
        for index in 0..GRID.len() {
            let from = Square::new(index as u8);
            for direction in Direction::ALL {
                for distance in 1..=MAX_DISTANCE as i32 {
                    let Some(to) = GRID.step(from, direction, distance) else {
                        continue;
                    };
                    let id = line_id(from, to);
                    assert!(id < LINE_IDS && seen.insert(id), "{from:?} to {to:?}");
                    assert_eq!(line_squares(id), (from, Some(to)));
                }
            }
        }
    }
}
