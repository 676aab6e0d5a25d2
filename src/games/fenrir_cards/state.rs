//! The game state, the public events, how a game ends, and the [`Game`]
//! implementation.

use super::cards::{Card, CardSet};
use super::moves::FenrirCardsMove;
use super::options::FenrirCardsRules;
use super::setup::Deal;
use crate::core::zobrist::{splitmix64, zobrist_keys};
use crate::core::{
    ChanceVisitor, Game, GameRng, HiddenInformationVisitor, IllegalMove, MAX_PLAYERS, MoveList,
    Outcome, Player, Scoring, Status, Stochastic, hash_and_ply_fields,
};
use rand::seq::SliceRandom;

/// A public event. The history of these, with each player's own cards, is
/// everything a player knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `asker` asked `target` for `card`; `held` is the answer (the card was
    /// then discarded from `target`'s hand).
    Ask {
        /// The player who asked.
        asker: u8,
        /// The player asked.
        target: u8,
        /// The card named.
        card: Card,
        /// Whether `target` held the card (and gave it up).
        held: bool,
    },
    /// `player` discarded `card` after a failed ask, or (`stuck`) because it
    /// had no legal ask.
    Discard {
        /// The player who discarded.
        player: u8,
        /// The card discarded.
        card: Card,
        /// Whether the player discarded because it had no legal ask.
        stuck: bool,
    },
    /// `player` drew the top card of the stock (which card stays private).
    Draw {
        /// The player who drew.
        player: u8,
    },
}

impl Event {
    /// The players this event shows, by public information, not to hold a
    /// card, each with the card: the target of a refused ask, and the
    /// asker where the rules let a player ask only for cards it lacks.
    pub(crate) fn shown_lacking(
        &self,
        rules: &FenrirCardsRules,
    ) -> impl Iterator<Item = (usize, Card)> {
        let (target, asker) = match *self {
            Event::Ask {
                asker,
                target,
                card,
                held,
            } => (
                (!held).then_some((target as usize, card)),
                (!rules.ask_held()).then_some((asker as usize, card)),
            ),
            Event::Discard { .. } | Event::Draw { .. } => (None, None),
        };
        target.into_iter().chain(asker)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Every card was discarded before the pawn reached Odin: the gods win.
    Bound,
    /// The pawn reached Odin: the gods lose.
    ReachedOdin,
    /// A player had no legal ask under `stuck=lose`: the gods lose.
    Stuck,
}

impl EndReason {
    /// The reason's name in records and reports (`bound`, `reached-odin`, `stuck`).
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Bound => "bound",
            EndReason::ReachedOdin => "reached-odin",
            EndReason::Stuck => "stuck",
        }
    }

    /// Whether the gods won (the wolf is bound): every card was discarded
    /// before the pawn reached Odin.
    pub const fn is_win(self) -> bool {
        matches!(self, EndReason::Bound)
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
        /// The suit of the card named, from which the discard must come.
        suit: u8,
        /// The player who said no.
        target: u8,
    },
    /// The player to move holds cards but has no legal ask, and discards any card.
    Stuck,
    /// The game is over, for this reason.
    Over(EndReason),
}

/// Zobrist keys: a card in a player's hand (4 x 48), a card at a stock
/// position (48 x 48), the player to move (4) and the phase (1 + 12 + 1 + 3).
const HAND_KEYS: usize = 0;
const STOCK_KEYS: usize = HAND_KEYS + MAX_PLAYERS * 48;
const MOVER_KEYS: usize = STOCK_KEYS + 48 * 48;
const PHASE_KEYS: usize = MOVER_KEYS + MAX_PLAYERS;
const KEY_COUNT: usize = PHASE_KEYS + 17;
static KEYS: [u64; KEY_COUNT] = zobrist_keys(0x6e6f_726e_6665_7474);

/// The accessors of the public facts, which a state and every player's
/// observation hold alike: the discards, the pawn, the phase and the history.
macro_rules! public_facts {
    () => {
        /// The cards discarded so far.
        pub fn discarded(&self) -> CardSet {
            self.discarded
        }

        /// The pawn's space: 0 is the wolf's start,
        /// [`FenrirCardsRules::track`] is Odin.
        pub fn pawn(&self) -> u32 {
            self.pawn
        }

        /// Where the game stands: the deal, an ask, a discard after a failed
        /// ask or a stuck turn, or the end.
        pub fn phase(&self) -> Phase {
            self.phase
        }

        /// The public history, oldest first.
        pub fn history(&self) -> &[Event] {
            &self.history
        }
    };
}

pub(crate) use public_facts;

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

impl FenrirCards {
    /// The state right after `deal`, player 0 to move (or the first player
    /// with cards). The deal is taken as given: [`Deal::parse`] checks deals
    /// that come from users.
    pub fn from_deal(deal: Deal, rules: FenrirCardsRules) -> FenrirCards {
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

    public_facts!();

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
        Phase::Over(EndReason::Bound) => 14,
        Phase::Over(EndReason::ReachedOdin) => 15,
        Phase::Over(EndReason::Stuck) => 16,
    };
    KEYS[PHASE_KEYS + index]
}

impl Game for FenrirCards {
    type Move = FenrirCardsMove;
    type Rules = FenrirCardsRules;

    const NAME: &'static str = "fenrir-cards";
    const SCORING: Scoring = Scoring::Team;

    /// The state before the deal; [`Stochastic::resolve_chance`] deals.
    fn new(rules: FenrirCardsRules) -> Self {
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
        self.rules.players()
    }

    fn status(&self) -> Status {
        match self.phase {
            Phase::Deal => Status::Chance,
            Phase::Over(end) => Status::Over(Outcome::team(
                self.rules.players(),
                end.is_win(),
                end.name(),
            )),
            Phase::Ask | Phase::FailedAsk { .. } | Phase::Stuck => {
                Status::ToMove(self.to_move as Player)
            }
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<FenrirCardsMove>) {
        moves.clear();
        let hand = self.hands[self.to_move as usize];
        match self.phase {
            Phase::Deal | Phase::Over(_) => {}
            Phase::Ask => self.legal_asks(moves),
            Phase::FailedAsk { suit, .. } => moves.extend(
                (hand & CardSet::suit(suit as usize, self.rules.ranks()))
                    .iter()
                    .map(FenrirCardsMove::Discard),
            ),
            Phase::Stuck => moves.extend(hand.iter().map(FenrirCardsMove::Discard)),
        }
    }

    fn count_legal_moves(&self, _scratch: &mut MoveList<FenrirCardsMove>) -> usize {
        let hand = self.hands[self.to_move as usize];
        match self.phase {
            Phase::Deal | Phase::Over(_) => 0,
            Phase::Ask => {
                self.askable_cards(self.to_move as usize).len() as usize
                    * self.targets(self.to_move as usize).count()
            }
            Phase::FailedAsk { suit, .. } => {
                (hand & CardSet::suit(suit as usize, self.rules.ranks())).len() as usize
            }
            Phase::Stuck => hand.len() as usize,
        }
    }

    fn play(&mut self, mv: FenrirCardsMove) {
        self.ply += 1;
        match mv {
            FenrirCardsMove::Ask { target, card } => self.ask(target, card),
            FenrirCardsMove::Discard(card) => self.discard(card),
        }
    }

    /// Checks a move and explains why it is illegal.
    fn check_move(&self, mv: FenrirCardsMove) -> Result<(), IllegalMove> {
        let ranks = self.rules.ranks();
        let mover = self.to_move as usize;
        let hand = self.hands[mover];
        match (self.phase, mv) {
            (Phase::Deal, _) => Err(IllegalMove::new("the cards are not dealt yet")),
            (Phase::Over(_), _) => Err(IllegalMove::new("the game is already over")),
            (Phase::Ask, FenrirCardsMove::Discard(_)) => {
                Err(IllegalMove::new("the player to move must ask, not discard"))
            }
            (Phase::Ask, FenrirCardsMove::Ask { target, card }) => {
                let target = target as usize;
                if target >= self.rules.players() {
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
                if !self.rules.ask_held() && hand.contains(card) {
                    return Err(IllegalMove::new(format!(
                        "the asker holds {} itself",
                        card.text(ranks)
                    )));
                }
                if !self.rules.ask_discarded() && self.discarded.contains(card) {
                    return Err(IllegalMove::new(format!(
                        "{} has been discarded",
                        card.text(ranks)
                    )));
                }
                Ok(())
            }
            (Phase::FailedAsk { .. } | Phase::Stuck, FenrirCardsMove::Ask { .. }) => {
                Err(IllegalMove::new("the player to move must discard, not ask"))
            }
            (Phase::FailedAsk { suit, .. }, FenrirCardsMove::Discard(card)) => {
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
            (Phase::Stuck, FenrirCardsMove::Discard(card)) => {
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

    hash_and_ply_fields!();

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
        let mut cards: Vec<Card> = CardSet::deck(self.rules.ranks()).iter().collect();
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
