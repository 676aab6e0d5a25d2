//! Agent specs: `kind` or `kind:key=value,key=value`. Each kind's options
//! are declared once, beside what they configure
//! ([`crate::core::Configurable`]): the searchers' configurations
//! ([`AlphaBetaConfig`], [`MctsConfig`], [`IsmctsConfig`], [`SmMctsConfig`]),
//! the evaluation a searcher scores with ([`AlphaBetaEvaluation`],
//! [`MctsEvaluation`]) and [`EquilibriumOptions`]. Reading a spec, refusing
//! an unknown option with the valid ones, the agent's full configuration
//! ([`Agent::configuration`]) and the tables of docs/search.md all come from
//! those declarations.

use super::name::named_spec;
use super::presets::expand_preset;
use super::searchers::resolved_evaluation;
use super::simultaneous::{EquilibriumAgent, EquilibriumOptions, SmMctsAgent};
use super::{
    Agent, AlphaBetaAgent, AlphaBetaEvaluation, AzAgent, AzOptions, GreedyAgent, HonestAgent,
    IsmctsPolicy, MctsAgent, MctsEvaluation, RandomAgent,
};
use crate::core::{
    Capabilities, Configurable, Encoding, Evaluate, Evaluator, Game, GameEvaluation,
    HiddenInformationVisitor, ImperfectInformation, ParseError, Simultaneous, SimultaneousVisitor,
    check_memory, derive_seed, keys, parse_key_values, read_options_onto, unknown_key,
};
use crate::search::guided::GuidedConfig;
use crate::search::{
    AlphaBeta, AlphaBetaConfig, IsmctsConfig, Mcts, MctsConfig, RandomPlayout, ShallowSearch,
    SmMcts, SmMctsConfig, Tempo,
};
use std::marker::PhantomData;

const WHAT: &str = "agent spec";

/// The agent kinds [`build_agent`] knows.
pub const AGENT_KINDS: [&str; 8] = [
    "random",
    "greedy",
    "alphabeta",
    "mcts",
    "ismcts",
    "smmcts",
    "equilibrium",
    "az",
];

/// Builds the agent described by `spec`, with its random choices drawn from
/// `seed`. The options of each kind are in the tables of docs/search.md
/// (generated from their declarations):
///
/// - `random`, `greedy`: no options.
/// - `alphabeta`: [`AlphaBetaConfig`]'s and [`AlphaBetaEvaluation`]'s.
/// - `mcts`: [`MctsConfig`]'s and [`MctsEvaluation`]'s.
/// - `ismcts` (games with hidden information): [`IsmctsConfig`]'s;
///   information-set MCTS with random playouts, deciding from each
///   player's observation alone.
/// - `smmcts` (two-player games with simultaneous moves): [`SmMctsConfig`]'s.
/// - `equilibrium` (the same games): [`EquilibriumOptions`]'.
///
/// The option `preset=best` stands for the game's best settings of the
/// kind ([`expand_preset`]); the option `name=NAME` names the agent in
/// reports and is left out of the agent ([`named_spec`]).
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
    let named = named_spec(spec)?;
    let expanded = expand_preset::<G>(&named.spec)?;
    let spec = expanded.trim();
    let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
    let kind = kind.trim();
    if let Some(lack) = lacking::<G>(kind) {
        return Err(ParseError::new(
            WHAT,
            spec,
            format!("`{kind}` needs {lack}, and {} {}", G::NAME, lack.because()),
        ));
    }
    let refused = |problem: String| ParseError::new(WHAT, spec, problem);
    match kind {
        "random" => {
            read_options_of::<NoOptions, NoOptions>(spec, kind, options)?;
            Ok(Box::new(RandomAgent::new(seed)))
        }
        "greedy" => {
            read_options_of::<NoOptions, NoOptions>(spec, kind, options)?;
            Ok(Box::new(GreedyAgent::new(seed)))
        }
        "alphabeta" => {
            let (config, mut evaluation) =
                read_options_of::<AlphaBetaConfig, AlphaBetaEvaluation>(spec, kind, options)?;
            let table = format!("a transposition table of {} MB", config.table_megabytes);
            fits_in_memory(spec, &table, (config.table_megabytes as u64) << 20)?;
            let evaluator = named_evaluation::<G>(spec, &evaluation.eval)?;
            let search = AlphaBeta::try_new(config).map_err(refused)?;
            evaluation.eval = resolved_evaluation::<G>(&evaluation.eval);
            Ok(match evaluator {
                Some(evaluator) => Box::new(
                    AlphaBetaAgent::with_evaluator(spec, search, evaluator)
                        .with_evaluation_options(&evaluation),
                ),
                None => {
                    Box::new(AlphaBetaAgent::new(spec, search).with_evaluation_options(&evaluation))
                }
            })
        }
        "mcts" => {
            let (config, mut evaluation) =
                read_options_of::<MctsConfig, MctsEvaluation>(spec, kind, options)?;
            let evaluator = named_evaluation::<G>(spec, &evaluation.eval)?;
            if evaluation.leaf_depth > 0 {
                competitive_only::<G>(spec, "leaf-depth", "searches for two competing sides")?;
            }
            if evaluation.tempo > 0.0 {
                competitive_only::<G>(spec, "tempo", "favours one of two competing sides")?;
            }
            let evaluator = match (evaluation.leaf_depth, evaluator) {
                (0, evaluator) => evaluator,
                (depth, evaluator) => Some(Box::new(ShallowSearch::new(
                    evaluator.unwrap_or_else(|| Box::new(GameEvaluation)),
                    depth,
                )) as Box<dyn Evaluator<G>>),
            };
            let evaluator = if evaluation.tempo > 0.0 {
                Some(Box::new(Tempo {
                    inner: evaluator.unwrap_or_else(|| Box::new(GameEvaluation)),
                    bonus: evaluation.tempo,
                }) as Box<dyn Evaluator<G>>)
            } else {
                evaluator
            };
            if config.check_depth > 0 {
                competitive_only::<G>(spec, "check", "searches for two competing sides")?;
            }
            let trees = format!("a tree budget of {} nodes", config.node_budget);
            fits_in_memory(spec, &trees, config.memory_bytes::<G>())?;
            evaluation.eval = resolved_evaluation::<G>(&evaluation.eval);
            // The threads or the check's table the system refused.
            Ok(match evaluator {
                Some(evaluator) => Box::new(
                    MctsAgent::new(
                        spec,
                        Mcts::with_evaluator(config, seed, evaluator).map_err(refused)?,
                    )
                    .with_evaluation_options(&evaluation),
                ),
                None => Box::new(
                    MctsAgent::new(spec, Mcts::new(config, seed).map_err(refused)?)
                        .with_evaluation_options(&evaluation),
                ),
            })
        }
        "ismcts" => {
            let (config, _) = read_options_of::<IsmctsConfig, NoOptions>(spec, kind, options)?;
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
            let (config, _) = read_options_of::<SmMctsConfig, NoOptions>(spec, kind, options)?;
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
            let (options, _) =
                read_options_of::<EquilibriumOptions, NoOptions>(spec, kind, options)?;
            let agent = EquilibriumAgent::new(spec, options.rounds, seed);
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
        "az" => Err(ParseError::new(
            WHAT,
            spec,
            "`az` searches a game through its action encoding: build it with `build_encoded_agent` (a registered game's agents are)",
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

/// Builds the agent described by `spec` for a game with an action
/// encoding: the kinds of [`build_agent`], and `az`, a guided search
/// ([`GuidedConfig`]'s options and [`AzOptions`]'; the tables of
/// docs/search.md), which needs every player to see the whole state and
/// one player to move at a time. Registered games build their agents
/// here.
///
/// # Errors
/// As [`build_agent`].
pub fn build_encoded_agent<G: Evaluate + Encoding>(
    spec: &str,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, ParseError> {
    let expanded = expand_preset::<G>(spec)?;
    let trimmed = expanded.trim();
    let (kind, options) = trimmed.split_once(':').unwrap_or((trimmed, ""));
    if kind.trim() != "az" {
        return build_agent(spec, seed);
    }
    if let Some(lack) = lacking::<G>("az") {
        return Err(ParseError::new(
            WHAT,
            trimmed,
            format!("`az` needs {lack}, and {} {}", G::NAME, lack.because()),
        ));
    }
    let (config, options) = read_options_of::<GuidedConfig, AzOptions>(trimmed, "az", options)?;
    let agent = AzAgent::<G>::new(trimmed, config, options, seed)
        .map_err(|problem| ParseError::new(WHAT, trimmed, problem))?;
    Ok(Box::new(agent))
}

/// The options of a kind that takes none.
#[derive(Clone, Debug, Default, PartialEq)]
struct NoOptions;

crate::configurable!(NoOptions, "options", &[]);

/// Reads the options of a spec of `kind`, each either one of `C`'s (the
/// search's) or one of `E`'s (its evaluation's or playout's), onto their
/// defaults.
///
/// # Errors
/// An option neither declares (listing the valid ones, or saying that the
/// kind takes none), or what reading either refuses.
fn read_options_of<C: Configurable, E: Configurable>(
    spec: &str,
    kind: &str,
    options: &str,
) -> Result<(C, E), ParseError> {
    read_options_onto_both(WHAT, spec, kind, options, (C::default(), E::default()))
}

/// As [`read_options_of`], onto `bases` instead of the defaults (a game's
/// own defaults for a kind), calling the spec `what` in errors.
///
/// # Errors
/// As [`read_options_of`].
pub(crate) fn read_options_onto_both<C: Configurable, E: Configurable>(
    what: &'static str,
    spec: &str,
    kind: &str,
    options: &str,
    bases: (C, E),
) -> Result<(C, E), ParseError> {
    let pairs = parse_key_values(options, what)?;
    let (search_keys, evaluation_keys) = (keys::<C>(), keys::<E>());
    let (mut search, mut evaluation) = (Vec::new(), Vec::new());
    for &(key, value) in &pairs {
        let option = format!("{key}={value}");
        if search_keys.contains(&key) {
            search.push(option);
        } else if evaluation_keys.contains(&key) {
            evaluation.push(option);
        } else if search_keys.is_empty() && evaluation_keys.is_empty() {
            return Err(ParseError::new(
                what,
                spec,
                format!("unknown option `{key}` (`{kind}` takes no options)"),
            ));
        } else {
            let valid = [search_keys, evaluation_keys].concat();
            return Err(unknown_key(what, spec, key, &valid));
        }
    }
    // Errors quote the whole spec, as an agent spec's.
    let as_spec = |error: ParseError| ParseError::new(what, spec, error.problem());
    Ok((
        read_options_onto(bases.0, &search.join(","), spec).map_err(as_spec)?,
        read_options_onto(bases.1, &evaluation.join(","), spec).map_err(as_spec)?,
    ))
}

/// The spec of `kind` with `options` (`key=value` text, every option of
/// the agent written out), as [`Agent::configuration`] records it.
pub(crate) fn full_spec(kind: &str, options: &str) -> String {
    if options.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}:{options}")
    }
}

/// The game's evaluation named `eval` ([`Evaluate::named_evaluation`]),
/// or `None` without a name (the game's own evaluation).
fn named_evaluation<G: Evaluate>(
    spec: &str,
    eval: &Option<String>,
) -> Result<Option<Box<dyn Evaluator<G>>>, ParseError> {
    let Some(name) = eval else {
        return Ok(None);
    };
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
        "greedy" | "mcts" | "az" => &[Need::PerfectInformation, Need::TurnBased],
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
        let configuration = full_spec("ismcts", &config.to_string());
        Box::new(
            HonestAgent::<G>::new(
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
            )
            .with_configuration(configuration),
        )
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

/// Refuses a spec whose `what` needs more memory than the machine can give.
fn fits_in_memory(spec: &str, what: &str, bytes: u64) -> Result<(), ParseError> {
    check_memory(what, bytes).map_err(|problem| ParseError::new(WHAT, spec, problem))
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
        use crate::core::read_options;
        use std::time::Duration;
        let config: AlphaBetaConfig = read_options("ms=100").unwrap();
        assert_eq!(
            (config.depth, config.time),
            (None, Some(Duration::from_millis(100)))
        );
        assert_eq!(
            read_options::<AlphaBetaConfig>("nodes=5").unwrap().depth,
            None
        );
        assert_eq!(read_options::<AlphaBetaConfig>("").unwrap().depth, Some(4));
        let config: MctsConfig = read_options("ms=100").unwrap();
        assert_eq!(config.iterations, None);
        let config: MctsConfig = read_options("ms=100,iters=5").unwrap();
        assert_eq!(config.iterations, Some(5));
        assert_eq!(
            read_options::<MctsConfig>("").unwrap().iterations,
            Some(10_000)
        );
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
        assert!(error("mcts:widen=-1").contains("`widen` must be from 0 to 1000, not `-1`"));
        assert!(error("mcts:widen=inf").contains("`widen` must be from 0 to 1000, not `inf`"));
        assert!(error("mcts:widen=x").contains("it takes a number from 0 to 1000 or `off`"));
        assert!(error("mcts:widen-exp=0.5").contains("needs widening on"));
        assert!(error("mcts:widen=2,widen-exp=1.5").contains("from 0 to 1"));
        assert!(error("mcts:threads=0").contains("from 1"));
        assert!(error("human").contains("norn play"));
        assert!(error("mcts:iters").contains("key=value"));
    }
}
