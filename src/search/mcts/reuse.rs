//! Tree reuse: after a move is played, the subtree below it becomes the
//! next search's tree, cut to half the node budget.

use super::Mcts;
use super::tree::{NO_PLAYER, NONE, Tree};
use crate::core::{Evaluator, Game};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// Moves the trees' roots along `mv`, played from `before`, keeping what
    /// was learned below it (if tree reuse is on and the trees are rooted at
    /// `before`); otherwise the trees are dropped. Each tree keeps at most
    /// half its node budget, its most visited lines, so that the next search
    /// has room to grow: a tree kept whole would fill its budget within a
    /// few moves and stop growing.
    ///
    /// The move is only noted here: the trees are cut at the start of the
    /// next search, inside its time limit, since cutting a large tree takes
    /// milliseconds that a player on the clock cannot spare between
    /// moves ([`Mcts::cut_trees`] cuts them at once).
    pub fn advance(&mut self, before: &G, mv: G::Move) {
        let root = match &self.position_after_played {
            Some(position) => Some(position),
            None => self.trees.first().map(|tree| &tree.root_state),
        };
        let rooted_here = root.is_some_and(|root| same_position(root, before));
        if !self.config.reuse_tree || !rooted_here {
            self.clear();
            return;
        }
        let mut after = before.clone();
        after.play(mv);
        self.played.push(mv);
        self.position_after_played = Some(after);
    }

    /// Cuts the trees down to the subtrees of the moves played since the
    /// last search ([`Mcts::advance`]), which the next search would do
    /// first.
    pub fn cut_trees(&mut self) {
        self.cut_trees_until(None);
    }

    /// Cuts the trees as [`Mcts::cut_trees`] does, but drops them instead
    /// if the cut is not done by `deadline`: a search then grows fresh
    /// trees in the time left.
    pub(super) fn cut_trees_until(&mut self, deadline: Option<Instant>) {
        let played = std::mem::take(&mut self.played);
        self.position_after_played = None;
        let limit = self.config.node_budget / 2;
        for mv in played {
            let mut all_kept = true;
            for tree in &mut self.trees {
                all_kept = all_kept && tree.advance(mv, limit, deadline);
            }
            if !all_kept {
                self.clear();
                return;
            }
        }
    }
}

impl<G: Game> Tree<G> {
    /// Keeps only the subtree below the root's child for `mv`, which becomes
    /// the new root, and of it no more than `limit` nodes; false if that
    /// child was never expanded.
    ///
    /// The families of siblings are kept whole or not at all, those of the
    /// most visited parents first: the lines the search followed longest,
    /// however deep, rather than the first few plies in full (kept breadth
    /// first, a best-first search that looks one line deep loses that line).
    /// A node whose children are cut off becomes a leaf again, its
    /// statistics and any proven result kept, to be expanded afresh (a
    /// proven leaf only as the root). The kept nodes move down in
    /// place, in their old order: a child is always built after its
    /// parent, so each moves to an index no greater than its own and
    /// families stay side by side.
    ///
    /// Also false if `deadline` passes before the cut is done: the tree is
    /// then left half cut, to be dropped.
    pub(super) fn advance(&mut self, mv: G::Move, limit: usize, deadline: Option<Instant>) -> bool {
        // The clock is read every this many families kept or nodes moved.
        const CLOCK_INTERVAL: u32 = 1 << 12;
        let mut steps = 0u32;
        let mut out_of_time = || {
            steps = steps.wrapping_add(1);
            steps.is_multiple_of(CLOCK_INTERVAL)
                && deadline.is_some_and(|deadline| Instant::now() >= deadline)
        };
        let Some(child) = self
            .children(0)
            .find(|&c| self.nodes[c as usize].mv == Some(mv))
        else {
            return false;
        };
        // Marks a kept node until the kept nodes are numbered; never an index.
        const KEPT: u32 = NONE - 1;
        let mut renumbered = vec![NONE; self.nodes.len()];
        renumbered[child as usize] = KEPT;
        let mut kept = 1;
        let mut cut_families = Vec::new();
        // Kept parents by visits, the older first among equals.
        let family_entry = |index: u32| (self.nodes[index as usize].visits, Reverse(index));
        let mut parents = BinaryHeap::new();
        if self.nodes[child as usize].first_child != NONE {
            parents.push(family_entry(child));
        }
        while let Some((_, Reverse(parent))) = parents.pop() {
            if out_of_time() {
                return false;
            }
            let family = self.children(parent).count();
            if kept + family > limit {
                cut_families.push(parent);
                continue;
            }
            kept += family;
            for sibling in self.children(parent) {
                renumbered[sibling as usize] = KEPT;
                if self.nodes[sibling as usize].first_child != NONE {
                    parents.push(family_entry(sibling));
                }
            }
        }
        let mut count = 0;
        for index in &mut renumbered[child as usize..] {
            if *index == KEPT {
                *index = count;
                count += 1;
            }
        }
        for &old in &cut_families {
            let node = &mut self.nodes[old as usize];
            node.first_child = NONE;
            node.claimed = 0;
        }
        let remap = |index: u32| {
            if index == NONE {
                NONE
            } else {
                renumbered[index as usize]
            }
        };
        for (old, &new) in renumbered.iter().enumerate().skip(child as usize) {
            if new == NONE {
                continue;
            }
            if out_of_time() {
                return false;
            }
            let mut node = self.nodes[old].clone();
            node.parent = remap(node.parent);
            node.first_child = remap(node.first_child);
            node.next_sibling = remap(node.next_sibling);
            self.nodes[new as usize] = node;
        }
        self.nodes.truncate(count as usize);
        let root = &mut self.nodes[0];
        root.parent = NONE;
        root.next_sibling = NONE;
        root.mv = None;
        if root.first_child == NONE && root.mover != NO_PLAYER {
            // A proven node cut off from its children keeps its result as
            // a leaf, but a root must have children to give a move: it is
            // searched afresh, and proven again if the solver can.
            root.proven = None;
        }
        self.root_state.play(mv);
        true
    }
}

/// Whether two states are the same position at the same point of the game.
pub(super) fn same_position<G: Game>(a: &G, b: &G) -> bool {
    a.hash() == b.hash() && a.ply() == b.ply()
}

#[cfg(test)]
mod tests {
    use super::super::MctsConfig;
    use super::super::test_game::{Pile, add_child, exact, tree_of};
    use super::*;

    /// A pile of ten after the move 1 (visited ten times): its three
    /// replies visited 6, 3 and 1 times, the first two with their own three
    /// replies built. Returns the tree and the replies.
    fn grown_tree() -> (Tree<Pile>, [u32; 3]) {
        let mut tree = tree_of(10);
        add_child(&mut tree, 0, &[2]);
        let played = add_child(&mut tree, 0, &[1]);
        tree.nodes[played as usize].visits = 10;
        let replies = [1, 2, 3].map(|mv| add_child(&mut tree, played, &[1, mv]));
        for (&reply, visits) in replies.iter().zip([6, 3, 1]) {
            tree.nodes[reply as usize].visits = visits;
        }
        for (reply, first) in [(replies[0], 1), (replies[1], 2)] {
            for mv in 1..=3 {
                add_child(&mut tree, reply, &[1, first, mv]);
            }
        }
        (tree, replies)
    }

    /// The moves from the root to each node, and the node's child count.
    fn lines(tree: &Tree<Pile>) -> Vec<(Vec<u32>, usize)> {
        (0..tree.nodes.len() as u32)
            .map(|index| {
                let mut line = Vec::new();
                let mut at = index;
                while let Some(mv) = tree.nodes[at as usize].mv {
                    line.push(mv);
                    at = tree.nodes[at as usize].parent;
                }
                line.reverse();
                (line, tree.children(index).count())
            })
            .collect()
    }

    #[test]
    fn the_subtree_of_the_move_played_becomes_the_tree() {
        let (mut tree, _) = grown_tree();
        let before = lines(&tree);
        assert!(tree.advance(1, usize::MAX, None));
        assert_eq!(tree.root_state, {
            let mut state = Pile::of(10);
            state.play(1);
            state
        });
        assert_eq!(tree.nodes[0].visits, 10);
        // Every node below the move 1, with as many children as it had.
        let expected: Vec<(Vec<u32>, usize)> = before
            .into_iter()
            .filter(|(line, _)| line.first() == Some(&1))
            .map(|(line, children)| (line[1..].to_vec(), children))
            .collect();
        let mut kept = lines(&tree);
        kept.sort();
        let mut expected = expected;
        expected.sort();
        assert_eq!(kept, expected);
        for (index, node) in tree.nodes.iter().enumerate().skip(1) {
            assert!(
                (node.parent as usize) < index,
                "a parent comes before its child"
            );
        }
    }

    #[test]
    fn a_cut_keeps_whole_families_of_the_most_visited_parents() {
        let (mut tree, _) = grown_tree();
        // The root, its three children and the family of the reply visited
        // six times fit in seven; that of the reply visited three times
        // does not.
        assert!(tree.advance(1, 7, None));
        let mut kept = lines(&tree);
        kept.sort();
        let expected = [
            (vec![], 3),
            (vec![1], 3),
            (vec![1, 1], 0),
            (vec![1, 2], 0),
            (vec![1, 3], 0),
            (vec![2], 0),
            (vec![3], 0),
        ];
        assert_eq!(kept, expected);
        // The cut reply keeps its statistics, to be expanded afresh.
        let cut = tree
            .children(0)
            .find(|&c| tree.nodes[c as usize].mv == Some(2))
            .unwrap();
        let node = &tree.nodes[cut as usize];
        assert_eq!((node.visits, node.claimed, node.first_child), (3, 0, NONE));
    }

    #[test]
    fn a_root_cut_from_its_children_forgets_its_proof() {
        let (mut tree, _) = grown_tree();
        let played = tree
            .children(0)
            .find(|&c| tree.nodes[c as usize].mv == Some(1));
        tree.nodes[played.unwrap() as usize].proven = Some([1.0, 0.0, 0.0, 0.0]);
        assert!(tree.advance(1, 1, None));
        assert_eq!(tree.nodes.len(), 1);
        assert_eq!(
            (tree.nodes[0].proven, tree.nodes[0].first_child),
            (None, NONE)
        );
    }

    #[test]
    fn a_move_never_expanded_keeps_nothing() {
        let (mut tree, _) = grown_tree();
        assert!(!tree.advance(3, usize::MAX, None));
    }

    #[test]
    fn a_searcher_keeps_half_its_budget_of_the_move_played() {
        let config = MctsConfig {
            iterations: Some(2_000),
            node_budget: 600,
            ..MctsConfig::default()
        };
        let mut search = Mcts::with_evaluator(config, 1, exact).unwrap();
        let state = Pile::of(21);
        let result = search.search(&state).unwrap();
        assert!(result.budget_reached);
        let mv = result.best_move.unwrap();
        search.advance(&state, mv);
        search.cut_trees();
        let kept = search.node_count();
        assert!(kept > 1 && kept <= 300, "{kept} nodes kept");
        // A move from a position the tree is not rooted at drops it.
        search.advance(&Pile::of(20), 1);
        assert_eq!(search.node_count(), 0);
    }
}
