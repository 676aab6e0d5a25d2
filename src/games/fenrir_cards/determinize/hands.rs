//! Three or four players: the sampler of the other players' hands (the
//! programme over the unseen cards, suit by suit; see the parent module).
use super::{Count, Memo, StuckNow, at_least, only, pick_weighted, stuck_counts, stuck_now};
use crate::core::{GameRng, MAX_PLAYERS};
use crate::games::fenrir_cards::cards::{Card, CardSet, SUITS};
use crate::games::fenrir_cards::observation::FenrirObservation;
use crate::games::fenrir_cards::setup::Deal;
use crate::games::fenrir_cards::state::{Event, FenrirCards};

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
    pub(super) total: u128,
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
    pub(super) fn new(observation: &FenrirObservation) -> HandsSampler {
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
            // The observer's own entry is never read: its hand is known.
            for (player, card) in event.shown_lacking(rules) {
                forbidden[player].insert(card);
            }
            match *event {
                Event::Ask {
                    asker,
                    target,
                    card,
                    held,
                } => {
                    let (asker, target) = (asker as usize, target as usize);
                    if asker != observer {
                        let suit = card.suit(ranks);
                        if given_up_from(asker, time + 1, suit) == 0 {
                            allowed[asker][suit] &= at_least(1);
                        }
                    }
                    if held {
                        sizes_then[target] -= 1;
                        discarded_of_suit[card.suit(ranks)] += 1;
                        given_up[target].insert(card);
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

    pub(super) fn sample(&self, observation: &FenrirObservation, rng: &mut GameRng) -> FenrirCards {
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
