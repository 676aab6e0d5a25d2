//! The result of a search: the root moves' statistics summed over the
//! trees, and the move chosen from them.

use super::super::selection::blend;
use super::tree::{NO_PLAYER, Tree};
use super::{FinalChoice, MctsConfig};
use crate::core::{Game, MAX_PLAYERS};
use std::time::{Duration, Instant};

/// The statistics of one root move after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats<M> {
    /// The move.
    pub mv: M,
    /// The simulations that went through the move, over all trees.
    pub visits: u64,
    /// The mean normalised payoff (in `[0, 1]`) of the player to move.
    pub mean: f64,
    /// The value selection gives the move without exploration, `(1 - α) *
    /// mean + α * minimax` for the player to move, where `minimax` is the
    /// move's implicit minimax value (its evaluation if never visited) and
    /// `α` the [`MctsConfig::minimax_weight`]. Over several root-parallel
    /// trees, the average weighted by visits plus one.
    pub value: f64,
    /// The normalised payoffs if the move's result is proven.
    pub proven: Option<[f64; MAX_PLAYERS]>,
    /// With [`MctsConfig::check_depth`], the move's checked value for the
    /// player to move (the smaller of its estimate and the check's score,
    /// normalised), if it was checked.
    pub checked: Option<f64>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The move to play, `None` only if the root had no player to move.
    pub best_move: Option<M>,
    /// Simulations run in this search.
    pub iterations: u64,
    /// Nodes in the tree(s) after the search.
    pub nodes: usize,
    /// Every expanded root move, most visited first.
    pub moves: Vec<MoveStats<M>>,
    /// The time the search took.
    pub elapsed: Duration,
    /// Whether a tree reached [`MctsConfig::node_budget`] and stopped growing.
    pub budget_reached: bool,
}

impl<M> MoveStats<M> {
    /// The move's value for `mover` as the final choice ranks it: its
    /// proven result, else the estimate of `choice`.
    pub(super) fn value_for(&self, mover: usize, choice: FinalChoice) -> f64 {
        match (self.proven, choice) {
            (Some(proven), _) => proven[mover],
            (None, FinalChoice::MostVisited) => self.mean,
            (None, FinalChoice::BestValue) => self.value,
        }
    }
}

impl<M: Copy + PartialEq> MctsResult<M> {
    /// Sums the root statistics of the trees and picks the move: a proven win
    /// for the player to move if there is one, the best proven move (the
    /// most visited of equals) if every move is proven, else the move of the
    /// [`FinalChoice`] (the most visited or the best valued), unless a
    /// proven result beats that move's estimate.
    pub(super) fn finish<G: Game<Move = M>>(
        mut self,
        trees: &[Tree<G>],
        config: &MctsConfig,
        started: Instant,
    ) -> Self {
        let mut merged: Vec<MoveStats<M>> = Vec::new();
        for tree in trees {
            for stats in tree.root_stats(config.minimax_weight) {
                match merged.iter_mut().find(|seen| seen.mv == stats.mv) {
                    Some(seen) => {
                        let visits = seen.visits + stats.visits;
                        if visits > 0 {
                            seen.mean = (seen.mean * seen.visits as f64
                                + stats.mean * stats.visits as f64)
                                / visits as f64;
                        }
                        // Weighted by visits plus one, so that a move no
                        // tree visited still averages its evaluations.
                        seen.value = (seen.value * (seen.visits + 1) as f64
                            + stats.value * (stats.visits + 1) as f64)
                            / (visits + 2) as f64;
                        seen.visits = visits;
                        seen.proven = seen.proven.or(stats.proven);
                    }
                    None => merged.push(stats),
                }
            }
        }
        merged.sort_by_key(|stats| std::cmp::Reverse(stats.visits));
        let mover = trees
            .first()
            .map(|tree| tree.nodes[0].mover)
            .filter(|&mover| mover != NO_PLAYER)
            .map(usize::from);
        if let Some(mover) = mover {
            let value = |stats: &MoveStats<M>| stats.value_for(mover, config.final_choice);
            let proven_win = merged
                .iter()
                .find(|stats| stats.proven.is_some_and(|p| p[mover] >= 1.0));
            let favourite = match config.final_choice {
                FinalChoice::MostVisited => merged
                    .iter()
                    .find(|stats| stats.proven.is_none_or(|p| p[mover] >= stats.mean))
                    .or(merged.first()),
                // `merged` is sorted by visits, so the first of equal
                // values is the most visited.
                FinalChoice::BestValue => merged.iter().reduce(|best, stats| {
                    if value(stats) > value(best) {
                        stats
                    } else {
                        best
                    }
                }),
            };
            // Among equal proven results the most visited: in a lost
            // position, the move the search found hardest to refute.
            let best_proven = merged
                .iter()
                .filter(|stats| stats.proven.is_some())
                .max_by(|a, b| value(a).total_cmp(&value(b)).then(a.visits.cmp(&b.visits)));
            let all_proven = merged.iter().all(|stats| stats.proven.is_some());
            let choice = match (proven_win, favourite, best_proven) {
                (Some(win), _, _) => Some(win),
                (None, _, Some(proven)) if all_proven => Some(proven),
                (None, Some(favourite), Some(proven)) if value(proven) > value(favourite) => {
                    Some(proven)
                }
                (None, favourite, proven) => favourite.or(proven),
            };
            self.best_move = choice.map(|stats| stats.mv);
        }
        self.moves = merged;
        self.elapsed = started.elapsed();
        self
    }
}

impl<G: Game> Tree<G> {
    /// The root's children with their statistics.
    pub(super) fn root_stats(&self, minimax_weight: f64) -> Vec<MoveStats<G::Move>> {
        let mover = usize::from(self.nodes[0].mover);
        self.children(0)
            .map(|child| {
                let node = &self.nodes[child as usize];
                let minimax = node.minimax[mover];
                let mean = if node.visits == 0 {
                    0.0
                } else {
                    node.totals[mover] / f64::from(node.visits)
                };
                let value = if node.visits == 0 {
                    minimax
                } else {
                    blend(minimax_weight, mean, minimax)
                };
                MoveStats {
                    mv: node.mv.expect("children have moves"),
                    visits: u64::from(node.visits),
                    mean,
                    value,
                    proven: node.proven,
                    checked: None,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_game::{Pile, root_with_children};
    use super::*;

    fn finish(trees: &[Tree<Pile>], config: &MctsConfig) -> MctsResult<u32> {
        MctsResult {
            best_move: None,
            iterations: 0,
            nodes: 0,
            moves: Vec::new(),
            elapsed: Duration::ZERO,
            budget_reached: false,
        }
        .finish(trees, config, Instant::now())
    }

    fn proven(payoff: f64) -> Option<[f64; MAX_PLAYERS]> {
        Some([payoff, 1.0 - payoff, 0.0, 0.0])
    }

    fn stats_of(result: &MctsResult<u32>, mv: u32) -> &MoveStats<u32> {
        result.moves.iter().find(|stats| stats.mv == mv).unwrap()
    }

    #[test]
    fn the_trees_statistics_are_summed_and_the_most_visited_move_is_played() {
        let (first, _) = root_with_children([(4, 2.0), (2, 2.0), (0, 0.0)]);
        let (second, _) = root_with_children([(4, 1.0), (6, 3.0), (1, 1.0)]);
        let result = finish(&[first, second], &MctsConfig::default());
        let visits: Vec<(u32, u64)> = result.moves.iter().map(|s| (s.mv, s.visits)).collect();
        assert_eq!(visits, [(2, 8), (1, 8), (3, 1)]);
        // (0.5 * 4 + 0.25 * 4) / 8 and (1.0 * 2 + 0.5 * 6) / 8
        assert!((stats_of(&result, 1).mean - 0.375).abs() < 1e-12);
        assert!((stats_of(&result, 2).mean - 0.625).abs() < 1e-12);
        // Move 3, never visited in the first tree, is valued there at its
        // evaluation (three tokens left to player 1: 0.05 for player 0),
        // weighted by visits plus one: (0.05 * 1 + 1.0 * 2) / 3.
        assert!((stats_of(&result, 3).value - 2.05 / 3.0).abs() < 1e-12);
        assert_eq!(result.best_move, Some(2));
    }

    #[test]
    fn a_proven_win_is_played_however_little_visited() {
        let (mut tree, [_, _, three]) = root_with_children([(4, 2.0), (9, 6.0), (1, 1.0)]);
        tree.nodes[three as usize].proven = proven(1.0);
        assert_eq!(finish(&[tree], &MctsConfig::default()).best_move, Some(3));
    }

    #[test]
    fn the_most_visited_move_gives_way_when_proven_worse_than_its_mean() {
        let (mut tree, [_, two, _]) = root_with_children([(4, 2.0), (9, 6.0), (1, 1.0)]);
        tree.nodes[two as usize].proven = proven(0.0);
        assert_eq!(finish(&[tree], &MctsConfig::default()).best_move, Some(1));
    }

    #[test]
    fn with_every_move_proven_the_best_is_played_the_most_visited_of_equals() {
        let (mut tree, children) = root_with_children([(4, 2.0), (9, 6.0), (5, 1.0)]);
        for (child, payoff) in children.into_iter().zip([0.5, 0.0, 0.5]) {
            tree.nodes[child as usize].proven = proven(payoff);
        }
        assert_eq!(finish(&[tree], &MctsConfig::default()).best_move, Some(3));
    }

    #[test]
    fn the_best_valued_move_is_played_the_more_visited_of_equals() {
        let config = MctsConfig {
            final_choice: FinalChoice::BestValue,
            ..MctsConfig::default()
        };
        let (tree, _) = root_with_children([(4, 2.0), (2, 1.0), (9, 3.0)]);
        assert_eq!(finish(&[tree], &config).best_move, Some(1));
    }
}
