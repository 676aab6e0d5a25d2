//! The game state, its rules options and the [`Game`] implementation.

use super::cards::{Card, CardSet, MAX_RANKS, SUITS};
use super::notation::Deal;
use crate::core::zobrist::{splitmix64, zobrist_keys};
use crate::core::{
    ChanceVisitor, Game, GameRng, HiddenInformationVisitor, IllegalMove, MAX_PLAYERS, MoveList,
    Outcome, ParseError, Payoffs, Player, RulesOptions, Scoring, Status, Stochastic,
    parse_key_values, parse_switch, parse_value, unknown_key,
};
use rand::seq::SliceRandom;
use std::fmt;
use std::str::FromStr;

/// What a player who holds cards but has no legal ask does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StuckRule {
    /// It discards a card of its choice as a failed request (the pawn moves
    /// forward) and the turn passes on.
    Discard,
    /// The gods lose at once if the player could ask someone but may name
    /// no card; a player whose partners are all empty still discards.
    Lose,
}

/// What a player with an empty hand does when its turn comes and the stock
/// still has cards (when the stock is empty it is always skipped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyHandRule {
    /// It draws a card and takes its turn.
    DrawAndPlay,
    /// It draws a card and the turn passes on.
    DrawAndPass,
}

/// The rules options of Fetters of Fenrir. `Default` is the standard game
/// for four players; docs/rules/fenrir-cards.md describes every option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FenrirCardsRules {
    /// Players, 2 to 4.
    pub players: usize,
    /// Ranks per suit, 1 to 16 (12 in the standard deck).
    pub ranks: u8,
    /// The value of each rank (spaces the pawn moves), indexed by rank - 1;
    /// `None` means the value of a card is its rank.
    pub values: Option<[u8; MAX_RANKS as usize]>,
    /// The length of the track: the gods lose when the pawn reaches it.
    pub track: u32,
    /// Cards per hand in the two-player game (the rest is the stock); `None`
    /// means 10 with the standard deck and the same share of other decks.
    pub hand_size: Option<u8>,
    /// The asker may name a card it holds itself (a certain failure).
    pub ask_held: bool,
    /// The asker may name a card that has been discarded (a certain failure).
    pub ask_discarded: bool,
    pub stuck: StuckRule,
    pub empty_hand: EmptyHandRule,
}

impl Default for FenrirCardsRules {
    fn default() -> Self {
        FenrirCardsRules {
            players: 4,
            ranks: 12,
            values: None,
            track: 84,
            hand_size: None,
            ask_held: false,
            ask_discarded: true,
            stuck: StuckRule::Discard,
            empty_hand: EmptyHandRule::DrawAndPlay,
        }
    }
}

impl FenrirCardsRules {
    /// The number of cards in the deck.
    pub fn deck_size(&self) -> usize {
        SUITS * self.ranks as usize
    }

    /// The value of `card`: how far it moves the pawn.
    #[inline]
    pub fn value(&self, card: Card) -> u32 {
        let rank = card.rank(self.ranks);
        match &self.values {
            None => rank as u32,
            Some(values) => values[rank as usize - 1] as u32,
        }
    }

    /// The number of cards dealt to each player; the rest of the deck is the
    /// stock. With 3 or 4 players every card is dealt, one at a time from
    /// player 0, so with a deck that does not divide evenly the first players
    /// get one card more.
    pub fn hand_sizes(&self) -> [usize; MAX_PLAYERS] {
        let mut sizes = [0; MAX_PLAYERS];
        if self.players == 2 {
            let hand = self.two_player_hand();
            sizes[0] = hand;
            sizes[1] = hand;
        } else {
            for (player, size) in sizes.iter_mut().enumerate().take(self.players) {
                *size = (self.deck_size() + self.players - 1 - player) / self.players;
            }
        }
        sizes
    }

    /// The number of cards in the stock after the deal.
    pub fn stock_size(&self) -> usize {
        self.deck_size() - self.hand_sizes().iter().sum::<usize>()
    }

    fn two_player_hand(&self) -> usize {
        match self.hand_size {
            Some(hand) => hand as usize,
            // 10 of 36 cards, and the same share of smaller or larger decks.
            None => (self.deck_size() * 10 / 36).max(1),
        }
    }

    /// Whether every count of the two-player determinizer fits in a `u128`:
    /// it counts at most the other player's possible hands times the orders
    /// of the stock.
    fn two_player_deals_fit(&self) -> bool {
        let hand = self.two_player_hand() as u128;
        let unseen = self.deck_size() as u128 - hand;
        let hands = (0..hand).try_fold(1u128, |product, i| {
            product
                .checked_mul(unseen - i)
                .map(|product| product / (i + 1))
        });
        let orders = (1..=self.stock_size() as u128).try_fold(1u128, u128::checked_mul);
        matches!((hands, orders), (Some(hands), Some(orders)) if hands.checked_mul(orders).is_some())
    }
}

impl RulesOptions for FenrirCardsRules {
    /// Checks that the options describe a playable game; rules read from
    /// text are checked already, rules built in code should be.
    fn validate(&self) -> Result<(), String> {
        if !(2..=MAX_PLAYERS).contains(&self.players) {
            return Err(format!(
                "the game has 2 to {MAX_PLAYERS} players, not {}",
                self.players
            ));
        }
        if !(1..=MAX_RANKS).contains(&self.ranks) {
            return Err(format!(
                "a suit has 1 to {MAX_RANKS} ranks, not {}",
                self.ranks
            ));
        }
        if self.track == 0 {
            return Err("the track needs at least one space".into());
        }
        if self.hand_size.is_some() && self.players != 2 {
            return Err("`hand` sets the hand size of the two-player game only".into());
        }
        if self.players == 2 && 2 * self.two_player_hand() > self.deck_size() {
            return Err(format!(
                "two hands of {} cards need more than the {} cards of the deck",
                self.two_player_hand(),
                self.deck_size()
            ));
        }
        if self.players == 2 && !self.two_player_deals_fit() {
            return Err(format!(
                "with {} cards in the stock the two-player deals are too many to count exactly; \
                 deal larger hands",
                self.stock_size()
            ));
        }
        Ok(())
    }
}

impl FromStr for FenrirCardsRules {
    type Err = ParseError;

    /// Reads `players=N,ranks=N,values=rank|V1/V2/...,track=L,hand=N,
    /// ask-held=on|off,ask-discarded=on|off,stuck=discard|lose,
    /// empty=play|pass`; options left out keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        const WHAT: &str = "fenrir-cards rules";
        const KEYS: [&str; 9] = [
            "players",
            "ranks",
            "values",
            "track",
            "hand",
            "ask-held",
            "ask-discarded",
            "stuck",
            "empty",
        ];
        let mut rules = FenrirCardsRules::default();
        let mut value_list = None;
        for (key, value) in parse_key_values(text, WHAT)? {
            match key {
                "players" => rules.players = parse_value(WHAT, text, key, value)?,
                "ranks" => rules.ranks = parse_value(WHAT, text, key, value)?,
                "values" => value_list = (value != "rank").then_some(value),
                "track" => rules.track = parse_value(WHAT, text, key, value)?,
                "hand" => rules.hand_size = Some(parse_value(WHAT, text, key, value)?),
                "ask-held" => rules.ask_held = parse_switch(WHAT, text, key, value)?,
                "ask-discarded" => rules.ask_discarded = parse_switch(WHAT, text, key, value)?,
                "stuck" => {
                    rules.stuck = match value {
                        "discard" => StuckRule::Discard,
                        "lose" => StuckRule::Lose,
                        _ => {
                            return Err(ParseError::new(
                                WHAT,
                                text,
                                format!("`stuck` takes discard or lose, not `{value}`"),
                            ));
                        }
                    }
                }
                "empty" => {
                    rules.empty_hand = match value {
                        "play" => EmptyHandRule::DrawAndPlay,
                        "pass" => EmptyHandRule::DrawAndPass,
                        _ => {
                            return Err(ParseError::new(
                                WHAT,
                                text,
                                format!("`empty` takes play or pass, not `{value}`"),
                            ));
                        }
                    }
                }
                _ => return Err(unknown_key(WHAT, text, key, &KEYS)),
            }
        }
        rules
            .validate()
            .map_err(|problem| ParseError::new(WHAT, text, problem))?;
        if let Some(list) = value_list {
            let values: Vec<u8> = list
                .split('/')
                .map(|item| parse_value(WHAT, text, "values", item.trim()))
                .collect::<Result<_, _>>()?;
            if values.len() != rules.ranks as usize {
                return Err(ParseError::new(
                    WHAT,
                    text,
                    format!(
                        "`values` lists {} values but the suits have {} ranks",
                        values.len(),
                        rules.ranks
                    ),
                ));
            }
            let mut table = [0; MAX_RANKS as usize];
            table[..values.len()].copy_from_slice(&values);
            rules.values = Some(table);
        }
        Ok(rules)
    }
}

impl fmt::Display for FenrirCardsRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "players={},ranks={},track={}",
            self.players, self.ranks, self.track
        )?;
        if let Some(values) = &self.values {
            let list: Vec<String> = values[..self.ranks as usize]
                .iter()
                .map(u8::to_string)
                .collect();
            write!(f, ",values={}", list.join("/"))?;
        }
        if let Some(hand) = self.hand_size {
            write!(f, ",hand={hand}")?;
        }
        let switch = |on: bool| if on { "on" } else { "off" };
        write!(
            f,
            ",ask-held={},ask-discarded={},stuck={},empty={}",
            switch(self.ask_held),
            switch(self.ask_discarded),
            match self.stuck {
                StuckRule::Discard => "discard",
                StuckRule::Lose => "lose",
            },
            match self.empty_hand {
                EmptyHandRule::DrawAndPlay => "play",
                EmptyHandRule::DrawAndPass => "pass",
            }
        )
    }
}

/// A move: an ask, or the discard that follows a failed ask or a turn
/// without a legal ask. The asker is always the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenrirMove {
    /// Ask player `target` for `card`.
    Ask { target: u8, card: Card },
    /// Discard `card` from the mover's hand.
    Discard(Card),
}

/// A public event. The history of these, with each player's own cards, is
/// everything a player knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `asker` asked `target` for `card`; `held` is the answer (the card was
    /// then discarded from `target`'s hand).
    Ask {
        asker: u8,
        target: u8,
        card: Card,
        held: bool,
    },
    /// `player` discarded `card` after a failed ask, or (`stuck`) because it
    /// had no legal ask.
    Discard { player: u8, card: Card, stuck: bool },
    /// `player` drew the top card of the stock (which card stays private).
    Draw { player: u8 },
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// Every card was discarded before the pawn reached Odin: the gods win.
    Bound,
    /// The pawn reached Odin: the gods lose.
    ReachedOdin,
    /// A player had no legal ask under `stuck=lose`: the gods lose.
    Stuck,
}

impl End {
    pub const fn name(self) -> &'static str {
        match self {
            End::Bound => "bound",
            End::ReachedOdin => "reached-odin",
            End::Stuck => "stuck",
        }
    }

    pub const fn is_win(self) -> bool {
        matches!(self, End::Bound)
    }
}

/// Where the game stands: which decision, if any, the player to move faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The cards are not dealt yet (a chance event).
    Deal,
    /// The player to move asks.
    Ask,
    /// The player to move failed an ask of `target` and discards a card of `suit`.
    FailedAsk {
        suit: u8,
        target: u8,
    },
    /// The player to move holds cards but has no legal ask, and discards any card.
    Stuck,
    Over(End),
}

/// Zobrist keys: a card in a player's hand (4 x 48), a card at a stock
/// position (48 x 48), the player to move (4) and the phase (1 + 12 + 1 + 3).
const HAND_KEYS: usize = 0;
const STOCK_KEYS: usize = HAND_KEYS + MAX_PLAYERS * 48;
const MOVER_KEYS: usize = STOCK_KEYS + 48 * 48;
const PHASE_KEYS: usize = MOVER_KEYS + MAX_PLAYERS;
const KEY_COUNT: usize = PHASE_KEYS + 17;
static KEYS: [u64; KEY_COUNT] = zobrist_keys(0x6e6f_726e_6665_7474);

/// A state of Fetters of Fenrir: the deal, the hands, the stock, the pawn
/// and the public history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenrirCards {
    pub(crate) rules: FenrirCardsRules,
    /// The deal the game started from (empty before the deal).
    pub(crate) deal: Deal,
    pub(crate) hands: [CardSet; MAX_PLAYERS],
    /// How many cards have been drawn from the stock.
    pub(crate) drawn: u8,
    pub(crate) discarded: CardSet,
    pub(crate) pawn: u32,
    pub(crate) to_move: u8,
    pub(crate) phase: Phase,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) history: Vec<Event>,
}

/// Stops at once on rules that describe no playable game: dealing them would
/// panic somewhere less clear, or never end (a deck without cards).
fn assert_valid(rules: &FenrirCardsRules) {
    if let Err(problem) = rules.validate() {
        panic!("invalid fenrir-cards rules: {problem}");
    }
}

impl FenrirCards {
    /// The state right after `deal`, player 0 to move (or the first player
    /// with cards).
    ///
    /// # Panics
    /// If `rules` fail [`FenrirCardsRules::validate`].
    pub fn from_deal(deal: Deal, rules: FenrirCardsRules) -> FenrirCards {
        assert_valid(&rules);
        let mut state = FenrirCards {
            rules,
            hands: deal.hands,
            deal,
            drawn: 0,
            discarded: CardSet::EMPTY,
            pawn: 0,
            to_move: 0,
            phase: Phase::Ask,
            ply: 0,
            hash: 0,
            history: Vec::new(),
        };
        state.hash = state.hash_from_scratch();
        state.begin_turn(0);
        state
    }

    /// The deal this game started from.
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// Whether the cards have been dealt.
    pub fn is_dealt(&self) -> bool {
        self.phase != Phase::Deal
    }

    /// The cards `player` holds.
    pub fn hand(&self, player: Player) -> CardSet {
        self.hands[player]
    }

    /// The cards still in the stock, top first.
    pub fn stock(&self) -> &[Card] {
        &self.deal.stock()[self.drawn as usize..]
    }

    pub fn discarded(&self) -> CardSet {
        self.discarded
    }

    /// The pawn's space: 0 is the wolf's start, [`FenrirCardsRules::track`] is Odin.
    pub fn pawn(&self) -> u32 {
        self.pawn
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The public history, oldest first.
    pub fn history(&self) -> &[Event] {
        &self.history
    }

    /// The player whose turn it is (meaningful while the game is on).
    pub fn player_to_move(&self) -> Player {
        self.to_move as Player
    }

    /// Computes the hash from the position alone; `play` keeps it incrementally.
    pub fn hash_from_scratch(&self) -> u64 {
        if self.phase == Phase::Deal {
            return 0;
        }
        let mut hash = 0;
        for (player, hand) in self.hands.iter().enumerate() {
            for card in hand.iter() {
                hash ^= hand_key(player, card);
            }
        }
        for (position, &card) in self.stock().iter().enumerate() {
            hash ^= stock_key(self.drawn as usize + position, card);
        }
        hash ^ pawn_key(self.pawn) ^ mover_key(self.to_move as usize) ^ phase_key(self.phase)
    }
}

#[inline]
pub(crate) fn hand_key(player: usize, card: Card) -> u64 {
    KEYS[HAND_KEYS + player * 48 + card.0 as usize]
}

#[inline]
pub(crate) fn stock_key(position: usize, card: Card) -> u64 {
    KEYS[STOCK_KEYS + position * 48 + card.0 as usize]
}

#[inline]
pub(crate) fn mover_key(player: usize) -> u64 {
    KEYS[MOVER_KEYS + player]
}

#[inline]
pub(crate) fn pawn_key(pawn: u32) -> u64 {
    splitmix64(0x7061_776e ^ pawn as u64).1
}

pub(crate) fn phase_key(phase: Phase) -> u64 {
    let index = match phase {
        Phase::Deal | Phase::Ask => 0,
        Phase::FailedAsk { suit, target } => 1 + suit as usize * MAX_PLAYERS + target as usize,
        Phase::Stuck => 13,
        Phase::Over(End::Bound) => 14,
        Phase::Over(End::ReachedOdin) => 15,
        Phase::Over(End::Stuck) => 16,
    };
    KEYS[PHASE_KEYS + index]
}

impl Game for FenrirCards {
    type Move = FenrirMove;
    type Rules = FenrirCardsRules;

    const NAME: &'static str = "fenrir-cards";
    const SCORING: Scoring = Scoring::Team;

    /// # Panics
    /// If `rules` fail [`FenrirCardsRules::validate`].
    fn new(rules: FenrirCardsRules) -> Self {
        assert_valid(&rules);
        FenrirCards {
            rules,
            deal: Deal::empty(),
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            drawn: 0,
            discarded: CardSet::EMPTY,
            pawn: 0,
            to_move: 0,
            phase: Phase::Deal,
            ply: 0,
            hash: 0,
            history: Vec::new(),
        }
    }

    fn rules(&self) -> &FenrirCardsRules {
        &self.rules
    }

    fn num_players(&self) -> usize {
        self.rules.players
    }

    fn status(&self) -> Status {
        match self.phase {
            Phase::Deal => Status::Chance,
            Phase::Over(end) => Status::Over(Outcome {
                payoffs: Payoffs::shared(self.rules.players, if end.is_win() { 1.0 } else { 0.0 }),
                reason: end.name(),
            }),
            Phase::Ask | Phase::FailedAsk { .. } | Phase::Stuck => {
                Status::ToMove(self.to_move as Player)
            }
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<FenrirMove>) {
        moves.clear();
        let hand = self.hands[self.to_move as usize];
        match self.phase {
            Phase::Deal | Phase::Over(_) => {}
            Phase::Ask => self.legal_asks(moves),
            Phase::FailedAsk { suit, .. } => moves.extend(
                (hand & CardSet::suit(suit as usize, self.rules.ranks))
                    .iter()
                    .map(FenrirMove::Discard),
            ),
            Phase::Stuck => moves.extend(hand.iter().map(FenrirMove::Discard)),
        }
    }

    fn count_legal_moves(&self, _scratch: &mut MoveList<FenrirMove>) -> usize {
        let hand = self.hands[self.to_move as usize];
        match self.phase {
            Phase::Deal | Phase::Over(_) => 0,
            Phase::Ask => {
                self.askable_cards(self.to_move as usize).len() as usize
                    * self.targets(self.to_move as usize).count()
            }
            Phase::FailedAsk { suit, .. } => {
                (hand & CardSet::suit(suit as usize, self.rules.ranks)).len() as usize
            }
            Phase::Stuck => hand.len() as usize,
        }
    }

    fn play(&mut self, mv: FenrirMove) {
        self.ply += 1;
        match mv {
            FenrirMove::Ask { target, card } => self.ask(target, card),
            FenrirMove::Discard(card) => self.discard(card),
        }
    }

    /// Checks a move and explains why it is illegal.
    fn check_move(&self, mv: FenrirMove) -> Result<(), IllegalMove> {
        let ranks = self.rules.ranks;
        let mover = self.to_move as usize;
        let hand = self.hands[mover];
        match (self.phase, mv) {
            (Phase::Deal, _) => Err(IllegalMove::new("the cards are not dealt yet")),
            (Phase::Over(_), _) => Err(IllegalMove::new("the game is already over")),
            (Phase::Ask, FenrirMove::Discard(_)) => {
                Err(IllegalMove::new("the player to move must ask, not discard"))
            }
            (Phase::Ask, FenrirMove::Ask { target, card }) => {
                let target = target as usize;
                if target >= self.rules.players {
                    return Err(IllegalMove::new(format!("there is no player {target}")));
                }
                if target == mover {
                    return Err(IllegalMove::new("a player cannot ask itself"));
                }
                if self.hands[target].is_empty() {
                    return Err(IllegalMove::new(format!("player {target} holds no cards")));
                }
                if (hand & CardSet::suit(card.suit(ranks), ranks)).is_empty() {
                    return Err(IllegalMove::new(format!(
                        "the asker holds no card of the suit of {}",
                        card.text(ranks)
                    )));
                }
                if !self.rules.ask_held && hand.contains(card) {
                    return Err(IllegalMove::new(format!(
                        "the asker holds {} itself",
                        card.text(ranks)
                    )));
                }
                if !self.rules.ask_discarded && self.discarded.contains(card) {
                    return Err(IllegalMove::new(format!(
                        "{} has been discarded",
                        card.text(ranks)
                    )));
                }
                Ok(())
            }
            (Phase::FailedAsk { .. } | Phase::Stuck, FenrirMove::Ask { .. }) => {
                Err(IllegalMove::new("the player to move must discard, not ask"))
            }
            (Phase::FailedAsk { suit, .. }, FenrirMove::Discard(card)) => {
                if !hand.contains(card) {
                    Err(IllegalMove::new(format!(
                        "the player to move does not hold {}",
                        card.text(ranks)
                    )))
                } else if card.suit(ranks) != suit as usize {
                    Err(IllegalMove::new(format!(
                        "after a failed ask the discard must be of the suit asked for, not {}",
                        card.text(ranks)
                    )))
                } else {
                    Ok(())
                }
            }
            (Phase::Stuck, FenrirMove::Discard(card)) => {
                if hand.contains(card) {
                    Ok(())
                } else {
                    Err(IllegalMove::new(format!(
                        "the player to move does not hold {}",
                        card.text(ranks)
                    )))
                }
            }
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn payoff_range(&self) -> (f64, f64) {
        (0.0, 1.0)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn with_chance<V: ChanceVisitor<Self>>(visitor: V) -> Option<V::Output> {
        Some(visitor.visit())
    }

    fn with_hidden_information<V: HiddenInformationVisitor<Self>>(visitor: V) -> Option<V::Output> {
        Some(visitor.visit())
    }
}

impl Stochastic for FenrirCards {
    /// Shuffles the deck and deals it: the hands in turn from the top, the
    /// rest as the stock in shuffled order.
    fn resolve_chance(&mut self, rng: &mut GameRng) {
        debug_assert_eq!(self.phase, Phase::Deal, "only the deal is left to chance");
        let mut cards: Vec<Card> = CardSet::deck(self.rules.ranks).iter().collect();
        cards.shuffle(rng);
        let sizes = self.rules.hand_sizes();
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        let mut next = 0;
        for (hand, &size) in hands.iter_mut().zip(&sizes) {
            *hand = cards[next..next + size].iter().copied().collect();
            next += size;
        }
        let deal = Deal::new(hands, &cards[next..]);
        *self = FenrirCards::from_deal(deal, self.rules);
    }
}
