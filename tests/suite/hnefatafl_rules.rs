//! Hand-built positions, one or more for each rule of Copenhagen Hnefatafl.

use norn::bitboard::Bitboard128;
use norn::core::{Game, MoveList, Notation, Status};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules, HnefataflSetup, Side, parse_square};
use norn::testing::{Budget, check_conformance, check_move_texts_refused};

fn squares(list: &str) -> Bitboard128 {
    list.split_whitespace()
        .map(|name| parse_square(name).unwrap())
        .collect()
}

/// A position from lists of squares; `to_move` is `attackers` or `defenders`.
fn position_with(
    rules: HnefataflRules,
    attackers: &str,
    defenders: &str,
    king: &str,
    to_move: &str,
) -> Hnefatafl {
    let setup = HnefataflSetup {
        attackers: squares(attackers),
        defenders: squares(defenders),
        king: Some(parse_square(king).unwrap()),
        to_move: Side::parse(to_move).unwrap(),
    };
    Hnefatafl::from_setup(&setup, rules).unwrap()
}

fn position(attackers: &str, defenders: &str, king: &str, to_move: &str) -> Hnefatafl {
    position_with(
        HnefataflRules::default(),
        attackers,
        defenders,
        king,
        to_move,
    )
}

/// Plays a move given as `from-to` and returns it as written with its captures.
fn play(game: &mut Hnefatafl, text: &str) -> String {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|error| panic!("{error}"));
    let written = game.move_text(mv);
    game.try_play(mv).unwrap();
    written
}

/// The winner (`None` for a draw) and the reason, once the game is over.
fn ending(game: &Hnefatafl) -> Option<(Option<Side>, &'static str)> {
    let outcome = game.status().outcome()?;
    assert_eq!(
        game.ending().map(|reason| reason.name()),
        Some(outcome.reason)
    );
    Some((outcome.winner().map(Side::from_player), outcome.reason))
}

fn destinations(game: &Hnefatafl, from: &str) -> Vec<String> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let from = parse_square(from).unwrap();
    let mut out: Vec<String> = moves
        .iter()
        .filter(|m| m.from == from)
        .map(|m| norn::games::hnefatafl::square_name(m.to))
        .collect();
    out.sort();
    out
}

#[test]
fn a_soldier_is_captured_between_two_enemies() {
    let mut game = position("d4 f3", "e4", "h8", "attackers");
    assert_eq!(play(&mut game, "f3-f4"), "f3-f4xe4");
    assert!(!game.defenders().contains(parse_square("e4").unwrap()));
}

#[test]
fn moving_into_a_sandwich_is_safe() {
    let mut game = position("d4 f4", "e6", "h8", "defenders");
    assert_eq!(play(&mut game, "e6-e4"), "e6-e4");
    assert!(game.defenders().contains(parse_square("e4").unwrap()));
}

#[test]
fn corners_are_hostile_to_both_sides() {
    let mut game = position("c5", "b1", "h8", "attackers");
    assert_eq!(play(&mut game, "c5-c1"), "c5-c1xb1");
    let mut game = position("a2 j9", "c3", "h8", "defenders");
    assert_eq!(play(&mut game, "c3-a3"), "c3-a3xa2");
}

#[test]
fn the_empty_throne_is_hostile_to_both_sides() {
    let mut game = position("f7 b2", "c8", "h8", "defenders");
    assert_eq!(play(&mut game, "c8-f8"), "c8-f8xf7");
    let mut game = position("d2", "e6", "h8", "attackers");
    assert_eq!(play(&mut game, "d2-d6"), "d2-d6xe6");
}

#[test]
fn the_occupied_throne_is_hostile_to_attackers_only() {
    // The king on the throne is a defender, so it captures as an anvil...
    let mut game = position("f7 b2", "c8", "f6", "defenders");
    assert_eq!(play(&mut game, "c8-f8"), "c8-f8xf7");
    // ...but a defender beside the occupied throne cannot be captured against it.
    let mut game = position("d2 b9", "g6", "f6", "attackers");
    assert_eq!(play(&mut game, "b9-h9"), "b9-h9");
    assert_eq!(play(&mut game, "g6-g9"), "g6-g9");
    let mut game = position("d2 j6", "g6", "f6", "attackers");
    assert_eq!(play(&mut game, "j6-h6"), "j6-h6");
}

#[test]
fn the_king_is_armed() {
    let mut game = position("e4", "e3", "e8", "defenders");
    assert_eq!(play(&mut game, "e8-e5"), "e8-e5xe4");
    let mut game = position("e4", "c5", "e3", "defenders");
    assert_eq!(play(&mut game, "c5-e5"), "c5-e5xe4");
}

#[test]
fn the_edge_is_not_hostile() {
    let mut game = position("c5 h2", "a5", "h8", "attackers");
    assert_eq!(play(&mut game, "c5-b5"), "c5-b5");
    // Along the edge a sandwich still works.
    let mut game = position("a4 c6", "a5", "h8", "attackers");
    assert_eq!(play(&mut game, "c6-a6"), "c6-a6xa5");
}

#[test]
fn a_shieldwall_is_captured_by_the_flanking_move() {
    let mut game = position("d1 e2 f2 g5", "e1 f1", "h8", "attackers");
    assert_eq!(play(&mut game, "g5-g1"), "g5-g1xe1xf1");
    // And the same for the defenders capturing a row of attackers.
    let mut game = position("e1 f1 b9", "d1 e2 f2 g5", "h8", "defenders");
    assert_eq!(play(&mut game, "g5-g1"), "g5-g1xe1xf1");
}

#[test]
fn a_corner_brackets_a_shieldwall() {
    let mut game = position("b2 c2 d5", "b1 c1", "h8", "attackers");
    assert_eq!(play(&mut game, "d5-d1"), "d5-d1xb1xc1");
}

#[test]
fn the_king_in_a_shieldwall_survives_and_the_rest_is_captured() {
    let mut game = position("d1 e2 f2 g5", "e1", "f1", "attackers");
    assert_eq!(play(&mut game, "g5-g1"), "g5-g1xe1");
    assert_eq!(game.king(), parse_square("f1").unwrap());
    assert_eq!(game.status(), Status::ToMove(1));
}

#[test]
fn the_king_can_bracket_a_shieldwall() {
    let mut game = position("e1 f1 b9", "d1 e2 f2", "g5", "defenders");
    assert_eq!(play(&mut game, "g5-g1"), "g5-g1xe1xf1");
}

#[test]
fn a_shieldwall_needs_an_enemy_in_front_of_every_member() {
    let mut game = position("d1 e2 g5", "e1 f1", "h8", "attackers");
    assert_eq!(play(&mut game, "g5-g1"), "g5-g1");
}

#[test]
fn a_move_that_does_not_bracket_the_row_captures_no_shieldwall() {
    // The row is bracketed and faced once f2 arrives, but f2 is not a bracket.
    let mut game = position("d1 g1 e2 f5", "e1 f1", "h8", "attackers");
    assert_eq!(play(&mut game, "f5-f2"), "f5-f2");
    assert_eq!(game.defenders().count(), 2);
}

#[test]
fn the_king_is_captured_on_four_sides() {
    let mut game = position("c4 e4 d5 h3", "j9", "d4", "attackers");
    play(&mut game, "h3-d3");
    assert_eq!(
        ending(&game),
        Some((Some(Side::Attackers), "king-captured"))
    );
    assert!(game.status().is_over());
}

#[test]
fn the_king_on_the_throne_needs_four_attackers() {
    let mut game = position("e6 g6 f3 b9", "j9", "f6", "attackers");
    play(&mut game, "f3-f5");
    assert_eq!(ending(&game), None);
    let mut game = position("e6 g6 f7 f3", "j9", "f6", "attackers");
    play(&mut game, "f3-f5");
    assert_eq!(
        ending(&game),
        Some((Some(Side::Attackers), "king-captured"))
    );
}

#[test]
fn next_to_the_throne_three_attackers_suffice() {
    let mut game = position("e5 g5 f2", "j9", "f5", "attackers");
    play(&mut game, "f2-f4");
    assert_eq!(
        ending(&game),
        Some((Some(Side::Attackers), "king-captured"))
    );
}

#[test]
fn away_from_the_throne_three_attackers_do_not_capture() {
    let mut game = position("c4 e4 d1", "j9", "d4", "attackers");
    play(&mut game, "d1-d3");
    assert_eq!(ending(&game), None);
}

#[test]
fn the_king_on_the_edge_cannot_be_captured() {
    let mut game = position("a4 b5 c6", "h8", "a5", "attackers");
    play(&mut game, "c6-a6");
    assert_eq!(ending(&game), None);
}

#[test]
fn the_king_may_step_into_an_enclosure_and_is_captured_only_by_a_closing_move() {
    let mut game = position("e5 g5 f4 b9", "c9", "f6", "defenders");
    play(&mut game, "f6-f5");
    assert_eq!(ending(&game), None, "stepping in is safe");
    play(&mut game, "b9-b10");
    assert_eq!(
        ending(&game),
        None,
        "a move elsewhere does not close the trap"
    );
    play(&mut game, "c9-c8");
    play(&mut game, "g5-g4");
    play(&mut game, "c8-c9");
    play(&mut game, "g4-g5");
    assert_eq!(
        ending(&game),
        Some((Some(Side::Attackers), "king-captured"))
    );
}

#[test]
fn the_king_escapes_to_a_corner() {
    let mut game = position("h3", "j9", "c1", "defenders");
    play(&mut game, "c1-a1");
    assert_eq!(ending(&game), Some((Some(Side::Defenders), "escape")));
}

/// A fort at the bottom edge around f1 and f2, completed by `last_move`.
const FORT_DEFENDERS: &str = "e1 g1 e2 g2 e3 f5";

#[test]
fn an_unbreakable_exit_fort_wins_for_the_defenders() {
    let mut game = position("a5 b6 k5 j6", FORT_DEFENDERS, "f1", "defenders");
    play(&mut game, "f5-f3");
    assert_eq!(ending(&game), Some((Some(Side::Defenders), "exit-fort")));
}

#[test]
fn a_fort_the_attackers_could_break_is_not_declared() {
    // Without e3, f3 can be sandwiched from e3 and g3.
    let mut game = position("a3 k3 b6 j6", "e1 g1 e2 g2 f5", "f1", "defenders");
    play(&mut game, "f5-f3");
    assert_eq!(ending(&game), None);
    // And the attackers really can break it.
    play(&mut game, "a3-e3");
    play(&mut game, "f3-f4");
    play(&mut game, "b6-b5");
    play(&mut game, "f4-f3");
    assert_eq!(play(&mut game, "k3-g3"), "k3-g3xf3");
}

#[test]
fn a_fort_with_an_attacker_inside_is_not_a_fort() {
    let mut game = position("f2 a5 k5", "e1 g1 e2 g2 e3 f3 j9", "f1", "defenders");
    play(&mut game, "j9-j8");
    assert_eq!(ending(&game), None);
}

#[test]
fn a_fort_in_which_the_king_cannot_move_is_not_a_fort() {
    let mut game = position("a5 k5", "e1 g1 f2 e2 g2 j9", "f1", "defenders");
    play(&mut game, "j9-j8");
    assert_eq!(ending(&game), None);
}

#[test]
fn encirclement_wins_for_the_attackers() {
    let mut game = position("f7 e6 g6 e5 g5 f1", "f5", "f6", "attackers");
    play(&mut game, "f1-f4");
    assert_eq!(ending(&game), Some((Some(Side::Attackers), "encirclement")));
}

#[test]
fn a_defender_outside_the_ring_prevents_encirclement() {
    let mut game = position("f7 e6 g6 e5 g5 f1", "f5 c8", "f6", "attackers");
    play(&mut game, "f1-f4");
    assert_eq!(ending(&game), None);
}

#[test]
fn the_third_occurrence_of_a_position_loses_for_the_defenders() {
    let shuffle = ["h1-h2", "g5-h5", "h2-h1", "h5-g5"];
    let mut game = Hnefatafl::new(HnefataflRules::default());
    for text in shuffle.iter().chain(&shuffle) {
        assert_eq!(ending(&game), None);
        play(&mut game, text);
    }
    assert_eq!(ending(&game), Some((Some(Side::Attackers), "repetition")));
    assert_eq!(game.ply(), 8);

    let rules = HnefataflRules {
        repetition_loses: false,
        ..HnefataflRules::default()
    };
    let mut game = Hnefatafl::new(rules);
    for text in shuffle.iter().chain(&shuffle).chain(&shuffle) {
        play(&mut game, text);
    }
    assert_eq!(ending(&game), None, "the rule can be switched off");
}

#[test]
fn a_capture_makes_earlier_positions_unrepeatable() {
    // Shuffle twice, capture, then shuffle twice more: no third occurrence.
    let mut game = position("d4 f2 a9", "e4 c8", "h8", "attackers");
    for text in ["a9-a10", "c8-c9", "a10-a9", "c9-c8", "f2-f3"] {
        play(&mut game, text);
    }
    assert_eq!(play(&mut game, "c8-e8"), "c8-e8");
    assert_eq!(play(&mut game, "f3-f4"), "f3-f4xe4");
    for text in ["e8-c8", "a9-a10", "c8-c9", "a10-a9", "c9-c8"] {
        play(&mut game, text);
        assert_eq!(ending(&game), None);
    }
}

#[test]
fn a_side_without_moves_loses() {
    let mut game = position("a4 b5 c6", "", "a5", "attackers");
    play(&mut game, "c6-a6");
    assert_eq!(ending(&game), Some((Some(Side::Attackers), "no-moves")));
    // A position set up with the side to move stuck is over at once.
    let game = position("a4 a6 b5", "", "a5", "defenders");
    assert_eq!(ending(&game), Some((Some(Side::Attackers), "no-moves")));
}

#[test]
fn the_ply_limit_ends_the_game_drawn() {
    let rules: HnefataflRules = "ply-limit=3".parse().unwrap();
    let mut game = Hnefatafl::new(rules);
    for text in ["h1-h2", "g5-h5", "h2-h1"] {
        assert_eq!(ending(&game), None);
        play(&mut game, text);
    }
    assert_eq!(ending(&game), Some((None, "ply-limit")));
    match game.status() {
        Status::Over(outcome) => assert_eq!(outcome.payoffs.as_slice(), &[0.0, 0.0]),
        other => panic!("expected the end, got {other:?}"),
    }
}

#[test]
fn only_the_king_stops_on_the_throne_and_anyone_passes_the_empty_throne() {
    let game = position("b2", "f4", "h8", "defenders");
    let soldier = destinations(&game, "f4");
    assert!(
        soldier.contains(&"f7".to_string()),
        "passes the empty throne"
    );
    assert!(!soldier.contains(&"f6".to_string()), "cannot stop on it");
    let game = position("b2", "f4", "f8", "defenders");
    assert!(destinations(&game, "f8").contains(&"f6".to_string()));
    // Nobody passes the occupied throne.
    let game = position("f4 b2", "j9", "f6", "attackers");
    assert!(!destinations(&game, "f4").contains(&"f7".to_string()));
}

#[test]
fn only_the_king_stops_on_a_corner() {
    let game = position("b1 j9", "b3", "b2", "attackers");
    assert!(!destinations(&game, "b1").contains(&"a1".to_string()));
    let game = position("j9", "c8", "c1", "defenders");
    assert!(destinations(&game, "c1").contains(&"a1".to_string()));
}

#[test]
fn illegal_moves_are_explained() {
    let game = Hnefatafl::new(HnefataflRules::default());
    let cases = [
        ("c3-c4", "no piece"),
        ("f4-c4", "are to move"),
        ("d1-e2", "same rank or file"),
        ("f2-f5", "blocked"),
        ("a4-a1", "only the king"),
        ("f2-f2", "at least one square"),
        ("d1-d3xd4", "captures nothing"),
        ("d1", "from-to"),
        ("z1-a1", "file"),
    ];
    check_move_texts_refused(&game, &cases);
    let game = position("f4 j9", "b3", "h8", "attackers");
    let error = game.parse_move("f4-f6").unwrap_err().to_string();
    assert!(error.contains("only the king"), "{error}");
}

#[test]
fn the_generic_invariants_hold_over_random_playouts() {
    let start = Hnefatafl::new(HnefataflRules::default());
    check_conformance(
        &start,
        &Budget {
            playouts: 10,
            max_plies: 400,
            plies_per_state: usize::MAX,
            searched_positions: 0,
            seed: 1,
        },
    );
}
