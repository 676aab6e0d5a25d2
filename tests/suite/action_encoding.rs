//! Every encoded game played by action ids alone (`norn::testing::encoding`):
//! legal ids and legal moves correspond one to one, every move is
//! reachable, texts read back, replays agree.

use norn::core::Game;
use norn::games::fenrir_path::{FenrirPath, FenrirPathRules};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::games::nibelungen::{Nibelungen, NibelungenRules};
use norn::games::stealth_chess::{StealthChess, StealthChessRules};
use norn::games::thud::{KoomValley, KoomValleyRules, Thud, ThudRules, TrollCaptures};
use norn::testing::Budget;
use norn::testing::encoding::check_encoding;

#[test]
fn hnefatafl_is_played_by_its_action_ids() {
    let checked = check_encoding(&Hnefatafl::new(HnefataflRules::default()), &Budget::SUITE);
    assert!(checked > 100, "{checked} states");
}

#[test]
fn nibelungen_is_played_by_its_action_ids() {
    let checked = check_encoding(&Nibelungen::new(NibelungenRules::default()), &Budget::SUITE);
    assert!(checked > 100, "{checked} states");
}

#[test]
fn fenrir_path_is_dealt_and_played_by_its_action_ids() {
    let checked = check_encoding(&FenrirPath::new(FenrirPathRules::default()), &Budget::SUITE);
    assert!(checked > 100, "{checked} states");
}

#[test]
fn stealth_chess_is_played_by_its_action_ids() {
    let checked = check_encoding(
        &StealthChess::new(StealthChessRules::default()),
        &Budget::SUITE,
    );
    assert!(checked > 100, "{checked} states");
}

#[test]
fn thud_is_played_by_its_action_ids_under_both_capture_rules() {
    for troll_captures in [TrollCaptures::AllOrNone, TrollCaptures::AnySubset] {
        let rules = ThudRules {
            troll_captures,
            ..ThudRules::default()
        };
        let checked = check_encoding(&Thud::new(rules), &Budget::SUITE);
        assert!(checked > 100, "{checked} states");
    }
}

#[test]
fn koom_valley_is_played_by_its_action_ids() {
    let checked = check_encoding(&KoomValley::new(KoomValleyRules::default()), &Budget::SUITE);
    assert!(checked > 100, "{checked} states");
}
