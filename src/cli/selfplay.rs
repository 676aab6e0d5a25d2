//! `norn self-play`: games played by the guided search against itself,
//! their decisions written as training samples (`.npz` shards and a JSON
//! manifest).

use super::{CliResult, parse_rules, print_report, with_game};
use crate::core::write_options;
use crate::learning::guided::{read_az_options, refuse_unsearchable};
use crate::learning::selfplay::{Manifest, SelfPlayConfig, self_play};
use crate::registry::{GameList, Registered};
use crate::search::StopFlag;
use crate::search::guided::GuidedSearch;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    /// The game (one player deciding at a time, every player seeing the
    /// whole state)
    game: String,
    /// The directory to write the shards and manifest.json into (it must
    /// not hold a manifest already)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Games to play
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// The search and its evaluator, as the options of an `az` agent, e.g.
    /// "sims=64,gumbel=on,net=uniform,threads=2"
    #[arg(long, default_value = "")]
    az: String,
    /// Games played at once: their decisions are searched together
    #[arg(long, default_value_t = 64)]
    batch: usize,
    /// Samples per shard
    #[arg(long, default_value_t = 100_000)]
    shard_samples: usize,
    /// Master seed: game i draws from a seed derived from it and i
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Rules options as key=value pairs, e.g. "ply-limit=200"
    #[arg(long)]
    rules: Option<String>,
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// Print the manifest as one JSON object instead of a summary
    #[arg(long)]
    json: bool,
}

pub fn run<L: GameList>(args: SelfPlayArgs) -> CliResult {
    with_game!(L, args: SelfPlayArgs, G => play::<G>(args))
}

fn play<G: Registered>(args: &SelfPlayArgs) -> CliResult {
    refuse_unsearchable::<G>("self-play")?;
    if args.batch == 0 || args.shard_samples == 0 {
        return Err("--batch and --shard-samples take a whole number of at least 1".into());
    }
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let (config, options) = read_az_options(&args.az)?;
    let mut evaluator = options.evaluator::<G>(&config)?;
    let search = GuidedSearch::new(config)?;
    let config = SelfPlayConfig {
        games: args.games,
        batch: args.batch,
        shard_samples: args.shard_samples,
        seed: args.seed,
        stop: StopFlag::default(),
    };
    let started = Instant::now();
    let manifest = self_play(
        &G::new(rules),
        &search,
        &mut evaluator,
        &write_options(&options),
        &config,
        &args.out,
        |_| {},
    )?;
    let seconds = started.elapsed().as_secs_f64();
    print_report(args.json, &manifest, |manifest: &Manifest| {
        format!(
            "{} games, {} samples in {} shards in {} ({:.1} s, {:.2} games/s, {:.1} samples/s)\n",
            manifest.games,
            manifest.samples,
            manifest.shards.len(),
            args.out.display(),
            seconds,
            manifest.games as f64 / seconds,
            manifest.samples as f64 / seconds,
        )
    })
}
