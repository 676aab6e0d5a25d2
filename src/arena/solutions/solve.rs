//! Exact solutions of cooperative games as reports: one position solved
//! (a winning line or the proof there is none, and how good the best
//! winning line is), and the statistics of many seeded deals solved.

use super::bounds::{DealBounds, bound_objectives};
use crate::arena::winrate::{WinRateRun, Z_95, deal, mean_interval, wilson_interval};
use crate::core::{Evaluate, Notation, Objective, Sense, Stochastic};
use crate::search::{CoopSolver, ObjectiveBounds, SearchError, Verdict};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// One position solved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveReport {
    /// The game's registry name.
    pub game: &'static str,
    /// The solved position in the game's notation.
    pub position: String,
    /// The rules options in force, as text.
    pub rules: String,
    /// Whether the team can force a win (the verdict is a win), for readers
    /// of the JSON that want a yes or no.
    pub win: bool,
    /// The solver's answer: a win, a loss whatever the team does, or
    /// unknown when the budget ran out first.
    pub verdict: Verdict,
    /// A winning line, move by move.
    pub line: Vec<String>,
    /// Which moves of the line are tactical (capture or collect), for display.
    #[serde(skip)]
    pub tactical: Vec<bool>,
    /// The states the solver searched for the verdict.
    pub nodes: u64,
    /// The wall-clock time of the whole solve, objectives included, in
    /// seconds.
    pub seconds: f64,
    /// What was proved about each objective; empty without a budget or a
    /// win.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<BoundsEntry>,
}

/// What was proved about one objective of a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoundsEntry {
    /// The objective's name (e.g. `safety-margin`).
    pub objective: &'static str,
    /// What a value counts, for the text (e.g. `moves`).
    #[serde(skip)]
    pub unit: &'static str,
    /// Whether a winning line is better for a larger or a smaller value.
    pub sense: Sense,
    /// The proven lower bound on the best winning line's value, if one was
    /// proven within the budget.
    pub lower: Option<i64>,
    /// The proven upper bound, if one was proven.
    pub upper: Option<i64>,
    /// Whether the bounds meet: the best value is known exactly.
    pub exact: bool,
    /// The best winning line found, move by move (a best one when `exact`).
    pub line: Vec<String>,
    /// The states searched for this objective.
    pub nodes: u64,
}

impl BoundsEntry {
    fn new<G: Notation>(
        start: &G,
        objective: &dyn Objective<G>,
        bounds: ObjectiveBounds<G::Move>,
    ) -> Self {
        BoundsEntry {
            objective: bounds.objective,
            unit: objective.unit(),
            sense: bounds.sense,
            lower: bounds.lower(),
            upper: bounds.upper(),
            exact: bounds.is_exact(),
            line: line_text(start, &bounds.line),
            nodes: bounds.nodes,
        }
    }
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

/// Solves `start`: whether the team can force a win, with a winning line,
/// within `budget` states if given; and, with a budget and a win, bounds
/// each of `objectives` within `budget` states.
///
/// # Errors
/// If the solver meets a state it cannot search.
pub fn solve_position<G: Notation + Evaluate>(
    start: &G,
    objectives: &[Box<dyn Objective<G>>],
    budget: Option<u64>,
) -> Result<SolveReport, SearchError> {
    let mut solver = CoopSolver::new();
    let started = Instant::now();
    let solution = match budget {
        Some(budget) => solver.solve_within(start, budget)?,
        None => solver.solve(start)?,
    };
    let mut entries = Vec::new();
    if let Some(budget) = budget
        && solution.verdict == Verdict::Win
    {
        for objective in objectives {
            let bounds = solver.objective_bounds(start, objective.as_ref(), budget)?;
            entries.push(BoundsEntry::new(start, objective.as_ref(), bounds));
        }
    }
    let mut state = start.clone();
    let tactical = solution
        .line
        .iter()
        .map(|&mv| {
            let tactical = state.is_tactical(mv);
            state.play(mv);
            tactical
        })
        .collect();
    Ok(SolveReport {
        game: G::NAME,
        position: start.position_text(),
        rules: start.rules().to_string(),
        win: solution.verdict == Verdict::Win,
        verdict: solution.verdict,
        line: line_text(start, &solution.line),
        tactical,
        nodes: solution.nodes,
        seconds: started.elapsed().as_secs_f64(),
        objectives: entries,
    })
}

impl SolveReport {
    /// The report as text: the verdict, the line (tactical moves marked)
    /// and the objectives' ranges.
    pub fn text(&self) -> String {
        let mut out = format!(
            "position       {}\nrules          {}\n",
            self.position, self.rules
        );
        let result = match self.verdict {
            Verdict::Win => format!(
                "the team can win, in {} moves along this line",
                self.line.len()
            ),
            Verdict::Loss => "the team cannot win from here, whatever it does".to_string(),
            Verdict::Unknown => "unknown: the budget ran out before a proof".to_string(),
        };
        out.push_str(&format!(
            "result         {result} ({} states searched, {:.3} s)\n",
            self.nodes, self.seconds
        ));
        if !self.line.is_empty() {
            let marked: Vec<String> = self
                .line
                .iter()
                .zip(&self.tactical)
                .map(|(text, &tactical)| {
                    if tactical {
                        format!("{text}*")
                    } else {
                        text.clone()
                    }
                })
                .collect();
            out.push_str(&format!(
                "line           {}  (* a tactical move: it captures or collects)\n",
                marked.join(" ")
            ));
        }
        for bounds in &self.objectives {
            let range = match (bounds.lower, bounds.upper) {
                (Some(low), Some(high)) if low == high => format!("exactly {low}"),
                (Some(low), Some(high)) => format!("between {low} and {high}"),
                (Some(low), None) => format!("at least {low}"),
                (None, Some(high)) => format!("at most {high}"),
                (None, None) => "unknown".to_string(),
            };
            out.push_str(&format!(
                "{:<15}{range} {}; {} states searched\n",
                bounds.objective, bounds.unit, bounds.nodes
            ));
            if !bounds.line.is_empty() {
                let which = if bounds.exact {
                    "a best line"
                } else {
                    "best line found"
                };
                out.push_str(&format!("{:<15}{which}: {}\n", "", bounds.line.join(" ")));
            }
        }
        out
    }
}

/// Many seeded deals solved, with each objective bounded on the winnable ones.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DealsReport {
    /// The game's registry name.
    pub game: &'static str,
    /// The rules options in force, as text.
    pub rules: String,
    /// The master seed the deals are dealt from, as `norn winrate` deals
    /// them.
    pub seed: u64,
    /// How many deals were solved (deals `0..deals`).
    pub deals: u64,
    /// The most states searched per question (a deal's verdict, or one
    /// objective's bounds).
    pub budget: u64,
    /// Deals solved at the same time.
    pub threads: usize,
    /// Deals the team can be proven to win.
    pub winnable: u64,
    /// Deals left undecided when the budget ran out.
    pub unknown: u64,
    /// The lower end of the 95% Wilson interval of the share of decided
    /// deals that can be won.
    pub winnable_low: f64,
    /// The upper end of that interval.
    pub winnable_high: f64,
    /// The wall-clock time of the whole run, in seconds.
    pub seconds: f64,
    /// One summary per objective, in the order they were asked for.
    pub objectives: Vec<ObjectiveSummary>,
    /// One entry per deal, by index.
    pub per_deal: Vec<DealEntry>,
}

/// One objective over all winnable deals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ObjectiveSummary {
    /// The objective's name.
    pub objective: &'static str,
    /// Whether a larger or a smaller value is better.
    pub sense: Sense,
    /// Winnable deals measured: those with both bounds proven.
    pub deals: u64,
    /// Deals on which the best value is proven exactly.
    pub exact: u64,
    /// The mean of the proven lower bounds over the measured deals.
    pub mean_lower: f64,
    /// The 95% interval of `mean_lower`, (low, high).
    pub mean_lower_ci: (f64, f64),
    /// The mean of the proven upper bounds over the measured deals.
    pub mean_upper: f64,
    /// The 95% interval of `mean_upper`, (low, high).
    pub mean_upper_ci: (f64, f64),
    /// How many deals have each exactly proven value.
    pub exact_values: BTreeMap<i64, u64>,
}

/// One deal: its start, the verdict and each objective's proven range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DealEntry {
    /// The deal's index in the run.
    pub index: u64,
    /// The dealt start position in the game's notation.
    pub deal: String,
    /// Whether the team can win the deal, or undecided within the budget.
    pub verdict: Verdict,
    /// The proven (lower, upper) range of each objective whose bounds were
    /// both proven, in the objectives' order; empty for a deal that cannot
    /// be won.
    pub objectives: Vec<(i64, i64)>,
}

/// Solves deals `0..run.deals` (the deals `norn winrate` plays) within
/// `budget` states per question and summarizes. `on_deal_done` is called
/// after each deal.
///
/// # Errors
/// If the thread pool cannot be created or a deal cannot be solved.
pub fn solve_deals<G: Stochastic + Notation + Evaluate>(
    rules: &G::Rules,
    objectives: &[Box<dyn Objective<G>>],
    run: WinRateRun,
    budget: u64,
    on_deal_done: &(dyn Fn() + Sync),
) -> Result<DealsReport, String> {
    let started = Instant::now();
    let measures: Vec<&dyn Objective<G>> = objectives.iter().map(AsRef::as_ref).collect();
    let results = bound_objectives::<G>(rules, &measures, run, budget, on_deal_done)?;
    let winnable = results.iter().filter(|d| d.verdict == Verdict::Win).count() as u64;
    let unknown = results
        .iter()
        .filter(|d| d.verdict == Verdict::Unknown)
        .count() as u64;
    let (winnable_low, winnable_high) = wilson_interval(winnable, run.deals - unknown, Z_95);
    Ok(DealsReport {
        game: G::NAME,
        rules: rules.to_string(),
        seed: run.master_seed,
        deals: run.deals,
        budget,
        threads: run.threads,
        winnable,
        unknown,
        winnable_low,
        winnable_high,
        seconds: started.elapsed().as_secs_f64(),
        objectives: measures
            .iter()
            .enumerate()
            .map(|(position, objective)| {
                summarize(objective.name(), objective.sense(), position, &results)
            })
            .collect(),
        per_deal: results
            .iter()
            .map(|result| DealEntry {
                index: result.index,
                deal: deal::<G>(rules, run.master_seed, result.index).position_text(),
                verdict: result.verdict,
                objectives: result
                    .bounds
                    .iter()
                    .filter_map(|b| Some((b.lower()?, b.upper()?)))
                    .collect(),
            })
            .collect(),
    })
}

fn summarize<M>(
    objective: &'static str,
    sense: Sense,
    position: usize,
    results: &[DealBounds<M>],
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

impl DealsReport {
    /// The report as text: the share of winnable deals and each objective's
    /// summary.
    pub fn text(&self) -> String {
        let decided = self.deals - self.unknown;
        let mut out = format!(
            "{} deals of {} (seed {}, {}), at most {} states per question, {:.1} s\n",
            self.deals, self.game, self.seed, self.rules, self.budget, self.seconds
        );
        out.push_str(&format!(
            "winnable       {} of {} decided deals ({:.2}%, 95% interval {:.2}% - {:.2}%), {} undecided\n",
            self.winnable,
            decided,
            100.0 * self.winnable as f64 / decided.max(1) as f64,
            100.0 * self.winnable_low,
            100.0 * self.winnable_high,
            self.unknown
        ));
        for summary in &self.objectives {
            out.push_str(&format!(
                "{:<15}exact on {} of {} winnable deals; mean lower bound {:.2} ({:.2} - {:.2}), mean upper bound {:.2} ({:.2} - {:.2})\n",
                summary.objective,
                summary.exact,
                summary.deals,
                summary.mean_lower,
                summary.mean_lower_ci.0,
                summary.mean_lower_ci.1,
                summary.mean_upper,
                summary.mean_upper_ci.0,
                summary.mean_upper_ci.1,
            ));
            let values: Vec<String> = summary
                .exact_values
                .iter()
                .map(|(value, count)| format!("{value}: {count}"))
                .collect();
            out.push_str(&format!(
                "{:<15}exact values (value: deals) {}\n",
                "",
                values.join(", ")
            ));
        }
        out
    }
}
