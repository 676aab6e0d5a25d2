//! Koom Valley Thud against a plain array implementation written separately
//! (tests/suite/common/slow_thud.rs): every legal move, the position it leads to,
//! and every game end.

use crate::common::positions;
use crate::common::slow_thud::{End, SlowThud};
use norn::core::{Evaluate, Game, GameRng, MoveList, Notation, rng_from_seed};
use norn::games::thud::board::{ADJACENT, row};
use norn::games::thud::koom_valley::{KoomValleyMoveKind, START_POSITION};
use norn::games::thud::{KoomValley, KoomValleyMove, KoomValleyRules, Side};
use norn::search::{perft, perft_parallel};
use norn::testing::{Budget, check_conformance};
use rand::RngExt;
use std::num::NonZeroU32;

fn slow_twin(state: &KoomValley) -> SlowThud {
    let rules = state.rules();
    SlowThud::from_text(
        &state.position_text(),
        true,
        false,
        rules.no_capture_limit.map(NonZeroU32::get),
        rules.ply_limit.map(NonZeroU32::get),
    )
}

fn engine_ending(state: &KoomValley) -> Option<End> {
    state
        .status()
        .outcome()
        .map(|outcome| match outcome.winner().map(Side::from_player) {
            Some(side) => End::Win {
                dwarfs: side == Side::Dwarfs,
                reason: outcome.reason,
            },
            None => End::Draw {
                reason: outcome.reason,
            },
        })
}

/// Every legal move as (text, position after it), sorted.
fn engine_moves(state: &KoomValley) -> Vec<(String, String)> {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    let mut out: Vec<(String, String)> = moves
        .iter()
        .map(|&mv| {
            let mut after = state.clone();
            after.play(mv);
            (state.move_text(mv), after.position_text())
        })
        .collect();
    out.sort();
    out
}

fn assert_agrees(state: &KoomValley) {
    let slow = slow_twin(state);
    assert_eq!(slow.text(), state.position_text());
    let mut theirs: Vec<(String, String)> = slow
        .moves()
        .into_iter()
        .map(|m| (m.text, m.after.text()))
        .collect();
    theirs.sort();
    assert_eq!(
        engine_moves(state),
        theirs,
        "moves differ in {}",
        state.position_text()
    );
    assert_eq!(
        engine_ending(state),
        slow.end(),
        "ending differs in {}",
        state.position_text()
    );
}

/// Random play with a purpose: the dwarfs often push the Rock towards the
/// goal, the trolls often close in on it, and both often capture.
fn biased_move(state: &KoomValley, bias: f64, rng: &mut GameRng) -> KoomValleyMove {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    let rock = state.rock();
    let purposeful: Vec<KoomValleyMove> = moves
        .iter()
        .copied()
        .filter(|&mv| match mv.kind {
            KoomValleyMoveKind::RockMove => row(mv.to) < row(rock),
            KoomValleyMoveKind::TrollMove => ADJACENT.targets(rock).contains(mv.to),
            KoomValleyMoveKind::Trample => true,
            KoomValleyMoveKind::DwarfMove => {
                state.is_tactical(mv) || ADJACENT.targets(rock).contains(mv.to)
            }
        })
        .collect();
    if !purposeful.is_empty() && rng.random_bool(bias) {
        return purposeful[rng.random_range(0..purposeful.len())];
    }
    moves[rng.random_range(0..moves.len())]
}

fn random_positions(count: usize, seed: u64) -> Vec<KoomValley> {
    let start = KoomValley::new(KoomValleyRules::default());
    positions::random_positions(&start, count, 0..120, seed, |state, rng| {
        biased_move(state, 0.6, rng)
    })
}

#[test]
fn perft_from_the_start_matches_the_plain_implementation() {
    let start = KoomValley::new(KoomValleyRules::default());
    assert_eq!(start.position_text(), START_POSITION);
    let slow = slow_twin(&start);
    assert_eq!(perft(&start, 1), slow.perft(1));
    assert_eq!(perft(&start, 2), slow.perft(2));
    // The plain implementation gives the same counts at depth 3 (it takes
    // several seconds there, so the number is written out).
    assert_eq!(perft(&start, 1), 388);
    assert_eq!(perft(&start, 3), 12_973_988);
    assert_eq!(perft_parallel(&start, 3, 2).unwrap(), 12_973_988);
    assert_agrees(&start);
}

#[test]
fn perft_matches_the_plain_implementation_on_random_positions() {
    for state in random_positions(30, 7) {
        assert_eq!(
            perft(&state, 2),
            slow_twin(&state).perft(2),
            "perft(2) differs at {}",
            state.position_text()
        );
    }
}

#[test]
fn random_games_agree_move_by_move_with_the_plain_implementation() {
    let mut rng = rng_from_seed(29);
    let mut endings = std::collections::BTreeMap::new();
    let mut tramples = 0;
    let mut multi_jump = 0;
    let mut dwarf_captures = 0;
    for game in 0..80 {
        let rules = KoomValleyRules {
            no_capture_limit: NonZeroU32::new([20, 100][game % 2]),
            ply_limit: NonZeroU32::new([80, 400][game % 2]),
        };
        let bias = [0.3, 0.7, 0.95][game % 3];
        let mut state = KoomValley::new(rules);
        while !state.status().is_over() {
            assert_agrees(&state);
            let mv = biased_move(&state, bias, &mut rng);
            if mv.kind == KoomValleyMoveKind::Trample {
                tramples += 1;
                multi_jump += usize::from(mv.jumps().count() > 1);
            }
            dwarf_captures +=
                usize::from(mv.kind == KoomValleyMoveKind::DwarfMove && state.is_tactical(mv));
            state.play(mv);
        }
        assert_agrees(&state);
        *endings.entry(state.ending().unwrap().name()).or_insert(0) += 1;
    }
    assert!(
        tramples > 50 && multi_jump > 0,
        "{tramples} tramples, {multi_jump} with several jumps"
    );
    assert!(dwarf_captures > 10, "{dwarf_captures} custodial captures");
    for reason in [
        "rock-home",
        "rock-surrounded",
        "no-capture-limit",
        "ply-limit",
    ] {
        assert!(
            endings.contains_key(reason),
            "no game ended by {reason}: {endings:?}"
        );
    }
}

#[test]
fn the_generic_invariants_hold_over_random_games() {
    let start = KoomValley::new(KoomValleyRules::default());
    check_conformance(
        &start,
        &Budget {
            playouts: 4,
            max_plies: 400,
            plies_per_state: usize::MAX,
            searched_positions: 0,
            seed: 1,
        },
    );
    for state in random_positions(4, 13) {
        check_conformance(
            &state,
            &Budget {
                playouts: 2,
                max_plies: 200,
                plies_per_state: usize::MAX,
                searched_positions: 0,
                seed: 3,
            },
        );
    }
}

#[test]
fn the_evaluation_stays_within_the_payoffs_and_equals_them_at_the_end() {
    let mut rng = rng_from_seed(31);
    for _ in 0..20 {
        let mut state = KoomValley::new(KoomValleyRules::default());
        while !state.status().is_over() {
            let value = state.evaluate(0);
            assert!(value > -1.0 && value < 1.0, "{value}");
            assert_eq!(state.evaluate(1), -value);
            let mv = biased_move(&state, 0.8, &mut rng);
            state.play(mv);
        }
        let outcome = state.status().outcome().unwrap();
        assert_eq!(state.evaluate(0), outcome.payoffs.get(0));
        assert_eq!(state.evaluate(1), outcome.payoffs.get(1));
    }
}

#[test]
fn the_rock_closer_to_the_goal_is_worth_more_to_the_dwarfs() {
    // The same position with the Rock one rank further up, nothing else near it.
    let low = KoomValley::from_position_text(
        "5/7/9/11/13/15/15/7R7/7d7/15/13/11/9/7/T4 trolls",
        KoomValleyRules::default(),
    )
    .unwrap();
    let high = KoomValley::from_position_text(
        "5/7/9/11/13/15/7R7/7d7/15/15/13/11/9/7/T4 trolls",
        KoomValleyRules::default(),
    )
    .unwrap();
    assert!(high.evaluate(0) > low.evaluate(0));
    assert!(high.evaluate(1) < low.evaluate(1));
}
