//! `norn tournament`, `norn merge` and `norn match`.

use super::progress::GamesBar;
use super::{CliResult, check_threads, default_threads, parse_rules, print_json, with_game};
use crate::arena::{
    Adjudication, DEFAULT_MAX_FORFEITS, GameLine, MAX_OPENINGS, MatchOptions, OpeningOrder,
    OpeningSet, Openings, RunOptions, Shard, Sprt, TimeControl, TournamentConfig,
    TournamentSummary, check_line, merge_directories, run_match, run_tournament, text_report,
    write_merged_run, write_reports,
};
use crate::engine::stop_all_engines;
use crate::registry::{self, GameList, GameVisitor, Registered};
use clap::Args;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The agents of the default tournament: a one-ply baseline, alpha-beta at
/// two depths, MCTS with its generic defaults and MCTS with the settings
/// that did best on the equal-time ladders (bench-results/strength.md):
/// every child of a leaf built and evaluated at once, implicit minimax
/// backups alone, no exploration, the best-valued move played, and a bonus
/// for the player to move in every evaluation.
const DEFAULT_AGENTS: &[&str] = &[
    "greedy",
    "alphabeta:depth=2",
    "alphabeta:depth=3",
    "mcts:iters=1000",
    "mcts:iters=300,expand=all,minimax=1,playout=0,c=0,pick=value,tempo=0.024",
];

/// Where the games start. Without any of these, a game with a built-in
/// opening set plays it in order, and any other game starts from its start.
#[derive(Args, Debug)]
pub struct OpeningArgs {
    /// A file of openings, one per line: a position in the game's notation,
    /// or plies from the game's start separated by spaces (blank lines and
    /// # comments skipped); each colour-swapped pair plays one [default: the
    /// game's built-in set, if it has one]
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// The order in which the pairs take the openings of --openings or of
    /// the built-in set [default: sequential]
    #[arg(long, value_enum, value_name = "ORDER", conflicts_with_all = ["random_plies", "position", "no_openings"])]
    openings_order: Option<OpeningOrder>,
    /// Start each colour-swapped pair after N uniformly random plies from
    /// the game's start, drawn from the seed and the pair's place
    #[arg(long, value_name = "N", conflicts_with_all = ["openings", "position", "no_openings"])]
    random_plies: Option<usize>,
    /// Start every game from this position
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["openings", "no_openings"])]
    position: Option<String>,
    /// Start every game from the game's start, without openings
    #[arg(long, conflicts_with = "openings")]
    no_openings: bool,
}

/// The most bytes of an openings file read: far more than any set of
/// [`MAX_OPENINGS`] openings needs.
const MAX_OPENINGS_FILE_BYTES: u64 = 64 << 20;

impl OpeningArgs {
    /// The openings these flags ask for, checked against `start`; a random
    /// order is shuffled from `seed`.
    fn openings<G: Registered>(&self, start: &G, seed: u64) -> Result<Openings, String> {
        let order = self.openings_order.unwrap_or_default();
        if let Some(text) = &self.position {
            let openings = Openings::Position(text.trim().to_string());
            openings
                .validate(start)
                .map_err(|error| format!("--position: {error}"))?;
            return Ok(openings);
        }
        if let Some(plies) = self.random_plies {
            let openings = Openings::RandomPlies(plies);
            openings
                .validate(start)
                .map_err(|error| format!("--random-plies: {error}"))?;
            return Ok(openings);
        }
        if self.no_openings {
            return Ok(Openings::Start);
        }
        let set = match &self.openings {
            Some(path) => {
                let text = read_openings_file(path)?;
                OpeningSet::read(&text, start, order, seed)
                    .map_err(|error| format!("{}: {error}", path.display()))?
            }
            None => match OpeningSet::built_in(start, order, seed)? {
                Some((set, dropped)) => {
                    if dropped > 0 {
                        eprintln!(
                            "{dropped} of the built-in openings of {} cannot be played under these rules and are left out; {} remain",
                            G::NAME,
                            set.len()
                        );
                    }
                    set
                }
                None if self.openings_order.is_some() => {
                    return Err(format!(
                        "--openings-order needs --openings FILE: {} has no built-in opening set",
                        G::NAME
                    ));
                }
                None => return Ok(Openings::Start),
            },
        };
        Ok(Openings::Set(set))
    }
}

/// Reads `--max-plies`: a positive number, since a cap of 0 plies would
/// end every game as a draw before its first move.
fn ply_cap(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("0 would draw every game before its first move: give at least 1".into()),
        Ok(plies) => Ok(plies),
        Err(error) => Err(error.to_string()),
    }
}

/// Reads an openings file, refusing one too large to be a set of openings
/// before reading all of it.
fn read_openings_file(path: &Path) -> Result<String, String> {
    let cannot = |error: std::io::Error| format!("cannot read {}: {error}", path.display());
    let mut text = String::new();
    std::fs::File::open(path)
        .map_err(cannot)?
        .take(MAX_OPENINGS_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(cannot)?;
    if text.len() as u64 > MAX_OPENINGS_FILE_BYTES {
        return Err(format!(
            "{} is larger than {} MiB; an openings file holds at most {} openings",
            path.display(),
            MAX_OPENINGS_FILE_BYTES >> 20,
            MAX_OPENINGS
        ));
    }
    Ok(text)
}

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The game
    game: String,
    /// Agent specs, e.g. random greedy alphabeta:depth=3 mcts:iters=2000
    /// (mcts:preset=best,ms=100: the game's best measured MCTS); a spec
    /// listed twice plays itself, the second seat named `SPEC #2`. With
    /// --gauntlet, the baselines
    #[arg(long, num_args = 1.., default_values_t = DEFAULT_AGENTS.iter().map(|s| s.to_string()))]
    agents: Vec<String>,
    /// A gauntlet: this agent (the challenger) plays each of --agents (the
    /// baselines), which do not play each other; its games are those of the
    /// round robin of the challenger and the baselines with the same seed.
    /// The ratings are anchored on the first baseline unless --anchor says
    /// otherwise
    #[arg(long, value_name = "SPEC")]
    gauntlet: Option<String>,
    /// Games between each pair of agents (even: colour-swapped pairs)
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Games played at the same time
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// Master seed; every game's seed derives from it
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Directory for the game log and reports [default: runs/<game>-<config hash>]
    #[arg(long)]
    out: Option<PathBuf>,
    /// Games still running after this many plies are drawn (at least 1)
    #[arg(long, value_parser = ply_cap)]
    max_plies: Option<usize>,
    /// Play only shard I of N (pairs of games are dealt out in turn)
    #[arg(long)]
    shard: Option<String>,
    /// The agent whose rating is fixed at 0, by spec or by name (`SPEC #2`
    /// for a spec's second listing) [default: the first agent, in a gauntlet
    /// the first baseline]
    #[arg(long)]
    anchor: Option<String>,
    /// Rules options as key=value pairs
    #[arg(long)]
    rules: Option<String>,
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// Drop log lines that fail the resume checks (a game outside the
    /// schedule, recorded twice, or not replaying to its result) and play
    /// their games again
    #[arg(long)]
    repair: bool,
    /// Resume a run whose games another build of norn played
    #[arg(long)]
    force_resume: bool,
    /// Stop when an agent has lost N games in a row by forfeit (a failing
    /// agent loses the game it fails in)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_FORFEITS)]
    max_forfeits: usize,
    #[command(flatten)]
    play: GameArgs,
    /// Print the summary as one JSON object instead of the table
    #[arg(long)]
    json: bool,
}

/// How the games of a tournament or a match start, how they are timed
/// and what their log keeps of each move.
#[derive(Args, Debug)]
struct GameArgs {
    /// A game clock per side, BASE+INCREMENT in seconds (60+0.5): a side
    /// that runs out of time loses; agents with a time limit (ms=) spend
    /// their clock instead
    #[arg(long, value_name = "BASE+INC")]
    tc: Option<TimeControl>,
    /// Log what each move cost: the time of every decision, and the
    /// searchers' depth or iterations, nodes, score and expected line
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = on_off, action = clap::ArgAction::Set)]
    record_search: bool,
    /// End games early when the searchers' scores agree (off by default):
    /// resign-moves=N (a loss when one side's score has been at most
    /// -resign-score and the other's at least resign-score for N moves of
    /// each, resign-score=0.9), draw-moves=N (a draw when both scores have
    /// been within draw-score of 0 for N moves of each, draw-score=0.05,
    /// after draw-after plies, 0); not for games scored by a margin
    #[arg(long, value_name = "OPTIONS", value_parser = adjudication)]
    adjudicate: Option<Adjudication>,
    #[command(flatten)]
    openings: OpeningArgs,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Directories of the shards of one tournament or one win-rate run
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Directory for the merged log and reports (not one of the shards)
    #[arg(long)]
    out: PathBuf,
    /// Merge shards that different builds of norn played, recording every
    /// shard's build in the merged run
    #[arg(long)]
    force_resume: bool,
    /// Print the summary as one JSON object instead of the table
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game
    game: String,
    /// The agent under test
    tested: String,
    /// The baseline agent
    baseline: String,
    /// Hypotheses: Elo difference H0 and H1, e.g. 0,10
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    sprt: String,
    /// Probability of accepting H1 when H0 is true
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// Probability of accepting H0 when H1 is true
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Stop undecided after this many games
    #[arg(long, default_value_t = 20_000)]
    max_games: usize,
    /// Games played at the same time
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games still running after this many plies are drawn (at least 1)
    #[arg(long, value_parser = ply_cap)]
    max_plies: Option<usize>,
    /// Rules options as key=value pairs
    #[arg(long)]
    rules: Option<String>,
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// Directory for the match's game log (each game written as it ends)
    /// and reports, as a tournament's; the same match command again resumes it
    #[arg(long)]
    out: Option<PathBuf>,
    /// Stop when an agent has lost N games in a row by forfeit (a failing
    /// agent loses the game it fails in)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_FORFEITS)]
    max_forfeits: usize,
    /// Drop log lines that fail the resume checks and play their games again
    #[arg(long, requires = "out")]
    repair: bool,
    /// Resume a match whose games another build of norn played
    #[arg(long, requires = "out")]
    force_resume: bool,
    #[command(flatten)]
    play: GameArgs,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

/// Reads `--adjudicate`'s options.
fn adjudication(text: &str) -> Result<Adjudication, String> {
    text.parse()
        .map_err(|error: crate::core::ParseError| error.to_string())
}

/// Reads `on` or `off`.
fn on_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("expected `on` or `off`, not `{text}`")),
    }
}

/// A stop flag raised by Ctrl-C. A second Ctrl-C exits at once.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let handler_flag = Arc::clone(&flag);
    // Installing can only fail if a handler exists already; the run then
    // simply cannot be interrupted cleanly, which is no reason to refuse it.
    let _ = ctrlc::set_handler(move || {
        let again = handler_flag.swap(true, Ordering::SeqCst);
        // Outside engines run in process groups of their own, which the
        // terminal's Ctrl-C does not reach, and a game waiting on one ends
        // at once when it is killed.
        stop_all_engines();
        if again {
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: finishing the log; press Ctrl-C again to quit at once");
    });
    flag
}

fn show_summary(summary: &TournamentSummary, json: bool) -> CliResult {
    if json {
        print_json(summary)
    } else {
        print!("{}", text_report(summary));
        Ok(())
    }
}

pub fn run<L: GameList>(args: TournamentArgs) -> CliResult {
    with_game!(L, args: TournamentArgs, G => tournament::<G>(args))
}

fn tournament<G: Registered>(args: &TournamentArgs) -> CliResult {
    check_threads(args.threads)?;
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let shard = match &args.shard {
        Some(text) => Shard::parse(text).map_err(|error| error.to_string())?,
        None => Shard::ALL,
    };
    let start = G::new(rules);
    let config = TournamentConfig {
        game: G::NAME.to_string(),
        rules: args.rules.clone().unwrap_or_default(),
        agents: args
            .gauntlet
            .iter()
            .chain(&args.agents)
            .map(|spec| spec.trim().to_string())
            .collect(),
        games_per_pair: args.games,
        seed: args.seed,
        max_plies: args.max_plies,
        anchor: args.anchor.clone(),
        gauntlet: args.gauntlet.is_some(),
        time_control: args.play.tc,
        adjudication: args.play.adjudicate.clone(),
        openings: args.play.openings.openings(&start, args.seed)?,
    };
    config.validate()?;
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("runs/{}-{}", G::NAME, config.digest())));
    let stop = interrupt_flag();
    let bar = GamesBar::new();
    let options = RunOptions {
        threads: args.threads,
        shard,
        out_dir: Some(out_dir.clone()),
        stop: &stop,
        progress: &bar,
        repair: args.repair,
        force_resume: args.force_resume,
        max_forfeits: args.max_forfeits,
        record_search: args.play.record_search,
    };
    let started = Instant::now();
    let result = run_tournament(&config, &start, &registry::build_agent::<G>, &options)
        .map_err(|error| error.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    show_summary(&result.summary, args.json)?;
    for dropped in &result.dropped_lines {
        eprintln!("dropped from the log: {dropped}");
    }
    if !args.json {
        if result.repaired_torn_line {
            println!("a half-written game at the end of the log was discarded and played again");
        }
        println!(
            "{} games played now, {} read back from {}, in {seconds:.1} s; log and reports in {}",
            result.games.len() - result.resumed,
            result.resumed,
            out_dir.join("games.jsonl").display(),
            out_dir.display()
        );
    }
    if result.missing > 0 {
        return Err(format!(
            "interrupted with {} games of this run still to play; run the same command again to resume",
            result.missing
        ));
    }
    Ok(())
}

pub fn merge<L: GameList>(args: MergeArgs) -> CliResult {
    if crate::arena::winrate::is_win_rate_run(&args.dirs[0]) {
        return super::winrate::merge::<L>(&args.dirs, &args.out, args.force_resume, args.json);
    }
    let merged =
        merge_directories(&args.dirs, args.force_resume).map_err(|error| error.to_string())?;
    let (config, games) = (&merged.config, &merged.games);
    let game = registry::find_in::<L>(&config.game)
        .map_err(|error| format!("the shards hold games that this norn does not know: {error}"))?;
    registry::visit_in::<L, _>(&config.game, &mut ReplayEvery { config, games })
        .map_err(|error| error.to_string())??;
    let _directory =
        write_merged_run(&args.out, &args.dirs, &merged).map_err(|error| error.to_string())?;
    let summary = TournamentSummary {
        shard_provenance: merged.shard_provenance.clone(),
        ..TournamentSummary::compute(config, games, game.capabilities.scored())
            .with_provenance(&merged.provenance)
    };
    write_reports(&args.out, &summary).map_err(|error| error.to_string())?;
    show_summary(&summary, args.json)
}

/// Replays every merged game, so that a shard whose log was edited is
/// refused before its games count.
struct ReplayEvery<'a> {
    config: &'a TournamentConfig,
    games: &'a [GameLine],
}

impl GameVisitor for ReplayEvery<'_> {
    type Output = CliResult;

    fn visit<G: Registered>(&mut self) -> CliResult {
        let rules = parse_rules::<G>(Some(self.config.rules.as_str()))?;
        let start = G::new(rules);
        self.games
            .iter()
            .try_for_each(|line| check_line(self.config, &start, line))
    }
}

pub fn run_match_command<L: GameList>(args: MatchArgs) -> CliResult {
    with_game!(L, args: MatchArgs, G => match_games::<G>(args))
}

fn parse_hypotheses(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("--sprt takes two Elo differences ELO0,ELO1, e.g. 0,10, not `{text}`");
    let (elo0, elo1) = text.split_once(',').ok_or_else(bad)?;
    Ok((
        elo0.trim().parse().map_err(|_| bad())?,
        elo1.trim().parse().map_err(|_| bad())?,
    ))
}

fn match_games<G: Registered>(args: &MatchArgs) -> CliResult {
    check_threads(args.threads)?;
    let (elo0, elo1) = parse_hypotheses(&args.sprt)?;
    let sprt = Sprt {
        elo0,
        elo1,
        alpha: args.alpha,
        beta: args.beta,
    };
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let start = G::new(rules);
    let config = TournamentConfig {
        game: G::NAME.to_string(),
        rules: args.rules.clone().unwrap_or_default(),
        agents: vec![
            args.tested.trim().to_string(),
            args.baseline.trim().to_string(),
        ],
        games_per_pair: 2,
        seed: args.seed,
        max_plies: args.max_plies,
        anchor: None,
        gauntlet: false,
        time_control: args.play.tc,
        adjudication: args.play.adjudicate.clone(),
        openings: args.play.openings.openings(&start, args.seed)?,
    };
    let stop = interrupt_flag();
    let bar = GamesBar::new();
    let options = MatchOptions {
        sprt,
        max_pairs: args.max_games / 2,
        threads: args.threads,
        stop: &stop,
        progress: &bar,
        max_forfeits: args.max_forfeits,
        record_search: args.play.record_search,
        out_dir: args.out.as_deref(),
        repair: args.repair,
        force_resume: args.force_resume,
    };
    let matched = run_match(&config, &start, &registry::build_agent::<G>, &options)
        .map_err(|error| error.to_string())?;
    let report = &matched.result;
    if matched.interrupted {
        let resume = match &args.out {
            Some(out) => format!(
                "its games are in {}: run the same command again to resume",
                out.display()
            ),
            None => "without --out nothing was kept".to_string(),
        };
        return Err(format!(
            "interrupted after {} games; {resume}",
            report.games
        ));
    }
    if args.json {
        return print_json(&matched);
    }
    print!("{}", matched.text());
    Ok(())
}
