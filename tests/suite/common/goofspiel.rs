//! Goofspiel: a small game of simultaneous secret bids, used to check that
//! joint moves run through the whole library (conformance suite, perft,
//! the play loop, tournaments, logs and replays).
//!
//! Each player holds the cards 1..N. Each round a prize card of the same
//! ranks is turned up (the highest left, or a random one); both players bid
//! a card in secret, the higher bid takes the prize's points and a tie
//! takes nothing; bid cards are spent. After N rounds the player with more
//! points wins (+1/-1), equal points draw.

#![allow(dead_code)]

use norn::core::zobrist::zobrist_keys;
use norn::core::{
    ChanceVisitor, Configurable, Declared, Evaluate, Game, GameRng, Kind, MoveList, Notation,
    Outcome, ParseError, Payoffs, Player, RulesOptions, Scoring, Setup, Simultaneous,
    SimultaneousVisitor, Status, Stochastic, Value, read_options, write_options,
};
use rand::RngExt;
use std::fmt;
use std::str::FromStr;

/// The most cards a hand may hold: hands are bit sets of a `u16`.
const MAX_CARDS: u8 = 13;

/// How the prizes are turned up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrizeOrder {
    /// The highest prize left: no chance at all.
    Descending,
    /// A uniformly random prize left: a chance event each round.
    Random,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoofspielRules {
    pub cards: u8,
    pub order: PrizeOrder,
}

impl Default for GoofspielRules {
    fn default() -> Self {
        GoofspielRules {
            cards: 4,
            order: PrizeOrder::Descending,
        }
    }
}

impl RulesOptions for GoofspielRules {}

const PRIZE_ORDERS: [PrizeOrder; 2] = [PrizeOrder::Descending, PrizeOrder::Random];

impl Configurable for GoofspielRules {
    const WHAT: &'static str = "goofspiel rules";
    const OPTIONS: &'static [Declared<Self>] = &[
        Declared {
            key: "cards",
            kind: Kind::Whole {
                min: 1,
                max: MAX_CARDS as u64,
            },
            help: "cards in each hand and prizes",
            get: |rules| Value::Whole(rules.cards.into()),
            set: |rules, value| {
                rules.cards = value.whole() as u8;
                Ok(())
            },
        },
        Declared {
            key: "order",
            kind: Kind::Choice(&["descending", "random"]),
            help: "the highest prize left is turned up, or a random one",
            get: |rules| Value::chosen(&PRIZE_ORDERS, &rules.order),
            set: |rules, value| {
                rules.order = value.choose(&PRIZE_ORDERS);
                Ok(())
            },
        },
    ];
}

impl FromStr for GoofspielRules {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        read_options(text)
    }
}

impl fmt::Display for GoofspielRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_options(self))
    }
}

/// Keys: each card in each hand, each prize left, the prize up, each score.
static KEYS: [u64; 4 * 16 + 2 * 128] = zobrist_keys(0x676f_6f66);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goofspiel {
    rules: GoofspielRules,
    /// Bit `c - 1` set: card `c` is still in the hand.
    hands: [u16; 2],
    /// The prizes not turned up yet.
    prizes: u16,
    /// The prize of this round, once turned up.
    prize: Option<u8>,
    scores: [u8; 2],
    ply: u32,
    hash: u64,
}

fn cards_of(set: u16) -> impl Iterator<Item = u8> {
    (1..=16u8).filter(move |card| set >> (card - 1) & 1 != 0)
}

fn card_list(set: u16) -> String {
    let cards: Vec<String> = cards_of(set).map(|card| card.to_string()).collect();
    if cards.is_empty() {
        "-".to_string()
    } else {
        cards.join(",")
    }
}

impl Goofspiel {
    fn full(cards: u8) -> u16 {
        ((1u32 << cards) - 1) as u16
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for (player, &hand) in self.hands.iter().enumerate() {
            for card in cards_of(hand) {
                hash ^= KEYS[player * 16 + card as usize];
            }
        }
        for card in cards_of(self.prizes) {
            hash ^= KEYS[2 * 16 + card as usize];
        }
        if let Some(prize) = self.prize {
            hash ^= KEYS[3 * 16 + prize as usize];
        }
        for (player, &score) in self.scores.iter().enumerate() {
            hash ^= KEYS[4 * 16 + player * 128 + score as usize];
        }
        hash
    }

    /// Turns up the prize when the order leaves nothing to chance.
    fn settle(&mut self) {
        if self.prize.is_none() && self.prizes != 0 && self.rules.order == PrizeOrder::Descending {
            let highest = cards_of(self.prizes).last().expect("a prize is left");
            self.turn_up(highest);
        }
        self.hash = self.hash_from_scratch();
    }

    fn turn_up(&mut self, prize: u8) {
        self.prizes &= !(1 << (prize - 1));
        self.prize = Some(prize);
    }
}

impl Game for Goofspiel {
    type Move = u8;
    type Rules = GoofspielRules;
    const NAME: &'static str = "goofspiel";
    const SCORING: Scoring = Scoring::WinLoss;

    fn new(rules: GoofspielRules) -> Self {
        let full = Goofspiel::full(rules.cards);
        let mut state = Goofspiel {
            rules,
            hands: [full; 2],
            prizes: full,
            prize: None,
            scores: [0; 2],
            ply: 0,
            hash: 0,
        };
        state.settle();
        state
    }

    fn rules(&self) -> &GoofspielRules {
        &self.rules
    }

    fn num_players(&self) -> usize {
        2
    }

    fn status(&self) -> Status {
        if self.hands[0] == 0 {
            let payoffs = match self.scores[0].cmp(&self.scores[1]) {
                std::cmp::Ordering::Greater => Payoffs::win_for(0),
                std::cmp::Ordering::Less => Payoffs::win_for(1),
                std::cmp::Ordering::Equal => Payoffs::shared(2, 0.0),
            };
            return Status::Over(Outcome {
                payoffs,
                reason: "cards-spent",
            });
        }
        match self.prize {
            None => Status::Chance,
            Some(_) => Status::Simultaneous,
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<u8>) {
        moves.clear();
    }

    fn play(&mut self, _mv: u8) {
        unreachable!("goofspiel has no single-player moves")
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn payoff_range(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn with_chance<V: ChanceVisitor<Self>>(visitor: V) -> Option<V::Output> {
        Some(visitor.visit())
    }

    fn with_simultaneous_moves<V: SimultaneousVisitor<Self>>(visitor: V) -> Option<V::Output> {
        Some(visitor.visit())
    }
}

impl Simultaneous for Goofspiel {
    fn player_moves(&self, player: Player, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.status() == Status::Simultaneous {
            moves.extend(cards_of(self.hands[player]));
        }
    }

    fn play_joint(&mut self, joint: &[u8]) {
        let prize = self.prize.take().expect("a prize is up");
        for (hand, &card) in self.hands.iter_mut().zip(joint) {
            *hand &= !(1 << (card - 1));
        }
        match joint[0].cmp(&joint[1]) {
            std::cmp::Ordering::Greater => self.scores[0] += prize,
            std::cmp::Ordering::Less => self.scores[1] += prize,
            std::cmp::Ordering::Equal => {}
        }
        self.ply += 1;
        self.settle();
    }
}

impl Stochastic for Goofspiel {
    fn resolve_chance(&mut self, rng: &mut GameRng) {
        let left: Vec<u8> = cards_of(self.prizes).collect();
        self.turn_up(left[rng.random_range(0..left.len())]);
        self.settle();
    }
}

impl Evaluate for Goofspiel {
    /// The point lead as a share of all points still possible.
    fn evaluate(&self, player: Player) -> f64 {
        if let Status::Over(outcome) = self.status() {
            return outcome.payoffs.get(player);
        }
        let total = f64::from(self.rules.cards) * f64::from(self.rules.cards + 1) / 2.0;
        let lead = f64::from(self.scores[player]) - f64::from(self.scores[1 - player]);
        0.9 * lead / total
    }
}

/// A position as written, `hands=1,2,3/1,2,4 prizes=1 prize=3 score=4:0`
/// (`-` for none), before the rules check it. Cards are read as a set of
/// up to 16 cards; the rules say how many there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoofspielSetup {
    hands: [u16; 2],
    prizes: u16,
    prize: Option<u8>,
    scores: [u8; 2],
}

impl Setup for GoofspielSetup {}

impl FromStr for GoofspielSetup {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: &str| ParseError::new("position", text, problem);
        let cards = |list: &str| -> Result<u16, ParseError> {
            if list == "-" {
                return Ok(0);
            }
            let mut set = 0u16;
            for card in list.split(',') {
                let card: u8 = card.parse().map_err(|_| bad("a card is a number"))?;
                if !(1..=16).contains(&card) || set >> (card - 1) & 1 != 0 {
                    return Err(bad("a card out of range or given twice"));
                }
                set |= 1 << (card - 1);
            }
            Ok(set)
        };
        let mut fields = text.split_whitespace();
        let mut field = |name: &str| {
            fields
                .next()
                .and_then(|field| field.strip_prefix(name))
                .ok_or_else(|| bad("expected hands=, prizes=, prize= and score="))
        };
        let (hand0, hand1) = field("hands=")?
            .split_once('/')
            .ok_or_else(|| bad("two hands, separated by /"))?;
        let hands = [cards(hand0)?, cards(hand1)?];
        let prizes = cards(field("prizes=")?)?;
        let prize = match field("prize=")? {
            "-" => None,
            number => Some(
                number
                    .parse::<u8>()
                    .map_err(|_| bad("the prize is a number"))?,
            ),
        };
        let (score0, score1) = field("score=")?
            .split_once(':')
            .ok_or_else(|| bad("the score is A:B"))?;
        let score = |text: &str| text.parse::<u8>().map_err(|_| bad("a score is a number"));
        let scores = [score(score0)?, score(score1)?];
        Ok(GoofspielSetup {
            hands,
            prizes,
            prize,
            scores,
        })
    }
}

impl fmt::Display for GoofspielSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "hands={}/{} prizes={} prize={} score={}:{}",
            card_list(self.hands[0]),
            card_list(self.hands[1]),
            card_list(self.prizes),
            self.prize
                .map_or("-".to_string(), |prize| prize.to_string()),
            self.scores[0],
            self.scores[1]
        )
    }
}

impl Notation for Goofspiel {
    type Setup = GoofspielSetup;

    fn from_setup(setup: &GoofspielSetup, rules: GoofspielRules) -> Result<Self, ParseError> {
        let bad = |problem: &str| Err(ParseError::new("position", &setup.to_string(), problem));
        let GoofspielSetup {
            hands,
            prizes,
            prize,
            scores,
        } = *setup;
        let deck = Goofspiel::full(rules.cards);
        if (hands[0] | hands[1] | prizes) & !deck != 0 {
            return bad("a card out of range or given twice");
        }
        let points = u16::from(rules.cards) * u16::from(rules.cards + 1) / 2;
        if u16::from(scores[0]) + u16::from(scores[1]) > points {
            return bad("more points than the prizes hold");
        }
        if hands[0].count_ones() != hands[1].count_ones() {
            return bad("both hands hold as many cards");
        }
        let rounds_left = hands[0].count_ones();
        if prizes.count_ones() + u32::from(prize.is_some()) != rounds_left {
            return bad("one prize per round left");
        }
        if let Some(prize) = prize
            && (!(1..=rules.cards).contains(&prize) || prizes >> (prize - 1) & 1 != 0)
        {
            return bad("the prize up is out of range or also left");
        }
        let mut state = Goofspiel {
            rules,
            hands,
            prizes,
            prize,
            scores,
            ply: 0,
            hash: 0,
        };
        state.settle();
        Ok(state)
    }

    fn setup(&self) -> GoofspielSetup {
        GoofspielSetup {
            hands: self.hands,
            prizes: self.prizes,
            prize: self.prize,
            scores: self.scores,
        }
    }

    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }

    /// A card any player could bid here; which player's bid it is, the
    /// joint move decides.
    fn parse_move(&self, text: &str) -> Result<u8, ParseError> {
        let card: u8 = text
            .trim()
            .parse()
            .map_err(|_| ParseError::new("move", text, "a bid is a card number"))?;
        if !(1..=self.rules.cards).contains(&card) {
            return Err(ParseError::new("move", text, "no such card"));
        }
        Ok(card)
    }

    fn diagram(&self) -> String {
        format!("{}\n", self.position_text())
    }
}
