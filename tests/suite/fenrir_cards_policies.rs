//! The team's policies: honest ones see only observations, and the better
//! ones win more often than random asks on the same deals.

use norn::agents::{Decision, HonestPolicy};
use norn::companions::fenrir_cards::policies::{CountingPolicy, build_agent};
use norn::core::{
    Game, ImperfectInformation, MoveList, Notation, Status, Stochastic, derive_seed, rng_from_seed,
};
use norn::games::fenrir_cards::{FenrirCards, FenrirCardsMove, FenrirCardsRules};
use norn::search::{Ismcts, IsmctsConfig};
use rand::RngExt;

const HONEST: [&str; 3] = ["random", "counting", "ismcts:iters=60"];

fn rules(text: &str) -> FenrirCardsRules {
    text.parse().unwrap()
}

fn decision(spec: &str, seed: u64, state: &FenrirCards) -> FenrirCardsMove {
    match build_agent(spec, seed)
        .unwrap()
        .decide(state, state.status().player_to_move().unwrap())
        .unwrap()
    {
        Decision::Play(mv) => mv,
        Decision::Resign => panic!("{spec} resigned"),
    }
}

/// States from random games: `count` states with a player to move.
fn random_states(rules: FenrirCardsRules, count: usize, seed: u64) -> Vec<FenrirCards> {
    let mut rng = rng_from_seed(seed);
    let mut states = Vec::new();
    let mut moves = MoveList::new();
    while states.len() < count {
        let mut state = FenrirCards::new(rules).dealt(&mut rng);
        let plies = rng.random_range(0..40);
        for _ in 0..plies {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state.play(moves[rng.random_range(0..moves.len())]);
        }
        if !state.status().is_over() {
            states.push(state);
        }
    }
    states
}

#[test]
fn honest_policies_decide_the_same_when_hidden_cards_change() {
    let mut changed_hands = 0;
    let mut open_hand_noticed = 0;
    for players in 2..=4 {
        let rules = rules(&format!("players={players}"));
        for (index, state) in random_states(rules, 12, players as u64).iter().enumerate() {
            let player = state.status().player_to_move().unwrap();
            let observation = state.observation(player);
            // Another state the player cannot tell apart: other hands (and
            // the stock) dealt differently, the same public history.
            let mut rng = rng_from_seed(derive_seed(7, index as u64));
            let twin = FenrirCards::determinize(&observation, &mut rng);
            assert_eq!(twin.observation(player), observation);
            if (0..players).any(|p| twin.hand(p) != state.hand(p)) {
                changed_hands += 1;
            }
            for spec in HONEST {
                let seed = derive_seed(11, index as u64);
                assert_eq!(
                    decision(spec, seed, state),
                    decision(spec, seed, &twin),
                    "{spec} decided differently on {} and {}",
                    state.position_text(),
                    twin.position_text()
                );
            }
            // The cheating reference does look at the hands, and the same
            // comparison catches it.
            let spec = "open-hand:iters=60";
            if decision(spec, 3, state) != decision(spec, 3, &twin) {
                open_hand_noticed += 1;
            }
        }
    }
    assert!(
        changed_hands >= 30,
        "only {changed_hands} twins had other hands"
    );
    assert!(
        open_hand_noticed > 0,
        "the test cannot tell a cheating policy"
    );
}

#[test]
fn a_policy_is_handed_only_an_observation() {
    // An honest policy's only input is an observation: the same observation
    // gives the same move, whatever state it came from.
    let rules = rules("players=4");
    let state = &random_states(rules, 1, 5)[0];
    let player = state.status().player_to_move().unwrap();
    let observation = state.observation(player);
    let mut policy = CountingPolicy;
    let first = policy.decide(&observation).unwrap();
    let mut moves = MoveList::new();
    observation.legal_moves(&mut moves);
    assert!(moves.contains(&first));
    assert_eq!(policy.decide(&observation.clone()).unwrap(), first);
}

/// The 95% Wilson score interval of `wins` out of `games`.
fn wilson(wins: usize, games: usize) -> (f64, f64) {
    let n = games as f64;
    let p = wins as f64 / n;
    let z: f64 = 1.96;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

/// Wins of `spec` over deals `0..deals` of `rules`.
fn wins(spec: &str, rules: FenrirCardsRules, deals: u64) -> usize {
    (0..deals)
        .filter(|&deal| {
            let mut state = FenrirCards::new(rules);
            state.resolve_chance(&mut rng_from_seed(derive_seed(2024, deal)));
            let mut agent = build_agent(spec, derive_seed(99, deal)).unwrap();
            loop {
                match state.status() {
                    Status::Over(outcome) => return outcome.payoffs.get(0) > 0.0,
                    _ => match agent
                        .decide(&state, state.status().player_to_move().unwrap())
                        .unwrap()
                    {
                        Decision::Play(mv) => state.play(mv),
                        Decision::Resign => return false,
                    },
                }
            }
        })
        .count()
}

#[test]
fn counting_and_ismcts_win_more_often_than_random_asks() {
    // The lower end of each interval must clear the upper end of random's
    // by a margin. The search runs on fewer deals to keep the test fast,
    // and on two and three players, where a small budget covers the asks.
    let margin = 0.25;
    let deals = 200;
    for (rules_text, search_deals) in [("players=2", 16), ("players=3", 24), ("players=4", 0)] {
        let rules = rules(rules_text);
        let random = wins("random", rules, deals);
        let (_, random_high) = wilson(random, deals as usize);
        let counting = wins("counting", rules, deals);
        let (counting_low, _) = wilson(counting, deals as usize);
        assert!(
            counting_low > random_high + margin,
            "{rules_text}: counting {counting}/{deals} vs random {random}/{deals}"
        );
        if search_deals > 0 {
            let ismcts = wins("ismcts:iters=150", rules, search_deals);
            let (ismcts_low, _) = wilson(ismcts, search_deals as usize);
            assert!(
                ismcts_low > random_high + margin,
                "{rules_text}: ismcts {ismcts}/{search_deals} vs random {random}/{deals}"
            );
        }
    }
}

#[test]
fn the_search_avoids_a_discard_that_reaches_odin() {
    // Player 0 failed to get D3 and must discard a Dromi: D4, worth 9, would
    // take the pawn to Odin (space 9) and lose at once; D1 keeps the game open.
    let rules = rules("players=3,ranks=4,track=9,values=1/1/1/9");
    let mut state =
        FenrirCards::from_position_text("L1,D1,D4,G1/L2,D2,G2,L4/L3,D3,G3,G4 1:D3", rules).unwrap();
    assert_eq!(state.status(), Status::ToMove(0));
    for spec in [
        "ismcts:iters=100",
        "open-hand:iters=100",
        "open-hand:iters=100,exact=0",
    ] {
        for seed in 0..3 {
            let mv = decision(spec, seed, &state);
            assert_eq!(state.move_text(mv), "xD1", "{spec}");
        }
    }
    state.try_play(state.parse_move("xD1").unwrap()).unwrap();
    assert!(!state.status().is_over());
}

#[test]
fn the_search_is_reproducible_and_reports_its_statistics() {
    let rules = rules("players=3");
    let state = &random_states(rules, 1, 21)[0];
    let observation = state.observation(state.status().player_to_move().unwrap());
    let config = IsmctsConfig {
        iterations: 200,
        ..IsmctsConfig::default()
    };
    let first = Ismcts::<FenrirCards>::new(config.clone(), 5)
        .search(&observation)
        .unwrap();
    let again = Ismcts::<FenrirCards>::new(config, 5)
        .search(&observation)
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(first.iterations, 200);
    let visits: u64 = first.moves.iter().map(|stats| stats.visits).sum();
    assert_eq!(visits, 200, "every iteration passes through one root move");
    assert_eq!(first.best_move, Some(first.moves[0].mv));
    let mut legal = MoveList::new();
    state.legal_moves(&mut legal);
    assert!(first.moves.iter().all(|stats| legal.contains(&stats.mv)));
}

#[test]
fn policy_specs_are_checked_and_open_hand_is_labelled() {
    for spec in [
        "random",
        "counting",
        "ismcts:iters=10,c=0.5,playout=random,score=win",
        "open-hand",
    ] {
        let agent = build_agent(spec, 1).unwrap();
        assert_eq!(agent.spec(), spec);
    }
    assert!(
        build_agent("open-hand:iters=50", 1)
            .unwrap()
            .sees_hidden_information()
    );
    for spec in HONEST {
        assert!(!build_agent(spec, 1).unwrap().sees_hidden_information());
    }
    for (spec, problem) in [
        ("greedy", "valid policies"),
        ("random:iters=5", "takes no options"),
        ("ismcts:iters=0", "`iters` must be from 1"),
        ("ismcts:depth=3", "unknown option"),
        ("ismcts:playout=smart", "counting, open or random"),
        ("ismcts:exact=100", "unknown option"),
        ("open-hand:exact=many", "`many`"),
        ("open-hand:iters=x", "`x`"),
        ("ismcts:c=nan", "at least 0"),
        ("open-hand:c=-1", "at least 0"),
        ("ismcts:c=inf", "at least 0"),
    ] {
        let error = build_agent(spec, 1).err().expect("a bad spec").to_string();
        assert!(error.contains(problem), "{spec}: {error}");
    }
}

/// Whether the team, seeing every hand, can force a win: plain exhaustive
/// search over every move of every player (the game is deterministic once
/// dealt).
fn winnable(state: &FenrirCards) -> bool {
    match state.status() {
        Status::Over(outcome) => outcome.payoffs.get(0) > 0.0,
        _ => {
            let mut moves = MoveList::new();
            state.legal_moves(&mut moves);
            moves.iter().any(|&mv| {
                let mut next = state.clone();
                next.play(mv);
                winnable(&next)
            })
        }
    }
}

#[test]
fn open_hand_search_wins_every_small_deal_that_can_be_won() {
    // Nine cards, three players, a short track: some deals are lost whatever
    // the team does, the others have a winning line. UCT with its proofs
    // alone (the exact solver switched off) finds it, and so does the
    // default reference, which follows the solver's line.
    let rules = rules("players=3,ranks=3,track=3");
    let (mut won, mut lost) = (0, 0);
    for seed in 0..40 {
        let mut start = FenrirCards::new(rules);
        start.resolve_chance(&mut rng_from_seed(seed));
        let can_win = winnable(&start);
        for spec in ["open-hand:iters=3000,exact=0", "open-hand"] {
            let mut state = start.clone();
            let mut agent = build_agent(spec, seed).unwrap();
            while !state.status().is_over() {
                let Decision::Play(mv) = agent
                    .decide(&state, state.status().player_to_move().unwrap())
                    .unwrap()
                else {
                    panic!("the search resigned")
                };
                state.play(mv);
            }
            let result = state.status().outcome().unwrap().payoffs.get(0) > 0.0;
            assert_eq!(result, can_win, "{spec}: {}", state.position_text());
        }
        if can_win {
            won += 1;
        } else {
            lost += 1;
        }
    }
    assert!(
        won >= 5 && lost >= 5,
        "{won} winnable and {lost} lost deals"
    );
}

#[test]
fn a_sweep_over_a_rules_option_matches_runs_at_each_value() {
    use norn::arena::Shard;
    use norn::arena::winrate::WinRateRun;
    use norn::arena::winrate::{Contender, Sweep, SweepReport, compare_policies};
    let run = WinRateRun {
        deals: 30,
        master_seed: 4,
        threads: 2,
    };
    let contenders = [
        Contender::from_spec("random", std::sync::Arc::new(build_agent)).unwrap(),
        Contender::from_spec("counting", std::sync::Arc::new(build_agent)).unwrap(),
    ];
    let sweep = Sweep::parse("track=12..36", Some(12)).unwrap();
    assert_eq!(sweep.values, [12, 24, 36]);
    let runs: Vec<_> = sweep
        .values
        .iter()
        .map(|&value| {
            let rules = rules(&sweep.rules_text("players=2", value));
            compare_policies::<FenrirCards>(&rules, &contenders, None, run, Shard::ALL, &|_| {})
                .unwrap()
        })
        .collect();
    // The point at track 24 is the run at track 24, deal for deal.
    let alone = compare_policies::<FenrirCards>(
        &rules("players=2,track=24"),
        &contenders,
        None,
        run,
        Shard::ALL,
        &|_| {},
    )
    .unwrap();
    assert_eq!(runs[1].won, alone.won);
    let report = SweepReport::new("players=2", &sweep, runs);
    assert_eq!(report.option, "track");
    let counting: Vec<u64> = report
        .points
        .iter()
        .map(|point| point.policies[1].rate.wins)
        .collect();
    assert!(
        counting.windows(2).all(|pair| pair[0] <= pair[1]),
        "a longer track is never harder: {counting:?}"
    );
    assert_eq!(report.csv().lines().count(), 1 + 3 * 2);
    assert_eq!(report.svg().matches("<polyline").count(), 2);
    // The exact solver would read every hand: it is refused for this game.
    assert!(
        Contender::<FenrirCards>::from_spec("exact", std::sync::Arc::new(build_agent)).is_err()
    );
}
