//! The team's policies, built from spec strings.
//!
//! | spec | policy | honest |
//! |------|--------|--------|
//! | `random` | a uniformly random legal move | yes |
//! | `counting` | [`CountingPolicy`]: the ask most likely to succeed by public information | yes |
//! | `ismcts:iters=N[,c=X]` | information-set MCTS over determinizations | yes |
//! | `open-hand[:iters=N,c=X,exact=NODES]` | [`OpenHandAgent`]: the exact solver, else UCT, on the full state | **no, it sees every hand** |
//!
//! Honest policies are [`HonestPolicy`] values wrapped in an [`HonestAgent`],
//! so they only ever receive an observation. `open-hand` is a reference that
//! reads the state itself; [`sees_hidden_cards`] tells reports to label it.

use super::cards::{Card, CardSet, SUITS};
use super::observation::FenrirObservation;
use super::playout::{FenrirPlayout, PlayoutMoves};
use super::state::{Event, FenrirCards, FenrirCardsRules, FenrirMove, Phase};
use crate::agents::{Agent, Decision, HonestAgent, HonestPolicy, HonestRandom, IsmctsPolicy};
use crate::core::{
    Game, MAX_PLAYERS, ParseError, parse_exploration, parse_key_values, parse_value, unknown_key,
};
use crate::search::{CoopSolver, Ismcts, IsmctsConfig, Verdict};

/// The policy specs [`build_policy`] accepts.
pub const POLICY_KINDS: [&str; 4] = [
    "random",
    "counting",
    "ismcts:iters=N[,c=X]",
    "open-hand[:iters=N,c=X,exact=NODES]",
];

/// Builds a policy for the whole team from its spec and seed.
///
/// # Errors
/// If the spec names no policy or has bad options; the error lists what is valid.
pub fn build_policy(spec: &str, seed: u64) -> Result<Box<dyn Agent<FenrirCards>>, ParseError> {
    const WHAT: &str = "fenrir-cards policy";
    let spec = spec.trim();
    let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
    // The options of the searches; `exact` only for the open-hand reference.
    let search_options = |default: FenrirPlayout,
                          exact: Option<u64>|
     -> Result<(IsmctsConfig, FenrirPlayout, Option<u64>), ParseError> {
        let mut config = IsmctsConfig::default();
        let mut playout = default;
        let mut exact = exact;
        let choice = |key: &str, value: &str, valid: &str| {
            ParseError::new(WHAT, spec, format!("`{key}` takes {valid}, not `{value}`"))
        };
        for (key, value) in parse_key_values(options, WHAT)? {
            match key {
                "iters" => config.iterations = parse_value(WHAT, spec, key, value)?,
                "c" => config.exploration = parse_exploration(WHAT, spec, key, value)?,
                "playout" => {
                    playout.moves = match value {
                        "counting" => PlayoutMoves::Counting,
                        "open" => PlayoutMoves::OpenHand,
                        "random" => PlayoutMoves::Random,
                        _ => return Err(choice(key, value, "counting, open or random")),
                    }
                }
                "score" => {
                    playout.margin = match value {
                        "margin" => true,
                        "win" => false,
                        _ => return Err(choice(key, value, "margin or win")),
                    }
                }
                "exact" if exact.is_some() => exact = Some(parse_value(WHAT, spec, key, value)?),
                _ => {
                    let mut valid = vec!["iters", "c", "playout", "score"];
                    if exact.is_some() {
                        valid.push("exact");
                    }
                    return Err(unknown_key(WHAT, spec, key, &valid));
                }
            }
        }
        if config.iterations == 0 {
            return Err(ParseError::new(WHAT, spec, "`iters` must be at least 1"));
        }
        Ok((config, playout, exact))
    };
    let no_options = || {
        if options.is_empty() {
            Ok(())
        } else {
            Err(ParseError::new(
                WHAT,
                spec,
                format!("`{kind}` takes no options"),
            ))
        }
    };
    let owned = spec.to_string();
    match kind {
        "random" => {
            no_options()?;
            Ok(Box::new(HonestAgent::new(
                owned,
                seed,
                Box::new(|seed| Box::new(HonestRandom::new(seed))),
            )))
        }
        "counting" => {
            no_options()?;
            Ok(Box::new(HonestAgent::new(
                owned,
                seed,
                Box::new(|_| Box::new(CountingPolicy)),
            )))
        }
        "ismcts" => {
            let (config, playout, _) = search_options(FenrirPlayout::honest(), None)?;
            let name = owned.clone();
            Ok(Box::new(HonestAgent::new(
                owned,
                seed,
                Box::new(move |seed| {
                    Box::new(IsmctsPolicy::new(
                        name.clone(),
                        config.clone(),
                        playout.clone(),
                        seed,
                    ))
                }),
            )))
        }
        "open-hand" => {
            let (config, playout, exact) =
                search_options(FenrirPlayout::open_hand(), Some(OPEN_HAND_SOLVER_BUDGET))?;
            Ok(Box::new(OpenHandAgent {
                spec: owned,
                search: Ismcts::with_playout(config, playout, seed),
                solver_budget: exact.unwrap_or(0),
                solver: CoopSolver::with_table_bits(SOLVER_TABLE_BITS),
                line: Vec::new(),
                line_state: None,
                solver_gave_up: false,
            }))
        }
        _ => Err(ParseError::new(
            WHAT,
            spec,
            format!(
                "unknown policy (valid policies: {})",
                POLICY_KINDS.join(", ")
            ),
        )),
    }
}

/// Whether the policy of `spec` reads hidden cards (a reference, not a fair
/// player): reports must say so.
pub fn sees_hidden_cards(spec: &str) -> bool {
    let kind = spec.trim().split(':').next().unwrap_or("");
    kind == "open-hand"
}

/// Asks for the card most likely to be in the asked player's hand, by what
/// public information has not ruled out, and gives up the lowest card it can.
///
/// For each card it neither holds nor has seen discarded, the possible
/// holders are the other players not known to lack it (a player who said no
/// to it, or named it itself, since that player last drew) and the stock if
/// it has cards. The chance that a possible holder has the card is taken as
/// its share of the cards the possible holders hold. The ask with the highest
/// chance wins; ties go to the ask whose failure costs least (the lowest card
/// the asker holds in that suit), then to the more valuable card, which pulls
/// the pawn back further. On a failed ask, and when stuck, it discards its
/// lowest card.
pub struct CountingPolicy;

impl HonestPolicy<FenrirCards> for CountingPolicy {
    fn spec(&self) -> &str {
        "counting"
    }

    fn decide(&mut self, observation: &FenrirObservation) -> FenrirMove {
        let rules = observation.rules();
        let mut lacks = KnownLacks::default();
        for event in observation.history() {
            lacks.observe(event, rules);
        }
        let view = PublicView {
            rules,
            mover: observation.observer(),
            hand: observation.hand(),
            hand_sizes: std::array::from_fn(|p| observation.hand_size(p)),
            stock_left: observation.stock_left(),
            discarded: observation.discarded(),
            lacks: &lacks,
            phase: observation.phase(),
            askable: observation.askable_cards(),
        };
        counting_move(&view)
    }
}

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
            Event::Ask {
                asker,
                target,
                card,
                held,
            } => {
                if !held {
                    self.lacking[target as usize].insert(card);
                }
                if !rules.ask_held {
                    self.lacking[asker as usize].insert(card);
                }
            }
            Event::Draw { player } => self.lacking[player as usize] = CardSet::EMPTY,
            Event::Discard { .. } => {}
        }
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
pub(crate) fn counting_move(view: &PublicView) -> FenrirMove {
    let rules = view.rules;
    let ranks = rules.ranks;
    let hand = view.hand;
    let lowest_of = |cards: CardSet| {
        cards
            .iter()
            .min_by_key(|&card| (rules.value(card), card))
            .expect("the discard comes from a non-empty set")
    };
    match view.phase {
        Phase::FailedAsk { suit, .. } => {
            return FenrirMove::Discard(lowest_of(hand & CardSet::suit(suit as usize, ranks)));
        }
        Phase::Stuck => return FenrirMove::Discard(lowest_of(hand)),
        _ => {}
    }
    let lacking = &view.lacks.lacking;
    let mut lowest_in_suit = [u32::MAX; SUITS];
    for card in hand.iter() {
        let suit = card.suit(ranks);
        lowest_in_suit[suit] = lowest_in_suit[suit].min(rules.value(card));
    }
    // The cards any other player (or the stock) may hold, and for each the
    // cards held by its possible holders: the chance that a possible holder
    // has the card is its share of those.
    let unseen = CardSet::deck(ranks) & !hand & !view.discarded;
    let mut holders = [0u32; 64];
    for card in unseen.iter() {
        holders[card.0 as usize] = (0..rules.players)
            .filter(|&p| p != view.mover && !lacking[p].contains(card))
            .map(|p| view.hand_sizes[p] as u32)
            .sum::<u32>()
            + view.stock_left as u32;
    }
    // (chance as a fraction, the cost of a miss, the card's value)
    let key = |target: usize, card: Card| {
        let possible = unseen.contains(card) && !lacking[target].contains(card);
        let share = if possible {
            view.hand_sizes[target] as u64
        } else {
            0
        };
        let total = holders[card.0 as usize].max(1) as u64;
        (
            share,
            total,
            lowest_in_suit[card.suit(ranks)],
            rules.value(card),
        )
    };
    let better = |a: (u64, u64, u32, u32), b: (u64, u64, u32, u32)| {
        (a.0 * b.1)
            .cmp(&(b.0 * a.1))
            .then(b.2.cmp(&a.2))
            .then(a.3.cmp(&b.3))
            .is_gt()
    };
    let mut best = None;
    for target in (0..rules.players).filter(|&p| p != view.mover && view.hand_sizes[p] > 0) {
        for card in view.askable.iter() {
            let candidate = key(target, card);
            if best.is_none_or(|(_, best_key)| better(candidate, best_key)) {
                best = Some((
                    FenrirMove::Ask {
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

/// The node budget of the open-hand reference's exact solver per decision.
const OPEN_HAND_SOLVER_BUDGET: u64 = 20_000;
/// Its table: 2^14 buckets (1 MiB), ample for that budget and cheap to make
/// for every deal.
const SOLVER_TABLE_BITS: u32 = 14;

/// The open-hand reference: it reads every hand and the stock. At each
/// decision the cooperative solver ([`CoopSolver`]) looks for a winning line
/// within a node budget (`exact=NODES`, 0 to skip it); once it finds one the
/// team follows it to the win. Where the solver finds none in time, UCT on
/// the perfect-information game with MCTS-Solver proofs
/// ([`Ismcts::search_state`]) chooses the move. It cheats by design, to show
/// how much the hidden information costs the team.
pub struct OpenHandAgent {
    spec: String,
    search: Ismcts<FenrirCards, FenrirPlayout>,
    solver: CoopSolver<FenrirCards>,
    solver_budget: u64,
    /// The rest of a winning line, and the hash of the state it starts from.
    line: Vec<FenrirMove>,
    line_state: Option<u64>,
    /// The solver proved that no line wins: searching again is pointless.
    solver_gave_up: bool,
}

impl Agent<FenrirCards> for OpenHandAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn decide(&mut self, state: &FenrirCards) -> Decision<FenrirMove> {
        if self.line_state != Some(state.hash()) {
            self.line.clear();
            if self.solver_budget > 0 && !self.solver_gave_up {
                let solution = self.solver.solve_within(state, self.solver_budget);
                match solution.verdict {
                    Verdict::Win => {
                        self.line = solution.line;
                        self.line.reverse();
                    }
                    Verdict::Loss => self.solver_gave_up = true,
                    Verdict::Unknown => {}
                }
            }
        }
        let mv = match self.line.pop() {
            Some(mv) => mv,
            None => self
                .search
                .search_state(state)
                .best_move
                .expect("decide is called with a player to move"),
        };
        let mut next = state.clone();
        next.play(mv);
        self.line_state = (!self.line.is_empty()).then(|| next.hash());
        Decision::Play(mv)
    }

    fn reset(&mut self) {
        self.line.clear();
        self.line_state = None;
        self.solver_gave_up = false;
    }
}
