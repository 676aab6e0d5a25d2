//! Every encoded game played by action ids alone (`norn::testing::encoding`):
//! legal ids and legal moves correspond one to one, every move is
//! reachable, texts read back, replays agree.

use norn::core::{Game, GameRng, ImperfectInformation, Status, rng_from_seed};
use norn::games::fenrir_cards::{FenrirCards, FenrirCardsRules};
use norn::games::thud::{Thud, ThudRules, TrollCaptures};
use norn::learning::{ActionState, Turn};
use norn::rand::RngExt;
use norn::registry::{GameVisitor, Registered, visit_all};
use norn::testing::encoding::check_encoding;
use norn::testing::{Budget, for_each_playout};

/// Runs the encoding checks on every registered game under its default
/// rules: a new game is checked without touching this file.
struct CheckEncoding;

impl GameVisitor for CheckEncoding {
    type Output = ();

    fn visit<G: Registered>(&mut self) {
        let rules: G::Rules = "".parse().expect("the default rules");
        let checked = check_encoding(&G::new(rules), &Budget::SUITE);
        assert!(checked > 100, "{}: {checked} states", G::NAME);
    }
}

#[test]
fn every_game_is_played_by_its_action_ids() {
    visit_all(&mut CheckEncoding);
}

/// Plays whole games by action ids alone: every game whose rules bound its
/// length ends within that bound.
struct PlayToTheEnd;

impl GameVisitor for PlayToTheEnd {
    type Output = usize;

    fn visit<G: Registered>(&mut self) -> usize {
        let rules: G::Rules = "".parse().expect("the default rules");
        let Some(most) = G::max_game_length(&rules) else {
            return 0;
        };
        let mut rng = rng_from_seed(5);
        for _ in 0..2 {
            let mut state = ActionState::<G>::new(rules.clone());
            while !state.is_terminal() {
                assert!(
                    state.history().len() < most,
                    "{}: past {most} actions",
                    G::NAME
                );
                let turn = state.turn();
                if turn == Turn::Simultaneous {
                    let joint: Vec<u32> = (0..state.state().num_players())
                        .map(|player| pick(&state.legal_actions(player), &mut rng))
                        .collect();
                    state.apply_actions(&joint).expect("listed choices");
                } else {
                    let chooser = match turn {
                        Turn::Player(player) => player,
                        _ => 0,
                    };
                    let id = pick(&state.legal_actions(chooser), &mut rng);
                    state.apply_action(id).expect("a listed action");
                }
            }
        }
        1
    }
}

fn pick(ids: &[u32], rng: &mut GameRng) -> u32 {
    ids[rng.random_range(0..ids.len())]
}

#[test]
fn bounded_games_end_within_their_most_actions() {
    let bounded: usize = visit_all(&mut PlayToTheEnd).into_iter().sum();
    // Hnefatafl, both Thuds and Nibelungen have limits by default.
    assert!(bounded >= 4, "{bounded} bounded games");
}

#[test]
fn thud_is_played_by_its_action_ids_when_trolls_choose_their_captures() {
    let rules = ThudRules {
        troll_captures: TrollCaptures::AnySubset,
        ..ThudRules::default()
    };
    let checked = check_encoding(&Thud::new(rules), &Budget::SUITE);
    assert!(checked > 100, "{checked} states");
}

#[test]
fn fetters_of_fenrir_is_dealt_and_played_by_its_action_ids_for_more_players() {
    for rules in ["players=3", "players=4"] {
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
