//! `norn solve`: a position of a cooperative game solved exactly, or many
//! seeded deals solved and summarized.

use super::progress::deals_bar;
use super::{
    CliResult, default_threads, game_names, initial_state, parse_rules, print_json, with_game,
};
use crate::arena::solve::{solve_deals, solve_position};
use crate::arena::winrate::{WinRateRun, deal_from_seed};
use crate::core::{Capabilities, ChanceVisitor, Game, Stochastic};
use crate::registry::Registered;
use clap::Args;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game (a cooperative game)
    #[arg(value_parser = game_names())]
    game: String,
    /// Deal the position to solve from this seed (with --deals: the master
    /// seed of the deals)
    #[arg(long, conflicts_with = "deal")]
    seed: Option<u64>,
    /// The position to solve, e.g. a deal as text: RRRRRRBBBBBBGGGGGGYYYYYY:RBGY
    #[arg(long)]
    deal: Option<String>,
    /// Expand at most this many states in each search, and also bound the
    /// game's objectives (fenrir-path: safety margin, shortest win) within
    /// this many states each
    #[arg(long)]
    budget: Option<u64>,
    /// Solve deals 0..N of the master seed --seed (the deals `norn winrate`
    /// plays) and summarize; needs --budget
    #[arg(long, conflicts_with = "deal")]
    deals: Option<u64>,
    /// Worker threads for --deals
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// Rules options as key=value pairs, e.g. "turn-order=fixed" or "colours=3,sets=2"
    #[arg(long)]
    rules: Option<String>,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

pub fn run(args: SolveArgs) -> CliResult {
    with_game!(args: SolveArgs, G => solve::<G>(args))
}

fn solve<G: Registered>(args: &SolveArgs) -> CliResult {
    if !Capabilities::of::<G>().cooperative() {
        return Err(format!(
            "solve needs a cooperative game (a team that wins or loses together), and {} has competing sides",
            G::NAME
        ));
    }
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    if let Some(text) = &args.deal {
        return solve_one(args, &initial_state::<G>(Some(text), rules)?);
    }
    G::with_chance(SolveDeals::<G> { args, rules }).unwrap_or_else(|| {
        Err(format!(
            "{} has no deals to draw from a seed: give the position to solve with --deal TEXT",
            G::NAME
        ))
    })
}

/// `--seed` and `--deals`, which draw the game's deals.
struct SolveDeals<'a, G: Game> {
    args: &'a SolveArgs,
    rules: G::Rules,
}

impl<G: Registered> ChanceVisitor<G> for SolveDeals<'_, G> {
    type Output = CliResult;

    fn visit(self) -> CliResult
    where
        G: Stochastic,
    {
        match (self.args.deals, self.args.seed) {
            (Some(deals), _) => solve_many::<G>(self.args, &self.rules, deals),
            (None, Some(seed)) => solve_one(self.args, &deal_from_seed::<G>(&self.rules, seed)),
            (None, None) => Err("give the position to solve with --seed S or --deal TEXT".into()),
        }
    }
}

fn solve_one<G: Registered>(args: &SolveArgs, start: &G) -> CliResult {
    let report =
        solve_position(start, &G::objectives(), args.budget).map_err(|error| error.to_string())?;
    if args.json {
        print_json(&report)
    } else {
        print!("{}", report.text());
        Ok(())
    }
}

fn solve_many<G: Registered + Stochastic>(
    args: &SolveArgs,
    rules: &G::Rules,
    deals: u64,
) -> CliResult {
    let Some(budget) = args.budget else {
        return Err("--deals needs --budget: the objective bounds are searched within it".into());
    };
    let run = WinRateRun {
        deals,
        master_seed: args.seed.unwrap_or(0),
        threads: args.threads,
    };
    run.validate()?;
    let bar = deals_bar(deals, "bounds");
    let report = solve_deals::<G>(rules, &G::objectives(), run, budget, &|| bar.inc(1))?;
    bar.finish_and_clear();
    if args.json {
        print_json(&report)
    } else {
        print!("{}", report.text());
        Ok(())
    }
}
