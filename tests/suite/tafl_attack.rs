//! The positions where the tafl attackers are far ahead
//! (tests/data/tafl-attack-positions.tsv) are what the set says: open,
//! the attackers to move, and not already won by the king; and alpha-beta
//! attacking converts most of them against itself defending.

use norn::arena::{PlayOptions, play_game};
use norn::core::{Game, Notation};
use norn::games::tafl::{Side, Tafl, TaflEvaluation, TaflRules};
use norn::registry::build_agent;
use norn::search::{AlphaBeta, AlphaBetaConfig};
use rayon::prelude::*;

/// The plies within which the attackers must win a position of the set.
const MAX_PLIES: usize = 100;

/// The king's moves within which a forced escape leaves a position out of
/// the set (as examples/tafl_finish.rs builds it).
const ESCAPE_MOVES: u32 = 2;

/// The positions of the set with where each came from.
fn attack_positions() -> Vec<(Tafl, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tafl-attack-positions.tsv"
    );
    let text = std::fs::read_to_string(path).expect("the set is readable");
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "{line}");
            let rules = TaflRules::variant(fields[0]).expect("a listed variant");
            let state = Tafl::from_position_text(fields[1], rules).expect("a position");
            (state, format!("{} {}", fields[0], fields[2]))
        })
        .collect()
}

#[test]
fn every_attack_position_is_open_with_the_attackers_to_move_and_no_forced_escape() {
    let positions = attack_positions();
    assert!(positions.len() >= 20, "{} positions", positions.len());
    for (state, source) in positions {
        assert!(!state.status().is_over(), "{source}");
        assert_eq!(state.side_to_move(), Side::Attackers, "{source}");
        assert!(
            !state.king_escapes_by_force(ESCAPE_MOVES),
            "{source}: the king escapes by force"
        );
    }
}

/// The measure of bench-results/tafl.md at the depth the suite affords:
/// both sides alpha-beta with the hand-set evaluation at depth 2 (the
/// preset's evaluation; its depth is 4). The side far ahead searches a ply
/// further (`Evaluate::root_extension`); without that the attackers won
/// half of the set (16 of 32), not most.
#[test]
fn attackers_far_ahead_convert_most_positions_against_an_equal_searcher() {
    let spec = "alphabeta:eval=hand,depth=2";
    let positions = attack_positions();
    let won: Vec<bool> = positions
        .par_iter()
        .map(|(state, source)| {
            let mut agents: Vec<_> = (0..2)
                .map(|seed| build_agent::<Tafl>(spec, seed).expect("a valid spec"))
                .collect();
            if Side::Attackers.player() != 0 {
                agents.swap(0, 1);
            }
            let options = PlayOptions {
                max_plies: Some(MAX_PLIES),
                ..PlayOptions::default()
            };
            let game = play_game(state, &mut agents, &options)
                .unwrap_or_else(|error| panic!("{source}: {error}"));
            game.outcome.payoffs.get(Side::Attackers.player()) > 0.0
        })
        .collect();
    let wins = won.iter().filter(|&&won| won).count();
    assert!(
        2 * wins > positions.len(),
        "the attackers won {wins} of {}",
        positions.len()
    );
}

#[test]
fn alpha_beta_searches_a_ply_further_only_for_the_side_far_ahead() {
    let rules = TaflRules::variant("brandub").unwrap();
    // Brandubh's start without its four defenders.
    let lone_king = "/3t3/3t3/7/tt1K1tt/7/3t3/3t3/";
    let ahead = Tafl::from_position_text(&format!("{lone_king} attackers"), rules).unwrap();
    let behind = Tafl::from_position_text(&format!("{lone_king} defenders"), rules).unwrap();
    let depth_two = || {
        AlphaBeta::new(AlphaBetaConfig {
            depth: Some(2),
            ..AlphaBetaConfig::default()
        })
    };
    let searched_depth = |state: &Tafl, evaluation: TaflEvaluation| {
        depth_two().search_with(state, &evaluation).unwrap().depth
    };
    for evaluation in [TaflEvaluation::Hand, TaflEvaluation::Cordon] {
        assert_eq!(searched_depth(&Tafl::new(rules), evaluation), 2);
        assert_eq!(searched_depth(&ahead, evaluation), 3);
        assert_eq!(searched_depth(&behind, evaluation), 2);
    }
    // The game's own evaluation, as `alphabeta` without `eval=` uses it.
    assert_eq!(depth_two().search(&ahead).unwrap().depth, 3);
}
