//! Selection: the descent from the root to the node an iteration works
//! on, scoring a node's children on the way by the policies of
//! `search::selection` (UCB1, implicit minimax, progressive bias) chosen
//! from the settings.

use super::super::selection::{Candidate, ImplicitMinimax, ProgressiveBias, SelectionPolicy, Uct};
use super::tree::{NO_PLAYER, NONE, Node, Tree};
use super::{Expansion, MctsConfig};
use crate::core::{Game, MAX_PLAYERS};

/// A prime larger than any move count: stepping through the moves by it
/// modulo their number visits each one once, in a scrambled order.
const SCRAMBLE_STEP: usize = 65_521;

/// Where a descent ended and what it asks for.
pub(super) enum Selection {
    /// The node's result is known (a finished game or a proven node).
    Known(u32, [f64; MAX_PLAYERS]),
    /// Simulate from the node.
    Simulate(u32),
    /// Build the child of the node that is the `slot`-th move of the
    /// tactical (or quiet) group of its legal moves.
    Expand {
        parent: u32,
        tactical: bool,
        slot: usize,
    },
    /// Build every child of the node ([`Expansion::All`]).
    ExpandAll(u32),
}

/// `node` for the player `mover`, with `visits` (virtual losses
/// included, more than none unless `all_built`).
fn candidate<M>(node: &Node<M>, mover: usize, visits: f64, all_built: bool) -> Candidate {
    let (mean, explored) = if all_built {
        let mean = if visits == 0.0 {
            node.minimax[mover]
        } else {
            node.totals[mover] / visits
        };
        (mean, visits + 1.0)
    } else {
        (node.totals[mover] / visits, visits)
    };
    // A virtual loss is a visit that paid nothing, in the minimax value
    // as in the mean, so that threads sharing a tree that selects by
    // minimax alone still part ways (without one the factor is exactly
    // 1, so that one thread searches as it always has).
    let pending = f64::from(node.virtual_loss);
    let settled = f64::from(node.visits) + 1.0;
    Candidate {
        mean,
        minimax: node.minimax[mover] * (settled / (settled + pending)),
        visits,
        explored,
        prior: node.prior,
    }
}

impl<G: Game> Tree<G> {
    /// Walks down from the root by the selection policy of `config`,
    /// adding a virtual loss to every node passed and recording the moves
    /// in `path`, until a node that is finished, proven, or has a child
    /// left to build (if the budget allows).
    pub(super) fn select(&mut self, config: &MctsConfig, path: &mut Vec<G::Move>) -> Selection {
        let exploration = config.exploration;
        let uct = Uct { exploration };
        let implicit_minimax = ImplicitMinimax {
            weight: config.minimax_weight,
            exploration,
        };
        let bias = config.progressive_bias;
        // A term whose weight is zero adds nothing to any score, so the
        // policies without it choose the same children.
        match (config.minimax_weight != 0.0, bias != 0.0) {
            (false, false) => self.descend(config, path, &uct),
            (true, false) => self.descend(config, path, &implicit_minimax),
            (false, true) => self.descend(config, path, &ProgressiveBias::new(uct, bias)),
            (true, true) => {
                self.descend(config, path, &ProgressiveBias::new(implicit_minimax, bias))
            }
        }
    }

    /// [`Tree::select`] with `policy` scoring the children.
    fn descend(
        &mut self,
        config: &MctsConfig,
        path: &mut Vec<G::Move>,
        policy: &impl SelectionPolicy,
    ) -> Selection {
        path.clear();
        let mut index = 0u32;
        loop {
            // The root's children are built whatever the budget: without
            // them there is no move to choose.
            let budget_left = self.nodes.len() < config.node_budget || index == 0;
            let node = &mut self.nodes[index as usize];
            node.virtual_loss += 1;
            if let Some(result) = node.proven
                && (config.solver || node.mover == NO_PLAYER)
            {
                return Selection::Known(index, result);
            }
            if node.mover == NO_PLAYER {
                return Selection::Simulate(index);
            }
            if config.expansion == Expansion::All && node.first_child == NONE {
                // A node another thread is expanding (no children yet) is
                // expanded again rather than waited for: a thread the
                // system holds back would otherwise hold up its whole
                // subtree (the tic-tac-toe proofs found such stalls). The
                // first expansion to finish is linked.
                if budget_left {
                    return Selection::ExpandAll(index);
                }
                return Selection::Simulate(index);
            }
            let widening_allows = config.widening.is_none_or(|widening| {
                u64::from(node.claimed) < widening.children_allowed(u64::from(node.visits) + 1)
            });
            if config.expansion == Expansion::OneByOne
                && node.claimed < node.move_count
                && budget_left
                && widening_allows
            {
                let (claimed, tactical) =
                    (usize::from(node.claimed), usize::from(node.tactical_count));
                let (is_tactical, rank, group) = if claimed < tactical {
                    (true, claimed, tactical)
                } else {
                    (
                        false,
                        claimed - tactical,
                        usize::from(node.move_count) - tactical,
                    )
                };
                node.claimed += 1;
                return Selection::Expand {
                    parent: index,
                    tactical: is_tactical,
                    slot: (usize::from(node.scramble_offset) + rank * SCRAMBLE_STEP) % group,
                };
            }
            match self.select_child(index, config, policy) {
                Some(child) => {
                    path.push(self.nodes[child as usize].mv.expect("children have moves"));
                    index = child;
                }
                None => return Selection::Simulate(index),
            }
        }
    }

    /// The child `policy` scores highest for the player to move, the first
    /// of equals; a virtual loss counts as a visit that paid nothing, and a
    /// child never visited comes first. With every child built at
    /// once, a child never visited counts its evaluation as its mean and one
    /// visit more in the exploration term, proven children are passed over,
    /// and widening opens the children best evaluated first.
    fn select_child(
        &self,
        parent: u32,
        config: &MctsConfig,
        policy: &impl SelectionPolicy,
    ) -> Option<u32> {
        let node = &self.nodes[parent as usize];
        let mover = usize::from(node.mover);
        let parent_visits = f64::from(node.visits + node.virtual_loss).max(1.0);
        let parent_term = policy.parent(parent_visits);
        let all_built = config.expansion == Expansion::All;
        let open = match config.widening {
            Some(widening) if all_built => {
                let allowed = widening.children_allowed(u64::from(node.visits) + 1);
                usize::try_from(allowed).unwrap_or(usize::MAX)
            }
            _ => usize::MAX,
        };
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        // A proven child's value is already in its parent's implicit minimax
        // value; when every child is built, visiting it again would only
        // repeat that value, as long as a sibling is unproven (when none is,
        // the parent is proven).
        let passed_over = |child: &u32| {
            all_built && config.solver && self.nodes[*child as usize].proven.is_some()
        };
        for child in self
            .children(parent)
            .filter(|child| !passed_over(child))
            .take(open)
        {
            let child_node = &self.nodes[child as usize];
            let score = match child_node.proven {
                Some(result) if config.solver => result[mover],
                _ => {
                    let visits = f64::from(child_node.visits + child_node.virtual_loss);
                    if visits == 0.0 && !all_built {
                        f64::INFINITY
                    } else {
                        policy.score(
                            &candidate(child_node, mover, visits, all_built),
                            parent_term,
                        )
                    }
                }
            };
            if score > best_score {
                best_score = score;
                best = Some(child);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_game::{root_with_children, tree_of};
    use super::*;

    #[test]
    fn a_new_node_claims_each_move_once() {
        let config = MctsConfig::default();
        let mut tree = tree_of(6);
        let mut path = Vec::new();
        let mut slots = Vec::new();
        for _ in 0..3 {
            match tree.select(&config, &mut path) {
                Selection::Expand {
                    parent: 0,
                    tactical: false,
                    slot,
                } => slots.push(slot),
                _ => panic!("the root has moves left to build"),
            }
        }
        slots.sort();
        assert_eq!(slots, [0, 1, 2]);
        assert_eq!(tree.nodes[0].virtual_loss, 3);
    }

    #[test]
    fn an_unvisited_child_comes_first_then_the_best_score_then_the_first_of_equals() {
        let uct = Uct { exploration: 1.0 };
        let config = MctsConfig::default();
        let (mut tree, [_, two, three]) = root_with_children([(2, 1.0), (2, 1.6), (0, 0.0)]);
        assert_eq!(tree.select_child(0, &config, &uct), Some(three));
        // Equal to the move 2; the move 3, built last, is listed first.
        tree.nodes[three as usize].visits = 2;
        tree.nodes[three as usize].totals[0] = 1.6;
        assert_eq!(tree.select_child(0, &config, &uct), Some(three));
        tree.nodes[three as usize].totals[0] = 1.5;
        assert_eq!(tree.select_child(0, &config, &uct), Some(two));
        // Two virtual losses bring the move 2's mean down to 0.4.
        tree.nodes[two as usize].virtual_loss = 2;
        assert_eq!(tree.select_child(0, &config, &uct), Some(three));
    }

    #[test]
    fn the_solver_takes_a_proven_win_unless_every_child_is_built_at_once() {
        let greedy = Uct { exploration: 0.0 };
        let (mut tree, [one, two, _]) = root_with_children([(2, 0.0), (2, 1.6), (2, 1.0)]);
        let mut win = [0.0; MAX_PLAYERS];
        win[0] = 1.0;
        tree.nodes[one as usize].proven = Some(win);
        let solving = MctsConfig::default();
        assert_eq!(tree.select_child(0, &solving, &greedy), Some(one));
        // With every child built, a proven child's value is already in its
        // parent's: it is passed over.
        let all_built = MctsConfig {
            expansion: Expansion::All,
            ..MctsConfig::default()
        };
        assert_eq!(tree.select_child(0, &all_built, &greedy), Some(two));
    }
}
