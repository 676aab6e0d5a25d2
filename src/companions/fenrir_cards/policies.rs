//! The policies of Fetters of Fenrir, built from spec strings.
//!
//! | spec | policy | honest |
//! |------|--------|--------|
//! | `random` | a uniformly random legal move | yes |
//! | `counting` | [`CountingPolicy`]: the ask most likely to succeed by public information | yes |
//! | `ismcts:iters=N[,c=X,widen=W,widen-exp=A]` | information-set MCTS over determinizations, widening in the counting rule's order (`widen=1` unless given; `widen=off` for none), with the counting rule's playouts | yes |
//! | `open-hand[:iters=N,c=X,exact=NODES]` | [`OpenHandAgent`]: the exact solver, else UCT, on the full state | **no, it sees every hand** |
//!
//! `ismcts` and `open-hand` read the generic IS-MCTS options
//! ([`IsmctsConfig`], as `ismcts` does on every game) onto this game's
//! defaults ([`honest_search_defaults`]), and their playouts' options
//! ([`HonestPlayout`], [`OpenHandOptions`]).
//!
//! Honest policies are [`HonestPolicy`] values wrapped in an [`HonestAgent`],
//! so they only ever receive an observation. `open-hand` is a reference that
//! reads the state itself, and says so
//! ([`Agent::sees_hidden_information`]), so that reports label it.

use crate::agents::{
    Agent, AgentError, Decision, HonestAgent, HonestPolicy, HonestRandom, IsmctsPolicy, full_spec,
    read_options_onto_both,
};
use crate::core::{Configurable, Declared, Game, ParseError, Player, write_options};
use crate::games::fenrir_cards::{
    FenrirCards, FenrirCardsMove, FenrirObservation, FenrirPlayout, KnownLacks, PlayoutMoves,
    PublicView, counting_move, sort_by_counting_rule,
};
use crate::search::{
    CoopSolver, DEFAULT_WIDENING_EXPONENT, Ismcts, IsmctsConfig, MoveOrder, SearchError, Verdict,
    Widening,
};

/// The counting rule's preference among the moves ([`CountingPolicy`]),
/// for IS-MCTS's progressive widening to open them in: the move the rule
/// plays first, judged from the hand of the player to move in the sampled
/// deal and the public history.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingOrder;

impl MoveOrder<FenrirCards> for CountingOrder {
    fn sort(&mut self, state: &FenrirCards, moves: &mut [FenrirCardsMove]) {
        sort_by_counting_rule(state, moves);
    }
}

/// The honest search's widening unless its spec says otherwise: one child
/// on a node's first visit, growing with the square root of its visits.
pub const DEFAULT_WIDENING: Widening = Widening {
    width: 1.0,
    exponent: DEFAULT_WIDENING_EXPONENT,
};

/// The policy specs [`build_agent`] accepts.
pub const POLICY_KINDS: [&str; 4] = [
    "random",
    "counting",
    "ismcts:iters=N[,c=X,widen=W,widen-exp=A,playout=P,score=S]",
    "open-hand[:iters=N,c=X,playout=P,score=S,exact=NODES]",
];

const WHAT: &str = "fenrir-cards policy";

/// The playouts' moves in the order of the `playout` option's words.
const PLAYOUT_MOVES: [PlayoutMoves; 3] = [
    PlayoutMoves::Counting,
    PlayoutMoves::OpenHand,
    PlayoutMoves::Random,
];
/// Whether a win scores its margin, in the order of the `score` option's words.
const SCORES: [bool; 2] = [true, false];

/// The options of the playouts, `playout` (their moves, kept in the field
/// `moves`) and `score` (whether a won playout scores its margin, kept in
/// `margin`), followed by `$more`: the table of the honest search's
/// playouts and of the open-hand reference, which share them.
macro_rules! playout_options {
    ($($more:expr),*) => {
        &[
            crate::choice_option!(
                "playout",
                moves,
                PLAYOUT_MOVES,
                &["counting", "open", "random"],
                "the playouts' moves: the counting rule on each player's own hand, every hand of the sampled deal open, or random"
            ),
            crate::choice_option!(
                "score",
                margin,
                SCORES,
                &["margin", "win"],
                "a won playout scores its safety margin, or 1"
            ),
            $($more),*
        ]
    };
}

/// The playout options of the honest search (`ismcts`), beside its
/// [`IsmctsConfig`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HonestPlayout {
    /// How the playouts choose their moves.
    pub moves: PlayoutMoves,
    /// Score a win by its safety margin ([`FenrirPlayout::margin`]).
    pub margin: bool,
}

impl Default for HonestPlayout {
    fn default() -> Self {
        let playout = FenrirPlayout::honest();
        HonestPlayout {
            moves: playout.moves,
            margin: playout.margin,
        }
    }
}

impl Configurable for HonestPlayout {
    const WHAT: &'static str = "fenrir-cards ismcts playout options";
    const OPTIONS: &'static [Declared<Self>] = playout_options![];
}

/// The options of the open-hand reference beside its [`IsmctsConfig`]:
/// its playouts and its exact solver's budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpenHandOptions {
    /// How the playouts choose their moves.
    pub moves: PlayoutMoves,
    /// Score a win by its safety margin ([`FenrirPlayout::margin`]).
    pub margin: bool,
    /// The exact solver's node budget per decision; 0 skips it.
    pub exact: u64,
}

impl Default for OpenHandOptions {
    fn default() -> Self {
        let playout = FenrirPlayout::open_hand();
        OpenHandOptions {
            moves: playout.moves,
            margin: playout.margin,
            exact: OPEN_HAND_SOLVER_BUDGET,
        }
    }
}

impl Configurable for OpenHandOptions {
    const WHAT: &'static str = "fenrir-cards open-hand options";
    const OPTIONS: &'static [Declared<Self>] = playout_options![crate::whole_option!(
        "exact",
        exact,
        0,
        u64::MAX,
        "the exact solver's node budget per decision (0: none)"
    )];
}

/// The honest search's configuration unless its spec says otherwise: the
/// generic defaults with widening on, which won every deal of 1,000 with 3
/// and 4 players at 200 iterations where it won 96.7% and 65.3% without
/// (bench-results/fenrir-cards.md).
pub fn honest_search_defaults() -> IsmctsConfig {
    IsmctsConfig {
        widening: Some(DEFAULT_WIDENING),
        ..IsmctsConfig::default()
    }
}

/// Builds a policy for the whole team from its spec and seed.
///
/// # Errors
/// If the spec names no policy or has bad options; the error lists what is valid.
pub fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<FenrirCards>>, ParseError> {
    let spec = spec.trim();
    let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
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
            let bases = (honest_search_defaults(), HonestPlayout::default());
            let (config, options) = read_options_onto_both(WHAT, spec, kind, options, bases)?;
            let configuration = full_spec(kind, &format!("{config},{}", write_options(&options)));
            let mut playout = FenrirPlayout::honest();
            playout.moves = options.moves;
            playout.margin = options.margin;
            let name = owned.clone();
            Ok(Box::new(
                HonestAgent::new(
                    owned,
                    seed,
                    Box::new(move |seed| {
                        Box::new(
                            IsmctsPolicy::new(name.clone(), config.clone(), playout.clone(), seed)
                                .with_move_order(CountingOrder),
                        )
                    }),
                )
                .with_configuration(configuration),
            ))
        }
        "open-hand" => {
            let bases = (IsmctsConfig::default(), OpenHandOptions::default());
            let (config, options) = read_options_onto_both(WHAT, spec, kind, options, bases)?;
            let configuration = full_spec(kind, &format!("{config},{}", write_options(&options)));
            let mut playout = FenrirPlayout::open_hand();
            playout.moves = options.moves;
            playout.margin = options.margin;
            Ok(Box::new(OpenHandAgent {
                spec: owned,
                configuration,
                search: Ismcts::with_playout(config, playout, seed),
                solver_budget: options.exact,
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

    fn decide(&mut self, observation: &FenrirObservation) -> Result<FenrirCardsMove, AgentError> {
        if !observation.observer_to_move() {
            return Err(AgentError::new("the observer is not to move"));
        }
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
        Ok(counting_move(&view))
    }
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
    /// The spec with every option written out.
    configuration: String,
    search: Ismcts<FenrirCards, FenrirPlayout>,
    solver: CoopSolver<FenrirCards>,
    solver_budget: u64,
    /// The rest of a winning line, and the hash of the state it starts from.
    line: Vec<FenrirCardsMove>,
    line_state: Option<u64>,
    /// The solver proved that no line wins: searching again is pointless.
    solver_gave_up: bool,
}

impl Agent<FenrirCards> for OpenHandAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        self.configuration.clone()
    }

    /// It reads every hand and the stock.
    fn sees_hidden_information(&self) -> bool {
        true
    }

    fn decide(
        &mut self,
        state: &FenrirCards,
        player: Player,
    ) -> Result<Decision<FenrirCardsMove>, AgentError> {
        if state.status().player_to_move() != Some(player) {
            return Err(AgentError::new(format!(
                "the {} are not to move",
                state.player_name(player)
            )));
        }
        let search_error = |error: SearchError| AgentError::new(error.to_string());
        if self.line_state != Some(state.hash()) {
            self.line.clear();
            if self.solver_budget > 0 && !self.solver_gave_up {
                let solution = self
                    .solver
                    .solve_within(state, self.solver_budget)
                    .map_err(search_error)?;
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
                .map_err(search_error)?
                .best_move
                .ok_or_else(|| AgentError::new("the search found no legal move"))?,
        };
        let mut next = state.clone();
        next.play(mv);
        self.line_state = (!self.line.is_empty()).then(|| next.hash());
        Ok(Decision::Play(mv))
    }

    fn reset(&mut self) {
        self.line.clear();
        self.line_state = None;
        self.solver_gave_up = false;
    }
}
