//! The counting rule: which card a player should ask for, judged from its
//! own hand and the public history alone. Honest policies and the playouts
//! of the searches both follow it.

use super::cards::{Card, CardSet, SUITS};
use super::moves::FenrirCardsMove;
use super::options::FenrirCardsRules;
use super::state::{Event, Phase};
use crate::core::MAX_PLAYERS;
use std::cmp::Ordering;

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
            Event::Ask { .. } => {
                for (player, card) in event.shown_lacking(rules) {
                    self.lacking[player].insert(card);
                }
            }
            Event::Draw { player } => self.lacking[player as usize] = CardSet::EMPTY,
            Event::Discard { .. } => {}
        }
    }

    /// The cards `player` is known not to hold.
    pub(crate) fn of(&self, player: usize) -> CardSet {
        self.lacking[player]
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
    match view.phase {
        Phase::FailedAsk { suit, .. } => {
            let suit = CardSet::suit(suit as usize, view.rules.ranks());
            return FenrirCardsMove::Discard(lowest_of(view.rules, view.hand & suit));
        }
        Phase::Stuck => return FenrirCardsMove::Discard(lowest_of(view.rules, view.hand)),
        _ => {}
    }
    let judge = AskJudge::new(view);
    let mut best: Option<(FenrirCardsMove, AskKey)> = None;
    for target in (0..view.rules.players()).filter(|&p| p != view.mover && view.hand_sizes[p] > 0) {
        for card in view.askable.iter() {
            let candidate = judge.key(target, card);
            if best.is_none_or(|(_, best_key)| candidate.preference(&best_key).is_gt()) {
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

/// Sorts `moves`, legal moves of the mover of `view`, by the counting rule's
/// preference, best first: asks by the rule's comparison (ties by target,
/// then card, as [`counting_move`] breaks them), then discards from the
/// lowest card up. The first move is the one [`counting_move`] plays.
pub(crate) fn sort_by_counting(view: &PublicView, moves: &mut [FenrirCardsMove]) {
    let judge = AskJudge::new(view);
    let rules = view.rules;
    moves.sort_by(|a, b| match (*a, *b) {
        (
            FenrirCardsMove::Ask {
                target: a_target,
                card: a_card,
            },
            FenrirCardsMove::Ask {
                target: b_target,
                card: b_card,
            },
        ) => judge
            .key(b_target as usize, b_card)
            .preference(&judge.key(a_target as usize, a_card))
            .then((a_target, a_card).cmp(&(b_target, b_card))),
        (FenrirCardsMove::Discard(a), FenrirCardsMove::Discard(b)) => {
            (rules.value(a), a).cmp(&(rules.value(b), b))
        }
        (FenrirCardsMove::Ask { .. }, FenrirCardsMove::Discard(_)) => Ordering::Less,
        (FenrirCardsMove::Discard(_), FenrirCardsMove::Ask { .. }) => Ordering::Greater,
    });
}

/// The lowest card of `cards`, which must not be empty: the discard that
/// pushes the pawn forward least.
fn lowest_of(rules: &FenrirCardsRules, cards: CardSet) -> Card {
    cards
        .iter()
        .min_by_key(|&card| (rules.value(card), card))
        .expect("the discard comes from a non-empty set")
}

/// How the counting rule rates an ask.
#[derive(Clone, Copy, Debug)]
struct AskKey {
    /// The chance that the asked player holds the card, as `share / total`.
    share: u64,
    total: u64,
    /// The cost of a miss: the lowest card the asker holds in the suit.
    miss_cost: u32,
    /// The card's value, which a hit takes back off the pawn.
    value: u32,
}

impl AskKey {
    /// `Greater` if `self` is the better ask: the higher chance, then the
    /// cheaper miss, then the more valuable card.
    fn preference(&self, other: &AskKey) -> Ordering {
        (self.share * other.total)
            .cmp(&(other.share * self.total))
            .then(other.miss_cost.cmp(&self.miss_cost))
            .then(self.value.cmp(&other.value))
    }
}

/// What the counting rule precomputes to rate the asks of one view.
struct AskJudge<'a> {
    view: &'a PublicView<'a>,
    /// The cards neither held by the mover nor discarded.
    unseen: CardSet,
    /// Per unseen card, the cards held by its possible holders: the chance
    /// that a possible holder has the card is its share of those.
    holders: [u32; 64],
    lowest_in_suit: [u32; SUITS],
}

impl<'a> AskJudge<'a> {
    fn new(view: &'a PublicView<'a>) -> Self {
        let rules = view.rules;
        let ranks = rules.ranks();
        let lacking = &view.lacks.lacking;
        let mut lowest_in_suit = [u32::MAX; SUITS];
        for card in view.hand.iter() {
            let suit = card.suit(ranks);
            lowest_in_suit[suit] = lowest_in_suit[suit].min(rules.value(card));
        }
        // The possible holders of a card are the other players not known to
        // lack it, and the stock.
        let unseen = CardSet::deck(ranks) & !view.hand & !view.discarded;
        let mut holders = [0u32; 64];
        for card in unseen.iter() {
            holders[card.0 as usize] = (0..rules.players())
                .filter(|&p| p != view.mover && !lacking[p].contains(card))
                .map(|p| view.hand_sizes[p] as u32)
                .sum::<u32>()
                + view.stock_left as u32;
        }
        AskJudge {
            view,
            unseen,
            holders,
            lowest_in_suit,
        }
    }

    fn key(&self, target: usize, card: Card) -> AskKey {
        let view = self.view;
        let possible = self.unseen.contains(card) && !view.lacks.lacking[target].contains(card);
        AskKey {
            share: if possible {
                view.hand_sizes[target] as u64
            } else {
                0
            },
            total: self.holders[card.0 as usize].max(1) as u64,
            miss_cost: self.lowest_in_suit[card.suit(view.rules.ranks())],
            value: view.rules.value(card),
        }
    }
}
