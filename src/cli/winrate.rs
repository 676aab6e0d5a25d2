//! `norn winrate`: how often each policy wins the same seeded deals of a
//! cooperative game, at one setting of the rules or over a range of one
//! numeric rules option.

use super::progress::{Meter, deals_bar};
use super::{CliResult, check_threads, default_threads, print_json, with_game};
use crate::arena::Shard;
use crate::arena::winrate::{
    DealsProgress, SweepReport, WinRateConfig, WinRateOptions, WinRateOutcome, WinRateReport,
    merge_win_rate_runs, run_win_rate, win_rate_run_game, write_merged_config,
};
use crate::core::{ChanceVisitor, Game, ParseError, Stochastic};
use crate::registry::{self, GameList, Registered};
use clap::Args;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

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
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
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
    let config = WinRateConfig {
        policies: args.policies.clone(),
        deals: args.deals,
        seed: args.seed,
        threads: args.threads,
        rules: args.rules.clone().unwrap_or_default(),
        deal: args.deal.clone(),
        sweep: args.sweep.clone().map(|text| (text, args.sweep_step)),
        shard,
    };
    let bar = DealsBar(OnceLock::new());
    let options = WinRateOptions {
        out_dir: args.out.clone(),
        force_resume: args.force_resume,
        stop: None,
        progress: &bar,
    };
    let outcome = run_win_rate::<G>(&config, Arc::new(registry::build_agent::<G>), &options);
    if let Some(meter) = bar.0.get() {
        meter.finish_and_clear();
    }
    match outcome? {
        WinRateOutcome::Rates(report) => show(args, &report),
        WinRateOutcome::Sweep(report) => show_sweep(args, &report),
    }
}

/// The progress bar of a run, made when the run knows its size.
struct DealsBar(OnceLock<Meter>);

impl DealsProgress for DealsBar {
    fn begin(&self, total: u64) {
        self.0.get_or_init(|| deals_bar(total, ""));
    }

    fn deal_done(&self, spec: &str) {
        if let Some(meter) = self.0.get() {
            meter.set_prefix(spec.to_string());
            meter.inc(1);
        }
    }
}

fn parse_rules<G: Game>(text: &str) -> Result<G::Rules, String> {
    text.parse().map_err(|error: ParseError| error.to_string())
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
    print!("{}", report.comparisons_table());
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
        G::with_chance(MergeDeals::<G> {
            merge: self,
            game: PhantomData,
        })
        .unwrap_or_else(|| Err(format!("{} has no deals to merge", G::NAME)))
    }
}

/// [`merge_shards`] for a game with deals.
struct MergeDeals<'a, 'b, G> {
    merge: &'a MergeShards<'b>,
    game: PhantomData<G>,
}

impl<G: Registered> ChanceVisitor<G> for MergeDeals<'_, '_, G> {
    type Output = CliResult;

    fn visit(self) -> CliResult
    where
        G: Stochastic,
    {
        merge_shards::<G>(self.merge)
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
    print!("{}", report.comparisons_table());
    println!(
        "wrote summary.json, deals.csv and winrate.svg to {}",
        out.display()
    );
    Ok(())
}
