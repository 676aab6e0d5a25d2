//! The determinizer of Fetters of Fenrir against an exhaustive enumeration.
//!
//! A deal is consistent with an observation when it gives the observer the
//! same cards and replaying the game's moves from it, through the checked
//! API, gives the observer the same observation. The tests enumerate every
//! deal of small decks, keep the consistent ones, and check that the sampler
//! counts exactly those, returns only those, and returns each equally often.

use norn::core::{Game, ImperfectInformation, MoveList, Notation, Player, rng_from_seed};
use norn::games::fenrir_cards::{Card, CardSet, Deal, FenrirCards, FenrirCardsRules};
use rand::RngExt;
use std::collections::HashMap;

fn rules(text: &str) -> FenrirCardsRules {
    text.parse().unwrap()
}

/// A random game of `plies` moves (or fewer if it ends) from a random deal.
fn random_game(rules: FenrirCardsRules, seed: u64, plies: usize) -> FenrirCards {
    let mut rng = rng_from_seed(seed);
    let mut state = FenrirCards::new(rules).dealt(&mut rng);
    let mut moves = MoveList::new();
    for _ in 0..plies {
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        state.play(moves[rng.random_range(0..moves.len())]);
    }
    state
}

/// Replays the moves of `game` from `deal`, through the checked API; `None`
/// if a move is illegal there.
fn replay(deal: Deal, game: &FenrirCards) -> Option<FenrirCards> {
    let mut state = FenrirCards::from_deal(deal, *game.rules());
    for mv in game.moves_played() {
        state.try_play(mv).ok()?;
    }
    Some(state)
}

/// Calls `visit` with every `k`-card subset of `cards`.
fn subsets(cards: &[Card], k: usize, visit: &mut dyn FnMut(CardSet)) {
    fn go(cards: &[Card], k: usize, chosen: CardSet, visit: &mut dyn FnMut(CardSet)) {
        if k == 0 {
            visit(chosen);
            return;
        }
        if cards.len() < k {
            return;
        }
        let mut with = chosen;
        with.insert(cards[0]);
        go(&cards[1..], k - 1, with, visit);
        go(&cards[1..], k, chosen, visit);
    }
    go(cards, k, CardSet::EMPTY, visit);
}

/// Calls `visit` with every order of `cards`.
fn orders(cards: &mut Vec<Card>, from: usize, visit: &mut dyn FnMut(&[Card])) {
    if from == cards.len() {
        visit(cards);
        return;
    }
    for i in from..cards.len() {
        cards.swap(from, i);
        orders(cards, from + 1, visit);
        cards.swap(from, i);
    }
}

/// Every deal that keeps `observer`'s dealt hand: the other hands in every
/// way, the stock in every order.
fn deals_keeping(game: &FenrirCards, observer: Player, visit: &mut dyn FnMut(Deal)) {
    let rules = *game.rules();
    let sizes = rules.hand_sizes();
    let own = game.deal().hands()[observer];
    let others: Vec<Player> = (0..rules.players()).filter(|&p| p != observer).collect();
    let rest: Vec<Card> = (CardSet::deck(rules.ranks()) & !own).iter().collect();
    fn place(
        others: &[Player],
        sizes: &[usize],
        left: Vec<Card>,
        hands: [CardSet; 4],
        visit: &mut dyn FnMut([CardSet; 4], Vec<Card>),
    ) {
        let Some((&player, later)) = others.split_first() else {
            visit(hands, left);
            return;
        };
        subsets(&left, sizes[player], &mut |hand| {
            let mut hands = hands;
            hands[player] = hand;
            let remaining: Vec<Card> = left
                .iter()
                .copied()
                .filter(|&c| !hand.contains(c))
                .collect();
            place(later, sizes, remaining, hands, visit);
        });
    }
    let mut hands = [CardSet::EMPTY; 4];
    hands[observer] = own;
    place(&others, &sizes, rest, hands, &mut |hands, mut stock| {
        orders(&mut stock, 0, &mut |order| visit(Deal::new(hands, order)));
    });
}

/// The consistent deals of `observer`'s view of `game`, by their text.
fn consistent_deals(game: &FenrirCards, observer: Player) -> Vec<String> {
    let observation = game.observation(observer);
    let mut found = Vec::new();
    deals_keeping(game, observer, &mut |deal| {
        if let Some(state) = replay(deal, game)
            && state.observation(observer) == observation
        {
            found.push(deal.text(game.rules()));
        }
    });
    found
}

/// A determinization must be a real game: its deal replays, through the
/// checked API, to exactly the determinized state, and the observer sees in
/// it what it saw in the original.
fn assert_consistent(original: &FenrirCards, observer: Player, sampled: &FenrirCards) {
    let rules = *original.rules();
    let deal_text = sampled.deal().text(&rules);
    Deal::parse(&deal_text, &rules).unwrap_or_else(|error| panic!("not a deal: {error}"));
    let replayed = replay(*sampled.deal(), original)
        .unwrap_or_else(|| panic!("the moves are illegal from the sampled deal {deal_text}"));
    assert_eq!(
        &replayed, sampled,
        "the sampled state is not what its deal leads to"
    );
    assert_eq!(replayed.hash(), sampled.hash());
    assert_eq!(
        sampled.observation(observer),
        original.observation(observer),
        "the observer would have seen something else from {deal_text}"
    );
}

/// The upper critical value of the chi-squared distribution with `dof`
/// degrees of freedom at p = 0.001 (Wilson-Hilferty approximation).
fn chi_squared_critical(dof: f64) -> f64 {
    let z = 3.090;
    let a = 2.0 / (9.0 * dof);
    dof * (1.0 - a + z * a.sqrt()).powi(3)
}

/// Checks the count against the enumeration and the samples against the
/// uniform distribution over the consistent deals. Returns the number of
/// consistent deals.
fn check_uniform(
    game: &FenrirCards,
    observer: Player,
    samples_per_deal: usize,
    seed: u64,
) -> usize {
    let consistent = consistent_deals(game, observer);
    let observation = game.observation(observer);
    assert_eq!(
        observation.consistent_deals(),
        Some(consistent.len() as u128),
        "the sampler counts a different number of deals for {}",
        game.position_text()
    );
    if consistent.len() < 2 {
        return consistent.len();
    }
    let index: HashMap<&str, usize> = consistent
        .iter()
        .enumerate()
        .map(|(i, text)| (text.as_str(), i))
        .collect();
    let mut tally = vec![0usize; consistent.len()];
    let mut rng = rng_from_seed(seed);
    let samples = samples_per_deal * consistent.len();
    for _ in 0..samples {
        let sampled = FenrirCards::determinize(&observation, &mut rng);
        let text = sampled.deal().text(game.rules());
        let &i = index
            .get(text.as_str())
            .unwrap_or_else(|| panic!("sampled an inconsistent deal {text}"));
        tally[i] += 1;
    }
    let expected = samples_per_deal as f64;
    let statistic: f64 = tally
        .iter()
        .map(|&count| (count as f64 - expected).powi(2) / expected)
        .sum();
    let critical = chi_squared_critical((consistent.len() - 1) as f64);
    assert!(
        statistic < critical,
        "chi-squared {statistic:.1} >= {critical:.1} over {} deals for {}",
        consistent.len(),
        game.position_text()
    );
    consistent.len()
}

#[test]
fn determinizations_are_consistent_over_random_games() {
    let configurations = [
        "players=2",
        "players=3",
        "players=4",
        "players=2,ask-discarded=off",
        "players=3,ask-discarded=off,track=200",
        "players=4,ask-held=on",
        "players=2,empty=pass,track=200",
        "players=2,ranks=6,ask-discarded=off,track=60",
    ];
    let mut rng = rng_from_seed(99);
    for (c, text) in configurations.iter().enumerate() {
        let rules = rules(text);
        for game_index in 0..12 {
            let full = random_game(rules, 1_000 * c as u64 + game_index, 400);
            // Every prefix of the game, for every player.
            let moves: Vec<_> = full.moves_played().collect();
            let mut state = FenrirCards::from_deal(*full.deal(), rules);
            for ply in 0..=moves.len() {
                if ply % 3 == 0 || ply == moves.len() {
                    for observer in 0..rules.players() {
                        let observation = state.observation(observer);
                        for _ in 0..2 {
                            let sampled = FenrirCards::determinize(&observation, &mut rng);
                            assert_consistent(&state, observer, &sampled);
                        }
                    }
                }
                if ply < moves.len() {
                    state.play(moves[ply]);
                }
            }
        }
    }
}

#[test]
fn counts_match_an_exhaustive_enumeration_on_small_decks() {
    // Every state of random games on decks of 9 cards, for every observer.
    let configurations = [
        "players=2,ranks=3,track=30",
        "players=2,ranks=3,track=30,ask-discarded=off",
        "players=2,ranks=3,track=30,hand=1,empty=pass",
        "players=3,ranks=3,track=30,ask-discarded=off",
        "players=4,ranks=3,track=30",
    ];
    let mut states = 0;
    for (c, text) in configurations.iter().enumerate() {
        let rules = rules(text);
        for game_index in 0..6 {
            let full = random_game(rules, 77 + 100 * c as u64 + game_index, 200);
            let moves: Vec<_> = full.moves_played().collect();
            let mut state = FenrirCards::from_deal(*full.deal(), rules);
            for ply in 0..=moves.len() {
                for observer in 0..rules.players() {
                    let enumerated = consistent_deals(&state, observer).len() as u128;
                    assert_eq!(
                        state.observation(observer).consistent_deals(),
                        Some(enumerated),
                        "{text}: player {observer} after {}",
                        state.position_text()
                    );
                    states += 1;
                }
                if ply < moves.len() {
                    state.play(moves[ply]);
                }
            }
        }
    }
    assert!(states > 300, "only {states} states checked");
}

#[test]
fn two_player_samples_are_uniform() {
    // 12 cards, hands of 3, a stock of 6: draws, lacks and shown suits all
    // shape the set of consistent deals.
    let rules = rules("players=2,ranks=4,track=40");
    let mut checked = 0;
    for seed in 0..40 {
        let game = random_game(rules, seed, 9);
        if game.status().is_over() || game.history().len() < 6 {
            continue;
        }
        let observer = seed as usize % 2;
        if check_uniform(&game, observer, 40, seed) >= 20 {
            checked += 1;
        }
        if checked == 3 {
            return;
        }
    }
    panic!("too few rich positions found");
}

#[test]
fn three_and_four_player_samples_are_uniform() {
    for (text, plies) in [
        ("players=3,ranks=4,track=40", 6),
        ("players=4,ranks=4,track=40", 5),
    ] {
        let rules = rules(text);
        let mut checked = 0;
        for seed in 0..40 {
            let game = random_game(rules, seed, plies);
            if game.status().is_over() {
                continue;
            }
            if check_uniform(&game, 0, 40, seed) >= 10 {
                checked += 1;
            }
            if checked == 2 {
                break;
            }
        }
        assert_eq!(checked, 2, "{text}: too few rich positions found");
    }
}
