//! The rules options of Fetters of Fenrir: the players, the deck, the track
//! and every house rule.

use super::cards::{Card, MAX_RANKS, SUITS};
use crate::core::{
    MAX_PLAYERS, ParseError, RulesOptions, parse_choice, parse_key_values, parse_switch,
    parse_value, unknown_key,
};
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
    players: usize,
    /// Ranks per suit, 1 to 16 (12 in the standard deck).
    ranks: u8,
    /// The value of each rank (spaces the pawn moves), indexed by rank - 1;
    /// `None` means the value of a card is its rank.
    values: Option<[u8; MAX_RANKS as usize]>,
    /// The length of the track: the gods lose when the pawn reaches it.
    track: u32,
    /// Cards per hand in the two-player game (the rest is the stock); `None`
    /// means 10 with the standard deck and the same share of other decks.
    hand_size: Option<u8>,
    /// The asker may name a card it holds itself (a certain failure).
    ask_held: bool,
    /// The asker may name a card that has been discarded (a certain failure).
    ask_discarded: bool,
    stuck: StuckRule,
    empty_hand: EmptyHandRule,
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
                    rules.stuck = parse_choice(
                        WHAT,
                        text,
                        key,
                        value,
                        &[("discard", StuckRule::Discard), ("lose", StuckRule::Lose)],
                    )?
                }
                "empty" => {
                    rules.empty_hand = parse_choice(
                        WHAT,
                        text,
                        key,
                        value,
                        &[
                            ("play", EmptyHandRule::DrawAndPlay),
                            ("pass", EmptyHandRule::DrawAndPass),
                        ],
                    )?
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

impl FenrirCardsRules {
    /// Players, 2 to 4.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Ranks per suit.
    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// The value of each rank, if not the rank itself.
    pub fn values(&self) -> Option<[u8; MAX_RANKS as usize]> {
        self.values
    }

    /// The length of the track.
    pub fn track(&self) -> u32 {
        self.track
    }

    /// The hand size of the two-player game, if set.
    pub fn hand_size(&self) -> Option<u8> {
        self.hand_size
    }

    pub fn ask_held(&self) -> bool {
        self.ask_held
    }

    pub fn ask_discarded(&self) -> bool {
        self.ask_discarded
    }

    pub fn stuck(&self) -> StuckRule {
        self.stuck
    }

    pub fn empty_hand(&self) -> EmptyHandRule {
        self.empty_hand
    }
}
