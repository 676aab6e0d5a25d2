//! Move generation and perft for Copenhagen Hnefatafl.

use criterion::{Criterion, criterion_group, criterion_main};
use norn::core::{Game, MoveList, Notation};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::search::{perft, perft_parallel};
use std::hint::black_box;

/// Mid-game positions from the aagenielsen.dk records (after 20, 40 and 60 plies
/// of three different games).
fn midgame_positions() -> Vec<Hnefatafl> {
    let records = include_str!("../tests/data/copenhagen-games.csv");
    let mut positions = Vec::new();
    for (line, plies) in [(3, 20), (10, 40), (40, 60)] {
        let record =
            norn::games::hnefatafl::GameRecord::parse_line(records.lines().nth(line).unwrap())
                .unwrap();
        let mut game = Hnefatafl::new(HnefataflRules::default());
        for text in record.moves.iter().take(plies) {
            let mv = game.parse_move(text).unwrap();
            game.play(mv);
        }
        positions.push(game);
    }
    positions
}

fn move_generation(c: &mut Criterion) {
    let start = Hnefatafl::new(HnefataflRules::default());
    let midgame = midgame_positions();
    let mut moves = MoveList::new();
    c.bench_function("hnefatafl/legal_moves/start", |b| {
        b.iter(|| {
            black_box(&start).legal_moves(&mut moves);
            moves.len()
        })
    });
    c.bench_function("hnefatafl/legal_moves/midgame(3 positions)", |b| {
        b.iter(|| {
            midgame
                .iter()
                .map(|state| {
                    black_box(state).legal_moves(&mut moves);
                    moves.len()
                })
                .sum::<usize>()
        })
    });
    c.bench_function("hnefatafl/count_legal_moves/start", |b| {
        b.iter(|| black_box(&start).count_legal_moves(&mut moves))
    });
    start.legal_moves(&mut moves);
    let all_moves = moves.clone();
    c.bench_function("hnefatafl/clone_and_play/every start move", |b| {
        b.iter(|| {
            all_moves
                .iter()
                .map(|&mv| {
                    let mut child = black_box(&start).clone();
                    child.play(mv);
                    child.hash()
                })
                .fold(0, |acc, hash| acc ^ hash)
        })
    });
}

fn perft_benches(c: &mut Criterion) {
    let start = Hnefatafl::new(HnefataflRules::default());
    let mut group = c.benchmark_group("hnefatafl/perft");
    group.sample_size(10);
    group.bench_function("depth 4, 1 thread", |b| {
        b.iter(|| perft(black_box(&start), 4))
    });
    group.bench_function("depth 4, 2 threads", |b| {
        b.iter(|| perft_parallel(black_box(&start), 4, 2).unwrap())
    });
    group.bench_function("depth 5, 2 threads", |b| {
        b.iter(|| perft_parallel(black_box(&start), 5, 2).unwrap())
    });
    group.finish();
}

criterion_group!(benches, move_generation, perft_benches);
criterion_main!(benches);
