use super::{
    CliResult, check_threads, default_threads, initial_state, parse_rules, print_json, with_game,
};
use crate::core::{Notation, Status};
use crate::registry::GameList;
use crate::search::{perft_divide, perft_parallel};
use clap::Args;
use serde::Serialize;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game
    game: String,
    /// Number of plies
    #[arg(long, short)]
    depth: u32,
    /// Start from this position instead of the initial one (for games with
    /// deals, `--deal` gives the deal to start from)
    #[arg(long, visible_alias = "deal")]
    position: Option<String>,
    /// Rules options as key=value pairs, e.g. "ply-limit=none"
    #[arg(long)]
    rules: Option<String>,
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// Also list the count below each first move
    #[arg(long)]
    divide: bool,
    /// Worker threads (the root moves are shared among them)
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct PerftReport {
    game: &'static str,
    position: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    threads: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideEntry>>,
}

#[derive(Serialize)]
struct DivideEntry {
    #[serde(rename = "move")]
    mv: String,
    nodes: u64,
}

pub fn run<L: GameList>(args: PerftArgs) -> CliResult {
    with_game!(L, args: PerftArgs, G => count::<G>(args))
}

/// The deepest perft: counts are `u64`, which any game with two moves a
/// ply outgrows at 64 plies, long after any count could finish.
const MAX_PERFT_DEPTH: u32 = 64;

fn count<G: Notation>(args: &PerftArgs) -> CliResult {
    check_threads(args.threads)?;
    if args.depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "--depth {} is deeper than perft counts: at most {MAX_PERFT_DEPTH}",
            args.depth
        ));
    }
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let state: G = initial_state(args.position.as_deref(), rules)?;
    if state.status() == Status::Chance {
        return Err(format!(
            "{} starts with a deal: give the deal to count from with --deal",
            G::NAME
        ));
    }
    let started = Instant::now();
    let (nodes, divide) = if args.divide {
        let split = perft_divide(&state, args.depth, args.threads).map_err(|e| e.to_string())?;
        let nodes = split.iter().map(|&(_, n)| n).sum();
        let entries = split
            .into_iter()
            .map(|(ply, nodes)| DivideEntry {
                mv: state.ply_text(&ply).one_line(),
                nodes,
            })
            .collect();
        (if args.depth == 0 { 1 } else { nodes }, Some(entries))
    } else {
        let nodes = perft_parallel(&state, args.depth, args.threads).map_err(|e| e.to_string())?;
        (nodes, None)
    };
    let seconds = started.elapsed().as_secs_f64();
    let report = PerftReport {
        game: G::NAME,
        position: state.position_text(),
        depth: args.depth,
        nodes,
        seconds,
        nodes_per_second: nodes as f64 / seconds.max(1e-9),
        threads: args.threads,
        divide,
    };
    if args.json {
        return print_json(&report);
    }
    if let Some(entries) = &report.divide {
        for entry in entries {
            println!("{}: {}", entry.mv, entry.nodes);
        }
        println!();
    }
    println!(
        "perft({}) = {} in {:.3} s ({:.0} nodes/s, {} threads)",
        report.depth, report.nodes, report.seconds, report.nodes_per_second, report.threads
    );
    Ok(())
}
