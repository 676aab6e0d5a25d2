use super::perft::default_threads;
use super::solve::fenrir_path_rules;
use super::{CliResult, GameName, print_json};
use crate::agents::{Agent, build_agent};
use crate::arena::plot::difficulty_curve_svg;
use crate::arena::winrate::{
    AgentPolicy, DealPolicy, ExactPolicy, WinRate, WinRateRun, deal, estimate_win_rate,
};
use crate::core::{Notation, ParseError, Stochastic, parse_key_values};
use crate::games::fenrir_path::{FenrirPath, GreedyCollector, TurnOrder};
use clap::Args;
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

mod fenrir_cards;

#[derive(Args, Debug)]
pub struct WinrateArgs {
    /// The game (a cooperative game with deals: fenrir-path, fenrir-cards)
    game: GameName,
    /// Policies to compare on the same deals: exact, random, greedy, mcts:iters=N
    /// (fenrir-cards: random, counting, ismcts:iters=N, open-hand)
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
    /// Turn order: free (the team names the next god) or fixed (a rotation)
    #[arg(long)]
    turn_order: Option<TurnOrder>,
    /// Rules options as key=value pairs, e.g. "colours=3,sets=2"
    #[arg(long)]
    rules: Option<String>,
    /// Print one JSON object instead of a table
    #[arg(long)]
    json: bool,
    /// Also write DIR/summary.json, DIR/deals.csv (each deal and which
    /// policies won it) and DIR/winrate.svg (the difficulty curve)
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// fenrir-cards: the number of players, 2 to 4
    #[arg(long)]
    players: Option<usize>,
    /// fenrir-cards: the length of the track (the space of Odin)
    #[arg(long)]
    track: Option<u32>,
    /// fenrir-cards: every track length from A to B, e.g. 10..84: a table and
    /// an SVG plot of win rate against track length
    #[arg(long, value_name = "A..B")]
    sweep_track: Option<String>,
    /// fenrir-cards: the step between the track lengths of a sweep (default:
    /// about ten lengths)
    #[arg(long, requires = "sweep_track")]
    track_step: Option<u32>,
    /// fenrir-cards: play this deal (the hands, then `:` and the stock) every
    /// time instead of seeded deals; the policies' own random choices vary
    #[arg(long)]
    deal: Option<String>,
}

#[derive(Serialize)]
struct WinrateReport {
    game: &'static str,
    rules: String,
    seed: u64,
    deals: u64,
    threads: usize,
    policies: Vec<WinRate>,
}

pub fn run(args: WinrateArgs) -> CliResult {
    if args.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    if args.deals == 0 {
        return Err("--deals must be at least 1".into());
    }
    let cards_only = args.players.is_some()
        || args.track.is_some()
        || args.sweep_track.is_some()
        || args.deal.is_some();
    if cards_only && args.game != GameName::FenrirCards {
        return Err(
            "--players, --track, --sweep-track and --deal are options of fenrir-cards".into(),
        );
    }
    match args.game {
        GameName::FenrirCards => fenrir_cards::run(&args),
        GameName::FenrirPath => {
            let rules = fenrir_path_rules(args.rules.as_deref(), args.turn_order)?;
            let policies = args
                .policies
                .iter()
                .map(|spec| fenrir_path_policy(spec))
                .collect::<Result<Vec<_>, _>>()?;
            run_game::<FenrirPath>(&args, &rules, &policies)
        }
        other => Err(format!(
            "winrate needs a cooperative game with deals; {} is not one",
            game_name(other)
        )),
    }
}

/// The policy a spec names for Fenrir's Path: the exact solver, or an agent.
fn fenrir_path_policy(spec: &str) -> Result<Box<dyn DealPolicy<FenrirPath>>, String> {
    if spec.trim() == "exact" {
        return Ok(Box::new(ExactPolicy));
    }
    let policy = AgentPolicy::from_spec(spec.trim(), fenrir_path_agent)
        .map_err(|error| error.to_string())?;
    Ok(Box::new(policy))
}

/// The agents that play Fenrir's Path: `greedy` is the collector that knows
/// this game (collect when possible, otherwise keep the wolf farthest away);
/// `random` and `mcts:...` come from the generic builder. Alpha-beta is left
/// out: it searches two-player zero-sum games.
fn fenrir_path_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<FenrirPath>>, ParseError> {
    match spec {
        "greedy" => Ok(Box::new(GreedyCollector::new(seed))),
        "random" => build_agent(spec, seed),
        _ if spec == "mcts" || spec.starts_with("mcts:") => build_agent(spec, seed),
        _ => Err(ParseError::new(
            "policy",
            spec,
            "unknown policy (policies: exact, random, greedy, mcts:iters=N with the options of docs/search.md)",
        )),
    }
}

/// The search budget of a policy spec such as `mcts:iters=1000`, which puts
/// the policy on the difficulty curve.
fn search_budget(spec: &str) -> Option<u64> {
    let (_, options) = spec.split_once(':')?;
    parse_key_values(options, "policy")
        .ok()?
        .into_iter()
        .find(|&(key, _)| key == "iters")
        .and_then(|(_, value)| value.parse().ok())
}

/// Prints the win-rate table: one row per policy, labelled in a column of
/// `width` characters.
fn print_rates<'a>(width: usize, rows: impl IntoIterator<Item = (String, &'a WinRate)>) {
    println!(
        "{:<width$} {:>8} {:>8} {:>9} {:>21} {:>9} {:>10}",
        "policy", "deals", "wins", "win rate", "95% interval", "seconds", "deals/s"
    );
    for (label, rate) in rows {
        println!(
            "{label:<width$} {:>8} {:>8} {:>8.3}% {:>8.3}% - {:>7.3}% {:>9.2} {:>10.1}",
            rate.deals,
            rate.wins,
            100.0 * rate.win_rate,
            100.0 * rate.ci_low,
            100.0 * rate.ci_high,
            rate.seconds,
            rate.deals_per_second
        );
    }
}

/// A progress bar on standard error, or a hidden one when standard error is
/// not a terminal.
pub(crate) fn progress_bar(total: u64, prefix: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix:>12} [{bar:30}] {pos}/{len} deals, {per_sec}, eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(prefix.to_string());
    bar
}

fn run_game<G: Stochastic + Notation>(
    args: &WinrateArgs,
    rules: &G::Rules,
    policies: &[Box<dyn DealPolicy<G>>],
) -> CliResult
where
    G::Rules: std::fmt::Display,
{
    let run = WinRateRun {
        deals: args.deals,
        master_seed: args.seed,
        threads: args.threads,
    };
    let bar = progress_bar(args.deals * policies.len() as u64, "");
    let mut rates = Vec::new();
    let mut outcomes = Vec::new();
    for policy in policies {
        bar.set_prefix(policy.spec().to_string());
        let estimate = estimate_win_rate(rules, policy.as_ref(), run, &|| bar.inc(1))
            .map_err(|error| error.to_string())?;
        rates.push(estimate.rate);
        outcomes.push(estimate.won);
    }
    bar.finish_and_clear();
    let report = WinrateReport {
        game: G::NAME,
        rules: rules.to_string(),
        seed: args.seed,
        deals: args.deals,
        threads: args.threads,
        policies: rates,
    };
    if let Some(dir) = &args.out {
        write_outputs::<G>(dir, rules, &report, &outcomes)?;
    }
    if args.json {
        return print_json(&report);
    }
    println!(
        "{} deals of {} (seed {}, {})",
        report.deals, report.game, report.seed, report.rules
    );
    print_rates(
        20,
        report
            .policies
            .iter()
            .map(|rate| (rate.policy.clone(), rate)),
    );
    if let Some(dir) = &args.out {
        println!(
            "wrote summary.json, deals.csv and winrate.svg to {}",
            dir.display()
        );
    }
    Ok(())
}

fn write_outputs<G: Stochastic + Notation>(
    dir: &Path,
    rules: &G::Rules,
    report: &WinrateReport,
    outcomes: &[Vec<bool>],
) -> CliResult {
    let write = |name: &str, contents: &str| {
        let path = dir.join(name);
        std::fs::write(&path, contents)
            .map_err(|error| format!("cannot write {}: {error}", path.display()))
    };
    std::fs::create_dir_all(dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    let json = serde_json::to_string_pretty(report).map_err(|error| error.to_string())?;
    write("summary.json", &(json + "\n"))?;

    let mut csv = String::from("deal_index,deal");
    for rate in &report.policies {
        csv.push(',');
        csv.push_str(&rate.policy.replace(',', ";"));
    }
    csv.push('\n');
    for index in 0..report.deals {
        let dealt: G = deal(rules, report.seed, index);
        // The deal is the first word of the position text.
        let text = dealt.position_text();
        let deal_text = text.split_whitespace().next().unwrap_or_default();
        csv.push_str(&format!("{index},{deal_text}"));
        for won in outcomes {
            csv.push_str(if won[index as usize] { ",1" } else { ",0" });
        }
        csv.push('\n');
    }
    write("deals.csv", &csv)?;

    let (curve, references): (Vec<&WinRate>, Vec<&WinRate>) = report
        .policies
        .iter()
        .partition(|rate| search_budget(&rate.policy).is_some());
    let curve: Vec<(u64, WinRate)> = curve
        .into_iter()
        .map(|rate| (search_budget(&rate.policy).unwrap_or(1), rate.clone()))
        .collect();
    let references: Vec<WinRate> = references.into_iter().cloned().collect();
    let title = format!(
        "{}: win rate over {} deals ({})",
        report.game,
        report.deals,
        report
            .rules
            .split(',')
            .find(|o| o.starts_with("turn-order"))
            .unwrap_or("")
    );
    write(
        "winrate.svg",
        &difficulty_curve_svg(&title, &curve, &references),
    )
}

/// A game's name as the command line spells it.
pub(crate) fn game_name(game: GameName) -> String {
    game.to_possible_value()
        .map_or_else(|| format!("{game:?}"), |value| value.get_name().to_string())
}
