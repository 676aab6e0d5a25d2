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

use super::cards::{Card, CardSet, SUITS};
use super::observation::FenrirObservation;
use super::setup::Deal;
use super::state::{Event, FenrirCards};
use crate::core::{FastHashMap, GameRng, MAX_PLAYERS};
use rand::RngExt;
use rand::seq::SliceRandom;

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

/// Three or four players: the unseen cards go to the other players' hands.
#[derive(Debug)]
pub(crate) struct HandsSampler {
    /// The players other than the observer.
    others: Vec<usize>,
    /// The unseen cards, suit by suit.
    cards: Vec<Card>,
    /// For each position `0..=cards.len()`, the suit whose cards end just
    /// before it (its counts are checked there).
    closes: Vec<Option<usize>>,
    ranks: u8,
    forbidden: [CardSet; MAX_PLAYERS],
    /// Per other player and suit: the counts of that suit its hand may have now.
    allowed: [[u64; SUITS]; MAX_PLAYERS],
    /// The player to move and its allowed counts if it were stuck, when the
    /// deals in which it is stuck are to be excluded.
    excluded: Option<(usize, [u64; SUITS])>,
    /// Per other player and suit: the count beyond which no constraint
    /// tells counts apart.
    saturation: [[u8; SUITS]; MAX_PLAYERS],
    /// The cards each player has given up, to rebuild its dealt hand.
    given_up: [CardSet; MAX_PLAYERS],
    /// The state before the first card.
    start: HandsState,
    /// Completions from each (position, state), for the reachable states.
    memo: Vec<Memo<u64>>,
    total: u128,
}

/// The state of the hands programme: room left per other player, this
/// suit's (capped) count per other player, indexed like `others`, and
/// whether the deal can still be one of the excluded ones.
#[derive(Clone, Copy, Debug)]
struct HandsState {
    room: [u8; 3],
    counts: [u8; 3],
    excludable: bool,
}

impl HandsState {
    fn key(self) -> u64 {
        (0..3).fold(u64::from(self.excludable) << 36, |key, i| {
            key | (self.room[i] as u64) << (6 * i) | (self.counts[i] as u64) << (18 + 6 * i)
        })
    }
}

impl HandsSampler {
    fn new(observation: &FenrirObservation) -> HandsSampler {
        let rules = &observation.rules;
        let ranks = rules.ranks();
        let observer = observation.observer as usize;
        let others: Vec<usize> = (0..rules.players()).filter(|&p| p != observer).collect();
        let unseen = CardSet::deck(ranks) & !observation.hand & !observation.discarded;
        let cards: Vec<Card> = unseen.iter().collect();
        let mut closes = vec![None; cards.len() + 1];
        for i in 1..=cards.len() {
            let suit = cards[i - 1].suit(ranks);
            if i == cards.len() || cards[i].suit(ranks) != suit {
                closes[i] = Some(suit);
            }
        }

        let history = &observation.history;
        // The cards of a suit a player gives up from a point of the history on.
        let given_up_from = |player: usize, from: usize, suit: usize| -> usize {
            history[from..]
                .iter()
                .filter(|event| match **event {
                    Event::Ask {
                        target,
                        card,
                        held: true,
                        ..
                    } => target as usize == player && card.suit(ranks) == suit,
                    Event::Discard {
                        player: by, card, ..
                    } => by as usize == player && card.suit(ranks) == suit,
                    _ => false,
                })
                .count()
        };
        let mut forbidden = [CardSet::EMPTY; MAX_PLAYERS];
        let mut allowed = [[!0u64; SUITS]; MAX_PLAYERS];
        let mut given_up = [CardSet::EMPTY; MAX_PLAYERS];
        let mut sizes_then = rules.hand_sizes();
        let mut discarded_of_suit = [0usize; SUITS];
        for (time, event) in history.iter().enumerate() {
            match *event {
                Event::Ask {
                    asker,
                    target,
                    card,
                    held,
                } => {
                    let (asker, target) = (asker as usize, target as usize);
                    if asker != observer {
                        if !rules.ask_held() {
                            forbidden[asker].insert(card);
                        }
                        let suit = card.suit(ranks);
                        if given_up_from(asker, time + 1, suit) == 0 {
                            allowed[asker][suit] &= at_least(1);
                        }
                    }
                    if held {
                        sizes_then[target] -= 1;
                        discarded_of_suit[card.suit(ranks)] += 1;
                        given_up[target].insert(card);
                    } else {
                        forbidden[target].insert(card);
                    }
                }
                Event::Discard {
                    player,
                    card,
                    stuck,
                } => {
                    let player = player as usize;
                    let others_held_cards =
                        (0..rules.players()).any(|other| other != player && sizes_then[other] > 0);
                    if stuck && player != observer && others_held_cards && !rules.ask_held() {
                        let whole = stuck_counts(rules, &discarded_of_suit);
                        for (suit, &whole) in whole.iter().enumerate() {
                            let since = given_up_from(player, time, suit);
                            let now_none = if since == 0 { only(0) } else { 0 };
                            let now_all = whole.checked_sub(since).map_or(0, only);
                            allowed[player][suit] &= now_none | now_all;
                        }
                    }
                    sizes_then[player] -= 1;
                    discarded_of_suit[card.suit(ranks)] += 1;
                    given_up[player].insert(card);
                }
                Event::Draw { .. } => {}
            }
        }
        let mut excluded = None;
        if let Some((mover, kind)) = stuck_now(observation) {
            let whole = stuck_counts(rules, &discarded_of_suit);
            let stuck: [u64; SUITS] = std::array::from_fn(|suit| only(0) | only(whole[suit]));
            match kind {
                StuckNow::Required => {
                    for suit in 0..SUITS {
                        allowed[mover][suit] &= stuck[suit];
                    }
                }
                StuckNow::Excluded => {
                    excluded = Some((
                        mover,
                        std::array::from_fn(|suit| allowed[mover][suit] & stuck[suit]),
                    ));
                }
            }
        }

        let mut sizes = [0u8; MAX_PLAYERS];
        let mut saturation = [[0u8; SUITS]; MAX_PLAYERS];
        for &player in &others {
            sizes[player] = observation.hand_sizes[player];
            for suit in 0..SUITS {
                let unseen_of_suit = (unseen & CardSet::suit(suit, ranks)).len() as usize;
                let most = unseen_of_suit.min(sizes[player] as usize);
                let mut masks = vec![allowed[player][suit]];
                if let Some((mover, stuck)) = excluded
                    && mover == player
                {
                    masks.push(stuck[suit]);
                }
                let same_as_most = |value: usize| {
                    masks
                        .iter()
                        .all(|mask| mask >> value & 1 == mask >> most & 1)
                };
                let mut cap = most;
                while cap > 0 && same_as_most(cap - 1) {
                    cap -= 1;
                }
                saturation[player][suit] = cap as u8;
            }
        }

        let mut room = [0; 3];
        for (room, &player) in room.iter_mut().zip(&others) {
            *room = sizes[player];
        }
        let mut sampler = HandsSampler {
            others,
            cards,
            closes,
            ranks,
            forbidden,
            allowed,
            excluded,
            saturation,
            given_up,
            start: HandsState {
                room,
                counts: [0; 3],
                excludable: false,
            },
            memo: Vec::new(),
            total: 0,
        };
        let empty_suits: Vec<usize> = (0..SUITS)
            .filter(|&suit| (unseen & CardSet::suit(suit, ranks)).is_empty())
            .collect();
        let possible = empty_suits.iter().all(|&suit| {
            sampler
                .others
                .iter()
                .all(|&player| sampler.allowed[player][suit] & 1 != 0)
        });
        if possible {
            sampler.start.excludable = match sampler.excluded {
                Some((_, stuck)) => empty_suits.iter().all(|&suit| stuck[suit] & 1 != 0),
                None => false,
            };
            let mut memo = vec![Memo::default(); sampler.cards.len() + 1];
            sampler.total = sampler
                .completions(&mut memo, 0, sampler.start)
                .consistent();
            sampler.memo = memo;
        }
        sampler
    }

    /// Applies the checks of a completed suit at `position`; `None` if the
    /// history rules the state out.
    fn close_suit(&self, position: usize, mut state: HandsState) -> Option<HandsState> {
        if let Some(suit) = self.closes[position] {
            for (i, &player) in self.others.iter().enumerate() {
                if self.allowed[player][suit] >> state.counts[i] & 1 == 0 {
                    return None;
                }
                if let Some((mover, stuck)) = self.excluded
                    && mover == player
                    && stuck[suit] >> state.counts[i] & 1 == 0
                {
                    state.excludable = false;
                }
            }
            state.counts = [0; 3];
        }
        Some(state)
    }

    /// The state after giving the card at `position` to `others[i]`, if allowed.
    fn give(&self, position: usize, state: HandsState, i: usize) -> Option<HandsState> {
        let player = self.others[i];
        let card = self.cards[position];
        if state.room[i] == 0 || self.forbidden[player].contains(card) {
            return None;
        }
        let mut next = state;
        next.room[i] -= 1;
        let cap = self.saturation[player][card.suit(self.ranks)];
        next.counts[i] = (next.counts[i] + 1).min(cap);
        Some(next)
    }

    /// The deals that place the cards from `position` on, given `state`.
    fn completions(&self, memo: &mut [Memo<u64>], position: usize, state: HandsState) -> Count {
        let Some(state) = self.close_suit(position, state) else {
            return Count::ZERO;
        };
        if position == self.cards.len() {
            return if state.room == [0; 3] {
                Count::one(state.excludable)
            } else {
                Count::ZERO
            };
        }
        let key = state.key();
        if let Some(&count) = memo[position].get(&key) {
            return count;
        }
        let count = (0..self.others.len())
            .filter_map(|i| self.give(position, state, i))
            .map(|next| self.completions(memo, position + 1, next))
            .sum();
        memo[position].insert(key, count);
        count
    }

    /// The memoised consistent completions (the programme has visited every
    /// state a sample can reach).
    fn known_completions(&self, position: usize, state: HandsState) -> u128 {
        let Some(state) = self.close_suit(position, state) else {
            return 0;
        };
        if position == self.cards.len() {
            return u128::from(state.room == [0; 3] && !state.excludable);
        }
        self.memo[position]
            .get(&state.key())
            .map_or(0, |count| count.consistent())
    }

    fn sample(&self, observation: &FenrirObservation, rng: &mut GameRng) -> FenrirCards {
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        let mut state = self.start;
        let mut weights = Vec::with_capacity(3);
        for position in 0..self.cards.len() {
            state = self
                .close_suit(position, state)
                .expect("samples follow counted states");
            weights.clear();
            weights.extend((0..self.others.len()).map(|i| {
                self.give(position, state, i)
                    .map_or(0, |next| self.known_completions(position + 1, next))
            }));
            let i = pick_weighted(&weights, rng);
            state = self
                .give(position, state, i)
                .expect("a chosen player can take the card");
            hands[self.others[i]].insert(self.cards[position]);
        }
        let observer = observation.observer as usize;
        hands[observer] = observation.hand;
        let mut dealt = [CardSet::EMPTY; MAX_PLAYERS];
        for player in 0..observation.rules.players() {
            dealt[player] = hands[player] | self.given_up[player];
        }
        dealt[observer] = observation.initial_hand;
        FenrirCards::from_observation_and_deal(observation, Deal::new(dealt, &[]), hands)
    }
}

/// What fills a draw slot of the other player in a sampled path.
#[derive(Clone, Copy, Debug)]
enum SlotFill {
    /// A card never discarded, of this suit.
    Free(usize),
    /// A discarded card without a lower bound, of this suit.
    Due(usize),
    /// The discarded card with both bounds of this index.
    Bounded(usize),
}

/// Two players: the other player's initial hand, its draws and the stock.
#[derive(Debug)]
pub(crate) struct SlotsSampler {
    hand_size: usize,
    /// The other player's draws so far.
    draws: usize,
    /// Every draw so far, in order: whether the other player made it.
    draw_by_other: Vec<bool>,
    /// Cards in the stock that nobody has drawn yet.
    stock_rest: usize,
    /// Free cards per suit with the first slot each may occupy (`draws + 1`
    /// for the undrawn stock only).
    free: [Vec<(Card, usize)>; SUITS],
    /// `free_available[suit][j]`: free cards of the suit allowed in slot `j`.
    free_available: [Vec<usize>; SUITS],
    /// Due cards per suit with the last slot each may occupy.
    due: [Vec<(Card, usize)>; SUITS],
    /// `due_before[suit][j]`: due cards of the suit whose last slot is before `j`.
    due_before: [Vec<usize>; SUITS],
    /// Discarded cards with both bounds: card, first slot, last slot.
    bounded: Vec<(Card, usize, usize)>,
    /// Bits of `bounded` per suit.
    bounded_of_suit: [u128; SUITS],
    /// Per slot: the bounded cards whose last slot it is.
    bounded_due_at: Vec<u128>,
    /// Per slot and suit: the allowed numbers of cards of the suit that have
    /// arrived by the end of the slot.
    arrived_allowed: Vec<[u64; SUITS]>,
    /// The arrivals, after the last slot, that would leave the other player
    /// stuck now, when such deals are to be excluded.
    excluded: Option<[u64; SUITS]>,
    /// The initial hand's compositions, each with its number of consistent deals.
    openings: Vec<(SlotsState, u128)>,
    memo: Vec<Memo<u128>>,
    total: u128,
}

/// The state of the slots programme after a slot: per suit, how many free
/// cards have arrived and how many arrival slots are reserved for due cards,
/// and which bounded cards have arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SlotsState {
    free: [u8; SUITS],
    due: [u8; SUITS],
    bounded: u128,
}

impl SlotsState {
    fn key(&self) -> u128 {
        let mut key = self.bounded << 36;
        for suit in 0..SUITS {
            key |= (self.free[suit] as u128) << (6 * suit)
                | (self.due[suit] as u128) << (18 + 6 * suit);
        }
        key
    }
}

impl SlotsSampler {
    fn new(observation: &FenrirObservation) -> SlotsSampler {
        let rules = &observation.rules;
        let ranks = rules.ranks();
        let observer = observation.observer as usize;
        let other = 1 - observer;
        let deck = CardSet::deck(ranks);
        let known: CardSet =
            observation.initial_hand | observation.own_draws.iter().copied().collect();
        let unseen = deck & !known;

        let mut slot = 0usize;
        let mut draw_by_other = Vec::new();
        let mut lower = [0usize; 64];
        let mut upper: [Option<usize>; 64] = [None; 64];
        let mut arrived_allowed = vec![[!0u64; SUITS]];
        let mut other_gave_up = [0usize; SUITS];
        let mut discarded_of_suit = [0usize; SUITS];
        let mut observer_size = rules.hand_sizes()[observer];
        // The other player lacked `card`: unless it has given the card up
        // already, the card arrives after the current slot if ever.
        let lacks =
            |card: Card, slot: usize, lower: &mut [usize; 64], upper: &[Option<usize>; 64]| {
                if unseen.contains(card) && upper[card.0 as usize].is_none() {
                    lower[card.0 as usize] = slot + 1;
                }
            };
        for event in &observation.history {
            match *event {
                Event::Draw { player } => {
                    let by_other = player as usize == other;
                    draw_by_other.push(by_other);
                    if by_other {
                        slot += 1;
                        arrived_allowed.push([!0u64; SUITS]);
                    } else {
                        observer_size += 1;
                    }
                }
                Event::Ask {
                    asker, card, held, ..
                } => {
                    let suit = card.suit(ranks);
                    if asker as usize == observer {
                        if held {
                            upper[card.0 as usize] = Some(slot);
                            other_gave_up[suit] += 1;
                            discarded_of_suit[suit] += 1;
                        } else {
                            lacks(card, slot, &mut lower, &upper);
                        }
                    } else {
                        arrived_allowed[slot][suit] &= at_least(other_gave_up[suit] + 1);
                        if !rules.ask_held() {
                            lacks(card, slot, &mut lower, &upper);
                        }
                        if held {
                            observer_size -= 1;
                            discarded_of_suit[suit] += 1;
                        }
                    }
                }
                Event::Discard {
                    player,
                    card,
                    stuck,
                } => {
                    let suit = card.suit(ranks);
                    if player as usize == other {
                        if stuck && observer_size > 0 && !rules.ask_held() {
                            let whole = stuck_counts(rules, &discarded_of_suit);
                            for (s, allowed) in arrived_allowed[slot].iter_mut().enumerate() {
                                *allowed &=
                                    only(other_gave_up[s]) | only(other_gave_up[s] + whole[s]);
                            }
                        }
                        upper[card.0 as usize] = Some(slot);
                        other_gave_up[suit] += 1;
                    } else {
                        observer_size -= 1;
                    }
                    discarded_of_suit[suit] += 1;
                }
            }
        }
        let draws = slot;
        let mut excluded = None;
        if let Some((_, kind)) = stuck_now(observation) {
            let whole = stuck_counts(rules, &discarded_of_suit);
            let stuck: [u64; SUITS] =
                std::array::from_fn(|s| only(other_gave_up[s]) | only(other_gave_up[s] + whole[s]));
            match kind {
                StuckNow::Required => {
                    for (allowed, stuck) in arrived_allowed[draws].iter_mut().zip(stuck) {
                        *allowed &= stuck;
                    }
                }
                StuckNow::Excluded => excluded = Some(stuck),
            }
        }

        let mut free: [Vec<(Card, usize)>; SUITS] = Default::default();
        let mut due: [Vec<(Card, usize)>; SUITS] = Default::default();
        let mut bounded = Vec::new();
        let mut consistent = true;
        for card in unseen.iter() {
            let suit = card.suit(ranks);
            let low = lower[card.0 as usize];
            match upper[card.0 as usize] {
                None => free[suit].push((card, low)),
                Some(high) if low == 0 => due[suit].push((card, high)),
                Some(high) => {
                    consistent &= low <= high;
                    bounded.push((card, low, high));
                }
            }
        }
        let free_available: [Vec<usize>; SUITS] = std::array::from_fn(|suit| {
            (0..=draws)
                .map(|j| free[suit].iter().filter(|&&(_, low)| low <= j).count())
                .collect()
        });
        let due_before: [Vec<usize>; SUITS] = std::array::from_fn(|suit| {
            (0..=draws)
                .map(|j| due[suit].iter().filter(|&&(_, high)| high < j).count())
                .collect()
        });
        let mut bounded_of_suit = [0u128; SUITS];
        let mut bounded_due_at = vec![0u128; draws + 1];
        for (index, &(card, _, high)) in bounded.iter().enumerate() {
            bounded_of_suit[card.suit(ranks)] |= 1 << index;
            bounded_due_at[high] |= 1 << index;
        }
        let stock_rest = rules.stock_size() - draw_by_other.len();

        let mut sampler = SlotsSampler {
            hand_size: rules.hand_sizes()[other],
            draws,
            draw_by_other,
            stock_rest,
            free,
            free_available,
            due,
            due_before,
            bounded,
            bounded_of_suit,
            bounded_due_at,
            arrived_allowed,
            excluded,
            openings: Vec::new(),
            memo: Vec::new(),
            total: 0,
        };
        if consistent {
            sampler.count();
        }
        sampler
    }

    /// Counts every consistent path, filling the memo and the openings.
    fn count(&mut self) {
        let mut memo = vec![Memo::default(); self.draws + 1];
        let mut openings = Vec::new();
        let free_cap: [usize; SUITS] = std::array::from_fn(|s| self.free_available[s][0]);
        let caps = [
            free_cap[0],
            free_cap[1],
            free_cap[2],
            self.due[0].len(),
            self.due[1].len(),
            self.due[2].len(),
        ];
        // Every way to split the initial hand into free and due cards per suit.
        fn split(
            part: usize,
            left: usize,
            caps: &[usize; 2 * SUITS],
            parts: &mut [usize; 2 * SUITS],
            visit: &mut dyn FnMut(&[usize; 2 * SUITS]),
        ) {
            if part == 2 * SUITS - 1 {
                if left <= caps[part] {
                    parts[part] = left;
                    visit(parts);
                }
                return;
            }
            for take in 0..=left.min(caps[part]) {
                parts[part] = take;
                split(part + 1, left - take, caps, parts, visit);
            }
        }
        let mut parts = [0usize; 2 * SUITS];
        split(0, self.hand_size, &caps, &mut parts, &mut |parts| {
            let state = SlotsState {
                free: std::array::from_fn(|s| parts[s] as u8),
                due: std::array::from_fn(|s| parts[SUITS + s] as u8),
                bounded: 0,
            };
            if !self.passes_checks(0, &state) {
                return;
            }
            let weight: u128 = (0..SUITS)
                .map(|s| binomial(free_cap[s], parts[s]))
                .product();
            let count = self
                .completions(&mut memo, 0, state)
                .times(weight)
                .consistent();
            if count > 0 {
                openings.push((state, count));
            }
        });
        self.total = openings.iter().map(|&(_, count)| count).sum();
        self.openings = openings;
        self.memo = memo;
    }

    /// Whether the state after slot `slot` meets the counts of that slot,
    /// the deadlines of bounded cards, and leaves enough draw slots for the
    /// discarded cards still to arrive.
    fn passes_checks(&self, slot: usize, state: &SlotsState) -> bool {
        let arrived = self.arrived(state);
        if (0..SUITS).any(|suit| self.arrived_allowed[slot][suit] >> arrived[suit] & 1 == 0) {
            return false;
        }
        if self.bounded_due_at[slot] & !state.bounded != 0 {
            return false;
        }
        let due_left: usize = (0..SUITS)
            .map(|s| self.due[s].len() - state.due[s] as usize)
            .sum();
        let bounded_left = self.bounded.len() - state.bounded.count_ones() as usize;
        due_left + bounded_left <= self.draws - slot
    }

    /// The cards of each suit that have arrived in the other player's hand.
    fn arrived(&self, state: &SlotsState) -> [usize; SUITS] {
        std::array::from_fn(|suit| {
            (state.free[suit] as usize
                + state.due[suit] as usize
                + (state.bounded & self.bounded_of_suit[suit]).count_ones() as usize)
                .min(63)
        })
    }

    /// The ways to fill draw slot `slot` from `state`: the fill, its weight
    /// and the next state (checks not applied).
    fn fills(&self, slot: usize, state: &SlotsState, out: &mut Vec<(SlotFill, u128, SlotsState)>) {
        out.clear();
        for suit in 0..SUITS {
            let available = self.free_available[suit][slot];
            let placed = state.free[suit] as usize;
            if available > placed {
                let mut next = *state;
                next.free[suit] += 1;
                out.push((SlotFill::Free(suit), (available - placed) as u128, next));
            }
            let reserved = state.due[suit] as usize + 1;
            if reserved <= self.due[suit].len() && reserved > self.due_before[suit][slot] {
                let mut next = *state;
                next.due[suit] += 1;
                out.push((
                    SlotFill::Due(suit),
                    (reserved - self.due_before[suit][slot]) as u128,
                    next,
                ));
            }
        }
        for (index, &(_, low, high)) in self.bounded.iter().enumerate() {
            if state.bounded >> index & 1 == 0 && (low..=high).contains(&slot) {
                let mut next = *state;
                next.bounded |= 1 << index;
                out.push((SlotFill::Bounded(index), 1, next));
            }
        }
    }

    /// The count of a state after the last draw slot: one deal if it places
    /// every discarded card, which is excluded if it leaves the other player
    /// stuck while it is known to be able to ask.
    fn final_count(&self, state: &SlotsState) -> Count {
        let complete = (0..SUITS).all(|s| state.due[s] as usize == self.due[s].len())
            && state.bounded.count_ones() as usize == self.bounded.len();
        if !complete {
            return Count::ZERO;
        }
        let arrived = self.arrived(state);
        let stuck = self
            .excluded
            .is_some_and(|stuck| (0..SUITS).all(|s| stuck[s] >> arrived[s] & 1 == 1));
        Count::one(stuck)
    }

    /// The deals that fill the draw slots after `slot`, given the state after it.
    fn completions(&self, memo: &mut [Memo<u128>], slot: usize, state: SlotsState) -> Count {
        if slot == self.draws {
            return self.final_count(&state);
        }
        let key = state.key();
        if let Some(&count) = memo[slot].get(&key) {
            return count;
        }
        let mut fills = Vec::new();
        self.fills(slot + 1, &state, &mut fills);
        let count = fills
            .iter()
            .filter(|(_, _, next)| self.passes_checks(slot + 1, next))
            .map(|&(_, weight, next)| self.completions(memo, slot + 1, next).times(weight))
            .sum();
        memo[slot].insert(key, count);
        count
    }

    fn known_completions(&self, slot: usize, state: &SlotsState) -> u128 {
        if slot == self.draws {
            return self.final_count(state).consistent();
        }
        self.memo[slot]
            .get(&state.key())
            .map_or(0, |count| count.consistent())
    }

    fn sample(&self, observation: &FenrirObservation, rng: &mut GameRng) -> FenrirCards {
        // The path: the initial hand's composition, then what fills each draw slot.
        let weights: Vec<u128> = self.openings.iter().map(|&(_, count)| count).collect();
        let opening = self.openings[pick_weighted(&weights, rng)].0;
        let mut state = opening;
        let mut path = Vec::with_capacity(self.draws);
        let mut fills = Vec::new();
        let mut weights = Vec::new();
        for slot in 1..=self.draws {
            self.fills(slot, &state, &mut fills);
            weights.clear();
            weights.extend(fills.iter().map(|&(_, weight, next)| {
                if self.passes_checks(slot, &next) {
                    weight * self.known_completions(slot, &next)
                } else {
                    0
                }
            }));
            let (fill, _, next) = fills[pick_weighted(&weights, rng)];
            path.push(fill);
            state = next;
        }

        // The cards: free ones as they arrive, due ones latest slot first.
        let mut initial = CardSet::EMPTY;
        let mut slot_cards = vec![Card(0); self.draws + 1];
        let mut free_left: [Vec<(Card, usize)>; SUITS] = self.free.clone();
        for (suit, cards) in free_left.iter_mut().enumerate() {
            for _ in 0..opening.free[suit] {
                let index = take_uniform(cards, |&(_, low)| low == 0, rng);
                initial.insert(cards.swap_remove(index).0);
            }
        }
        let mut due_slots: [Vec<usize>; SUITS] = Default::default();
        for (j, fill) in path.iter().enumerate() {
            let slot = j + 1;
            match *fill {
                SlotFill::Free(suit) => {
                    let cards = &mut free_left[suit];
                    let index = take_uniform(cards, |&(_, low)| low <= slot, rng);
                    slot_cards[slot] = cards.swap_remove(index).0;
                }
                SlotFill::Due(suit) => due_slots[suit].push(slot),
                SlotFill::Bounded(index) => slot_cards[slot] = self.bounded[index].0,
            }
        }
        for (due, slots) in self.due.iter().zip(&due_slots) {
            let mut cards = due.clone();
            for &slot in slots.iter().rev() {
                let index = take_uniform(&cards, |&(_, high)| high >= slot, rng);
                slot_cards[slot] = cards.swap_remove(index).0;
            }
            for (card, _) in cards {
                initial.insert(card);
            }
        }
        let mut rest: Vec<Card> = free_left.iter().flatten().map(|&(card, _)| card).collect();
        rest.sort_unstable();
        rest.shuffle(rng);

        let mut stock = Vec::with_capacity(self.draw_by_other.len() + rest.len());
        let (mut own, mut others) = (observation.own_draws.iter(), slot_cards[1..].iter());
        for &by_other in &self.draw_by_other {
            let next = if by_other { others.next() } else { own.next() };
            stock.push(*next.expect("one card per recorded draw"));
        }
        stock.extend(rest);

        let observer = observation.observer as usize;
        let other = 1 - observer;
        let other_ever: CardSet = initial | slot_cards[1..].iter().copied().collect();
        let mut dealt = [CardSet::EMPTY; MAX_PLAYERS];
        dealt[observer] = observation.initial_hand;
        dealt[other] = initial;
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        hands[observer] = observation.hand;
        hands[other] = other_ever & !observation.discarded;
        debug_assert_eq!(initial.len() as usize, self.hand_size);
        FenrirCards::from_observation_and_deal(observation, Deal::new(dealt, &stock), hands)
    }
}

/// The index of a uniformly chosen item of `items` that satisfies `eligible`.
fn take_uniform<T>(items: &[T], eligible: impl Fn(&T) -> bool, rng: &mut GameRng) -> usize {
    let count = items.iter().filter(|item| eligible(item)).count();
    assert!(count > 0, "the counts guarantee an eligible card");
    let chosen = rng.random_range(0..count);
    items
        .iter()
        .enumerate()
        .filter(|(_, item)| eligible(item))
        .nth(chosen)
        .map(|(index, _)| index)
        .expect("chosen below the count")
}
