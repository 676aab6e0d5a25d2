//! `norn solve`: a position of a cooperative game solved exactly, or many
//! seeded deals solved and summarized; or the equilibrium of a game with
//! simultaneous moves at a position.

use super::progress::deals_bar;
use super::{CliResult, default_threads, initial_state, parse_rules, print_report, with_game};
use crate::arena::solutions::{DealsReport, EquilibriumReport, SolveReport, solve_deals};
use crate::arena::winrate::{WinRateRun, deal_from_seed};
use crate::core::{
    Capabilities, ChanceVisitor, Game, Simultaneous, SimultaneousVisitor, Stochastic,
};
use crate::learning::{Solution, SolveRequest, solve_state};
use crate::registry::{GameList, Registered};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game (a cooperative game, or a two-player game with
    /// simultaneous moves)
    game: String,
    /// Simultaneous moves: the position to solve (default: the start)
    #[arg(long, conflicts_with_all = ["deal", "deals", "seed"])]
    position: Option<String>,
    /// Simultaneous moves: solve this many rounds from the position by
    /// backward induction, counting the game beyond as a draw (Nibelungen:
    /// about tenfold more states per round; 4 rounds take about 25 s)
    #[arg(long)]
    rounds: Option<u32>,
    /// Simultaneous moves: solve by the game's retrograde analysis over
    /// every state, one layer per round left (Nibelungen: about 1.5 s per
    /// round on 2 cores; the whole 30-round game about 45 s and 0.6 GB)
    #[arg(long)]
    retrograde: bool,
    /// With --retrograde: save every layer to this file, for the oracle
    /// agent (Nibelungen: 144 MB per round left)
    #[arg(long, requires = "retrograde")]
    out: Option<PathBuf>,
    /// Deal the position to solve from this seed (with --deals: the master
    /// seed of the deals)
    #[arg(long, conflicts_with = "deal")]
    seed: Option<u64>,
    /// The position to solve, e.g. a deal as text: RRRRRRBBBBBBGGGGGGYYYYYY:RBGY
    #[arg(long)]
    deal: Option<String>,
    /// Expand at most this many states in each search, and also bound the
    /// game's objectives (fenrir-path: safety margin, shortest win) within
    /// this many states each; with --rounds, solve at most this many states
    /// (default: as many as the memory holds)
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
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

pub fn run<L: GameList>(args: SolveArgs) -> CliResult {
    with_game!(L, args: SolveArgs, G => solve::<G>(args))
}

fn solve<G: Registered>(args: &SolveArgs) -> CliResult {
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let simultaneous = Solve::<G> {
        args,
        rules: rules.clone(),
    };
    if let Some(result) = G::with_simultaneous_moves(simultaneous) {
        return result;
    }
    if args.rounds.is_some() || args.position.is_some() || args.retrograde {
        return Err(format!(
            "--rounds, --position and --retrograde solve games with simultaneous moves, and {} has none",
            G::NAME
        ));
    }
    if !Capabilities::of::<G>().cooperative() {
        return Err(format!(
            "solve needs a cooperative game (a team that wins or loses together) or a game with simultaneous moves, and {} has competing sides that take turns",
            G::NAME
        ));
    }
    if let Some(text) = &args.deal {
        return solve_one(args, &initial_state::<G>(Some(text), rules)?);
    }
    G::with_chance(Solve::<G> { args, rules }).unwrap_or_else(|| {
        Err(format!(
            "{} has no deals to draw from a seed: give the position to solve with --deal TEXT",
            G::NAME
        ))
    })
}

/// The command's arguments and rules, for what only some games have: the
/// equilibrium at a position of a game with simultaneous moves, and the
/// seeded deals (`--seed`, `--deals`) of a game with chance events.
struct Solve<'a, G: Game> {
    args: &'a SolveArgs,
    rules: G::Rules,
}

impl<G: Registered> SimultaneousVisitor<G> for Solve<'_, G> {
    type Output = CliResult;

    fn visit(self) -> CliResult
    where
        G: Simultaneous,
    {
        let args = self.args;
        if args.deal.is_some() || args.deals.is_some() || args.seed.is_some() {
            return Err(format!(
                "{} has no deals: give --rounds R and, if not the start, --position TEXT",
                G::NAME
            ));
        }
        if args.retrograde && args.budget.is_some() {
            return Err(
                "--budget bounds a depth-first solve (--rounds R); a retrograde solve's \
                 size is fixed by the game"
                    .into(),
            );
        }
        let state = initial_state::<G>(args.position.as_deref(), self.rules)?;
        if !args.retrograde && args.rounds.is_none() {
            return Err("give --rounds R: the number of rounds to solve from the position".into());
        }
        solve_one(args, &state)
    }
}

impl<G: Registered> ChanceVisitor<G> for Solve<'_, G> {
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

/// Solves one position (a team's, or a simultaneous-move one) as the
/// library's [`solve_state`] does and prints the report.
fn solve_one<G: Registered>(args: &SolveArgs, state: &G) -> CliResult {
    let started = Instant::now();
    let on_progress = |line: &str| {
        eprintln!("{line} ({:.0} s)", started.elapsed().as_secs_f64());
    };
    let request = SolveRequest {
        rounds: args.rounds,
        budget: args.budget,
        retrograde: args.retrograde,
        out: args.out.as_deref(),
        progress: Some(&on_progress),
    };
    match solve_state(state, &request)? {
        Solution::Position(report) => print_report(args.json, &report, SolveReport::text),
        Solution::Equilibrium(report) => print_report(args.json, &report, EquilibriumReport::text),
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
    print_report(args.json, &report, DealsReport::text)
}
