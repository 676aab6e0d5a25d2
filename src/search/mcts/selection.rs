//! Selection: the descent from the root to the node an iteration works
//! on, and the policies that score a node's children on the way (UCB1,
//! implicit minimax, progressive bias), chosen from the settings.

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

/// A child as the selection policies see it, for the player choosing.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    /// The mean payoff; with every child built, a child never visited
    /// counts its evaluation.
    pub(super) mean: f64,
    /// The implicit minimax value, discounted by the child's virtual
    /// losses.
    pub(super) minimax: f64,
    /// The visits, virtual losses included.
    pub(super) visits: f64,
    /// The visits the exploration term counts: with every child built, one
    /// more, so that a child never visited has a finite bonus.
    pub(super) explored: f64,
    /// The evaluation of the child for the player choosing it.
    pub(super) prior: f32,
}

impl Candidate {
    /// `node` for the player `mover`, with `visits` (virtual losses
    /// included, more than none unless `all_built`).
    fn of<M>(node: &Node<M>, mover: usize, visits: f64, all_built: bool) -> Self {
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
}

/// How selection scores a child (the `mcts` crate's `TreePolicy` is the
/// model): the child with the highest score is chosen, the first of
/// equals.
pub(super) trait SelectionPolicy {
    /// The score of `child`, whose parent's visits (virtual losses
    /// included, at least one) have the logarithm `log_parent`.
    fn score(&self, child: &Candidate, log_parent: f64) -> f64;
}

/// UCB1's exploration term, `c * sqrt(ln N / n)`.
fn exploration_bonus(exploration: f64, log_parent: f64, explored: f64) -> f64 {
    exploration * (log_parent / explored).sqrt()
}

/// UCB1 (UCT): the mean plus the exploration term.
#[derive(Clone, Copy, Debug)]
pub(super) struct Uct {
    /// The exploration constant ([`MctsConfig::exploration`]).
    pub(super) exploration: f64,
}

impl SelectionPolicy for Uct {
    fn score(&self, child: &Candidate, log_parent: f64) -> f64 {
        child.mean + exploration_bonus(self.exploration, log_parent, child.explored)
    }
}

/// UCB1 on a blend of the mean and the implicit minimax value
/// ([`MctsConfig::minimax_weight`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct ImplicitMinimax {
    /// The weight `α` of the minimax value.
    pub(super) weight: f64,
    /// The exploration constant.
    pub(super) exploration: f64,
}

/// The value without exploration, `(1 - α) * mean + α * minimax` for the
/// weight `α` of the implicit minimax value: what the best-valued final
/// choice ranks the root's moves by.
pub(super) fn blend(weight: f64, mean: f64, minimax: f64) -> f64 {
    (1.0 - weight) * mean + weight * minimax
}

impl SelectionPolicy for ImplicitMinimax {
    fn score(&self, child: &Candidate, log_parent: f64) -> f64 {
        blend(self.weight, child.mean, child.minimax)
            + exploration_bonus(self.exploration, log_parent, child.explored)
    }
}

/// Another policy's score plus progressive bias, `b * prior / (visits +
/// 1)` ([`MctsConfig::progressive_bias`]): the evaluation steers a child's
/// first visits and fades as results come in.
#[derive(Clone, Copy, Debug)]
pub(super) struct ProgressiveBias<P> {
    inner: P,
    weight: f64,
}

impl<P: SelectionPolicy> ProgressiveBias<P> {
    pub(super) fn new(inner: P, weight: f64) -> Self {
        ProgressiveBias { inner, weight }
    }
}

impl<P: SelectionPolicy> SelectionPolicy for ProgressiveBias<P> {
    fn score(&self, child: &Candidate, log_parent: f64) -> f64 {
        self.inner.score(child, log_parent)
            + self.weight * f64::from(child.prior) / (child.visits + 1.0)
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
        let log_parent = parent_visits.ln();
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
                        let candidate = Candidate::of(child_node, mover, visits, all_built);
                        policy.score(&candidate, log_parent)
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

    fn candidate(mean: f64, minimax: f64, visits: f64, prior: f32) -> Candidate {
        Candidate {
            mean,
            minimax,
            visits,
            explored: visits,
            prior,
        }
    }

    fn close(score: f64, expected: f64) -> bool {
        (score - expected).abs() < 1e-6
    }

    #[test]
    fn uct_scores_the_mean_plus_the_exploration_term() {
        // 0.6 + 1.4 * sqrt(ln 10 / 4) = 0.6 + 1.4 * 0.758714
        let child = candidate(0.6, 0.1, 4.0, 0.9);
        let score = Uct { exploration: 1.4 }.score(&child, 10f64.ln());
        assert!(close(score, 1.662_199), "{score}");
    }

    #[test]
    fn implicit_minimax_blends_the_mean_and_the_minimax_value() {
        let child = candidate(0.6, 0.1, 4.0, 0.9);
        let policy = |weight| ImplicitMinimax {
            weight,
            exploration: 0.0,
        };
        // 0.75 * 0.6 + 0.25 * 0.1
        assert!(close(policy(0.25).score(&child, 1.0), 0.475));
        assert!(close(policy(1.0).score(&child, 1.0), 0.1));
        assert!(close(policy(0.0).score(&child, 1.0), 0.6));
    }

    #[test]
    fn progressive_bias_adds_the_prior_and_fades_with_visits() {
        let biased = ProgressiveBias::new(Uct { exploration: 0.0 }, 0.5);
        // 0.6 + 0.5 * 0.9 / (4 + 1), then / (49 + 1)
        assert!(close(
            biased.score(&candidate(0.6, 0.1, 4.0, 0.9), 1.0),
            0.69
        ));
        assert!(close(
            biased.score(&candidate(0.6, 0.1, 49.0, 0.9), 1.0),
            0.609
        ));
    }

    /// Each policy gives the score of the single formula selection used
    /// before the policies, `(1 - α) * mean + α * minimax + c * sqrt(ln N
    /// / n) + b * prior / (n + 1)`, to the bit, for the weights under
    /// which select chooses it: searches stay the same.
    #[test]
    fn the_policies_score_to_the_bit_as_the_formula_they_replace() {
        for (mean, minimax, visits, prior) in [
            (0.6, 0.1, 4.0, 0.9f32),
            (0.0, 0.0, 1.0, 0.0),
            (1.0, 0.37, 17.0, 0.123),
            (0.333, 0.999, 3.0, 0.5),
        ] {
            let child = candidate(mean, minimax, visits, prior);
            for (alpha, bias, c, parent) in [
                (0.0, 0.0, 1.0, 10.0f64),
                (0.5, 0.0, 0.05, 7.0),
                (1.0, 0.0, 0.0, 3.0),
                (0.0, 0.3, 1.4, 100.0),
                (0.7, 0.3, 0.2, 5.0),
            ] {
                let log_parent = parent.ln();
                let formula = (1.0 - alpha) * mean
                    + alpha * minimax
                    + c * (log_parent / visits).sqrt()
                    + bias * f64::from(prior) / (visits + 1.0);
                let minimax_policy = ImplicitMinimax {
                    weight: alpha,
                    exploration: c,
                };
                let uct = Uct { exploration: c };
                let score = match (alpha != 0.0, bias != 0.0) {
                    (false, false) => uct.score(&child, log_parent),
                    (true, false) => minimax_policy.score(&child, log_parent),
                    (false, true) => ProgressiveBias::new(uct, bias).score(&child, log_parent),
                    (true, true) => {
                        ProgressiveBias::new(minimax_policy, bias).score(&child, log_parent)
                    }
                };
                assert_eq!(
                    score.to_bits(),
                    formula.to_bits(),
                    "{child:?} {alpha} {bias}"
                );
            }
        }
    }

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
