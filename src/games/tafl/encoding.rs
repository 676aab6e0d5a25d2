//! A tafl game's moves as action ids, its positions as tensors, and the
//! board symmetries that leave its rules unchanged.
//!
//! Every piece moves along a rank or a file (a jump too), so a move is its
//! from-square and one of the `2 * (dim - 1)` other squares of that
//! square's rank and file: id `from * 2(dim - 1) + k`, where `k` below
//! `dim - 1` is the destination's file on the same rank (files past
//! `from`'s own counted one lower) and `k` from `dim - 1` is its rank on
//! the same file, counted the same way. Brandubh's 7x7 board makes 588
//! ids, Copenhagen's 11x11 2,420, Alea Evangelii's 19x19 12,996; one
//! decision per move.
//!
//! The observation is `dim` x `dim` planes, indexed
//! `[plane][rank][file]` with rank 1 first: the attackers' pieces, the
//! defenders' pieces but the king, the king; then, for each kind of
//! commander, knight, mercenary and guard that the start position has,
//! its pieces of either side; under the berserk rule, the piece that must
//! move again; last, a plane of ones when the attackers are to move.
//! Brandubh's is 4 x 7 x 7.

use super::board::{Side, square_name};
use super::moves::TaflMove;
use super::options::TaflRules;
use super::pieces::Kind;
use super::rules_string::{Berserk, Region};
use super::state::Tafl;
use crate::core::{ActionPath, BoardSymmetry, Encoding, Player, Symmetry, length_within};

/// The destinations of one from-square on a board of side `dim`.
fn line_squares(dim: usize) -> usize {
    2 * (dim - 1)
}

/// The position of `other` among the squares of a line without `own`.
fn index_without(own: usize, other: usize) -> usize {
    if other < own { other } else { other - 1 }
}

/// The inverse of [`index_without`].
fn square_without(own: usize, index: usize) -> usize {
    if index < own { index } else { index + 1 }
}

/// The id of the move from `from` to `to` (on one rank or file).
pub(crate) fn action_id(dim: usize, from: usize, to: usize) -> usize {
    let (from_file, from_rank) = (from % dim, from / dim);
    let (to_file, to_rank) = (to % dim, to / dim);
    let k = if to_rank == from_rank {
        index_without(from_file, to_file)
    } else {
        dim - 1 + index_without(from_rank, to_rank)
    };
    from * line_squares(dim) + k
}

/// The move of action `id`, which may not be legal anywhere.
pub(crate) fn move_of(dim: usize, id: usize) -> TaflMove {
    let from = id / line_squares(dim);
    let k = id % line_squares(dim);
    let (file, rank) = (from % dim, from / dim);
    let to = if k < dim - 1 {
        rank * dim + square_without(file, k)
    } else {
        square_without(rank, k - (dim - 1)) * dim + file
    };
    TaflMove::new(from, to)
}

/// The kinds with a plane of their own under `rules`: those of the start
/// position other than taflmen and the king.
fn kind_planes(rules: &TaflRules) -> Vec<Kind> {
    let start = &rules.rules_string().start;
    Kind::SPECIAL
        .into_iter()
        .filter(|&kind| start.iter().flatten().any(|piece| piece.kind == kind))
        .collect()
}

/// Whether the observation has a plane for the piece that moves again.
fn berserk_plane(rules: &TaflRules) -> bool {
    rules.rules_string().berserk != Berserk::None
}

impl Encoding for Tafl {
    fn max_game_length(rules: &TaflRules) -> Option<usize> {
        length_within(rules.ply_limit, 1)
    }

    fn num_actions(rules: &TaflRules) -> usize {
        rules.dim() * rules.dim() * line_squares(rules.dim())
    }

    fn action_path(&self, mv: TaflMove, path: &mut ActionPath) {
        path.push(action_id(self.dim(), mv.from.into(), mv.to.into()) as u32);
    }

    fn action_name(rules: &TaflRules, id: u32) -> String {
        let dim = rules.dim();
        let mv = move_of(dim, id as usize);
        format!(
            "{}-{}",
            square_name(dim, mv.from.into()),
            square_name(dim, mv.to.into())
        )
    }

    fn observation_shape(rules: &TaflRules) -> Vec<usize> {
        let planes = 4 + kind_planes(rules).len() + usize::from(berserk_plane(rules));
        vec![planes, rules.dim(), rules.dim()]
    }

    /// The board's symmetries that leave the rules as they are
    /// ([`TaflRules::symmetries`]) but the identity.
    fn symmetries(rules: &TaflRules) -> Vec<Symmetry> {
        let planes = Tafl::observation_shape(rules)[0];
        rules
            .symmetries()
            .into_iter()
            .filter(|&board| board != BoardSymmetry::Identity)
            .map(|board| {
                let actions = (0..Tafl::num_actions(rules) as u32)
                    .map(|id| symmetric_action(board, rules, id))
                    .collect();
                Symmetry::of_planes(planes, rules.dim(), board, actions)
            })
            .collect()
    }

    fn write_observation(&self, _: Player, _: &[u32], out: &mut [f32]) {
        let squares = self.dim() * self.dim();
        let kinds = kind_planes(&self.rules);
        for index in 0..squares {
            let Some(piece) = self.piece_at(index) else {
                continue;
            };
            let plane = match (piece.side, piece.kind) {
                (_, Kind::King) => 2,
                (Side::Attackers, _) => 0,
                (Side::Defenders, _) => 1,
            };
            out[plane * squares + index] = 1.0;
            if let Some(slot) = kinds.iter().position(|&kind| kind == piece.kind) {
                out[(3 + slot) * squares + index] = 1.0;
            }
        }
        let mut plane = 3 + kinds.len();
        if berserk_plane(&self.rules) {
            if let Some(square) = self.berserk_square() {
                out[plane * squares + square] = 1.0;
            }
            plane += 1;
        }
        if self.to_move == Side::Attackers {
            out[plane * squares..(plane + 1) * squares].fill(1.0);
        }
    }
}

/// Where action `id` goes under `symmetry` and these rules: the move of
/// the mapped squares.
pub fn symmetric_action(symmetry: BoardSymmetry, rules: &TaflRules, id: u32) -> u32 {
    let dim = rules.dim();
    let mv = move_of(dim, id as usize);
    action_id(
        dim,
        symmetry.square(dim, mv.from.into()),
        symmetry.square(dim, mv.to.into()),
    ) as u32
}

impl TaflRules {
    /// The symmetries of the board that leave these rules as they are:
    /// those that map every region's squares onto themselves (the rules
    /// of play depend on nothing else that has a direction). Learning code
    /// may use them to augment its data: a position mapped square by
    /// square, its moves by [`symmetric_action`], is a position of the
    /// same game with the same value. All eight for every built-in
    /// variant. The start position need not be symmetric.
    pub fn symmetries(&self) -> Vec<BoardSymmetry> {
        let string = self.rules_string();
        let dim = string.dim;
        BoardSymmetry::ALL
            .into_iter()
            .filter(|symmetry| {
                Region::ALL.iter().all(|&region| {
                    let squares = &string.squares[region as usize];
                    squares
                        .iter()
                        .all(|&index| squares.contains(&symmetry.square(dim, index)))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MoveList, Notation};
    use crate::games::tafl::VARIANTS;
    use crate::testing::playout_states;

    #[test]
    fn every_id_names_a_line_move_that_maps_back_to_it() {
        for dim in [7, 9, 19] {
            for id in 0..dim * dim * line_squares(dim) {
                let mv = move_of(dim, id);
                let (from, to) = (usize::from(mv.from), usize::from(mv.to));
                assert!(from != to && (from % dim == to % dim || from / dim == to / dim));
                assert_eq!(action_id(dim, from, to), id);
            }
        }
    }

    #[test]
    fn symmetries_map_positions_to_positions_with_the_same_moves() {
        for variant in VARIANTS {
            let rules = TaflRules::variant(variant.name).unwrap();
            let symmetries = rules.symmetries();
            assert_eq!(symmetries.len(), 8, "{}", variant.name);
            assert_eq!(symmetries[0], BoardSymmetry::Identity);
            let encoded = <Tafl as Encoding>::symmetries(&rules);
            assert_eq!(encoded.len(), 7, "{}", variant.name);
            let start = Tafl::new(rules);
            for state in playout_states(&start, 1, 30, 7).into_iter().step_by(7) {
                if state.status().is_over() {
                    continue;
                }
                let dim = state.dim();
                let mut moves = MoveList::new();
                state.legal_moves(&mut moves);
                let mut ids: Vec<u32> = moves
                    .iter()
                    .map(|&mv| action_id(dim, mv.from.into(), mv.to.into()) as u32)
                    .collect();
                ids.sort_unstable();
                for symmetry in &symmetries {
                    let mut setup = state.setup();
                    for index in 0..dim * dim {
                        setup.pieces[symmetry.square(dim, index)] = state.piece_at(index);
                    }
                    setup.berserk = state.berserk_square().map(|s| symmetry.square(dim, s));
                    let mapped = Tafl::from_setup(&setup, rules).unwrap();
                    mapped.legal_moves(&mut moves);
                    let mut mapped_ids: Vec<u32> = moves
                        .iter()
                        .map(|&mv| action_id(dim, mv.from.into(), mv.to.into()) as u32)
                        .collect();
                    mapped_ids.sort_unstable();
                    let mut expected: Vec<u32> = ids
                        .iter()
                        .map(|&id| symmetric_action(*symmetry, &rules, id))
                        .collect();
                    expected.sort_unstable();
                    assert_eq!(mapped_ids, expected, "{} {symmetry:?}", variant.name);
                    // Training's view of the symmetry: the image's
                    // observation is the position's with its entries moved.
                    let Some(at) = symmetries[1..].iter().position(|s| s == symmetry) else {
                        continue;
                    };
                    let encoded = &encoded[at];
                    let size: usize = Tafl::observation_shape(&rules).iter().product();
                    let (mut seen, mut image_seen) = (vec![0.0; size], vec![0.0; size]);
                    state.write_observation(0, &[], &mut seen);
                    mapped.write_observation(0, &[], &mut image_seen);
                    let moved: Vec<f32> = encoded
                        .observation
                        .iter()
                        .map(|&from| seen[from as usize])
                        .collect();
                    assert_eq!(moved, image_seen, "{} {symmetry:?}", variant.name);
                    let mut encoded_ids: Vec<u32> =
                        ids.iter().map(|&id| encoded.actions[id as usize]).collect();
                    encoded_ids.sort_unstable();
                    assert_eq!(encoded_ids, expected, "{} {symmetry:?}", variant.name);
                }
            }
        }
        // A fortress on one side only breaks the symmetries that move it.
        let lopsided =
            TaflRules::from_rules_string("dim:7 afor:a4, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
                .unwrap();
        assert_eq!(
            lopsided.symmetries(),
            vec![BoardSymmetry::Identity, BoardSymmetry::MirrorRanks]
        );
        assert_eq!(<Tafl as Encoding>::symmetries(&lopsided).len(), 1);
    }
}
