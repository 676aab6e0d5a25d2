//! A whole win-rate run as `norn winrate` makes it: the policies built from
//! their specs, the rules (every value's, in a sweep) and the given deal
//! checked before anything is written, the run kept in (and resumed from)
//! its directory, and the reports written there at the end. The command
//! line and the Python package both run it.

use super::directory::{WinRateDirectory, WinRateRunConfig};
use super::estimate::{DealPlayer, DealPolicy, WinRateRun};
use super::experiment::{Contender, WinRateReport, compare_policies_in};
use super::sweep::{Sweep, SweepReport};
use crate::arena::playing::{AgentFactory, Provenance, RunKind, Shard};
use crate::core::{Capabilities, ChanceVisitor, Evaluate, Game, Notation, ParseError, Stochastic};
use serde::Serialize;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a win-rate run plays: the options of `norn winrate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinRateConfig {
    /// The policies compared on the same deals: `exact` (the exact solver,
    /// for games without hidden information) or an agent spec.
    pub policies: Vec<String>,
    /// How many deals.
    pub deals: u64,
    /// The master seed: deal `i` is dealt from a seed derived from it and `i`.
    pub seed: u64,
    /// Deals played at the same time.
    pub threads: usize,
    /// Rules options as `key=value` text; in a sweep, the rules the swept
    /// option is set in.
    pub rules: String,
    /// One deal (a position) played every time instead of seeded deals; the
    /// policies' own random choices vary.
    pub deal: Option<String>,
    /// A range of one numeric rules option (`OPTION=A..B`) and the step
    /// between its values (about ten values when `None`).
    pub sweep: Option<(String, Option<u64>)>,
    /// The part of the run to play; a shard other than the whole run needs
    /// an output directory, where `norn merge` finds it.
    pub shard: Shard,
}

/// How a deal's end is made known, e.g. to advance a progress bar.
pub trait DealsProgress: Sync {
    /// The run is about to play `total` deals, every policy's counted.
    fn begin(&self, _total: u64) {}
    /// A deal of the policy `spec` ended (or was found in the log).
    fn deal_done(&self, _spec: &str) {}
}

/// Makes nothing known.
pub struct Unwatched;

impl DealsProgress for Unwatched {}

/// How a win-rate run is carried out, apart from what it plays.
pub struct WinRateOptions<'a> {
    /// The run directory: the log of deals (resumed when it holds this run)
    /// and, at the end, the reports.
    pub out_dir: Option<PathBuf>,
    /// Resume a run in `out_dir` whose deals another build played.
    pub force_resume: bool,
    /// Once raised, no further deal starts and the run ends with an error;
    /// the deals that ended are kept in the log.
    pub stop: Option<Arc<AtomicBool>>,
    /// Told of each deal's end.
    pub progress: &'a dyn DealsProgress,
}

/// A run's report: the rates at one setting of the rules, or a sweep's.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum WinRateOutcome {
    /// The policies' rates at one setting of the rules.
    Rates(WinRateReport),
    /// The rates at each value of the swept option.
    Sweep(SweepReport),
}

/// Runs `config` on the game `G` with the agents `build` makes: a
/// cooperative game with chance events.
///
/// # Errors
/// A game of competing sides or without chance events, a bad
/// configuration (a policy, the rules, the deal, the sweep, the shard), a
/// directory that cannot be used, a deal that cannot be played, or a
/// raised stop flag.
pub fn run_win_rate<G: Game + Notation + Evaluate>(
    config: &WinRateConfig,
    build: Arc<AgentFactory<'static, G>>,
    options: &WinRateOptions<'_>,
) -> Result<WinRateOutcome, String> {
    let refusal = |because: &str| {
        format!(
            "a win-rate run plays a team through random deals: it needs a cooperative game with chance events, and {} {because}",
            G::NAME
        )
    };
    if !Capabilities::of::<G>().cooperative() {
        return Err(refusal("has competing sides"));
    }
    G::with_chance(WithDeals {
        config,
        build,
        options,
        game: PhantomData,
    })
    .unwrap_or_else(|| Err(refusal("has no chance events")))
}

/// [`run_win_rate`] once the game is known to have deals.
struct WithDeals<'a, 'b, G: Game> {
    config: &'a WinRateConfig,
    build: Arc<AgentFactory<'static, G>>,
    options: &'a WinRateOptions<'b>,
    game: PhantomData<G>,
}

impl<G: Game + Notation + Evaluate> ChanceVisitor<G> for WithDeals<'_, '_, G> {
    type Output = Result<WinRateOutcome, String>;

    fn visit(self) -> Self::Output
    where
        G: Stochastic,
    {
        play::<G>(self.config, self.build, self.options)
    }
}

fn play<G: Stochastic + Notation + Evaluate>(
    config: &WinRateConfig,
    build: Arc<AgentFactory<'static, G>>,
    options: &WinRateOptions<'_>,
) -> Result<WinRateOutcome, String> {
    let contenders = config
        .policies
        .iter()
        .map(|spec| {
            let contender = Contender::from_spec(spec, build.clone())?;
            Ok(match &options.stop {
                Some(stop) => contender.stopped_by(stop.clone()),
                None => contender,
            })
        })
        .collect::<Result<Vec<_>, ParseError>>()
        .map_err(|error| error.to_string())?;
    let run = WinRateRun {
        deals: config.deals,
        master_seed: config.seed,
        threads: config.threads,
    };
    run.validate()?;
    config.shard.validate()?;
    if !config.shard.is_all() && options.out_dir.is_none() {
        return Err(
            "a shard needs an output directory: its deals are written there for `norn merge`"
                .into(),
        );
    }
    let configurations: Vec<String> = contenders.iter().map(Contender::configuration).collect();
    let run_config =
        |kind: RunKind, rules: String, rules_in_force: Option<String>| WinRateRunConfig {
            run: kind,
            game: G::NAME.to_string(),
            rules,
            sweep: None,
            seed: config.seed,
            deals: config.deals,
            deal: config.deal.as_deref().map(|text| text.trim().to_string()),
            policies: config
                .policies
                .iter()
                .map(|spec| spec.trim().to_string())
                .collect(),
            shard: config.shard,
            provenance: Provenance {
                rules_in_force,
                ..Provenance::current(configurations.clone(), String::new())
            },
        };
    let on_deal_done = |spec: &str| options.progress.deal_done(spec);
    match &config.sweep {
        None => {
            let rules = parse_rules::<G>(&config.rules)?;
            let fixed = fixed_deal::<G>(config, &rules)?;
            let directory = match &options.out_dir {
                Some(dir) => {
                    let stored = WinRateRunConfig {
                        deal: fixed.as_ref().map(Notation::position_text),
                        ..run_config(RunKind::WinRate, rules.to_string(), Some(rules.to_string()))
                    };
                    Some(WinRateDirectory::open(dir, &stored, options.force_resume)?)
                }
                None => None,
            };
            options
                .progress
                .begin(config.shard.share(config.deals) * contenders.len() as u64);
            let log = directory.as_ref().map(|directory| (directory, None));
            let report = compare_policies_in(
                &rules,
                &contenders,
                fixed.as_ref(),
                run,
                config.shard,
                log,
                &on_deal_done,
            )?;
            if let (Some(directory), Some(dir)) = (&directory, &options.out_dir) {
                directory.flush()?;
                report.write_files::<G>(dir, &rules)?;
            }
            Ok(WinRateOutcome::Rates(report))
        }
        Some((text, step)) => {
            if !config.shard.is_all() {
                return Err("a sweep is not split into shards".into());
            }
            let sweep = Sweep::parse(text, *step).map_err(|error| error.to_string())?;
            // Every value's rules and deal are checked before anything is
            // written.
            let points = sweep
                .values
                .iter()
                .map(|&value| {
                    let rules = parse_rules::<G>(&sweep.rules_text(&config.rules, value))?;
                    let fixed = fixed_deal::<G>(config, &rules)?;
                    Ok((rules, fixed))
                })
                .collect::<Result<Vec<_>, String>>()?;
            let directory = match &options.out_dir {
                Some(dir) => {
                    let stored = WinRateRunConfig {
                        sweep: Some((sweep.option.clone(), sweep.values.clone())),
                        ..run_config(RunKind::Sweep, config.rules.clone(), None)
                    };
                    Some(WinRateDirectory::open(dir, &stored, options.force_resume)?)
                }
                None => None,
            };
            options
                .progress
                .begin(config.deals * (contenders.len() * sweep.values.len()) as u64);
            let mut runs = Vec::new();
            for (&value, (rules, fixed)) in sweep.values.iter().zip(&points) {
                runs.push(compare_policies_in(
                    rules,
                    &contenders,
                    fixed.as_ref(),
                    run,
                    Shard::ALL,
                    directory.as_ref().map(|directory| (directory, Some(value))),
                    &on_deal_done,
                )?);
            }
            let report = SweepReport::new(&config.rules, &sweep, runs);
            if let (Some(directory), Some(dir)) = (&directory, &options.out_dir) {
                directory.flush()?;
                report.write_files(dir)?;
            }
            Ok(WinRateOutcome::Sweep(report))
        }
    }
}

fn parse_rules<G: Game>(text: &str) -> Result<G::Rules, String> {
    text.parse().map_err(|error: ParseError| error.to_string())
}

/// The deal of [`WinRateConfig::deal`], if given.
fn fixed_deal<G: Notation>(config: &WinRateConfig, rules: &G::Rules) -> Result<Option<G>, String> {
    config
        .deal
        .as_deref()
        .map(|text| G::from_position_text(text, rules.clone()).map_err(|error| error.to_string()))
        .transpose()
}

/// A policy whose players refuse to start a deal once `stop` is raised.
pub(super) struct Stoppable<G: Game> {
    pub(super) inner: Box<dyn DealPolicy<G>>,
    pub(super) stop: Arc<AtomicBool>,
}

impl<G: Game> DealPolicy<G> for Stoppable<G> {
    fn spec(&self) -> &str {
        self.inner.spec()
    }

    fn configuration(&self) -> String {
        self.inner.configuration()
    }

    fn player(&self) -> Box<dyn DealPlayer<G>> {
        Box::new(StoppablePlayer {
            inner: self.inner.player(),
            stop: self.stop.clone(),
        })
    }
}

struct StoppablePlayer<G: Game> {
    inner: Box<dyn DealPlayer<G>>,
    stop: Arc<AtomicBool>,
}

impl<G: Game> DealPlayer<G> for StoppablePlayer<G> {
    fn play_deal(&mut self, dealt: &G, seed: u64) -> Result<bool, String> {
        if self.stop.load(Ordering::Relaxed) {
            return Err("stopped".into());
        }
        self.inner.play_deal(dealt, seed)
    }
}
