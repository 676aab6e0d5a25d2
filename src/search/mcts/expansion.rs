//! Expansion: the work of an iteration away from the tree (replaying the
//! path, building the new child or every child at once, the simulation)
//! and linking what it built into the tree.

use super::MctsConfig;
use super::playout::{evaluation, simulate};
use super::selection::Selection;
use super::tree::{Description, NONE, Node, Tree};
use crate::core::{Evaluator, Game, GameRng, MAX_PLAYERS, MoveList, Status};

/// The children an iteration built away from the tree.
pub(super) enum NewChildren<M> {
    None,
    /// The child of [`Selection::Expand`].
    One(M, Description),
    /// Every child of [`Selection::ExpandAll`], best first for the player
    /// to move.
    All(Vec<(M, Description)>),
}

/// The work done away from the tree: the new children, if any, and the
/// result.
pub(super) struct Simulation<M> {
    children: NewChildren<M>,
    /// The result, or the status of a state the search cannot go through.
    result: Result<[f64; MAX_PLAYERS], Status>,
}

impl<G: Game> Tree<G> {
    /// The work of an iteration that needs no access to the tree: replaying
    /// the path, building the new child (tactical moves first, then the
    /// others, each group in a scrambled order), and the simulation.
    pub(super) fn simulate_selection(
        root_state: &G,
        path: &[G::Move],
        selection: &Selection,
        evaluator: &impl Evaluator<G>,
        config: &MctsConfig,
        rng: &mut GameRng,
        moves: &mut MoveList<G::Move>,
    ) -> Simulation<G::Move> {
        let mut state = root_state.clone();
        for &mv in path {
            state.play(mv);
        }
        match *selection {
            Selection::Known(_, result) => Simulation {
                children: NewChildren::None,
                result: Ok(result),
            },
            Selection::Simulate(_) => Simulation {
                children: NewChildren::None,
                result: simulate(state, evaluator, config, rng, moves),
            },
            Selection::ExpandAll(_) => Self::expand_all(&state, evaluator, moves),
            Selection::Expand { tactical, slot, .. } => {
                state.legal_moves(moves);
                let mv = moves
                    .iter()
                    .copied()
                    .filter(|&mv| evaluator.is_tactical(&state, mv) == tactical)
                    .nth(slot)
                    .expect("the group has this many moves");
                state.play(mv);
                let description = Description::of(&state, evaluator, config, rng, moves);
                let result = match (description.unsupported, description.proven) {
                    (Some(status), _) => Err(status),
                    (None, Some(result)) => Ok(result),
                    // A simulation of no plies is the evaluation, already made.
                    (None, None) if config.playout_plies == Some(0) && config.wants_estimates() => {
                        Ok(description.estimate)
                    }
                    (None, None) => simulate(state, evaluator, config, rng, moves),
                };
                Simulation {
                    children: NewChildren::One(mv, description),
                    result,
                }
            }
        }
    }

    /// Builds every child of `state`, best evaluated first for the player to
    /// move (ties in move order), with the best evaluation as the result.
    fn expand_all(
        state: &G,
        evaluator: &impl Evaluator<G>,
        moves: &mut MoveList<G::Move>,
    ) -> Simulation<G::Move> {
        let Status::ToMove(mover) = state.status() else {
            unreachable!("only a node with a player to move is expanded")
        };
        state.legal_moves(moves);
        let mut children: Vec<(G::Move, Description)> = moves
            .iter()
            .map(|&mv| {
                let mut child = state.clone();
                child.play(mv);
                (mv, Description::unexpanded(&child, evaluator))
            })
            .collect();
        if let Some(status) = children.iter().find_map(|(_, child)| child.unsupported) {
            return Simulation {
                children: NewChildren::None,
                result: Err(status),
            };
        }
        children.sort_by(|(_, a), (_, b)| b.estimate[mover].total_cmp(&a.estimate[mover]));
        let result = match children.first() {
            Some((_, best)) => best.estimate,
            None => evaluation(state, evaluator),
        };
        Simulation {
            children: NewChildren::All(children),
            result: Ok(result),
        }
    }

    /// Links the child built for `selection` (if any) and backs the result up
    /// from it to the root.
    pub(super) fn finish_iteration(
        &mut self,
        selection: Selection,
        simulation: Simulation<G::Move>,
        config: &MctsConfig,
    ) {
        let Simulation { children, result } = simulation;
        let result = match result {
            Ok(result) => result,
            Err(status) => {
                self.unsupported = Some(status);
                return;
            }
        };
        let leaf = match (selection, children) {
            (Selection::Known(node, _) | Selection::Simulate(node), _) => node,
            (Selection::ExpandAll(node), NewChildren::All(children)) => {
                if self.nodes[node as usize].first_child == NONE {
                    self.link_all(node, children);
                }
                if config.solver {
                    self.prove(node);
                }
                node
            }
            (Selection::Expand { parent, .. }, NewChildren::One(mv, description)) => {
                let child = self.nodes.len() as u32;
                let chooser = usize::from(self.nodes[parent as usize].mover);
                let prior = description.estimate[chooser] as f32;
                let mut node = Node::new(Some(mv), parent, description);
                node.prior = prior;
                node.virtual_loss = 1;
                node.next_sibling = self.nodes[parent as usize].first_child;
                self.nodes[parent as usize].first_child = child;
                self.nodes.push(node);
                child
            }
            (Selection::ExpandAll(_) | Selection::Expand { .. }, _) => {
                unreachable!("an expansion builds the children its selection asked for")
            }
        };
        self.back_up(leaf, &result, config);
    }

    /// Links `children`, best first, as every child of `parent`, whose
    /// implicit minimax value becomes the best of their evaluations.
    fn link_all(&mut self, parent: u32, children: Vec<(G::Move, Description)>) {
        let chooser = usize::from(self.nodes[parent as usize].mover);
        let first = self.nodes.len() as u32;
        let count = children.len();
        for (offset, (mv, description)) in children.into_iter().enumerate() {
            let prior = description.estimate[chooser] as f32;
            let mut node = Node::new(Some(mv), parent, description);
            node.prior = prior;
            if offset + 1 < count {
                node.next_sibling = first + offset as u32 + 1;
            }
            self.nodes.push(node);
        }
        let node = &mut self.nodes[parent as usize];
        if count > 0 {
            node.first_child = first;
        }
        node.move_count = count.min(usize::from(u16::MAX)) as u16;
        node.claimed = node.move_count;
        node.tactical_count = 0;
        self.update_minimax(parent);
    }

    /// One full iteration: selection, simulation, back-up.
    pub(super) fn iterate(
        &mut self,
        evaluator: &impl Evaluator<G>,
        config: &MctsConfig,
        rng: &mut GameRng,
        moves: &mut MoveList<G::Move>,
        path: &mut Vec<G::Move>,
    ) {
        let selection = self.select(config, path);
        let simulation = Self::simulate_selection(
            &self.root_state,
            path,
            &selection,
            evaluator,
            config,
            rng,
            moves,
        );
        self.finish_iteration(selection, simulation, config);
    }
}

#[cfg(test)]
mod tests {
    use super::super::Expansion;
    use super::super::test_game::{Pile, evaluating, exact, tree_of};
    use super::*;
    use crate::core::rng_from_seed;

    fn all_at_once() -> MctsConfig {
        MctsConfig {
            expansion: Expansion::All,
            playout_plies: Some(0),
            ..evaluating()
        }
    }

    /// The first half of an iteration, evaluating exactly.
    fn select_and_simulate(
        tree: &mut Tree<Pile>,
        config: &MctsConfig,
        rng: &mut GameRng,
        moves: &mut MoveList<u32>,
    ) -> (Selection, Simulation<u32>) {
        let mut path = Vec::new();
        let selection = tree.select(config, &mut path);
        let simulation = Tree::simulate_selection(
            &tree.root_state,
            &path,
            &selection,
            &exact,
            config,
            rng,
            moves,
        );
        (selection, simulation)
    }

    #[test]
    fn every_child_is_built_best_first_and_the_best_is_the_result() {
        let simulation = Tree::expand_all(&Pile::of(6), &exact, &mut MoveList::new());
        let NewChildren::All(children) = &simulation.children else {
            panic!("every child is built");
        };
        // Taking two leaves four, lost for player 1; the other two moves
        // are equal and keep their order.
        let moves: Vec<u32> = children.iter().map(|(mv, _)| *mv).collect();
        assert_eq!(moves, [2, 1, 3]);
        let result = simulation.result.unwrap();
        assert!((result[0] - 0.95).abs() < 1e-12, "{result:?}");
    }

    #[test]
    fn children_built_at_once_are_linked_side_by_side_under_their_best_value() {
        let config = all_at_once();
        let mut tree = tree_of(6);
        tree.siblings_together = true;
        let (mut rng, mut moves) = (rng_from_seed(1), MoveList::new());
        let (selection, simulation) = select_and_simulate(&mut tree, &config, &mut rng, &mut moves);
        assert!(matches!(selection, Selection::ExpandAll(0)));
        tree.finish_iteration(selection, simulation, &config);
        let root = &tree.nodes[0];
        assert_eq!((root.first_child, root.move_count, root.claimed), (1, 3, 3));
        assert!((root.minimax[0] - 0.95).abs() < 1e-12);
        let moves: Vec<Option<u32>> = tree
            .children(0)
            .map(|c| tree.nodes[c as usize].mv)
            .collect();
        assert_eq!(moves, [Some(2), Some(1), Some(3)]);
        assert_eq!((root.visits, root.virtual_loss), (1, 0));
    }

    #[test]
    fn a_child_built_alone_without_playout_plies_is_scored_by_its_evaluation() {
        let config = MctsConfig {
            playout_plies: Some(0),
            ..evaluating()
        };
        let mut tree = tree_of(5);
        let (mut rng, mut moves) = (rng_from_seed(3), MoveList::new());
        for _ in 0..3 {
            let (selection, simulation) =
                select_and_simulate(&mut tree, &config, &mut rng, &mut moves);
            let NewChildren::One(mv, _) = &simulation.children else {
                panic!("one child a visit");
            };
            // Taking one leaves four: a win for player 0 to move.
            let expected = if *mv == 1 { 0.95 } else { 0.05 };
            let result = simulation.result.as_ref().unwrap();
            assert!((result[0] - expected).abs() < 1e-12, "{mv}: {result:?}");
            tree.finish_iteration(selection, simulation, &config);
        }
        assert_eq!(tree.children(0).count(), 3);
        assert_eq!(tree.nodes[0].visits, 3);
    }

    #[test]
    fn iterations_prove_the_winning_move() {
        let config = MctsConfig::default();
        for tokens in [5, 6, 7, 9] {
            let mut tree = Tree::new(
                &Pile::of(tokens),
                &exact,
                &config,
                &mut rng_from_seed(1),
                Vec::new(),
            );
            let (mut rng, mut moves, mut path) = (rng_from_seed(2), MoveList::new(), Vec::new());
            for _ in 0..2_000 {
                if tree.is_solved() {
                    break;
                }
                tree.iterate(&exact, &config, &mut rng, &mut moves, &mut path);
            }
            assert_eq!(tree.nodes[0].proven.map(|p| p[0]), Some(1.0), "{tokens}");
            let winning = tree
                .children(0)
                .find(|&c| tree.nodes[c as usize].proven.is_some_and(|p| p[0] == 1.0))
                .and_then(|c| tree.nodes[c as usize].mv);
            assert_eq!(winning, Some(tokens % 4), "{tokens}");
        }
    }
}
