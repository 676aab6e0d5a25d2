//! The exact cooperative solver on Fenrir's Path: it agrees with a plain
//! exhaustive search on small configurations, its winning lines replay
//! through the checked API, and its objective bounds contain the true best
//! values.

use norn::core::{Game, MoveList, Notation, Objective, Status, Stochastic, rng_from_seed};
use norn::games::fenrir_path::{FenrirPath, FenrirPathRules, SafetyMargin, ShortestWin};
use norn::search::{CoopSolver, Verdict};

/// Small configurations in which both wins and losses occur (with three
/// colours, free turn order wins almost every deal, so losses there are
/// found with two colours).
const SMALL: [&str; 6] = [
    "colours=2,tiles-per-colour=2,sets=2,spacing=1",
    "colours=2,tiles-per-colour=2,sets=2,spacing=1,odin-landing=off,wolf-sweeps=on,no-moves=pass",
    "colours=2,tiles-per-colour=3,sets=2,spacing=2,turn-order=fixed",
    "colours=3,tiles-per-colour=2,sets=2,spacing=1,turn-order=fixed",
    "colours=3,tiles-per-colour=3,sets=3,spacing=1,turn-order=fixed",
    "colours=3,tiles-per-colour=2,sets=2,spacing=1,turn-order=fixed,stuck-god=block,wolf-sweeps=on,no-moves=pass",
];

/// What plain exhaustive search (no table, no ordering, every line) finds:
/// whether a win exists, the best safety margin and the fewest moves to a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Exhaustive {
    win: bool,
    best_margin: i64,
    shortest: i64,
}

fn exhaustive(state: &FenrirPath) -> Exhaustive {
    match state.status() {
        Status::Over(outcome) => Exhaustive {
            win: outcome.payoffs.get(0) == 1.0,
            best_margin: i64::from(state.wolf()),
            shortest: 0,
        },
        Status::ToMove(_) => {
            let mut moves = MoveList::new();
            state.legal_moves(&mut moves);
            let mut best = Exhaustive {
                win: false,
                best_margin: i64::MIN,
                shortest: i64::MAX,
            };
            for &mv in moves.iter() {
                let mut child = state.clone();
                child.play(mv);
                let below = exhaustive(&child);
                if below.win {
                    best.win = true;
                    best.best_margin = best
                        .best_margin
                        .max(below.best_margin.min(i64::from(state.wolf())));
                    best.shortest = best.shortest.min(below.shortest + 1);
                }
            }
            best
        }
        Status::Chance | Status::Simultaneous => unreachable!("dealt states only"),
    }
}

fn deal(rules: &str, seed: u64) -> FenrirPath {
    let mut state = FenrirPath::new(rules.parse::<FenrirPathRules>().unwrap());
    state.resolve_chance(&mut rng_from_seed(seed));
    state
}

/// Replays `line` from `start` with the checked API and returns the end.
fn replay(start: &FenrirPath, line: &[norn::games::fenrir_path::FenrirPathMove]) -> FenrirPath {
    let mut state = start.clone();
    for &mv in line {
        state
            .try_play(mv)
            .unwrap_or_else(|error| panic!("{}: {error}", start.position_text()));
    }
    state
}

fn is_win(state: &FenrirPath) -> bool {
    state
        .status()
        .outcome()
        .is_some_and(|outcome| outcome.payoffs.get(0) == 1.0)
}

#[test]
fn the_solver_agrees_with_exhaustive_search_on_small_configurations() {
    let mut solver = CoopSolver::new();
    for rules in SMALL {
        let (mut wins, mut losses) = (0, 0);
        for seed in 0..150 {
            let start = deal(rules, seed);
            let truth = exhaustive(&start);
            let solution = solver.solve(&start).unwrap();
            let expected = if truth.win {
                Verdict::Win
            } else {
                Verdict::Loss
            };
            assert_eq!(
                solution.verdict,
                expected,
                "{rules}: {}",
                start.position_text()
            );
            if truth.win {
                wins += 1;
                assert!(is_win(&replay(&start, &solution.line)));
            } else {
                losses += 1;
                assert!(solution.line.is_empty());
            }
        }
        assert!(
            wins > 5 && losses > 5,
            "{rules}: {wins} wins, {losses} losses"
        );
    }
}

#[test]
fn objective_bounds_are_exact_with_room_and_sound_without() {
    let mut solver = CoopSolver::new();
    for rules in SMALL {
        for seed in 0..60 {
            let start = deal(rules, seed);
            let truth = exhaustive(&start);
            if !truth.win {
                continue;
            }
            let margin = solver
                .objective_bounds(&start, &SafetyMargin, u64::MAX)
                .unwrap();
            assert!(margin.is_exact(), "{rules}: {margin:?}");
            assert_eq!(
                margin.achieved,
                Some(truth.best_margin),
                "{rules} seed {seed}"
            );
            let end = replay(&start, &margin.line);
            assert!(is_win(&end));
            assert_eq!(
                SafetyMargin.line_value(&start, &margin.line),
                truth.best_margin
            );

            let shortest = solver
                .objective_bounds(&start, &ShortestWin, u64::MAX)
                .unwrap();
            assert!(shortest.is_exact(), "{rules}: {shortest:?}");
            assert_eq!(
                shortest.achieved,
                Some(truth.shortest),
                "{rules} seed {seed}"
            );
            assert_eq!(shortest.line.len() as i64, truth.shortest);
            assert!(is_win(&replay(&start, &shortest.line)));

            // With a tiny budget the bounds may be loose, but never wrong.
            for budget in [1, 5, 20] {
                for bounds in [
                    solver
                        .objective_bounds(&start, &SafetyMargin, budget)
                        .unwrap(),
                    solver
                        .objective_bounds(&start, &ShortestWin, budget)
                        .unwrap(),
                ] {
                    let truth = if bounds.objective == "safety-margin" {
                        truth.best_margin
                    } else {
                        truth.shortest
                    };
                    assert!(bounds.nodes <= budget);
                    if let Some(lower) = bounds.lower() {
                        assert!(lower <= truth, "{rules}: {bounds:?} vs {truth}");
                    }
                    if let Some(upper) = bounds.upper() {
                        assert!(truth <= upper, "{rules}: {bounds:?} vs {truth}");
                    }
                }
            }
        }
    }
}

#[test]
fn winning_lines_of_real_deals_replay_to_a_win() {
    let mut solver = CoopSolver::new();
    for turn_order in ["free", "fixed"] {
        for seed in 0..25 {
            let start = deal(&format!("turn-order={turn_order}"), seed);
            let solution = solver.solve(&start).unwrap();
            if solution.verdict == Verdict::Win {
                assert!(
                    is_win(&replay(&start, &solution.line)),
                    "{turn_order} {seed}"
                );
            }
        }
    }
}

#[test]
fn a_budget_too_small_gives_unknown_and_a_finished_game_needs_no_search() {
    let mut solver = CoopSolver::new();
    let start = deal("", 3);
    let solution = solver.solve_within(&start, 3).unwrap();
    assert_eq!(solution.verdict, Verdict::Unknown);
    assert!(solution.nodes <= 3);
    let won = FenrirPath::from_position_text(
        "RRRRRRBBBBBBGGGGGGYYYYYY:RBGY collected=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18",
        FenrirPathRules::default(),
    )
    .unwrap();
    let solution = solver.solve(&won).unwrap();
    assert_eq!((solution.verdict, solution.nodes), (Verdict::Win, 0));
}

#[test]
fn the_library_reports_of_solved_positions_and_deals_agree_with_the_solver() {
    use norn::arena::solutions::{solve_deals, solve_position};
    use norn::arena::winrate::{WinRateRun, deal as dealt};
    use norn::registry::Registered;
    let rules: FenrirPathRules = "colours=2,tiles-per-colour=3,sets=2,spacing=2,turn-order=fixed"
        .parse()
        .unwrap();
    let objectives = FenrirPath::objectives();
    let run = WinRateRun {
        deals: 40,
        master_seed: 9,
        threads: 2,
    };
    let report = solve_deals(&rules, &objectives, run, 100_000, &|| {}).unwrap();
    assert_eq!(report.per_deal.len(), 40);
    assert_eq!(report.unknown, 0, "the budget decides every small deal");
    let mut winnable = 0;
    for entry in &report.per_deal {
        // Each deal is the one `norn winrate` plays, and its verdict is the
        // solver's on that deal.
        let start: FenrirPath = dealt(&rules, run.master_seed, entry.index);
        assert_eq!(entry.deal, start.position_text());
        let solution = CoopSolver::new().solve(&start).unwrap();
        assert_eq!(entry.verdict, solution.verdict);
        if solution.verdict == Verdict::Win {
            winnable += 1;
            // Every objective is proven exactly here, and a line of that
            // value replays to a win.
            let single = solve_position(&start, &objectives, Some(100_000)).unwrap();
            assert!(single.win);
            for (bounds, &(low, high)) in single.objectives.iter().zip(&entry.objectives) {
                assert_eq!((bounds.lower, bounds.upper), (Some(low), Some(high)));
                assert!(bounds.exact);
            }
        } else {
            assert!(entry.objectives.is_empty());
        }
    }
    assert_eq!(report.winnable, winnable);
    assert!(winnable > 0 && winnable < 40, "{winnable} of 40 winnable");
    assert_eq!(report.objectives[0].deals, winnable);
}
