//! Classic Thud's moves as action ids and positions as tensors.
//!
//! A move's first decision is its line id (see the shared Thud encoding:
//! from-square, direction and distance, 25,200 ids). A troll that steps or
//! is shoved next to dwarfs then decides which of them it takes: id
//! `25,200 + set`, where bit `i` of `set` is the dwarf in direction `i` of
//! [`Direction::ALL`](crate::bitboard::Direction::ALL) from the troll's new
//! square (256 ids). That second decision is asked even when the rules
//! leave one choice (a shove takes every neighbour under the default
//! all-or-none rule), so that one move's decisions do not depend on the
//! rules.
//!
//! The observation is six planes of 15x15 (rank 1 first): the dwarfs, the
//! trolls, the Thudstone, a plane of ones when the dwarfs are to move, and
//! while a troll's captures are being chosen, its from-square and its new
//! square.

use super::super::board::{ADJACENT, CENTRE, Side};
use super::super::encoding::{
    LINE_IDS, board_symmetries, fill_plane, line_id, line_name, line_squares, mapped_directions,
    mapped_line, observation_shape, piece_planes, plane_symmetry,
};
use super::{Thud, ThudMove, ThudMoveKind, ThudRules};
use crate::bitboard::Bitboard256;
use crate::core::{ActionPath, Encoding, Player, Symmetry, length_within};

/// The number of capture sets.
const CAPTURE_SETS: u32 = 256;

/// Planes of the observation tensor.
const PLANES: usize = 6;

impl Encoding for Thud {
    fn max_game_length(rules: &ThudRules) -> Option<usize> {
        // A troll's step or shove may take its captures as a second decision.
        length_within(rules.ply_limit, 2)
    }

    fn num_actions(_: &ThudRules) -> usize {
        (LINE_IDS + CAPTURE_SETS) as usize
    }

    fn action_path(&self, mv: ThudMove, path: &mut ActionPath) {
        path.push(line_id(mv.from, mv.to));
        let troll = matches!(mv.kind, ThudMoveKind::TrollStep | ThudMoveKind::Shove);
        if troll && (ADJACENT.targets(mv.to) & self.dwarfs()).any() {
            path.push(LINE_IDS + u32::from(mv.captures));
        }
    }

    fn action_name(_: &ThudRules, id: u32) -> String {
        if id < LINE_IDS {
            line_name(id)
        } else {
            format!("captures {:08b}", id - LINE_IDS)
        }
    }

    fn observation_shape(_: &ThudRules) -> Vec<usize> {
        observation_shape(PLANES)
    }

    /// The octagon's eight symmetries but the identity: nothing in the
    /// rules has a direction (the Thudstone stands at the centre). A
    /// capture set's bits follow their directions.
    fn symmetries(_: &ThudRules) -> Vec<Symmetry> {
        board_symmetries(Bitboard256::EMPTY)
            .into_iter()
            .map(|symmetry| {
                let directions = mapped_directions(symmetry);
                let lines = (0..LINE_IDS).map(|id| mapped_line(symmetry, &directions, id));
                let sets = (0..CAPTURE_SETS).map(|set| {
                    let image = (0..8)
                        .filter(|&bit| set & 1 << bit != 0)
                        .fold(0, |image, bit| image | 1 << directions[bit]);
                    LINE_IDS + image
                });
                plane_symmetry(PLANES, symmetry, lines.chain(sets).collect())
            })
            .collect()
    }

    fn write_observation(&self, _: Player, pending: &[u32], out: &mut [f32]) {
        let mut planes = piece_planes(out, self.dwarfs(), self.trolls(), CENTRE);
        let mut next = || planes.next().expect("six planes");
        let to_move = next();
        if self.side_to_move() == Side::Dwarfs {
            to_move.fill(1.0);
        }
        let (from_plane, to_plane) = (next(), next());
        if let Some(&first) = pending.first() {
            let (from, to) = line_squares(first);
            fill_plane(from_plane, Bitboard256::EMPTY.with(from));
            if let Some(to) = to {
                fill_plane(to_plane, Bitboard256::EMPTY.with(to));
            }
        }
    }
}
