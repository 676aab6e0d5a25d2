//! Moves typed as text, for the hand-built rule tests of every game.

#![allow(dead_code)]

use norn::core::{MoveList, Notation};

/// Plays the moves of `moves` (separated by spaces) through the checked API;
/// a move the game cannot read or refuses fails the test with the reason.
pub fn play<G: Notation>(game: &mut G, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game
            .parse_move(text)
            .unwrap_or_else(|error| panic!("{text}: {error}"));
        game.try_play(mv)
            .unwrap_or_else(|error| panic!("{text}: {error}"));
    }
}

/// Why the game refuses the move `text`, or a note that it accepted it.
pub fn refused<G: Notation>(game: &G, text: &str) -> String {
    game.parse_move(text)
        .map(|mv| format!("unexpectedly legal: {mv:?}"))
        .unwrap_or_else(|error| error.to_string())
}

/// The legal moves that `keep` accepts, as written, in the order the game
/// generates them.
pub fn legal_texts<G: Notation>(game: &G, keep: impl Fn(&G::Move) -> bool) -> Vec<String> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .filter(|mv| keep(mv))
        .map(|&mv| game.move_text(mv))
        .collect()
}
