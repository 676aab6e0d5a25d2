//! The generic searchers on Copenhagen Hnefatafl: agreement between search
//! configurations, tactics from hand-built positions, and games against the
//! baselines.

use crate::common::{histories, positions};
use norn::agents::{Agent, Decision, build_agent};
use norn::arena::{PlayOptions, play_game};
use norn::core::{Evaluate, Evaluator, Game, GameEvaluation, MoveList, Notation, Player, Status};
use norn::games::hnefatafl::{
    Hnefatafl, HnefataflEvaluation, HnefataflMove, HnefataflRules, HnefataflWeights, Side,
};
use norn::registry;
use norn::search::{
    AlphaBeta, AlphaBetaConfig, Expansion, FinalChoice, Mcts, MctsConfig, MoveStats, SCORE_SCALE,
    Widening,
};
use rand::RngExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

fn position(text: &str) -> Hnefatafl {
    Hnefatafl::from_position_text(text, HnefataflRules::default()).unwrap()
}

/// Positions from random games, 8 to 60 plies in.
fn random_positions(count: usize, seed: u64) -> Vec<Hnefatafl> {
    let mut moves = MoveList::new();
    let start = Hnefatafl::new(HnefataflRules::default());
    positions::random_positions(&start, count, 8..60, seed, |state, rng| {
        state.legal_moves(&mut moves);
        moves[rng.random_range(0..moves.len())]
    })
}

/// Plain minimax without pruning, on the searcher's integer scale, with
/// the game's own evaluation.
fn minimax(state: &Hnefatafl, me: Player, depth: u32) -> i32 {
    minimax_with(state, me, depth, &|state, player| state.evaluate(player))
}

/// Plain minimax without pruning with the evaluation `evaluate`.
fn minimax_with(
    state: &Hnefatafl,
    me: Player,
    depth: u32,
    evaluate: &dyn Fn(&Hnefatafl, Player) -> f64,
) -> i32 {
    let score = |value: f64| (value * f64::from(SCORE_SCALE)).round() as i32;
    match state.status() {
        Status::Over(outcome) => return score(outcome.payoffs.get(me)),
        _ if depth == 0 => return score(evaluate(state, me)),
        _ => {}
    }
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    let values = moves.iter().map(|&mv| {
        let mut child = state.clone();
        child.play(mv);
        minimax_with(&child, me, depth - 1, evaluate)
    });
    if state.status().player_to_move() == Some(me) {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

fn searcher(depth: u32, table_megabytes: usize, threads: usize) -> AlphaBeta {
    AlphaBeta::new(AlphaBetaConfig {
        depth: Some(depth),
        table_megabytes,
        threads,
        ..AlphaBetaConfig::default()
    })
}

#[test]
fn alpha_beta_equals_plain_minimax_at_depth_two() {
    for state in random_positions(6, 1) {
        let me = state.status().player_to_move().unwrap();
        let result = searcher(2, 4, 1).search(&state).unwrap();
        assert_eq!(
            result.score,
            minimax(&state, me, 2),
            "{}",
            state.position_text()
        );
    }
}

/// Material only, unlike the game's own evaluation.
fn material(state: &Hnefatafl, player: Player) -> f64 {
    let attackers = f64::from(state.attackers().count());
    let defenders = f64::from(state.defenders().count());
    let for_attackers = ((attackers - 2.0 * defenders) / 48.0).clamp(-0.9, 0.9);
    if player == 0 {
        for_attackers
    } else {
        -for_attackers
    }
}

#[test]
fn alpha_beta_searches_with_the_evaluation_it_is_given() {
    let mut differs = false;
    for state in random_positions(6, 2) {
        let me = state.status().player_to_move().unwrap();
        let result = searcher(2, 4, 1).search_with(&state, &material).unwrap();
        assert_eq!(
            result.score,
            minimax_with(&state, me, 2, &material),
            "{}",
            state.position_text()
        );
        differs |= result.score != minimax(&state, me, 2);
        // The game's own evaluation given explicitly is the default search.
        let own = searcher(2, 4, 1)
            .search_with(&state, &GameEvaluation)
            .unwrap();
        let default = searcher(2, 4, 1).search(&state).unwrap();
        assert_eq!(
            (own.score, own.best_move, own.nodes),
            (default.score, default.best_move, default.nodes)
        );
    }
    assert!(differs, "material scored every position as the game does");
}

/// The game's own evaluation, counting its calls.
struct Counted(Arc<AtomicUsize>);

impl Evaluator<Hnefatafl> for Counted {
    fn evaluate(&self, state: &Hnefatafl, player: Player) -> f64 {
        self.0.fetch_add(1, Ordering::Relaxed);
        state.evaluate(player)
    }

    fn is_tactical(&self, state: &Hnefatafl, mv: HnefataflMove) -> bool {
        state.is_tactical(mv)
    }
}

#[test]
fn mcts_searches_with_the_evaluation_it_is_given() {
    let config = MctsConfig {
        iterations: Some(300),
        playout_plies: Some(2),
        ..MctsConfig::default()
    };
    let state = random_positions(1, 3).remove(0);
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Mcts::with_evaluator(config.clone(), 7, Counted(Arc::clone(&calls)))
        .unwrap()
        .search(&state)
        .unwrap();
    assert!(calls.load(Ordering::Relaxed) > 0);
    // The same evaluation through the trait gives the default search.
    let default = Mcts::new(config, 7).unwrap().search(&state).unwrap();
    assert_eq!(counted.best_move, default.best_move);
    assert_eq!(counted.moves, default.moves);
}

/// The root's expanded moves after a search of `iterations` with `config`.
fn root_moves(
    config: MctsConfig,
    state: &Hnefatafl,
) -> Vec<norn::search::MoveStats<HnefataflMove>> {
    Mcts::new(config, 11).unwrap().search(state).unwrap().moves
}

#[test]
fn progressive_widening_keeps_to_its_number_of_children() {
    let widening = norn::search::Widening {
        width: 1.0,
        exponent: 0.5,
    };
    for state in random_positions(3, 4) {
        let config = MctsConfig {
            iterations: Some(100),
            widening: Some(widening),
            ..MctsConfig::default()
        };
        // The root is visited once an iteration: sqrt(100) children, and
        // the one the 100th visit may add.
        let widened = root_moves(config.clone(), &state);
        assert!(widened.len() <= 11, "{} children", widened.len());
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        let plain = root_moves(
            MctsConfig {
                widening: None,
                ..config
            },
            &state,
        );
        assert_eq!(plain.len(), moves.len().min(100));
    }
}

/// Once every root move has had its one visit, the next goes to the best
/// score: with random playouts that is the luckiest playout, unless a
/// strong progressive bias makes it the best evaluated move (to within what
/// one playout's result can add: 2 / bias in payoff).
#[test]
fn a_strong_progressive_bias_sends_the_first_revisit_to_the_best_evaluated_move() {
    let bias = 1000.0;
    let mut unbiased_elsewhere = 0;
    for state in random_positions(4, 6) {
        let mover = state.status().player_to_move().unwrap();
        let evaluation = |mv: HnefataflMove| {
            let mut child = state.clone();
            child.play(mv);
            match child.status() {
                Status::Over(outcome) => outcome.payoffs.get(mover),
                _ => child.evaluate(mover),
            }
        };
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        let best = moves
            .iter()
            .map(|&mv| evaluation(mv))
            .fold(f64::MIN, f64::max);
        let revisited = |progressive_bias| {
            let config = MctsConfig {
                iterations: Some(moves.len() as u64 + 1),
                playout_plies: Some(4),
                exploration: 0.0,
                progressive_bias,
                solver: false,
                ..MctsConfig::default()
            };
            let stats = root_moves(config, &state);
            assert_eq!(stats[0].visits, 2);
            evaluation(stats[0].mv)
        };
        assert!(
            revisited(bias) >= best - 2.0 / bias,
            "{}",
            state.position_text()
        );
        unbiased_elsewhere += usize::from(revisited(0.0) < best - 2.0 / bias);
    }
    assert!(unbiased_elsewhere > 0, "the bias made no difference");
}

#[test]
fn a_shallow_search_evaluation_is_plain_minimax_at_its_depth() {
    for state in random_positions(4, 8) {
        let me = state.status().player_to_move().unwrap();
        for depth in 1..=2 {
            let shallow = norn::search::ShallowSearch::new(GameEvaluation, depth);
            for player in [me, 1 - me] {
                let value = shallow.evaluate(&state, player);
                let expected = minimax(&state, player, depth);
                assert_eq!(
                    (value * f64::from(SCORE_SCALE)).round() as i32,
                    expected,
                    "depth {depth} for player {player} in {}",
                    state.position_text()
                );
            }
        }
    }
}

#[test]
fn table_and_threads_do_not_change_the_value_at_fixed_depth() {
    let mut configurations = [searcher(3, 16, 1), searcher(3, 0, 1), searcher(3, 16, 2)];
    for state in random_positions(8, 2) {
        let scores: Vec<i32> = configurations
            .iter_mut()
            .map(|searcher| searcher.search(&state).unwrap().score)
            .collect();
        assert!(
            scores.iter().all(|&score| score == scores[0]),
            "{scores:?} in {}",
            state.position_text()
        );
    }
}

#[test]
fn the_principal_variation_is_a_legal_line_and_limits_hold() {
    let state = random_positions(1, 3).remove(0);
    let result = searcher(3, 16, 1).search(&state).unwrap();
    assert_eq!(result.depth, 3);
    assert_eq!(result.pv.first().copied(), result.best_move);
    let mut line = state.clone();
    for &mv in &result.pv {
        line.try_play(mv).expect("a legal principal variation");
    }
    let limited = AlphaBeta::new(AlphaBetaConfig {
        depth: None,
        nodes: Some(2_000),
        ..AlphaBetaConfig::default()
    })
    .search(&state)
    .unwrap();
    assert!(limited.nodes <= 2_000 + 1, "{}", limited.nodes);
    assert!(limited.best_move.is_some());
}

/// Defenders to move; the king on a6 has an open line to a1.
const ESCAPE_IN_ONE: &str = "/3ttttt3/5t5/11/t10/11/K3T6/4TTT4/5T5/11/5t5/3ttttt3/ defenders";
/// The same, attackers to move: only f2-a2 closes the line.
const BLOCK_IN_ONE: &str = "/3ttttt3/5t5/11/t10/11/K3T6/4TTT4/5T5/11/5t5/3ttttt3/ attackers";

const SEARCHERS: [&str; 13] = [
    "greedy",
    "alphabeta:depth=1",
    "alphabeta:depth=2",
    "alphabeta:depth=3,threads=2",
    "alphabeta:ms=100",
    "mcts:iters=3000",
    "mcts:iters=3000,playout=0",
    "mcts:iters=3000,threads=2",
    "mcts:iters=3000,threads=2,parallel=tree",
    "mcts:iters=300,expand=all,minimax=1,c=0.05",
    "mcts:iters=300,expand=all,minimax=1,c=0.05,widen=2",
    "mcts:iters=300,expand=all,minimax=1,c=0.05,threads=2",
    "mcts:iters=300,expand=all,minimax=1,playout=0,c=0,threads=2,parallel=tree",
];

fn decide(spec: &str, state: &Hnefatafl) -> String {
    decision(&mut *build_agent::<Hnefatafl>(spec, 4).unwrap(), state)
}

/// The move `agent` chooses in `state`, as text.
fn decision(agent: &mut dyn Agent<Hnefatafl>, state: &Hnefatafl) -> String {
    match agent
        .decide(state, state.status().player_to_move().unwrap())
        .unwrap()
    {
        Decision::Play(mv) => state.move_text(mv),
        Decision::Resign => "resign".to_string(),
    }
}

#[test]
fn every_searcher_takes_an_escape_in_one() {
    let state = position(ESCAPE_IN_ONE);
    for spec in SEARCHERS {
        assert_eq!(decide(spec, &state), "a6-a1", "{spec}");
    }
}

#[test]
fn every_searcher_blocks_an_escape_in_one() {
    let state = position(BLOCK_IN_ONE);
    for spec in SEARCHERS {
        assert_eq!(decide(spec, &state), "f2-a2", "{spec}");
    }
}

/// With every child built at once and one child open (`widen=1`,
/// `widen-exp=0`), every visit of the root goes to the move whose
/// evaluation is best for the player to move (the first such move in
/// generation order), worked out here by evaluating each child.
#[test]
fn evaluated_expansion_opens_the_best_evaluated_move_first() {
    let mut checked = 0;
    for state in random_positions(8, 8) {
        let mover = state.status().player_to_move().unwrap();
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        let mut best: Option<(HnefataflMove, f64, Hnefatafl)> = None;
        for &mv in moves.iter() {
            let mut child = state.clone();
            child.play(mv);
            let value = child.evaluate(mover);
            if best
                .as_ref()
                .is_none_or(|(_, best_value, _)| value > *best_value)
            {
                best = Some((mv, value, child));
            }
        }
        let (best_move, _, best_child) = best.unwrap();
        if best_child.status().is_over() {
            // A win in one proves the root at once: nothing is visited.
            continue;
        }
        let config = MctsConfig {
            iterations: Some(200),
            expansion: Expansion::All,
            minimax_weight: 1.0,
            exploration: 0.05,
            widening: Some(Widening {
                width: 1.0,
                exponent: 0.0,
            }),
            ..MctsConfig::default()
        };
        let result = Mcts::new(config, 1).unwrap().search(&state).unwrap();
        let visited: Vec<HnefataflMove> = result
            .moves
            .iter()
            .filter(|stats| stats.visits > 0)
            .map(|stats| stats.mv)
            .collect();
        assert_eq!(visited, [best_move], "{}", state.position_text());
        assert_eq!(result.best_move, Some(best_move));
        checked += 1;
    }
    assert!(checked >= 6, "{checked}");
}

/// With every child built at once and `pick=value`, two iterations expand
/// the root and then its best evaluated child, whose value becomes the
/// opponent's best reply; the move played is the best of that backed-up
/// value and the other children's evaluations, worked out here by
/// evaluating the children and grandchildren. The most visited move would
/// be the first child whatever its reply, and in some of these positions
/// the reply drops it below another child.
#[test]
fn picking_by_value_plays_the_best_backed_up_move() {
    let (mut checked, mut first_refuted) = (0, 0);
    for state in random_positions(24, 9) {
        let mover = state.status().player_to_move().unwrap();
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        let children: Vec<(HnefataflMove, Hnefatafl)> = moves
            .iter()
            .map(|&mv| {
                let mut child = state.clone();
                child.play(mv);
                (mv, child)
            })
            .collect();
        if children.iter().any(|(_, child)| child.status().is_over()) {
            // A finished child proves moves at once; keep to estimates.
            continue;
        }
        let mut values: Vec<f64> = children
            .iter()
            .map(|(_, child)| child.evaluate(mover))
            .collect();
        // The first best evaluated child is the one expanded second.
        let first = (0..values.len())
            .reduce(|best, i| if values[i] > values[best] { i } else { best })
            .unwrap();
        let mut replies = MoveList::new();
        children[first].1.legal_moves(&mut replies);
        values[first] = replies
            .iter()
            .map(|&reply| {
                let mut grandchild = children[first].1.clone();
                grandchild.play(reply);
                grandchild.evaluate(mover)
            })
            .fold(f64::INFINITY, f64::min);
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let best_moves: Vec<usize> = (0..values.len()).filter(|&i| values[i] == best).collect();
        if best_moves.len() > 1 || best <= -1.0 {
            // Ties, and a first child refuted by a win, have their own
            // rules (the more visited move, the solver); skip them.
            continue;
        }
        let config = MctsConfig {
            iterations: Some(2),
            expansion: Expansion::All,
            minimax_weight: 1.0,
            exploration: 0.05,
            final_choice: FinalChoice::BestValue,
            ..MctsConfig::default()
        };
        let result = Mcts::new(config, 1).unwrap().search(&state).unwrap();
        let expected = children[best_moves[0]].0;
        assert_eq!(
            result.best_move,
            Some(expected),
            "{}",
            state.position_text()
        );
        checked += 1;
        first_refuted += usize::from(best_moves[0] != first);
    }
    assert!(checked >= 12, "{checked}");
    assert!(first_refuted >= 1, "{first_refuted} of {checked}");
}

/// The search with every child built at once, no exploration and the
/// best value played (best-first minimax), checked `check_depth` plies
/// deep before it plays.
fn best_first(iterations: u64, check_depth: u32) -> MctsConfig {
    MctsConfig {
        iterations: Some(iterations),
        expansion: Expansion::All,
        minimax_weight: 1.0,
        exploration: 0.0,
        playout_plies: Some(0),
        final_choice: FinalChoice::BestValue,
        check_depth,
        ..MctsConfig::default()
    }
}

/// Every checked root move is worth the smaller of its estimate and plain
/// minimax two plies deep from its position (worked out here without
/// pruning), the moves are checked best estimate first until none left
/// could beat the best checked value, and the best checked move is played.
#[test]
fn checks_value_moves_by_the_smaller_of_estimate_and_minimax() {
    let (mut positions, mut several_checked) = (0, 0);
    for state in random_positions(24, 21) {
        let mover = state.status().player_to_move().unwrap();
        let result = Mcts::new(best_first(200, 2), 3)
            .unwrap()
            .search(&state)
            .unwrap();
        if result
            .moves
            .iter()
            .any(|stats| stats.proven.is_some_and(|proven| proven[mover] >= 1.0))
        {
            continue;
        }
        let estimate = |stats: &MoveStats<HnefataflMove>| {
            stats.proven.map_or(stats.value, |proven| proven[mover])
        };
        let mut best_checked: Option<(HnefataflMove, f64)> = None;
        for stats in &result.moves {
            let Some(checked) = stats.checked else {
                continue;
            };
            let mut child = state.clone();
            child.play(stats.mv);
            let score = f64::from(minimax(&child, mover, 2)) / f64::from(SCORE_SCALE);
            let expected = match stats.proven {
                Some(proven) => proven[mover],
                None => ((score + 1.0) / 2.0).min(stats.value),
            };
            assert!(
                (checked - expected).abs() < 1e-4,
                "{}: {checked} against {expected}",
                state.move_text(stats.mv)
            );
            if best_checked.is_none_or(|(_, value)| checked > value) {
                best_checked = Some((stats.mv, checked));
            }
        }
        let (played, value) = best_checked.expect("a move is checked");
        assert_eq!(result.best_move, Some(played));
        let checked_count = result.moves.iter().filter(|s| s.checked.is_some()).count();
        positions += 1;
        several_checked += usize::from(checked_count > 1);
        if checked_count < 8 {
            for stats in result.moves.iter().filter(|s| s.checked.is_none()) {
                assert!(
                    estimate(stats) <= value,
                    "{} unchecked",
                    state.move_text(stats.mv)
                );
            }
        }
    }
    assert!(positions >= 16, "{positions}");
    // A check that lowered the first move below the next one's estimate.
    assert!(several_checked >= 1, "{several_checked} of {positions}");
}

/// From a game at a second a move: best-first minimax with the tuned
/// evaluation plays k4-k3, after which h3-h1 wins (the king threatens
/// i1-k1, and an attacker that steps to j1 to block is taken against the
/// corner); a check three plies deep sees it, and the move played then
/// survives alpha-beta's look three plies past it.
#[test]
fn a_check_turns_down_a_move_refuted_three_plies_past_it() {
    let moves = "h1-h3 g5-g2 h3-h2xg2 g6-g2 f2-a2 f6-g6 f1-f2xg2 g6-g3 d1-d3 g3-i3 h2-i2 \
                 i3-k3 i2-k2 k3-i3 k2-i2 i3-k3 i2-k2 k3-h3";
    let mut state = Hnefatafl::new(HnefataflRules::default());
    for text in moves.split_whitespace() {
        let mv = state.parse_move(text).unwrap();
        state.try_play(mv).unwrap();
    }
    let tuned = HnefataflEvaluation {
        weights: HnefataflWeights::TUNED,
    };
    let play = |check_depth| {
        let mut search = Mcts::with_evaluator(best_first(3000, check_depth), 1, tuned).unwrap();
        search.search(&state).unwrap().best_move.unwrap()
    };
    let after = |mv| {
        let mut child = state.clone();
        child.play(mv);
        let mut search = AlphaBeta::new(AlphaBetaConfig {
            depth: Some(3),
            ..AlphaBetaConfig::default()
        });
        // The attackers' score: the defenders are to move in the child.
        -search.search_with(&child, &tuned).unwrap().value()
    };
    let unchecked = play(0);
    assert_eq!(state.move_text(unchecked), "k4-k3");
    assert!(after(unchecked) < -0.8, "{}", after(unchecked));
    let checked = play(3);
    assert!(
        after(checked) > -0.5,
        "{}: {}",
        state.move_text(checked),
        after(checked)
    );
}

/// One game with `spec` on `side` against `opponent`; the winner's side.
fn winner(spec: &str, side: Side, opponent: &str, seed: u64) -> Option<Side> {
    let rules: HnefataflRules = "ply-limit=300".parse().unwrap();
    let ours = build_agent::<Hnefatafl>(spec, seed).unwrap();
    let theirs = build_agent::<Hnefatafl>(opponent, seed + 1).unwrap();
    let mut agents: Vec<Box<dyn Agent<Hnefatafl>>> = match side {
        Side::Attackers => vec![ours, theirs],
        Side::Defenders => vec![theirs, ours],
    };
    let game = play_game(&Hnefatafl::new(rules), &mut agents, &PlayOptions::default()).unwrap();
    game.outcome.winner().map(Side::from_player)
}

#[test]
fn alpha_beta_beats_random_and_greedy_from_both_sides() {
    for opponent in ["random", "greedy"] {
        for side in [Side::Attackers, Side::Defenders] {
            for seed in [1, 2] {
                assert_eq!(
                    winner("alphabeta:depth=3", side, opponent, seed),
                    Some(side),
                    "alphabeta as {side} against {opponent}, seed {seed}"
                );
            }
        }
    }
}

/// Seed 3 starts a game that both sides spend shuffling pieces: 300 plies
/// without an end, positions coming back with other repetition histories.
#[test]
fn the_table_does_not_carry_a_value_to_a_position_with_another_history() {
    let start = random_positions(1, 3).remove(0);
    assert_eq!(histories::scores_match_fresh_searchers(start, 3, 300), 300);
}

/// The first move `agent` chooses in each of `positions`.
fn decisions(mut agent: Box<dyn Agent<Hnefatafl>>, positions: &[Hnefatafl]) -> Vec<String> {
    positions
        .iter()
        .map(|state| {
            agent.reset();
            decision(&mut *agent, state)
        })
        .collect()
}

#[test]
fn the_best_preset_is_the_ladder_winner_and_options_beside_it_win() {
    // The MCTS that bench-results/strength.md measured at +38 Elo against
    // alpha-beta at 100 ms, spelled out.
    const LADDER: &str =
        "mcts:iters=300,expand=all,minimax=1,playout=0,c=0,pick=value,tempo=0.024,eval=tuned";
    let positions = random_positions(12, 21);
    let agent = |spec: &str| registry::build_agent::<Hnefatafl>(spec, 9).unwrap();
    // The preset shares one tree among threads, which with one thread is
    // the search the ladder ran.
    let preset = agent("mcts:preset=best,iters=300");
    let shared = format!("{LADDER},parallel=tree");
    assert_eq!(preset.configuration(), agent(&shared).configuration());
    let chosen = decisions(preset, &positions);
    assert_eq!(chosen, decisions(agent(LADDER), &positions));
    // The positions tell the evaluations apart: without the tuned one and
    // the tempo bonus, the same search chooses otherwise somewhere.
    let plain = LADDER.replace(",tempo=0.024,eval=tuned", "");
    assert_ne!(chosen, decisions(agent(&plain), &positions));

    let overridden = agent("mcts:c=0.3,preset=best,iters=300");
    assert_eq!(
        overridden.configuration(),
        agent(&shared.replace("c=0,", "c=0.3,")).configuration()
    );
    assert_eq!(
        registry::build_agent::<Hnefatafl>("alphabeta:preset=best,depth=2", 1)
            .unwrap()
            .configuration(),
        registry::build_agent::<Hnefatafl>("alphabeta:depth=2,eval=tuned", 1)
            .unwrap()
            .configuration()
    );
}

#[test]
fn a_preset_that_does_not_exist_is_refused_with_the_ones_that_do() {
    let error = |spec: &str| {
        registry::build_agent::<Hnefatafl>(spec, 1)
            .err()
            .expect("refused")
            .to_string()
    };
    assert!(error("mcts:preset=fast").contains("`preset` takes `best`, not `fast`"));
    let unmeasured = error("greedy:preset=best");
    assert!(
        unmeasured.contains("best settings of `greedy` on hnefatafl (presets: alphabeta, mcts)"),
        "{unmeasured}"
    );
    // The generic builder reads presets as the registry does.
    assert!(build_agent::<Hnefatafl>("mcts:preset=best,iters=10", 1).is_ok());
}
