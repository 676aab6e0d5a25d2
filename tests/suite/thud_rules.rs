//! Hand-built positions, one or more for each rule of classic Thud.

use crate::common::moves::{self, play, refused};
use norn::bitboard::Bitboard256;
use norn::core::{Game, MoveList, Notation, Status};
use norn::games::thud::{Side, Thud, ThudMove, ThudMoveKind, ThudRules, ThudSetup, parse_square};
use norn::testing::{Budget, check_conformance};
use std::num::NonZeroU32;

fn squares(list: &str) -> Bitboard256 {
    list.split_whitespace()
        .map(|name| parse_square(name).unwrap())
        .collect()
}

fn position_with(rules: ThudRules, dwarfs: &str, trolls: &str, to_move: Side) -> Thud {
    let setup = ThudSetup {
        dwarfs: squares(dwarfs),
        trolls: squares(trolls),
        rock: Some(parse_square("H8").unwrap()),
        to_move,
        quiet_plies: 0,
        ply: 0,
    };
    Thud::from_setup(&setup, rules).unwrap()
}

fn position(dwarfs: &str, trolls: &str, to_move: Side) -> Thud {
    position_with(ThudRules::default(), dwarfs, trolls, to_move)
}

fn any_subset() -> ThudRules {
    "troll-captures=any-subset".parse().unwrap()
}

/// The texts of the legal moves starting on `from`, sorted.
fn moves_from(game: &Thud, from: &str) -> Vec<String> {
    let from = parse_square(from).unwrap();
    let mut out = moves::legal_texts(game, |mv| mv.from == from);
    out.sort();
    out
}

fn captures_from(game: &Thud, from: &str) -> Vec<String> {
    moves_from(game, from)
        .into_iter()
        .filter(|text| text.contains('x'))
        .collect()
}

#[test]
fn a_lone_dwarf_hurls_itself_onto_an_adjacent_troll_only() {
    let game = position("D5", "E5 D8", Side::Dwarfs);
    assert_eq!(captures_from(&game, "D5"), ["dD5-E5xE5"]);
    // A troll two squares away is out of reach of a line of one.
    let game = position("D5", "F5 D8", Side::Dwarfs);
    assert!(captures_from(&game, "D5").is_empty());
    assert!(refused(&game, "dD5-F5").contains("needs a line of at least 2 dwarfs"));
    // The hurl takes the troll and the dwarf takes its square.
    let mut game = position("D5", "E5 D8", Side::Dwarfs);
    play(&mut game, "dD5-E5");
    assert_eq!(game.trolls(), squares("D8"));
    assert_eq!(game.dwarfs(), squares("E5"));
    assert_eq!(game.quiet_plies(), 0);
}

#[test]
fn a_line_of_three_hurls_its_front_dwarf_up_to_three_squares() {
    let game = position("B5 C5 D5", "G5", Side::Dwarfs);
    assert_eq!(captures_from(&game, "D5"), ["dD5-G5xG5"]);
    // The dwarfs behind the front one cannot hurl through it.
    assert!(captures_from(&game, "C5").is_empty());
    assert!(captures_from(&game, "B5").is_empty());
    let far = position("B5 C5 D5", "H5", Side::Dwarfs);
    assert!(captures_from(&far, "D5").is_empty());
    assert!(refused(&far, "dD5-H5xH5").contains("the line ending on D5 has 3"));
}

#[test]
fn hurls_run_along_diagonals_too() {
    let game = position("B5 C6 D7", "F9", Side::Dwarfs);
    assert_eq!(captures_from(&game, "D7"), ["dD7-F9xF9"]);
}

#[test]
fn a_hurl_is_blocked_by_any_piece_and_by_the_thudstone() {
    let blocked = position("B5 C5 D5 F5", "G5", Side::Dwarfs);
    assert!(captures_from(&blocked, "D5").is_empty());
    assert!(refused(&blocked, "dD5-G5xG5").contains("blocked on F5"));
    let by_troll = position("B5 C5 D5", "F5 G5", Side::Dwarfs);
    // The nearer troll is the target; the one behind it is out of the line.
    assert_eq!(captures_from(&by_troll, "D5"), ["dD5-F5xF5"]);
    let by_stone = position("C8 D8 E8 F8", "J8", Side::Dwarfs);
    assert!(captures_from(&by_stone, "F8").is_empty());
    assert!(refused(&by_stone, "dF8-J8xJ8").contains("blocked on H8"));
}

#[test]
fn dwarfs_move_like_queens_and_never_capture_by_moving() {
    let game = position("H5", "A6", Side::Dwarfs);
    let down_the_file: Vec<String> = moves_from(&game, "H5")
        .into_iter()
        .filter(|text| text.starts_with("dH5-H"))
        .collect();
    // Up to H1 and down to the Thudstone, which stops the dwarf.
    assert_eq!(
        down_the_file,
        ["dH5-H1", "dH5-H2", "dH5-H3", "dH5-H4", "dH5-H6", "dH5-H7"]
    );
    assert!(refused(&game, "dH5-H9").contains("blocked on H8"));
    assert!(refused(&game, "dH5-H8").contains("H8 is occupied"));
    assert!(refused(&game, "dH5-H7xH6").contains("captures nothing"));
}

#[test]
fn a_troll_step_next_to_dwarfs_is_two_moves_under_all_or_none() {
    let game = position("H13 K13", "J11", Side::Trolls);
    let to_j12: Vec<String> = moves_from(&game, "J11")
        .into_iter()
        .filter(|text| text.starts_with("TJ11-J12"))
        .collect();
    assert_eq!(to_j12, ["TJ11-J12", "TJ11-J12xH13xK13"]);
    assert!(
        refused(&game, "TJ11-J12xH13").contains("all the dwarfs next to J12 (H13 K13) or none")
    );
    assert!(refused(&game, "TJ11-J12xA6").contains("A6 is not one"));
    let mut taking = game.clone();
    play(&mut taking, "TJ11-J12xH13xK13");
    assert!(taking.dwarfs().is_empty());
    // With no dwarf left the dwarfs cannot move: the battle is over.
    assert_eq!(taking.ending().unwrap().name(), "no-moves");
    assert_eq!(
        taking.status().outcome().unwrap().payoffs.as_slice(),
        &[-4.0, 4.0]
    );
    let mut sparing = game.clone();
    play(&mut sparing, "TJ11-J12");
    assert_eq!(sparing.dwarfs().count(), 2);
    assert_eq!(sparing.quiet_plies(), 1);
}

#[test]
fn any_subset_captures_offer_every_choice() {
    let game = position_with(any_subset(), "H13 K13", "J11", Side::Trolls);
    let to_j12: Vec<String> = moves_from(&game, "J11")
        .into_iter()
        .filter(|text| text.starts_with("TJ11-J12"))
        .collect();
    assert_eq!(
        to_j12,
        [
            "TJ11-J12",
            "TJ11-J12xH13",
            "TJ11-J12xH13xK13",
            "TJ11-J12xK13"
        ]
    );
    let mut game = game;
    play(&mut game, "TJ11-J12xK13");
    assert_eq!(game.dwarfs(), squares("H13"));
}

#[test]
fn trolls_step_one_square_and_never_onto_the_thudstone() {
    let game = position("A6", "G8", Side::Trolls);
    let steps = moves_from(&game, "G8");
    assert_eq!(steps.len(), 7, "{steps:?}");
    assert!(refused(&game, "TG8-H8").contains("H8 is occupied"));
    assert!(refused(&game, "TG8-E8").contains("line of at least 2 trolls"));
}

#[test]
fn a_line_of_trolls_shoves_its_front_troll_onto_a_capture() {
    let game = position("L10", "K5 K6 K7", Side::Trolls);
    assert_eq!(captures_from(&game, "K7"), ["TK7-K10xL10", "TK7-K9xL10"]);
    // Trolls behind the front one stay put; a shove past the line's length is illegal.
    assert!(refused(&game, "TK7-K11xL10").contains("the line ending on K7 has 3"));
    let mut shoved = game.clone();
    play(&mut shoved, "TK7-K10xL10");
    assert_eq!(shoved.trolls(), squares("K5 K6 K10"));
    assert!(shoved.dwarfs().is_empty());
}

#[test]
fn a_shove_that_would_not_capture_is_not_a_move() {
    let game = position("A6", "K5 K6 K7", Side::Trolls);
    assert!(captures_from(&game, "K7").is_empty());
    let shoves: Vec<String> = moves_from(&game, "K7")
        .into_iter()
        .filter(|text| text.starts_with("TK7-K9") || text.starts_with("TK7-K10"))
        .collect();
    assert!(shoves.is_empty(), "{shoves:?}");
    assert!(
        refused(&game, "TK7-K9").contains("a shove must capture, and no dwarf stands next to K9")
    );
    let with_victim = position("L10", "K5 K6 K7", Side::Trolls);
    assert!(refused(&with_victim, "TK7-K9").contains("write the dwarfs taken as xL10"));
}

#[test]
fn a_shove_is_blocked_by_pieces_in_its_way() {
    let game = position("L10 K9", "K5 K6 K7", Side::Trolls);
    assert!(
        captures_from(&game, "K7")
            .iter()
            .all(|text| !text.starts_with("TK7-K10"))
    );
    assert!(refused(&game, "TK7-K10xL10").contains("blocked on K9"));
}

#[test]
fn any_subset_shoves_must_still_take_someone() {
    let game = position_with(any_subset(), "J10 L10", "K5 K6 K7", Side::Trolls);
    let to_k9: Vec<String> = captures_from(&game, "K7")
        .into_iter()
        .filter(|text| text.starts_with("TK7-K9"))
        .collect();
    assert_eq!(to_k9, ["TK7-K9xJ10", "TK7-K9xJ10xL10", "TK7-K9xL10"]);
    assert!(refused(&game, "TK7-K9").contains("a shove must capture"));
}

#[test]
fn the_battle_ends_when_the_side_to_move_cannot_move() {
    let mut game = position("B5 C5 D5", "G5", Side::Dwarfs);
    play(&mut game, "dD5-G5xG5");
    assert_eq!(game.ending().unwrap().name(), "no-moves");
    let outcome = game.status().outcome().unwrap();
    assert_eq!(outcome.payoffs.as_slice(), &[3.0, -3.0]);
    assert_eq!(outcome.reason, "no-moves");
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(refused(&game, "dG5-G6").contains("the battle is over (no-moves)"));
    let mv = ThudMove {
        kind: ThudMoveKind::DwarfMove,
        from: parse_square("G5").unwrap(),
        to: parse_square("G6").unwrap(),
        captures: 0,
    };
    let error = game.clone().try_play(mv).unwrap_err().to_string();
    assert!(error.contains("the battle is over"), "{error}");
}

#[test]
fn a_dwarf_walled_in_by_its_own_side_cannot_move() {
    // F1's neighbours are G1, E2, F2 and G2; every dwarf of the block has an
    // empty neighbour except F1, so the dwarfs can still move.
    let game = position("F1 G1 E2 F2 G2", "H12", Side::Dwarfs);
    assert!(moves_from(&game, "F1").is_empty());
    assert!(!moves_from(&game, "G2").is_empty());
}

#[test]
fn the_no_capture_limit_and_the_ply_limit_end_the_battle() {
    let rules: ThudRules = "no-capture-limit=3".parse().unwrap();
    let mut game = position_with(rules, "A6 A10", "H12", Side::Dwarfs);
    for text in ["dA6-B6", "TH12-H11", "dB6-A6"] {
        assert!(game.ending().is_none());
        play(&mut game, text);
    }
    assert_eq!(game.ending().unwrap().name(), "no-capture-limit");
    assert_eq!(game.status().outcome().unwrap().payoffs.get(0), 2.0 - 4.0);

    // A capture resets the count.
    let mut game = position_with(rules, "D5 A10", "E5 H12", Side::Dwarfs);
    for text in ["dA10-B10", "TH12-H11", "dD5-E5", "TH11-H12", "dE5-E6"] {
        play(&mut game, text);
    }
    assert!(game.ending().is_none());
    assert_eq!(game.quiet_plies(), 2);

    let rules: ThudRules = "ply-limit=2,no-capture-limit=none".parse().unwrap();
    let mut game = position_with(rules, "A6", "H12", Side::Dwarfs);
    play(&mut game, "dA6-B6");
    play(&mut game, "TH12-H11");
    assert_eq!(game.ending().unwrap().name(), "ply-limit");
    assert_eq!(
        game.status().outcome().unwrap().payoffs.as_slice(),
        &[-3.0, 3.0]
    );
}

#[test]
fn counters_travel_in_the_position_text() {
    let rules = ThudRules::default();
    let game = Thud::from_position_text(
        "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd trolls 199 799",
        rules,
    )
    .unwrap();
    assert_eq!(game.status(), Status::ToMove(1));
    assert_eq!((game.quiet_plies(), game.ply()), (199, 799));
    let mut next = game.clone();
    play(&mut next, "TG7-F6");
    // Both limits are reached; the capture limit is reported first.
    assert_eq!(next.ending().unwrap().name(), "no-capture-limit");
    assert!(next.position_text().ends_with("dwarfs 200 800"));
}

#[test]
fn impossible_positions_are_rejected() {
    let rules = ThudRules::default();
    for (text, expected) in [
        (
            "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6RTT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd",
            "must stand on H8, not on G8",
        ),
        (
            "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6T1T6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd",
            "no rock",
        ),
        (
            "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/5TTRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd",
            "9 trolls",
        ),
        (
            "ddddd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd",
            "33 dwarfs",
        ),
        (
            "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd dwarfs 9 3",
            "9 plies since",
        ),
    ] {
        let error = Thud::from_position_text(text, rules)
            .unwrap_err()
            .to_string();
        assert!(error.contains(expected), "{text}: {error}");
    }
}

#[test]
fn rules_options_are_read_and_checked() {
    let rules: ThudRules = "troll-captures=any-subset, ply-limit=none, no-capture-limit=50"
        .parse()
        .unwrap();
    assert_eq!(rules.ply_limit, None);
    assert_eq!(rules.no_capture_limit, NonZeroU32::new(50));
    assert_eq!("".parse::<ThudRules>().unwrap(), ThudRules::default());
    for (text, expected) in [
        ("troll-captures=most", "all-or-none or any-subset"),
        ("ply-limit=-3", "not a valid value for `ply-limit`"),
        (
            "plies=3",
            "valid options: troll-captures, no-capture-limit, ply-limit",
        ),
    ] {
        let error = text.parse::<ThudRules>().unwrap_err().to_string();
        assert!(error.contains(expected), "{text}: {error}");
    }
}

#[test]
fn hand_built_positions_pass_the_generic_invariants() {
    for game in [
        position("B5 C5 D5 F5", "G5 K5 K6 K7", Side::Dwarfs),
        position_with(
            any_subset(),
            "J10 L10 H13 K13",
            "K5 K6 K7 J11",
            Side::Trolls,
        ),
    ] {
        check_conformance(
            &game,
            &Budget {
                playouts: 3,
                max_plies: 100,
                plies_per_state: usize::MAX,
                searched_positions: 0,
                seed: 1,
            },
        );
    }
}

#[test]
fn ply_counters_stop_at_their_largest_value_instead_of_wrapping() {
    let endless = ThudRules {
        ply_limit: None,
        ..ThudRules::default()
    };
    let start = Thud::new(endless).position_text();
    let counters = format!("{} 0 4294967295", start.rsplitn(3, ' ').nth(2).unwrap());
    let mut state = Thud::from_position_text(&counters, endless).unwrap();
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    state.play(moves[0]);
    assert_eq!(state.ply(), u32::MAX);
    assert!(state.position_text().ends_with(" 4294967295"));
}
