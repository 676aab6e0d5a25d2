//! Matrix games read off simultaneous states, for tests of the solvers.

#![allow(dead_code)]

use norn::core::{MoveList, Simultaneous};
use norn::search::MatrixGame;

/// The matrix game at simultaneous `state`: rows are player 0's choices,
/// columns player 1's, each entry `child_value` of the joint choice's
/// successor.
pub fn joint_matrix<G: Simultaneous>(
    state: &G,
    mut child_value: impl FnMut(&G) -> f64,
) -> MatrixGame {
    let choices = [0, 1].map(|player| {
        let mut moves = MoveList::new();
        state.player_moves(player, &mut moves);
        moves.to_vec()
    });
    let mut payoffs = Vec::new();
    for &row in &choices[0] {
        for &col in &choices[1] {
            let mut child = state.clone();
            child.play_joint(&[row, col]);
            payoffs.push(child_value(&child));
        }
    }
    MatrixGame::new(choices[0].len(), choices[1].len(), payoffs).unwrap()
}
