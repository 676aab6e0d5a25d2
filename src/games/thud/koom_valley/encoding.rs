//! Koom Valley Thud's moves as action ids and positions as tensors.
//!
//! A move's first decision is its line id (see the shared Thud encoding:
//! from-square, direction and distance, 25,200 ids); for a Rock move the
//! from-square is the Rock's, and for a trample the line is its first jump
//! (two squares, over a dwarf). A trample then takes one decision per
//! further jump, its direction (ids 25,200 to 25,207, in the order of
//! [`Direction::ALL`]), and ends with the decision to stop (id 25,208):
//! the same landing can be a place to stop or to jump on from.
//!
//! The observation is eight planes of 15x15 (rank 1 first): the dwarfs,
//! the trolls, the Rock, the goal squares, a plane of ones when the dwarfs
//! are to move, and while a trample is being chosen, its from-square, the
//! square where it has landed and the dwarfs it has crossed.

use super::super::board::{GRID, Side};
use super::super::encoding::{
    LINE_IDS, board_symmetries, fill_plane, line_id, line_name, line_squares, mapped_directions,
    mapped_line, observation_shape, piece_planes, plane_symmetry,
};
use super::{GOAL, KoomValley, KoomValleyMove, KoomValleyMoveKind, KoomValleyRules};
use crate::bitboard::{Bitboard256, Direction, Square};
use crate::core::{ActionPath, Encoding, MAX_DECISIONS, Player, Symmetry, length_within};

/// The first id of a further jump's direction.
const JUMP_IDS: u32 = LINE_IDS;
/// The id of a trample's end.
const STOP_ID: u32 = JUMP_IDS + 8;

/// Planes of the observation tensor.
const PLANES: usize = 8;

/// The square one step from `at` towards `direction`.
fn step(at: Square, direction: Direction) -> Square {
    let (x, y) = direction.delta();
    GRID.square(
        i32::from(GRID.file(at)) + i32::from(x),
        i32::from(GRID.rank(at)) + i32::from(y),
    )
    .expect("a recorded jump stays on the board")
}

impl Encoding for KoomValley {
    fn max_game_length(rules: &KoomValleyRules) -> Option<usize> {
        length_within(rules.ply_limit, MAX_DECISIONS)
    }

    fn num_actions(_: &KoomValleyRules) -> usize {
        (STOP_ID + 1) as usize
    }

    fn action_path(&self, mv: KoomValleyMove, path: &mut ActionPath) {
        if mv.kind != KoomValleyMoveKind::Trample {
            path.push(line_id(mv.from, mv.to));
            return;
        }
        let mut jumps = mv.jumps();
        let first = jumps.next().expect("a trample jumps at least once");
        path.push(line_id(mv.from, step(step(mv.from, first), first)));
        for direction in jumps {
            path.push(JUMP_IDS + direction.index() as u32);
        }
        path.push(STOP_ID);
    }

    fn action_name(_: &KoomValleyRules, id: u32) -> String {
        match id {
            id if id < JUMP_IDS => line_name(id),
            STOP_ID => "stop".to_string(),
            id => format!("jump {:?}", Direction::ALL[(id - JUMP_IDS) as usize]),
        }
    }

    fn observation_shape(_: &KoomValleyRules) -> Vec<usize> {
        observation_shape(PLANES)
    }

    /// The mirror that swaps the west and east halves of the board, the one
    /// symmetry that keeps the dwarfs' goal on rank 1 where it is. A jump's
    /// direction follows the mirror; the stop stays.
    fn symmetries(_: &KoomValleyRules) -> Vec<Symmetry> {
        board_symmetries(GOAL)
            .into_iter()
            .map(|symmetry| {
                let directions = mapped_directions(symmetry);
                let lines = (0..LINE_IDS).map(|id| mapped_line(symmetry, &directions, id));
                let jumps = directions.iter().map(|&place| JUMP_IDS + u32::from(place));
                plane_symmetry(
                    PLANES,
                    symmetry,
                    lines.chain(jumps).chain([STOP_ID]).collect(),
                )
            })
            .collect()
    }

    fn write_observation(&self, _: Player, pending: &[u32], out: &mut [f32]) {
        let mut planes = piece_planes(out, self.dwarfs(), self.trolls(), self.rock());
        let mut next = || planes.next().expect("eight planes");
        fill_plane(next(), GOAL);
        let to_move = next();
        if self.side_to_move() == Side::Dwarfs {
            to_move.fill(1.0);
        }
        let (from_plane, landing_plane, crossed_plane) = (next(), next(), next());
        let Some((&first, further)) = pending.split_first() else {
            return;
        };
        let (from, Some(mut landing)) = line_squares(first) else {
            return;
        };
        let between = GRID
            .square(
                (i32::from(GRID.file(from)) + i32::from(GRID.file(landing))) / 2,
                (i32::from(GRID.rank(from)) + i32::from(GRID.rank(landing))) / 2,
            )
            .expect("the first jump's dwarf is on the board");
        let mut crossed = Bitboard256::EMPTY.with(between);
        for &id in further {
            let direction = Direction::ALL[(id - JUMP_IDS) as usize];
            crossed = crossed.with(step(landing, direction));
            landing = step(step(landing, direction), direction);
        }
        fill_plane(from_plane, Bitboard256::EMPTY.with(from));
        fill_plane(landing_plane, Bitboard256::EMPTY.with(landing));
        fill_plane(crossed_plane, crossed);
    }
}
