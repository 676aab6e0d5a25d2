//! Perft: counting the move sequences of a given length, the standard check of
//! a move generator against independently known numbers.
//!
//! A ply is one move of the player to move, or at a simultaneous choice one
//! joint move (one choice per player, every combination counted).

use crate::core::{Game, MoveList, Ply, Status, joint_choices, thread_pool};
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
    // Only a state without a player to move lists no moves, so the status is
    // read off the hot path.
    if depth == 1 {
        let count = state.count_legal_moves(moves) as u64;
        if count > 0 {
            return count;
        }
        return joint_sequences(state, depth);
    }
    state.legal_moves(moves);
    if moves.is_empty() {
        return joint_sequences(state, depth);
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = state.clone();
        child.play(mv);
        total += count_sequences(&child, depth - 1, deeper);
    }
    total
}

/// The sequences of `depth` plies from a state without a player to move:
/// those starting with each joint move at a simultaneous choice, none
/// otherwise.
fn joint_sequences<G: Game>(state: &G, depth: u32) -> u64 {
    if state.status() != Status::Simultaneous {
        return 0;
    }
    let Some(choices) = joint_choices(state) else {
        return 0;
    };
    if depth == 1 {
        return choices.iter().map(|moves| moves.len() as u64).product();
    }
    joint_moves(&choices)
        .into_iter()
        .map(|joint| {
            let mut child = state.clone();
            child.play_ply(&Ply::Joint(joint));
            perft(&child, depth - 1)
        })
        .sum()
}

/// Every combination of one choice per player, player 0's choice varying
/// slowest.
fn joint_moves<M: Copy>(choices: &[MoveList<M>]) -> Vec<Vec<M>> {
    choices.iter().fold(vec![Vec::new()], |prefixes, moves| {
        prefixes
            .iter()
            .flat_map(|prefix| {
                moves.iter().map(move |&mv| {
                    let mut joint = prefix.clone();
                    joint.push(mv);
                    joint
                })
            })
            .collect()
    })
}

/// The plies of `state`: its legal moves, or its joint moves at a
/// simultaneous choice.
fn root_plies<G: Game>(state: &G) -> Vec<Ply<G::Move>> {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    if !moves.is_empty() || state.status() != Status::Simultaneous {
        return moves.iter().map(|&mv| Ply::Move(mv)).collect();
    }
    joint_choices(state).map_or_else(Vec::new, |choices| {
        joint_moves(&choices).into_iter().map(Ply::Joint).collect()
    })
}

/// A first ply with the number of sequences of perft's depth that start with it.
pub type Divided<M> = (Ply<M>, u64);

/// Perft split by the first ply: each ply with the number of sequences of
/// `depth` plies that start with it, in move-generation order. The root
/// plies are shared among `threads` worker threads; the counts do not
/// depend on the number of threads.
///
/// # Errors
/// If the thread pool cannot be created.
pub fn perft_divide<G: Game>(
    state: &G,
    depth: u32,
    threads: usize,
) -> Result<Vec<Divided<G::Move>>, String> {
    if depth == 0 {
        return Ok(Vec::new());
    }
    let plies = root_plies(state);
    let pool = thread_pool(threads)?;
    Ok(pool.install(|| {
        plies
            .into_par_iter()
            .map(|ply| {
                let mut child = state.clone();
                child.play_ply(&ply);
                let nodes = perft(&child, depth - 1);
                (ply, nodes)
            })
            .collect()
    }))
}

/// [`perft`] with the root plies shared among `threads` worker threads.
///
/// # Errors
/// If the thread pool cannot be created.
pub fn perft_parallel<G: Game>(state: &G, depth: u32, threads: usize) -> Result<u64, String> {
    if depth <= 1 {
        return Ok(perft(state, depth));
    }
    Ok(perft_divide(state, depth, threads)?
        .iter()
        .map(|&(_, nodes)| nodes)
        .sum())
}
