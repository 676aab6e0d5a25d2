//! The engine against independent facts: published perft numbers, a plain
//! array implementation written separately, and the real game records.

use crate::common::slow_tafl::{Coord, End, SlowTafl, coord_name};
use norn::bitboard::Square;
use norn::core::{Game, MoveList, Notation, Status, rng_from_seed};
use norn::games::hnefatafl::{
    GRID, GameRecord, Hnefatafl, HnefataflMove, HnefataflRules, RecordedMove, START_POSITION, Side,
    replay_records,
};
use norn::search::{perft, perft_parallel};
use rand::RngExt;
use std::num::NonZeroU32;

const RECORDS: &str = include_str!("../data/copenhagen-games.csv");

fn coord(square: Square) -> Coord {
    (GRID.file(square) as i32, GRID.rank(square) as i32)
}

fn slow_twin(state: &Hnefatafl) -> SlowTafl {
    SlowTafl::from_text(
        &state.position_text(),
        state.rules().repetition_loses,
        state.rules().ply_limit.map(NonZeroU32::get),
    )
}

/// Compares the engine with the plain implementation in the current state.
fn assert_same_moves(engine: &Hnefatafl, slow: &SlowTafl) {
    let mut moves = MoveList::new();
    engine.legal_moves(&mut moves);
    let mut ours: Vec<(Coord, Coord)> =
        moves.iter().map(|m| (coord(m.from), coord(m.to))).collect();
    let mut theirs = slow.moves();
    ours.sort();
    theirs.sort();
    assert_eq!(
        ours,
        theirs,
        "legal moves differ in {}",
        engine.position_text()
    );
}

fn assert_same_ending(engine: &Hnefatafl, slow: &SlowTafl, context: &str) {
    let ours =
        engine
            .status()
            .outcome()
            .map(|outcome| match outcome.winner().map(Side::from_player) {
                Some(side) => End::Win {
                    attackers: side == Side::Attackers,
                    reason: outcome.reason,
                },
                None => End::Draw,
            });
    assert_eq!(
        ours,
        slow.end,
        "game end differs {context} at {}",
        engine.position_text()
    );
}

/// Plays one move in both implementations and compares captures and game end.
fn play_both(engine: &mut Hnefatafl, slow: &mut SlowTafl, mv: HnefataflMove) {
    let before = engine.position_text();
    let (captured, _) = engine.captures_of(mv);
    engine.play(mv);
    let mut slow_captured = slow.play(coord(mv.from), coord(mv.to));
    let mut ours: Vec<Coord> = captured.squares().map(coord).collect();
    ours.sort();
    slow_captured.sort();
    assert_eq!(
        ours,
        slow_captured,
        "captures of {mv} differ in {before}: {:?} vs {:?}",
        ours.iter().map(|&c| coord_name(c)).collect::<Vec<_>>(),
        slow_captured
            .iter()
            .map(|&c| coord_name(c))
            .collect::<Vec<_>>()
    );
    assert_same_ending(engine, slow, &format!("after {mv}"));
}

#[test]
fn perft_from_the_start_matches_the_published_counts() {
    let start = Hnefatafl::new(HnefataflRules::default());
    assert_eq!(start.position_text(), START_POSITION);
    assert_eq!(perft(&start, 1), 116);
    assert_eq!(perft(&start, 2), 6_788);
}

#[test]
fn perft_three_from_the_start_matches_the_plain_implementation() {
    let start = Hnefatafl::new(HnefataflRules::default());
    let expected = slow_twin(&start).perft(3);
    assert_eq!(perft(&start, 3), expected);
    assert_eq!(perft_parallel(&start, 3, 2).unwrap(), expected);
}

#[test]
fn perft_matches_the_plain_implementation_on_random_positions() {
    let mut rng = rng_from_seed(11);
    let mut moves = MoveList::new();
    let mut checked = 0;
    while checked < 40 {
        let mut state = Hnefatafl::new(HnefataflRules::default());
        let plies = rng.random_range(0..120);
        for _ in 0..plies {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state.play(moves[rng.random_range(0..moves.len())]);
        }
        if state.status().is_over() {
            continue;
        }
        // The plain implementation starts a new history, so compare from a
        // freshly parsed copy of the position.
        let fresh = Hnefatafl::from_position_text(&state.position_text(), *state.rules()).unwrap();
        assert_eq!(
            perft(&fresh, 2),
            slow_twin(&fresh).perft(2),
            "perft(2) differs at {}",
            fresh.position_text()
        );
        checked += 1;
    }
}

#[test]
fn random_playouts_agree_move_by_move_with_the_plain_implementation() {
    let mut rng = rng_from_seed(5);
    let mut moves = MoveList::new();
    let mut endings = std::collections::BTreeMap::new();
    for playout in 0..300 {
        // Uniform play mostly ends in an escape; playouts that lean towards
        // captures or king moves reach the other game ends as well.
        let (capture_bias, king_bias) =
            [(0.0, 0.0), (0.9, 0.0), (0.9, 0.3), (0.0, 0.5)][playout % 4];
        let mut engine = Hnefatafl::new(HnefataflRules::default());
        let mut slow = slow_twin(&engine);
        while !engine.status().is_over() {
            assert_same_moves(&engine, &slow);
            engine.legal_moves(&mut moves);
            let pick = |candidates: Vec<HnefataflMove>, rng: &mut norn::core::GameRng| {
                (!candidates.is_empty()).then(|| candidates[rng.random_range(0..candidates.len())])
            };
            let capturing: Vec<HnefataflMove> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let (soldiers, king) = engine.captures_of(m);
                    soldiers.any() || king
                })
                .collect();
            let king_moves: Vec<HnefataflMove> = moves
                .iter()
                .copied()
                .filter(|m| m.from == engine.king())
                .collect();
            let chosen = if rng.random_bool(capture_bias) {
                pick(capturing, &mut rng)
            } else if rng.random_bool(king_bias) {
                pick(king_moves, &mut rng)
            } else {
                None
            };
            let mv = chosen.unwrap_or_else(|| moves[rng.random_range(0..moves.len())]);
            play_both(&mut engine, &mut slow, mv);
        }
        *endings.entry(engine.ending().unwrap().name()).or_insert(0) += 1;
    }
    // Random play reaches these ends; the records test covers the rarer ones.
    for reason in ["escape", "king-captured", "ply-limit"] {
        assert!(endings.contains_key(reason), "no {reason} in {endings:?}");
    }
}

#[test]
fn game_records_agree_move_by_move_with_the_plain_implementation() {
    let rules = HnefataflRules {
        ply_limit: None,
        ..HnefataflRules::default()
    };
    let mut endings = std::collections::BTreeSet::new();
    for line in RECORDS.lines() {
        let record = GameRecord::parse_line(line).unwrap();
        let mut engine = Hnefatafl::new(rules);
        let mut slow = slow_twin(&engine);
        for text in &record.moves {
            if engine.status().is_over() {
                break;
            }
            assert_same_moves(&engine, &slow);
            let recorded: RecordedMove = text.parse().unwrap();
            let mv = HnefataflMove {
                from: recorded.from,
                to: recorded.to,
            };
            play_both(&mut engine, &mut slow, mv);
        }
        endings.extend(engine.ending().map(|reason| reason.name()));
    }
    for reason in [
        "escape",
        "exit-fort",
        "king-captured",
        "encirclement",
        "repetition",
        "no-moves",
    ] {
        assert!(endings.contains(reason), "no record ends by {reason}");
    }
}

#[test]
fn every_game_record_replays_with_legal_moves_and_exact_captures() {
    let summary = replay_records(RECORDS, HnefataflRules::default()).unwrap();
    assert_eq!(summary.games, 876);
    assert_eq!(summary.illegal_moves, 0);
    assert_eq!(summary.capture_mismatches, 0);
    // Recorded games go on after a third repetition, which Copenhagen rules
    // score as a loss for the defenders; every other early end is a bug.
    assert!(
        summary
            .ended_early_by_reason
            .keys()
            .all(|&reason| reason == "repetition")
    );

    let without_repetition = HnefataflRules {
        repetition_loses: false,
        ..HnefataflRules::default()
    };
    let summary = replay_records(RECORDS, without_repetition).unwrap();
    assert_eq!(summary.ended_early, 0);
    assert_eq!(summary.moves, 44_155);
}

#[test]
fn games_the_engine_finishes_have_the_recorded_winner() {
    let rules = HnefataflRules {
        repetition_loses: false,
        ..HnefataflRules::default()
    };
    let summary = replay_records(RECORDS, rules).unwrap();
    let mut finished = 0;
    for game in &summary.per_game {
        let winner = match game.final_status.as_str() {
            "escape" | "exit-fort" => "White",
            "king-captured" | "encirclement" => "Black",
            "no-moves" => continue, // either side can run out of moves
            _ => continue,
        };
        assert_eq!(game.recorded_result, winner, "game on line {}", game.line);
        finished += 1;
    }
    assert!(
        finished > 150,
        "only {finished} records end in a decided position"
    );
}

#[test]
fn a_record_with_an_illegal_move_is_reported_not_fatal() {
    let csv = "d1-d3 e5-e2 d3-d2 d6-d9,0,0,Ongoing\nd1-d7 e5-e2,0,0,Ongoing\n";
    let summary = replay_records(csv, HnefataflRules::default()).unwrap();
    assert_eq!(summary.illegal_moves, 1);
    let illegal = summary.per_game[1].illegal_move.as_ref().unwrap();
    assert_eq!(illegal.ply, 1);
    assert!(illegal.reason.contains("blocked"), "{}", illegal.reason);
    assert!(replay_records("d1-d3,zero,0,Ongoing", HnefataflRules::default()).is_err());
}

#[test]
fn status_reports_the_side_to_move_until_the_end() {
    let mut game = Hnefatafl::new(HnefataflRules::default());
    assert_eq!(game.status(), Status::ToMove(0));
    let mv = game.parse_move("d1-d3").unwrap();
    game.play(mv);
    assert_eq!(game.status(), Status::ToMove(1));
}

#[test]
fn every_record_agrees_with_the_engine_on_captures_and_results() {
    let rules = HnefataflRules {
        repetition_loses: false,
        ..HnefataflRules::default()
    };
    let summary = replay_records(RECORDS, rules).unwrap();
    assert_eq!(summary.result_mismatches, 0);
    assert_eq!(summary.capture_count_mismatches, 0);
    assert!(summary.all_agree());
    // The count columns are the captures the moves mark (`x` squares),
    // counted straight from the text: attackers make the odd plies.
    for game in &summary.per_game {
        let line = RECORDS.lines().nth(game.line - 1).unwrap();
        let moves = line.split(',').next().unwrap().split_whitespace();
        let mut marked = [0, 0];
        for (index, text) in moves.take_while(|&text| text != "timeout").enumerate() {
            marked[index % 2] += text.matches('x').count() as u32;
        }
        assert_eq!(game.recorded_captures, marked, "line {}", game.line);
    }
    let decided = summary
        .per_game
        .iter()
        .filter(|game| game.ended_early.is_none() && game.final_status != "ongoing")
        .count();
    assert!(
        decided > 150,
        "only {decided} records end in a decided position"
    );
}

#[test]
fn records_with_edited_counts_or_results_are_caught() {
    let capture = "d1-d3 e5-e2 f2-i2 d6-d9 a5-c5 e7-b7 a8-b8xb7";
    let honest = replay_records(&format!("{capture},1,0,Ongoing"), HnefataflRules::default());
    assert!(honest.unwrap().all_agree());
    let edited = replay_records(&format!("{capture},0,0,Ongoing"), HnefataflRules::default());
    let edited = edited.unwrap();
    assert_eq!(edited.capture_count_mismatches, 1);
    assert!(!edited.all_agree());
    let edited = capture.replace("xb7", "");
    let edited = replay_records(&format!("{edited},1,0,Ongoing"), HnefataflRules::default());
    assert!(!edited.unwrap().all_agree());

    // A game the defenders won by escaping, recorded as an attackers' win.
    let summary = replay_records(RECORDS, HnefataflRules::default()).unwrap();
    let escaped = summary
        .per_game
        .iter()
        .find(|game| game.final_status == "escape" && game.ended_early.is_none())
        .unwrap();
    let line = RECORDS.lines().nth(escaped.line - 1).unwrap();
    let forged = line.replace(",White", ",Black");
    let replay = replay_records(&forged, HnefataflRules::default()).unwrap();
    assert_eq!(replay.result_mismatches, 1);
    assert!(!replay.all_agree());
}
