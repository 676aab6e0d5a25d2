//! The rules options of Fetters of Fenrir: the players, the deck, the track
//! and every house rule.

use super::cards::{Card, MAX_RANKS, SUITS};
use crate::core::{Declared, Kind, MAX_PLAYERS, Value};

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
    /// How many values `values` lists (0 without it): one per rank.
    values_listed: u8,
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
            values_listed: 0,
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

/// The rules for a stuck player and an empty hand, in the order of their
/// options' words.
const STUCK_RULES: [StuckRule; 2] = [StuckRule::Discard, StuckRule::Lose];
const EMPTY_HAND_RULES: [EmptyHandRule; 2] =
    [EmptyHandRule::DrawAndPlay, EmptyHandRule::DrawAndPass];

/// Every option of [`FenrirCardsRules`], in the order its text is written.
const OPTIONS: &[Declared<FenrirCardsRules>] = &[
    crate::whole_option!(
        "players",
        players,
        2,
        MAX_PLAYERS as u64,
        "the number of players"
    ),
    crate::whole_option!(
        "ranks",
        ranks,
        1,
        MAX_RANKS as u64,
        "cards per suit (the deck has three suits)"
    ),
    crate::whole_option!(
        "track",
        track,
        1,
        u32::MAX as u64,
        "the number of spaces from the wolf's start (space 0) to Odin"
    ),
    Declared {
        key: "values",
        kind: Kind::Optional(
            &Kind::Text("the value of each rank, separated by `/` (`1/1/2/2`)"),
            "rank",
        ),
        help: "how far each rank moves the pawn: `rank`, or one value per rank, e.g. `values=1/1/2/2/3/3`",
        get: |rules| match &rules.values {
            Some(values) => Value::Text(
                values[..usize::from(rules.values_listed)]
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join("/"),
            ),
            None => Value::Inapplicable,
        },
        set: |rules, value| {
            let Value::Text(list) = value else {
                rules.values = None;
                rules.values_listed = 0;
                return Ok(());
            };
            let mut table = [0; MAX_RANKS as usize];
            let mut listed = 0;
            for item in list.split('/').map(str::trim) {
                let value = item
                    .parse()
                    .map_err(|_| format!("`{item}` is not a valid value for `values`"))?;
                *table.get_mut(listed).ok_or_else(|| {
                    format!(
                        "`values` lists more values than a suit has ranks ({MAX_RANKS} at most)"
                    )
                })? = value;
                listed += 1;
            }
            rules.values = Some(table);
            rules.values_listed = listed as u8;
            Ok(())
        },
    },
    crate::whole_option!(
        "hand",
        hand_size,
        1,
        255,
        "two players only: the cards dealt to each player, the rest is the stock (unset: 10 of 36 cards, the same share of other decks)"
    ),
    crate::switch_option!(
        "ask-held",
        ask_held,
        "whether a player may name a card it holds itself"
    ),
    crate::switch_option!(
        "ask-discarded",
        ask_discarded,
        "whether a player may name a card already discarded"
    ),
    crate::choice_option!(
        "stuck",
        stuck,
        STUCK_RULES,
        &["discard", "lose"],
        "what a player with cards but no legal ask does: `discard` a card of its choice, or the gods `lose` (only when another player still holds cards)"
    ),
    crate::choice_option!(
        "empty",
        empty_hand,
        EMPTY_HAND_RULES,
        &["play", "pass"],
        "an empty-handed player who draws at its turn then `play`s or `pass`es"
    ),
];

crate::rules_options!(FenrirCardsRules, "fenrir-cards rules", OPTIONS, {
    /// Checks that the options describe a playable game.
    fn check_together(&self) -> Result<(), String> {
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
        if self.values.is_some() && self.values_listed != self.ranks {
            return Err(format!(
                "`values` lists {} values but the suits have {} ranks",
                self.values_listed, self.ranks
            ));
        }
        Ok(())
    }
});

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

    /// House rule: whether the asker may name a card it holds itself, a certain
    /// failure (default no).
    pub fn ask_held(&self) -> bool {
        self.ask_held
    }

    /// House rule: whether the asker may name a card already discarded, a certain
    /// failure (default yes).
    pub fn ask_discarded(&self) -> bool {
        self.ask_discarded
    }

    /// House rule: what a player who holds cards but has no legal ask does.
    pub fn stuck(&self) -> StuckRule {
        self.stuck
    }

    /// House rule: what a player with an empty hand does after drawing at its turn.
    pub fn empty_hand(&self) -> EmptyHandRule {
        self.empty_hand
    }
}
