//! The guided search against facts known without it: Sequential Halving's
//! schedule as the paper describes it, Bouton's theorem, the policy
//! improvement Gumbel search guarantees, and searches that do not depend
//! on their batch or threads.

use super::decisions::scaled_payoffs;
use super::test_games::{
    Bandit, ExactNim, Gamble, HEAPS, LOSING_BALLS, MOST_TOKENS, Nim, WINNING_BALLS, Wager,
};
use super::*;
use crate::core::{Game, Player, derive_seed, rng_from_seed};
use rand::RngExt;

fn config(simulations: u32, gumbel: bool) -> GuidedConfig {
    GuidedConfig {
        simulations,
        gumbel,
        ..GuidedConfig::default()
    }
}

fn search_one<G: crate::core::Encoding, E: LeafEvaluator<G>>(
    config: GuidedConfig,
    state: &G,
    evaluator: &mut E,
) -> SearchOutcome<G::Move> {
    let roots = [SearchRoot {
        state,
        pending: &[],
        seed: 1,
    }];
    GuidedSearch::new(config)
        .unwrap()
        .search(&roots, evaluator)
        .unwrap()
        .pop()
        .unwrap()
}

/// Sequential Halving as Danihelka et al. describe it, over ranks (0 the
/// best arm): `ceil(log2 m)` phases, each giving every arm left
/// `max(1, floor(n / (ceil(log2 m) * arms left)))` visits, one round
/// after another in order of rank, then keeping the better half (at least
/// two), the budget left after the last phase spent the same way on the
/// last two; the visits each rank gets from `n` simulations.
fn papers_visits(considered: usize, simulations: usize) -> Vec<usize> {
    let phases = (considered as f64).log2().ceil() as usize;
    let mut visits = vec![0; considered];
    let mut left = considered;
    let mut spent = 0;
    while spent < simulations {
        let rounds = (simulations / (phases * left)).max(1);
        for _ in 0..rounds {
            for count in visits.iter_mut().take(left) {
                if spent < simulations {
                    *count += 1;
                    spent += 1;
                }
            }
        }
        left = (left / 2).max(2);
    }
    visits
}

/// A network that ranks the bandit's arms right: logits rising with the
/// arm's index (as its payoff does), by too little to outweigh a value.
struct RankedArms;

impl TensorEvaluator for RankedArms {
    fn layout(&self) -> ValueLayout {
        ValueLayout::Team
    }

    fn evaluate(
        &mut self,
        _: &[f32],
        _: &[u8],
        batch: usize,
        logits: &mut [f32],
        _: &mut [f32],
    ) -> Result<(), EvaluationError> {
        let actions = logits.len() / batch;
        for (index, logit) in logits.iter_mut().enumerate() {
            *logit = 0.001 * (index % actions) as f32;
        }
        Ok(())
    }
}

/// With the arms ranked by the network as by their payoffs, Gumbel-Top-k
/// without noise considers the best `m` and every halving keeps the better
/// half, so the visits of the arms, best first, are the paper's.
#[test]
fn sequential_halving_spends_the_budget_as_the_paper_does() {
    for arms in [2u32, 3, 5, 8, 13, 16] {
        for simulations in 8..=200 {
            let bandit = Bandit { arms, pulled: None };
            let search = GuidedConfig {
                gumbel_scale: 0.0,
                ..config(simulations, true)
            };
            let outcome = search_one(search, &bandit, &mut Tensors(RankedArms));
            // Arm i pays (i + 1) / arms: the best arm is the last.
            let by_rank: Vec<usize> = outcome
                .actions
                .iter()
                .rev()
                .map(|action| action.visits as usize)
                .collect();
            assert_eq!(
                by_rank,
                papers_visits(arms as usize, simulations as usize),
                "{arms} arms, {simulations} simulations"
            );
            // The best arm survives every halving and is played.
            assert_eq!(outcome.chosen, arms - 1);
        }
    }
}

#[test]
fn a_budget_of_the_considered_actions_visits_each_of_them_once() {
    for (arms, considered) in [(8, 8), (16, 16), (40, 16), (40, 8)] {
        for seed in 0..5 {
            let bandit = Bandit { arms, pulled: None };
            let search = GuidedConfig {
                considered,
                ..config(considered, true)
            };
            let roots = [SearchRoot {
                state: &bandit,
                pending: &[],
                seed,
            }];
            let outcome = GuidedSearch::new(search)
                .unwrap()
                .search(&roots, &mut UniformEvaluation)
                .unwrap()
                .pop()
                .unwrap();
            let visited: Vec<u32> = outcome
                .actions
                .iter()
                .filter(|action| action.visits > 0)
                .map(|action| action.visits)
                .collect();
            assert_eq!(visited, vec![1; considered as usize], "{arms} arms");
        }
    }
}

/// Every Nim position with heaps of at most 3, 4 and 5 tokens.
fn nim_positions() -> impl Iterator<Item = Nim> {
    (0..=3u8).flat_map(|a| (0..=4u8).flat_map(move |b| (0..=5u8).map(move |c| Nim::of([a, b, c]))))
}

/// The guided search with exact values as its evaluator plays a winning
/// move (one to a nim-sum of 0, by Bouton's theorem) in every Nim position
/// that has one, with both rules and as many simulations a decision as the
/// decision has legal ids; each move takes two decisions, the heap and the
/// tokens.
#[test]
fn exact_values_find_a_winning_nim_move_wherever_there_is_one() {
    let mut searched = 0;
    for gumbel in [true, false] {
        for position in nim_positions().filter(|nim| nim.nim_sum() != 0) {
            let mut pending = Vec::new();
            let mv = loop {
                let legal = match pending.first() {
                    None => position.heaps.iter().filter(|&&heap| heap > 0).count(),
                    Some(&heap) => usize::from(position.heaps[heap as usize]),
                };
                let search = GuidedConfig {
                    gumbel_scale: 0.0,
                    ..config(legal as u32, gumbel)
                };
                let roots = [SearchRoot {
                    state: &position,
                    pending: &pending,
                    seed: 3,
                }];
                let outcome = GuidedSearch::new(search)
                    .unwrap()
                    .search(&roots, &mut ExactNim)
                    .unwrap()
                    .pop()
                    .unwrap();
                match outcome.completed {
                    Some(mv) => break mv,
                    None => pending.push(outcome.chosen),
                }
            };
            let mut after = position.clone();
            after.play(mv);
            assert_eq!(after.nim_sum(), 0, "{position:?}: {mv:?} (gumbel {gumbel})");
            searched += 1;
        }
    }
    // 102 of the 120 positions have a nim-sum other than 0.
    assert_eq!(searched, 2 * 102);
}

/// A network of random weights: logits and values drawn from a hash of
/// the observation.
struct RandomNetwork {
    seed: u64,
}

impl TensorEvaluator for RandomNetwork {
    fn layout(&self) -> ValueLayout {
        ValueLayout::ToMove
    }

    fn evaluate(
        &mut self,
        observations: &[f32],
        _masks: &[u8],
        batch: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvaluationError> {
        let size = observations.len() / batch;
        let actions = logits.len() / batch;
        for index in 0..batch {
            let hash = observations[index * size..][..size]
                .iter()
                .fold(self.seed, |hash, value| {
                    derive_seed(hash, u64::from(value.to_bits()))
                });
            let mut rng = rng_from_seed(hash);
            for logit in &mut logits[index * actions..][..actions] {
                *logit = rng.random_range(-3.0..3.0);
            }
            values[index] = rng.random_range(-1.0..1.0);
        }
        Ok(())
    }
}

/// Danihelka et al.'s policy improvement: the improved policy
/// `softmax(logits + σ(q̂))` expects at least the completed Q-value the
/// prior `softmax(logits)` does, at every searched root, on random
/// positions and random networks.
#[test]
fn the_improved_policy_expects_at_least_the_priors_value() {
    let mut rng = rng_from_seed(9);
    for index in 0..60 {
        let mut heaps = [0u8; HEAPS];
        for heap in &mut heaps {
            *heap = rng.random_range(0..=MOST_TOKENS);
        }
        let position = Nim::of(heaps);
        if position.status().is_over() {
            continue;
        }
        let mut network = Tensors(RandomNetwork { seed: index });
        let simulations = rng.random_range(4..40);
        let outcome = search_one(config(simulations, true), &position, &mut network);
        let expected = |weight: &dyn Fn(&RootAction) -> f64| -> f64 {
            outcome
                .actions
                .iter()
                .map(|action| weight(action) * action.value)
                .sum()
        };
        let improved = expected(&|action| action.policy);
        let prior = expected(&|action| action.prior);
        assert!(
            improved >= prior - 1e-12,
            "{position:?}: {improved} < {prior}"
        );
    }
}

#[test]
fn searches_do_not_depend_on_their_batch_or_threads() {
    let positions: Vec<Nim> = nim_positions()
        .filter(|nim| !nim.status().is_over())
        .step_by(9)
        .collect();
    for gumbel in [true, false] {
        let base = GuidedConfig {
            noise: 0.25,
            temperature: 1.0,
            ..config(24, gumbel)
        };
        let search = |threads: usize, leaves: u32, batch: usize| {
            let config = GuidedConfig {
                threads,
                leaves,
                ..base.clone()
            };
            let searcher = GuidedSearch::new(config).unwrap();
            let roots: Vec<SearchRoot<'_, Nim>> = positions
                .iter()
                .enumerate()
                .map(|(index, state)| SearchRoot {
                    state,
                    pending: &[],
                    seed: derive_seed(5, index as u64),
                })
                .collect();
            let mut playouts = UniformPlayout { plies: None };
            roots
                .chunks(batch)
                .flat_map(|chunk| searcher.search(chunk, &mut playouts).unwrap())
                .collect::<Vec<_>>()
        };
        for leaves in [1, 3] {
            let alone = search(1, leaves, 1);
            assert_eq!(search(1, leaves, positions.len()), alone, "gumbel {gumbel}");
            assert_eq!(search(2, leaves, 4), alone, "gumbel {gumbel}");
        }
    }
}

/// An evaluator that answers with the values it is given.
struct Answering {
    value: f32,
    logit: f32,
}

impl TensorEvaluator for Answering {
    fn layout(&self) -> ValueLayout {
        ValueLayout::ToMove
    }

    fn evaluate(
        &mut self,
        _: &[f32],
        _: &[u8],
        _: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) -> Result<(), EvaluationError> {
        logits.fill(self.logit);
        values.fill(self.value);
        Ok(())
    }
}

#[test]
fn answers_outside_the_contract_stop_the_search_with_an_error() {
    let position = Nim::new(crate::core::NoRules);
    let error = |value: f32, logit: f32| {
        let roots = [SearchRoot {
            state: &position,
            pending: &[],
            seed: 0,
        }];
        GuidedSearch::new(config(8, true))
            .unwrap()
            .search(&roots, &mut Tensors(Answering { value, logit }))
            .unwrap_err()
            .to_string()
    };
    assert!(error(f32::NAN, 0.0).contains("the value NaN"));
    assert!(error(1.5, 0.0).contains("from -1 to 1"));
    assert!(error(0.0, f32::INFINITY).contains("finite"));
    assert!(error(0.0, f32::NAN).contains("finite"));
    // A team's values are not the values of two competing sides.
    struct TeamValues;
    impl TensorEvaluator for TeamValues {
        fn layout(&self) -> ValueLayout {
            ValueLayout::Team
        }
        fn evaluate(
            &mut self,
            _: &[f32],
            _: &[u8],
            _: usize,
            _: &mut [f32],
            _: &mut [f32],
        ) -> Result<(), EvaluationError> {
            Ok(())
        }
    }
    let roots = [SearchRoot {
        state: &position,
        pending: &[],
        seed: 0,
    }];
    let refused = GuidedSearch::new(config(8, true))
        .unwrap()
        .search(&roots, &mut Tensors(TeamValues))
        .unwrap_err()
        .to_string();
    assert!(refused.contains("laid out team"), "{refused}");
    // A finished game has nobody to decide.
    let over = Nim::of([0; HEAPS]);
    let roots = [SearchRoot {
        state: &over,
        pending: &[],
        seed: 0,
    }];
    let refused = GuidedSearch::new(config(8, true))
        .unwrap()
        .search(&roots, &mut UniformEvaluation)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("the game is over"), "{refused}");
}

#[test]
fn the_search_policy_is_a_distribution_over_the_legal_ids() {
    let position = Nim::of([2, 0, 3]);
    for gumbel in [true, false] {
        let outcome = search_one(config(16, gumbel), &position, &mut UniformEvaluation);
        // The first decision chooses among the two heaps with tokens.
        let ids: Vec<u32> = outcome.actions.iter().map(|action| action.id).collect();
        assert_eq!(ids, [0, 2]);
        let total: f64 = outcome.actions.iter().map(|action| action.policy).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert_eq!(
            outcome
                .actions
                .iter()
                .map(|action| action.visits)
                .sum::<u32>(),
            16
        );
        let player: Player = outcome.player;
        assert_eq!(player, 0);
    }
}

#[test]
fn a_blend_weighs_the_evaluators_value_against_the_games_evaluation() {
    // Bouton's rule: the mover wins [1, 2, 0] (nim-sum 3), loses [1, 1, 0].
    let winning = Nim::of([1, 2, 0]);
    let losing = Nim::of([1, 1, 0]);
    let leaves = [&winning, &losing].map(|state| Leaf {
        state,
        pending: &[],
        // Player 0 moves first, in positions made without a move.
        player: 0,
        seed: 0,
    });
    let blended = |weight: f64| {
        let batch = LeafBatch {
            leaves: &leaves,
            observations: &[],
            masks: &[],
            threads: None,
        };
        let mut logits =
            vec![
                0.0;
                leaves.len() * <Nim as crate::core::Encoding>::num_actions(&crate::core::NoRules)
            ];
        let mut values = vec![0.0; leaves.len()];
        let mut out = Evaluations {
            logits: &mut logits,
            values: &mut values,
        };
        let answering = Tensors(Answering {
            value: 0.5,
            logit: 0.3,
        });
        EvaluationBlend::new(answering, weight)
            .evaluate(&batch, &mut out)
            .unwrap();
        assert!(logits.iter().all(|&logit| logit == 0.3));
        values
    };
    assert_eq!(blended(0.0), [0.5, 0.5]);
    assert_eq!(blended(0.25), [0.75 * 0.5 + 0.25, 0.75 * 0.5 - 0.25]);
    assert_eq!(blended(1.0), [1.0, -1.0]);
}

/// A chance event below the root is searched by its outcomes'
/// probabilities: the gamble's value is its payoffs weighted by the
/// balls of the urn (within what the visits can resolve, each outcome
/// taken within one visit of its share), and both searches gamble exactly
/// when that beats the stake.
#[test]
fn chance_below_the_root_is_weighed_by_its_probabilities() {
    let winning = f64::from(WINNING_BALLS) / f64::from(WINNING_BALLS + LOSING_BALLS);
    for stake in [0.5, 0.8] {
        let gamble = Gamble {
            stake,
            wager: Wager::Open,
        };
        let value_of = |payoff: f64| scaled_payoffs(&gamble, &[payoff])[0];
        let expected = winning * value_of(1.0) + (1.0 - winning) * value_of(0.0);
        for gumbel in [false, true] {
            let search = GuidedConfig {
                gumbel_scale: 0.0,
                ..config(60, gumbel)
            };
            let outcome = search_one(search, &gamble, &mut UniformEvaluation);
            let [stand, wager] = [&outcome.actions[0], &outcome.actions[1]];
            assert_eq!((stand.id, wager.id), (0, 1));
            assert!(wager.visits > 0 && stand.visits > 0, "{outcome:?}");
            assert!((stand.value - value_of(stake)).abs() < 1e-12);
            assert!(
                (wager.value - expected).abs() <= 2.0 / f64::from(wager.visits) + 1e-12,
                "stake {stake}, gumbel {gumbel}: {} against {expected}",
                wager.value
            );
            let gambles = expected > value_of(stake);
            assert_eq!(
                outcome.chosen,
                u32::from(gambles),
                "stake {stake}, gumbel {gumbel}"
            );
        }
    }
}
