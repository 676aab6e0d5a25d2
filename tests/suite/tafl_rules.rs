//! Hand-built positions of the tafl family, one or more for each rule of
//! the rules string, with the numbers counted by hand beside them.

use norn::core::{Game, MoveList, Notation};
use norn::games::tafl::{Piece, Side, Tafl, TaflRules, TaflSetup, parse_square};

/// Brandubh's rules string with `extra` keys before its start position
/// (its weak king unless `extra` gives the king's strength).
fn brandub_with(extra: &str) -> TaflRules {
    let strength = if extra.contains("ks:") { "" } else { "ks:w" };
    TaflRules::from_rules_string(&format!(
        "dim:7 surf:n {strength} cenh: cenhe: {extra} start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    ))
    .unwrap()
}

/// A position of `rules`: pieces by letter and squares, e.g.
/// `&[('t', "a5 b6"), ('K', "f1")]`, and the side to move.
fn position(rules: TaflRules, pieces: &[(char, &str)], to_move: Side) -> Tafl {
    let dim = rules.dim();
    let mut cells = vec![None; dim * dim];
    for &(letter, squares) in pieces {
        for name in squares.split_whitespace() {
            cells[parse_square(dim, name).unwrap()] = Some(Piece::from_letter(letter).unwrap());
        }
    }
    let setup = TaflSetup {
        dim,
        pieces: cells,
        to_move,
        berserk: None,
    };
    Tafl::from_setup(&setup, rules).unwrap()
}

/// Plays `from-to` and returns the move as written, with its captures.
fn play(game: &mut Tafl, text: &str) -> String {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|error| panic!("{error}"));
    let written = game.move_text(mv);
    game.try_play(mv).unwrap();
    written
}

/// The winner (`None` for a draw) and the reason, once the game is over.
fn ending(game: &Tafl) -> Option<(Option<Side>, &'static str)> {
    let outcome = game.status().outcome()?;
    Some((outcome.winner().map(Side::from_player), outcome.reason))
}

fn moves(game: &Tafl) -> usize {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves.len()
}

/// The destinations of the piece on `from`, by name.
fn destinations(game: &Tafl, from: &str) -> Vec<String> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let from = parse_square(game.dim(), from).unwrap();
    let mut names: Vec<String> = moves
        .iter()
        .filter(|mv| usize::from(mv.from) == from)
        .map(|mv| game.square_name(mv.to.into()))
        .collect();
    names.sort();
    names
}

#[test]
fn a_weak_king_is_captured_between_two_and_a_strong_one_is_not() {
    let pieces = [('t', "b5 d7"), ('K', "c5")];
    let mut weak = position(
        TaflRules::variant("brandub").unwrap(),
        &pieces,
        Side::Attackers,
    );
    play(&mut weak, "d7-d5");
    assert_eq!(
        ending(&weak),
        Some((Some(Side::Attackers), "king-captured"))
    );
    let mut strong = position(brandub_with("ks:s"), &pieces, Side::Attackers);
    play(&mut strong, "d7-d5");
    assert_eq!(ending(&strong), None);
}

#[test]
fn a_middleweight_king_is_captured_against_the_edge_by_three() {
    let pieces = [('t', "a3 a5 e4 g7"), ('T', "f2"), ('K', "a4")];
    let mut magpie = position(
        TaflRules::variant("magpie").unwrap(),
        &pieces,
        Side::Attackers,
    );
    // e4-b4 passes the empty centre, d4, which anyone may pass.
    play(&mut magpie, "e4-b4");
    assert_eq!(
        ending(&magpie),
        Some((Some(Side::Attackers), "king-captured"))
    );
    let mut strong = position(brandub_with("ks:s"), &pieces, Side::Attackers);
    play(&mut strong, "e4-b4");
    assert_eq!(ending(&strong), None);
    // Away from the edge three attackers are not enough.
    let mut middle = position(
        TaflRules::variant("magpie").unwrap(),
        &[('t', "b5 c6 d7"), ('K', "c5")],
        Side::Attackers,
    );
    play(&mut middle, "d7-d5");
    assert_eq!(ending(&middle), None);
}

#[test]
fn a_linnaean_capture_takes_a_defender_against_the_occupied_throne() {
    let pieces = [('t', "e6 f5 e4 c1 a9"), ('T', "d5"), ('K', "e5")];
    let mut tablut = position(
        TaflRules::variant("tablut").unwrap(),
        &pieces,
        Side::Attackers,
    );
    assert_eq!(play(&mut tablut, "c1-c5"), "c1-c5xd5");
    // Without `linc:y` the throne, hostile to no one in Tablut, saves it.
    let plain = TaflRules::from_rules_string(
        "dim:9 esc:e ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    )
    .unwrap();
    let mut without = position(plain, &pieces, Side::Attackers);
    assert_eq!(play(&mut without, "c1-c5"), "c1-c5");
    // With one of the three sides open the capture fails too.
    let mut open = position(
        TaflRules::variant("tablut").unwrap(),
        &[('t', "e6 f5 c1 a9"), ('T', "d5"), ('K', "e5")],
        Side::Attackers,
    );
    assert_eq!(play(&mut open, "c1-c5"), "c1-c5");
}

#[test]
fn an_attackers_fortress_is_left_but_not_entered_again() {
    let foteviken = TaflRules::variant("foteviken-tablut").unwrap();
    let game = position(
        foteviken,
        &[('t', "c4 a1"), ('T', "a3"), ('K', "e5")],
        Side::Attackers,
    );
    // c4: north c5..c9 (5), south c3..c1 (3), west b4 (a4 is the
    // fortress: no re-entry), east d4..h4 (5; i4 is fortress).
    let expected: Vec<String> = "b4 c1 c2 c3 c5 c6 c7 c8 c9 d4 e4 f4 g4 h4"
        .split(' ')
        .map(String::from)
        .collect();
    let mut sorted = expected.clone();
    sorted.sort();
    assert_eq!(destinations(&game, "c4"), sorted);
    // The same position where pieces may come back into fortresses.
    let open = TaflRules::from_rules_string(
        &TaflRules::variant("foteviken-tablut")
            .unwrap()
            .rules_string_text()
            .replace(" aforre:", ""),
    )
    .unwrap();
    let reentering = position(
        open,
        &[('t', "c4 a1"), ('T', "a3"), ('K', "e5")],
        Side::Attackers,
    );
    assert_eq!(destinations(&reentering, "c4").len(), expected.len() + 2);
    // A defender passes through the fortress (a4 a5 a6) but cannot stop in it.
    let defenders = position(
        foteviken,
        &[('t', "c4 a1"), ('T', "a3"), ('K', "e5")],
        Side::Defenders,
    );
    let mut up: Vec<String> = destinations(&defenders, "a3");
    up.retain(|name| name.starts_with('a'));
    assert_eq!(up, ["a2", "a7", "a8", "a9"]);
}

#[test]
fn sixteen_corner_squares_take_the_king_and_keep_out_the_rest() {
    let alea = TaflRules::variant("alea-evangelii").unwrap();
    let game = position(alea, &[('t', "s5 c3"), ('K', "b10")], Side::Defenders);
    // North b11..b19 (9, b18 b19 corners), south b9..b1 (9, b2 b1
    // corners), east c10..s10 without the centre j10 (16), west a10 (1).
    assert_eq!(destinations(&game, "b10").len(), 35);
    let mut escaped = game.clone();
    play(&mut escaped, "b10-b2");
    assert_eq!(ending(&escaped), Some((Some(Side::Defenders), "escape")));
    // An attacker on c2 neither stops on nor passes the corner squares
    // b2 and r2: c1 (1), d2..q2 (14), c3..c19 (17).
    let attackers = position(alea, &[('t', "c2 s5"), ('K', "j12")], Side::Attackers);
    let reach = destinations(&attackers, "c2");
    assert_eq!(reach.len(), 32);
    assert!(
        !reach
            .iter()
            .any(|name| ["a2", "b2", "r2", "s2"].contains(&name.as_str()))
    );
}

#[test]
fn a_speed_limit_holds_the_magpie_king_to_one_square() {
    let pieces = [('t', "a1 g7"), ('K', "d4")];
    let magpie = position(
        TaflRules::variant("magpie").unwrap(),
        &pieces,
        Side::Defenders,
    );
    assert_eq!(destinations(&magpie, "d4"), ["c4", "d3", "d5", "e4"]);
    let brandub = position(
        TaflRules::variant("brandub").unwrap(),
        &pieces,
        Side::Defenders,
    );
    assert_eq!(destinations(&brandub, "d4").len(), 12);
}

/// Two pieces shuffling back and forth: the start position comes back
/// after four plies and occurs for the third time after eight, made by
/// the side that moved second.
fn shuffle(rules: TaflRules, first: Side) -> Tafl {
    let mut game = position(rules, &[('t', "g2"), ('T', "b6"), ('K', "d4")], first);
    let (attackers, defenders) = (["g2-g3", "g3-g2"], ["b6-b5", "b5-b6"]);
    for round in 0..4 {
        let (one, two) = match first {
            Side::Attackers => (attackers[round % 2], defenders[round % 2]),
            Side::Defenders => (defenders[round % 2], attackers[round % 2]),
        };
        assert_eq!(ending(&game), None, "round {round}");
        play(&mut game, one);
        play(&mut game, two);
    }
    game
}

#[test]
fn each_repetition_rule_ends_the_third_occurrence_as_it_says() {
    let repetition = |key: &str, first: Side| ending(&shuffle(brandub_with(key), first));
    let repetition_draw = Some((None, "repetition"));
    assert_eq!(repetition("tfr:d", Side::Attackers), repetition_draw);
    assert_eq!(repetition("", Side::Attackers), repetition_draw);
    assert_eq!(repetition("tfr:i", Side::Attackers), None);
    // The defenders made the repeating move: they lose under `w`, win under `l`.
    assert_eq!(
        repetition("tfr:w", Side::Attackers),
        Some((Some(Side::Attackers), "repetition"))
    );
    assert_eq!(
        repetition("tfr:l", Side::Attackers),
        Some((Some(Side::Defenders), "repetition"))
    );
    // With the defenders first, the attackers make it.
    assert_eq!(
        repetition("atkf:n tfr:w", Side::Defenders),
        Some((Some(Side::Defenders), "repetition"))
    );
    // Copenhagen's reading: the defenders lose whoever repeats.
    let copenhagen_reading = |key: &str| -> TaflRules {
        format!(
            "repetition=defenders-lose,otn={}",
            brandub_with(key).rules_string_text()
        )
        .parse()
        .unwrap()
    };
    for key in ["tfr:d", "tfr:l", "tfr:i", "atkf:n tfr:w"] {
        let first = if key.contains("atkf:n") {
            Side::Defenders
        } else {
            Side::Attackers
        };
        assert_eq!(
            ending(&shuffle(copenhagen_reading(key), first)),
            Some((Some(Side::Attackers), "repetition")),
            "{key}"
        );
    }
    // Ignored repetitions go on past the third.
    let mut ignored = shuffle(brandub_with("tfr:i"), Side::Attackers);
    play(&mut ignored, "g2-g3");
    assert_eq!(ending(&ignored), None);
}

/// Three defenders on rank 1 with an attacker in front of each, the
/// attackers' bracket on b1.
const WALL: [(char, &str); 3] = [('t', "b1 c2 d2 e2 f5 k9"), ('T', "c1 d1 e1"), ('K', "h6")];

#[test]
fn a_shieldwall_falls_to_a_flanking_move() {
    let copenhagen = TaflRules::variant("copenhagen").unwrap();
    let mut game = position(copenhagen, &WALL, Side::Attackers);
    assert_eq!(play(&mut game, "f5-f1"), "f5-f1xc1xd1xe1");
    // A king in the row stays; the defenders beside him go.
    let mut with_king = position(
        copenhagen,
        &[('t', "b1 c2 d2 e2 f5 k9"), ('T', "c1 e1 h6"), ('K', "d1")],
        Side::Attackers,
    );
    assert_eq!(play(&mut with_king, "f5-f1"), "f5-f1xc1xe1");
    // Without shieldwalls only custodial captures happen: none here.
    let mut fetlar = position(
        TaflRules::variant("fetlar").unwrap(),
        &WALL,
        Side::Attackers,
    );
    assert_eq!(play(&mut fetlar, "f5-f1"), "f5-f1");
}

#[test]
fn a_corner_closes_a_strong_shieldwall_but_not_a_weak_one() {
    let pieces = [('t', "b2 c2 d5 k9"), ('T', "b1 c1"), ('K', "h6")];
    let mut strong = position(
        TaflRules::variant("copenhagen").unwrap(),
        &pieces,
        Side::Attackers,
    );
    assert_eq!(play(&mut strong, "d5-d1"), "d5-d1xb1xc1");
    let weak = TaflRules::from_rules_string(
        &TaflRules::variant("copenhagen")
            .unwrap()
            .rules_string_text()
            .replace("sw:s", "sw:w"),
    )
    .unwrap();
    let mut weak = position(weak, &pieces, Side::Attackers);
    assert_eq!(play(&mut weak, "d5-d1"), "d5-d1");
}

#[test]
fn only_a_relaxed_shieldwall_falls_to_the_last_piece_in_front() {
    let pieces = [('t', "b1 f1 c2 d2 e5 k9"), ('T', "c1 d1 e1"), ('K', "h6")];
    let mut flanking = position(
        TaflRules::variant("copenhagen").unwrap(),
        &pieces,
        Side::Attackers,
    );
    assert_eq!(play(&mut flanking, "e5-e2"), "e5-e2");
    let mut relaxed = position(
        TaflRules::variant("copenhagen-relaxed").unwrap(),
        &pieces,
        Side::Attackers,
    );
    assert_eq!(play(&mut relaxed, "e5-e2"), "e5-e2xc1xd1xe1");
}

/// A fort at the bottom edge around f1 and f2, completed by f5-f3.
const FORT: [(char, &str); 3] = [
    ('t', "a5 b6 k5 j6"),
    ('T', "e1 g1 e2 g2 e3 f5"),
    ('K', "f1"),
];

#[test]
fn an_edge_fort_wins_where_the_rules_have_them() {
    let mut copenhagen = position(
        TaflRules::variant("copenhagen").unwrap(),
        &FORT,
        Side::Defenders,
    );
    play(&mut copenhagen, "f5-f3");
    assert_eq!(
        ending(&copenhagen),
        Some((Some(Side::Defenders), "exit-fort"))
    );
    let mut fetlar = position(
        TaflRules::variant("fetlar").unwrap(),
        &FORT,
        Side::Defenders,
    );
    play(&mut fetlar, "f5-f3");
    assert_eq!(ending(&fetlar), None);
    // Without e3, f3 can be sandwiched from e3 and g3: no fort.
    let mut breakable = position(
        TaflRules::variant("copenhagen").unwrap(),
        &[('t', "a3 k3 b6 j6"), ('T', "e1 g1 e2 g2 f5"), ('K', "f1")],
        Side::Defenders,
    );
    play(&mut breakable, "f5-f3");
    assert_eq!(ending(&breakable), None);
    play(&mut breakable, "a3-e3");
    play(&mut breakable, "f3-f4");
    play(&mut breakable, "b6-b5");
    play(&mut breakable, "f4-f3");
    assert_eq!(play(&mut breakable, "k3-g3"), "k3-g3xf3");
}

#[test]
fn encirclement_wins_where_surrounding_is_fatal() {
    let pieces = [('t', "f7 e6 g6 e5 g5 f1"), ('T', "f5"), ('K', "f6")];
    let mut fetlar = position(
        TaflRules::variant("fetlar").unwrap(),
        &pieces,
        Side::Attackers,
    );
    play(&mut fetlar, "f1-f4");
    assert_eq!(
        ending(&fetlar),
        Some((Some(Side::Attackers), "encirclement"))
    );
    let not_fatal = TaflRules::from_rules_string(&format!(
        "surf:n {}",
        TaflRules::variant("fetlar").unwrap().rules_string_text()
    ))
    .unwrap();
    // Without it the ring only takes the defenders' last moves away.
    let mut open_ended = position(not_fatal, &pieces, Side::Attackers);
    play(&mut open_ended, "f1-f4");
    assert_eq!(
        ending(&open_ended),
        Some((Some(Side::Attackers), "no-moves"))
    );
    // A defender outside the ring keeps the defenders in the game.
    let mut outside = position(
        TaflRules::variant("fetlar").unwrap(),
        &[('t', "f7 e6 g6 e5 g5 f1"), ('T', "f5 c8"), ('K', "f6")],
        Side::Attackers,
    );
    play(&mut outside, "f1-f4");
    assert_eq!(ending(&outside), None);
}

#[test]
fn knights_commanders_and_the_king_jump_as_their_keys_say() {
    let berserk = TaflRules::variant("berserk").unwrap();
    // The knight (nj:c) jumps over an adjacent attacker and takes it.
    let mut knight = position(
        berserk,
        &[('t', "e5 a1"), ('N', "e4"), ('K', "j10")],
        Side::Defenders,
    );
    assert!(destinations(&knight, "e4").contains(&"e6".to_string()));
    assert_eq!(play(&mut knight, "e4-e6"), "e4-e6xe5");
    // The commander (cj:j) jumps without taking.
    let mut commander = position(
        berserk,
        &[('c', "c4"), ('T', "c5 a9"), ('K', "j10")],
        Side::Attackers,
    );
    assert_eq!(play(&mut commander, "c4-c6"), "c4-c6");
    assert!(
        commander
            .piece_at(parse_square(11, "c5").unwrap())
            .is_some()
    );
    // The king (kj:r) jumps only from or to the centre, a corner or a
    // fortress of his side.
    let throne = position(berserk, &[('t', "f7 a1"), ('K', "f6")], Side::Defenders);
    assert!(destinations(&throne, "f6").contains(&"f8".to_string()));
    let away = position(berserk, &[('t', "c4 a1"), ('K', "c3")], Side::Defenders);
    assert!(!destinations(&away, "c3").contains(&"c5".to_string()));
    // Nothing jumps over the king.
    let over_king = position(
        berserk,
        &[('c', "e3"), ('K', "e4"), ('T', "a9")],
        Side::Attackers,
    );
    assert!(!destinations(&over_king, "e3").contains(&"e5".to_string()));
}

#[test]
fn a_berserk_piece_goes_on_capturing_and_only_capturing() {
    let berserk = TaflRules::variant("berserk").unwrap();
    let mut game = position(
        berserk,
        &[('t', "e5 d7 a1"), ('T', "b5 f5 d8"), ('K', "j10")],
        Side::Defenders,
    );
    assert_eq!(play(&mut game, "b5-d5"), "b5-d5xe5");
    // The same piece moves again, and its only capturing move is d5-d6.
    assert_eq!(game.side_to_move(), Side::Defenders);
    assert!(game.position_text().ends_with(" defenders d5"));
    assert_eq!(moves(&game), 1);
    assert_eq!(play(&mut game, "d5-d6"), "d5-d6xd7");
    // Nothing more to capture: the attackers' turn.
    assert_eq!(game.side_to_move(), Side::Attackers);
    assert_eq!(game.berserk_square(), None);
    // Under `ber:m` any move of the piece follows a capture.
    let any_move =
        TaflRules::from_rules_string(&berserk.rules_string_text().replace("ber:c", "ber:m"))
            .unwrap();
    let mut free = position(
        any_move,
        &[('t', "e5 a1"), ('T', "b5 f5"), ('K', "j10")],
        Side::Defenders,
    );
    play(&mut free, "b5-d5");
    assert_eq!(free.side_to_move(), Side::Defenders);
    // d5: d6..d11 (6), d4..d1 (4), c5 b5 a5 (3), e5 (1).
    assert_eq!(moves(&free), 14);
}

#[test]
fn a_mercenary_changes_side_and_a_guard_neither_takes_nor_is_taken() {
    let rules = brandub_with("");
    let mut mercenary = position(
        rules,
        &[('t', "b3 d5 g7"), ('M', "c3"), ('K', "f6")],
        Side::Attackers,
    );
    // d5-d3 closes b3-c3-d3: the mercenary turns.
    assert_eq!(play(&mut mercenary, "d5-d3"), "d5-d3xc3");
    assert_eq!(
        mercenary.piece_at(parse_square(7, "c3").unwrap()),
        Piece::from_letter('m')
    );
    let mut guard = position(
        rules,
        &[('t', "b3 d5 g7"), ('G', "c3"), ('K', "f6")],
        Side::Attackers,
    );
    assert_eq!(play(&mut guard, "d5-d3"), "d5-d3");
    // A guard arriving on b3 would close b3-c3-d3 on a defender; a
    // taflman does, a guard never captures.
    let hammer = |letter: char| {
        let mut game = position(
            rules,
            &[(letter, "b5"), ('t', "d3 g7"), ('T', "c3"), ('K', "f6")],
            Side::Attackers,
        );
        play(&mut game, "b5-b3")
    };
    assert_eq!(hammer('t'), "b5-b3xc3");
    assert_eq!(hammer('g'), "b5-b3");
}

#[test]
fn the_king_s_arms_decide_whether_he_takes_part_in_captures() {
    // The king moves to d5 and closes d5-e5-f5 on an attacker.
    let pieces = [('t', "e5 a1"), ('T', "f5"), ('K', "d6")];
    let outcome = |key: &str| {
        let mut game = position(brandub_with(key), &pieces, Side::Defenders);
        play(&mut game, "d6-d5")
    };
    assert_eq!(outcome(""), "d6-d5xe5");
    assert_eq!(outcome("ka:h"), "d6-d5xe5");
    assert_eq!(outcome("ka:a"), "d6-d5");
    assert_eq!(outcome("ka:n"), "d6-d5");
    // As the far side: a defender closes f5-e5-d5 against the king on d5.
    let anvil = [('t', "e5 a1"), ('T', "f6"), ('K', "d5")];
    let closing = |key: &str| {
        let mut game = position(brandub_with(key), &anvil, Side::Defenders);
        play(&mut game, "f6-f5")
    };
    assert_eq!(closing(""), "f6-f5xe5");
    assert_eq!(closing("ka:a"), "f6-f5xe5");
    assert_eq!(closing("ka:h"), "f6-f5");
}

#[test]
fn a_centre_strong_king_is_strong_only_by_the_throne() {
    let tablut = TaflRules::variant("tablut").unwrap();
    let mut far = position(
        tablut,
        &[('t', "b3 d7"), ('T', "a9"), ('K', "c3")],
        Side::Attackers,
    );
    play(&mut far, "d7-d3");
    assert_eq!(ending(&far), Some((Some(Side::Attackers), "king-captured")));
    let mut near = position(
        tablut,
        &[('t', "d4 g9"), ('T', "a9"), ('K', "e4")],
        Side::Attackers,
    );
    play(&mut near, "g9-g4");
    play(&mut near, "a9-a8");
    play(&mut near, "g4-f4");
    assert_eq!(ending(&near), None);
}
