//! Simultaneous-move MCTS against exact equilibria: the exploitability of
//! its root strategies falls as the iterations grow, for both selection
//! rules; its results are reproducible whatever the number of threads.

use crate::common::goofspiel::{Goofspiel, GoofspielRules, PrizeOrder};
use norn::agents::build_agent;
use norn::core::{Game, Notation, Simultaneous};
use norn::games::nibelungen::{Nibelungen, NibelungenRules};
use norn::search::{MatrixGame, Selection, SimultaneousSolver, SmMcts, SmMctsConfig, joint_matrix};

/// The matrix of exact values of the joint choices at `state`, the game
/// solved to its end.
fn exact_root_matrix<G: Simultaneous>(state: &G) -> MatrixGame {
    joint_matrix(state, |child| {
        let mut solver = SimultaneousSolver::new(u32::MAX, |_: &G| 0.0, 10_000_000);
        solver.solve(child).map(|solution| solution.value)
    })
    .unwrap()
    .0
}

/// The exploitability of SM-MCTS's root strategies at `state` after
/// `iterations`, averaged over a few seeds.
fn exploitability<G: Simultaneous + norn::core::Evaluate>(
    state: &G,
    matrix: &MatrixGame,
    selection: Selection,
    iterations: u64,
) -> f64 {
    let seeds = 4;
    let total: f64 = (0..seeds)
        .map(|seed| {
            let config = SmMctsConfig {
                iterations,
                selection,
                ..SmMctsConfig::default()
            };
            let result = SmMcts::new(config, seed).unwrap().search(state).unwrap();
            let [row, col] = result
                .strategies
                .map(|shares| shares.iter().map(|&(_, p)| p).collect::<Vec<_>>());
            matrix.exploitability(&row, &col).unwrap()
        })
        .sum();
    total / f64::from(seeds as u32)
}

/// Checks that the exploitability after `many` iterations is below
/// `bound` and under a third of what it is after 100.
fn check_convergence<G: Simultaneous + norn::core::Evaluate>(
    state: &G,
    selections: &[Selection],
    many: u64,
    bound: f64,
) {
    let matrix = exact_root_matrix(state);
    for &selection in selections {
        let at_first = exploitability(state, &matrix, selection, 100);
        let at_last = exploitability(state, &matrix, selection, many);
        assert!(
            at_last < bound && at_last < at_first / 3.0,
            "{selection:?}: exploitability {at_first} after 100 iterations, {at_last} after {many}"
        );
    }
}

#[test]
fn both_selection_rules_approach_the_equilibrium_of_a_last_round() {
    // The last round of a Nibelungen game limited to two rounds: a 3x3
    // matrix game over the movement phase's minimax values.
    let rules: NibelungenRules = "round-limit=2".parse().unwrap();
    let state = Nibelungen::from_position_text("33,44,42,31,10:KH:KS@2", rules).unwrap();
    check_convergence(
        &state,
        &[Selection::Duct, Selection::RegretMatching],
        20_000,
        0.1,
    );
}

#[test]
fn regret_matching_approaches_the_equilibrium_of_goofspiel() {
    // Decoupled UCT does not converge here: several choices are worth the
    // same against the equilibrium, its visits spread over them, and the
    // spread is exploitable (about 0.3 to 0.45 up to 100,000 iterations).
    let start = Goofspiel::new(GoofspielRules {
        cards: 4,
        order: PrizeOrder::Descending,
    });
    check_convergence(&start, &[Selection::RegretMatching], 20_000, 0.2);
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let start = Nibelungen::new(NibelungenRules::default());
    let search = |threads: usize| {
        let config = SmMctsConfig {
            iterations: 3000,
            selection: Selection::RegretMatching,
            trees: 3,
            threads,
            ..SmMctsConfig::default()
        };
        SmMcts::new(config, 42).unwrap().search(&start).unwrap()
    };
    assert_eq!(search(1), search(2));
}

#[test]
fn agents_refuse_games_without_simultaneous_moves_and_bad_options() {
    use norn::games::hnefatafl::Hnefatafl;
    for (spec, expected) in [
        ("smmcts", "simultaneous moves"),
        ("equilibrium", "simultaneous moves"),
    ] {
        let error = build_agent::<Hnefatafl>(spec, 1).err().unwrap().to_string();
        assert!(error.contains(expected), "{spec}: {error}");
    }
    for (spec, expected) in [
        ("smmcts:select=ucb", "duct or rm"),
        ("smmcts:gamma=0", "gamma"),
        ("smmcts:iters=0", "iters"),
        ("smmcts:trees=100000", "trees"),
        ("equilibrium:rounds=7", "rounds"),
        ("equilibrium:depth=2", "unknown option"),
    ] {
        let error = build_agent::<Nibelungen>(spec, 1)
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains(expected), "{spec}: {error}");
    }
}
