//! The searchers against plain minimax on a solved game: tic-tac-toe is a
//! draw under perfect play.

use crate::common::tictactoe::{TicTacToe, minimax_value, reachable_positions};
use norn::agents::{Decision, build_agent};
use norn::core::{Evaluator, Game, MoveList, Player, Ply};
use norn::search::{
    AlphaBeta, AlphaBetaConfig, Expansion, Mcts, MctsConfig, Parallelism, SCORE_SCALE,
};
use std::collections::HashMap;

type Memo = HashMap<[Option<usize>; 9], i32>;

/// The minimax value, for the player to move, of each move of `state`.
fn move_values(state: &TicTacToe, memo: &mut Memo) -> Vec<(u8, i32)> {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            child.play(mv);
            (mv, -minimax_value(&child, memo))
        })
        .collect()
}

fn full_depth(table_megabytes: usize, threads: usize) -> AlphaBeta {
    AlphaBeta::new(AlphaBetaConfig {
        depth: Some(9),
        table_megabytes,
        threads,
        ..AlphaBetaConfig::default()
    })
}

#[test]
fn the_start_is_a_draw() {
    let mut memo = HashMap::new();
    assert_eq!(
        minimax_value(&TicTacToe::from_cells("........."), &mut memo),
        0
    );
    assert_eq!(
        minimax_value(&TicTacToe::from_cells("xx.oo...."), &mut memo),
        1
    );
    assert_eq!(reachable_positions().len(), 5478);
}

#[test]
fn alpha_beta_matches_minimax_from_every_reachable_position() {
    let mut memo = HashMap::new();
    let mut searchers = [full_depth(1, 1), full_depth(0, 1)];
    let mut checked = 0;
    for state in reachable_positions() {
        if state.status().is_over() {
            continue;
        }
        let values = move_values(&state, &mut memo);
        let value = minimax_value(&state, &mut memo);
        for searcher in &mut searchers {
            let result = searcher.search(&state).unwrap();
            assert_eq!(result.score, value * SCORE_SCALE, "{state:?}");
            let best = result.best_move.unwrap();
            assert!(
                values.contains(&(best, value)),
                "{best} is not optimal in {state:?}"
            );
            assert_eq!(result.pv.first(), Some(&best));
            let mut line = state.clone();
            for &mv in &result.pv {
                line.try_play(mv).expect("the principal variation is legal");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 4520);
}

#[test]
fn two_threads_give_the_values_of_one() {
    let mut memo = HashMap::new();
    let mut parallel = full_depth(1, 2);
    for state in reachable_positions()
        .iter()
        .filter(|s| s.ply() <= 3 && !s.status().is_over())
    {
        let result = parallel.search(state).unwrap();
        assert_eq!(result.score, minimax_value(state, &mut memo) * SCORE_SCALE);
    }
}

fn mcts(parallelism: Parallelism, threads: usize, seed: u64) -> Mcts<TicTacToe> {
    mcts_with_minimax(parallelism, threads, 0.0, seed)
}

fn mcts_with_minimax(
    parallelism: Parallelism,
    threads: usize,
    minimax_weight: f64,
    seed: u64,
) -> Mcts<TicTacToe> {
    let config = MctsConfig {
        iterations: Some(3_000),
        threads,
        parallelism,
        playout_plies: None,
        minimax_weight,
        ..MctsConfig::default()
    };
    Mcts::new(config, seed).unwrap()
}

/// MCTS plays a move that keeps the game-theoretic value from the start and
/// from every position after one and two moves. Tree parallelism is not
/// reproducible (its threads interleave differently from run to run), and
/// now and then an interleaving leaves a losing move ahead somewhere among
/// the 82 positions (about one run in ten at 3,000 iterations; still an
/// occasional run on a loaded machine at 30,000): its claim is that most
/// of three searches with their own seeds find a drawing move, each with
/// 10,000 iterations.
#[test]
fn mcts_finds_the_drawing_moves() {
    let mut memo = HashMap::new();
    let positions: Vec<TicTacToe> = reachable_positions()
        .into_iter()
        .filter(|state| state.ply() <= 2)
        .collect();
    assert_eq!(positions.len(), 1 + 9 + 72);
    for (index, state) in positions.iter().enumerate() {
        let value = minimax_value(state, &mut memo);
        let values = move_values(state, &mut memo);
        let keeps_value = |search: &mut Mcts<TicTacToe>| {
            let best = search.search(state).unwrap().best_move.unwrap();
            (values.contains(&(best, value)), best)
        };
        for (parallelism, threads, minimax) in [
            (Parallelism::Root, 1, 0.0),
            (Parallelism::Root, 2, 0.0),
            (Parallelism::Root, 1, 0.5),
        ] {
            let mut search = mcts_with_minimax(parallelism, threads, minimax, index as u64);
            let (kept, best) = keeps_value(&mut search);
            assert!(
                kept,
                "{parallelism:?}/{threads}: {best} loses value in {state:?}"
            );
        }
        let losing: Vec<u8> = (0..3u64)
            .filter_map(|run| {
                let seed = index as u64 + 1_000 * run;
                let search = mcts_with_minimax(Parallelism::Tree, 2, 0.0, seed);
                let mut search = Mcts::new(
                    MctsConfig {
                        iterations: Some(10_000),
                        ..search.config().clone()
                    },
                    seed,
                )
                .unwrap();
                let (kept, best) = keeps_value(&mut search);
                (!kept).then_some(best)
            })
            .collect();
        assert!(
            losing.len() <= 1,
            "Tree/2: {losing:?} lose value in {state:?}"
        );
    }
}

/// With every child built at once and implicit minimax alone, the search
/// is best-first minimax with the solver: from every reachable position
/// after the first move it proves the game-theoretic value of the move it
/// plays before its budget runs out, for one tree, for two root-parallel
/// trees and for two threads sharing one tree.
#[test]
fn evaluated_expansion_proves_every_position() {
    let mut memo = HashMap::new();
    let budget = 20_000;
    let mut proved = 0;
    for (index, state) in reachable_positions().iter().enumerate() {
        if state.status().is_over() || state.ply() == 0 {
            continue;
        }
        let value = minimax_value(state, &mut memo);
        let values = move_values(state, &mut memo);
        let player = state.status().player_to_move().unwrap();
        for (parallelism, threads) in [
            (Parallelism::Root, 1),
            (Parallelism::Root, 2),
            (Parallelism::Tree, 2),
        ] {
            let config = MctsConfig {
                iterations: Some(budget),
                threads,
                parallelism,
                expansion: Expansion::All,
                minimax_weight: 1.0,
                exploration: 0.05,
                ..MctsConfig::default()
            };
            let result = Mcts::new(config, index as u64)
                .unwrap()
                .search(state)
                .unwrap();
            let best = result.best_move.unwrap();
            assert!(
                values.contains(&(best, value)),
                "{parallelism:?}: {best} loses value in {state:?}"
            );
            let proven = result
                .moves
                .iter()
                .find(|stats| stats.mv == best)
                .and_then(|stats| stats.proven)
                .unwrap_or_else(|| {
                    panic!("{parallelism:?}: {best} unproven in {state:?} {result:?}")
                });
            assert_eq!(proven[player], f64::from(value + 1) / 2.0, "{state:?}");
            if threads == 1 {
                assert!(result.iterations < budget, "a proven root ends the search");
            }
            proved += 1;
        }
    }
    assert_eq!(proved, 3 * 4519);
}

#[test]
fn the_solver_proves_a_win_in_one_and_stops() {
    let state = TicTacToe::from_cells("xx.oo....");
    let mut search = mcts(Parallelism::Root, 1, 3);
    let result = search.search(&state).unwrap();
    assert_eq!(result.best_move, Some(2));
    assert!(result.iterations < 3_000, "a proven root ends the search");
    assert!(
        result
            .moves
            .iter()
            .any(|stats| stats.mv == 2 && stats.proven.is_some())
    );
}

#[test]
fn mcts_is_reproducible_with_an_iteration_budget() {
    for threads in [1, 2] {
        let run = || {
            let mut agent = build_agent::<TicTacToe>(
                &format!("mcts:iters=500,threads={threads},playout=none"),
                11,
            )
            .unwrap();
            let mut state = TicTacToe::from_cells(".........");
            let mut moves = Vec::new();
            while !state.status().is_over() {
                let Decision::Play(mv) = agent
                    .decide(&state, state.status().player_to_move().unwrap())
                    .unwrap()
                else {
                    panic!("mcts never resigns");
                };
                agent.observe(&state, &Ply::Move(mv));
                state.play(mv);
                moves.push(mv);
            }
            moves
        };
        assert_eq!(run(), run(), "threads={threads}");
    }
}

#[test]
fn the_tree_is_kept_between_moves_and_bounded() {
    let mut search = mcts(Parallelism::Root, 1, 5);
    let start = TicTacToe::from_cells(".........");
    let first = search.search(&start).unwrap();
    let mv = first.best_move.unwrap();
    let kept_visits = first
        .moves
        .iter()
        .find(|stats| stats.mv == mv)
        .unwrap()
        .visits;
    search.advance(&start, mv);
    assert!(search.node_count() > 1);
    let mut after = start.clone();
    after.play(mv);
    let second = search.search(&after).unwrap();
    let root_visits: u64 = second.moves.iter().map(|stats| stats.visits).sum();
    assert!(
        root_visits >= kept_visits + 3_000 - 1,
        "{root_visits} {kept_visits}"
    );

    let mut bounded = Mcts::new(
        MctsConfig {
            node_budget: 50,
            iterations: Some(2_000),
            ..MctsConfig::default()
        },
        1,
    )
    .unwrap();
    let result = bounded.search(&start).unwrap();
    assert!(result.nodes <= 50);
    assert_eq!(result.iterations, 2_000);

    let mut shared = Mcts::new(
        MctsConfig {
            node_budget: 50,
            iterations: Some(2_000),
            threads: 2,
            parallelism: Parallelism::Tree,
            ..MctsConfig::default()
        },
        1,
    )
    .unwrap();
    let result = shared.search(&start).unwrap();
    assert!(
        result.nodes <= 50 + 2,
        "each thread may finish one node past the budget"
    );
    assert_eq!(result.iterations, 2_000);
    let visits: u64 = result.moves.iter().map(|stats| stats.visits).sum();
    assert_eq!(
        visits, 2_000,
        "every iteration passes through one root move"
    );
}

/// A tree kept past half its budget is cut down to that, the families of
/// its most visited nodes first: the kept root's visits survive, and the
/// next search grows the tree again and still plays a drawing move. Kept
/// whole, the subtree of the move played would fill most of the budget.
#[test]
fn a_kept_tree_is_cut_to_half_its_budget() {
    const BUDGET: usize = 3_000;
    let mut memo = HashMap::new();
    let start = TicTacToe::from_cells(".........");
    for expansion in [Expansion::OneByOne, Expansion::All] {
        let config = MctsConfig {
            iterations: Some(20_000),
            node_budget: BUDGET,
            playout_plies: None,
            expansion,
            minimax_weight: 1.0,
            exploration: 0.1,
            ..MctsConfig::default()
        };
        let mut search = Mcts::new(config, 7).unwrap();
        let first = search.search(&start).unwrap();
        assert!(first.budget_reached, "{expansion:?}");
        let mv = first.best_move.unwrap();
        let kept_visits = first.moves.iter().find(|s| s.mv == mv).unwrap().visits;
        search.advance(&start, mv);
        search.cut_trees();
        let kept = search.node_count();
        assert!(
            kept <= BUDGET / 2 && kept > BUDGET / 2 - 9,
            "{expansion:?}: {kept}"
        );
        let mut after = start.clone();
        after.play(mv);
        let second = search.search(&after).unwrap();
        let root_visits: u64 = second.moves.iter().map(|stats| stats.visits).sum();
        assert!(root_visits >= kept_visits + 20_000 - 1, "{expansion:?}");
        assert!(second.nodes > kept, "{expansion:?}");
        let reply = second.best_move.unwrap();
        let values = move_values(&after, &mut memo);
        let value = minimax_value(&after, &mut memo);
        assert!(values.contains(&(reply, value)), "{expansion:?}: {reply}");

        // Budgets so small that even the new root's children are cut off.
        for budget in [1, 2, 5] {
            let config = MctsConfig {
                iterations: Some(100),
                node_budget: budget,
                expansion,
                ..MctsConfig::default()
            };
            let mut search = Mcts::new(config, 7).unwrap();
            let mut state = start.clone();
            while state.status().player_to_move().is_some() {
                let mv = search.search(&state).unwrap().best_move.unwrap();
                search.advance(&state, mv);
                search.cut_trees();
                assert!(search.node_count() <= (budget / 2).max(1), "{budget}");
                state.try_play(mv).unwrap();
            }
        }
    }
}

/// A node the solver proved keeps its result when its children are cut
/// from a kept tree, but without children it cannot give a move: when it
/// later becomes the root it must be searched again. Whole self-play games
/// with the tree kept at budgets where proofs and cuts both happen; every
/// search must return a move, and a proven root a move that keeps its
/// value.
#[test]
fn a_proven_node_cut_from_a_kept_tree_still_gives_a_move_as_root() {
    let mut memo = HashMap::new();
    let mut proofs = 0;
    for expansion in [Expansion::OneByOne, Expansion::All] {
        for budget in [10, 20, 40, 80, 160, 320] {
            let config = MctsConfig {
                iterations: Some(400),
                node_budget: budget,
                playout_plies: None,
                expansion,
                minimax_weight: 1.0,
                exploration: 0.1,
                ..MctsConfig::default()
            };
            let mut search = Mcts::new(config, 11).unwrap();
            let mut state = TicTacToe::from_cells(".........");
            while state.status().player_to_move().is_some() {
                let result = search.search(&state).unwrap();
                let Some(mv) = result.best_move else {
                    panic!("{expansion:?}, budget {budget}: no move in {state:?}");
                };
                let mover = state.status().player_to_move().unwrap();
                let values = move_values(&state, &mut memo);
                for stats in &result.moves {
                    if let Some(payoffs) = stats.proven {
                        let proven = (2.0 * payoffs[mover] - 1.0).round() as i32;
                        assert!(values.contains(&(stats.mv, proven)), "{state:?}");
                        proofs += 1;
                    }
                }
                let proved_a_win = result
                    .moves
                    .iter()
                    .any(|stats| stats.proven.is_some_and(|payoffs| payoffs[mover] >= 1.0));
                if proved_a_win {
                    assert!(
                        values.contains(&(mv, 1)),
                        "{expansion:?}, budget {budget}: {mv} does not win {state:?}"
                    );
                }
                search.advance(&state, mv);
                state.try_play(mv).unwrap();
            }
        }
    }
    assert!(proofs > 0, "the games prove some root moves");
}

#[test]
fn greedy_and_random_play_legal_games() {
    let mut agents = vec![
        build_agent::<TicTacToe>("greedy", 1).unwrap(),
        build_agent::<TicTacToe>("random", 2).unwrap(),
    ];
    let game = norn::arena::play_game(
        &TicTacToe::from_cells("........."),
        &mut agents,
        &norn::arena::PlayOptions::default(),
    )
    .unwrap();
    assert!(game.plies.len() >= 5 && game.plies.len() <= 9);
    // Greedy takes an immediate win.
    let mut greedy = build_agent::<TicTacToe>("greedy", 3).unwrap();
    assert_eq!(
        greedy
            .decide(&TicTacToe::from_cells("xx.oo...."), 0)
            .unwrap(),
        Decision::Play(2)
    );
}

#[test]
fn a_tempo_bonus_moves_the_estimate_towards_the_player_to_move_and_leaves_results_alone() {
    use norn::core::Evaluator;
    use norn::search::Tempo;
    // An evaluation that calls every position even, and one that calls it
    // nearly won for x.
    let even = |state: &TicTacToe, player: usize| match state.status().outcome() {
        Some(outcome) => outcome.payoffs.get(player),
        None => 0.0,
    };
    let x_nearly_wins = |state: &TicTacToe, player: usize| match state.status().outcome() {
        Some(outcome) => outcome.payoffs.get(player),
        None if player == 0 => 0.95,
        None => -0.95,
    };
    let tempo = |bonus| Tempo { inner: even, bonus };
    // o to move: o gains a tenth of the payoff range of 2, x loses as much.
    let o_to_move = TicTacToe::from_cells("x........");
    assert_eq!(tempo(0.05).evaluate(&o_to_move, 1), 0.1);
    assert_eq!(tempo(0.05).evaluate(&o_to_move, 0), -0.1);
    assert_eq!(tempo(0.0).evaluate(&o_to_move, 1), 0.0);
    // x to move: the bonus is x's, and stays within the payoff range.
    let x_to_move = TicTacToe::from_cells("xo.......");
    let near = Tempo {
        inner: x_nearly_wins,
        bonus: 0.05,
    };
    assert_eq!(near.evaluate(&x_to_move, 0), 1.0);
    assert_eq!(near.evaluate(&x_to_move, 1), -1.0);
    // A finished game keeps its payoff.
    let x_won = TicTacToe::from_cells("xxxoo....");
    assert!(x_won.status().is_over());
    assert_eq!(tempo(0.2).evaluate(&x_won, 0), 1.0);
    assert_eq!(tempo(0.2).evaluate(&x_won, 1), -1.0);
}

#[test]
fn greedy_playouts_take_a_win_at_once_where_random_ones_may_not() {
    // x to move; o threatens to complete the top row at 2, x the middle
    // row at 5 (and x at 2 would threaten 6 as well).
    let state = TicTacToe::from_cells("oo.xx....");
    // Five iterations visit each root move once, with one playout after it.
    let root_means = |playout_greedy, seed| {
        let config = MctsConfig {
            iterations: Some(5),
            playout_plies: None,
            playout_greedy,
            solver: false,
            reuse_tree: false,
            ..MctsConfig::default()
        };
        let result = Mcts::new(config, seed).unwrap().search(&state).unwrap();
        let mut means: Vec<(u8, u64, f64)> = result
            .moves
            .iter()
            .map(|stats| (stats.mv, stats.visits, stats.mean))
            .collect();
        means.sort_by_key(|&(mv, _, _)| mv);
        means
    };
    // Greedy playouts (epsilon 0) always complete a line when they can: x
    // wins at once at 5, and after 2 through its double threat; after 6, 7
    // or 8 o wins at 2.
    let greedy = [
        (2, 1, 1.0),
        (5, 1, 1.0),
        (6, 1, 0.0),
        (7, 1, 0.0),
        (8, 1, 0.0),
    ];
    for seed in 0..5 {
        assert_eq!(root_means(Some(0.0), seed), greedy, "seed {seed}");
    }
    // Random playouts leave o's win to chance.
    let random_spares_x = (0..20).any(|seed| {
        root_means(None, seed)
            .iter()
            .any(|&(mv, _, mean)| mv >= 6 && mean > 0.0)
    });
    assert!(random_spares_x);
}

/// An evaluation that knows only finished games, extending every move or
/// none: a search of one ply sees the opponent's reply only when extended.
struct Flat {
    extend: bool,
}

impl Evaluator<TicTacToe> for Flat {
    fn evaluate(&self, state: &TicTacToe, player: Player) -> f64 {
        state
            .status()
            .outcome()
            .map_or(0.0, |outcome| outcome.payoffs.get(player))
    }

    fn extends(&self, _state: &TicTacToe, _mv: u8) -> bool {
        self.extend
    }

    fn may_extend(&self) -> bool {
        self.extend
    }
}

#[test]
fn an_extended_move_is_searched_a_ply_deeper() {
    // O threatens the bottom row's last cell; X to move has no win of its own.
    let state = TicTacToe::from_cells(".x...xoo.");
    let one_ply = || {
        AlphaBeta::new(AlphaBetaConfig {
            depth: Some(1),
            ..AlphaBetaConfig::default()
        })
    };
    let mut memo = HashMap::new();
    let values = move_values(&state, &mut memo);
    let best = values.iter().map(|&(_, value)| value).max().unwrap();
    let saving: Vec<u8> = values
        .iter()
        .filter(|&&(_, value)| value == best)
        .map(|&(mv, _)| mv)
        .collect();
    let plain = one_ply()
        .search_with(&state, &Flat { extend: false })
        .unwrap();
    assert!(
        !saving.contains(&plain.best_move.unwrap()),
        "one ply sees no threat"
    );
    let extended = one_ply()
        .search_with(&state, &Flat { extend: true })
        .unwrap();
    assert!(saving.contains(&extended.best_move.unwrap()));
    assert_eq!(extended.score, 0);
}
