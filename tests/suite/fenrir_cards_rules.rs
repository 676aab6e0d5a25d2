//! Hand-built deals, one or more for each rule of Fetters of Fenrir, and the
//! invariants every game passes.

use crate::common::moves::{self, play};
use norn::core::{
    Game, ImperfectInformation, Notation, RulesOptions, Status, Stochastic, rng_from_seed,
};
use norn::games::fenrir_cards::{
    Card, CardSet, Deal, EndReason, Event, FenrirCards, FenrirCardsMove, FenrirCardsRules, Phase,
};
use norn::testing::{Budget, check_conformance, check_move_texts_refused};

fn rules(text: &str) -> FenrirCardsRules {
    text.parse().unwrap_or_else(|error| panic!("{error}"))
}

fn game(rules_text: &str, deal: &str) -> FenrirCards {
    FenrirCards::from_position_text(deal, rules(rules_text))
        .unwrap_or_else(|error| panic!("{error}"))
}

fn cards(game: &FenrirCards, list: &str) -> CardSet {
    list.split_whitespace()
        .map(|text| Card::parse(text, game.rules().ranks()).unwrap())
        .collect()
}

fn legal(game: &FenrirCards) -> Vec<String> {
    moves::legal_texts(game, |_| true)
}

#[test]
fn the_invariants_hold_over_random_games() {
    for (index, text) in [
        "players=2",
        "players=3",
        "players=4",
        "players=2,ranks=4,hand=2,ask-discarded=off,empty=pass",
        "players=3,ranks=5,ask-held=on,track=20",
        "players=4,ranks=3,stuck=lose,ask-discarded=off",
    ]
    .iter()
    .enumerate()
    {
        let mut start = FenrirCards::new(rules(text));
        start.resolve_chance(&mut rng_from_seed(index as u64));
        check_conformance(
            &start,
            &Budget {
                playouts: 5,
                max_plies: 200,
                plies_per_state: usize::MAX,
                searched_positions: 0,
                seed: 7 + index as u64,
            },
        );
        let undealt = FenrirCards::new(rules(text));
        check_conformance(
            &undealt,
            &Budget {
                playouts: 1,
                max_plies: 1,
                plies_per_state: usize::MAX,
                searched_positions: 0,
                seed: 1,
            },
        );
    }
}

#[test]
fn the_deal_is_the_only_chance_event() {
    for (players, sizes, stock) in [
        (2, [10, 10, 0, 0], 16),
        (3, [12, 12, 12, 0], 0),
        (4, [9, 9, 9, 9], 0),
    ] {
        let rules = rules(&format!("players={players}"));
        let mut state = FenrirCards::new(rules);
        assert_eq!(state.status(), Status::Chance);
        assert_eq!(state.position_text(), "undealt");
        assert!(legal(&state).is_empty());
        state.resolve_chance(&mut rng_from_seed(3));
        for (player, &size) in sizes.iter().enumerate() {
            assert_eq!(state.hand(player).len() as usize, size);
        }
        assert_eq!(state.stock().len(), stock);
        assert_eq!(state.status(), Status::ToMove(0));
        let mut again = FenrirCards::new(rules);
        again.resolve_chance(&mut rng_from_seed(3));
        assert_eq!(again, state, "the same seed deals the same cards");
        let mut other = FenrirCards::new(rules);
        other.resolve_chance(&mut rng_from_seed(4));
        assert_ne!(other.deal(), state.deal());
        let text = state.deal().text(&rules);
        assert_eq!(&Deal::parse(&text, &rules).unwrap(), state.deal());
    }
}

#[test]
fn a_successful_ask_discards_the_card_and_the_asker_asks_again() {
    let mut state = game("players=3,ranks=3", "L1,L2,D3/L3,D1,G1/D2,G2,G3");
    // Player 0 fails first, to move the pawn off 0.
    play(&mut state, "2:L3 xL2");
    assert_eq!(state.pawn(), 2);
    assert_eq!(state.status(), Status::ToMove(1));
    // Player 1 asks player 2 for G2 and gets it: the pawn moves back by 2.
    play(&mut state, "2:G2");
    assert_eq!(
        state.history().last(),
        Some(&Event::Ask {
            asker: 1,
            target: 2,
            card: Card::parse("G2", 3).unwrap(),
            held: true
        })
    );
    assert_eq!(state.pawn(), 0);
    assert!(!state.hand(2).contains(Card::parse("G2", 3).unwrap()));
    assert!(state.discarded().contains(Card::parse("G2", 3).unwrap()));
    assert_eq!(
        state.hand(1),
        cards(&state, "L3 D1 G1"),
        "the asker keeps its hand"
    );
    assert_eq!(state.status(), Status::ToMove(1), "the asker asks again");
    assert_eq!(state.phase(), Phase::Ask);
}

#[test]
fn the_pawn_stops_at_the_wolfs_start() {
    let mut state = game("players=3,ranks=3", "L1,L2,D3/L3,D1,G1/D2,G2,G3");
    // A success at space 0 leaves the pawn at 0.
    play(&mut state, "1:D1");
    assert_eq!(state.pawn(), 0);
    // A failure moves it to 1; a success worth 3 brings it back to 0, not -2.
    play(&mut state, "2:L3 xL1");
    assert_eq!(state.pawn(), 1);
    play(&mut state, "2:G3");
    assert_eq!(state.pawn(), 0);
    // A success worth less than the pawn's space moves it back by its value.
    let mut three = game("players=3,ranks=3", "L1,L2,D3/L3,D1,G1/D2,G2,G3");
    play(&mut three, "1:D2 xD3");
    assert_eq!(three.pawn(), 3);
    play(&mut three, "0:L2");
    assert_eq!(three.pawn(), 1, "3 - 2");
}

#[test]
fn a_failed_ask_costs_a_discard_of_the_suit_and_the_turn() {
    let mut state = game("players=3,ranks=3", "L1,L2,D3/L3,D1,G1/D2,G2,G3");
    play(&mut state, "2:L3");
    assert_eq!(state.phase(), Phase::FailedAsk { suit: 0, target: 2 });
    assert_eq!(state.status(), Status::ToMove(0));
    assert_eq!(
        legal(&state),
        ["xL1", "xL2"],
        "only Leyding may be discarded"
    );
    let wrong = state.parse_move("xD3").unwrap_err().to_string();
    assert!(wrong.contains("suit asked for"), "{wrong}");
    play(&mut state, "xL2");
    assert_eq!(state.pawn(), 2);
    assert_eq!(state.status(), Status::ToMove(1), "the turn passes left");
    assert_eq!(state.stock().len(), 0);
}

#[test]
fn the_gods_lose_when_the_pawn_reaches_odin() {
    let mut state = game("players=3,ranks=2,track=3", "L1,D2/L2,G1/D1,G2");
    play(&mut state, "1:D1 xD2");
    assert_eq!(state.pawn(), 2);
    assert_eq!(state.status(), Status::ToMove(1), "one space short of Odin");
    let mut state = game("players=3,ranks=2,track=2", "L1,D2/L2,G1/D1,G2");
    play(&mut state, "1:D1 xD2");
    let outcome = state.status().outcome().expect("the pawn reached Odin");
    assert_eq!(outcome.reason, "reached-odin");
    assert_eq!(outcome.payoffs.as_slice(), &[0.0, 0.0, 0.0]);
    assert_eq!(state.phase(), Phase::Over(EndReason::ReachedOdin));
    assert!(legal(&state).is_empty());
    assert!(state.try_play(FenrirCardsMove::Discard(Card(0))).is_err());
}

#[test]
fn the_asked_player_draws_after_a_failed_ask_in_the_two_player_game() {
    let mut state = game("players=2,ranks=3,hand=2", "L1,D1/L2,G1:D2,G2,L3,D3,G3");
    // A success draws nothing.
    play(&mut state, "1:L2");
    assert_eq!(state.stock().len(), 5);
    play(&mut state, "1:L3 xL1");
    assert_eq!(state.history().last(), Some(&Event::Draw { player: 1 }));
    assert_eq!(state.hand(1), cards(&state, "G1 D2"));
    assert_eq!(state.stock().len(), 4);
    assert_eq!(state.status(), Status::ToMove(1));
    // The drawer knows its card; the other player knows only that it drew.
    let drawer = state.observation(1);
    assert_eq!(drawer.hand(), cards(&state, "G1 D2"));
    let other = state.observation(0);
    assert_eq!(other.hand_size(1), 2);
    assert_eq!(other.stock_left(), 4);
    assert_ne!(drawer, other);
}

#[test]
fn players_without_cards_are_skipped_and_the_game_is_won_when_all_cards_are_gone() {
    let mut state = game("players=3,ranks=2", "L1,D1/L2,G1/D2,G2");
    play(&mut state, "1:L2 2:D2");
    // Player 0 names D2, now discarded: a certain failure.
    play(&mut state, "1:D2 xD1");
    assert_eq!(state.pawn(), 1);
    assert_eq!(state.status(), Status::ToMove(1));
    play(&mut state, "2:G2");
    assert!(state.hand(2).is_empty());
    assert_eq!(state.pawn(), 0);
    play(&mut state, "0:G2 xG1");
    // Player 2 has no cards and there is no stock: it is skipped. Player 0
    // holds L1 but nobody else holds a card, so it has no legal ask.
    assert_eq!(state.status(), Status::ToMove(0));
    assert_eq!(state.phase(), Phase::Stuck);
    assert_eq!(legal(&state), ["xL1"]);
    play(&mut state, "xL1");
    let outcome = state.status().outcome().expect("every card is discarded");
    assert_eq!(outcome.reason, "bound");
    assert_eq!(outcome.payoffs.as_slice(), &[1.0, 1.0, 1.0]);
    assert_eq!(state.discarded(), CardSet::deck(2));
}

#[test]
fn an_empty_player_draws_and_then_plays_or_passes() {
    // Hands of one card and a stock of seven.
    let deal = "L1/L2:D1,D2,D3,G1,G2,G3,L3";
    let mut state = game("players=2,ranks=3,hand=1", deal);
    play(&mut state, "1:L2");
    // Player 1 is empty, so player 0 has nobody to ask.
    assert_eq!(state.phase(), Phase::Stuck);
    play(&mut state, "xL1");
    // Player 1 draws D1 at its turn and plays; player 0 is empty, so it is stuck too.
    assert_eq!(state.history().last(), Some(&Event::Draw { player: 1 }));
    assert_eq!(state.status(), Status::ToMove(1));
    assert_eq!(state.hand(1), cards(&state, "D1"));
    assert_eq!(state.phase(), Phase::Stuck);

    let mut passing = game("players=2,ranks=3,hand=1,empty=pass", deal);
    play(&mut passing, "1:L2 xL1");
    // Player 1 draws D1 and passes; player 0, empty too, draws D2 and passes;
    // player 1 plays.
    let tail: Vec<Event> = passing.history()[passing.history().len() - 2..].to_vec();
    assert_eq!(tail, [Event::Draw { player: 1 }, Event::Draw { player: 0 }]);
    assert_eq!(passing.status(), Status::ToMove(1));
    assert_eq!(passing.hand(0), cards(&passing, "D2"));
    assert_eq!(legal(&passing), ["0:D2", "0:D3"]);
}

#[test]
fn a_player_without_a_legal_ask_discards_or_loses() {
    // With discarded cards off limits, player 0 holds the whole of Leyding.
    let deal = "L1,L2/D1,G1/D2,G2";
    let mut state = game("players=3,ranks=2,ask-discarded=off", deal);
    assert_eq!(state.phase(), Phase::Stuck);
    assert_eq!(legal(&state), ["xL1", "xL2"]);
    play(&mut state, "xL2");
    assert_eq!(state.pawn(), 2);
    assert_eq!(
        state.history().last(),
        Some(&Event::Discard {
            player: 0,
            card: Card::parse("L2", 2).unwrap(),
            stuck: true
        })
    );
    assert_eq!(state.status(), Status::ToMove(1), "the turn passes left");
    // With discarded cards allowed, player 0 could always name one; here none
    // is discarded yet, so it is stuck all the same.
    assert_eq!(game("players=3,ranks=2", deal).phase(), Phase::Stuck);
    let losing = game("players=3,ranks=2,ask-discarded=off,stuck=lose", deal);
    let outcome = losing.status().outcome().expect("stuck loses");
    assert_eq!(outcome.reason, "stuck");
    assert_eq!(outcome.payoffs.get(0), 0.0);
}

#[test]
fn with_stuck_lose_the_last_player_holding_cards_still_discards() {
    let mut state = game("players=3,ranks=2,stuck=lose", "L1,D1/L2,G1/D2,G2");
    // Two hits, a miss on a discarded card, then player 1 empties player 2
    // and misses; player 2 is skipped and player 0 is left alone with D1.
    play(&mut state, "1:L2 2:D2 1:L2 xL1 2:G2 0:G2 xG1");
    assert_eq!(state.phase(), Phase::Stuck, "no one to ask is not a loss");
    assert_eq!(legal(&state), ["xD1"]);
    play(&mut state, "xD1");
    let outcome = state.status().outcome().expect("every card is gone");
    assert_eq!(outcome.payoffs.get(0), 1.0, "the gods win");
}

#[test]
fn which_cards_may_be_named() {
    let mut state = game("players=3,ranks=2", "L1,D1/L2,G1/D2,G2");
    // Player 0 holds L1 and D1: it may name L2 or D2, of any other player.
    assert_eq!(legal(&state), ["1:L2", "1:D2", "2:L2", "2:D2"]);
    check_move_texts_refused(
        &state,
        &[
            ("0:L2", "itself"),
            ("1:G2", "no card of the suit"),
            ("1:L1", "holds L1 itself"),
            ("3:L2", "no player 3"),
            ("xL1", "must ask"),
            ("1:L9", "ranks run from 1 to 2"),
            ("1-L2", "an ask such as"),
        ],
    );
    play(&mut state, "2:D2");
    // Discarded cards may be named by default, not with ask-discarded=off.
    assert!(legal(&state).contains(&"1:D2".to_string()));
    let mut strict = game("players=3,ranks=2,ask-discarded=off", "L1,D1/L2,G1/D2,G2");
    play(&mut strict, "2:D2");
    assert!(!legal(&strict).contains(&"1:D2".to_string()));
    let error = strict.parse_move("1:D2").unwrap_err().to_string();
    assert!(error.contains("discarded"), "{error}");
    // With ask-held=on a player may name its own card, a certain failure.
    let mut open = game("players=3,ranks=2,ask-held=on", "L1,D1/L2,G1/D2,G2");
    play(&mut open, "1:L1");
    assert_eq!(open.phase(), Phase::FailedAsk { suit: 0, target: 1 });
    // An empty player may not be asked.
    let mut emptied = game("players=3,ranks=2", "L1,D1/L2,G1/D2,G2");
    play(&mut emptied, "1:L2 2:D2 1:D2 xD1 2:G2");
    let error = emptied.parse_move("2:G2").unwrap_err().to_string();
    assert!(error.contains("holds no cards"), "{error}");
}

#[test]
fn card_values_follow_the_rules() {
    let mut state = game("players=3,ranks=2,values=5/1", "L1,D1/L2,G1/D2,G2");
    play(&mut state, "1:D2 xD1");
    assert_eq!(state.pawn(), 5, "a rank-1 card is worth 5 here");
    play(&mut state, "2:G2");
    assert_eq!(state.pawn(), 4, "a rank-2 card is worth 1");
}

#[test]
fn rules_options_read_back_and_bad_options_are_explained() {
    let default = FenrirCardsRules::default();
    assert_eq!(default.players(), 4);
    assert_eq!(default.track(), 84);
    assert_eq!(default.ranks(), 12);
    for text in [
        "",
        "players=2,track=30,hand=8",
        "ranks=6,values=1/1/2/2/3/3,stuck=lose,empty=pass,ask-held=on,ask-discarded=off",
    ] {
        let parsed = rules(text);
        assert_eq!(rules(&parsed.to_string()), parsed, "{text}");
    }
    for (text, problem) in [
        ("players=5", "`players` must be from 2 to 4, not 5"),
        ("players=1", "`players` must be from 2 to 4, not 1"),
        ("ranks=0", "`ranks` must be from 1 to 16, not 0"),
        ("ranks=17", "`ranks` must be from 1 to 16, not 17"),
        ("track=0", "`track` must be from 1 to"),
        (
            "ranks=2,values=1/2/3",
            "`values` lists 3 values but the suits have 2 ranks",
        ),
        ("values=1/x", "`x` is not a valid value for `values`"),
        ("players=3,hand=5", "two-player game only"),
        ("players=2,hand=19", "more than the 36 cards"),
        ("ranks=3,values=1/2", "lists 2 values"),
        ("stuck=pass", "discard or lose"),
        ("empty=skip", "play or pass"),
        ("colour=red", "unknown option"),
        ("players=2,ranks=16,hand=2", "too many to count"),
        ("track=x", "`x`"),
    ] {
        let error = text.parse::<FenrirCardsRules>().unwrap_err().to_string();
        assert!(error.contains(problem), "{text}: {error}");
    }
    // Every rules value is valid: its fields are private, so only the
    // default and text that passes the checks make one.
    assert!(default.validate().is_ok());
}

#[test]
fn positions_replay_their_moves_and_bad_positions_are_explained() {
    let rules = rules("players=3,ranks=2");
    let mut state = game("players=3,ranks=2", "L1,D1/L2,G1/D2,G2");
    play(&mut state, "1:L2 2:D2 1:D2 xD1");
    let text = state.position_text();
    assert_eq!(text, "L1,D1/L2,G1/D2,G2 1:L2 2:D2 1:D2 xD1");
    assert_eq!(
        FenrirCards::from_position_text(&text, rules).unwrap(),
        state
    );
    for (text, problem) in [
        ("", "empty"),
        ("undealt 1:L2", "before the deal"),
        ("L1,D1/L2,G1/D2,G2 1:L2 1:L1", "move 2"),
        ("L1,D1/L2,G1", "2 hand(s)"),
        ("L1,D1/L2,G1/D2,G2:L1", "only the two-player game"),
    ] {
        let error = FenrirCards::from_position_text(text, rules)
            .unwrap_err()
            .to_string();
        assert!(error.contains(problem), "{text}: {error}");
    }
}
