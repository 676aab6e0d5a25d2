//! Every encoded game played by action ids alone (`norn::testing::encoding`):
//! legal ids and legal moves correspond one to one, every move is
//! reachable, texts read back, replays agree.

use norn::core::{Game, ImperfectInformation, Status, rng_from_seed};
use norn::games::fenrir_cards::{FenrirCards, FenrirCardsRules};
use norn::games::fenrir_path::{FenrirPath, FenrirPathRules};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::games::nibelungen::{Nibelungen, NibelungenRules};
use norn::games::stealth_chess::{StealthChess, StealthChessRules};
use norn::games::thud::{KoomValley, KoomValleyRules, Thud, ThudRules, TrollCaptures};
use norn::learning::ActionState;
use norn::testing::encoding::check_encoding;
use norn::testing::{Budget, for_each_playout};

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

#[test]
fn fetters_of_fenrir_is_dealt_and_played_by_its_action_ids() {
    for rules in ["players=2", "players=3", "players=4"] {
        let rules: FenrirCardsRules = rules.parse().unwrap();
        let checked = check_encoding(&FenrirCards::new(rules), &Budget::SUITE);
        assert!(checked > 100, "{checked} states");
    }
}

/// A player's tensor and texts of a state equal those of any deal
/// consistent with what the player saw: they hold nothing it cannot see.
#[test]
fn fetters_of_fenrir_observations_leak_nothing_hidden() {
    let mut rng = rng_from_seed(17);
    let mut compared = 0;
    for players in 2..=4 {
        let rules: FenrirCardsRules = format!("players={players}").parse().unwrap();
        for_each_playout(&FenrirCards::new(rules), &Budget::SUITE, |state, _| {
            if state.status() == Status::Chance {
                return;
            }
            let seen_in_state = ActionState::from_state(state.clone());
            for player in 0..players {
                let other = FenrirCards::determinize(&state.observation(player), &mut rng);
                let seen_in_other = ActionState::from_state(other);
                assert_eq!(
                    seen_in_state.observation(player),
                    seen_in_other.observation(player)
                );
                assert_eq!(
                    seen_in_state.observation_string(player),
                    seen_in_other.observation_string(player)
                );
                assert_eq!(
                    seen_in_state.information_state_string(player),
                    seen_in_other.information_state_string(player)
                );
                compared += 1;
            }
        });
    }
    assert!(compared > 300, "{compared} views compared");
}
