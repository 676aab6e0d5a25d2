//! The `az` agent: a guided search ([`GuidedSearch`], PUCT or Gumbel)
//! deciding one move at a time, each decision of a move that takes
//! several searched in turn, with the evaluator its spec names.

use super::searchers::require_to_move;
use super::spec::full_spec;
use super::{Agent, AgentError, Decision, SearchRecord};
use crate::core::{Declared, Encoding, Evaluate, Kind, Player, Value, derive_seed};
use crate::net::{NetError, Network};
use crate::search::StopFlag;
use crate::search::guided::{
    EvaluationBlend, GuidedConfig, GuidedSearch, LeafEvaluator, SearchRoot, Tensors,
    UniformEvaluation, UniformPlayout,
};
use std::path::Path;
use std::time::Instant;

/// What guides an `az` agent's search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Guide {
    /// Uniform priors and the value of a random playout
    /// ([`UniformPlayout`]): `net=uniform`.
    Uniform,
    /// Uniform priors and the game's own evaluation
    /// ([`UniformEvaluation`]): `net=eval`.
    Evaluation,
    /// The network in the safetensors file at this path
    /// ([`Network::load`]), or the newest checkpoint's of the training run
    /// in this directory, or the network of this checkpoint's directory
    /// ([`network_file`](crate::learning::train::store::network_file)):
    /// `net=PATH`.
    Network(String),
}

impl Guide {
    /// The guide `text` names: `uniform`, `eval`, or any other text as the
    /// path of a network file. (A spec's options are separated by commas,
    /// so a path read here holds none; one given through the library is
    /// refused when the agent is made: [`comma_refusal`].)
    fn read(text: &str) -> Result<Guide, String> {
        match text {
            "uniform" => Ok(Guide::Uniform),
            "eval" => Ok(Guide::Evaluation),
            "" => Err(
                "net takes `uniform`, `eval` or the path of a network file or a training run"
                    .to_string(),
            ),
            path => Ok(Guide::Network(path.to_string())),
        }
    }

    /// The text [`read`](Self::read) reads back.
    fn text(&self) -> &str {
        match self {
            Guide::Uniform => "uniform",
            Guide::Evaluation => "eval",
            Guide::Network(path) => path,
        }
    }
}

/// Why a network path holding a comma is refused: options built in code
/// with one would write a spec that does not read back
/// (`az:net=a,b.safetensors` reads as `net=a` and an option
/// `b.safetensors`).
fn comma_refusal(path: &str) -> String {
    format!(
        "the network path `{path}` holds a comma, which separates a spec's options: rename the file or link it from a path without one"
    )
}

/// The options of an `az` agent beside its search's ([`GuidedConfig`]):
/// its evaluator.
#[derive(Clone, Debug, PartialEq)]
pub struct AzOptions {
    /// What guides the search.
    pub net: Guide,
    /// With [`Guide::Uniform`]: the random plies of a playout before the
    /// evaluation scores the position; `None` plays to the end.
    pub playout_plies: Option<u32>,
}

impl Default for AzOptions {
    fn default() -> Self {
        AzOptions {
            net: Guide::Uniform,
            playout_plies: Some(10),
        }
    }
}

/// Every option of [`AzOptions`], in the order its text is written.
const AZ_OPTIONS: &[Declared<AzOptions>] = &[
    Declared {
        key: "net",
        kind: Kind::Text("`uniform`, `eval`, or the path of a network file or a training run"),
        help: "what guides the search: `uniform` priors with random playouts' values, uniform priors with the game's own evaluation (`eval`), or the network in a file (`norn net init`, a trained network), a training run's directory (its newest checkpoint) or a checkpoint's (`DIR/checkpoints/N`), made for the game and its rules (read once for every agent while the file is unchanged; its path cannot hold a comma, which separates options)",
        get: |options| Value::Text(options.net.text().to_string()),
        set: |options, value| {
            options.net = Guide::read(value.text())?;
            Ok(())
        },
    },
    crate::search::options::playout_option!(
        "with `net=uniform`: random plies of a playout before the evaluation scores the position; `none` plays to the end"
    ),
];

crate::configurable!(AzOptions, "az evaluator options", AZ_OPTIONS);

impl AzOptions {
    /// The evaluator the options name, for game `G`; a network runs its
    /// batches on `threads` threads. A network file is read once for all
    /// the agents that play with it while it is unchanged
    /// ([`Network::load_shared`]).
    ///
    /// # Errors
    /// A network file that cannot be read, is not a network, or was made
    /// for another game (its rules and shapes are checked when a search
    /// starts, against the position searched), or threads the machine
    /// cannot give.
    pub fn evaluator<G: Encoding + Evaluate>(
        &self,
        search: &GuidedConfig,
    ) -> Result<Box<dyn LeafEvaluator<G>>, String> {
        let guide: Box<dyn LeafEvaluator<G>> = match &self.net {
            Guide::Uniform => Box::new(UniformPlayout {
                plies: self.playout_plies,
            }),
            Guide::Evaluation => Box::new(UniformEvaluation),
            Guide::Network(path) if path.contains(',') => return Err(comma_refusal(path)),
            Guide::Network(path) => {
                let file = crate::learning::train::store::network_file(Path::new(path))?;
                let network = Network::load_shared(&file, search.threads)
                    .map_err(|error| error.to_string())?;
                let made_for = &network.description().game;
                if made_for != G::NAME {
                    return Err(NetError::WrongGame(format!(
                        "the network {path} was made for {made_for}, not {}",
                        G::NAME
                    ))
                    .to_string());
                }
                Box::new(Tensors(network))
            }
        };
        Ok(Box::new(EvaluationBlend::new(guide, search.eval_mix)))
    }
}

/// Plays the moves of a guided search.
pub struct AzAgent<G: Encoding> {
    spec: String,
    search: GuidedSearch,
    /// The evaluator's options as a spec writes them.
    evaluation: String,
    evaluator: Box<dyn LeafEvaluator<G>>,
    seed: u64,
    /// Searches so far: each draws from a seed of its own.
    searches: u64,
    last_search: Option<SearchRecord<G::Move>>,
}

impl<G: Encoding + Evaluate> AzAgent<G> {
    /// An agent built from `spec`, searching with `config` and the
    /// evaluator of `options`, its random choices drawn from `seed`.
    ///
    /// # Errors
    /// A configuration the search refuses, or threads the system cannot
    /// give.
    pub fn new(
        spec: impl Into<String>,
        config: GuidedConfig,
        options: AzOptions,
        seed: u64,
    ) -> Result<Self, String> {
        let evaluator = options.evaluator(&config)?;
        AzAgent::with_evaluator(spec, config, evaluator, seed).map(|agent| AzAgent {
            evaluation: crate::core::write_options(&options),
            ..agent
        })
    }
}

impl<G: Encoding> AzAgent<G> {
    /// An agent that searches with `config` and `evaluator` (a network,
    /// an exact oracle, any [`LeafEvaluator`]), its random choices drawn
    /// from `seed`. Its configuration says `net=custom`, which no spec
    /// reads back.
    ///
    /// # Errors
    /// A configuration the search refuses, or threads the system cannot
    /// give.
    pub fn with_evaluator(
        spec: impl Into<String>,
        config: GuidedConfig,
        evaluator: Box<dyn LeafEvaluator<G>>,
        seed: u64,
    ) -> Result<Self, String> {
        Ok(AzAgent {
            spec: spec.into(),
            search: GuidedSearch::new(config)?,
            evaluator,
            evaluation: "net=custom".to_string(),
            seed,
            searches: 0,
            last_search: None,
        })
    }
}

impl<G: Encoding> Agent<G> for AzAgent<G> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        full_spec(
            "az",
            &format!("{},{}", self.search.config(), self.evaluation),
        )
    }

    /// Searches the move's first decision, then each later one from the
    /// decisions chosen, until the ids chosen make a move.
    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        require_to_move(state, player)?;
        let started = Instant::now();
        let mut pending = Vec::new();
        let mut record: Option<SearchRecord<G::Move>> = None;
        loop {
            self.searches += 1;
            let root = SearchRoot {
                state,
                pending: &pending,
                seed: derive_seed(self.seed, self.searches),
            };
            let outcome = self
                .search
                .search(&[root], &mut self.evaluator)
                .map_err(|error| AgentError::new(error.to_string()))?
                .pop()
                .expect("one outcome per root");
            let chosen = outcome.chosen_action();
            let record = record.get_or_insert_with(|| SearchRecord {
                seconds: 0.0,
                depth: None,
                iterations: Some(0),
                nodes: 0,
                value: 0.0,
                pv: Vec::new(),
                visit_share: Some(f64::from(chosen.visits) / f64::from(outcome.simulations.max(1))),
                policy_entropy: Some(outcome.policy_entropy()),
            });
            record.iterations = record
                .iterations
                .map(|total| total + u64::from(outcome.simulations));
            record.nodes += outcome.nodes as u64;
            // The last decision's value is the whole move's.
            record.value = chosen.value.clamp(-1.0, 1.0);
            match outcome.completed {
                Some(mv) => {
                    record.seconds = started.elapsed().as_secs_f64();
                    record.pv = vec![mv];
                    self.last_search = Some(record.clone());
                    return Ok(Decision::Play(mv));
                }
                None => pending.push(outcome.chosen),
            }
        }
    }

    fn reset(&mut self) {
        self.last_search = None;
    }

    /// Each search of a decision checks the flag after every round of
    /// simulations (see [`GuidedSearch::set_stop_flag`]).
    fn set_stop_flag(&mut self, flag: StopFlag) -> bool {
        self.search.set_stop_flag(flag);
        true
    }

    fn last_search(&self) -> Option<SearchRecord<G::Move>> {
        self.last_search.clone()
    }
}
