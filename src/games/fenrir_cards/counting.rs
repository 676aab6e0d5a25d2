//! The counting rule: which card a player should ask for, judged from its
//! own hand and the public history alone. Honest policies and the playouts
//! of the searches both follow it.

use super::cards::{Card, CardSet, SUITS};
use super::moves::FenrirCardsMove;
use super::options::FenrirCardsRules;
use super::state::{Event, Phase};
use crate::core::MAX_PLAYERS;

/// Per player, the cards public information says it does not hold now: the
/// cards it said no to or named itself since it last drew.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KnownLacks {
    lacking: [CardSet; MAX_PLAYERS],
}

impl KnownLacks {
    /// Learns from one public event.
    pub(crate) fn observe(&mut self, event: &Event, rules: &FenrirCardsRules) {
        match *event {
            Event::Ask {
                asker,
                target,
                card,
                held,
            } => {
                if !held {
                    self.lacking[target as usize].insert(card);
                }
                if !rules.ask_held() {
                    self.lacking[asker as usize].insert(card);
                }
            }
            Event::Draw { player } => self.lacking[player as usize] = CardSet::EMPTY,
            Event::Discard { .. } => {}
        }
    }
}

/// What the player to move knows: its hand and the public facts.
pub(crate) struct PublicView<'a> {
    pub(crate) rules: &'a FenrirCardsRules,
    pub(crate) mover: usize,
    pub(crate) hand: CardSet,
    pub(crate) hand_sizes: [usize; MAX_PLAYERS],
    pub(crate) stock_left: usize,
    pub(crate) discarded: CardSet,
    pub(crate) lacks: &'a KnownLacks,
    pub(crate) phase: Phase,
    /// The cards the mover may name.
    pub(crate) askable: CardSet,
}

/// The counting rule (see [`CountingPolicy`]) applied to `view`: the
/// mover's move. Asks are compared in the order of the legal move list
/// (by target, then card), the first best one winning.
pub(crate) fn counting_move(view: &PublicView) -> FenrirCardsMove {
    let rules = view.rules;
    let ranks = rules.ranks();
    let hand = view.hand;
    let lowest_of = |cards: CardSet| {
        cards
            .iter()
            .min_by_key(|&card| (rules.value(card), card))
            .expect("the discard comes from a non-empty set")
    };
    match view.phase {
        Phase::FailedAsk { suit, .. } => {
            return FenrirCardsMove::Discard(lowest_of(hand & CardSet::suit(suit as usize, ranks)));
        }
        Phase::Stuck => return FenrirCardsMove::Discard(lowest_of(hand)),
        _ => {}
    }
    let lacking = &view.lacks.lacking;
    let mut lowest_in_suit = [u32::MAX; SUITS];
    for card in hand.iter() {
        let suit = card.suit(ranks);
        lowest_in_suit[suit] = lowest_in_suit[suit].min(rules.value(card));
    }
    // The cards any other player (or the stock) may hold, and for each the
    // cards held by its possible holders: the chance that a possible holder
    // has the card is its share of those.
    let unseen = CardSet::deck(ranks) & !hand & !view.discarded;
    let mut holders = [0u32; 64];
    for card in unseen.iter() {
        holders[card.0 as usize] = (0..rules.players())
            .filter(|&p| p != view.mover && !lacking[p].contains(card))
            .map(|p| view.hand_sizes[p] as u32)
            .sum::<u32>()
            + view.stock_left as u32;
    }
    // (chance as a fraction, the cost of a miss, the card's value)
    let key = |target: usize, card: Card| {
        let possible = unseen.contains(card) && !lacking[target].contains(card);
        let share = if possible {
            view.hand_sizes[target] as u64
        } else {
            0
        };
        let total = holders[card.0 as usize].max(1) as u64;
        (
            share,
            total,
            lowest_in_suit[card.suit(ranks)],
            rules.value(card),
        )
    };
    let better = |a: (u64, u64, u32, u32), b: (u64, u64, u32, u32)| {
        (a.0 * b.1)
            .cmp(&(b.0 * a.1))
            .then(b.2.cmp(&a.2))
            .then(a.3.cmp(&b.3))
            .is_gt()
    };
    let mut best = None;
    for target in (0..rules.players()).filter(|&p| p != view.mover && view.hand_sizes[p] > 0) {
        for card in view.askable.iter() {
            let candidate = key(target, card);
            if best.is_none_or(|(_, best_key)| better(candidate, best_key)) {
                best = Some((
                    FenrirCardsMove::Ask {
                        target: target as u8,
                        card,
                    },
                    candidate,
                ));
            }
        }
    }
    best.expect("a player in the ask phase has a legal ask").0
}
