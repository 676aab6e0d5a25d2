//! The matrix-game solvers against games solved by hand, and against the
//! definition of an equilibrium (each strategy a best response to the other)
//! on random games.

use norn::core::{GameRng, rng_from_seed};
use norn::search::{
    MAX_TABLEAU_ENTRIES, MatrixError, MatrixGame, MatrixSolution, regret_matching,
    regret_matching_plus, value_3x3,
};
use rand::RngExt;

/// How far from exact an LP solution may be on the games here (payoffs of
/// magnitude at most 1000).
const EXACT: f64 = 1e-9;

fn game<const COLS: usize>(rows: &[[f64; COLS]]) -> MatrixGame {
    MatrixGame::from_rows(rows).expect("a valid matrix")
}

fn solve(game: &MatrixGame) -> MatrixSolution {
    game.solve().expect("an LP solution")
}

fn assert_close(actual: f64, expected: f64, what: &str) {
    assert!(
        (actual - expected).abs() <= EXACT,
        "{what}: {actual}, expected {expected}"
    );
}

/// Checks the value and the strategies `solve` finds for `game`.
fn assert_solution(game: &MatrixGame, value: f64, row_strategy: &[f64], col_strategy: &[f64]) {
    let solution = solve(game);
    assert_close(solution.value, value, "value");
    assert_strategy(&solution.row_strategy, row_strategy, "row");
    assert_strategy(&solution.col_strategy, col_strategy, "column");
}

fn assert_strategy(actual: &[f64], expected: &[f64], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}");
    for (choice, (&a, &e)) in actual.iter().zip(expected).enumerate() {
        assert_close(a, e, &format!("{what}, choice {choice}"));
    }
}

/// Checks that `solution` is an equilibrium of `game` within `EXACT`: the
/// strategies are distributions, neither player gains by deviating, and the
/// value lies between the two best-response values.
fn assert_equilibrium(game: &MatrixGame, solution: &MatrixSolution) {
    for strategy in [&solution.row_strategy, &solution.col_strategy] {
        assert!(strategy.iter().all(|&p| p >= 0.0), "{strategy:?}");
        assert_close(strategy.iter().sum(), 1.0, "total probability");
    }
    let row_best = game
        .best_response_value_for_row(&solution.col_strategy)
        .unwrap();
    let col_best = game
        .best_response_value_for_col(&solution.row_strategy)
        .unwrap();
    let exploitability = game
        .exploitability(&solution.row_strategy, &solution.col_strategy)
        .unwrap();
    assert!(exploitability < EXACT, "exploitability {exploitability}");
    assert_close(
        solution.value,
        row_best,
        "value against the row's best response",
    );
    assert_close(
        solution.value,
        col_best,
        "value against the column's best response",
    );
}

/// The value and each player's probability of its first choice in a 2x2
/// game `[[a, b], [c, d]]` without a saddle point, by the indifference
/// equations: the row player's mix makes both columns pay the same, and the
/// column player's both rows.
fn two_by_two_mixed(a: f64, b: f64, c: f64, d: f64) -> (f64, f64, f64) {
    let denominator = a - b - c + d;
    let row_first = (d - c) / denominator;
    let col_first = (d - b) / denominator;
    let value = (a * d - b * c) / denominator;
    (value, row_first, col_first)
}

#[test]
fn matching_pennies_is_fair_and_uniform() {
    let pennies = game(&[[1.0, -1.0], [-1.0, 1.0]]);
    assert_solution(&pennies, 0.0, &[0.5, 0.5], &[0.5, 0.5]);
}

#[test]
fn rock_paper_scissors_is_fair_and_uniform() {
    let rps = game(&[[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]);
    let solution = solve(&rps);
    let third = 1.0 / 3.0;
    assert_close(solution.value, 0.0, "value");
    assert_strategy(&solution.row_strategy, &[third; 3], "row");
    assert_strategy(&solution.col_strategy, &[third; 3], "column");
}

#[test]
fn biased_rock_paper_scissors_plays_paper_half_the_time() {
    // Rock beats scissors for 2. The game is symmetric (A = -Aᵀ), so its
    // value is 0, and a strategy (r, p, s) that makes every column pay 0
    // satisfies p - 2s = 0, s - r = 0 and 2r - p = 0: (1/4, 1/2, 1/4).
    let biased = game(&[[0.0, -1.0, 2.0], [1.0, 0.0, -1.0], [-2.0, 1.0, 0.0]]);
    assert_solution(&biased, 0.0, &[0.25, 0.5, 0.25], &[0.25, 0.5, 0.25]);
}

#[test]
fn a_saddle_point_is_played_pure() {
    // Row 0's least payoff (1, in column 1) is the greatest row minimum and
    // the least column maximum.
    let saddle = game(&[[3.0, 1.0, 4.0], [2.0, 0.0, 1.0], [5.0, -1.0, 2.0]]);
    assert_solution(&saddle, 1.0, &[1.0, 0.0, 0.0], &[0.0, 1.0, 0.0]);
}

#[test]
fn two_by_two_games_match_the_indifference_formula() {
    for [a, b, c, d] in [
        [3.0, -1.0, -2.0, 1.0],
        [2.0, -3.0, -1.0, 4.0],
        [0.5, 7.25, 3.0, -2.0],
        [-10.0, 4.0, 6.0, -1.0],
    ] {
        let (value, row_first, col_first) = two_by_two_mixed(a, b, c, d);
        assert!(0.0 < row_first && row_first < 1.0 && 0.0 < col_first && col_first < 1.0);
        let solution = solve(&game(&[[a, b], [c, d]]));
        assert_close(solution.value, value, "value");
        assert_strategy(&solution.row_strategy, &[row_first, 1.0 - row_first], "row");
        assert_strategy(
            &solution.col_strategy,
            &[col_first, 1.0 - col_first],
            "column",
        );
    }
}

#[test]
fn dominated_choices_are_never_played() {
    // Row 2 is worse than row 1 everywhere, column 2 costs the column player
    // more than column 0 everywhere; what remains is [[3, -1], [-2, 1]].
    let dominated = game(&[[3.0, -1.0, 5.0], [-2.0, 1.0, 4.0], [-3.0, -2.0, 3.0]]);
    let (value, row_first, col_first) = two_by_two_mixed(3.0, -1.0, -2.0, 1.0);
    assert_close(value, 1.0 / 7.0, "the formula");
    let solution = solve(&dominated);
    assert_close(solution.value, value, "value");
    assert_strategy(
        &solution.row_strategy,
        &[row_first, 1.0 - row_first, 0.0],
        "row",
    );
    assert_strategy(
        &solution.col_strategy,
        &[col_first, 1.0 - col_first, 0.0],
        "column",
    );
}

#[test]
fn an_all_equal_matrix_has_that_value_for_any_play() {
    for payoff in [2.5, 0.0, -4.0] {
        let flat = MatrixGame::new(3, 4, vec![payoff; 12]).unwrap();
        let solution = solve(&flat);
        assert_close(solution.value, payoff, "value");
        assert_equilibrium(&flat, &solution);
    }
}

#[test]
fn one_row_or_one_column_leaves_the_other_player_a_pure_choice() {
    let one_row = game(&[[3.0, 1.0, 4.0, 1.5]]);
    let solution = solve(&one_row);
    assert_close(
        solution.value,
        1.0,
        "value: the column player takes the least",
    );
    assert_strategy(&solution.row_strategy, &[1.0], "row");
    assert_strategy(&solution.col_strategy, &[0.0, 1.0, 0.0, 0.0], "column");

    let one_col = game(&[[3.0], [1.0], [4.0], [1.5]]);
    let solution = solve(&one_col);
    assert_close(solution.value, 4.0, "value: the row player takes the most");
    assert_strategy(&solution.row_strategy, &[0.0, 0.0, 1.0, 0.0], "row");
    assert_strategy(&solution.col_strategy, &[1.0], "column");

    let single = solve(&game(&[[-6.0]]));
    assert_eq!(single.value, -6.0);
}

/// Seeded random games of every shape up to 12 x 9, with small integer
/// payoffs (many ties, so degenerate pivots) or real ones.
fn random_games(seed: u64) -> Vec<MatrixGame> {
    let mut rng = rng_from_seed(seed);
    let mut games = Vec::new();
    for rows in 1..=12 {
        for cols in 1..=9 {
            let integers: Vec<f64> = (0..rows * cols)
                .map(|_| f64::from(rng.random_range(-3..=3)))
                .collect();
            let reals: Vec<f64> = (0..rows * cols)
                .map(|_| rng.random_range(-100.0..100.0))
                .collect();
            games.push(MatrixGame::new(rows, cols, integers).unwrap());
            games.push(MatrixGame::new(rows, cols, reals).unwrap());
        }
    }
    games
}

/// A random `rows x cols` game with payoffs in `[-1, 1)`.
fn random_unit_game(rng: &mut GameRng, rows: usize, cols: usize) -> MatrixGame {
    let payoffs = (0..rows * cols)
        .map(|_| rng.random_range(-1.0..1.0))
        .collect();
    MatrixGame::new(rows, cols, payoffs).unwrap()
}

#[test]
fn random_games_are_solved_exactly() {
    for game in random_games(7) {
        assert_equilibrium(&game, &solve(&game));
    }
}

#[test]
fn larger_random_games_are_solved_exactly() {
    let mut rng = rng_from_seed(11);
    for (rows, cols) in [(30, 30), (50, 20), (20, 50)] {
        let game = random_unit_game(&mut rng, rows, cols);
        assert_equilibrium(&game, &solve(&game));
    }
}

#[test]
fn adding_a_constant_shifts_the_value_by_it() {
    for game in random_games(13).iter().step_by(7) {
        let value = solve(game).value;
        for shift in [1000.0, -7.5] {
            let payoffs = (0..game.rows())
                .flat_map(|row| (0..game.cols()).map(move |col| (row, col)))
                .map(|(row, col)| game.payoff(row, col).unwrap() + shift)
                .collect();
            let shifted = MatrixGame::new(game.rows(), game.cols(), payoffs).unwrap();
            assert_close(solve(&shifted).value, value + shift, "shifted value");
        }
    }
}

#[test]
fn swapping_the_players_negates_the_value_and_swaps_the_strategies() {
    for game in random_games(17).iter().step_by(5) {
        let swapped = game.swap_players();
        assert_eq!((swapped.rows(), swapped.cols()), (game.cols(), game.rows()));
        assert_eq!(swapped.payoff(0, 0), game.payoff(0, 0).map(|p| -p));
        let solution = solve(game);
        let swapped_solution = solve(&swapped);
        assert_close(swapped_solution.value, -solution.value, "swapped value");
        // Optimal strategies need not be unique, but any optimal strategy of
        // one player pairs with any of the other's.
        let exploitability = game
            .exploitability(&solution.row_strategy, &swapped_solution.row_strategy)
            .unwrap();
        assert!(exploitability < EXACT, "exploitability {exploitability}");
    }
}

#[test]
fn payoffs_of_any_finite_magnitude_are_solved() {
    for scale in [1e300, 1e-300] {
        let pennies = game(&[[scale, -scale], [-scale, scale]]);
        let solution = solve(&pennies);
        assert_eq!(solution.value, 0.0);
        assert_strategy(&solution.row_strategy, &[0.5, 0.5], "row");
    }
    let lopsided = solve(&game(&[[f64::MAX, -f64::MAX], [-f64::MAX, f64::MAX]]));
    assert_strategy(&lopsided.row_strategy, &[0.5, 0.5], "row");
}

/// The exploitability of a solution on its game.
fn exploitability(game: &MatrixGame, solution: &MatrixSolution) -> f64 {
    game.exploitability(&solution.row_strategy, &solution.col_strategy)
        .unwrap()
}

/// The largest payoff minus the least.
fn spread(game: &MatrixGame) -> f64 {
    let payoffs: Vec<f64> = (0..game.rows())
        .flat_map(|row| (0..game.cols()).map(move |col| game.payoff(row, col).unwrap()))
        .collect();
    let high = payoffs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let low = payoffs.iter().copied().fold(f64::INFINITY, f64::min);
    high - low
}

#[test]
fn regret_matching_stays_within_its_regret_bound() {
    // Hart and Mas-Colell: each player's average regret after T iterations
    // is at most spread * sqrt(choices / T), and in a zero-sum game the
    // exploitability of the average strategies is the sum of the two.
    for game in random_games(19).iter().step_by(3) {
        for iterations in [1, 10, 100, 1000] {
            let solution = regret_matching(game, iterations).unwrap();
            let bound = spread(game) * ((game.rows() as f64).sqrt() + (game.cols() as f64).sqrt())
                / (iterations as f64).sqrt();
            let exploitability = exploitability(game, &solution);
            assert!(
                exploitability <= bound + 1e-12,
                "{}x{} after {iterations}: {exploitability} > {bound}",
                game.rows(),
                game.cols()
            );
        }
    }
}

#[test]
fn regret_matching_approaches_the_exact_value() {
    let mut rng = rng_from_seed(23);
    for (rows, cols) in [(3, 3), (7, 5), (12, 9)] {
        let game = random_unit_game(&mut rng, rows, cols);
        let exact = solve(&game).value;
        for run in [regret_matching, regret_matching_plus] {
            let short = exploitability(&game, &run(&game, 100).unwrap());
            let long_solution = run(&game, 20_000).unwrap();
            let long = exploitability(&game, &long_solution);
            assert!(long < 1e-2, "{rows}x{cols}: exploitability {long}");
            assert!(long < short / 4.0, "{rows}x{cols}: {short} then {long}");
            // The exploitability bounds the distance from the value.
            assert!((long_solution.value - exact).abs() <= long);
        }
    }
}

#[test]
fn regret_matching_finds_rock_paper_scissors_uniform() {
    let rps = game(&[[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]);
    let solution = regret_matching_plus(&rps, 10_000).unwrap();
    for p in solution.row_strategy.iter().chain(&solution.col_strategy) {
        assert!((p - 1.0 / 3.0).abs() < 1e-2, "{solution:?}");
    }
}

#[test]
fn bad_matrices_are_refused_with_the_reason() {
    assert_eq!(
        MatrixGame::new(0, 3, vec![]),
        Err(MatrixError::Empty { rows: 0, cols: 3 })
    );
    assert_eq!(
        MatrixGame::from_rows::<[f64; 0]>(&[]),
        Err(MatrixError::Empty { rows: 0, cols: 0 })
    );
    assert_eq!(
        MatrixGame::from_rows(&[[]]),
        Err(MatrixError::Empty { rows: 1, cols: 0 })
    );
    assert_eq!(
        MatrixGame::new(2, 3, vec![0.0; 5]),
        Err(MatrixError::WrongEntryCount {
            rows: 2,
            cols: 3,
            entries: 5
        })
    );
    assert!(matches!(
        MatrixGame::new(usize::MAX, 2, vec![0.0; 2]),
        Err(MatrixError::WrongEntryCount { .. })
    ));
    assert_eq!(
        MatrixGame::from_rows(&[vec![1.0, 2.0], vec![3.0]]),
        Err(MatrixError::RaggedRow {
            row: 1,
            len: 1,
            expected: 2
        })
    );
    let nan = MatrixGame::from_rows(&[[1.0, 2.0], [f64::NAN, 0.0]]).unwrap_err();
    assert_eq!(
        nan.to_string(),
        "the payoff at row 1, column 0 is NaN: payoffs must be finite"
    );
    assert!(matches!(
        MatrixGame::from_rows(&[[1.0, f64::NEG_INFINITY]]),
        Err(MatrixError::NotFinite { row: 0, col: 1, .. })
    ));
}

#[test]
fn bad_strategies_are_refused_with_the_reason() {
    let pennies = game(&[[1.0, -1.0], [-1.0, 1.0]]);
    assert_eq!(
        pennies.best_response_value_for_row(&[1.0]),
        Err(MatrixError::StrategyLength {
            player: "column",
            len: 1,
            expected: 2
        })
    );
    let negative = pennies
        .best_response_value_for_col(&[1.5, -0.5])
        .unwrap_err();
    assert_eq!(
        negative.to_string(),
        "the row player's strategy has the probability -0.5"
    );
    let short = pennies
        .exploitability(&[0.5, 0.5], &[0.5, 0.4])
        .unwrap_err();
    assert_eq!(
        short.to_string(),
        "the column player's strategy sums to 0.9, not 1"
    );
    assert!(
        pennies
            .exploitability(&[f64::NAN, 1.0], &[0.5, 0.5])
            .is_err()
    );
    assert_eq!(pennies.exploitability(&[1.0, 0.0], &[1.0, 0.0]), Ok(2.0));
    assert_eq!(pennies.payoff(2, 0), None);
    assert_eq!(pennies.payoff(0, 2), None);
}

#[test]
fn regret_matching_needs_an_iteration() {
    let pennies = game(&[[1.0, -1.0], [-1.0, 1.0]]);
    assert_eq!(regret_matching(&pennies, 0), Err(MatrixError::NoIterations));
    assert_eq!(
        regret_matching_plus(&pennies, 0),
        Err(MatrixError::NoIterations)
    );
}

#[test]
fn games_too_large_for_the_tableau_are_refused() {
    let side = 1500;
    assert!((side + 1) * (2 * side + 1) > MAX_TABLEAU_ENTRIES);
    let large = MatrixGame::new(side, side, vec![0.0; side * side]).unwrap();
    assert_eq!(
        large.solve(),
        Err(MatrixError::TooLarge {
            rows: side,
            cols: side
        })
    );
    // Regret matching needs no tableau.
    assert!(regret_matching(&large, 1).is_ok());
}

#[test]
fn the_3x3_shortcut_gives_the_simplex_value() {
    let mut rng = rng_from_seed(23);
    for round in 0..20_000 {
        // Small integers make saddle points, ties and dominated rows common;
        // reals make fully mixed equilibria common.
        let payoffs: [[f64; 3]; 3] = if round % 2 == 0 {
            std::array::from_fn(|_| std::array::from_fn(|_| f64::from(rng.random_range(-2..=2))))
        } else {
            std::array::from_fn(|_| std::array::from_fn(|_| rng.random_range(-1.0..1.0)))
        };
        let expected = solve(&game(&payoffs)).value;
        assert_close(value_3x3(&payoffs), expected, &format!("{payoffs:?}"));
    }
}
