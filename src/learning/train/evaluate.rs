//! Evaluation during training: every few generations the newest network
//! plays a gauntlet (the tournament machinery: colour-swapped pairs,
//! seeded) against the network evaluated before it and fixed baselines,
//! in `evaluations/N/` of the run directory; then every evaluated
//! generation is rated on one Bradley-Terry scale from all those games,
//! anchored at 0 on the first baseline (`ratings.json`).

use super::store::{CHECKPOINTS, NETWORK_FILE};
use crate::agents::{Agent, AzAgent};
use crate::arena::{
    Openings, RunOptions, TournamentConfig, Unwatched, fit_ratings, run_tournament,
};
use crate::core::{ParseError, derive_seed};
use crate::net::Network;
use crate::registry::{Registered, build_agent};
use crate::search::guided::{GuidedConfig, Tensors};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The directory of the evaluations' tournaments.
pub const EVALUATIONS: &str = "evaluations";
/// The ratings of every evaluated generation.
pub const RATINGS_FILE: &str = "ratings.json";
/// The stream of an evaluation's seed, derived from the run's seed and
/// the generation.
const EVALUATION_STREAM: u64 = 3;

/// How the networks are evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct EvaluationSettings {
    /// Every how many generations (the generations that are multiples of
    /// it are evaluated).
    pub every: u64,
    /// Games against each opponent, in colour-swapped pairs.
    pub games_per_pair: usize,
    /// The fixed opponents, as agent specs (the first anchors the ratings).
    pub baselines: Vec<String>,
    /// The networks' search when they play (one thread each).
    pub search: GuidedConfig,
    /// The run's seed.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Resume evaluations that another build of norn played.
    pub force_resume: bool,
}

/// One agent's rating over all the evaluations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// `checkpoint-N` for generation N's network, else a baseline's spec.
    pub agent: String,
    /// Its rating in Elo, the anchor's 0.
    pub elo: f64,
    /// The lower end of its 95% interval.
    pub low: f64,
    /// The upper end of its 95% interval.
    pub high: f64,
    /// Its games.
    pub games: usize,
}

/// The ratings of every generation evaluated, and of the baselines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratings {
    /// The agent rated 0.
    pub anchor: String,
    /// Every agent, the checkpoints in order, then the baselines.
    pub agents: Vec<Rating>,
}

impl EvaluationSettings {
    /// Checks the settings before any training: a game of two competing
    /// sides (the game of `start`), a whole number of generations between
    /// evaluations, colour-swapped pairs of games, baselines that are
    /// agents of the game.
    ///
    /// # Errors
    /// The first setting that cannot be used.
    pub fn check<G: Registered>(&self, start: &G) -> Result<(), String> {
        if !crate::core::Capabilities::of::<G>().competitive() || start.num_players() != 2 {
            return Err(format!(
                "evaluations are gauntlets between two competing sides, and {} is not a game \
                 of two competing sides (its win rates on seeded deals are not measured yet)",
                G::NAME
            ));
        }
        if self.every == 0 {
            return Err("evaluations need at least 1 generation between them".into());
        }
        if self.games_per_pair == 0 || !self.games_per_pair.is_multiple_of(2) {
            return Err(format!(
                "an evaluation plays colour-swapped pairs of games: a positive even number, not {}",
                self.games_per_pair
            ));
        }
        for spec in &self.baselines {
            build_agent::<G>(spec, 0).map_err(|error| error.to_string())?;
        }
        crate::core::validate_options(&self.search)
    }
}

/// The spec of generation `generation`'s network in the evaluations.
fn checkpoint_spec(generation: u64) -> String {
    format!("checkpoint-{generation}")
}

/// Plays the evaluations due up to checkpoint `latest` of the run in
/// `dir` (generation N, a multiple of `every`, plays N minus `every` and
/// the baselines; an evaluation cut short resumes), then rates every
/// evaluated generation from all their games and writes `ratings.json`.
/// Returns the ratings, or `None` before the first evaluation.
///
/// # Errors
/// Settings the tournament refuses (an odd number of games, a baseline
/// that does not read), a checkpoint that does not load, and what stops a
/// tournament.
pub fn evaluate_generations<G: Registered>(
    start: &G,
    dir: &Path,
    latest: u64,
    settings: &EvaluationSettings,
) -> Result<Option<Ratings>, String> {
    settings.check(start)?;
    let evaluated: Vec<u64> = (1..=latest / settings.every)
        .map(|round| round * settings.every)
        .collect();
    if evaluated.is_empty() {
        return Ok(None);
    }
    let mut names: Vec<String> = std::iter::once(0)
        .chain(evaluated.iter().copied())
        .map(checkpoint_spec)
        .collect();
    names.extend(settings.baselines.iter().cloned());
    let mut rated = Vec::new();
    let mut games = vec![0usize; names.len()];
    for &generation in &evaluated {
        let played = evaluate_generation(start, dir, generation, settings)?;
        for line in played {
            let index = |seat: usize| {
                names
                    .iter()
                    .position(|name| *name == line.agents[seat])
                    .expect("every agent of an evaluation is named")
            };
            let (first, second) = (index(0), index(1));
            games[first] += 1;
            games[second] += 1;
            let score = match line.payoffs[0].total_cmp(&line.payoffs[1]) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            rated.push((first, second, score));
        }
    }
    let anchor = if settings.baselines.is_empty() {
        0
    } else {
        evaluated.len() + 1
    };
    let fit = fit_ratings(names.len(), &rated, anchor, 0.0);
    let ratings = Ratings {
        anchor: names[anchor].clone(),
        agents: names
            .iter()
            .enumerate()
            .map(|(index, name)| Rating {
                agent: name.clone(),
                elo: fit.elo[index],
                low: fit.low[index],
                high: fit.high[index],
                games: games[index],
            })
            .collect(),
    };
    let path = dir.join(RATINGS_FILE);
    let text = serde_json::to_string_pretty(&ratings).map_err(|error| error.to_string())?;
    let partial = dir.join(format!("{RATINGS_FILE}.partial"));
    std::fs::write(&partial, text + "\n")
        .and_then(|()| std::fs::rename(&partial, &path))
        .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
    Ok(Some(ratings))
}

/// Plays (or resumes, or reads back) generation `generation`'s gauntlet
/// and returns its games.
fn evaluate_generation<G: Registered>(
    start: &G,
    dir: &Path,
    generation: u64,
    settings: &EvaluationSettings,
) -> Result<Vec<crate::arena::GameLine>, String> {
    let previous = generation - settings.every;
    let load = |generation: u64| {
        let path = dir
            .join(CHECKPOINTS)
            .join(generation.to_string())
            .join(NETWORK_FILE);
        Network::load(&path).map_err(|error| error.to_string())
    };
    let networks = [(generation, load(generation)?), (previous, load(previous)?)];
    let mut agents = vec![checkpoint_spec(generation), checkpoint_spec(previous)];
    agents.extend(settings.baselines.iter().cloned());
    let config = TournamentConfig {
        game: G::NAME.to_string(),
        rules: start.rules().to_string(),
        agents,
        games_per_pair: settings.games_per_pair,
        seed: derive_seed(derive_seed(settings.seed, generation), EVALUATION_STREAM),
        max_plies: None,
        anchor: None,
        openings: Openings::start(),
        gauntlet: true,
        time_control: None,
        adjudication: None,
    };
    let search = GuidedConfig {
        threads: 1,
        ..settings.search.clone()
    };
    let make_agent = |spec: &str, seed: u64| -> Result<Box<dyn Agent<G>>, ParseError> {
        match networks
            .iter()
            .find(|(generation, _)| checkpoint_spec(*generation) == spec)
        {
            Some((_, network)) => {
                let evaluator = Box::new(Tensors(network.clone()));
                AzAgent::with_evaluator(spec, search.clone(), evaluator, seed)
                    .map(|agent| Box::new(agent) as Box<dyn Agent<G>>)
                    .map_err(|error| ParseError::new("agent spec", spec, error))
            }
            None => build_agent::<G>(spec, seed),
        }
    };
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        threads: settings.threads,
        shard: crate::arena::Shard::ALL,
        out_dir: Some(dir.join(EVALUATIONS).join(generation.to_string())),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: settings.force_resume,
        max_forfeits: crate::arena::DEFAULT_MAX_FORFEITS,
        record_search: false,
    };
    let result = run_tournament(&config, start, &make_agent, &options)
        .map_err(|error| format!("the evaluation of generation {generation}: {error}"))?;
    Ok(result.games)
}
