//! Fetters of Fenrir's moves as action ids, its deal as draws, and what a
//! player sees as a tensor.
//!
//! With `deck` cards (three suits of `ranks`, a card's index being
//! `suit * ranks + rank`) and `players` players, an ask of player `target`
//! for a card is id `target * deck + card`, and a discard is id
//! `players * deck + card`: one decision per move. The deal is one urn of
//! the whole deck, drawn card by card: the first hand's cards, then the
//! next hand's, then the stock from its top.
//!
//! The observation is built from the player's own
//! [`FenrirObservation`](super::FenrirObservation) alone, so that it cannot
//! hold what the player may not know. It is a flat vector of:
//! - the player's hand (`deck` values) and the discards (`deck`);
//! - per player, the cards public information says it does not hold (it
//!   said no to them, or named them itself where asking for a held card is
//!   not allowed, since it last drew: `players * deck`), and the suits it
//!   asked for since it last drew
//!   (`players * 3`: asking for a suit shows the asker holds one);
//! - per player, its hand size as a share of the deck (`players`);
//! - the cards left in the stock as a share of the deck, and the pawn's
//!   share of the track (2);
//! - the player to move and the observer, one-hot (`2 * players`);
//! - the phase: ask, discard after a failed ask of each suit, stuck discard
//!   (5).

use super::KnownLacks;
use super::cards::{Card, CardSet, SUITS};
use super::setup::Deal;
use super::state::{Event, Phase};
use super::{FenrirCards, FenrirCardsMove, FenrirCardsRules};
use crate::core::{ActionPath, DealModel, Encoding, ImperfectInformation, MAX_PLAYERS, Player};

/// The number of phase values in the observation.
const PHASES: usize = 5;

fn deck(rules: &FenrirCardsRules) -> u32 {
    rules.deck_size() as u32
}

fn observation_len(rules: &FenrirCardsRules) -> usize {
    let (deck, players) = (rules.deck_size(), rules.players());
    2 * deck + players * deck + players * SUITS + players + 2 + 2 * players + PHASES
}

fn dealt(rules: &FenrirCardsRules, draws: &[u32]) -> FenrirCards {
    let cards: Vec<Card> = draws.iter().map(|&id| Card(id as u8)).collect();
    let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
    let mut next = 0;
    for (hand, &size) in hands.iter_mut().zip(&rules.hand_sizes()) {
        *hand = cards[next..next + size].iter().copied().collect();
        next += size;
    }
    FenrirCards::from_deal(Deal::new(hands, &cards[next..]), *rules)
}

impl Encoding for FenrirCards {
    fn num_actions(rules: &FenrirCardsRules) -> usize {
        (rules.players() + 1) * rules.deck_size()
    }

    fn action_path(&self, mv: FenrirCardsMove, path: &mut ActionPath) {
        let deck = deck(&self.rules);
        path.push(match mv {
            FenrirCardsMove::Ask { target, card } => u32::from(target) * deck + u32::from(card.0),
            FenrirCardsMove::Discard(card) => {
                self.rules.players() as u32 * deck + u32::from(card.0)
            }
        });
    }

    fn action_name(rules: &FenrirCardsRules, id: u32) -> String {
        let deck = deck(rules);
        let card = Card((id % deck) as u8).text(rules.ranks());
        let target = id / deck;
        if target as usize == rules.players() {
            format!("x{card}")
        } else {
            format!("{target}:{card}")
        }
    }

    fn observation_shape(rules: &FenrirCardsRules) -> Vec<usize> {
        vec![observation_len(rules)]
    }

    fn write_observation(&self, player: Player, _: &[u32], out: &mut [f32]) {
        write_view(&self.observation(player), Some(player), out);
    }

    /// The observation's public values: every part but the observer's hand
    /// and the observer's one-hot, which stay zero.
    fn write_public_observation(&self, _: &[u32], out: &mut [f32]) {
        write_view(&self.observation(0), None, out);
    }

    fn deal_model(rules: &FenrirCardsRules) -> Option<DealModel<Self>> {
        Some(DealModel {
            urns: vec![vec![1; rules.deck_size()]],
            deal: dealt,
            outcome_name: |rules, id| Card(id as u8).text(rules.ranks()),
        })
    }
}

/// Writes the tensor of observation `seen`: `observer`'s view, or with
/// `None` the public values alone.
fn write_view(seen: &super::FenrirObservation, observer: Option<Player>, out: &mut [f32]) {
    let rules = seen.rules();
    let (deck, players) = (rules.deck_size(), rules.players());
    let mut rest = out;
    let mut take = |len: usize| {
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(len);
        rest = tail;
        head
    };
    let mark = |values: &mut [f32], cards: CardSet| {
        for card in cards.iter() {
            values[card.0 as usize] = 1.0;
        }
    };
    let hand = take(deck);
    if observer.is_some() {
        mark(hand, seen.hand());
    }
    mark(take(deck), seen.discarded());
    let mut lacks = KnownLacks::default();
    let mut asked_suits = [[false; SUITS]; MAX_PLAYERS];
    for event in seen.history() {
        lacks.observe(event, rules);
        match *event {
            Event::Ask { asker, card, .. } => {
                asked_suits[asker as usize][card.suit(rules.ranks())] = true;
            }
            Event::Draw { player } => asked_suits[player as usize] = [false; SUITS],
            Event::Discard { .. } => {}
        }
    }
    let lack_values = take(players * deck);
    for (other, values) in lack_values.chunks_exact_mut(deck).enumerate() {
        mark(values, lacks.of(other));
    }
    let suit_values = take(players * SUITS);
    for (values, suits) in suit_values.chunks_exact_mut(SUITS).zip(&asked_suits) {
        for (value, &asked) in values.iter_mut().zip(suits) {
            *value = f32::from(u8::from(asked));
        }
    }
    // Counts as shares of the deck, so that every value is in [0, 1].
    for (other, value) in take(players).iter_mut().enumerate() {
        *value = seen.hand_size(other) as f32 / deck as f32;
    }
    let counters = take(2);
    counters[0] = seen.stock_left() as f32 / deck as f32;
    // The pawn may pass the track's end on the last move.
    counters[1] = (seen.pawn() as f32 / rules.track() as f32).min(1.0);
    let turn = take(2 * players);
    if matches!(
        seen.phase(),
        Phase::Ask | Phase::FailedAsk { .. } | Phase::Stuck
    ) {
        turn[seen.to_move as usize] = 1.0;
    }
    if let Some(observer) = observer {
        turn[players + observer] = 1.0;
    }
    let phase = take(PHASES);
    match seen.phase() {
        Phase::Ask => phase[0] = 1.0,
        Phase::FailedAsk { suit, .. } => phase[1 + suit as usize] = 1.0,
        Phase::Stuck => phase[4] = 1.0,
        _ => {}
    }
}
