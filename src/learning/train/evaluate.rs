//! Evaluation during training: every few generations the newest network
//! plays a gauntlet (the tournament machinery: colour-swapped pairs,
//! seeded) against the network evaluated before it and fixed baselines,
//! in `evaluations/N/` of the run directory; then every evaluated
//! generation is rated on one Bradley-Terry scale from all those games,
//! anchored at 0 on the first baseline searching a fixed budget
//! (`ratings.json`).
//!
//! A baseline whose `ms` is `equal` (`mcts:preset=best,ms=equal`) searches
//! for as long as the newest network took per move: it plays a second
//! gauntlet, in `evaluations/N-equal-time/`, at the mean time of the
//! network's decisions in the first, rounded up to a whole millisecond.
//! Each generation's is another agent on the scale, named by its time.
//!
//! On a cooperative game there is no one to play against: each evaluated
//! network's win rate on fixed seeded deals is measured instead
//! ([`super::winrates`]).

use super::store::{CHECKPOINTS, NETWORK_FILE};
use super::winrates::{self, WinRates};
use crate::agents::{Agent, AzAgent, best_settings};
use crate::arena::winrate::EXACT_POLICY;
use crate::arena::{
    GameLine, Openings, PlySearch, RunOptions, TournamentConfig, Unwatched, fit_ratings,
    run_tournament,
};
use crate::core::{Capabilities, ParseError, derive_seed};
use crate::net::Network;
use crate::registry::{Registered, build_agent};
use crate::search::guided::{EvaluationBlend, GuidedConfig, Tensors};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The directory of the evaluations' tournaments.
pub const EVALUATIONS: &str = "evaluations";
/// The ratings of every evaluated generation.
pub const RATINGS_FILE: &str = "ratings.json";
/// The stream of an evaluation's seed, derived from the run's seed and
/// the generation.
const EVALUATION_STREAM: u64 = 3;
/// The value of a baseline's `ms` that stands for the newest network's
/// time per move.
const EQUAL_TIME: &str = "equal";
/// What the directory of a generation's equal-time gauntlet adds to the
/// generation's number.
const EQUAL_TIME_SUFFIX: &str = "-equal-time";

/// How the networks are evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct EvaluationSettings {
    /// Every how many generations (the generations that are multiples of
    /// it are evaluated).
    pub every: u64,
    /// Games against each opponent, in colour-swapped pairs; on a
    /// cooperative game, the deals each policy plays.
    pub games_per_pair: usize,
    /// The fixed opponents, as agent specs (the first searching a fixed
    /// budget anchors the ratings); on a cooperative game, the policies
    /// measured beside the networks (`exact`: the exact solver).
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
    /// Every agent, the checkpoints in order, then the baselines (a
    /// baseline at equal time once per generation it played).
    pub agents: Vec<Rating>,
}

/// What the evaluations found so far.
#[derive(Clone, Debug, PartialEq)]
pub enum Evaluation {
    /// The ratings of a game of two competing sides.
    Ratings(Ratings),
    /// The win rates of a cooperative game.
    WinRates(WinRates),
}

impl fmt::Display for Evaluation {
    /// The evaluation in a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evaluation::Ratings(ratings) => {
                let each: Vec<String> = ratings
                    .agents
                    .iter()
                    .map(|rating| format!("{} {:+.0}", rating.agent, rating.elo))
                    .collect();
                write!(
                    f,
                    "ratings (Elo, {} at 0): {}",
                    ratings.anchor,
                    each.join(", ")
                )
            }
            Evaluation::WinRates(rates) => {
                let each: Vec<String> = rates
                    .generations
                    .iter()
                    .map(|generation| &generation.rate)
                    .chain(&rates.baselines)
                    .map(|rate| format!("{} {:.1}%", rate.policy, 100.0 * rate.win_rate))
                    .collect();
                write!(f, "win rates on {} deals: {}", rates.deals, each.join(", "))
            }
        }
    }
}

/// The baselines a run of game `G` is evaluated against when none are
/// given, for a self-play search of `simulations`: MCTS of the same
/// simulations and uniform priors; then, on a game of two sides,
/// alpha-beta to depth 2 and each of the game's presets at the newest
/// network's time per move, and on a cooperative game the exact solver.
pub fn default_baselines<G: Registered>(simulations: u32) -> Vec<String> {
    let mut baselines = vec![format!("mcts:iters={simulations}")];
    if Capabilities::of::<G>().cooperative() {
        baselines.push(EXACT_POLICY.to_string());
    } else {
        baselines.push("alphabeta:depth=2".to_string());
        let mut kinds: Vec<&str> = best_settings::<G>()
            .into_iter()
            .map(|(kind, _)| kind)
            .collect();
        kinds.sort_unstable();
        baselines.extend(
            kinds
                .into_iter()
                .map(|kind| format!("{kind}:preset=best,ms={EQUAL_TIME}")),
        );
    }
    baselines
}

/// The evaluations a training session asks for, as its caller names them
/// (`norn train --eval-every`, `norn.train(eval_every=...)`).
#[derive(Clone, Debug, PartialEq)]
pub struct EvaluationRequest {
    /// Every how many generations.
    pub every: u64,
    /// Games against each opponent (deals on a cooperative game).
    pub games_per_pair: usize,
    /// The baselines; none asks for the game's defaults
    /// ([`default_baselines`]).
    pub baselines: Vec<String>,
}

impl EvaluationSettings {
    /// The evaluations `request` asks for of a run of `settings` from
    /// `start` trained in `session` (its search, seed, threads and resume
    /// permission), checked before any training ([`Self::check`]).
    ///
    /// # Errors
    /// As [`Self::check`].
    pub fn of_run<G: Registered>(
        start: &G,
        request: &EvaluationRequest,
        settings: &super::TrainSettings,
        session: &super::TrainSession,
    ) -> Result<EvaluationSettings, String> {
        let evaluation = EvaluationSettings {
            every: request.every,
            games_per_pair: request.games_per_pair,
            baselines: if request.baselines.is_empty() {
                default_baselines::<G>(settings.search.simulations)
            } else {
                request.baselines.clone()
            },
            search: settings.search.clone(),
            seed: settings.seed,
            threads: session.threads,
            force_resume: session.force_resume,
        };
        evaluation.check(start)?;
        Ok(evaluation)
    }

    /// Plays and rates the evaluations due once checkpoint `generation`
    /// is written (none unless it is a multiple of `every`; see
    /// [`evaluate_generations`]).
    ///
    /// # Errors
    /// As [`evaluate_generations`].
    pub fn after_checkpoint<G: Registered>(
        &self,
        start: &G,
        dir: &Path,
        generation: u64,
    ) -> Result<Option<Evaluation>, String> {
        // Only a generation evaluated brings new games (or, on a resume,
        // an evaluation cut short).
        if !generation.is_multiple_of(self.every) {
            return Ok(None);
        }
        evaluate_generations(start, dir, generation, self)
    }

    /// Checks the settings before any training: a game of two competing
    /// sides (the game of `start`), a whole number of generations between
    /// evaluations, colour-swapped pairs of games, baselines that are
    /// agents of the game; or a cooperative game with deals, a number of
    /// deals, baselines that are its policies.
    ///
    /// # Errors
    /// The first setting that cannot be used.
    pub fn check<G: Registered>(&self, start: &G) -> Result<(), String> {
        if self.every == 0 {
            return Err("evaluations need at least 1 generation between them".into());
        }
        if Capabilities::of::<G>().cooperative() {
            return winrates::check(start, self);
        }
        if start.num_players() != 2 {
            return Err(format!(
                "evaluations are gauntlets between two competing sides, and {} is not a game \
                 of two competing sides",
                G::NAME
            ));
        }
        if self.games_per_pair == 0 || !self.games_per_pair.is_multiple_of(2) {
            return Err(format!(
                "an evaluation plays colour-swapped pairs of games: a positive even number, not {}",
                self.games_per_pair
            ));
        }
        for spec in &self.baselines {
            let spec = at_time(spec, 1).unwrap_or_else(|| spec.clone());
            build_agent::<G>(&spec, 0).map_err(|error| error.to_string())?;
        }
        crate::core::validate_options(&self.search)
    }
}

/// `spec` searching `ms` milliseconds a move, if its `ms` is `equal`.
fn at_time(spec: &str, ms: u64) -> Option<String> {
    let (kind, options) = spec.trim().split_once(':')?;
    let mut timed = false;
    let options: Vec<String> = options
        .split(',')
        .map(|option| match option.split_once('=') {
            Some((key, value)) if key.trim() == "ms" && value.trim() == EQUAL_TIME => {
                timed = true;
                format!("ms={ms}")
            }
            _ => option.to_string(),
        })
        .collect();
    timed.then(|| format!("{kind}:{}", options.join(",")))
}

/// The spec of generation `generation`'s network in the evaluations.
pub(super) fn checkpoint_spec(generation: u64) -> String {
    format!("checkpoint-{generation}")
}

/// Generation `generation`'s network in the run directory `dir`.
pub(super) fn load_network(dir: &Path, generation: u64) -> Result<Network, String> {
    let path = dir
        .join(CHECKPOINTS)
        .join(generation.to_string())
        .join(NETWORK_FILE);
    Network::load(&path).map_err(|error| error.to_string())
}

/// The agent `spec` that searches as `search` says (on one thread) guided
/// by `network`.
pub(super) fn checkpoint_agent<G: Registered>(
    spec: &str,
    search: &GuidedConfig,
    network: &Arc<Network>,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, ParseError> {
    let search = GuidedConfig {
        threads: 1,
        ..search.clone()
    };
    let evaluator = EvaluationBlend::new(Tensors(Arc::clone(network)), search.eval_mix);
    AzAgent::with_evaluator(spec, search, Box::new(evaluator), seed)
        .map(|agent| Box::new(agent) as Box<dyn Agent<G>>)
        .map_err(|error| ParseError::new("agent spec", spec, error))
}

/// Writes `value` as `name` in `dir`, through a partial file renamed into
/// place.
pub(super) fn write_json(dir: &Path, name: &str, value: &impl Serialize) -> Result<(), String> {
    let path = dir.join(name);
    let text = serde_json::to_string_pretty(value).map_err(|error| error.to_string())?;
    let partial = dir.join(format!("{name}.partial"));
    std::fs::write(&partial, text + "\n")
        .and_then(|()| std::fs::rename(&partial, &path))
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// Plays the evaluations due up to checkpoint `latest` of the run in
/// `dir` and writes what they found: on a game of two sides, generation N
/// (a multiple of `every`) plays N minus `every` and the baselines (an
/// evaluation cut short resumes), then every evaluated generation is
/// rated from all their games (`ratings.json`); on a cooperative game,
/// the win rates ([`super::winrates`], `winrates.json`). Returns them, or
/// `None` before the first evaluation.
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
) -> Result<Option<Evaluation>, String> {
    settings.check(start)?;
    if latest < settings.every {
        return Ok(None);
    }
    if Capabilities::of::<G>().cooperative() {
        return winrates::evaluate(start, dir, latest, settings)
            .map(|rates| Some(Evaluation::WinRates(rates)));
    }
    let evaluated: Vec<u64> = (1..=latest / settings.every)
        .map(|round| round * settings.every)
        .collect();
    let mut names: Vec<String> = std::iter::once(0)
        .chain(evaluated.iter().copied())
        .map(checkpoint_spec)
        .collect();
    let fixed = fixed_baselines(settings);
    names.extend(fixed.iter().cloned());
    let mut rated = Vec::new();
    let mut games = Vec::new();
    for &generation in &evaluated {
        for line in evaluate_generation(start, dir, generation, settings)? {
            let mut index = |seat: usize| {
                let agent = &line.agents[seat];
                match names.iter().position(|name| name == agent) {
                    Some(index) => index,
                    None => {
                        names.push(agent.clone());
                        names.len() - 1
                    }
                }
            };
            let (first, second) = (index(0), index(1));
            games.resize(names.len(), 0usize);
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
    games.resize(names.len(), 0);
    let anchor = if fixed.is_empty() {
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
    write_json(dir, RATINGS_FILE, &ratings)?;
    Ok(Some(Evaluation::Ratings(ratings)))
}

/// The baselines that search a fixed budget, in order.
fn fixed_baselines(settings: &EvaluationSettings) -> Vec<String> {
    settings
        .baselines
        .iter()
        .filter(|spec| at_time(spec, 1).is_none())
        .cloned()
        .collect()
}

/// Plays (or resumes, or reads back) generation `generation`'s gauntlets
/// and returns their games: against the network evaluated before it and
/// the fixed baselines, then against the baselines at equal time, if any.
fn evaluate_generation<G: Registered>(
    start: &G,
    dir: &Path,
    generation: u64,
    settings: &EvaluationSettings,
) -> Result<Vec<GameLine>, String> {
    let previous = generation - settings.every;
    let networks = [
        (generation, Arc::new(load_network(dir, generation)?)),
        (previous, Arc::new(load_network(dir, previous)?)),
    ];
    let newest = checkpoint_spec(generation);
    let mut agents = vec![newest.clone(), checkpoint_spec(previous)];
    agents.extend(fixed_baselines(settings));
    let gauntlet = |agents: Vec<String>, name: String| {
        play_gauntlet(start, dir, (generation, name), agents, &networks, settings)
    };
    let mut games = gauntlet(agents, generation.to_string())?;
    let ms = mean_ms_per_move(&games, &newest);
    let timed: Vec<String> = settings
        .baselines
        .iter()
        .filter_map(|spec| at_time(spec, ms))
        .collect();
    if !timed.is_empty() {
        let agents = std::iter::once(newest).chain(timed).collect();
        games.extend(gauntlet(
            agents,
            format!("{generation}{EQUAL_TIME_SUFFIX}"),
        )?);
    }
    Ok(games)
}

/// The mean time `agent` took per decision in `games`, in milliseconds
/// rounded up (at least 1).
fn mean_ms_per_move(games: &[GameLine], agent: &str) -> u64 {
    let (mut seconds, mut decisions) = (0.0, 0u64);
    for line in games {
        for decision in line.search.iter().flatten().flat_map(PlySearch::decisions) {
            if line
                .agents
                .get(decision.seat)
                .is_some_and(|name| name == agent)
            {
                seconds += decision.time;
                decisions += 1;
            }
        }
    }
    if decisions == 0 {
        return 1;
    }
    ((seconds / decisions as f64 * 1000.0).ceil() as u64).max(1)
}

/// Plays (or resumes, or reads back) the gauntlet of `agents` (the first
/// against the others) in `evaluations/NAME/`, for the evaluation of
/// `generation`, the checkpoints' agents guided by `networks`.
fn play_gauntlet<G: Registered>(
    start: &G,
    dir: &Path,
    (generation, name): (u64, String),
    agents: Vec<String>,
    networks: &[(u64, Arc<Network>)],
    settings: &EvaluationSettings,
) -> Result<Vec<GameLine>, String> {
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
    let make_agent = |spec: &str, seed: u64| -> Result<Box<dyn Agent<G>>, ParseError> {
        match networks
            .iter()
            .find(|(generation, _)| checkpoint_spec(*generation) == spec)
        {
            Some((_, network)) => checkpoint_agent(spec, &settings.search, network, seed),
            None => build_agent::<G>(spec, seed),
        }
    };
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        threads: settings.threads,
        shard: crate::arena::Shard::ALL,
        out_dir: Some(dir.join(EVALUATIONS).join(name)),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: settings.force_resume,
        max_forfeits: crate::arena::DEFAULT_MAX_FORFEITS,
        record_search: true,
    };
    let result = run_tournament(&config, start, &make_agent, &options)
        .map_err(|error| format!("the evaluation of generation {generation}: {error}"))?;
    Ok(result.games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_equal_ms_is_replaced_by_the_time_measured() {
        assert_eq!(
            at_time("mcts:preset=best, ms=equal", 7).as_deref(),
            Some("mcts:preset=best,ms=7")
        );
        for spec in ["mcts:ms=5", "mcts:iters=8", "random", "mcts:name=equal"] {
            assert_eq!(at_time(spec, 7), None, "{spec}");
        }
    }
}
