//! Exact, uniform sampling of the deals consistent with an observation.
//!
//! A deal is consistent with an observation when it gives the observer the
//! cards it was dealt and drew, and replaying the public history from it
//! gives the same answers, discards and draws. Each sampler counts the
//! consistent deals with a dynamic programme, then draws one deal with every
//! choice weighted by the number of deals that remain below it, so each
//! consistent deal has the same probability and nothing is ever rejected.
//!
//! # Three or four players: the other hands
//! Without a stock, hands only shrink, and the history reduces to facts about
//! the current hands of the other players:
//! - *forbidden cards*: a player asked for a card it did not hold lacks it,
//!   and (unless the rules let a player name its own card) an asker lacks the
//!   card it named, for the rest of the game;
//! - *suit counts*: an asker held a card of the suit it named; unless it has
//!   given up a card of that suit since, it still holds one. A player stuck
//!   without a legal ask while others held cards held, of each suit, either
//!   nothing or every card it could have named; with the cards it gave up
//!   since, that fixes the counts its hand may have now.
//!
//! The programme runs over the unseen cards, suit by suit; its state is the
//! room left in each hand and, within the current suit, how many of its cards
//! each hand received (capped where the constraints stop telling counts
//! apart). The counts are checked when a suit is complete.
//!
//! # Two players: slots in time
//! With a stock a player who lacked a card may have drawn it since, so the
//! constraints depend on time. The observer's unknowns are *slots*: the other
//! player's initial hand (slot 0), each card it drew (slot `j` is its `j`-th
//! draw, at a known point of the history) and the undrawn stock. Every unseen
//! card gets an interval of slots:
//! - a card the other player gave up at some point arrived no later than the
//!   last draw before that point;
//! - a card it lacked at some point (asked for it, or was asked and said no)
//!   arrived after the last draw before that point, unless it had already
//!   been given up.
//!
//! Asks and stuck turns add counts: at each such point, the number of cards
//! of a suit that had arrived, less the ones already given up, must be at
//! least one (an ask) or nothing-or-all (a stuck turn).
//!
//! The programme walks the slots in time and keeps, per suit, how many
//! never-discarded cards ("free" cards, bounded below) and how many
//! discarded ones ("due" cards, bounded above) have arrived, plus which of
//! the rare discarded cards with both bounds have. Free cards are counted as
//! they arrive: all free cards of a suit that are available at a slot are
//! alike for the future. Due cards are counted without naming them: a draw
//! slot reserved for a due card of a suit contributes the number of due cards
//! whose deadline is at or after it that later reserved slots leave, which
//! depends only on how many slots are reserved so far (their total is known),
//! and the initial hand takes the due cards left over. The remaining stock
//! takes the remaining free cards in any order.
//!
//! Counts are exact in `u128`; the rules refuse two-player configurations
//! whose number of deals could overflow it.

mod hands;
mod slots;

use super::cards::SUITS;
use super::observation::FenrirObservation;
use super::state::FenrirCards;
use crate::core::{FastHashMap, GameRng};
use hands::HandsSampler;
use rand::RngExt;
use slots::SlotsSampler;

type Memo<K> = FastHashMap<K, Count>;

/// Deals counted twice: all those consistent with the history, and those
/// among them in which the player to move would have had no legal ask. The
/// observer knows that player can ask (it is in the ask phase), so the
/// consistent deals are the difference, which the samplers draw from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Count {
    all: u128,
    stuck: u128,
}

impl Count {
    const ZERO: Count = Count { all: 0, stuck: 0 };

    fn one(stuck: bool) -> Count {
        Count {
            all: 1,
            stuck: u128::from(stuck),
        }
    }

    /// The consistent deals.
    fn consistent(self) -> u128 {
        self.all - self.stuck
    }

    fn times(self, weight: u128) -> Count {
        Count {
            all: self.all * weight,
            stuck: self.stuck * weight,
        }
    }
}

impl std::ops::Add for Count {
    type Output = Count;
    fn add(self, other: Count) -> Count {
        Count {
            all: self.all + other.all,
            stuck: self.stuck + other.stuck,
        }
    }
}

impl std::iter::Sum for Count {
    fn sum<I: Iterator<Item = Count>>(iter: I) -> Count {
        iter.fold(Count::ZERO, |total, count| total + count)
    }
}

/// What the current phase says about the player to move when it is not the
/// observer, as counts of each suit in its hand: `Required` when it is
/// stuck (it must hold, of each suit, nothing or every card it could name),
/// `Excluded` when it is about to ask (it must not be stuck).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StuckNow {
    Required,
    Excluded,
}

/// How the current phase constrains the player to move, if at all.
fn stuck_now(observation: &FenrirObservation) -> Option<(usize, StuckNow)> {
    use super::state::{EndReason, Phase};
    let rules = &observation.rules;
    let mover = observation.to_move as usize;
    let others_hold_cards =
        (0..rules.players()).any(|p| p != mover && observation.hand_sizes[p] > 0);
    if mover == observation.observer as usize || !others_hold_cards || rules.ask_held() {
        // With `ask-held` a player holding cards can always name one.
        return None;
    }
    match observation.phase {
        Phase::Ask => Some((mover, StuckNow::Excluded)),
        Phase::Stuck | Phase::Over(EndReason::Stuck) => Some((mover, StuckNow::Required)),
        _ => None,
    }
}

/// The counts of each suit a stuck player may hold: none, or every card of
/// the suit it could name (the whole suit, or with `ask-discarded=off` the
/// cards not yet discarded).
fn stuck_counts(
    rules: &super::options::FenrirCardsRules,
    discarded_of_suit: &[usize; SUITS],
) -> [usize; SUITS] {
    std::array::from_fn(|suit| {
        if rules.ask_discarded() {
            rules.ranks() as usize
        } else {
            rules.ranks() as usize - discarded_of_suit[suit]
        }
    })
}

/// Binomial coefficient `C(n, k)` (zero when `k > n`).
fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u128, |product, i| {
        product * (n - i) as u128 / (i + 1) as u128
    })
}

/// Picks an index with probability proportional to `weights[index]`.
fn pick_weighted(weights: &[u128], rng: &mut GameRng) -> usize {
    let total: u128 = weights.iter().sum();
    assert!(total > 0, "a consistent observation has at least one deal");
    let mut ticket = rng.random_range(0..total);
    for (index, &weight) in weights.iter().enumerate() {
        if ticket < weight {
            return index;
        }
        ticket -= weight;
    }
    unreachable!("the ticket is below the total")
}

/// The bit mask of the values `v` in `0..64` with `v >= low`.
fn at_least(low: usize) -> u64 {
    if low >= 64 { 0 } else { !0u64 << low }
}

/// A single-value bit mask (empty if out of range).
fn only(value: usize) -> u64 {
    if value >= 64 { 0 } else { 1 << value }
}

/// The sampler for one observation, built once and kept in it.
#[derive(Debug)]
pub(crate) enum Sampler {
    Hands(Box<HandsSampler>),
    Slots(Box<SlotsSampler>),
}

impl Sampler {
    pub(crate) fn new(observation: &FenrirObservation) -> Sampler {
        if observation.rules.players() == 2 {
            Sampler::Slots(Box::new(SlotsSampler::new(observation)))
        } else {
            Sampler::Hands(Box::new(HandsSampler::new(observation)))
        }
    }

    pub(crate) fn sample(&self, observation: &FenrirObservation, rng: &mut GameRng) -> FenrirCards {
        match self {
            Sampler::Hands(sampler) => sampler.sample(observation, rng),
            Sampler::Slots(sampler) => sampler.sample(observation, rng),
        }
    }

    /// The number of deals consistent with the observation (`None` if it
    /// does not fit in a `u128`).
    pub(crate) fn deal_count(&self) -> Option<u128> {
        match self {
            Sampler::Hands(sampler) => Some(sampler.total),
            Sampler::Slots(sampler) => {
                // Any order of the undrawn stock.
                (1..=sampler.stock_rest as u128)
                    .try_fold(sampler.total, |count, factor| count.checked_mul(factor))
            }
        }
    }
}
