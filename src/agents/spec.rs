//! Agent specs: `kind` or `kind:key=value,key=value`.

use super::simultaneous::{EquilibriumAgent, SmMctsAgent};
use super::{
    Agent, AlphaBetaAgent, GreedyAgent, HonestAgent, IsmctsPolicy, MctsAgent, RandomAgent,
};
use crate::core::{
    Capabilities, Evaluate, Evaluator, Game, GameEvaluation, HiddenInformationVisitor,
    ImperfectInformation, ParseError, Simultaneous, SimultaneousVisitor, check_memory, derive_seed,
    parse_choice, parse_exploration, parse_key_values, parse_switch, parse_value, thread_limit,
    unknown_key,
};
use crate::search::{
    AlphaBeta, AlphaBetaConfig, Expansion, FinalChoice, IsmctsConfig, MAX_CHECK_DEPTH,
    MAX_ISMCTS_ITERATIONS, MAX_SHALLOW_DEPTH, MAX_TEMPO, MAX_TREE_NODES, Mcts, MctsConfig,
    Parallelism, RandomPlayout, Selection, ShallowSearch, SmMcts, SmMctsConfig, Tempo,
    WideningOptions,
};
use std::marker::PhantomData;
use std::str::FromStr;
use std::time::Duration;

const WHAT: &str = "agent spec";

/// The most MCTS simulations per move: a billion already takes hours a move
/// on one core, and a larger count is a typing error more often than a plan.
const MAX_MCTS_ITERATIONS: u64 = 1_000_000_000;

/// The agent kinds [`build_agent`] knows.
pub const AGENT_KINDS: [&str; 7] = [
    "random",
    "greedy",
    "alphabeta",
    "mcts",
    "ismcts",
    "smmcts",
    "equilibrium",
];

const ALPHABETA_KEYS: [&str; 6] = ["depth", "ms", "nodes", "tt", "threads", "eval"];
const MCTS_KEYS: [&str; 20] = [
    "iters",
    "ms",
    "c",
    "threads",
    "parallel",
    "playout",
    "playout-eps",
    "nodes",
    "reuse",
    "solver",
    "minimax",
    "bias",
    "widen",
    "widen-exp",
    "expand",
    "pick",
    "check",
    "eval",
    "leaf-depth",
    "tempo",
];
/// The largest progressive bias a spec takes: far beyond any useful
/// setting, small enough that no score overflows.
const MAX_PROGRESSIVE_BIAS: f64 = 1_000.0;
const ISMCTS_KEYS: [&str; 4] = ["iters", "c", "widen", "widen-exp"];
const SMMCTS_KEYS: [&str; 8] = [
    "iters", "select", "c", "gamma", "trees", "threads", "playout", "nodes",
];
const EQUILIBRIUM_KEYS: [&str; 1] = ["rounds"];

/// The most rounds the equilibrium agent solves ahead: the solve grows
/// about tenfold a round, and 6 would already take hours a move.
const MAX_EQUILIBRIUM_ROUNDS: u32 = 6;

/// Builds the agent described by `spec`, with its random choices drawn from
/// `seed`.
///
/// - `random`, `greedy`: no options.
/// - `alphabeta`: `depth` (plies, default 4 unless `ms` or `nodes` is given),
///   `ms` (time per move), `nodes`, `tt` (table megabytes, default 16, 0 for
///   none), `threads` (default 1).
/// - `mcts`: `iters` (default 10000 unless `ms` is given), `ms`, `c`
///   (exploration, default 1.0), `threads` (default 1), `parallel`
///   (`root` or `tree`, default root), `playout` (random plies before the
///   evaluation, or `none` to play to the end; default 10), `playout-eps`
///   (epsilon-greedy playouts: each ply the move the evaluation rates best
///   for its player, or with this probability a random one; `off`, the
///   default, plays every ply at random), `nodes` (tree size
///   limit, default 1000000; the root's children are always built), `reuse`
///   and `solver` (`on`/`off`, default on),
///   `minimax` (weight of implicit minimax backups from 0 to 1, default 0),
///   `bias` (weight of progressive bias from the evaluation, default 0),
///   `widen` (progressive widening: at most `ceil(widen * n^e)` children
///   on the `n`th visit, or `off`, the default), `widen-exp` (the
///   exponent `e`, default 0.5), `expand` (`one`, a child per visit,
///   the default, or `all`: every child at once, scored by the evaluation,
///   widening in their order; with `playout=0` and several threads it
///   needs `parallel=tree`, as that search has nothing random for
///   root-parallel trees to differ in), `pick` (the move played when no proven
///   result decides: `visits`, the most visited, the default, or `value`,
///   the best by mean and minimax value without exploration), `check`
///   (0 to 4: search the best root moves this many plies deep by
///   alpha-beta before one is played, each worth the smaller of its
///   estimate and that score; two competing sides only; default 0) and
///   `leaf-depth` (0 to 3: score leaves by
///   an alpha-beta search this deep instead of the evaluation alone; two
///   competing sides only; default 0) and `tempo` (0 to 0.25: a bonus for
///   the player to move in every evaluated position, as a share of the
///   payoff range, so that a tree comparing leaves of both parities
///   compares like with like; two competing sides only; default 0).
/// - `alphabeta` and `mcts` also take `eval`, one of the game's named
///   evaluations ([`Evaluate::EVALUATION_NAMES`]; Hnefatafl's are `hand`,
///   its own, and `tuned`); without it they search with the game's own.
/// - `ismcts` (games with hidden information): `iters` (default 1000), `c`
///   (exploration, default 0.7), `widen` (progressive widening's width, off
///   by default) and `widen-exp` (its exponent, default 0.5), opening moves
///   in random order; information-set MCTS with random playouts, deciding
///   from each player's observation alone.
/// - `smmcts` (two-player games with simultaneous moves): `iters` (default
///   10000), `select` (`duct` or `rm`, default duct), `c` (exploration,
///   default 1.0), `gamma` (regret matching's exploration, default 0.1),
///   `trees` (root-parallel trees, default 1), `threads` (default 1),
///   `playout` (random plies before the evaluation, or `none`, the
///   default), `nodes` (tree size limit per tree, default 1000000).
/// - `equilibrium` (the same games): `rounds` (default 2, at most 6): the
///   current round and `rounds - 1` more solved exactly, the evaluation
///   scoring the states beyond.
///
/// The option `preset=best` is not read here: [`crate::registry::build_agent`]
/// replaces it by the game's best settings before it calls this.
///
/// Each kind needs a game of the right kind: `greedy`, `alphabeta` and
/// `mcts` read the whole state, so they refuse games with hidden
/// information (`random` picks among the mover's own legal moves, which it
/// may know); `alphabeta` needs two competing sides without chance;
/// `greedy`, `alphabeta` and `mcts` need one player to move at a time.
///
/// # Errors
/// An unknown kind or option, a bad value, with the valid choices listed,
/// or a kind the game cannot be played by, saying what the game lacks.
pub fn build_agent<G: Evaluate>(spec: &str, seed: u64) -> Result<Box<dyn Agent<G>>, ParseError> {
    let spec = spec.trim();
    let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
    let mut pairs = parse_key_values(options, WHAT)?;
    let no_options = |kind: &str| match pairs.first() {
        Some(&(key, _)) => Err(ParseError::new(
            WHAT,
            spec,
            format!("unknown option `{key}` (`{kind}` takes no options)"),
        )),
        None => Ok(()),
    };
    let kind = kind.trim();
    if let Some(lack) = lacking::<G>(kind) {
        return Err(ParseError::new(
            WHAT,
            spec,
            format!("`{kind}` needs {lack}, and {} {}", G::NAME, lack.because()),
        ));
    }
    match kind {
        "random" => {
            no_options("random")?;
            Ok(Box::new(RandomAgent::new(seed)))
        }
        "greedy" => {
            no_options("greedy")?;
            Ok(Box::new(GreedyAgent::new(seed)))
        }
        "alphabeta" => {
            let evaluation = take_evaluation::<G>(spec, &mut pairs)?;
            let search = AlphaBeta::try_new(alphabeta_config(spec, &pairs)?)
                .map_err(|problem| ParseError::new(WHAT, spec, problem))?;
            Ok(match evaluation {
                Some(evaluation) => {
                    Box::new(AlphaBetaAgent::with_evaluator(spec, search, evaluation))
                }
                None => Box::new(AlphaBetaAgent::new(spec, search)),
            })
        }
        "mcts" => {
            let evaluation = take_evaluation::<G>(spec, &mut pairs)?;
            let leaf_depth = take_leaf_depth::<G>(spec, &mut pairs)?;
            let evaluation = match (leaf_depth, evaluation) {
                (0, evaluation) => evaluation,
                (depth, evaluation) => Some(Box::new(ShallowSearch::new(
                    evaluation.unwrap_or_else(|| Box::new(GameEvaluation)),
                    depth,
                )) as Box<dyn Evaluator<G>>),
            };
            let tempo = take_tempo::<G>(spec, &mut pairs)?;
            let evaluation = if tempo > 0.0 {
                Some(Box::new(Tempo {
                    inner: evaluation.unwrap_or_else(|| Box::new(GameEvaluation)),
                    bonus: tempo,
                }) as Box<dyn Evaluator<G>>)
            } else {
                evaluation
            };
            let config = mcts_config(spec, &pairs)?;
            if config.check_depth > 0 {
                competitive_only::<G>(spec, "check", "searches for two competing sides")?;
            }
            let trees = format!("a tree budget of {} nodes", config.node_budget);
            fits_in_memory(spec, &trees, config.memory_bytes::<G>())?;
            // The threads or the check's table the system refused.
            let refused = |problem| ParseError::new(WHAT, spec, problem);
            Ok(match evaluation {
                Some(evaluation) => Box::new(MctsAgent::new(
                    spec,
                    Mcts::with_evaluator(config, seed, evaluation).map_err(refused)?,
                )),
                None => Box::new(MctsAgent::new(
                    spec,
                    Mcts::new(config, seed).map_err(refused)?,
                )),
            })
        }
        "ismcts" => {
            let config = ismcts_config(spec, &pairs)?;
            let tree = format!("{} iterations", config.iterations);
            fits_in_memory(spec, &tree, config.memory_bytes::<G>())?;
            Ok(G::with_hidden_information(BuildIsmcts {
                spec: spec.to_string(),
                config,
                seed,
                game: PhantomData,
            })
            .expect("the game's capabilities were checked"))
        }
        "smmcts" => {
            let config = smmcts_config(spec, &pairs)?;
            let trees = format!("{} trees of {} nodes", config.trees, config.node_budget);
            fits_in_memory(spec, &trees, config.memory_bytes())?;
            let search = SmMcts::new(config, seed).map_err(|error| {
                ParseError::new(WHAT, spec, format!("cannot start the threads: {error}"))
            })?;
            let agent = SmMctsAgent::new(spec, search, derive_seed(seed, 1));
            Ok(G::with_simultaneous_moves(BuildSimultaneous::SmMcts(agent))
                .expect("the game's capabilities were checked"))
        }
        "equilibrium" => {
            let mut rounds = 2;
            for &(key, value) in &pairs {
                match key {
                    "rounds" => rounds = in_range(spec, key, value, 1, MAX_EQUILIBRIUM_ROUNDS)?,
                    _ => return Err(unknown_key(WHAT, spec, key, &EQUILIBRIUM_KEYS)),
                }
            }
            let agent = EquilibriumAgent::new(spec, rounds, seed);
            Ok(
                G::with_simultaneous_moves(BuildSimultaneous::Equilibrium(agent))
                    .expect("the game's capabilities were checked"),
            )
        }
        "human" => Err(ParseError::new(
            WHAT,
            spec,
            "a human player needs a terminal: use it with `norn play`",
        )),
        other => Err(ParseError::new(
            WHAT,
            spec,
            format!(
                "unknown agent `{other}` (valid agents: {})",
                AGENT_KINDS.join(", ")
            ),
        )),
    }
}

/// Removes the `eval` option from `pairs` and returns the game's evaluation
/// of that name ([`Evaluate::named_evaluation`]), or `None` without the
/// option (the game's own evaluation).
fn take_evaluation<G: Evaluate>(
    spec: &str,
    pairs: &mut Vec<(&str, &str)>,
) -> Result<Option<Box<dyn Evaluator<G>>>, ParseError> {
    let Some(index) = pairs.iter().position(|&(key, _)| key == "eval") else {
        return Ok(None);
    };
    let (_, name) = pairs.remove(index);
    if G::EVALUATION_NAMES.is_empty() {
        return Err(ParseError::new(
            WHAT,
            spec,
            format!(
                "`eval` chooses among a game's evaluations, and {} has only its own",
                G::NAME
            ),
        ));
    }
    G::named_evaluation(name).map(Some).ok_or_else(|| {
        ParseError::new(
            WHAT,
            spec,
            format!(
                "`eval` takes {}, not `{name}`",
                G::EVALUATION_NAMES.join(" or ")
            ),
        )
    })
}

/// Removes the option `key` from `pairs` and returns its value, if given.
fn take_option<'a>(pairs: &mut Vec<(&str, &'a str)>, key: &str) -> Option<&'a str> {
    let index = pairs.iter().position(|&(name, _)| name == key)?;
    Some(pairs.remove(index).1)
}

/// Refuses `key`, set to something other than its default, for a game
/// without two competing sides: `does` says what the option does that
/// needs them.
fn competitive_only<G: Evaluate>(spec: &str, key: &str, does: &str) -> Result<(), ParseError> {
    if Capabilities::of::<G>().competitive() {
        return Ok(());
    }
    Err(ParseError::new(
        WHAT,
        spec,
        format!("`{key}` {does}, and {} is cooperative", G::NAME),
    ))
}

/// Takes `leaf-depth=N` out of `pairs`: the depth of the alpha-beta search
/// that scores MCTS's leaves (0, the default, scores them with the
/// evaluation itself). Refused for games without two competing sides,
/// whose values the search could not negate.
fn take_leaf_depth<G: Evaluate>(
    spec: &str,
    pairs: &mut Vec<(&str, &str)>,
) -> Result<u32, ParseError> {
    const KEY: &str = "leaf-depth";
    let Some(value) = take_option(pairs, KEY) else {
        return Ok(0);
    };
    let depth = in_range(spec, KEY, value, 0, MAX_SHALLOW_DEPTH)?;
    if depth > 0 {
        competitive_only::<G>(spec, KEY, "searches for two competing sides")?;
    }
    Ok(depth)
}

/// Takes `tempo=B` out of `pairs`: the bonus for the player to move that
/// [`Tempo`] adds to the evaluation (0, the default, adds none). Refused
/// for games without two competing sides, where a bonus to one player has
/// no opposite.
fn take_tempo<G: Evaluate>(spec: &str, pairs: &mut Vec<(&str, &str)>) -> Result<f64, ParseError> {
    const KEY: &str = "tempo";
    let Some(value) = take_option(pairs, KEY) else {
        return Ok(0.0);
    };
    let bonus = weight_in(spec, KEY, value, 0.0, MAX_TEMPO)?;
    if bonus > 0.0 {
        competitive_only::<G>(spec, KEY, "favours one of two competing sides")?;
    }
    Ok(bonus)
}

/// What a game must have for an agent kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    /// Every player sees the whole state.
    PerfectInformation,
    /// One player moves at a time.
    TurnBased,
    /// Two sides compete (not a team).
    TwoSides,
    /// No chance events.
    Deterministic,
    /// Information hidden from the players, which the agent respects.
    HiddenInformation,
    /// Players who choose at the same time.
    SimultaneousMoves,
}

impl Need {
    fn met_by(self, capabilities: &Capabilities) -> bool {
        match self {
            Need::PerfectInformation => !capabilities.hidden_information,
            Need::TurnBased => !capabilities.simultaneous_moves,
            Need::TwoSides => capabilities.competitive(),
            Need::Deterministic => !capabilities.chance,
            Need::HiddenInformation => capabilities.hidden_information,
            Need::SimultaneousMoves => capabilities.simultaneous_moves,
        }
    }

    /// Why a game does not meet the need.
    fn because(self) -> &'static str {
        match self {
            Need::PerfectInformation => "hides information from its players",
            Need::TurnBased => "has simultaneous moves",
            Need::TwoSides => "is cooperative",
            Need::Deterministic => "has chance events",
            Need::HiddenInformation | Need::SimultaneousMoves => "has none",
        }
    }
}

impl std::fmt::Display for Need {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Need::PerfectInformation => "every player seeing the whole state",
            Need::TurnBased => "one player moving at a time",
            Need::TwoSides => "two competing sides",
            Need::Deterministic => "a game without chance",
            Need::HiddenInformation => "a game with hidden information",
            Need::SimultaneousMoves => "a game with simultaneous moves",
        })
    }
}

/// The first need of agent `kind` that game `G` does not meet.
fn lacking<G: Game>(kind: &str) -> Option<Need> {
    let needs: &[Need] = match kind {
        "greedy" | "mcts" => &[Need::PerfectInformation, Need::TurnBased],
        "alphabeta" => &[
            Need::PerfectInformation,
            Need::TurnBased,
            Need::TwoSides,
            Need::Deterministic,
        ],
        "ismcts" => &[Need::HiddenInformation],
        "smmcts" | "equilibrium" => &[
            Need::SimultaneousMoves,
            Need::PerfectInformation,
            Need::TwoSides,
            Need::Deterministic,
        ],
        _ => &[],
    };
    let capabilities = Capabilities::of::<G>();
    needs
        .iter()
        .copied()
        .find(|need| !need.met_by(&capabilities))
}

/// Builds the generic IS-MCTS agent for a game with hidden information.
struct BuildIsmcts<G> {
    spec: String,
    config: IsmctsConfig,
    seed: u64,
    game: PhantomData<G>,
}

impl<G: Game> HiddenInformationVisitor<G> for BuildIsmcts<G> {
    type Output = Box<dyn Agent<G>>;

    fn visit(self) -> Box<dyn Agent<G>>
    where
        G: ImperfectInformation,
    {
        let (name, config) = (self.spec.clone(), self.config);
        Box::new(HonestAgent::<G>::new(
            self.spec,
            self.seed,
            Box::new(move |seed| {
                Box::new(IsmctsPolicy::new(
                    name.clone(),
                    config.clone(),
                    RandomPlayout::default(),
                    seed,
                ))
            }),
        ))
    }
}

/// Hands an agent that needs [`Simultaneous`] to a game that has it.
enum BuildSimultaneous {
    SmMcts(SmMctsAgent),
    Equilibrium(EquilibriumAgent),
}

impl<G: Evaluate> SimultaneousVisitor<G> for BuildSimultaneous {
    type Output = Box<dyn Agent<G>>;

    fn visit(self) -> Box<dyn Agent<G>>
    where
        G: Simultaneous,
    {
        match self {
            BuildSimultaneous::SmMcts(agent) => Box::new(agent),
            BuildSimultaneous::Equilibrium(agent) => Box::new(agent),
        }
    }
}

fn smmcts_config(spec: &str, pairs: &[(&str, &str)]) -> Result<SmMctsConfig, ParseError> {
    let mut config = SmMctsConfig::default();
    for &(key, value) in pairs {
        match key {
            "iters" => config.iterations = in_range(spec, key, value, 1, MAX_MCTS_ITERATIONS)?,
            "select" => {
                config.selection = parse_choice(
                    WHAT,
                    spec,
                    key,
                    value,
                    &[("duct", Selection::Duct), ("rm", Selection::RegretMatching)],
                )?
            }
            "c" => config.exploration = parse_exploration(WHAT, spec, key, value)?,
            "gamma" => {
                let gamma: f64 = parse_value(WHAT, spec, key, value)?;
                if !(gamma > 0.0 && gamma <= 1.0) {
                    return Err(ParseError::new(
                        WHAT,
                        spec,
                        format!("`gamma` must be above 0 and at most 1, not `{value}`"),
                    ));
                }
                config.gamma = gamma;
            }
            "trees" => config.trees = in_range(spec, key, value, 1, 1024)?,
            "threads" => config.threads = in_range(spec, key, value, 1, thread_limit())?,
            "playout" => {
                config.playout_plies = match value {
                    "none" => None,
                    _ => Some(in_range(spec, key, value, 0, u32::MAX)?),
                }
            }
            "nodes" => config.node_budget = in_range(spec, key, value, 1, MAX_TREE_NODES)?,
            _ => return Err(unknown_key(WHAT, spec, key, &SMMCTS_KEYS)),
        }
    }
    Ok(config)
}

fn ismcts_config(spec: &str, pairs: &[(&str, &str)]) -> Result<IsmctsConfig, ParseError> {
    let mut config = IsmctsConfig::default();
    let mut widening = WideningOptions::default();
    for &(key, value) in pairs {
        match key {
            "iters" => config.iterations = in_range(spec, key, value, 1, MAX_ISMCTS_ITERATIONS)?,
            "c" => config.exploration = parse_exploration(WHAT, spec, key, value)?,
            _ if widening.read(WHAT, spec, key, value)? => {}
            _ => return Err(unknown_key(WHAT, spec, key, &ISMCTS_KEYS)),
        }
    }
    config.widening = widening.finish(WHAT, spec)?;
    Ok(config)
}

fn alphabeta_config(spec: &str, pairs: &[(&str, &str)]) -> Result<AlphaBetaConfig, ParseError> {
    let mut config = AlphaBetaConfig {
        depth: None,
        ..AlphaBetaConfig::default()
    };
    for &(key, value) in pairs {
        match key {
            "depth" => config.depth = Some(in_range(spec, key, value, 1, 100)?),
            "ms" => config.time = Some(milliseconds(spec, key, value)?),
            "nodes" => config.nodes = Some(in_range(spec, key, value, 1, u64::MAX)?),
            "tt" => {
                let megabytes = in_range(spec, key, value, 0, 1 << 20)?;
                let table = format!("a transposition table of {megabytes} MB");
                fits_in_memory(spec, &table, (megabytes as u64) << 20)?;
                config.table_megabytes = megabytes;
            }
            "threads" => config.threads = in_range(spec, key, value, 1, thread_limit())?,
            _ => return Err(unknown_key(WHAT, spec, key, &ALPHABETA_KEYS)),
        }
    }
    if config.depth.is_none() && config.time.is_none() && config.nodes.is_none() {
        config.depth = AlphaBetaConfig::default().depth;
    }
    Ok(config)
}

fn mcts_config(spec: &str, pairs: &[(&str, &str)]) -> Result<MctsConfig, ParseError> {
    let mut config = MctsConfig {
        iterations: None,
        ..MctsConfig::default()
    };
    let mut widening = WideningOptions::default();
    for &(key, value) in pairs {
        match key {
            "iters" => {
                config.iterations = Some(in_range(spec, key, value, 1, MAX_MCTS_ITERATIONS)?)
            }
            "ms" => config.time = Some(milliseconds(spec, key, value)?),
            "c" => config.exploration = parse_exploration(WHAT, spec, key, value)?,
            "threads" => config.threads = in_range(spec, key, value, 1, thread_limit())?,
            "parallel" => {
                config.parallelism = parse_choice(
                    WHAT,
                    spec,
                    key,
                    value,
                    &[("root", Parallelism::Root), ("tree", Parallelism::Tree)],
                )?
            }
            "playout" => {
                config.playout_plies = match value {
                    "none" => None,
                    _ => Some(in_range(spec, key, value, 0, u32::MAX)?),
                }
            }
            "playout-eps" => {
                config.playout_greedy = match value {
                    "off" => None,
                    _ => Some(weight_in(spec, key, value, 0.0, 1.0)?),
                }
            }
            "nodes" => config.node_budget = in_range(spec, key, value, 1, MAX_TREE_NODES)?,
            "reuse" => config.reuse_tree = parse_switch(WHAT, spec, key, value)?,
            "solver" => config.solver = parse_switch(WHAT, spec, key, value)?,
            "minimax" => config.minimax_weight = weight_in(spec, key, value, 0.0, 1.0)?,
            "bias" => {
                config.progressive_bias = weight_in(spec, key, value, 0.0, MAX_PROGRESSIVE_BIAS)?
            }
            "expand" => {
                config.expansion = parse_choice(
                    WHAT,
                    spec,
                    key,
                    value,
                    &[("one", Expansion::OneByOne), ("all", Expansion::All)],
                )?
            }
            "pick" => {
                config.final_choice = parse_choice(
                    WHAT,
                    spec,
                    key,
                    value,
                    &[
                        ("visits", FinalChoice::MostVisited),
                        ("value", FinalChoice::BestValue),
                    ],
                )?
            }
            "check" => config.check_depth = in_range(spec, key, value, 0, MAX_CHECK_DEPTH)?,
            _ if widening.read(WHAT, spec, key, value)? => {}
            _ => return Err(unknown_key(WHAT, spec, key, &MCTS_KEYS)),
        }
    }
    config.widening = widening.finish(WHAT, spec)?;
    if config.expansion == Expansion::All
        && config.playout_plies == Some(0)
        && config.threads > 1
        && config.parallelism == Parallelism::Root
    {
        return Err(ParseError::new(
            WHAT,
            spec,
            "`expand=all` with `playout=0` makes no random choice, so every root-parallel \
             tree would be the same tree: with `threads` above 1 use `parallel=tree`",
        ));
    }
    if config.iterations.is_none() && config.time.is_none() {
        config.iterations = MctsConfig::default().iterations;
    }
    Ok(config)
}

/// A number from `low` to `high` (both included), or an error naming the
/// option; NaN and infinities are refused.
fn weight_in(spec: &str, key: &str, value: &str, low: f64, high: f64) -> Result<f64, ParseError> {
    let number: f64 = parse_value(WHAT, spec, key, value)?;
    if !(low..=high).contains(&number) {
        let low_text = if low == f64::MIN_POSITIVE {
            "above 0".to_string()
        } else {
            format!("from {low}")
        };
        return Err(ParseError::new(
            WHAT,
            spec,
            format!("`{key}` must be {low_text} to {high}, not `{value}`"),
        ));
    }
    Ok(number)
}

/// A whole number from `low` to `high`, or an error naming the option.
/// Refuses a spec whose `what` needs more memory than the machine can give.
fn fits_in_memory(spec: &str, what: &str, bytes: u64) -> Result<(), ParseError> {
    check_memory(what, bytes).map_err(|problem| ParseError::new(WHAT, spec, problem))
}

fn in_range<T: FromStr + PartialOrd + std::fmt::Display>(
    spec: &str,
    key: &str,
    value: &str,
    low: T,
    high: T,
) -> Result<T, ParseError> {
    let number: T = parse_value(WHAT, spec, key, value)?;
    if number < low || number > high {
        return Err(ParseError::new(
            WHAT,
            spec,
            format!("`{key}` must be from {low} to {high}, not {value}"),
        ));
    }
    Ok(number)
}

fn milliseconds(spec: &str, key: &str, value: &str) -> Result<Duration, ParseError> {
    Ok(Duration::from_millis(in_range(
        spec,
        key,
        value,
        1,
        u64::MAX,
    )?))
}

/// The words two specs share when they name the same agent in other words:
/// the kind, and its options sorted by key, empty items dropped and numbers
/// written one way, so that `mcts:iters=05,` is `mcts:iters=5` and `random:`
/// is `random`. An outside engine's options are kept as written (its
/// command is text for another program). A spec whose options do not read is
/// its own identity: building it says what is wrong.
pub fn spec_identity(spec: &str) -> String {
    let spec = spec.trim();
    let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
    let Ok(mut pairs) = parse_key_values(options, WHAT) else {
        return spec.to_string();
    };
    if pairs.is_empty() {
        return kind.trim().to_string();
    }
    pairs.sort_unstable();
    let numbers_too = kind.trim() != "htp";
    let options: Vec<String> = pairs
        .into_iter()
        .map(|(key, value)| {
            let value = if numbers_too {
                number_in_one_form(value).unwrap_or_else(|| value.to_string())
            } else {
                value.to_string()
            };
            format!("{key}={value}")
        })
        .collect();
    format!("{}:{}", kind.trim(), options.join(","))
}

/// A number's one written form (`05` is `5`, `1.50` is `1.5`); `None` for
/// text that is not a number.
fn number_in_one_form(value: &str) -> Option<String> {
    if let Ok(whole) = value.parse::<u64>() {
        return Some(whole.to_string());
    }
    value
        .parse::<f64>()
        .ok()
        .filter(|number| number.is_finite())
        .map(|number| number.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hnefatafl::Hnefatafl;

    fn error(spec: &str) -> String {
        match build_agent::<Hnefatafl>(spec, 0) {
            Ok(_) => panic!("`{spec}` should be rejected"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn specs_in_other_words_have_one_identity() {
        for (one, other) in [
            ("mcts:iters=5", "mcts:iters=5,"),
            ("mcts:iters=5", "mcts:iters=05"),
            ("mcts:iters=5,c=1", "mcts: c=1.0 ,iters=5"),
            ("random", "random:"),
            ("random", " random "),
        ] {
            assert_eq!(spec_identity(one), spec_identity(other), "{one} / {other}");
        }
        for (one, other) in [
            ("mcts:iters=5", "mcts:iters=6"),
            ("mcts:c=0.5", "mcts:c=0.05"),
            ("alphabeta:eval=hand", "alphabeta:eval=tuned"),
            ("htp:cmd=./engine 05", "htp:cmd=./engine 5"),
            (
                "mcts:iters=18446744073709551615",
                "mcts:iters=18446744073709551614",
            ),
        ] {
            assert_ne!(spec_identity(one), spec_identity(other), "{one} / {other}");
        }
    }

    #[test]
    fn every_documented_spec_builds() {
        for spec in [
            "random",
            "greedy",
            "alphabeta",
            "alphabeta:depth=6",
            "alphabeta:ms=500",
            "alphabeta:nodes=1000,tt=0,threads=2",
            "mcts",
            "mcts:iters=20000,c=1.0,threads=2",
            "mcts:ms=500",
            "mcts:parallel=tree,threads=2,playout=none,nodes=500,reuse=off,solver=off",
            "mcts:iters=100,minimax=0.5",
            "mcts:iters=100,playout=0,minimax=1,expand=all,widen=4",
            "mcts:iters=100,playout=0,minimax=1,expand=all,pick=value",
            "mcts:iters=100,playout=0,bias=2,widen=1.5,widen-exp=0.4",
            "mcts:iters=100,playout=0,minimax=0.5,leaf-depth=1",
            "mcts:iters=100,playout=0,minimax=1,expand=all,c=0,pick=value,check=3",
            "mcts:iters=100,playout=0,minimax=1,expand=all,c=0,tempo=0.02,eval=tuned",
            "mcts:iters=100,playout=4,playout-eps=0.1,minimax=0.5",
        ] {
            let agent = build_agent::<Hnefatafl>(spec, 7).unwrap();
            assert_eq!(agent.spec(), spec);
        }
    }

    #[test]
    fn defaults_apply_only_without_any_limit() {
        let pairs = parse_key_values("ms=100", WHAT).unwrap();
        let config = alphabeta_config("alphabeta:ms=100", &pairs).unwrap();
        assert_eq!(
            (config.depth, config.time),
            (None, Some(Duration::from_millis(100)))
        );
        let config = alphabeta_config("alphabeta", &[]).unwrap();
        assert_eq!(config.depth, Some(4));
        let pairs = parse_key_values("ms=100", WHAT).unwrap();
        let config = mcts_config("mcts:ms=100", &pairs).unwrap();
        assert_eq!(config.iterations, None);
        assert_eq!(mcts_config("mcts", &[]).unwrap().iterations, Some(10_000));
    }

    #[test]
    fn a_leaf_search_a_check_and_a_tempo_need_two_competing_sides() {
        use crate::games::fenrir_path::FenrirPath;
        for (option, value) in [("leaf-depth", "1"), ("check", "1"), ("tempo", "0.02")] {
            let error = match build_agent::<FenrirPath>(&format!("mcts:{option}={value}"), 0) {
                Ok(_) => panic!("{option} in a cooperative game should be refused"),
                Err(error) => error.to_string(),
            };
            assert!(error.contains("fenrir-path is cooperative"), "{error}");
            assert!(build_agent::<FenrirPath>(&format!("mcts:{option}=0"), 0).is_ok());
        }
    }

    #[test]
    fn bad_specs_explain_themselves() {
        assert!(error("minimax").contains("valid agents: random, greedy, alphabeta, mcts, ismcts"));
        assert!(
            error("alphabeta:width=3").contains("valid options: depth, ms, nodes, tt, threads")
        );
        assert!(error("mcts:iter=5").contains("iters, ms, c, threads, parallel"));
        assert!(error("random:depth=3").contains("takes no options"));
        assert!(error("alphabeta:depth=0").contains("from 1 to 100"));
        assert!(error("alphabeta:depth=x").contains("`depth`"));
        assert!(error("mcts:c=-1").contains("at least 0"));
        assert!(error("mcts:parallel=leaf").contains("root or tree"));
        assert!(error("mcts:minimax=2").contains("from 0 to 1"));
        assert!(error("mcts:expand=both").contains("`expand` takes one or all, not `both`"));
        assert!(error("mcts:pick=best").contains("`pick` takes visits or value, not `best`"));
        assert!(error("mcts:expand=all,playout=0,threads=2").contains("the same tree"));
        assert!(build_agent::<Hnefatafl>("mcts:expand=all,playout=1,threads=2", 0).is_ok());
        let shared = "mcts:expand=all,playout=0,threads=2,parallel=tree";
        assert!(build_agent::<Hnefatafl>(shared, 0).is_ok());
        assert!(error("mcts:leaf-depth=4").contains("from 0 to 3"));
        assert!(error("mcts:check=5").contains("from 0 to 4"));
        assert!(error("mcts:tempo=0.3").contains("`tempo` must be from 0 to 0.25"));
        assert!(error("mcts:playout-eps=1.5").contains("`playout-eps` must be from 0 to 1"));
        assert!(error("mcts:playout-eps=NaN").contains("`playout-eps` must be"));
        assert!(error("mcts:tempo=NaN").contains("`tempo` must be"));
        assert!(error("mcts:tempo=-0.01").contains("`tempo` must be"));
        assert!(error("mcts:bias=-1").contains("`bias` must be from 0 to 1000"));
        assert!(error("mcts:bias=NaN").contains("`bias` must be"));
        assert!(error("mcts:widen=-1").contains("`widen` must be off or a number"));
        assert!(error("mcts:widen=inf").contains("`widen` must be off or a number"));
        assert!(error("mcts:widen-exp=0.5").contains("needs widening on"));
        assert!(error("mcts:widen=2,widen-exp=1.5").contains("from 0 to 1"));
        assert!(error("mcts:threads=0").contains("from 1"));
        assert!(error("human").contains("norn play"));
        assert!(error("mcts:iters").contains("key=value"));
    }
}
