//! Progressive widening in IS-MCTS: off, the search is the classic one;
//! on, a node opens no more children than its visits allow, in the move
//! order's sequence; the specs that set it refuse bad values.

use norn::agents::Decision;
use norn::companions::fenrir_cards::policies::CountingOrder;
use norn::companions::fenrir_cards::policies::build_agent;
use norn::core::{
    Game, ImperfectInformation, MoveList, Status, Stochastic, derive_seed, rng_from_seed,
};
use norn::games::fenrir_cards::{FenrirCards, FenrirCardsRules, FenrirPlayout};
use norn::search::{Ismcts, IsmctsConfig, MoveOrder, Widening};

fn rules(text: &str) -> FenrirCardsRules {
    text.parse().unwrap()
}

/// A state some moves into a seeded deal of `rules`, with a player to move.
fn dealt_state(rules: FenrirCardsRules, seed: u64, counting_moves: usize) -> FenrirCards {
    let mut state = FenrirCards::new(rules);
    state.resolve_chance(&mut rng_from_seed(seed));
    let mut team = build_agent("counting", seed).unwrap();
    for _ in 0..counting_moves {
        let Status::ToMove(player) = state.status() else {
            break;
        };
        match team.decide(&state, player).unwrap() {
            Decision::Play(mv) => state.play(mv),
            Decision::Resign => break,
        }
    }
    assert!(!state.status().is_over());
    state
}

#[test]
fn without_widening_the_search_is_the_classic_one() {
    for players in 2..=4 {
        let state = dealt_state(rules(&format!("players={players}")), players, 6);
        let observation = state.observation(state.status().player_to_move().unwrap());
        let classic = IsmctsConfig {
            iterations: 300,
            ..IsmctsConfig::default()
        };
        let before = Ismcts::with_playout(classic.clone(), FenrirPlayout::honest(), 11)
            .search(&observation)
            .unwrap();
        // A move order is only consulted by widening.
        let ordered = Ismcts::with_playout(classic, FenrirPlayout::honest(), 11)
            .with_move_order(CountingOrder)
            .search(&observation)
            .unwrap();
        assert_eq!(before, ordered, "{players} players");
        // So is a spec that turns widening off; without `widen` the policy
        // widens by one child, growing with the square root of the visits.
        let widened_spec = |spec: &str| {
            (0..4)
                .map(|seed| {
                    match build_agent(spec, seed)
                        .unwrap()
                        .decide(&state, state.status().player_to_move().unwrap())
                        .unwrap()
                    {
                        Decision::Play(mv) => mv,
                        Decision::Resign => panic!("{spec} resigned"),
                    }
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            widened_spec("ismcts:iters=100,widen=off"),
            widened_spec("ismcts:iters=100,widen=0"),
        );
        assert_eq!(
            widened_spec("ismcts:iters=100"),
            widened_spec("ismcts:iters=100,widen=1,widen-exp=0.5"),
        );
    }
}

#[test]
fn a_widened_root_opens_the_counting_rules_moves_in_its_order() {
    // The first ask of a four-player deal: dozens of asks at the root.
    let state = dealt_state(rules("players=4"), 3, 0);
    let observation = state.observation(state.status().player_to_move().unwrap());
    let mut legal = MoveList::new();
    state.legal_moves(&mut legal);
    assert!(legal.len() > 40, "{} legal moves", legal.len());
    let mut ordered = legal.to_vec();
    CountingOrder.sort(&state, &mut ordered);
    for widening in [
        Widening {
            width: 1.0,
            exponent: 0.5,
        },
        Widening {
            width: 2.5,
            exponent: 0.25,
        },
        Widening {
            width: 3.0,
            exponent: 0.0,
        },
    ] {
        for iterations in [1, 2, 3, 7, 30, 150] {
            let config = IsmctsConfig {
                iterations,
                widening: Some(widening),
                ..IsmctsConfig::default()
            };
            let result = Ismcts::with_playout(config, FenrirPlayout::honest(), 5)
                .with_move_order(CountingOrder)
                .search(&observation)
                .unwrap();
            let opened = result.moves.len();
            let allowed = widening.children_allowed(iterations);
            assert!(
                opened as u64 <= allowed,
                "{widening:?}, {iterations} visits: {opened} children, {allowed} allowed"
            );
            assert!(opened >= 1);
            // Every root move is legal in every determinization, so the
            // children are the first moves of the order.
            let mut expanded: Vec<_> = result.moves.iter().map(|stats| stats.mv).collect();
            let mut prefix = ordered[..opened].to_vec();
            expanded.sort_by_key(|mv| format!("{mv:?}"));
            prefix.sort_by_key(|mv| format!("{mv:?}"));
            assert_eq!(expanded, prefix, "{widening:?}, {iterations} visits");
        }
    }
    // Without an order the children are a random choice, still bounded.
    let widening = Widening {
        width: 1.0,
        exponent: 0.5,
    };
    let config = IsmctsConfig {
        iterations: 100,
        widening: Some(widening),
        ..IsmctsConfig::default()
    };
    let result = Ismcts::<FenrirCards, _>::with_playout(config, FenrirPlayout::honest(), 5)
        .search(&observation)
        .unwrap();
    assert_eq!(result.moves.len() as u64, widening.children_allowed(100));
    assert_eq!(result.iterations, 100);
}

#[test]
fn the_counting_order_puts_the_counting_rules_move_first() {
    for players in 2..=4 {
        let rules = rules(&format!("players={players}"));
        for seed in 0..10 {
            let mut state = FenrirCards::new(rules);
            state.resolve_chance(&mut rng_from_seed(derive_seed(7, seed)));
            let mut team = build_agent("counting", 0).unwrap();
            let mut moves = MoveList::new();
            while let Status::ToMove(player) = state.status() {
                let Decision::Play(counting) = team.decide(&state, player).unwrap() else {
                    panic!("counting resigned");
                };
                state.legal_moves(&mut moves);
                let mut ordered = moves.to_vec();
                CountingOrder.sort(&state, &mut ordered);
                assert_eq!(ordered[0], counting, "{players} players, deal {seed}");
                assert_eq!(ordered.len(), moves.len());
                state.play(counting);
            }
        }
    }
}

#[test]
fn widening_specs_are_checked() {
    for spec in [
        "ismcts:iters=10,widen=1",
        "ismcts:iters=10,widen=2.5,widen-exp=0.25",
        "ismcts:iters=10,widen=1,widen-exp=0",
        "ismcts:iters=10,widen=off",
        "ismcts:iters=10,widen=1000,widen-exp=1",
    ] {
        assert_eq!(build_agent(spec, 1).unwrap().spec(), spec);
        assert!(
            norn::agents::build_agent::<FenrirCards>(spec, 1).is_ok(),
            "{spec}"
        );
    }
    // The policy widens by default, so an exponent alone adjusts it; the
    // generic agent does not, and refuses one.
    let exponent_alone = "ismcts:iters=10,widen-exp=0.25";
    assert_eq!(
        build_agent(exponent_alone, 1).unwrap().spec(),
        exponent_alone
    );
    let generic = norn::agents::build_agent::<FenrirCards>(exponent_alone, 1);
    assert!(generic.is_err_and(|error| error.to_string().contains("needs widening on")));
    for (spec, problem) in [
        ("ismcts:widen=-1", "`widen` must be from 0 to 1000"),
        ("ismcts:widen=nan", "`widen` must be from 0 to 1000"),
        ("ismcts:widen=inf", "`widen` must be from 0 to 1000"),
        ("ismcts:widen=1e9", "`widen` must be from 0 to 1000"),
        ("ismcts:widen=wide", "`wide`"),
        ("ismcts:widen=1,widen-exp=2", "from 0 to 1"),
        ("ismcts:widen=1,widen-exp=-0.5", "from 0 to 1"),
        ("ismcts:widen=1,widen-exp=NaN", "from 0 to 1"),
        ("ismcts:widen=off,widen-exp=0.5", "needs widening on"),
        ("ismcts:widen=0,widen-exp=0.5", "needs widening on"),
        ("ismcts:widening=1", "widen, widen-exp"),
    ] {
        let error = build_agent(spec, 1).err().expect("a bad spec").to_string();
        assert!(error.contains(problem), "{spec}: {error}");
        let error = norn::agents::build_agent::<FenrirCards>(spec, 1)
            .err()
            .expect("a bad spec")
            .to_string();
        assert!(error.contains(problem), "generic {spec}: {error}");
    }
    // The open-hand reference reads the same IS-MCTS options, widening
    // included (off unless given), and refuses what every search refuses.
    assert!(build_agent("open-hand:widen=1,iters=10", 1).is_ok());
    let error = build_agent("open-hand:widen=-1", 1)
        .err()
        .expect("a bad spec")
        .to_string();
    assert!(error.contains("`widen` must be from 0 to 1000"), "{error}");
}

#[test]
fn widening_in_the_counting_order_loses_no_more_deals_than_counting() {
    // Four players on a short track, where counting loses about four deals
    // in ten and the unwidened search with this budget spreads its visits
    // over a hundred asks.
    let rules = rules("players=4,track=31");
    let deals = 16;
    let wins = |spec: &str| {
        (0..deals)
            .filter(|&deal| {
                let mut state = FenrirCards::new(rules);
                state.resolve_chance(&mut rng_from_seed(derive_seed(2024, deal)));
                let mut team = build_agent(spec, derive_seed(99, deal)).unwrap();
                loop {
                    match state.status() {
                        Status::ToMove(player) => match team.decide(&state, player).unwrap() {
                            Decision::Play(mv) => state.play(mv),
                            Decision::Resign => return false,
                        },
                        Status::Over(outcome) => return outcome.payoffs.get(0) > 0.0,
                        status => panic!("a dealt game has no {status:?}"),
                    }
                }
            })
            .count()
    };
    let counting = wins("counting");
    let widened = wins("ismcts:iters=100,widen=1");
    assert!(
        widened >= counting,
        "widened search {widened}/{deals}, counting {counting}/{deals}"
    );
}
