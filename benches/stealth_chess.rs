//! Bulk perft of Stealth Chess, one thread, against cozy-chess's move
//! generator on the same chess positions in the same run (cozy-chess counts
//! its last ply in bulk too), and on positions with Assassins in play.

use cozy_chess::Board;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use norn::core::Notation;
use norn::games::stealth_chess::{START_POSITION, StealthChess, StealthChessRules};
use norn::search::perft;
use std::hint::black_box;

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// The start with every Assassin's count run up: emergences everywhere.
const ASSASSINS_AWAKE: &str = "arnbqkbnra/1pppppppp1/10/10/10/10/1PPPPPPPP1/ARNBQKBNRA w KQkq - 0 1 a1:a1:6,j1:j1:4,a8:a8:8,j8:j8:2";

/// cozy-chess's perft, counting the last ply in bulk as its own example does.
fn cozy_perft(board: &Board, depth: u32) -> u64 {
    let mut nodes = 0;
    board.generate_moves(|moves| {
        if depth == 1 {
            nodes += moves.len() as u64;
        } else {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
        }
        false
    });
    nodes
}

fn position(text: &str) -> StealthChess {
    StealthChess::from_position_text(text, StealthChessRules::MOVES_ONLY).unwrap()
}

fn chess_against_cozy(c: &mut Criterion) {
    for (name, fen, depth) in [("start", CHESS_START, 5), ("kiwipete", KIWIPETE, 4)] {
        let ours = position(fen);
        let theirs: Board = fen.parse().unwrap();
        let nodes = perft(&ours, depth);
        assert_eq!(nodes, cozy_perft(&theirs, depth));
        let mut group = c.benchmark_group(format!("stealth-chess/perft {name} depth {depth}"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function("norn", |b| b.iter(|| perft(black_box(&ours), depth)));
        group.bench_function("cozy-chess", |b| {
            b.iter(|| cozy_perft(black_box(&theirs), depth))
        });
        group.finish();
    }
}

fn assassins_in_play(c: &mut Criterion) {
    for (name, text, depth) in [
        ("stealth start", START_POSITION, 5),
        ("assassins awake", ASSASSINS_AWAKE, 4),
    ] {
        let state = position(text);
        let nodes = perft(&state, depth);
        let mut group = c.benchmark_group(format!("stealth-chess/perft {name} depth {depth}"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function("norn", |b| b.iter(|| perft(black_box(&state), depth)));
        group.finish();
    }
}

criterion_group!(benches, chess_against_cozy, assassins_in_play);
criterion_main!(benches);
