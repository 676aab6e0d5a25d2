//! The alpha-beta check ([`check_depth`](super::MctsConfig::check_depth)):
//! the root moves the tree search ranks best are searched by alpha-beta
//! before one is played.

use super::config::MAX_CHECKED_MOVES;
use super::{Mcts, MctsResult, MoveStats};
use crate::core::{Evaluator, Game, Scoring, Status, normalised_payoffs};
use crate::search::SearchError;
use std::time::Instant;

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// With [`MctsConfig::check_depth`], checks the root moves in the order
    /// of their estimates by an alpha-beta search from each, until no
    /// unchecked move's estimate can beat the best checked value (or
    /// [`MAX_CHECKED_MOVES`] are checked, or the time is up), and plays the
    /// best checked move. A proven move's value is exact and needs no check.
    pub(super) fn check_candidates(
        &mut self,
        state: &G,
        result: &mut MctsResult<G::Move>,
        deadline: Option<Instant>,
    ) -> Result<(), SearchError> {
        let (Some(checker), Status::ToMove(mover)) = (self.checker.as_mut(), state.status()) else {
            return Ok(());
        };
        if state.num_players() != 2 || G::SCORING == Scoring::Team {
            return Ok(());
        }
        let final_choice = self.config.final_choice;
        let estimate = |stats: &MoveStats<G::Move>| stats.value_for(mover, final_choice);
        if result
            .moves
            .iter()
            .any(|stats| stats.proven.is_some_and(|proven| proven[mover] >= 1.0))
        {
            return Ok(());
        }
        let mut order: Vec<usize> = (0..result.moves.len()).collect();
        order.sort_by(|&a, &b| estimate(&result.moves[b]).total_cmp(&estimate(&result.moves[a])));
        let mut best: Option<(usize, f64)> = None;
        for &index in order.iter().take(MAX_CHECKED_MOVES) {
            let stats = &result.moves[index];
            let estimate = estimate(stats);
            if best.is_some_and(|(_, value)| value >= estimate) {
                break;
            }
            let checked = if stats.proven.is_some() {
                estimate
            } else {
                let mut child = state.clone();
                child.play(stats.mv);
                let score = match child.status() {
                    Status::Over(outcome) => {
                        normalised_payoffs(&child, outcome.payoffs.as_slice())[mover]
                    }
                    Status::ToMove(next) => {
                        let remaining = deadline
                            .map(|deadline| deadline.saturating_duration_since(Instant::now()));
                        if remaining.is_some_and(|time| time.is_zero()) {
                            break;
                        }
                        checker.set_time(remaining);
                        let searched = checker.search_with(&child, &self.evaluator)?;
                        if searched.depth < self.config.check_depth {
                            break;
                        }
                        let value = if next == mover {
                            searched.value()
                        } else {
                            -searched.value()
                        };
                        // From the scores' scale, [-1, 1], to the normalised
                        // payoffs' [0, 1].
                        (value + 1.0) / 2.0
                    }
                    other @ (Status::Chance | Status::Simultaneous) => {
                        return Err(SearchError::unsupported("MCTS", other));
                    }
                };
                score.min(estimate)
            };
            result.moves[index].checked = Some(checked);
            if best.is_none_or(|(_, value)| checked > value) {
                best = Some((index, checked));
            }
        }
        if let Some((index, _)) = best {
            result.best_move = Some(result.moves[index].mv);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::MctsConfig;
    use super::super::test_game::{Pile, even};
    use super::*;

    /// A search that sees nothing by itself: one visit a root move, scored
    /// by an evaluation that finds every position even.
    fn blind(check_depth: u32) -> MctsConfig {
        MctsConfig {
            iterations: Some(3),
            playout_plies: Some(0),
            minimax_weight: 1.0,
            check_depth,
            ..MctsConfig::default()
        }
    }

    #[test]
    fn the_check_finds_the_winning_move_the_tree_search_cannot_tell() {
        for seed in 0..8 {
            let mut search = Mcts::with_evaluator(blind(4), seed, even).unwrap();
            let result = search.search(&Pile::of(6)).unwrap();
            // Taking two leaves a multiple of four: a win found within
            // four plies. The other moves lose within two, and are worth
            // no more than that.
            assert_eq!(result.best_move, Some(2), "seed {seed}");
            for stats in result.moves.iter().filter(|stats| stats.mv != 2) {
                assert!(stats.checked.is_none_or(|value| value == 0.0), "{stats:?}");
            }
            assert!(result.moves.iter().any(|stats| stats.checked.is_some()));
        }
    }

    #[test]
    fn without_a_check_the_blind_search_plays_any_move_and_checks_none() {
        let played: Vec<Option<u32>> = (0..8)
            .map(|seed| {
                let mut search = Mcts::with_evaluator(blind(0), seed, even).unwrap();
                let result = search.search(&Pile::of(6)).unwrap();
                assert!(result.moves.iter().all(|stats| stats.checked.is_none()));
                result.best_move
            })
            .collect();
        assert!(played.iter().any(|&mv| mv != Some(2)), "{played:?}");
    }

    #[test]
    fn a_proven_win_needs_no_check() {
        let config = MctsConfig {
            iterations: Some(200),
            ..blind(4)
        };
        let mut search = Mcts::with_evaluator(config, 1, even).unwrap();
        let result = search.search(&Pile::of(3)).unwrap();
        assert_eq!(result.best_move, Some(3));
        assert!(result.moves.iter().all(|stats| stats.checked.is_none()));
    }
}
