//! The tree: an arena of nodes linked by `u32` indices, what a new node
//! needs to know about its state, and what runs up the tree after a
//! simulation (the results, the implicit minimax values, the proofs).

use super::playout::evaluation;
use super::{Expansion, MctsConfig};
use crate::core::{Evaluator, Game, GameRng, MAX_PLAYERS, MoveList, Status, normalised_payoffs};
use rand::RngExt;

/// The largest node budget: nodes are numbered by `u32`, and `u32::MAX`
/// marks "no node".
pub const MAX_TREE_NODES: usize = u32::MAX as usize - 1;

pub(super) const NONE: u32 = u32::MAX;

pub(super) const NO_PLAYER: u8 = u8::MAX;

#[derive(Clone, Debug)]
pub(super) struct Node<M> {
    /// The move that led here (`None` at the root).
    pub(super) mv: Option<M>,
    pub(super) parent: u32,
    pub(super) first_child: u32,
    pub(super) next_sibling: u32,
    /// The player to move here, or `NO_PLAYER` at a leaf state.
    pub(super) mover: u8,
    /// The number of legal moves.
    pub(super) move_count: u16,
    /// How many of the legal moves are tactical (expanded first).
    pub(super) tactical_count: u16,
    /// Where the scrambled expansion order starts.
    pub(super) scramble_offset: u16,
    /// Children claimed so far (a claimed child is linked once it is built).
    pub(super) claimed: u16,
    pub(super) visits: u32,
    pub(super) virtual_loss: u32,
    pub(super) totals: [f64; MAX_PLAYERS],
    pub(super) proven: Option<[f64; MAX_PLAYERS]>,
    /// The implicit minimax value (normalised payoffs).
    pub(super) minimax: [f64; MAX_PLAYERS],
    /// The evaluation of the node's state for the player whose move led
    /// here, for progressive bias.
    pub(super) prior: f32,
}

/// Everything a new node needs to know about its state, worked out away
/// from the tree (outside the lock when threads share it).
pub(super) struct Description {
    pub(super) mover: u8,
    pub(super) move_count: u16,
    pub(super) tactical_count: u16,
    pub(super) scramble_offset: u16,
    pub(super) proven: Option<[f64; MAX_PLAYERS]>,
    /// The evaluation, if implicit minimax or progressive bias want it.
    pub(super) estimate: [f64; MAX_PLAYERS],
    /// The status of a state the search cannot go through.
    pub(super) unsupported: Option<Status>,
}

impl Description {
    /// A state with no player to move, no moves and no result yet.
    fn blank() -> Self {
        Description {
            mover: NO_PLAYER,
            move_count: 0,
            tactical_count: 0,
            scramble_offset: 0,
            proven: None,
            estimate: [0.0; MAX_PLAYERS],
            unsupported: None,
        }
    }

    pub(super) fn of<G: Game>(
        state: &G,
        evaluator: &impl Evaluator<G>,
        config: &MctsConfig,
        rng: &mut GameRng,
        moves: &mut MoveList<G::Move>,
    ) -> Self {
        let mut description = Description::blank();
        match state.status() {
            Status::ToMove(player) => {
                state.legal_moves(moves);
                description.mover = player as u8;
                description.move_count = moves.len().min(usize::from(u16::MAX)) as u16;
                description.tactical_count = moves
                    .iter()
                    .filter(|&&mv| evaluator.is_tactical(state, mv))
                    .count() as u16;
                if description.move_count > 0 {
                    description.scramble_offset = rng.random_range(0..description.move_count);
                }
            }
            Status::Over(outcome) => {
                description.proven = Some(normalised_payoffs(state, outcome.payoffs.as_slice()));
            }
            other @ (Status::Chance | Status::Simultaneous) => {
                description.unsupported = Some(other);
                return description;
            }
        }
        if config.wants_estimates() {
            description.estimate = match description.proven {
                Some(result) => result,
                None => evaluation(state, evaluator),
            };
        }
        description
    }

    /// A child built by an evaluated expansion: its player to move, its
    /// result if the game is over, and its evaluation. Its moves are counted
    /// only when it is expanded in turn, so that building a node's children
    /// does not generate every child's moves.
    pub(super) fn unexpanded<G: Game>(state: &G, evaluator: &impl Evaluator<G>) -> Self {
        let mut description = Description::blank();
        match state.status() {
            Status::ToMove(player) => {
                description.mover = player as u8;
                description.estimate = evaluation(state, evaluator);
            }
            Status::Over(outcome) => {
                let result = normalised_payoffs(state, outcome.payoffs.as_slice());
                description.proven = Some(result);
                description.estimate = result;
            }
            other @ (Status::Chance | Status::Simultaneous) => {
                description.unsupported = Some(other)
            }
        }
        description
    }
}

impl<M> Node<M> {
    pub(super) fn new(mv: Option<M>, parent: u32, description: Description) -> Self {
        Node {
            mv,
            parent,
            first_child: NONE,
            next_sibling: NONE,
            mover: description.mover,
            move_count: description.move_count,
            tactical_count: description.tactical_count,
            scramble_offset: description.scramble_offset,
            claimed: 0,
            visits: 0,
            virtual_loss: 0,
            totals: [0.0; MAX_PLAYERS],
            proven: description.proven,
            minimax: description.estimate,
            prior: 0.0,
        }
    }
}

/// One search tree, rooted at the state it was built for.
pub(super) struct Tree<G: Game> {
    pub(super) nodes: Vec<Node<G::Move>>,
    pub(super) root_state: G,
    /// The status of the first state met that the search cannot go through;
    /// the tree stops growing.
    pub(super) unsupported: Option<Status>,
    /// Whether every node's children sit side by side in `nodes`, as
    /// [`Expansion::All`] builds them, so that walking them is a scan of
    /// consecutive nodes rather than a chase along the sibling links.
    pub(super) siblings_together: bool,
}

impl<G: Game> Tree<G> {
    /// A tree of the root alone, built in `nodes` (emptied first), whose
    /// memory may come from an earlier tree.
    pub(super) fn new(
        root_state: &G,
        evaluator: &impl Evaluator<G>,
        config: &MctsConfig,
        rng: &mut GameRng,
        mut nodes: Vec<Node<G::Move>>,
    ) -> Self {
        let description = Description::of(root_state, evaluator, config, rng, &mut MoveList::new());
        let unsupported = description.unsupported;
        nodes.clear();
        nodes.push(Node::new(None, NONE, description));
        Tree {
            unsupported,
            nodes,
            root_state: root_state.clone(),
            siblings_together: config.expansion == Expansion::All,
        }
    }

    pub(super) fn children(&self, parent: u32) -> impl Iterator<Item = u32> + '_ {
        let node = &self.nodes[parent as usize];
        let (together, mut next) = if self.siblings_together && node.first_child != NONE {
            let first = node.first_child;
            (first..first + u32::from(node.move_count), NONE)
        } else {
            (0..0, node.first_child)
        };
        together.chain(std::iter::from_fn(move || {
            (next != NONE).then(|| {
                let current = next;
                next = self.nodes[current as usize].next_sibling;
                current
            })
        }))
    }

    /// Adds `result` to every node from `leaf` up to the root, removes the
    /// virtual losses of the descent, updates the implicit minimax values and
    /// proves what can now be proven.
    pub(super) fn back_up(&mut self, leaf: u32, result: &[f64; MAX_PLAYERS], config: &MctsConfig) {
        let mut index = leaf;
        while index != NONE {
            let node = &mut self.nodes[index as usize];
            node.visits += 1;
            node.virtual_loss -= 1;
            for (total, value) in node.totals.iter_mut().zip(result) {
                *total += value;
            }
            let parent = node.parent;
            if config.minimax_weight > 0.0 && index != leaf {
                self.update_minimax(index);
            }
            index = parent;
        }
        if config.solver && self.nodes[leaf as usize].proven.is_some() {
            let mut index = self.nodes[leaf as usize].parent;
            while index != NONE && self.prove(index) {
                index = self.nodes[index as usize].parent;
            }
        }
    }

    /// The implicit minimax value of `index`: that of its best child for the
    /// player to move (a node whose result is proven keeps it).
    pub(super) fn update_minimax(&mut self, index: u32) {
        let node = &self.nodes[index as usize];
        if node.mover == NO_PLAYER || node.proven.is_some() {
            return;
        }
        let mover = usize::from(node.mover);
        let best = self
            .children(index)
            .map(|child| self.nodes[child as usize].minimax)
            .max_by(|a, b| a[mover].total_cmp(&b[mover]));
        if let Some(best) = best {
            self.nodes[index as usize].minimax = best;
        }
    }

    /// Tries to prove `index` from its children; true if it became proven.
    pub(super) fn prove(&mut self, index: u32) -> bool {
        let node = &self.nodes[index as usize];
        if node.proven.is_some() || node.mover == NO_PLAYER {
            return false;
        }
        let mover = usize::from(node.mover);
        let mut linked = 0;
        let mut all_proven = true;
        let mut best: Option<[f64; MAX_PLAYERS]> = None;
        for child in self.children(index) {
            linked += 1;
            match self.nodes[child as usize].proven {
                Some(result) if result[mover] >= 1.0 => {
                    best = Some(result);
                    all_proven = true;
                    linked = node.move_count;
                    break;
                }
                Some(result) => {
                    if best.is_none_or(|best| result[mover] > best[mover]) {
                        best = Some(result);
                    }
                }
                None => all_proven = false,
            }
        }
        match best {
            Some(result) if all_proven && linked == node.move_count => {
                self.nodes[index as usize].proven = Some(result);
                true
            }
            _ => false,
        }
    }

    pub(super) fn is_solved(&self) -> bool {
        self.nodes[0].proven.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_game::{Pile, add_child, descend_to, evaluating, even, tree_of};
    use super::*;
    use crate::core::rng_from_seed;

    #[test]
    fn a_new_tree_describes_its_root() {
        let tree = tree_of(6);
        let root = &tree.nodes[0];
        assert_eq!((tree.nodes.len(), root.mover, root.move_count), (1, 0, 3));
        assert!(root.scramble_offset < 3 && root.proven.is_none());
        // Six tokens: player 0 to move wins, estimated at 0.9 of [-1, 1].
        assert!((root.minimax[0] - 0.95).abs() < 1e-12);

        // No tokens at ply 0: player 1 took the last one and won.
        let over = Tree::new(
            &Pile::of(0),
            &even,
            &evaluating(),
            &mut rng_from_seed(1),
            Vec::new(),
        );
        assert_eq!(over.nodes[0].mover, NO_PLAYER);
        assert_eq!(over.nodes[0].proven.map(|p| [p[0], p[1]]), Some([0.0, 1.0]));
    }

    #[test]
    fn linked_children_are_listed_newest_first_and_side_by_side_ones_in_order() {
        let mut tree = tree_of(6);
        let built: Vec<u32> = (1..=3).map(|mv| add_child(&mut tree, 0, &[mv])).collect();
        let listed: Vec<u32> = tree.children(0).collect();
        assert_eq!(listed, [built[2], built[1], built[0]]);

        // Children built together sit in one block from the first child.
        tree.siblings_together = true;
        tree.nodes[0].first_child = built[0];
        let listed: Vec<u32> = tree.children(0).collect();
        assert_eq!(listed, built);
    }

    #[test]
    fn a_winning_child_proves_its_parent() {
        let mut tree = tree_of(3);
        add_child(&mut tree, 0, &[1]);
        assert!(!tree.prove(0), "two tokens left: nothing is proven");
        // Taking all three ends the game, won by player 0 to move.
        add_child(&mut tree, 0, &[3]);
        assert!(tree.prove(0));
        assert_eq!(tree.nodes[0].proven.map(|p| [p[0], p[1]]), Some([1.0, 0.0]));
        assert!(tree.is_solved());
    }

    #[test]
    fn without_a_win_every_move_must_be_proven_and_the_best_is_taken() {
        let mut tree = tree_of(7);
        let results = [[0.0, 1.0], [0.5, 0.5], [0.2, 0.8]];
        for (mv, result) in (1..=3).zip(results) {
            assert!(!tree.prove(0), "{} of 3 moves proven", mv - 1);
            let child = add_child(&mut tree, 0, &[mv]);
            let mut proven = [0.0; MAX_PLAYERS];
            proven[..2].copy_from_slice(&result);
            tree.nodes[child as usize].proven = Some(proven);
        }
        assert!(tree.prove(0));
        assert_eq!(tree.nodes[0].proven.map(|p| [p[0], p[1]]), Some([0.5, 0.5]));
    }

    #[test]
    fn back_up_adds_the_result_along_the_path_and_lifts_the_best_minimax_value() {
        let config = evaluating();
        let mut tree = tree_of(6);
        let child = add_child(&mut tree, 0, &[1]);
        let grandchild = add_child(&mut tree, child, &[1, 1]);
        descend_to(&mut tree, grandchild);
        tree.back_up(grandchild, &[0.25, 0.75, 0.0, 0.0], &config);
        for index in [0, child, grandchild] {
            let node = &tree.nodes[index as usize];
            assert_eq!((node.visits, node.virtual_loss), (1, 0), "node {index}");
            assert_eq!(node.totals[..2], [0.25, 0.75], "node {index}");
        }
        // Four tokens with player 0 to move: lost for player 0, estimated
        // at -0.9, normalised to 0.05; the value rises to the root.
        for index in [0, child] {
            assert!((tree.nodes[index as usize].minimax[0] - 0.05).abs() < 1e-12);
        }
        // Taking two leaves four tokens to player 1: the root's best.
        let better = add_child(&mut tree, 0, &[2]);
        descend_to(&mut tree, better);
        tree.back_up(better, &[0.5; MAX_PLAYERS], &config);
        assert!((tree.nodes[0].minimax[0] - 0.95).abs() < 1e-12);
        assert_eq!((tree.nodes[0].visits, tree.nodes[0].totals[0]), (2, 0.75));
    }

    #[test]
    fn a_proof_runs_up_the_tree_as_far_as_it_holds() {
        let config = MctsConfig::default();
        let mut tree = tree_of(2);
        let child = add_child(&mut tree, 0, &[1]);
        // Player 1 takes the last token and wins.
        let end = add_child(&mut tree, child, &[1, 1]);
        descend_to(&mut tree, end);
        let lost = tree.nodes[end as usize].proven.unwrap();
        tree.back_up(end, &lost, &config);
        assert_eq!(tree.nodes[child as usize].proven, Some(lost));
        assert!(!tree.is_solved(), "the root's other move is not built");
        // Player 0 takes both tokens and wins.
        let win = add_child(&mut tree, 0, &[2]);
        descend_to(&mut tree, win);
        let won = tree.nodes[win as usize].proven.unwrap();
        tree.back_up(win, &won, &config);
        assert_eq!(tree.nodes[0].proven, Some(won));
        assert_eq!(won[..2], [1.0, 0.0]);
    }
}
