use super::perft::default_threads;
use super::{CliResult, GameName, parse_rules, print_json};
use crate::arena::bounds::{DealBounds, bound_objectives};
use crate::arena::stats::{Z_95, mean_interval, wilson_interval};
use crate::arena::winrate::{WinRateRun, deal};
use crate::core::{Game, Notation, Objective, Sense, rng_from_seed};
use crate::games::fenrir_path::{
    FenrirPath, FenrirPathRules, SafetyMargin, ShortestWin, TurnOrder,
};
use crate::search::{CoopSolver, ObjectiveBounds, Verdict};
use clap::Args;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game (a cooperative game: fenrir-path)
    game: GameName,
    /// Deal from this seed
    #[arg(long, conflicts_with = "deal")]
    seed: Option<u64>,
    /// The deal as text, e.g. RRRRRRBBBBBBGGGGGGYYYYYY:RBGY (any position text works too)
    #[arg(long)]
    deal: Option<String>,
    /// Expand at most this many states in each search, and also bound the
    /// objectives (safety margin, shortest win) within this many states each
    #[arg(long)]
    budget: Option<u64>,
    /// Solve deals 0..N of the master seed --seed (the deals `norn winrate`
    /// plays) and summarize; needs --budget
    #[arg(long, conflicts_with = "deal")]
    deals: Option<u64>,
    /// Worker threads for --deals
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// Turn order: free (the team names the next god) or fixed (a rotation)
    #[arg(long)]
    turn_order: Option<TurnOrder>,
    /// Rules options as key=value pairs, e.g. "colours=3,sets=2"
    #[arg(long)]
    rules: Option<String>,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct SolveReport {
    game: &'static str,
    deal: String,
    position: String,
    rules: String,
    win: bool,
    verdict: Verdict,
    line: Vec<String>,
    nodes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    objectives: Vec<BoundsReport>,
}

#[derive(Serialize)]
struct BoundsReport {
    objective: &'static str,
    sense: Sense,
    lower: Option<i64>,
    upper: Option<i64>,
    exact: bool,
    line: Vec<String>,
    nodes: u64,
}

pub fn run(args: SolveArgs) -> CliResult {
    match args.game {
        GameName::FenrirPath if args.deals.is_some() => bound_fenrir_path_deals(&args),
        GameName::FenrirPath => solve_fenrir_path(&args),
        other => Err(format!(
            "solve needs a cooperative game; {} is not one",
            super::winrate::game_name(other)
        )),
    }
}

/// The rules from `--rules`, with `--turn-order` applied on top.
pub(crate) fn fenrir_path_rules(
    rules: Option<&str>,
    turn_order: Option<TurnOrder>,
) -> Result<FenrirPathRules, String> {
    let mut rules = parse_rules::<FenrirPath>(rules)?;
    if let Some(order) = turn_order {
        rules.turn_order = order;
    }
    Ok(rules)
}

/// The moves of `line` from `start` as text.
fn line_text<G: Notation>(start: &G, line: &[G::Move]) -> Vec<String> {
    let mut state = start.clone();
    line.iter()
        .map(|&mv| {
            let text = state.move_text(mv);
            state.play(mv);
            text
        })
        .collect()
}

fn bounds_report(
    start: &FenrirPath,
    bounds: ObjectiveBounds<crate::games::fenrir_path::PathMove>,
) -> BoundsReport {
    BoundsReport {
        objective: bounds.objective,
        sense: bounds.sense,
        lower: bounds.lower(),
        upper: bounds.upper(),
        exact: bounds.is_exact(),
        line: line_text(start, &bounds.line),
        nodes: bounds.nodes,
    }
}

fn solve_fenrir_path(args: &SolveArgs) -> CliResult {
    let rules = fenrir_path_rules(args.rules.as_deref(), args.turn_order)?;
    let start = match (&args.deal, args.seed) {
        (Some(text), _) => {
            FenrirPath::from_position_text(text, rules).map_err(|error| error.to_string())?
        }
        (None, Some(seed)) => {
            let mut state = FenrirPath::new(rules);
            crate::core::Stochastic::resolve_chance(&mut state, &mut rng_from_seed(seed));
            state
        }
        (None, None) => return Err("give the deal to solve with --seed S or --deal TEXT".into()),
    };
    let mut solver = CoopSolver::new();
    let started = Instant::now();
    let solution = match args.budget {
        Some(budget) => solver.solve_within(&start, budget),
        None => solver.solve(&start),
    };
    let mut objectives = Vec::new();
    if let Some(budget) = args.budget
        && solution.verdict == Verdict::Win
    {
        objectives.push(bounds_report(
            &start,
            solver.objective_bounds(&start, &SafetyMargin, budget),
        ));
        objectives.push(bounds_report(
            &start,
            solver.objective_bounds(&start, &ShortestWin, budget),
        ));
    }
    let report = SolveReport {
        game: FenrirPath::NAME,
        deal: start.deal().to_string(),
        position: start.position_text(),
        rules: rules.to_string(),
        win: solution.verdict == Verdict::Win,
        verdict: solution.verdict,
        line: line_text(&start, &solution.line),
        nodes: solution.nodes,
        seconds: started.elapsed().as_secs_f64(),
        objectives,
    };
    if args.json {
        return print_json(&report);
    }
    print_report(&start, &report, &solution.line);
    Ok(())
}

fn print_report(
    start: &FenrirPath,
    report: &SolveReport,
    line: &[crate::games::fenrir_path::PathMove],
) {
    println!(
        "deal           {} ({} turn order)",
        report.deal,
        start.rules().turn_order.name()
    );
    if start.position_text()
        != FenrirPath::from_deal(&start.deal(), *start.rules())
            .map_or(String::new(), |s| s.position_text())
    {
        println!("position       {}", report.position);
    }
    let result = match report.verdict {
        Verdict::Win => format!("the gods can win, in {} moves along this line", line.len()),
        Verdict::Loss => "the gods cannot win this deal, whatever they do".to_string(),
        Verdict::Unknown => "unknown: the budget ran out before a proof".to_string(),
    };
    println!(
        "result         {result} ({} states searched, {:.3} s)",
        report.nodes, report.seconds
    );
    if !line.is_empty() {
        // Mark collecting moves, so the line reads as the game unfolds.
        let mut state = start.clone();
        let marked: Vec<String> = line
            .iter()
            .map(|&mv| {
                let text = state.move_text(mv);
                let collects = state.collects(mv);
                state.play(mv);
                if collects { format!("{text}*") } else { text }
            })
            .collect();
        println!("line           {}  (* collects a tile)", marked.join(" "));
    }
    for bounds in &report.objectives {
        let range = match (bounds.lower, bounds.upper) {
            (Some(low), Some(high)) if low == high => format!("exactly {low}"),
            (Some(low), Some(high)) => format!("between {low} and {high}"),
            (Some(low), None) => format!("at least {low}"),
            (None, Some(high)) => format!("at most {high}"),
            (None, None) => "unknown".to_string(),
        };
        let unit = if bounds.objective == ShortestWin.name() {
            "moves"
        } else {
            "tiles (the wolf's closest approach to Odin)"
        };
        println!(
            "{:<15}{range} {unit}; {} states searched",
            bounds.objective, bounds.nodes
        );
        if !bounds.exact && !bounds.line.is_empty() {
            println!("{:<15}best line found: {}", "", bounds.line.join(" "));
        } else if !bounds.line.is_empty() {
            println!("{:<15}a best line: {}", "", bounds.line.join(" "));
        }
    }
}

#[derive(Serialize)]
struct DealsReport {
    game: &'static str,
    rules: String,
    seed: u64,
    deals: u64,
    budget: u64,
    threads: usize,
    winnable: u64,
    unknown: u64,
    winnable_low: f64,
    winnable_high: f64,
    seconds: f64,
    objectives: Vec<ObjectiveSummary>,
    per_deal: Vec<DealEntry>,
}

/// One objective over all winnable deals.
#[derive(Serialize)]
struct ObjectiveSummary {
    objective: &'static str,
    sense: Sense,
    /// Winnable deals measured.
    deals: u64,
    /// Deals on which the best value is proven exactly.
    exact: u64,
    /// The mean of the proven lower bounds, with its 95% interval.
    mean_lower: f64,
    mean_lower_ci: (f64, f64),
    /// The mean of the proven upper bounds, with its 95% interval.
    mean_upper: f64,
    mean_upper_ci: (f64, f64),
    /// How many deals have each exactly proven value.
    exact_values: BTreeMap<i64, u64>,
}

#[derive(Serialize)]
struct DealEntry {
    index: u64,
    deal: String,
    verdict: Verdict,
    objectives: Vec<(i64, i64)>,
}

fn summarize(
    objective: &'static str,
    sense: Sense,
    position: usize,
    results: &[DealBounds<crate::games::fenrir_path::PathMove>],
) -> ObjectiveSummary {
    let measured: Vec<(i64, i64)> = results
        .iter()
        .filter_map(|deal| deal.bounds.get(position))
        .filter_map(|bounds| Some((bounds.lower()?, bounds.upper()?)))
        .collect();
    let mut exact_values = BTreeMap::new();
    for &(low, high) in &measured {
        if low == high {
            *exact_values.entry(low).or_insert(0) += 1;
        }
    }
    let lows: Vec<f64> = measured.iter().map(|&(low, _)| low as f64).collect();
    let highs: Vec<f64> = measured.iter().map(|&(_, high)| high as f64).collect();
    let (mean_lower, lower_low, lower_high) = mean_interval(&lows, Z_95);
    let (mean_upper, upper_low, upper_high) = mean_interval(&highs, Z_95);
    ObjectiveSummary {
        objective,
        sense,
        deals: measured.len() as u64,
        exact: exact_values.values().sum(),
        mean_lower,
        mean_lower_ci: (lower_low, lower_high),
        mean_upper,
        mean_upper_ci: (upper_low, upper_high),
        exact_values,
    }
}

fn bound_fenrir_path_deals(args: &SolveArgs) -> CliResult {
    let rules = fenrir_path_rules(args.rules.as_deref(), args.turn_order)?;
    let (Some(deals), Some(budget)) = (args.deals, args.budget) else {
        return Err("--deals needs --budget: the objective bounds are searched within it".into());
    };
    if args.threads == 0 || deals == 0 {
        return Err("--deals and --threads must be at least 1".into());
    }
    let run = WinRateRun {
        deals,
        master_seed: args.seed.unwrap_or(0),
        threads: args.threads,
    };
    let bar = super::winrate::progress_bar(deals, "bounds");
    let started = Instant::now();
    let results = bound_objectives::<FenrirPath>(
        &rules,
        &[&SafetyMargin, &ShortestWin],
        run,
        budget,
        &|| bar.inc(1),
    )
    .map_err(|error| error.to_string())?;
    bar.finish_and_clear();
    let winnable = results.iter().filter(|d| d.verdict == Verdict::Win).count() as u64;
    let unknown = results
        .iter()
        .filter(|d| d.verdict == Verdict::Unknown)
        .count() as u64;
    let (winnable_low, winnable_high) = wilson_interval(winnable, deals - unknown, Z_95);
    let report = DealsReport {
        game: FenrirPath::NAME,
        rules: rules.to_string(),
        seed: run.master_seed,
        deals,
        budget,
        threads: args.threads,
        winnable,
        unknown,
        winnable_low,
        winnable_high,
        seconds: started.elapsed().as_secs_f64(),
        objectives: vec![
            summarize(SafetyMargin.name(), SafetyMargin.sense(), 0, &results),
            summarize(ShortestWin.name(), ShortestWin.sense(), 1, &results),
        ],
        per_deal: results
            .iter()
            .map(|result| DealEntry {
                index: result.index,
                deal: deal::<FenrirPath>(&rules, run.master_seed, result.index)
                    .deal()
                    .to_string(),
                verdict: result.verdict,
                objectives: result
                    .bounds
                    .iter()
                    .filter_map(|b| Some((b.lower()?, b.upper()?)))
                    .collect(),
            })
            .collect(),
    };
    if args.json {
        return print_json(&report);
    }
    println!(
        "{} deals of {} (seed {}, {}), at most {} states per question, {:.1} s",
        report.deals, report.game, report.seed, report.rules, report.budget, report.seconds
    );
    println!(
        "winnable       {} of {} decided deals ({:.2}%, 95% interval {:.2}% - {:.2}%), {} undecided",
        report.winnable,
        deals - unknown,
        100.0 * report.winnable as f64 / (deals - unknown).max(1) as f64,
        100.0 * report.winnable_low,
        100.0 * report.winnable_high,
        report.unknown
    );
    for summary in &report.objectives {
        println!(
            "{:<15}exact on {} of {} winnable deals; mean lower bound {:.2} ({:.2} - {:.2}), mean upper bound {:.2} ({:.2} - {:.2})",
            summary.objective,
            summary.exact,
            summary.deals,
            summary.mean_lower,
            summary.mean_lower_ci.0,
            summary.mean_lower_ci.1,
            summary.mean_upper,
            summary.mean_upper_ci.0,
            summary.mean_upper_ci.1,
        );
        let values: Vec<String> = summary
            .exact_values
            .iter()
            .map(|(value, count)| format!("{value}: {count}"))
            .collect();
        println!(
            "{:<15}exact values (value: deals) {}",
            "",
            values.join(", ")
        );
    }
    Ok(())
}
