//! Invariant checks that every game must pass, run over random playouts.
//!
//! A new game gets the same scrutiny as the existing ones by calling these
//! from its tests. Failures panic with a message naming the state and the check,
//! as test assertions do.

use crate::core::{Game, MoveList, Notation, Status, rng_from_seed};
use rand::RngExt;
use std::fmt::Debug;

/// Plays `playouts` random games from `start` (at most `max_plies` plies each)
/// and calls `visit` on every state reached, the start included.
pub fn for_each_playout_state<G: Game>(
    start: &G,
    playouts: usize,
    max_plies: usize,
    seed: u64,
    mut visit: impl FnMut(&G),
) {
    let mut rng = rng_from_seed(seed);
    let mut moves = MoveList::new();
    for _ in 0..playouts {
        let mut state = start.clone();
        for _ in 0..=max_plies {
            visit(&state);
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            state.play(mv);
        }
    }
}

/// The model invariants, checked on every state of random playouts:
/// - a clone equals its original;
/// - a state with a player to move has legal moves, a finished state has none,
///   and the bulk count equals the length of the list;
/// - payoffs have one entry per player and lie within [`Game::payoff_range`];
/// - [`Game::try_play`] accepts every listed move and gives the same state as
///   [`Game::play`].
pub fn check_game_invariants<G: Game + PartialEq + Debug>(
    start: &G,
    playouts: usize,
    max_plies: usize,
    seed: u64,
) {
    let mut moves = MoveList::new();
    let mut scratch = MoveList::new();
    for_each_playout_state(start, playouts, max_plies, seed, |state| {
        assert_eq!(&state.clone(), state, "a clone differs from its original");
        state.legal_moves(&mut moves);
        assert_eq!(
            state.count_legal_moves(&mut scratch),
            moves.len(),
            "bulk count differs from the move list in {state:?}"
        );
        match state.status() {
            Status::Over(outcome) => {
                assert!(moves.is_empty(), "a finished game lists moves: {state:?}");
                let payoffs = outcome.payoffs.as_slice();
                assert_eq!(payoffs.len(), state.num_players());
                let (low, high) = state.payoff_range();
                assert!(
                    payoffs.iter().all(|&p| (low..=high).contains(&p)),
                    "payoffs {payoffs:?} outside {low}..={high}"
                );
            }
            Status::ToMove(player) => {
                assert!(player < state.num_players());
                assert!(
                    !moves.is_empty(),
                    "a player to move has no moves: {state:?}"
                );
            }
            Status::Chance | Status::Simultaneous => {}
        }
        for &mv in moves.iter() {
            let mut played = state.clone();
            played.play(mv);
            let mut tried = state.clone();
            tried
                .try_play(mv)
                .unwrap_or_else(|error| panic!("listed move {mv:?} refused: {error}"));
            assert_eq!(played, tried, "try_play and play disagree on {mv:?}");
        }
    });
}

/// The notation invariants, checked on every state of random playouts:
/// - the position text reads back into a state that prints the same text and
///   has the same hash, which also checks the incremental hash against one
///   computed from scratch;
/// - every legal move's text reads back as the same move;
/// - corrupted position and move texts give errors or valid results, never panics.
pub fn check_notation_invariants<G: Notation + Debug>(
    start: &G,
    playouts: usize,
    max_plies: usize,
    seed: u64,
) {
    let mut moves = MoveList::new();
    let mut rng = rng_from_seed(seed ^ 0x5eed);
    for_each_playout_state(start, playouts, max_plies, seed, |state| {
        let text = state.position_text();
        let reparsed = G::from_position_text(&text, state.rules().clone())
            .unwrap_or_else(|error| panic!("printed position does not parse: {error}"));
        assert_eq!(
            reparsed.position_text(),
            text,
            "position text does not round-trip"
        );
        assert_eq!(
            reparsed.hash(),
            state.hash(),
            "incremental hash differs from the hash of the parsed position {text}"
        );
        state.legal_moves(&mut moves);
        for &mv in moves.iter() {
            let move_text = state.move_text(mv);
            let parsed = state
                .parse_move(&move_text)
                .unwrap_or_else(|error| panic!("printed move does not parse: {error}"));
            assert_eq!(parsed, mv, "move text {move_text} does not round-trip");
        }
        for corrupted in corruptions(&text, &mut rng) {
            // Either outcome is fine; a panic fails the test.
            let _ = G::from_position_text(&corrupted, state.rules().clone());
        }
        if let Some(&mv) = moves.first() {
            for corrupted in corruptions(&state.move_text(mv), &mut rng) {
                let _ = state.parse_move(&corrupted);
            }
        }
    });
}

/// Variants of `text`: truncations, a dropped character, a duplicated one and
/// random replacements, to test that parsers never panic.
fn corruptions(text: &str, rng: &mut crate::core::GameRng) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Vec::new();
    }
    const NOISE: &[char] = &['/', '-', 'x', ' ', '0', '9', 'Z', 'é', ',', ':', '1'];
    let mut out = Vec::new();
    for _ in 0..4 {
        let at = rng.random_range(0..chars.len());
        out.push(chars[..at].iter().collect());
        let mut dropped = chars.clone();
        dropped.remove(at);
        out.push(dropped.into_iter().collect());
        let mut doubled = chars.clone();
        doubled.insert(at, chars[at]);
        out.push(doubled.into_iter().collect());
        let mut replaced = chars.clone();
        replaced[at] = NOISE[rng.random_range(0..NOISE.len())];
        out.push(replaced.into_iter().collect());
    }
    out
}
