//! The Hnefatafl evaluation's weights as data: the hand-set weights give the
//! evaluation as it was before, the tuned weights are the fit they claim to
//! be, and agent specs choose between them.

use crate::common::positions;
use norn::agents::{Decision, build_agent};
use norn::core::{Evaluate, Evaluator, Game, MoveList, Notation};
use norn::games::hnefatafl::tuning::{
    TuningOptions, TuningSample, fit_scale, fit_weights, log_loss_gradient, losses, norm,
    read_samples,
};
use norn::games::hnefatafl::{
    GameRecord, Hnefatafl, HnefataflEvaluation, HnefataflMove, HnefataflRules, HnefataflWeights,
    MAX_ESTIMATE, RecordedMove, TERM_COUNT,
};
use norn::games::thud::Thud;
use rand::RngExt;

const RECORDS: &str = include_str!("../data/copenhagen-games.csv");

/// Positions of the recorded games with the evaluation for the defenders
/// (as the bits of an `f64`), written by the evaluation before its weights
/// became data.
const EVALUATIONS_BEFORE: &str = include_str!("../data/hnefatafl-hand-evaluation.tsv");

/// Every `every`-th position of the recorded games that is not over.
fn record_positions(every: usize) -> Vec<Hnefatafl> {
    let mut positions = Vec::new();
    let mut count = 0;
    for line in RECORDS.lines() {
        let record = GameRecord::parse_line(line).unwrap();
        let mut game = Hnefatafl::new(HnefataflRules::default());
        for text in &record.moves {
            if game.status().is_over() {
                break;
            }
            count += 1;
            if count % every == 0 {
                positions.push(game.clone());
            }
            let recorded: RecordedMove = text.parse().unwrap();
            game.play(HnefataflMove {
                from: recorded.from,
                to: recorded.to,
            });
        }
    }
    positions
}

#[test]
fn the_hand_set_weights_give_the_evaluation_recorded_before_they_were_data() {
    let hand = HnefataflEvaluation {
        weights: HnefataflWeights::HAND_SET,
    };
    let mut checked = 0;
    for line in EVALUATIONS_BEFORE.lines() {
        let (text, bits) = line.split_once('\t').unwrap();
        let before = f64::from_bits(u64::from_str_radix(bits, 16).unwrap());
        let state = Hnefatafl::from_position_text(text, HnefataflRules::default()).unwrap();
        assert_eq!(state.evaluate(1), before, "{text}");
        assert_eq!(state.evaluate(0), -before, "{text}");
        assert_eq!(hand.evaluate(&state, 1), before, "{text}");
        checked += 1;
    }
    assert!(checked > 200, "only {checked} positions");
}

/// The evaluation before its weights were data, over the terms: the sum
/// with the hand-set constants written out, squashed by `x / (1 + |x|)`.
fn hand_set_formula(values: [f64; TERM_COUNT]) -> f64 {
    let [
        material,
        open_corners,
        corners_in_two,
        forks,
        edge_lines,
        king_room,
        defenders_edge,
        corner_guards,
        king_pressed,
    ] = values;
    let raw = 1.5 * material
        + 0.35 * open_corners
        + 0.12 * corners_in_two
        + 0.25 * forks
        + 0.02 * edge_lines
        + 0.4 * king_room
        + 0.3 * defenders_edge
        - 0.35 * corner_guards
        - 0.08 * king_pressed;
    MAX_ESTIMATE * raw / (1.0 + raw.abs())
}

#[test]
fn the_evaluation_is_the_hand_set_formula_over_its_terms_or_a_special_case() {
    let mut weighed = 0;
    let mut special = 0;
    for state in record_positions(37) {
        let estimate = state.evaluate(1);
        match state.evaluation_terms() {
            Some(terms) => {
                let values = terms.values();
                let material = f64::from(state.defenders().count()) / 12.0
                    - f64::from(state.attackers().count()) / 24.0;
                assert_eq!(values[0], material);
                let formula = hand_set_formula(values);
                assert!((estimate - formula).abs() < 1e-12, "{estimate} {formula}");
                weighed += 1;
            }
            None => {
                let special_cases = [1.0, 0.95, 0.9].map(|share| share * MAX_ESTIMATE);
                assert!(special_cases.contains(&estimate), "{estimate}");
                // The special cases do not depend on the weights.
                let tuned = HnefataflEvaluation {
                    weights: HnefataflWeights::TUNED,
                };
                assert_eq!(tuned.evaluate(&state, 1), estimate);
                special += 1;
            }
        }
    }
    assert!(weighed > 1000 && special > 2, "{weighed} {special}");
}

#[test]
fn the_tuned_weights_are_the_fit_they_claim_to_be() {
    let data = read_samples(RECORDS, TuningOptions::default()).unwrap();
    assert_eq!(data.games, [689, 171]);
    assert_eq!(data.unknown_results, 16);
    assert!(data.train.len() > 30_000 && data.test.len() > 7_000);
    let hand = HnefataflWeights::HAND_SET;
    let tuned = HnefataflWeights::TUNED;
    let scale = fit_scale(&data.train, &hand);
    assert!((scale - 2.9722).abs() < 1e-3, "K = {scale}");
    // The committed weights are rounded to four places: near the minimum,
    // where the hand-set weights are far from it.
    let at_tuned = norm(&log_loss_gradient(&data.train, &tuned, scale));
    let at_hand = norm(&log_loss_gradient(&data.train, &hand, scale));
    assert!(at_tuned < 1e-4, "gradient {at_tuned} at the tuned weights");
    assert!(at_hand > 1e-2, "gradient {at_hand} at the hand-set weights");
    // Fitting again lands on the committed weights.
    let fit = fit_weights(&data.train, &hand, scale);
    for (fitted, committed) in fit.weights.to_array().into_iter().zip(tuned.to_array()) {
        assert!((fitted - committed).abs() < 6e-5, "{fitted} {committed}");
    }
    // And they predict the held-out games better.
    let hand_test = losses(&data.test, &hand, scale);
    let tuned_test = losses(&data.test, &tuned, scale);
    assert!(tuned_test.log_loss < hand_test.log_loss - 0.01);
    assert!(tuned_test.squared_error < hand_test.squared_error);
}

#[test]
fn the_fit_recovers_weights_that_made_the_results() {
    // Results drawn as chances from known weights, on real positions: the
    // log-loss is smallest exactly there.
    let truth = HnefataflWeights {
        material: 2.0,
        open_corners: 0.5,
        corners_in_two: -0.1,
        forks: 0.4,
        edge_lines: 0.05,
        king_room: 0.8,
        defenders_edge: -0.2,
        corner_guards: -0.6,
        king_pressed: -0.15,
    };
    let scale = 1.7;
    let samples: Vec<TuningSample> = record_positions(3)
        .iter()
        .filter_map(Hnefatafl::evaluation_terms)
        .map(|terms| TuningSample {
            terms,
            defenders_result: 1.0 / (1.0 + (-scale * terms.weighted_sum(&truth)).exp()),
        })
        .collect();
    let fit = fit_weights(&samples, &HnefataflWeights::HAND_SET, scale);
    assert!(fit.steps >= 2 && fit.gradient_norm < 1e-8, "{fit:?}");
    for (fitted, true_weight) in fit.weights.to_array().into_iter().zip(truth.to_array()) {
        assert!((fitted - true_weight).abs() < 1e-4, "{fit:?}");
    }
    assert!((fit_scale(&samples, &truth) - scale).abs() < 1e-4);
}

#[test]
fn bad_records_and_options_are_errors_that_name_the_line() {
    let options = TuningOptions::default();
    let error = read_samples("d1-d3 e5-e2,0,0,Won", options).unwrap_err();
    assert!(error.to_string().contains("line 1"), "{error}");
    assert!(error.to_string().contains("Black, White, Draw"), "{error}");
    let error = read_samples("d1-d3,0,0,Black\nd1-d7,0,0,White", options).unwrap_err();
    assert!(error.to_string().contains("line 2"), "{error}");
    assert!(error.to_string().contains("d1-d7"), "{error}");
    let error = read_samples("d1-d3,0,0", options).unwrap_err();
    assert!(error.to_string().contains("four"), "{error}");
    let error = read_samples(
        RECORDS,
        TuningOptions {
            test_every: 1,
            ..options
        },
    )
    .unwrap_err();
    assert!(error.to_string().contains("at least 2"), "{error}");
    let unknown = read_samples("d1-d3 e5-e2 d3-d2 d6-d9 a5-c5 e7-b7,0,0,Ongoing", options);
    let unknown = unknown.unwrap();
    assert_eq!((unknown.unknown_results, unknown.train.len()), (1, 0));
    // Positions before the first ply counted are left out; the one after
    // the last move counts.
    let short = read_samples("d1-d3 e5-e2 d3-d2 d6-d9 a5-c5 e7-b7,0,0,Draw", options);
    let short = short.unwrap();
    assert_eq!(short.train.len(), 3);
    assert!(
        short
            .train
            .iter()
            .all(|sample| sample.defenders_result == 0.5)
    );
}

/// The moves `spec` chooses in `states`.
fn decisions(spec: &str, states: &[Hnefatafl]) -> Vec<Decision<HnefataflMove>> {
    let mut agent = build_agent::<Hnefatafl>(spec, 1).unwrap();
    states
        .iter()
        .map(|state| {
            agent.reset();
            let mover = state.status().player_to_move().unwrap();
            agent.decide(state, mover).unwrap()
        })
        .collect()
}

#[test]
fn agent_specs_choose_the_evaluation() {
    let mut moves = MoveList::new();
    let start = Hnefatafl::new(HnefataflRules::default());
    let states = positions::random_positions(&start, 40, 10..50, 3, |state, rng| {
        state.legal_moves(&mut moves);
        moves[rng.random_range(0..moves.len())]
    });
    let own = decisions("alphabeta:depth=2", &states);
    assert_eq!(decisions("alphabeta:depth=2,eval=hand", &states), own);
    let tuned = decisions("alphabeta:depth=2,eval=tuned", &states);
    let differ = own.iter().zip(&tuned).filter(|(a, b)| a != b).count();
    assert!(differ > 0, "the tuned weights chose as the hand-set ones");
    for spec in ["mcts:iters=50,eval=tuned", "mcts:iters=50,eval=hand"] {
        assert_eq!(build_agent::<Hnefatafl>(spec, 1).unwrap().spec(), spec);
    }
}

#[test]
fn bad_evaluation_choices_explain_themselves() {
    let error = |spec: &str| match build_agent::<Hnefatafl>(spec, 0) {
        Ok(_) => panic!("`{spec}` should be rejected"),
        Err(error) => error.to_string(),
    };
    assert!(error("alphabeta:eval=best").contains("`eval` takes hand or tuned, not `best`"));
    assert!(error("mcts:eval=").contains("hand or tuned"));
    assert!(error("alphabeta:eval=tuned,eval=hand").contains("twice"));
    assert!(error("greedy:eval=tuned").contains("takes no options"));
    assert!(error("alphabeta:width=3").contains("eval"));
    match build_agent::<Thud>("alphabeta:depth=2,eval=tuned", 0) {
        Ok(_) => panic!("Thud has no named evaluations"),
        Err(error) => assert!(
            error.to_string().contains("thud has only its own"),
            "{error}"
        ),
    }
}

/// The mean value, for the player to move, of searches 0, 1 and 2 plies
/// deep over `evaluator` from `positions`.
fn values_by_depth(
    positions: &[Hnefatafl],
    evaluator: impl Evaluator<Hnefatafl> + Copy,
) -> [f64; 3] {
    use norn::core::Status;
    use norn::search::ShallowSearch;
    let mut sums = [0.0; 3];
    for state in positions {
        let Status::ToMove(mover) = state.status() else {
            continue;
        };
        for (depth, sum) in sums.iter_mut().enumerate() {
            let search = ShallowSearch::new(evaluator, depth as u32);
            *sum += search.evaluate(state, mover);
        }
    }
    sums.map(|sum| sum / positions.len() as f64)
}

#[test]
fn the_evaluation_swings_with_the_parity_of_the_depth_and_a_tempo_bonus_takes_the_swing_out() {
    use norn::search::Tempo;
    let positions = record_positions(40);
    assert!(positions.len() > 1_000, "{} positions", positions.len());
    let tuned = HnefataflEvaluation {
        weights: HnefataflWeights::TUNED,
    };
    // The player to move gains by moving (depth 1) and gives it back to
    // the reply (depth 2): a static evaluation that ignores whose move it
    // is.
    let [v0, v1, v2] = values_by_depth(&positions, tuned);
    assert!(v1 - v0 > 0.05 && v1 - v2 > 0.05, "{v0} {v1} {v2}");
    // With half the swing given to the player to move (0.024 of the range
    // of 2), the three depths agree to a few thousandths.
    let [t0, t1, t2] = values_by_depth(
        &positions,
        Tempo {
            inner: tuned,
            bonus: 0.024,
        },
    );
    for (depth, value) in [(0, t0), (2, t2)] {
        assert!(
            (t1 - value).abs() < 0.02,
            "depth {depth}: {value} against {t1}"
        );
    }
}
