//! Perft: counting the move sequences of a given length, the standard check of
//! a move generator against independently known numbers.

use crate::core::{Game, MoveList};
use rayon::prelude::*;

/// The number of move sequences of exactly `depth` plies from `state`
/// (terminal states have no continuations). The last ply is counted in bulk
/// with [`Game::count_legal_moves`] instead of being played.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    let mut lists: Vec<MoveList<G::Move>> = (0..depth).map(|_| MoveList::new()).collect();
    count_sequences(state, depth, &mut lists)
}

fn count_sequences<G: Game>(state: &G, depth: u32, lists: &mut [MoveList<G::Move>]) -> u64 {
    let Some((moves, deeper)) = lists.split_first_mut() else {
        return 1;
    };
    if depth == 1 {
        return state.count_legal_moves(moves) as u64;
    }
    state.legal_moves(moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = state.clone();
        child.play(mv);
        total += count_sequences(&child, depth - 1, deeper);
    }
    total
}

/// Perft split by the first move: each legal move with the number of
/// sequences of `depth` plies that start with it, in move-generation order.
/// The root moves are shared among `threads` worker threads; the counts do
/// not depend on the number of threads.
///
/// # Errors
/// If the thread pool cannot be created.
pub fn perft_divide<G: Game>(
    state: &G,
    depth: u32,
    threads: usize,
) -> Result<Vec<(G::Move, u64)>, rayon::ThreadPoolBuildError> {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    if depth == 0 {
        return Ok(Vec::new());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    Ok(pool.install(|| {
        moves
            .par_iter()
            .map(|&mv| {
                let mut child = state.clone();
                child.play(mv);
                (mv, perft(&child, depth - 1))
            })
            .collect()
    }))
}

/// [`perft`] with the root moves shared among `threads` worker threads.
///
/// # Errors
/// If the thread pool cannot be created.
pub fn perft_parallel<G: Game>(
    state: &G,
    depth: u32,
    threads: usize,
) -> Result<u64, rayon::ThreadPoolBuildError> {
    if depth <= 1 {
        return Ok(perft(state, depth));
    }
    Ok(perft_divide(state, depth, threads)?
        .iter()
        .map(|&(_, nodes)| nodes)
        .sum())
}
