//! The engine against the plain model of tests/suite/common/slow_stealth_chess.rs,
//! written from the rules page alone: the same legal moves, written the same
//! way, and the same perft counts, over random games from positions with
//! Assassins on the chessboard, in the Slurks with various counts, and next
//! to the kings.

use crate::common::slow_stealth_chess::Position;
use norn::core::{Game, MoveList, Notation, rng_from_seed};
use norn::games::stealth_chess::{START_POSITION, StealthChess, StealthChessRules};
use norn::rand::RngExt;
use norn::search::perft;

/// Starts with Assassins in every situation the rules page describes.
const STARTS: [&str; 7] = [
    START_POSITION,
    // Counts already run up: emergences from the first move on.
    "arnbqkbnra/1pppppppp1/10/10/10/10/1PPPPPPPP1/ARNBQKBNRA w KQkq - 0 1 a1:a1:6,j1:j1:4,a8:a8:8,j8:j8:2",
    // Kiwipete with the Assassins at home: castling, en passant, promotions.
    "ar3k2ra/1p1ppqpb2/1bn2pnp2/4PN4/2p2P4/3N2Q1p1/1PPPBBPPP1/AR3K2RA w KQkq - 0 1 a1:a1:0,j1:j1:0,a8:a8:0,j8:j8:0",
    // The same with counts: the kings' wings are in reach of emergences.
    "ar3k2ra/1p1ppqpb2/1bn2pnp2/4PN4/2p2P4/3N2Q1p1/1PPPBBPPP1/AR3K2RA w KQkq - 0 1 a1:a1:2,j1:j1:4,a8:a8:4,j8:j8:2",
    // Counts that reach nearly every square: the pieces around each king
    // cover squares an Assassin could emerge on, and may not leave them.
    "arnbqkbnra/1pppppppp1/10/10/10/10/1PPPPPPPP1/ARNBQKBNRA w KQkq - 0 1 a1:a1:14,j1:j1:12,a8:a8:10,j8:j8:14",
    // Assassins on the chessboard beside the kings.
    "10/4k5/3a1A4/10/2P4p2/4a5/3A1K4/10 w - - 0 1 -",
    // Assassins part-way along their Slurks, White in stealth check.
    "5k4/1pp5p1/a9/9a/A3P5/10/1PP5PA/5K4 w - - 0 1 j2:j1:3,a4:a2:2,j5:j8:5,a6:a6:8",
];

fn engine(text: &str) -> StealthChess {
    StealthChess::from_position_text(text, StealthChessRules::MOVES_ONLY)
        .unwrap_or_else(|error| panic!("{error}"))
}

/// The engine's and the model's legal moves, as sorted texts.
fn both_move_lists(state: &StealthChess) -> (Vec<String>, Vec<String>) {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    let mut ours: Vec<String> = moves.iter().map(|&mv| state.move_text(mv)).collect();
    let mut theirs: Vec<String> = Position::from_fen(&state.position_text())
        .legal_moves()
        .into_iter()
        .map(|mv| mv.text)
        .collect();
    ours.sort();
    theirs.sort();
    (ours, theirs)
}

#[test]
fn the_starts_are_legal_positions_with_assassins_in_play() {
    for text in STARTS {
        let state = engine(text);
        assert_eq!(state.position_text(), text);
        let (ours, theirs) = both_move_lists(&state);
        assert_eq!(ours, theirs, "{text}");
        assert!(!ours.is_empty());
    }
    // The last start has White in stealth check from two squares at once:
    // only the king may move.
    let checked = engine(STARTS[6]);
    assert!(checked.in_check());
    let (moves, _) = both_move_lists(&checked);
    assert!(moves.iter().all(|mv| mv.starts_with("f1")), "{moves:?}");
}

#[test]
fn random_games_list_the_moves_of_the_reference_model() {
    let mut rng = rng_from_seed(12);
    let mut compared = 0;
    let mut perft_compared = 0;
    let mut emergences = 0;
    for text in STARTS {
        for _game in 0..5 {
            let mut state = engine(text);
            for ply in 0..50 {
                let (ours, theirs) = both_move_lists(&state);
                assert_eq!(ours, theirs, "moves differ in {}", state.position_text());
                compared += 1;
                emergences += ours.iter().filter(|mv| mv.contains('x')).count();
                if ply % 7 == 3 {
                    let model = Position::from_fen(&state.position_text());
                    assert_eq!(
                        perft(&state, 2),
                        model.perft(2),
                        "perft 2 differs in {}",
                        state.position_text()
                    );
                    perft_compared += 1;
                }
                let mut moves = MoveList::new();
                state.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                state.play(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
    assert!(compared > 500, "{compared}");
    assert!(perft_compared > 60, "{perft_compared}");
    assert!(
        emergences > 1000,
        "emergences with capture were rare: {emergences}"
    );
}

#[test]
fn perft_three_agrees_with_the_reference_on_every_start() {
    for text in STARTS {
        let state = engine(text);
        let model = Position::from_fen(text);
        assert_eq!(perft(&state, 3), model.perft(3), "{text}");
    }
}
