//! Hand-built positions, one or more for each rule of Stealth Chess that
//! chess does not have: the Assassin's steps and leaps, its Slurk moves,
//! count and emergence, stealth check in every legality test, the draw
//! rules, and the 10-file FEN.

use norn::core::{Game, MoveList, Notation, Status};
use norn::games::stealth_chess::{START_POSITION, Side, StealthChess, StealthChessRules};
use norn::testing::{check_move_texts_refused, check_position_texts};

fn position(text: &str) -> StealthChess {
    StealthChess::from_position_text(text, StealthChessRules::default())
        .unwrap_or_else(|error| panic!("{error}"))
}

/// The legal moves as sorted texts.
fn moves(state: &StealthChess) -> Vec<String> {
    let mut list = MoveList::new();
    state.legal_moves(&mut list);
    let mut texts: Vec<String> = list.iter().map(|&mv| state.move_text(mv)).collect();
    texts.sort();
    texts
}

/// The legal moves starting on `square`.
fn moves_from(state: &StealthChess, square: &str) -> Vec<String> {
    moves(state)
        .into_iter()
        .filter(|mv| mv.starts_with(square))
        .collect()
}

fn play(state: &mut StealthChess, text: &str) {
    let mv = state
        .parse_move(text)
        .unwrap_or_else(|error| panic!("{error}"));
    state.try_play(mv).unwrap();
}

/// The reason the game ended, if it has.
fn ending(state: &StealthChess) -> Option<&'static str> {
    state.status().outcome().map(|outcome| outcome.reason)
}

#[test]
fn the_start_has_the_chess_moves_and_a_slurk_move_of_each_assassin_at_home() {
    let start = StealthChess::start(StealthChessRules::default());
    assert_eq!(start.position_text(), START_POSITION);
    let list = moves(&start);
    assert_eq!(list.len(), 22);
    assert!(list.contains(&"a1a2".to_string()) && list.contains(&"j1j2".to_string()));
    // Count 0: no emergence yet; a rook never enters a Slurk.
    assert!(!list.iter().any(|mv| mv.starts_with("b1")));
}

#[test]
fn an_assassin_steps_onto_empty_squares_and_into_its_slurk_only_from_the_next_file() {
    let mut state = position("5k4/10/10/10/1A8/10/10/5K4 w - - 0 1 -");
    assert_eq!(
        moves_from(&state, "b4"),
        [
            "b4a3", "b4a4", "b4a5", "b4b3", "b4b5", "b4c3", "b4c4", "b4c5"
        ]
    );
    play(&mut state, "b4a4");
    assert!(
        state.position_text().ends_with(" a4:a4:0"),
        "{}",
        state.position_text()
    );
    play(&mut state, "f8e8");
    // In the Slurk: up or down only; with count 0 it cannot emerge.
    assert_eq!(moves_from(&state, "a4"), ["a4a3", "a4a5"]);
}

#[test]
fn the_leap_captures_either_sides_pieces_but_never_a_king_or_an_assassin() {
    let mut state = position("5k4/10/6p3/10/2K1A1a3/10/4N5/10 w - - 7 30 -");
    assert_eq!(
        moves_from(&state, "e4"),
        [
            "e4d3", "e4d4", "e4d5", "e4e2", "e4e3", "e4e5", "e4f3", "e4f4", "e4f5", "e4g6"
        ]
    );
    // Its own knight: a capture like any other, which resets the clock.
    play(&mut state, "e4e2");
    assert_eq!(
        state.position_text(),
        "5k4/10/6p3/10/2K3a3/10/4A5/10 b - - 0 30 -"
    );
}

#[test]
fn slurk_moves_count_and_emergences_reach_the_manhattan_distance_through_pieces() {
    let state = position("5k4/10/10/10/10/A9/10/5K4 w - - 0 1 a3:a1:4");
    let emergences: Vec<String> = moves_from(&state, "a3")
        .into_iter()
        .filter(|mv| !mv.starts_with("a3a"))
        .collect();
    assert_eq!(
        emergences,
        [
            "a3b1", "a3b2", "a3b3", "a3b4", "a3c1", "a3c2", "a3c3", "a3d1", "a3d2", "a3e1"
        ]
    );
    assert!(moves(&state).contains(&"a3a2".to_string()));
    // The Slurk runs under the board: a wall of pawns does not stop it.
    let far = position("5k4/10/10/10/10/1PPPPPPPP1/A9/5K4 w - - 0 1 a2:a1:5");
    assert!(moves(&far).contains(&"a2b5".to_string()));
    assert!(moves(&far).contains(&"a2c4".to_string()));
    let short = position("5k4/10/10/10/10/1PPPPPPPP1/A9/5K4 w - - 0 1 a2:a1:3");
    assert!(!moves(&short).contains(&"a2b5".to_string()));
    assert!(moves(&short).contains(&"a2c2".to_string()));
}

#[test]
fn an_emergence_may_capture_next_to_where_it_lands_but_never_a_king() {
    let mut state = position("5k4/10/10/A9/3p6/10/2N7/4K5 w - - 3 20 a5:a3:4");
    let list = moves(&state);
    assert!(list.contains(&"a5d3xd4".to_string()));
    // Its own knight may be taken; its own king may not.
    assert!(list.contains(&"a5b3xc2".to_string()));
    assert!(!list.iter().any(|mv| mv.ends_with("xe1")));
    play(&mut state, "a5d3xd4");
    assert_eq!(
        state.position_text(),
        "5k4/10/10/10/3A6/10/2N7/4K5 b - - 0 20 -"
    );
}

#[test]
fn the_slurk_count_is_cleared_on_emergence() {
    let mut state = position("5k4/10/10/10/10/10/A9/5K4 w - - 0 1 a2:a1:1");
    play(&mut state, "a2b1");
    play(&mut state, "f8e8");
    play(&mut state, "b1a1");
    assert!(
        state.position_text().ends_with(" a1:a1:0"),
        "{}",
        state.position_text()
    );
    play(&mut state, "e8f8");
    assert_eq!(moves_from(&state, "a1"), ["a1a2"]);
}

#[test]
fn a_pawn_never_promotes_to_an_assassin() {
    let state = position("8k1/4P5/10/10/10/10/10/5K4 w - - 0 1 -");
    assert_eq!(
        moves_from(&state, "e7"),
        ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]
    );
    let error = state.parse_move("e7e8a").unwrap_err().to_string();
    assert!(error.contains("promotion"), "{error}");
    let error = state.parse_move("e7e8").unwrap_err().to_string();
    assert!(error.contains("names its promotion"), "{error}");
}

#[test]
fn a_king_may_not_step_next_to_a_square_an_assassin_could_emerge_on() {
    let state = position("5k4/10/10/10/10/6K3/10/a9 w - - 0 1 a1:a1:4");
    assert!(!state.in_check());
    let king = moves_from(&state, "g3");
    // f2 touches e1, four squares from the Assassin's entry point.
    assert!(!king.contains(&"g3f2".to_string()));
    assert_eq!(king.len(), 7, "{king:?}");
}

#[test]
fn the_king_may_not_step_where_an_assassin_leaps() {
    let state = position("5k4/10/10/3a6/10/10/3K6/10 w - - 0 1 -");
    assert!(!state.in_stealth_check());
    let king = moves_from(&state, "d2");
    assert!(!king.contains(&"d2d3".to_string()));
    assert!(king.contains(&"d2c3".to_string()) && king.contains(&"d2e3".to_string()));
    assert_eq!(king.len(), 7);
}

#[test]
fn a_stealth_check_is_answered_by_covering_the_exposed_square() {
    let state = position("6k3/4R5/10/10/10/10/5K4/a9 w - - 0 1 a1:a1:4");
    assert!(state.in_check() && state.in_stealth_check());
    let rook = moves_from(&state, "e7");
    assert_eq!(rook, ["e7e1"]);
}

#[test]
fn a_piece_covering_a_square_next_to_its_king_cannot_move() {
    let state = position("6k3/4R5/10/10/10/10/5K4/a3B5 w - - 0 1 a1:a1:4");
    assert!(!state.in_check());
    assert!(moves_from(&state, "e1").is_empty());
    assert!(moves_from(&state, "e7").len() > 10);
}

#[test]
fn a_pin_ends_at_the_pinning_piece_even_for_a_leap_over_it() {
    // The Assassin on c2 could leap over the bishop to take the queen, but
    // the bishop would then see the king.
    let state = position("5k4/10/10/10/4q5/3b6/2A7/1K8 w - - 0 1 -");
    assert!(moves_from(&state, "c2").is_empty());
}

#[test]
fn castling_is_refused_through_a_square_an_assassin_leaps_to() {
    let blocked = position("6k3/10/10/10/10/6a3/10/5K2R1 w K - 0 1 -");
    assert!(!blocked.in_check());
    assert!(!moves(&blocked).contains(&"f1h1".to_string()));
    let free = position("6k3/10/10/10/10/1a8/10/5K2R1 w K - 0 1 -");
    assert!(moves(&free).contains(&"f1h1".to_string()));
}

#[test]
fn castling_is_refused_onto_a_square_next_to_an_emergence() {
    // The king would land on d1, beside c1, which the Assassin reaches.
    let blocked = position("6k3/10/10/10/10/10/10/aR3K4 w Q - 0 1 a1:a1:2");
    assert!(!blocked.in_check());
    assert!(!moves(&blocked).contains(&"f1d1".to_string()));
    let free = position("6k3/10/10/10/10/10/10/aR3K4 w Q - 0 1 a1:a1:0");
    assert!(moves(&free).contains(&"f1d1".to_string()));
    let mut castled = free;
    play(&mut castled, "f1d1");
    assert_eq!(
        castled.position_text(),
        "6k3/10/10/10/10/10/10/a2KR5 b - - 1 1 a1:a1:0"
    );
}

#[test]
fn a_mate_by_stealth_check_ends_the_game() {
    // Black's king on i8 touches h8 and i7, both two from the entry point
    // j8: it cannot cover both, and every step stays beside one of them.
    let mated = position("8kA/10/10/10/10/10/10/5K4 b - - 0 1 j8:j8:2");
    assert_eq!(ending(&mated), Some("checkmate"));
    assert!(mated.in_stealth_check());
    assert_eq!(
        mated.status().outcome().unwrap().winner(),
        Some(Side::White.player())
    );
    let stalemate = position("8k1/10/7Q2/10/10/10/10/5K4 b - - 0 1 -");
    assert_eq!(ending(&stalemate), Some("stalemate"));
}

#[test]
fn repetition_counts_the_slurk_state() {
    let shuffle = ["h1g3", "h8g6", "g3h1", "g6h8"];
    let mut knights = StealthChess::start(StealthChessRules::default());
    for round in 0..2 {
        for (ply, text) in shuffle.iter().enumerate() {
            assert_eq!(ending(&knights), None, "round {round} ply {ply}");
            play(&mut knights, text);
        }
    }
    assert_eq!(ending(&knights), Some("repetition"));
    // The Assassins' walks bring the board back but not the counts.
    let walk = ["a1a2", "a8a7", "a2a1", "a7a8"];
    let mut assassins = StealthChess::start(StealthChessRules::default());
    for _ in 0..3 {
        for text in walk {
            play(&mut assassins, text);
        }
    }
    assert_eq!(ending(&assassins), None);
    let no_repetition: StealthChessRules = "repetition=off".parse().unwrap();
    let mut off = StealthChess::new(no_repetition);
    for _ in 0..2 {
        for text in shuffle {
            play(&mut off, text);
        }
    }
    assert_eq!(ending(&off), None);
}

#[test]
fn slurk_moves_and_quiet_emergences_do_not_reset_the_fifty_move_count() {
    let mut slurk_move = position("5k4/10/10/10/10/10/A9/5K4 w - - 99 80 a2:a1:1");
    play(&mut slurk_move, "a2a3");
    assert_eq!(ending(&slurk_move), Some("fifty-moves"));
    let mut emergence = position("5k4/10/10/10/10/10/A9/5K4 w - - 99 80 a2:a1:1");
    play(&mut emergence, "a2b1");
    assert_eq!(ending(&emergence), Some("fifty-moves"));
    let mut capture = position("5k4/10/10/10/10/3p6/10/1A3K4 w - - 99 80 -");
    play(&mut capture, "b1d3");
    assert_eq!(ending(&capture), None);
    assert_eq!(capture.halfmove_clock(), 0);
}

#[test]
fn bare_kings_or_a_single_minor_piece_are_a_draw_unless_an_assassin_remains() {
    let knight = position("5k4/10/10/10/10/10/10/2N2K4 w - - 0 1 -");
    assert_eq!(ending(&knight), Some("insufficient-material"));
    let with_assassin = position("5k4/10/10/10/10/10/10/A1N2K4 w - - 0 1 a1:a1:0");
    assert_eq!(ending(&with_assassin), None);
    let rules: StealthChessRules = "insufficient-material=off".parse().unwrap();
    let played_on =
        StealthChess::from_position_text("5k4/10/10/10/10/10/10/2N2K4 w - - 0 1 -", rules).unwrap();
    assert_eq!(played_on.status(), Status::ToMove(0));
}

#[test]
fn positions_read_back_as_written_and_chess_positions_land_on_files_b_to_i() {
    for text in [
        START_POSITION,
        "5k4/10/10/A9/3p6/10/2N7/4K5 w - - 3 20 a5:a3:4",
        "arnbqkbnra/1ppp1pppp1/10/4pP4/10/10/1PPPP1PPP1/ARNBQKBNRA w KQkq e6 0 3 a1:a1:0,j1:j1:0,a8:a8:0,j8:j8:0",
    ] {
        assert_eq!(position(text).position_text(), text);
    }
    let chess = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    // No black pawn can take en passant, so the square is not kept.
    assert_eq!(
        chess.position_text(),
        "1rnbqkbnr1/1pppppppp1/10/10/5P4/10/1PPPP1PPP1/1RNBQKBNR1 b KQkq - 0 1 -"
    );
    let ready = position("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
    assert!(moves(&ready).contains(&"e4f3".to_string()));
}

#[test]
fn bad_positions_name_their_problem() {
    let cases = [
        ("", "fields"),
        ("5k4/10/10/10/10/10/10/5K4 w - -", ""),
        ("5k4/10/10/10/10/10/10/5K4 x - - 0 1 -", "side to move"),
        ("5k4/10/10/10/10/10/10/5K3 w - - 0 1 -", "rank 1"),
        ("5k4/10/10/10/10/10/10/10 w - - 0 1 -", "kings"),
        ("5k4/10/10/10/10/10/10/R4K4 w - - 0 1 -", "only an Assassin"),
        ("5k4/10/10/10/10/10/10/A4K4 w - - 0 1 -", "does not list"),
        (
            "5k4/10/10/10/10/10/10/A4K4 w - - 0 1 a1:a5:0",
            "cannot have come",
        ),
        (
            "5k4/10/10/10/10/10/10/A4K4 w - - 0 1 a1:j1:0",
            "not on its Slurk",
        ),
        (
            "5k4/10/10/10/10/10/10/A4K4 w - - 0 1 b1:b1:0",
            "not a Slurk square",
        ),
        (
            "5k4/10/10/10/10/10/10/A4K4 w - - 0 1 a1:a1",
            "square:entry:count",
        ),
        (
            "5k4/10/10/10/10/10/10/A4K4 w - - 0 1 a1:a1:99999",
            "Slurk count",
        ),
        ("5k4/10/10/10/10/10/10/5K4 w K - 0 1 -", "castling right K"),
        ("5k4/10/10/10/10/10/10/5K4 w - e6 0 1 -", "en passant"),
        ("5k4/10/10/10/10/10/10/4rK4 b - - 0 1 -", "in check"),
        ("5k4/10/10/10/10/10/10/5K4 w - - 0 0 -", "move number"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -", "no Slurk field"),
        ("4k3/8/8/8/8/8/8/A3K3 w - - 0 1", "no Assassins"),
        ("5k4/10/10/10/10/10/10/5K4 w - - 0 1 - extra", "fields"),
    ];
    check_position_texts::<StealthChess>(&StealthChessRules::default(), &cases);
}

#[test]
fn bad_moves_say_why() {
    let start = StealthChess::start(StealthChessRules::default());
    let cases = [
        ("e3e4", "no piece"),
        ("f7f5", "black"),
        ("f2f5", "not a legal move"),
        ("a1b1", "not a legal move"),
        ("f2", "written as its squares"),
        ("z2z4", "file"),
        ("a1a2x", "not a promotion"),
    ];
    check_move_texts_refused(&start, &cases);
}

/// Self-play from the start at depth 3: repetitions come back with other
/// histories, and the fifty-move counter differs between transpositions.
#[test]
fn the_table_does_not_carry_a_value_to_a_position_with_another_history() {
    let start = StealthChess::new(StealthChessRules::default());
    let played = crate::common::histories::scores_match_fresh_searchers(start, 3, 200);
    assert!(played > 20, "the game ended after {played} plies");
}
