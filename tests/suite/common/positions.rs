//! Positions reached by random play, for tests that compare two ways of
//! computing the same thing on many positions.

#![allow(dead_code)]

use norn::core::{Game, GameRng, rng_from_seed};
use rand::RngExt;
use std::ops::Range;

/// `count` unfinished positions, each reached from `start` by a number of
/// plies drawn from `plies`, with `choose` picking every move. A game that
/// ends before its plies are played is dropped.
pub fn random_positions<G: Game>(
    start: &G,
    count: usize,
    plies: Range<u32>,
    seed: u64,
    mut choose: impl FnMut(&G, &mut GameRng) -> G::Move,
) -> Vec<G> {
    let mut rng = rng_from_seed(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut state = start.clone();
        for _ in 0..rng.random_range(plies.clone()) {
            if state.status().is_over() {
                break;
            }
            let mv = choose(&state, &mut rng);
            state.play(mv);
        }
        if !state.status().is_over() {
            positions.push(state);
        }
    }
    positions
}
