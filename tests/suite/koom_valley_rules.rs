//! Hand-built positions, one or more for each rule of Koom Valley Thud.

use crate::common::moves::{self, play, refused};
use norn::bitboard::Bitboard256;
use norn::core::{Game, MoveList, Notation, Status};
use norn::games::thud::koom_valley::{EndReason, KoomValleyMoveKind};
use norn::games::thud::{KoomValley, KoomValleyRules, Side, ThudSetup, parse_square};
use norn::testing::{Budget, check_conformance};
use std::num::NonZeroU32;

fn squares(list: &str) -> Bitboard256 {
    list.split_whitespace()
        .map(|name| parse_square(name).unwrap())
        .collect()
}

fn position_with(
    rules: KoomValleyRules,
    dwarfs: &str,
    trolls: &str,
    rock: &str,
    to_move: Side,
) -> KoomValley {
    let setup = ThudSetup {
        dwarfs: squares(dwarfs),
        trolls: squares(trolls),
        rock: Some(parse_square(rock).unwrap()),
        to_move,
        quiet_plies: 0,
        ply: 0,
    };
    KoomValley::from_setup(&setup, rules).unwrap()
}

fn position(dwarfs: &str, trolls: &str, rock: &str, to_move: Side) -> KoomValley {
    position_with(KoomValleyRules::default(), dwarfs, trolls, rock, to_move)
}

/// The texts of the legal moves starting on `from`, sorted.
fn moves_from(game: &KoomValley, from: &str) -> Vec<String> {
    let from = parse_square(from).unwrap();
    let mut out = moves::legal_texts(game, |mv| mv.from == from);
    out.sort();
    out
}

fn tramples_from(game: &KoomValley, from: &str) -> Vec<String> {
    moves_from(game, from)
        .into_iter()
        .filter(|text| text.contains('x'))
        .collect()
}

/// The winner (`None` for a draw) and the reason, once the game is over.
fn ending(game: &KoomValley) -> Option<(Option<Side>, &'static str)> {
    let outcome = game.status().outcome()?;
    assert_eq!(
        game.ending().map(|reason| reason.name()),
        Some(outcome.reason)
    );
    Some((outcome.winner().map(Side::from_player), outcome.reason))
}

#[test]
fn trolls_move_one_to_three_squares_and_never_through_the_rock() {
    let game = position("A10", "D8 G8", "H8", Side::Trolls);
    // Three squares in five directions, two towards the cut corners (down
    // and up the left side) and two eastwards before the troll on G8.
    assert_eq!(moves_from(&game, "D8").len(), 3 * 5 + 2 + 2 + 2);
    assert!(moves_from(&game, "D8").contains(&"TD8-D11".to_string()));
    assert!(refused(&game, "TD8-D12").contains("one to 3 squares"));
    assert!(
        moves_from(&game, "G8")
            .iter()
            .all(|text| !text.contains("J8"))
    );
    assert!(refused(&game, "TG8-J8").contains("blocked on H8"));
    assert!(refused(&game, "TD8-F8xE8").contains("captures nothing"));
}

#[test]
fn dwarfs_move_like_queens_but_not_through_the_rock() {
    let game = position("H10", "A6", "H8", Side::Dwarfs);
    assert!(moves_from(&game, "H10").contains(&"dH10-H9".to_string()));
    assert!(refused(&game, "dH10-H7").contains("blocked on H8"));
}

#[test]
fn a_troll_tramples_a_dwarf_by_jumping_over_it() {
    let mut game = position("F5 A10", "E5", "H8", Side::Trolls);
    assert_eq!(tramples_from(&game, "E5"), ["TE5-G5xF5"]);
    play(&mut game, "TE5-G5");
    assert_eq!(game.dwarfs(), squares("A10"));
    assert_eq!(game.trolls(), squares("G5"));
    assert_eq!(game.quiet_plies(), 0);
}

#[test]
fn a_trample_may_turn_between_captures_and_stop_after_any_of_them() {
    let game = position("F5 G6 A10", "E5", "H8", Side::Trolls);
    assert_eq!(tramples_from(&game, "E5"), ["TE5-G5-G7xF5xG6", "TE5-G5xF5"]);
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let turning = moves
        .iter()
        .find(|mv| mv.kind == KoomValleyMoveKind::Trample && mv.jumps().count() == 2)
        .unwrap();
    let names: Vec<String> = turning
        .trampled()
        .into_iter()
        .map(norn::games::thud::square_name)
        .collect();
    assert_eq!(names, ["F5", "G6"]);
    let mut game = game;
    play(&mut game, "TE5-G5-G7xF5xG6");
    assert_eq!(game.dwarfs(), squares("A10"));
    assert_eq!(game.trolls(), squares("G7"));
}

#[test]
fn a_trample_needs_a_dwarf_to_cross_and_an_empty_square_beyond() {
    let landing_taken = position("F5 A10", "E5 G5", "H8", Side::Trolls);
    assert!(tramples_from(&landing_taken, "E5").is_empty());
    assert!(refused(&landing_taken, "TE5-G5xF5").contains("cannot land on G5"));
    let beside_rock = position("A10", "G8", "H8", Side::Trolls);
    assert!(refused(&beside_rock, "TG8-J8").contains("blocked on H8"));
    let beside_troll = position("A10", "E5 F5", "H8", Side::Trolls);
    assert!(tramples_from(&beside_troll, "E5").is_empty());
    let second_jump = position("F5 A10", "E5", "H8", Side::Trolls);
    assert!(refused(&second_jump, "TE5-G5-G7").contains("no dwarf on G6"));
    assert!(refused(&second_jump, "TE5-G5-G8").contains("not such a jump"));
}

#[test]
fn a_trample_that_circles_back_is_listed_once_whatever_its_path() {
    // Over D6, E7 and E6 and back to D5, clockwise or anticlockwise.
    let game = position("D6 E6 E7", "D5", "H8", Side::Trolls);
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let home = parse_square("D5").unwrap();
    let round_trips: Vec<String> = moves
        .iter()
        .filter(|mv| mv.kind == KoomValleyMoveKind::Trample && mv.to == home)
        .map(|&mv| game.move_text(mv))
        .collect();
    assert_eq!(round_trips, ["TD5-D7-F7-D5xD6xE7xE6"]);
    let other_way = game.parse_move("TD5-F7-D7-D5xE6xE7xD6").unwrap();
    assert_eq!(other_way, game.parse_move(&round_trips[0]).unwrap());
    let mut after = game.clone();
    after.play(other_way);
    assert!(after.dwarfs().is_empty());
    // No dwarf left: the dwarfs cannot move and lose.
    assert_eq!(ending(&after), Some((Some(Side::Trolls), "no-moves")));
}

#[test]
fn one_dwarf_move_can_trap_two_trolls() {
    let mut game = position("B8 E6 G8", "E7 F8 K3", "H10", Side::Dwarfs);
    let texts = moves_from(&game, "B8");
    assert!(texts.contains(&"dB8-E8xE7xF8".to_string()), "{texts:?}");
    play(&mut game, "dB8-E8");
    assert_eq!(game.trolls(), squares("K3"));
    assert_eq!(game.quiet_plies(), 0);
    assert!(
        refused(
            &position("B8 E6 G8", "E7 F8 K3", "H10", Side::Dwarfs),
            "dB8-E8xE7"
        )
        .contains("captures E7 F8")
    );
}

#[test]
fn trolls_may_rest_between_dwarfs_and_the_rock_never_traps() {
    // A troll walks between two dwarfs: nothing happens.
    let mut game = position("E6 E8 A10", "C7 K3", "H12", Side::Trolls);
    play(&mut game, "TC7-E7");
    assert_eq!(game.trolls(), squares("E7 K3"));
    // A dwarf moving elsewhere does not capture it either.
    play(&mut game, "dA10-A9");
    assert_eq!(game.trolls(), squares("E7 K3"));
    // The Rock pushed to the end of a line troll-dwarf captures nothing.
    let mut game = position("H9 J6", "J7 K3", "H8", Side::Dwarfs);
    play(&mut game, "RH8-J8");
    assert_eq!(game.trolls(), squares("J7 K3"));
}

#[test]
fn the_rock_needs_a_dwarf_next_to_it_before_and_after_its_move() {
    let game = position("H9", "A6", "H8", Side::Dwarfs);
    assert_eq!(
        moves_from(&game, "H8"),
        ["RH8-G8", "RH8-G9", "RH8-J8", "RH8-J9"]
    );
    assert!(
        refused(&game, "RH8-H7").contains("must end next to a dwarf, and none stands next to H7")
    );
    assert!(refused(&game, "RH8-H6").contains("moves one square"));
    assert!(refused(&game, "RG7-G6").contains("the Rock stands on H8"));
    let alone = position("H10", "A6", "H8", Side::Dwarfs);
    assert!(moves_from(&alone, "H8").is_empty());
    assert!(refused(&alone, "RH8-H9").contains("only be moved while a dwarf stands next to it"));
}

#[test]
fn a_rock_moved_next_to_three_trolls_is_taken_only_after_a_troll_move() {
    let game = position("H6 G5", "G3 H3 J3 D10", "H5", Side::Dwarfs);
    let mut pushed = game.clone();
    play(&mut pushed, "RH5-H4");
    assert_eq!(pushed.trolls_around_rock().count(), 3);
    assert_eq!(ending(&pushed), None);
    assert_eq!(pushed.status(), Status::ToMove(1));
    // Any troll move now wins, even one far away...
    let mut far = pushed.clone();
    play(&mut far, "TD10-D11");
    assert_eq!(ending(&far), Some((Some(Side::Trolls), "rock-surrounded")));
    assert_eq!(
        far.status().outcome().unwrap().payoffs.as_slice(),
        &[-1.0, 1.0]
    );
    // ...unless it breaks the ring.
    let mut away = pushed.clone();
    play(&mut away, "TG3-F3");
    assert_eq!(ending(&away), None);
}

#[test]
fn a_troll_move_that_brings_the_third_troll_wins() {
    let mut game = position("H9", "G7 H7 L7", "H8", Side::Trolls);
    play(&mut game, "TL7-J7");
    assert_eq!(ending(&game), Some((Some(Side::Trolls), "rock-surrounded")));
}

#[test]
fn the_dwarfs_win_when_the_rock_reaches_a_goal_square() {
    let mut game = position("G2", "A6", "H2", Side::Dwarfs);
    assert!(moves_from(&game, "H2").contains(&"RH2-G1".to_string()));
    play(&mut game, "RH2-H1");
    assert_eq!(ending(&game), Some((Some(Side::Dwarfs), "rock-home")));
    assert_eq!(
        game.status().outcome().unwrap().payoffs.as_slice(),
        &[1.0, -1.0]
    );
}

#[test]
fn a_side_without_a_legal_move_loses() {
    // The last troll is trapped: the trolls cannot move and lose.
    let mut game = position("A6 E8", "E7", "H12", Side::Dwarfs);
    play(&mut game, "dA6-E6");
    assert_eq!(game.trolls(), Bitboard256::EMPTY);
    assert_eq!(ending(&game), Some((Some(Side::Dwarfs), "no-moves")));
    // A troll boxed in by dwarfs it cannot jump: every square beyond is taken.
    let boxed = position("G1 E2 F2 G2 H1 D3 F3 H3", "F1", "H12", Side::Trolls);
    assert_eq!(ending(&boxed), Some((Some(Side::Dwarfs), "no-moves")));
    let mut moves = MoveList::new();
    boxed.legal_moves(&mut moves);
    assert!(moves.is_empty());
    // Free one landing square and the troll can trample again.
    let open = position("G1 E2 F2 G2 D3 F3 H3", "F1", "H12", Side::Trolls);
    assert_eq!(ending(&open), None);
    assert_eq!(tramples_from(&open, "F1"), ["TF1-H1xG1"]);
}

#[test]
fn the_draw_limits_count_plies_without_a_capture_or_rock_move() {
    let rules: KoomValleyRules = "no-capture-limit=4".parse().unwrap();
    let mut game = position_with(rules, "H9 A10", "K3", "H8", Side::Dwarfs);
    for text in [
        "dA10-A9", "TK3-K4", "RH8-G8", "TK4-K3", "dA9-A10", "TK3-K4", "dA10-A9",
    ] {
        assert_eq!(ending(&game), None, "before {text}");
        play(&mut game, text);
    }
    assert_eq!(game.quiet_plies(), 4);
    assert_eq!(ending(&game), Some((None, "no-capture-limit")));
    assert_eq!(
        game.status().outcome().unwrap().payoffs.as_slice(),
        &[0.0, 0.0]
    );

    let rules: KoomValleyRules = "ply-limit=2,no-capture-limit=none".parse().unwrap();
    let mut game = position_with(rules, "H9 A10", "K3", "H8", Side::Dwarfs);
    play(&mut game, "dA10-A9");
    play(&mut game, "TK3-K4");
    assert_eq!(game.ending(), Some(EndReason::PlyLimit));
}

#[test]
fn impossible_positions_and_bad_rules_are_rejected() {
    let rules = KoomValleyRules::default();
    for (text, expected) in [
        (
            "5/1T1T1T1/1TT1T1TT1/11/13/15/15/7R7/7d7/d13d/d11d/d9d/d7d/d5d/ddddd dwarfs 0 0",
            "",
        ),
        (
            "5/1T1T1T1/1TT1T1TT1/11/13/15/15/15/7d7/d13d/d11d/d9d/d7d/d5d/ddddd",
            "no rock",
        ),
        (
            "5/1T1T1T1/1TT1T1TT1/11/13/15/15/7R7/6dd7/d13d/d11d/d9d/d7d/d5d/ddddd",
            "17 dwarfs",
        ),
        (
            "5/1T1T1T1/1TT1T1TT1/11/13/15/15/7R7/7d7/d13d/d11d/d9d/d7d/d5d/ddddd elves",
            "not a side",
        ),
    ] {
        match KoomValley::from_position_text(text, rules) {
            Ok(_) => assert!(expected.is_empty(), "{text} should be rejected"),
            Err(error) => assert!(
                !expected.is_empty() && error.to_string().contains(expected),
                "{text}: {error}"
            ),
        }
    }
    let parsed: KoomValleyRules = "ply-limit=none,no-capture-limit=10".parse().unwrap();
    assert_eq!(
        (parsed.ply_limit, parsed.no_capture_limit),
        (None, NonZeroU32::new(10))
    );
    for (text, expected) in [
        (
            "troll-captures=any-subset",
            "valid options: no-capture-limit, ply-limit",
        ),
        ("ply-limit=lots", "not a valid value"),
    ] {
        let error = text.parse::<KoomValleyRules>().unwrap_err().to_string();
        assert!(error.contains(expected), "{text}: {error}");
    }
}

#[test]
fn hand_built_positions_pass_the_generic_invariants() {
    for game in [
        position("D6 E6 E7 F5 G6 A10", "D5 E5 K3", "H8", Side::Trolls),
        position("B8 E6 G8 H9 C7", "E7 F8 K3 G3 H3", "H5", Side::Dwarfs),
    ] {
        check_conformance(
            &game,
            &Budget {
                playouts: 4,
                max_plies: 120,
                plies_per_state: usize::MAX,
                searched_positions: 0,
                seed: 1,
            },
        );
    }
}

#[test]
fn ply_counters_stop_at_their_largest_value_instead_of_wrapping() {
    let endless = KoomValleyRules {
        ply_limit: None,
        ..KoomValleyRules::default()
    };
    let start = KoomValley::new(endless).position_text();
    let counters = format!("{} 0 4294967295", start.rsplitn(3, ' ').nth(2).unwrap());
    let mut state = KoomValley::from_position_text(&counters, endless).unwrap();
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    state.play(moves[0]);
    assert_eq!(state.ply(), u32::MAX);
    assert!(state.position_text().ends_with(" 4294967295"));
}
