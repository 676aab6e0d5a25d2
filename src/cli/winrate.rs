//! `norn winrate`: how often each policy wins the same seeded deals of a
//! cooperative game, at one setting of the rules or over a range of one
//! numeric rules option.

use super::progress::deals_bar;
use super::{CliResult, check_threads, default_threads, print_json, with_game};
use crate::arena::winrate::{
    Contender, Sweep, SweepReport, WinRateDirectory, WinRateReport, WinRateRun, WinRateRunConfig,
    compare_policies_in, merge_win_rate_runs, win_rate_run_game, write_merged_config,
};
use crate::arena::{Provenance, RunKind, Shard};
use crate::core::{Capabilities, ChanceVisitor, Game, Notation, ParseError, Stochastic};
use crate::registry::{self, GameList, Registered};
use clap::Args;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct WinrateArgs {
    /// The game (a cooperative game with deals)
    game: String,
    /// Policies to compare on the same deals: `exact` (the exact solver, for
    /// games without hidden information) and the game's agents, e.g. greedy
    /// or mcts:iters=1000 (fenrir-cards: random, counting, ismcts:iters=N, open-hand)
    #[arg(long = "policy", num_args = 1.., required = true)]
    policies: Vec<String>,
    /// Number of deals
    #[arg(long, default_value_t = 1000)]
    deals: u64,
    /// Worker threads
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// Master seed: deal i is dealt from a seed derived from it and i
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Rules options as key=value pairs, e.g. "turn-order=fixed" or "players=3,track=60"
    #[arg(long)]
    rules: Option<String>,
    /// Print one JSON object instead of a table
    #[arg(long)]
    json: bool,
    /// Keep the run in DIR: config.json, deals.jsonl (each deal's result as
    /// it ends; the same command again resumes the run) and, at the end,
    /// DIR/summary.json, DIR/deals.csv (each deal and which policies won it)
    /// and DIR/winrate.svg (the difficulty curve); with --sweep,
    /// DIR/sweep.json, DIR/sweep.csv and DIR/sweep.svg
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Resume a run in --out whose deals another build of norn played
    #[arg(long, requires = "out")]
    force_resume: bool,
    /// Every value of a numeric rules option from A to B, e.g. track=10..84:
    /// a table of win rate against it (and with --out, an SVG plot)
    #[arg(long, value_name = "OPTION=A..B")]
    sweep: Option<String>,
    /// The step between the values of a sweep (default: about ten values)
    #[arg(long, requires = "sweep")]
    sweep_step: Option<u64>,
    /// Play this deal (a position) every time instead of seeded deals; the
    /// policies' own random choices vary
    #[arg(long)]
    deal: Option<String>,
    /// Play only shard I of N (deal i is shard i mod N's) and write its
    /// results to --out, for `norn merge` to combine with the other shards
    #[arg(long, value_name = "I/N", conflicts_with = "sweep")]
    shard: Option<String>,
}

pub fn run<L: GameList>(args: WinrateArgs) -> CliResult {
    check_threads(args.threads)?;
    with_game!(L, args: WinrateArgs, G => winrate::<G>(args))
}

fn winrate<G: Registered>(args: &WinrateArgs) -> CliResult {
    let refusal = |because: &str| {
        format!(
            "winrate plays a team through random deals: it needs a cooperative game with chance events, and {} {because}",
            G::NAME
        )
    };
    if !Capabilities::of::<G>().cooperative() {
        return Err(refusal("has competing sides"));
    }
    G::with_chance(WithDeals::<G> {
        command: DealsCommand::Estimate(args),
        game: PhantomData,
    })
    .unwrap_or_else(|| Err(refusal("has no chance events")))
}

/// What `norn winrate` and `norn merge` do with a game's deals.
enum DealsCommand<'a, 'b> {
    Estimate(&'a WinrateArgs),
    Merge(&'a MergeShards<'b>),
}

/// A command run through [`Game::with_chance`], for a game with deals.
struct WithDeals<'a, 'b, G> {
    command: DealsCommand<'a, 'b>,
    game: PhantomData<G>,
}

impl<G: Registered> ChanceVisitor<G> for WithDeals<'_, '_, G> {
    type Output = CliResult;

    fn visit(self) -> CliResult
    where
        G: Stochastic,
    {
        match self.command {
            DealsCommand::Estimate(args) => estimate::<G>(args),
            DealsCommand::Merge(merge) => merge_shards::<G>(merge),
        }
    }
}

fn estimate<G: Registered + Stochastic>(args: &WinrateArgs) -> CliResult {
    let contenders = args
        .policies
        .iter()
        .map(|spec| Contender::from_spec(spec, Arc::new(registry::build_agent::<G>)))
        .collect::<Result<Vec<_>, ParseError>>()
        .map_err(|error| error.to_string())?;
    let base_rules = args.rules.clone().unwrap_or_default();
    let run = WinRateRun {
        deals: args.deals,
        master_seed: args.seed,
        threads: args.threads,
    };
    run.validate()?;
    let configurations: Vec<String> = contenders.iter().map(Contender::configuration).collect();
    let run_config =
        |kind: RunKind, rules: String, shard: Shard, rules_in_force: Option<String>| {
            WinRateRunConfig {
                run: kind,
                game: G::NAME.to_string(),
                rules,
                sweep: None,
                seed: args.seed,
                deals: args.deals,
                deal: args.deal.as_deref().map(|text| text.trim().to_string()),
                policies: args
                    .policies
                    .iter()
                    .map(|spec| spec.trim().to_string())
                    .collect(),
                shard,
                provenance: Provenance {
                    rules_in_force,
                    ..Provenance::current(configurations.clone(), String::new())
                },
            }
        };
    match &args.sweep {
        None => {
            let rules = parse_rules::<G>(&base_rules)?;
            let fixed = fixed_deal::<G>(args, &rules)?;
            let shard = match (&args.shard, &args.out) {
                (Some(text), Some(_)) => Shard::parse(text).map_err(|error| error.to_string())?,
                (Some(_), None) => {
                    return Err(
                        "--shard needs --out DIR: the shard's deals are written there for `norn merge`"
                            .into(),
                    );
                }
                (None, _) => Shard::ALL,
            };
            let directory = match &args.out {
                Some(dir) => {
                    let config = WinRateRunConfig {
                        deal: fixed.as_ref().map(Notation::position_text),
                        ..run_config(
                            RunKind::WinRate,
                            rules.to_string(),
                            shard,
                            Some(rules.to_string()),
                        )
                    };
                    Some(WinRateDirectory::open(dir, &config, args.force_resume)?)
                }
                None => None,
            };
            let bar = deals_bar(shard.share(args.deals) * contenders.len() as u64, "");
            let log = directory.as_ref().map(|directory| (directory, None));
            let report = compare_policies_in(
                &rules,
                &contenders,
                fixed.as_ref(),
                run,
                shard,
                log,
                &|spec| {
                    bar.set_prefix(spec.to_string());
                    bar.inc(1);
                },
            )?;
            bar.finish_and_clear();
            if let (Some(directory), Some(dir)) = (&directory, &args.out) {
                directory.flush()?;
                report.write_files::<G>(dir, &rules)?;
            }
            show(args, &report)
        }
        Some(text) => {
            let sweep = Sweep::parse(text, args.sweep_step).map_err(|error| error.to_string())?;
            // Every value's rules and deal are checked before anything is
            // written.
            let points = sweep
                .values
                .iter()
                .map(|&value| {
                    let rules = parse_rules::<G>(&sweep.rules_text(&base_rules, value))?;
                    let fixed = fixed_deal::<G>(args, &rules)?;
                    Ok((rules, fixed))
                })
                .collect::<Result<Vec<_>, String>>()?;
            let directory = match &args.out {
                Some(dir) => {
                    let config = WinRateRunConfig {
                        sweep: Some((sweep.option.clone(), sweep.values.clone())),
                        ..run_config(RunKind::Sweep, base_rules.clone(), Shard::ALL, None)
                    };
                    Some(WinRateDirectory::open(dir, &config, args.force_resume)?)
                }
                None => None,
            };
            let bar = deals_bar(
                args.deals * (contenders.len() * sweep.values.len()) as u64,
                "",
            );
            let mut runs = Vec::new();
            for (&value, (rules, fixed)) in sweep.values.iter().zip(&points) {
                runs.push(compare_policies_in(
                    rules,
                    &contenders,
                    fixed.as_ref(),
                    run,
                    Shard::ALL,
                    directory.as_ref().map(|directory| (directory, Some(value))),
                    &|spec| {
                        bar.set_prefix(spec.to_string());
                        bar.inc(1);
                    },
                )?);
            }
            bar.finish_and_clear();
            let report = SweepReport::new(&base_rules, &sweep, runs);
            if let (Some(directory), Some(dir)) = (&directory, &args.out) {
                directory.flush()?;
                report.write_files(dir)?;
            }
            show_sweep(args, &report)
        }
    }
}

fn parse_rules<G: Game>(text: &str) -> Result<G::Rules, String> {
    text.parse().map_err(|error: ParseError| error.to_string())
}

/// The deal of `--deal`, if given.
fn fixed_deal<G: Notation>(args: &WinrateArgs, rules: &G::Rules) -> Result<Option<G>, String> {
    args.deal
        .as_deref()
        .map(|text| G::from_position_text(text, rules.clone()).map_err(|error| error.to_string()))
        .transpose()
}

fn show(args: &WinrateArgs, report: &WinRateReport) -> CliResult {
    if args.json {
        return print_json(report);
    }
    if !report.shard.is_all() {
        print!("shard {}: ", report.shard);
    }
    match &report.deal {
        Some(text) => println!(
            "{} games of {} on one deal (seed {}, {})\ndeal {text}",
            report.deals, report.game, report.seed, report.rules
        ),
        None => println!(
            "{} deals of {} (seed {}, {})",
            report.deals, report.game, report.seed, report.rules
        ),
    }
    print!("{}", report.table());
    if let Some(dir) = &args.out {
        println!(
            "wrote summary.json, deals.csv and winrate.svg to {}",
            dir.display()
        );
    }
    Ok(())
}

/// Shows a sweep's table; its files are written only to `--out`.
fn show_sweep(args: &WinrateArgs, report: &SweepReport) -> CliResult {
    if args.json {
        return print_json(report);
    }
    println!(
        "{} of {} per value of {} (seed {}, {})",
        match &report.deal {
            Some(text) => format!("{} games on the deal {text}", report.deals),
            None => format!("{} deals", report.deals),
        },
        report.game,
        report.option,
        report.seed,
        report.rules_or_standard()
    );
    print!("{}", report.table());
    match &args.out {
        Some(dir) => println!(
            "wrote sweep.json, sweep.csv and sweep.svg (the plot) to {}",
            dir.display()
        ),
        None => println!("--out DIR keeps the run and writes the plot there"),
    }
    Ok(())
}

/// `norn merge` of win-rate shards: the whole run's report, written to
/// `out` as a single run writes it.
pub fn merge<L: GameList>(
    dirs: &[PathBuf],
    out: &Path,
    force_resume: bool,
    json: bool,
) -> CliResult {
    let game = win_rate_run_game(&dirs[0])?;
    registry::visit_in::<L, _>(
        &game,
        &mut MergeShards {
            dirs,
            out,
            force_resume,
            json,
        },
    )
    .map_err(|error| error.to_string())?
}

struct MergeShards<'a> {
    dirs: &'a [PathBuf],
    out: &'a Path,
    force_resume: bool,
    json: bool,
}

impl crate::registry::GameVisitor for MergeShards<'_> {
    type Output = CliResult;

    fn visit<G: Registered>(&mut self) -> CliResult {
        G::with_chance(WithDeals::<G> {
            command: DealsCommand::Merge(self),
            game: PhantomData,
        })
        .unwrap_or_else(|| Err(format!("{} has no deals to merge", G::NAME)))
    }
}

/// Merges the shards of a win-rate run of `G` and writes the whole run's
/// files.
fn merge_shards<G: Registered + Stochastic>(merge: &MergeShards<'_>) -> CliResult {
    let MergeShards {
        dirs,
        out,
        force_resume,
        json,
    } = *merge;
    let report = merge_win_rate_runs::<G>(dirs, force_resume)?;
    let rules = parse_rules::<G>(&report.rules)?;
    let _directory = write_merged_config(out, dirs, &report)?;
    report.write_files::<G>(out, &rules)?;
    if json {
        return print_json(&report);
    }
    println!(
        "{} deals of {} (seed {}, {}), merged from {} shards",
        report.deals,
        report.game,
        report.seed,
        report.rules,
        dirs.len()
    );
    print!("{}", report.table());
    println!(
        "wrote summary.json, deals.csv and winrate.svg to {}",
        out.display()
    );
    Ok(())
}
