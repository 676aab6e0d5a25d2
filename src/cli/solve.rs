use super::{CliResult, GameName, parse_rules, print_json};
use crate::core::{Game, Notation, Objective, Sense, rng_from_seed};
use crate::games::fenrir_path::{
    FenrirPath, FenrirPathRules, SafetyMargin, ShortestWin, TurnOrder,
};
use crate::search::{CoopSolver, ObjectiveBounds, Verdict};
use clap::Args;
use serde::Serialize;
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
        GameName::FenrirPath => solve_fenrir_path(&args),
        GameName::Hnefatafl => {
            Err("solve needs a cooperative game; hnefatafl is a two-player game".into())
        }
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
