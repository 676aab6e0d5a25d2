//! With no Assassins on the board, files `b`..`i` are an ordinary
//! chessboard: perft from chess positions placed there equals the
//! published chess numbers, and the legal moves and perft counts of
//! positions reached by random play equal those of the cozy-chess move
//! generator.

use cozy_chess::{Board, Piece};
use norn::core::{Game, MoveList, Notation, rng_from_seed};
use norn::games::stealth_chess::{Special, StealthChess, StealthChessRules};
use norn::rand::RngExt;
use norn::search::{perft, perft_parallel};

/// The standard perft positions with their published counts from depth 1
/// (the start position and Kiwipete as on the rules page; positions 3 to 6
/// of the chess programming literature's suite).
const PUBLISHED: [(&str, &str, &[u64]); 7] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[20, 400, 8_902, 197_281, 4_865_609],
    ),
    (
        "Kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
        &[48, 2_039, 97_862, 4_085_603],
    ),
    (
        "position 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
        &[14, 191, 2_812, 43_238, 674_624],
    ),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9_467, 422_333],
    ),
    (
        "position 4 mirrored",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        &[6, 264, 9_467, 422_333],
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1_486, 62_379, 2_103_487],
    ),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890, 3_894_594],
    ),
];

/// A chess position placed on files b..i, counted with the draw rules off
/// as chess perft counts.
fn placed(fen: &str) -> StealthChess {
    StealthChess::from_position_text(fen, StealthChessRules::MOVES_ONLY)
        .unwrap_or_else(|error| panic!("{error}"))
}

#[test]
fn perft_of_the_standard_positions_equals_the_published_numbers() {
    for (name, fen, counts) in PUBLISHED {
        let state = placed(fen);
        for (depth, &expected) in (1..).zip(counts) {
            assert_eq!(perft(&state, depth), expected, "{name} at depth {depth}");
        }
    }
}

#[test]
fn the_draw_rules_change_nothing_at_these_depths_and_threads_change_nothing() {
    let (_, fen, counts) = PUBLISHED[1];
    let state = StealthChess::from_position_text(fen, StealthChessRules::default()).unwrap();
    assert_eq!(perft(&state, 3), counts[2]);
    assert_eq!(perft_parallel(&state, 3, 2).unwrap(), counts[2]);
}

/// A cozy-chess move in long algebraic form on the 8-file board, with
/// castling written as the king's two-square move (cozy-chess writes it
/// as the king taking its own rook).
fn cozy_move_text(board: &Board, mv: cozy_chess::Move) -> String {
    let castles = board.piece_on(mv.from) == Some(Piece::King)
        && board.color_on(mv.to) == Some(board.side_to_move());
    if castles {
        let rank = mv.from.rank();
        let file = if mv.to.file() > mv.from.file() {
            cozy_chess::File::G
        } else {
            cozy_chess::File::C
        };
        return format!("{}{}", mv.from, cozy_chess::Square::new(file, rank));
    }
    mv.to_string()
}

fn cozy_moves(board: &Board) -> Vec<cozy_chess::Move> {
    let mut moves = Vec::new();
    board.generate_moves(|batch| {
        moves.extend(batch);
        false
    });
    moves
}

fn cozy_perft(board: &Board, depth: u32) -> u64 {
    let moves = cozy_moves(board);
    if depth <= 1 {
        return if depth == 0 { 1 } else { moves.len() as u64 };
    }
    moves
        .into_iter()
        .map(|mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            cozy_perft(&child, depth - 1)
        })
        .sum()
}

/// A move of files b..i written as on an 8-file board (`f2f4` is `e2e4`):
/// the file letters of its two squares move back by one, a promotion
/// letter stays.
fn on_eight_files(text: &str) -> String {
    text.char_indices()
        .map(|(at, c)| {
            if at == 0 || at == 2 {
                (c as u8 - 1) as char
            } else {
                c
            }
        })
        .collect()
}

/// What the random games met, to show they covered the special moves.
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    deep: usize,
    castlings: usize,
    en_passant: usize,
    promotions: usize,
    checks: usize,
}

#[test]
fn random_positions_agree_with_cozy_chess_to_depth_three() {
    let mut rng = rng_from_seed(2026);
    let mut seen = Seen::default();
    for (name, fen, _) in PUBLISHED {
        for _game in 0..6 {
            // cozy-chess reads only the six-field FEN.
            let six_fields = if fen.split_whitespace().count() == 4 {
                format!("{fen} 0 1")
            } else {
                fen.to_string()
            };
            let mut board: Board = six_fields.parse().unwrap();
            for ply in 0..45 {
                let state = placed(&board.to_string());
                let mut ours = MoveList::new();
                state.legal_moves(&mut ours);
                let mut our_texts: Vec<String> = ours
                    .iter()
                    .map(|&mv| on_eight_files(&state.move_text(mv)))
                    .collect();
                let moves = cozy_moves(&board);
                let mut their_texts: Vec<String> =
                    moves.iter().map(|&mv| cozy_move_text(&board, mv)).collect();
                our_texts.sort();
                their_texts.sort();
                assert_eq!(our_texts, their_texts, "{name}: {board}");
                assert_eq!(perft(&state, 2), cozy_perft(&board, 2), "{name}: {board}");
                if ply % 6 == 0 {
                    assert_eq!(perft(&state, 3), cozy_perft(&board, 3), "{name}: {board}");
                    seen.deep += 1;
                }
                seen.positions += 1;
                seen.checks += usize::from(!board.checkers().is_empty());
                for mv in ours.iter() {
                    match mv.special {
                        Special::Castle => seen.castlings += 1,
                        Special::EnPassant => seen.en_passant += 1,
                        Special::Promotion(_) => seen.promotions += 1,
                        _ => {}
                    }
                }
                if moves.is_empty() {
                    break;
                }
                board.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
    assert!(seen.positions > 1000 && seen.deep > 150, "{seen:?}");
    assert!(
        seen.castlings > 20 && seen.en_passant > 5 && seen.promotions > 20 && seen.checks > 20,
        "{seen:?}"
    );
}
