//! Moves as numbered actions and positions as tensors: the fixed-size view
//! of a game that learning code (and OpenSpiel-shaped APIs) work with.
//!
//! Every game has its own move type; a learner wants one integer range per
//! game instead, the same in every state, so that a policy network has a
//! fixed output layer and a legal-action mask has a fixed width. [`Encoding`]
//! gives each move the ids of the decisions that make it up: one id for most
//! moves, and a short sequence where one id per move would make the range
//! too large (a Thud troll's choice of captures follows its step). A deal is
//! made of draws from urns, so that chance events can be listed with their
//! probabilities. The generic state that turns these into turns, legal ids,
//! chance outcomes and returns is `norn::learning::ActionState`.

use super::{Game, Player};
use std::fmt;
use std::num::NonZeroU32;

/// The most decisions one move can take (a Koom Valley trample's jumps).
pub const MAX_DECISIONS: usize = 16;

/// The action ids of the decisions that make up one move, in the order they
/// are taken.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ActionPath {
    ids: [u32; MAX_DECISIONS],
    len: u8,
}

impl ActionPath {
    /// An empty path.
    pub const fn new() -> Self {
        ActionPath {
            ids: [0; MAX_DECISIONS],
            len: 0,
        }
    }

    /// Appends the next decision's id.
    ///
    /// # Panics
    /// Past [`MAX_DECISIONS`]: a game's encoding never makes such a move.
    pub fn push(&mut self, id: u32) {
        assert!(
            (self.len as usize) < MAX_DECISIONS,
            "a move takes at most {MAX_DECISIONS} decisions"
        );
        self.ids[self.len as usize] = id;
        self.len += 1;
    }

    /// Removes every id.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The ids, first decision first.
    pub fn as_slice(&self) -> &[u32] {
        &self.ids[..self.len as usize]
    }
}

impl fmt::Debug for ActionPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// How a game's chance events are dealt: a sequence of urns, each emptied
/// by drawing its balls one at a time, uniformly at random without
/// replacement. Every order of an urn's balls is then equally likely, which
/// is how the games shuffle. A ball is a chance outcome id; outcome `i` of
/// urn `u` starts with `urns[u][i]` balls.
pub struct DealModel<G: Game> {
    /// The starting count of each outcome id, per urn, in the order the urns
    /// are drawn from.
    pub urns: Vec<Vec<u32>>,
    /// The dealt state for the outcomes drawn, in the order drawn (every
    /// ball of every urn).
    pub deal: fn(&G::Rules, &[u32]) -> G,
    /// The name of a chance outcome id, e.g. a card's.
    pub outcome_name: fn(&G::Rules, u32) -> String,
}

impl<G: Game> DealModel<G> {
    /// How many balls the deal draws in all (every ball of every urn).
    pub fn draw_count(&self) -> usize {
        self.urns.iter().flatten().sum::<u32>() as usize
    }

    /// The outcomes of the next draw after the outcomes `drawn` (in the
    /// order drawn), with their probabilities, which sum to 1: the balls
    /// left in the urn being emptied, each as likely as any other. Empty
    /// once every ball is drawn.
    pub fn next_draw(&self, drawn: &[u32]) -> Vec<(u32, f64)> {
        let mut drawn = drawn;
        for urn in &self.urns {
            let size = urn.iter().sum::<u32>() as usize;
            if drawn.len() >= size {
                drawn = &drawn[size..];
                continue;
            }
            let remaining: Vec<(u32, u32)> = urn
                .iter()
                .enumerate()
                .map(|(outcome, &count)| {
                    let taken = drawn.iter().filter(|&&d| d as usize == outcome).count() as u32;
                    (outcome as u32, count - taken)
                })
                .filter(|&(_, left)| left > 0)
                .collect();
            let left = (size - drawn.len()) as f64;
            return remaining
                .into_iter()
                .map(|(outcome, count)| (outcome, f64::from(count) / left))
                .collect();
        }
        Vec::new()
    }
}

/// A symmetry of a game ([`Encoding::symmetries`]) as a map of its
/// tensors: the observation of a position's image is the position's
/// observation with its entries moved, and the image of a move has the ids
/// of the move's ids mapped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// Entry `i` of an image's observation is entry `observation[i]` of the
    /// original's.
    pub observation: Vec<u32>,
    /// Action id `a` of a position is action id `actions[a]` of its image
    /// (a permutation of the ids, as `observation` is of the entries).
    pub actions: Vec<u32>,
}

impl Symmetry {
    /// The map of observations of `planes` planes over a `dim` x `dim`
    /// board, each square's entries moved to its image under `board`, and
    /// the action map `actions`.
    pub fn of_planes(
        planes: usize,
        dim: usize,
        board: BoardSymmetry,
        actions: Vec<u32>,
    ) -> Symmetry {
        let area = dim * dim;
        let mut observation = vec![0; planes * area];
        for plane in 0..planes {
            for square in 0..area {
                observation[plane * area + board.square(dim, square)] =
                    (plane * area + square) as u32;
            }
        }
        Symmetry {
            observation,
            actions,
        }
    }
}

/// One of the eight symmetries of a square board: the rotations by a
/// quarter turn and the reflections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardSymmetry {
    /// Nothing moves.
    Identity,
    /// A quarter turn anticlockwise.
    Quarter,
    /// A half turn.
    Half,
    /// Three quarter turns anticlockwise.
    ThreeQuarters,
    /// Files mirrored (a becomes the last file).
    MirrorFiles,
    /// Ranks mirrored (1 becomes the top rank).
    MirrorRanks,
    /// Reflected in the diagonal through a1: file and rank swap.
    Diagonal,
    /// Reflected in the other diagonal.
    AntiDiagonal,
}

impl BoardSymmetry {
    /// All eight.
    pub const ALL: [BoardSymmetry; 8] = [
        BoardSymmetry::Identity,
        BoardSymmetry::Quarter,
        BoardSymmetry::Half,
        BoardSymmetry::ThreeQuarters,
        BoardSymmetry::MirrorFiles,
        BoardSymmetry::MirrorRanks,
        BoardSymmetry::Diagonal,
        BoardSymmetry::AntiDiagonal,
    ];

    /// Where square `index` of a `dim` x `dim` board goes.
    pub fn square(self, dim: usize, index: usize) -> usize {
        let (file, rank) = (index % dim, index / dim);
        let last = dim - 1;
        let (file, rank) = match self {
            BoardSymmetry::Identity => (file, rank),
            BoardSymmetry::Quarter => (last - rank, file),
            BoardSymmetry::Half => (last - file, last - rank),
            BoardSymmetry::ThreeQuarters => (rank, last - file),
            BoardSymmetry::MirrorFiles => (last - file, rank),
            BoardSymmetry::MirrorRanks => (file, last - rank),
            BoardSymmetry::Diagonal => (rank, file),
            BoardSymmetry::AntiDiagonal => (last - rank, last - file),
        };
        rank * dim + file
    }
}

/// A game seen as integer actions and float tensors (see the module docs).
///
/// The per-state contract, which `norn::testing` checks for every game:
/// different legal moves have different paths, no legal move's path is a
/// proper prefix of another's, and every id is below
/// [`num_actions`](Encoding::num_actions).
pub trait Encoding: Game {
    /// How many action ids the game uses under `rules`.
    fn num_actions(rules: &Self::Rules) -> usize;

    /// The ids of the decisions that make up `mv`, written from this
    /// (pre-move) state, appended to `path`.
    fn action_path(&self, mv: Self::Move, path: &mut ActionPath);

    /// A name of action `id` that needs no state, e.g. `"e4-e7"` for a move
    /// from e4 to e7; used where no legal move explains the id.
    fn action_name(rules: &Self::Rules, id: u32) -> String;

    /// The shape of an observation tensor under `rules`.
    fn observation_shape(rules: &Self::Rules) -> Vec<usize>;

    /// Writes what `player` sees of this state into `out` (as long as the
    /// product of the shape, and zeroed by the caller), with `pending` the
    /// ids already chosen of a move that takes several decisions. A game
    /// with hidden information writes only what `player` may know. Every
    /// value is from 0 to 1 (counts are written as shares), so that
    /// learners need no scaling and environments can declare the bounds.
    fn write_observation(&self, player: Player, pending: &[u32], out: &mut [f32]);

    /// Writes what every player sees of this state into `out` (as
    /// [`write_observation`](Encoding::write_observation), with the
    /// private information of every player left out). The default writes
    /// player 0's observation, which is right for a game without hidden
    /// information; a game with hidden information must override it.
    fn write_public_observation(&self, pending: &[u32], out: &mut [f32]) {
        self.write_observation(0, pending, out);
    }

    /// The most actions (decisions, chance outcomes, and each player's
    /// choice at a simultaneous node) one game can take from the start
    /// under `rules`, where the rules bound it (a ply limit); `None`, the
    /// default, where they do not. An upper bound, not always reached.
    fn max_game_length(_rules: &Self::Rules) -> Option<usize> {
        None
    }

    /// The symmetries of the game under `rules` other than the identity:
    /// maps of positions (a board turned or mirrored) under which every
    /// position plays as its image does, its moves mapped alike. Training
    /// shows a network a sample through one of them as data augmentation.
    /// None by default.
    fn symmetries(_rules: &Self::Rules) -> Vec<Symmetry> {
        Vec::new()
    }

    /// How chance deals, for games with chance events; `None` (the default)
    /// for games without.
    fn deal_model(_rules: &Self::Rules) -> Option<DealModel<Self>> {
        None
    }
}

/// The most actions of a game whose limit (of plies or rounds) `limit`
/// allows, each taking at most `actions_per_step` actions: a
/// [`Encoding::max_game_length`] for games bounded by such a limit.
pub fn length_within(limit: Option<NonZeroU32>, actions_per_step: usize) -> Option<usize> {
    limit.and_then(|limit| (limit.get() as usize).checked_mul(actions_per_step))
}

/// The number of chance outcome ids of a deal model: the most outcomes any
/// of its urns has.
pub fn chance_outcome_count<G: Game>(model: &DealModel<G>) -> usize {
    model.urns.iter().map(Vec::len).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_keeps_its_ids_in_order() {
        let mut path = ActionPath::new();
        path.push(7);
        path.push(3);
        assert_eq!(path.as_slice(), &[7, 3]);
        path.clear();
        assert!(path.as_slice().is_empty());
    }

    #[test]
    #[should_panic(expected = "at most")]
    fn a_path_refuses_more_decisions_than_it_holds() {
        let mut path = ActionPath::new();
        for id in 0..=MAX_DECISIONS as u32 {
            path.push(id);
        }
    }
}
