//! Hnefatafl's moves as action ids and positions as tensors.
//!
//! Every piece moves like a rook, so a move is its from-square and one of
//! the 20 other squares of that square's rank and file: id `from * 20 + k`,
//! where `k` below 10 is the destination's file on the same rank (files
//! past `from`'s own counted one lower) and `k` from 10 is its rank on the
//! same file, counted the same way. 121 squares make 2,420 ids, one
//! decision per move.
//!
//! The observation is four 11x11 planes, indexed `[plane][rank][file]`
//! with rank 1 first: the attackers, the defenders' soldiers, the king, and
//! a plane of ones when the attackers are to move.

use super::board::{GRID, SIZE, square_name};
use super::{Hnefatafl, HnefataflMove, HnefataflRules, Side};
use crate::bitboard::Square;
use crate::core::{ActionPath, BoardSymmetry, Encoding, Player, Symmetry, length_within};

/// The destinations of one from-square: the other squares of its rank and
/// of its file.
const LINE_SQUARES: u32 = 2 * (SIZE as u32 - 1);

/// The number of planes of the observation tensor.
const PLANES: usize = 4;

/// The number of squares.
const SQUARES: usize = SIZE as usize * SIZE as usize;

/// The action id of each rook move, by from-square and to-square (0 where
/// the two squares share no line). Listing a position's legal ids looks up
/// every legal move, so the ids are computed once, when compiling, rather
/// than with two divisions per move.
static ID_OF: [[u16; SQUARES]; SQUARES] = ids_of_moves();

const fn ids_of_moves() -> [[u16; SQUARES]; SQUARES] {
    let mut ids = [[0; SQUARES]; SQUARES];
    let mut from = 0;
    while from < SQUARES {
        let mut to = 0;
        while to < SQUARES {
            if let Some(id) = id_of(from as u32, to as u32) {
                ids[from][to] = id as u16;
            }
            to += 1;
        }
        from += 1;
    }
    ids
}

/// The id of the move from square index `from` to `to`, if they share a
/// rank or a file.
const fn id_of(from: u32, to: u32) -> Option<u32> {
    let size = SIZE as u32;
    let (from_file, from_rank) = (from % size, from / size);
    let (to_file, to_rank) = (to % size, to / size);
    if from == to {
        return None;
    }
    let k = if to_rank == from_rank {
        index_without(from_file, to_file)
    } else if to_file == from_file {
        size - 1 + index_without(from_rank, to_rank)
    } else {
        return None;
    };
    Some(from * LINE_SQUARES + k)
}

/// The position of `other` among the squares of a line of 11 without
/// `own`.
const fn index_without(own: u32, other: u32) -> u32 {
    if other < own { other } else { other - 1 }
}

/// The inverse of [`index_without`].
fn square_without(own: u32, index: u32) -> u32 {
    if index < own { index } else { index + 1 }
}

/// The move of action `id`, which may not be legal anywhere.
fn move_of(id: u32) -> HnefataflMove {
    let from = id / LINE_SQUARES;
    let k = id % LINE_SQUARES;
    let (file, rank) = (from % SIZE as u32, from / SIZE as u32);
    let line = SIZE as u32 - 1;
    let to = if k < line {
        rank * SIZE as u32 + square_without(file, k)
    } else {
        square_without(rank, k - line) * SIZE as u32 + file
    };
    HnefataflMove {
        from: Square::new(from as u8),
        to: Square::new(to as u8),
    }
}

impl Encoding for Hnefatafl {
    fn max_game_length(rules: &HnefataflRules) -> Option<usize> {
        length_within(rules.ply_limit, 1)
    }

    fn num_actions(_: &HnefataflRules) -> usize {
        GRID.len() * LINE_SQUARES as usize
    }

    fn action_path(&self, mv: HnefataflMove, path: &mut ActionPath) {
        path.push(u32::from(ID_OF[mv.from.index()][mv.to.index()]));
    }

    fn action_name(_: &HnefataflRules, id: u32) -> String {
        let mv = move_of(id);
        format!("{}-{}", square_name(mv.from), square_name(mv.to))
    }

    fn observation_shape(_: &HnefataflRules) -> Vec<usize> {
        vec![PLANES, SIZE as usize, SIZE as usize]
    }

    /// The board's eight symmetries but the identity: corners, edges and
    /// throne map to themselves, and a rook move to a rook move.
    fn symmetries(_: &HnefataflRules) -> Vec<Symmetry> {
        let size = SIZE as usize;
        BoardSymmetry::ALL[1..]
            .iter()
            .map(|&board| {
                let actions = (0..GRID.len() * LINE_SQUARES as usize)
                    .map(|id| {
                        let mv = move_of(id as u32);
                        let (from, to) = (
                            board.square(size, mv.from.index()),
                            board.square(size, mv.to.index()),
                        );
                        u32::from(ID_OF[from][to])
                    })
                    .collect();
                Symmetry::of_planes(PLANES, size, board, actions)
            })
            .collect()
    }

    fn write_observation(&self, _: Player, _: &[u32], out: &mut [f32]) {
        let plane = GRID.len();
        for square in self.attackers().squares() {
            out[square.index()] = 1.0;
        }
        for square in self.defenders().squares() {
            out[plane + square.index()] = 1.0;
        }
        out[2 * plane + self.king().index()] = 1.0;
        if self.side_to_move() == Side::Attackers {
            out[3 * plane..4 * plane].fill(1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard128;
    use crate::core::Game;
    use crate::games::hnefatafl::HnefataflSetup;

    fn file_and_rank(square: Square) -> (u32, u32) {
        let index = square.index() as u32;
        (index % SIZE as u32, index / SIZE as u32)
    }

    #[test]
    fn every_id_names_a_rook_move_that_maps_back_to_it() {
        let state = Hnefatafl::new(HnefataflRules::default());
        for id in 0..Hnefatafl::num_actions(&HnefataflRules::default()) as u32 {
            let mv = move_of(id);
            let (from_file, from_rank) = file_and_rank(mv.from);
            let (to_file, to_rank) = file_and_rank(mv.to);
            assert!(mv.from != mv.to && (from_file == to_file || from_rank == to_rank));
            let mut path = ActionPath::new();
            state.action_path(mv, &mut path);
            assert_eq!(path.as_slice(), &[id], "{mv}");
        }
    }

    /// The legal ids of `state`, sorted.
    fn legal_ids(state: &Hnefatafl) -> Vec<u32> {
        let mut moves = crate::core::MoveList::new();
        state.legal_moves(&mut moves);
        let mut ids: Vec<u32> = moves
            .iter()
            .map(|&mv| {
                let mut path = ActionPath::new();
                state.action_path(mv, &mut path);
                path.as_slice()[0]
            })
            .collect();
        ids.sort_unstable();
        ids
    }

    #[test]
    fn a_symmetrys_image_of_a_position_sees_and_moves_as_the_symmetry_maps_them() {
        use crate::core::{Notation, rng_from_seed};
        use rand::RngExt;
        let rules = HnefataflRules::default();
        let symmetries = Hnefatafl::symmetries(&rules);
        assert_eq!(symmetries.len(), 7, "the square's eight but the identity");
        let size = GRID.len() * PLANES;
        let mut rng = rng_from_seed(4);
        let mut state = Hnefatafl::new(rules);
        let mut positions = 0;
        while positions < 40 {
            if state.status().player_to_move().is_none() {
                state = Hnefatafl::new(rules);
            }
            let setup = state.setup();
            for (symmetry, &board) in symmetries.iter().zip(&BoardSymmetry::ALL[1..]) {
                // The image built from the pieces moved, as a position read.
                let square_of =
                    |square: Square| Square::new(board.square(SIZE as usize, square.index()) as u8);
                let image_of = |set: Bitboard128| {
                    set.squares().fold(Bitboard128(0), |image, square| {
                        image.with(square_of(square))
                    })
                };
                let image = Hnefatafl::from_setup(
                    &HnefataflSetup {
                        attackers: image_of(setup.attackers),
                        defenders: image_of(setup.defenders),
                        king: setup.king.map(square_of),
                        to_move: setup.to_move,
                    },
                    rules,
                )
                .unwrap();
                let (mut seen, mut image_seen) = (vec![0.0; size], vec![0.0; size]);
                state.write_observation(0, &[], &mut seen);
                image.write_observation(0, &[], &mut image_seen);
                let mapped: Vec<f32> = symmetry
                    .observation
                    .iter()
                    .map(|&from| seen[from as usize])
                    .collect();
                assert_eq!(mapped, image_seen);
                let mut mapped: Vec<u32> = legal_ids(&state)
                    .iter()
                    .map(|&id| symmetry.actions[id as usize])
                    .collect();
                mapped.sort_unstable();
                assert_eq!(mapped, legal_ids(&image));
            }
            positions += 1;
            let mut moves = crate::core::MoveList::new();
            state.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            state.play(mv);
        }
    }
}
