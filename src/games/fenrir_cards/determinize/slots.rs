//! Two players: the sampler of the slots in time (the other player's
//! initial hand, its draws and the stock; see the parent module).
use super::{
    Count, Memo, StuckNow, at_least, binomial, only, pick_weighted, stuck_counts, stuck_now,
};
use crate::core::{GameRng, MAX_PLAYERS};
use crate::games::fenrir_cards::cards::{Card, CardSet, SUITS};
use crate::games::fenrir_cards::observation::FenrirObservation;
use crate::games::fenrir_cards::setup::Deal;
use crate::games::fenrir_cards::state::{Event, FenrirCards};
use rand::RngExt;
use rand::seq::SliceRandom;

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
    pub(super) stock_rest: usize,
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
    pub(super) total: u128,
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
    pub(super) fn new(observation: &FenrirObservation) -> SlotsSampler {
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

    pub(super) fn sample(&self, observation: &FenrirObservation, rng: &mut GameRng) -> FenrirCards {
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
