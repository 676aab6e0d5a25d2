//! Simulations: the plies played from a new node, random or epsilon-greedy,
//! and the evaluation that scores a game cut short.

use super::MctsConfig;
use crate::core::{
    Evaluator, Game, GameRng, MAX_PLAYERS, MoveList, Player, Scoring, Status, normalised_payoffs,
};
use rand::RngExt;

/// The evaluation of `state` for every player, normalised. In a game of
/// two competing sides the payoffs sum to zero, so the second side's
/// estimate is the negation of the first's: one call instead of two.
pub(super) fn evaluation<G: Game>(state: &G, evaluator: &impl Evaluator<G>) -> [f64; MAX_PLAYERS] {
    let players = state.num_players();
    let mut estimates = [0.0; MAX_PLAYERS];
    if players == 2 && G::SCORING != Scoring::Team {
        estimates[0] = evaluator.evaluate(state, 0);
        estimates[1] = -estimates[0];
    } else {
        for (player, estimate) in estimates.iter_mut().enumerate().take(players) {
            *estimate = evaluator.evaluate(state, player);
        }
    }
    normalised_payoffs(state, &estimates[..players])
}

/// Plays moves from `state` for at most [`MctsConfig::playout_plies`]
/// plies, chosen as [`MctsConfig::playout_greedy`] says, and returns the
/// final payoffs, or the evaluation if the game goes on; or the status of a
/// state it cannot play through.
pub(super) fn simulate<G: Game>(
    mut state: G,
    evaluator: &impl Evaluator<G>,
    config: &MctsConfig,
    rng: &mut GameRng,
    moves: &mut MoveList<G::Move>,
) -> Result<[f64; MAX_PLAYERS], Status> {
    let mut played = 0;
    loop {
        match state.status() {
            Status::Over(outcome) => {
                return Ok(normalised_payoffs(&state, outcome.payoffs.as_slice()));
            }
            Status::ToMove(mover) if config.playout_plies.is_none_or(|limit| played < limit) => {
                state.legal_moves(moves);
                let mv = match config.playout_greedy {
                    Some(epsilon) if !rng.random_bool(epsilon) => {
                        greedy_move(&state, mover, moves, evaluator)
                    }
                    _ => moves[rng.random_range(0..moves.len())],
                };
                state.play(mv);
                played += 1;
            }
            Status::ToMove(_) => return Ok(evaluation(&state, evaluator)),
            other @ (Status::Chance | Status::Simultaneous) => return Err(other),
        }
    }
}

/// The move of `moves` after which `evaluator` rates the position best for
/// `mover`, the first of equals.
pub(super) fn greedy_move<G: Game>(
    state: &G,
    mover: Player,
    moves: &MoveList<G::Move>,
    evaluator: &impl Evaluator<G>,
) -> G::Move {
    let mut best = moves[0];
    let mut best_value = f64::NEG_INFINITY;
    for &mv in moves.iter() {
        let mut child = state.clone();
        child.play(mv);
        let value = evaluator.evaluate(&child, mover);
        if value > best_value {
            best_value = value;
            best = mv;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::super::test_game::{Pile, even, exact};
    use super::*;
    use crate::core::rng_from_seed;

    /// An evaluation that tells how many plies were played: player 0's
    /// estimate is a hundredth of the ply.
    fn plies_played(state: &Pile, player: Player) -> f64 {
        let value = f64::from(state.ply) / 100.0;
        if player == 0 { value } else { -value }
    }

    fn config(playout_plies: Option<u32>, playout_greedy: Option<f64>) -> MctsConfig {
        MctsConfig {
            playout_plies,
            playout_greedy,
            ..MctsConfig::default()
        }
    }

    #[test]
    fn the_evaluation_is_normalised_and_the_second_side_mirrors_the_first() {
        // 8 tokens: lost for player 0 to move, so player 0's estimate is
        // -0.9, which maps from [-1, 1] to (1 - 0.9) / 2.
        let values = evaluation(&Pile::of(8), &exact);
        assert!((values[0] - 0.05).abs() < 1e-12, "{values:?}");
        assert!((values[1] - 0.95).abs() < 1e-12, "{values:?}");
        assert!(values[2..].iter().all(|&value| value == 0.0));
    }

    #[test]
    fn a_playout_stops_after_its_plies_and_is_scored_by_the_evaluation() {
        let mut moves = MoveList::new();
        for limit in [0, 1, 3, 5] {
            let mut rng = rng_from_seed(limit.into());
            // Forty tokens last at least fourteen plies.
            let result = simulate(
                Pile::of(40),
                &plies_played,
                &config(Some(limit), None),
                &mut rng,
                &mut moves,
            )
            .unwrap();
            let plies = (result[0] * 2.0 - 1.0) * 100.0;
            assert!((plies - f64::from(limit)).abs() < 1e-9, "{limit}: {plies}");
        }
    }

    #[test]
    fn a_playout_without_a_limit_ends_the_game() {
        let mut moves = MoveList::new();
        for seed in 0..20 {
            let result = simulate(
                Pile::of(13),
                &even,
                &config(None, None),
                &mut rng_from_seed(seed),
                &mut moves,
            )
            .unwrap();
            // One side won: the payoffs +1 and -1, normalised.
            assert_eq!(result[0] + result[1], 1.0);
            assert!(result[0] == 0.0 || result[0] == 1.0, "{result:?}");
        }
    }

    #[test]
    fn greedy_playouts_with_the_exact_evaluation_play_perfectly() {
        let mut moves = MoveList::new();
        for tokens in 1..=16 {
            let state = Pile::of(tokens);
            let result = simulate(
                state.clone(),
                &exact,
                &config(None, Some(0.0)),
                &mut rng_from_seed(7),
                &mut moves,
            )
            .unwrap();
            let winner_payoff = if state.mover_wins() { 1.0 } else { 0.0 };
            assert_eq!(result[0], winner_payoff, "{tokens} tokens");
        }
    }

    #[test]
    fn the_greedy_move_leaves_a_multiple_of_four_and_takes_the_first_of_equals() {
        let mut moves = MoveList::new();
        for tokens in (1..=15).filter(|tokens| tokens % 4 != 0) {
            let state = Pile::of(tokens);
            state.legal_moves(&mut moves);
            assert_eq!(greedy_move(&state, 0, &moves, &exact), tokens % 4);
        }
        let state = Pile::of(9);
        state.legal_moves(&mut moves);
        assert_eq!(greedy_move(&state, 0, &moves, &even), 1);
    }
}
