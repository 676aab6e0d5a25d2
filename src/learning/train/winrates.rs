//! Evaluation during training on a cooperative game: no gauntlet, since
//! the players are one team, but the win rate of each evaluated network
//! over fixed seeded deals, beside the baselines' on the same deals (the
//! win-rate machinery of [`crate::arena::winrate`]).
//!
//! The deals are those of `norn winrate --seed SEED` for the run's seed, so
//! any other policy can be measured on them afterwards. Generation N's
//! network plays them in `evaluations/N/` (generation 0, the untrained
//! network, included), the baselines once in `evaluations/baselines/`;
//! each is a win-rate run directory whose deal log resumes a session cut
//! short. The rates, with their 95% Wilson intervals, go to
//! `winrates.json`.

use super::evaluate::{EVALUATIONS, EvaluationSettings, checkpoint_agent, checkpoint_spec};
use crate::arena::winrate::{
    Contender, WinRate, WinRateDirectory, WinRateRun, WinRateRunConfig, compare_policies_in,
};
use crate::arena::{AgentFactory, Provenance, RunKind, Shard};
use crate::core::{ChanceVisitor, Stochastic};
use crate::registry::{Registered, build_agent};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

/// The win rates of every evaluated generation and of the baselines.
pub const WIN_RATES_FILE: &str = "winrates.json";
/// The directory of the baselines' deals, under `evaluations/`.
const BASELINES: &str = "baselines";

/// One generation's network's win rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationRate {
    /// The generation (0: the network before any training).
    pub generation: u64,
    /// Its rate over the deals, its policy named `checkpoint-N`.
    #[serde(flatten)]
    pub rate: WinRate,
}

/// The win rates of a cooperative game's training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WinRates {
    /// The seed that deals the deals (the run's).
    pub seed: u64,
    /// The deals every policy plays.
    pub deals: u64,
    /// Generation 0 and every evaluated generation, in order.
    pub generations: Vec<GenerationRate>,
    /// The baselines, in the order given.
    pub baselines: Vec<WinRate>,
}

/// What to do once the game is known to have deals.
enum Task<'a> {
    /// Check the settings.
    Check,
    /// Play the evaluations due up to checkpoint `latest` of the run in
    /// `dir`.
    Evaluate { dir: &'a Path, latest: u64 },
}

/// Checks the settings of a cooperative game's evaluations: a game with
/// deals, a number of deals a win-rate run plays, baselines that are
/// policies of the game.
///
/// # Errors
/// The first setting that cannot be used.
pub(super) fn check<G: Registered>(start: &G, settings: &EvaluationSettings) -> Result<(), String> {
    visit(start, settings, Task::Check).map(|_| ())
}

/// Plays the evaluations due up to checkpoint `latest` of the run in `dir`
/// and writes `winrates.json`.
///
/// # Errors
/// As [`check`], a checkpoint that does not load, a deal log of another
/// evaluation, and a deal that cannot be played.
pub(super) fn evaluate<G: Registered>(
    start: &G,
    dir: &Path,
    latest: u64,
    settings: &EvaluationSettings,
) -> Result<WinRates, String> {
    visit(start, settings, Task::Evaluate { dir, latest })
        .map(|rates| rates.expect("an evaluation returns its rates"))
}

fn visit<G: Registered>(
    start: &G,
    settings: &EvaluationSettings,
    task: Task<'_>,
) -> Result<Option<WinRates>, String> {
    G::with_chance(WithDeals {
        start,
        settings,
        task,
        game: PhantomData,
    })
    .unwrap_or_else(|| {
        Err(format!(
            "a cooperative game's networks are evaluated by their win rate on seeded deals, \
             and {} has no chance events to deal them",
            G::NAME
        ))
    })
}

struct WithDeals<'a, G> {
    start: &'a G,
    settings: &'a EvaluationSettings,
    task: Task<'a>,
    game: PhantomData<G>,
}

impl<G: Registered> ChanceVisitor<G> for WithDeals<'_, G> {
    type Output = Result<Option<WinRates>, String>;

    fn visit(self) -> Self::Output
    where
        G: Stochastic,
    {
        let run = WinRateRun {
            deals: self.settings.games_per_pair as u64,
            master_seed: self.settings.seed,
            threads: self.settings.threads,
        };
        run.validate()
            .map_err(|error| format!("an evaluation's deals: {error}"))?;
        let baselines = self
            .settings
            .baselines
            .iter()
            .map(|spec| Contender::<G>::from_spec(spec, Arc::new(build_agent::<G>)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| error.to_string())?;
        crate::core::validate_options(&self.settings.search)?;
        let Task::Evaluate { dir, latest } = self.task else {
            return Ok(None);
        };
        let evaluations = dir.join(EVALUATIONS);
        let rules = self.start.rules();
        let play = |name: &str, specs: &[String], contenders: &[Contender<G>]| {
            play_deals(
                &evaluations.join(name),
                rules,
                specs,
                contenders,
                run,
                self.settings,
            )
        };
        let baselines = play(BASELINES, &self.settings.baselines, &baselines)?;
        let mut generations = Vec::new();
        for generation in std::iter::once(0)
            .chain((1..=latest / self.settings.every).map(|round| round * self.settings.every))
        {
            let network = Arc::new(super::evaluate::load_network(dir, generation)?);
            let search = self.settings.search.clone();
            let build: Arc<AgentFactory<'static, G>> =
                Arc::new(move |spec, seed| checkpoint_agent(spec, &search, &network, seed));
            let spec = checkpoint_spec(generation);
            let contender =
                Contender::from_spec(&spec, build).map_err(|error| error.to_string())?;
            let mut rates = play(&generation.to_string(), &[spec], &[contender])?;
            generations.push(GenerationRate {
                generation,
                rate: rates.remove(0),
            });
        }
        let rates = WinRates {
            seed: run.master_seed,
            deals: run.deals,
            generations,
            baselines,
        };
        super::evaluate::write_json(dir, WIN_RATES_FILE, &rates)?;
        Ok(Some(rates))
    }
}

/// Plays (or resumes, or reads back) the deals of `contenders` (built from
/// `specs`) in the win-rate run directory `out`, and returns their rates.
fn play_deals<G: Registered + Stochastic>(
    out: &Path,
    rules: &G::Rules,
    specs: &[String],
    contenders: &[Contender<G>],
    run: WinRateRun,
    settings: &EvaluationSettings,
) -> Result<Vec<WinRate>, String> {
    let config = WinRateRunConfig {
        run: RunKind::WinRate,
        game: G::NAME.to_string(),
        rules: rules.to_string(),
        sweep: None,
        seed: run.master_seed,
        deals: run.deals,
        deal: None,
        policies: specs.to_vec(),
        shard: Shard::ALL,
        provenance: Provenance::current(
            contenders.iter().map(Contender::configuration).collect(),
            rules.to_string(),
        ),
    };
    let failed = |error: String| format!("the evaluation in {}: {error}", out.display());
    let directory = WinRateDirectory::open(out, &config, settings.force_resume).map_err(failed)?;
    let report = compare_policies_in(
        rules,
        contenders,
        None,
        run,
        Shard::ALL,
        Some((&directory, None)),
        &|_| {},
    )
    .map_err(failed)?;
    directory.flush()?;
    report.write_files::<G>(out, rules)?;
    Ok(report
        .policies
        .into_iter()
        .map(|policy| policy.rate)
        .collect())
}
