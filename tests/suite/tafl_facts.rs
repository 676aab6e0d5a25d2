//! Move counts of the tafl family against facts: Copenhagen's published
//! counts from the start, and the slow reference's counts (written from
//! the rules page alone) from the start of every variant and from random
//! positions of each.

use crate::common::reference_tafl::Reference;
use norn::core::{Game, GameRng, MoveList, Notation, rng_from_seed};
use norn::games::tafl::{Tafl, TaflRules, VARIANTS};
use norn::rand::RngExt;
use norn::search::perft;

/// The reference's count of move sequences of `depth` plies.
fn reference_perft(reference: &Reference, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return reference.moves().len() as u64;
    }
    let mut total = 0;
    for mv in reference.moves() {
        let mut child = reference.clone();
        if child.play(mv).is_some() {
            // The game is over: no move follows.
            continue;
        }
        total += reference_perft(&child, depth - 1);
    }
    total
}

/// The reference of `state`, a game just begun there.
fn reference_of(state: &Tafl) -> Reference<'static> {
    let dim = state.dim();
    Reference::new(
        state.rules().rules_string(),
        false,
        (0..dim * dim).map(|index| state.piece_at(index)).collect(),
        state.side_to_move(),
        state.berserk_square(),
    )
}

#[test]
fn copenhagen_counts_the_published_moves_from_the_start() {
    let start = Tafl::new(TaflRules::variant("copenhagen").unwrap());
    let mut moves = MoveList::new();
    start.legal_moves(&mut moves);
    assert_eq!(moves.len(), 116);
    assert_eq!(perft(&start, 2), 6_788);
}

#[test]
fn every_variant_counts_as_the_reference_from_the_start() {
    for variant in VARIANTS {
        let start = Tafl::new(TaflRules::variant(variant.name).unwrap());
        let depth = if start.dim() <= 7 { 3 } else { 2 };
        assert_eq!(
            perft(&start, depth),
            reference_perft(&reference_of(&start), depth),
            "{} perft({depth})",
            variant.name
        );
    }
}

#[test]
fn random_positions_count_as_the_reference() {
    let mut rng: GameRng = rng_from_seed(5);
    let mut moves = MoveList::new();
    let mut checked = 0;
    for variant in VARIANTS {
        let rules = TaflRules::variant(variant.name).unwrap();
        for _ in 0..3 {
            // A position some random plies in, read back from its text: a
            // game just begun there, as the reference sees it.
            let mut state = Tafl::new(rules);
            let plies = rng.random_range(4..40);
            for _ in 0..plies {
                state.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                state.play(moves[rng.random_range(0..moves.len())]);
            }
            if state.status().is_over() {
                continue;
            }
            let state = Tafl::from_position_text(&state.position_text(), rules).unwrap();
            let depth = if state.dim() <= 7 { 3 } else { 2 };
            assert_eq!(
                perft(&state, depth),
                reference_perft(&reference_of(&state), depth),
                "{} {}",
                variant.name,
                state.position_text()
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked} positions");
}
