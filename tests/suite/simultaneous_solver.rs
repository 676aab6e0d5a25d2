//! Backward induction over simultaneous moves against brute-force
//! enumeration of the whole tree (no table) on small horizons, and the
//! equilibrium property of the strategies it returns: each player's
//! strategy guarantees the value against every choice of the other.

use crate::common::goofspiel::{Goofspiel, GoofspielRules, PrizeOrder};
use norn::agents::{Agent, Decision};
use norn::companions::nibelungen::OracleAgent;
use norn::companions::nibelungen::retrograde::RetrogradeTable;
use norn::core::{Game, MoveList, Notation, Simultaneous, Status, rng_from_seed};
use norn::games::nibelungen::{Nibelungen, NibelungenRules};
use norn::search::{MatrixGame, SimultaneousSolver, joint_matrix};
use rand::RngExt;
use std::sync::{Arc, OnceLock};

/// How far apart two computations of one value may be.
const CLOSE: f64 = 1e-9;

/// The value to player 0 of `state` truncated after `stages` simultaneous
/// states (the rest counting 0), by enumerating the whole tree.
fn brute_force<G: Simultaneous>(state: &G, stages: u32) -> f64 {
    match state.status() {
        Status::Over(outcome) => outcome.payoffs.get(0),
        Status::Simultaneous if stages == 0 => 0.0,
        Status::Simultaneous => brute_force_matrix(state, stages).solve().unwrap().value,
        Status::ToMove(player) => {
            let mut moves = MoveList::new();
            state.legal_moves(&mut moves);
            let values = moves.iter().map(|&mv| {
                let mut child = state.clone();
                child.play(mv);
                brute_force(&child, stages)
            });
            if player == 0 {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        }
        Status::Chance => panic!("no chance events here"),
    }
}

/// The matrix of brute-force values of the joint choices at `state`.
fn brute_force_matrix<G: Simultaneous>(state: &G, stages: u32) -> MatrixGame {
    joint_matrix(state, |child| {
        Ok::<_, norn::search::MatrixError>(brute_force(child, stages - 1))
    })
    .unwrap()
    .0
}

/// Solves `state` for `stages` stages and checks the value against brute
/// force and, at a simultaneous state, that each strategy guarantees the
/// value against every pure choice of the other player.
fn check<G: Simultaneous>(state: &G, stages: u32) {
    let mut solver = SimultaneousSolver::new(stages, |_: &G| 0.0, 10_000_000);
    let solution = solver.solve(state).unwrap();
    let expected = brute_force(state, stages);
    assert!(
        (solution.value - expected).abs() < CLOSE,
        "value {} but brute force {expected}",
        solution.value
    );
    if state.status() != Status::Simultaneous || stages == 0 {
        return;
    }
    let matrix = brute_force_matrix(state, stages);
    let [row_strategy, col_strategy] = &solution
        .strategies
        .map(|shares| shares.iter().map(|&(_, p)| p).collect::<Vec<_>>());
    assert_eq!(row_strategy.len(), matrix.rows());
    assert_eq!(col_strategy.len(), matrix.cols());
    for col in 0..matrix.cols() {
        let against: f64 = (0..matrix.rows())
            .map(|row| row_strategy[row] * matrix.payoff(row, col).unwrap())
            .sum();
        assert!(
            against >= expected - CLOSE,
            "column {col} holds player 0 to {against}"
        );
    }
    for row in 0..matrix.rows() {
        let against: f64 = (0..matrix.cols())
            .map(|col| col_strategy[col] * matrix.payoff(row, col).unwrap())
            .sum();
        assert!(
            against <= expected + CLOSE,
            "row {row} gets player 0 {against}"
        );
    }
}

#[test]
fn goofspiel_is_solved_as_brute_force_solves_it() {
    for cards in 1..=4u8 {
        let start = Goofspiel::new(GoofspielRules {
            cards,
            order: PrizeOrder::Descending,
        });
        for stages in 0..=u32::from(cards) {
            check(&start, stages);
        }
    }
}

/// Unfinished Nibelungen positions reached by random play: round starts
/// and states inside a round's movement phase.
fn nibelungen_positions(rules: NibelungenRules, count: usize, seed: u64) -> Vec<Nibelungen> {
    let mut rng = rng_from_seed(seed);
    let mut positions = Vec::new();
    let mut moves = MoveList::new();
    while positions.len() < count {
        let mut state = Nibelungen::new(rules);
        for _ in 0..rng.random_range(0..40) {
            match state.status() {
                Status::Simultaneous => {
                    let joint: Vec<_> = (0..2)
                        .map(|player| {
                            state.player_moves(player, &mut moves);
                            moves[rng.random_range(0..moves.len())]
                        })
                        .collect();
                    state.play_joint(&joint);
                }
                Status::ToMove(_) => {
                    state.legal_moves(&mut moves);
                    state.play(moves[rng.random_range(0..moves.len())]);
                }
                _ => break,
            }
        }
        if !state.status().is_over() {
            positions.push(state);
        }
    }
    positions
}

#[test]
fn nibelungen_rounds_are_solved_as_brute_force_solves_them() {
    let start = Nibelungen::new(NibelungenRules::default());
    check(&start, 1);
    for state in nibelungen_positions(NibelungenRules::default(), 30, 5) {
        check(&state, 1);
    }
}

#[test]
fn a_chance_event_is_refused_with_an_error() {
    let start = Goofspiel::new(GoofspielRules {
        cards: 3,
        order: PrizeOrder::Random,
    });
    let mut solver = SimultaneousSolver::new(3, |_: &Goofspiel| 0.0, 1000);
    let error = solver.solve(&start).unwrap_err().to_string();
    assert!(error.contains("chance"), "{error}");
}

#[test]
fn a_solve_beyond_its_state_budget_stops_with_an_error() {
    let start = Nibelungen::new(NibelungenRules::default());
    let mut solver = SimultaneousSolver::new(2, |_: &Nibelungen| 0.0, 1000);
    let error = solver.solve(&start).unwrap_err().to_string();
    assert!(error.contains("more than 1000 states"), "{error}");
}

/// The value of `state` with `rounds_left` rounds left (the current one
/// included) by the depth-first solver.
fn depth_first(state: &Nibelungen, rounds_left: u32) -> f64 {
    let inside_a_round = u32::from(state.status() != Status::Simultaneous);
    let mut solver = SimultaneousSolver::new(
        rounds_left - inside_a_round,
        |_: &Nibelungen| 0.0,
        50_000_000,
    );
    solver.solve(state).unwrap().value
}

/// A game of three rounds, whose whole retrograde table (two layers) the
/// tests share.
fn three_round_rules() -> NibelungenRules {
    "round-limit=3".parse().unwrap()
}

fn three_round_table() -> &'static Arc<RetrogradeTable> {
    static TABLE: OnceLock<Arc<RetrogradeTable>> = OnceLock::new();
    TABLE.get_or_init(|| {
        Arc::new(RetrogradeTable::solve(three_round_rules(), 2, true, &|_| {}).unwrap())
    })
}

#[test]
fn the_retrograde_table_agrees_with_the_depth_first_solver() {
    let table = three_round_table();
    assert_eq!(table.last_rounds_left(), 2);
    let positions = nibelungen_positions(NibelungenRules::default(), 40, 9);
    // Depth-first cost grows about tenfold a round: fewer positions for
    // more rounds.
    for (rounds_left, count) in [(1, 40), (2, 12), (3, 1)] {
        for state in &positions[..count] {
            let expected = depth_first(state, rounds_left);
            let retrograde = table.solve_state(state, rounds_left).unwrap().value;
            assert!(
                (retrograde - expected).abs() < 1e-6,
                "{rounds_left} rounds left at {state:?}: retrograde {retrograde}, depth-first {expected}"
            );
        }
    }
    let error = table.solve_state(&positions[0], 4).unwrap_err().to_string();
    assert!(error.contains("holds 1 to 2"), "{error}");
}

#[test]
fn the_oracle_moves_to_a_state_of_the_best_value() {
    let rules = three_round_rules();
    let mut oracle = OracleAgent::with_table(Arc::clone(three_round_table()), 5);
    let mut checked = 0;
    for state in nibelungen_positions(rules, 60, 13) {
        let Status::ToMove(player) = state.status() else {
            continue;
        };
        let rounds_left = 4 - state.round();
        let Decision::Play(mv) = oracle.decide(&state, player).unwrap() else {
            panic!("the oracle resigned");
        };
        let mut after = state.clone();
        after.play(mv);
        let chosen = depth_first_after_move(&after, rounds_left);
        let best = depth_first(&state, rounds_left);
        assert!(
            (chosen - best).abs() < 1e-9,
            "{state:?}: the oracle's move is worth {chosen}, the best {best}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} positions inside a round");
}

/// The value of `state`, reached by a move inside a round with
/// `rounds_left` rounds left then, by the depth-first solver.
fn depth_first_after_move(state: &Nibelungen, rounds_left: u32) -> f64 {
    match state.status() {
        Status::Over(outcome) => outcome.payoffs.get(0),
        Status::Simultaneous => depth_first(state, rounds_left - 1),
        _ => depth_first(state, rounds_left),
    }
}

/// Rules that check the winning conditions once a round, and their table
/// of one round left (one layer), which the tests of saved tables share.
fn one_round_table() -> &'static (NibelungenRules, RetrogradeTable) {
    static TABLE: OnceLock<(NibelungenRules, RetrogradeTable)> = OnceLock::new();
    TABLE.get_or_init(|| {
        let rules: NibelungenRules = "win-check=round".parse().unwrap();
        (
            rules,
            RetrogradeTable::solve(rules, 1, false, &|_| {}).unwrap(),
        )
    })
}

#[test]
fn a_saved_table_reads_back_and_a_damaged_one_is_refused() {
    let (rules, table) = one_round_table();
    let rules = *rules;
    let dir = std::env::temp_dir().join(format!("norn-retrograde-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("table");
    table.save(&path).unwrap();
    let loaded = RetrogradeTable::load(&path).unwrap();
    assert_eq!(loaded.rules(), &rules);
    let state = Nibelungen::new(rules);
    for position in nibelungen_positions(NibelungenRules::default(), 5, 3) {
        let position = Nibelungen::from_position_text(&position.position_text(), rules).unwrap();
        assert_eq!(
            loaded.solve_state(&position, 2).unwrap().value,
            table.solve_state(&position, 2).unwrap().value
        );
    }
    assert!(table.solve_state(&state, 3).is_err());
    // Cut short.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 4]).unwrap();
    let error = RetrogradeTable::load(&path).err().unwrap();
    assert!(error.contains("cut short"), "{error}");
    // Another file.
    std::fs::write(&path, "hello\n").unwrap();
    let error = RetrogradeTable::load(&path).err().unwrap();
    assert!(error.contains("not a retrograde table"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_saved_table_whose_values_do_not_follow_from_the_rules_is_refused() {
    let (_, table) = one_round_table();
    let dir = std::env::temp_dir().join(format!("norn-forged-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("table");
    table.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    // The header is three lines of text; the values follow.
    let header = bytes
        .iter()
        .enumerate()
        .filter(|&(_, &byte)| byte == b'\n')
        .nth(2)
        .unwrap()
        .0
        + 1;
    let forged = |value_of: &dyn Fn(f32) -> f32| {
        let mut forged = bytes[..header].to_vec();
        for chunk in bytes[header..].chunks_exact(4) {
            let value = f32::from_le_bytes(chunk.try_into().unwrap());
            forged.extend_from_slice(&value_of(value).to_le_bytes());
        }
        std::fs::write(&path, &forged).unwrap();
        RetrogradeTable::load(&path).err().unwrap()
    };
    // Zeros under a valid header: no board is won.
    let error = forged(&|_| 0.0);
    assert!(error.contains("a won board holds the value 0"), "{error}");
    // Every board not won claims a win for Tod.
    let error = forged(&|value| if value == -1.0 { -1.0 } else { 1.0 });
    assert!(error.contains("its round solved again gives"), "{error}");
    // The table itself reads back.
    std::fs::write(&path, &bytes).unwrap();
    assert!(RetrogradeTable::load(&path).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}
