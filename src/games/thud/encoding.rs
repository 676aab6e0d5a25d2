//! What the two Thud games' encodings share: a move along one of the eight
//! lines of the 15x15 board as one id, and the planes of the board.
//!
//! Every move of both games (a dwarf's queen move or hurl, a troll's step,
//! shove or move, the Rock's push, a trample's first jump) goes from a
//! square along one line: id `(from * 8 + direction) * 14 + distance - 1`,
//! with the 225 squares of the 15x15 grid (the cut-off corners included, so
//! that the id reads off the square's index) and the directions in the
//! order of [`Direction::ALL`]: 25,200 ids.

use super::board::{CENTRE, GRID, SIZE, square_name};
use crate::bitboard::{Bitboard256, Direction, Square};
use crate::core::{BoardSymmetry, Symmetry};

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

/// The board's symmetries but the identity that map every square of
/// `fixed` (what the rules single out by place: Koom Valley's goal) onto
/// one of them. The octagon and its centre are the same under all eight.
pub(super) fn board_symmetries(fixed: Bitboard256) -> Vec<BoardSymmetry> {
    BoardSymmetry::ALL[1..]
        .iter()
        .copied()
        .filter(|symmetry| {
            fixed
                .squares()
                .all(|square| fixed.contains(mapped_square(*symmetry, square)))
        })
        .collect()
}

/// Where `square` goes under `symmetry`.
fn mapped_square(symmetry: BoardSymmetry, square: Square) -> Square {
    Square::new(symmetry.square(SIZE as usize, square.index()) as u8)
}

/// The place in [`Direction::ALL`] of the image of each direction under
/// `symmetry`.
pub(super) fn mapped_directions(symmetry: BoardSymmetry) -> [u8; 8] {
    Direction::ALL.map(|direction| {
        let step = GRID
            .step(CENTRE, direction, 1)
            .expect("the centre has all eight neighbours");
        let image = mapped_square(symmetry, step);
        let (df, dr) = (
            i32::from(GRID.file(image)) - i32::from(GRID.file(CENTRE)),
            i32::from(GRID.rank(image)) - i32::from(GRID.rank(CENTRE)),
        );
        DIRECTION_PLACE[(df + 1) as usize][(dr + 1) as usize]
    })
}

/// The image of line id `id` under `symmetry`: the line from the image of
/// its square, towards the image of its direction, as far.
pub(super) fn mapped_line(symmetry: BoardSymmetry, directions: &[u8; 8], id: u32) -> u32 {
    let distance = id % MAX_DISTANCE;
    let direction = directions[(id / MAX_DISTANCE % 8) as usize];
    let from = mapped_square(symmetry, Square::new((id / MAX_DISTANCE / 8) as u8));
    (from.index() as u32 * 8 + u32::from(direction)) * MAX_DISTANCE + distance
}

/// The symmetry of observations of `planes` planes under `symmetry`, its
/// actions mapped by `actions`.
pub(super) fn plane_symmetry(
    planes: usize,
    symmetry: BoardSymmetry,
    actions: Vec<u32>,
) -> Symmetry {
    Symmetry::of_planes(planes, SIZE as usize, symmetry, actions)
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

#[cfg(test)]
mod symmetry_tests {
    use super::*;
    use crate::core::{ActionPath, Encoding, Game, MoveList, Notation};
    use crate::games::thud::setup::ThudSetup;
    use crate::games::thud::{KoomValley, Thud};
    use crate::testing::playout_states;

    /// The image of a set of squares under `symmetry`.
    fn mapped_set(symmetry: BoardSymmetry, set: Bitboard256) -> Bitboard256 {
        set.squares().fold(Bitboard256::EMPTY, |image, square| {
            image.with(mapped_square(symmetry, square))
        })
    }

    /// Every legal move's decisions, sorted.
    fn paths<G: Encoding>(state: &G) -> Vec<Vec<u32>> {
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        let mut path = ActionPath::new();
        let mut paths: Vec<Vec<u32>> = moves
            .iter()
            .map(|&mv| {
                path.clear();
                state.action_path(mv, &mut path);
                path.as_slice().to_vec()
            })
            .collect();
        paths.sort_unstable();
        paths
    }

    /// Checks each declared symmetry on positions of random games from
    /// `start`: the image of a position (its pieces moved square by
    /// square) has as its moves the images of the position's moves, and
    /// its observation, with a move's first decision under way or none,
    /// is the position's with its entries moved.
    fn check<G: Encoding + Notation<Setup = ThudSetup>>(start: &G, expected: &[BoardSymmetry]) {
        let declared = G::symmetries(start.rules());
        assert_eq!(declared.len(), expected.len());
        let size: usize = G::observation_shape(start.rules()).iter().product();
        for state in playout_states(start, 4, 120, 11).into_iter().step_by(3) {
            if state.status().is_over() {
                continue;
            }
            let paths = paths(&state);
            for (symmetry, encoded) in expected.iter().zip(&declared) {
                let setup = state.setup();
                let image_setup = ThudSetup {
                    dwarfs: mapped_set(*symmetry, setup.dwarfs),
                    trolls: mapped_set(*symmetry, setup.trolls),
                    rock: setup.rock.map(|rock| mapped_square(*symmetry, rock)),
                    ..setup
                };
                let image = G::from_setup(&image_setup, start.rules().clone()).unwrap();
                let map = |path: &Vec<u32>| -> Vec<u32> {
                    path.iter()
                        .map(|&id| encoded.actions[id as usize])
                        .collect()
                };
                let mut mapped: Vec<Vec<u32>> = paths.iter().map(map).collect();
                mapped.sort_unstable();
                assert_eq!(mapped, super::symmetry_tests::paths(&image), "{symmetry:?}");
                let mut pendings = vec![Vec::new()];
                pendings.extend(
                    paths
                        .iter()
                        .filter(|path| path.len() > 1)
                        .map(|path| path[..1].to_vec()),
                );
                for pending in pendings.iter().take(3) {
                    let (mut seen, mut image_seen) = (vec![0.0; size], vec![0.0; size]);
                    state.write_observation(0, pending, &mut seen);
                    image.write_observation(0, &map(pending), &mut image_seen);
                    let moved: Vec<f32> = encoded
                        .observation
                        .iter()
                        .map(|&from| seen[from as usize])
                        .collect();
                    assert_eq!(moved, image_seen, "{symmetry:?} with {pending:?} under way");
                }
            }
        }
    }

    #[test]
    fn thud_has_the_octagons_eight_symmetries() {
        check(&Thud::new(Default::default()), &BoardSymmetry::ALL[1..]);
    }

    #[test]
    fn koom_valley_has_only_the_mirror_that_keeps_its_goal() {
        check(
            &KoomValley::new(Default::default()),
            &[BoardSymmetry::MirrorFiles],
        );
    }
}
