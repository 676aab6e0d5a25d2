//! The positions where the tafl attackers are far ahead
//! (tests/data/tafl-attack-positions.tsv) are what the set says: open,
//! the attackers to move, and not already won by the king.

use norn::core::{Game, Notation};
use norn::games::tafl::{Side, Tafl, TaflRules};

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
