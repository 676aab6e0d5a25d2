//! A check that alpha-beta's table keeps positions with different histories
//! apart, for the games whose rules count repetitions.

#![allow(dead_code)]

use norn::core::{Evaluate, Notation};
use norn::search::{AlphaBeta, AlphaBetaConfig};

fn searcher(depth: u32) -> AlphaBeta {
    AlphaBeta::new(AlphaBetaConfig {
        depth: Some(depth),
        table_megabytes: 1,
        ..AlphaBetaConfig::default()
    })
}

/// Plays up to `plies` plies from `state` with one alpha-beta searcher per
/// side at `depth`, each keeping its table from move to move, as an agent
/// does, and checks every score against a fresh searcher's. In a game whose
/// sides shuffle pieces back and forth, positions come back with other
/// histories of repetitions; what the table learned of them earlier must
/// not decide their values now. Returns the plies played.
pub fn scores_match_fresh_searchers<G: Evaluate + Notation>(
    mut state: G,
    depth: u32,
    plies: u32,
) -> u32 {
    let mut players = [searcher(depth), searcher(depth)];
    let mut played = 0;
    while !state.status().is_over() && played < plies {
        let me = state.status().player_to_move().unwrap();
        let result = players[me].search(&state).unwrap();
        let fresh = searcher(depth).search(&state).unwrap();
        assert_eq!(
            result.score,
            fresh.score,
            "ply {played} of the game, {}",
            state.position_text()
        );
        state.play(result.best_move.unwrap());
        played += 1;
    }
    played
}
