//! `norn train`: a network trained by self-play, generation after
//! generation, in a run directory that resumes where it stopped.

use super::progress::{Meter, generation_bar};
use super::{CliResult, check_threads, default_threads, parse_rules, print_report, with_game};
use crate::arena::Shard;
use crate::learning::train::evaluate::{EvaluationRequest, EvaluationSettings};
use crate::learning::train::options::SettingsText;
use crate::learning::train::workers::{MAX_WAIT_SECONDS, Workers};
use crate::learning::train::{
    Checkpoint, TrainEvent, TrainSession, TrainSettings, TrainSummary, train,
};
use crate::registry::{GameList, Registered};
use crate::search::StopFlag;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The game (one player deciding at a time, every player seeing the
    /// whole state)
    game: String,
    /// The run directory: config.json, checkpoints/N, samples, losses.jsonl
    /// (the same command again resumes the run)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Train until this many generations are done (over every session)
    #[arg(long)]
    generations: Option<u64>,
    /// Train until this many minutes of work are done (over every session;
    /// a generation started is finished)
    #[arg(long)]
    minutes: Option<f64>,
    /// Self-play games per generation
    #[arg(long, default_value_t = 64)]
    games_per_generation: u64,
    /// Simulations per move of the self-play search
    #[arg(long)]
    sims: Option<u32>,
    /// PUCT with Dirichlet noise at the root (noise=0.25) and moves drawn
    /// by their visits (temp=1) for the first 30 plies, instead of Gumbel
    #[arg(long)]
    puct: bool,
    /// More options of the self-play search, as the `az` agent's, e.g.
    /// "considered=8" or "noise=0.3,dirichlet=0.5"
    #[arg(long, default_value = "")]
    search: String,
    /// The network's architecture as key=value pairs, e.g.
    /// "blocks=2,channels=16" (as `norn net init --arch`)
    #[arg(long, default_value = "")]
    arch: String,
    /// AdamW's step size (overrides --training)
    #[arg(long)]
    learning_rate: Option<f64>,
    /// Training options as key=value pairs: learning-rate, beta1, beta2,
    /// epsilon, weight-decay, clip-norm, policy-weight, value-weight,
    /// search-value (the share of the search's values in the value targets)
    #[arg(long, default_value = "")]
    training: String,
    /// Samples per training step
    #[arg(long, default_value_t = 256)]
    batch_size: usize,
    /// The replay buffer: the newest samples trained on
    #[arg(long, default_value_t = 100_000)]
    buffer: usize,
    /// Training steps per generation (default: twice the generation's
    /// samples over the batch size)
    #[arg(long)]
    steps: Option<u64>,
    /// Threads for self-play and training (the results do not depend on them)
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// The run's seed
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Evaluate every this many generations: the newest network plays the
    /// one evaluated before it and the baselines, and every evaluated
    /// generation is rated on one scale (evaluations/N, ratings.json)
    #[arg(long, value_name = "GENERATIONS")]
    eval_every: Option<u64>,
    /// Games of an evaluation against each opponent (colour-swapped pairs);
    /// on a cooperative game, the deals each policy plays
    #[arg(long, default_value_t = 20)]
    eval_games: usize,
    /// The evaluations' baselines (the first of a fixed budget anchors the
    /// ratings at 0; `ms=equal`: at the newest network's time per move);
    /// default: MCTS with the self-play search's simulations, then
    /// alpha-beta to depth 2 and the game's presets at equal time, or on a
    /// cooperative game the exact solver
    #[arg(long, value_name = "SPEC", num_args = 1..)]
    baselines: Vec<String>,
    /// Rules options as key=value pairs, e.g. "ply-limit=200"
    #[arg(long)]
    rules: Option<String>,
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// Resume a run that another build of norn started
    #[arg(long)]
    force_resume: bool,
    /// Print the last checkpoint's record as one JSON object
    #[arg(long)]
    json: bool,
    /// Self-play comes from this many worker processes (the same command
    /// with --worker I/N), which share the run directory; the checkpoints
    /// are those of the run without workers
    #[arg(long, value_name = "N", conflicts_with = "worker")]
    workers: Option<usize>,
    /// Be worker I of N: play that part of each generation's games with
    /// the run's newest checkpoint, until the run's limit
    #[arg(long, value_name = "I/N")]
    worker: Option<String>,
    /// The longest wait, in seconds, of the trainer for the workers' games
    /// and of a worker for the run's next checkpoint
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0)]
    wait: f64,
}

pub fn run<L: GameList>(args: TrainArgs) -> CliResult {
    with_game!(L, args: TrainArgs, G => train_game::<G>(args))
}

/// The run's settings from the command line.
fn settings(args: &TrainArgs) -> Result<TrainSettings, String> {
    SettingsText {
        prefix: "--",
        games_per_generation: args.games_per_generation,
        sims: args.sims,
        puct: args.puct,
        search: &args.search,
        arch: &args.arch,
        learning_rate: args.learning_rate,
        training: &args.training,
        batch_size: args.batch_size,
        buffer: args.buffer,
        steps: args.steps,
        seed: args.seed,
    }
    .settings()
}

fn train_game<G: Registered>(args: &TrainArgs) -> CliResult {
    check_threads(args.threads)?;
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let settings = settings(args)?;
    let worker = args
        .worker
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(|error| format!("--worker: {error}"))?;
    let session = TrainSession {
        generations: args.generations,
        minutes: args.minutes,
        threads: args.threads,
        force_resume: args.force_resume,
        workers: workers_option(args, worker)?,
        stop: StopFlag::default(),
    };
    let start = G::new(rules);
    if let Some(worker) = worker {
        return super::train_worker::run_worker(
            &start,
            &settings,
            &session,
            worker,
            (&args.out, args.json),
        );
    }
    let evaluation = args
        .eval_every
        .map(|every| {
            let request = EvaluationRequest {
                every,
                games_per_pair: args.eval_games,
                baselines: args.baselines.clone(),
            };
            EvaluationSettings::of_run(&start, &request, &settings, &session)
        })
        .transpose()?;
    let dir = args.out.display().to_string();
    let mut evaluate = |generation: u64| -> CliResult {
        if let Some(evaluation) = &evaluation
            && let Some(found) = evaluation.after_checkpoint(&start, &args.out, generation)?
        {
            eprintln!("{found}");
        }
        Ok(())
    };
    let mut steps_done = 0;
    // The generation under way's meter: its self-play games, then its
    // steps.
    let mut meter: Option<(bool, Meter)> = None;
    let summary = train(
        &start,
        &settings,
        &session,
        &args.out,
        |event| match event {
            TrainEvent::Start {
                generation,
                resumed,
            } => {
                let from = if resumed { "resuming" } else { "starting" };
                eprintln!(
                    "{from} {} training in {dir} at generation {generation}",
                    G::NAME
                );
            }
            TrainEvent::Game {
                generation, games, ..
            } => {
                let (_, bar) = meter.get_or_insert_with(|| {
                    (
                        false,
                        generation_bar(
                            games,
                            "games",
                            format!("generation {generation} self-play"),
                        ),
                    )
                });
                bar.inc(1);
            }
            TrainEvent::Step {
                generation,
                done,
                steps,
                ..
            } => {
                if !meter.as_ref().is_some_and(|(training, _)| *training) {
                    if let Some((_, bar)) = meter.take() {
                        bar.finish_and_clear();
                    }
                    meter = Some((
                        true,
                        generation_bar(steps, "steps", format!("generation {generation} training")),
                    ));
                }
                if let Some((_, bar)) = &meter {
                    bar.inc(1);
                }
                steps_done = done;
            }
            TrainEvent::Checkpoint(record) => {
                if let Some((_, bar)) = meter.take() {
                    bar.finish_and_clear();
                }
                eprintln!("{}", generation_line(record, steps_done));
            }
        },
        &mut evaluate,
    )?;
    print_report(args.json, &summary.last, |last: &Checkpoint| {
        summary_text(&summary, last, &dir)
    })
}

/// The workers of `--workers` or `--worker`, with the wait.
fn workers_option(args: &TrainArgs, worker: Option<Shard>) -> Result<Option<Workers>, String> {
    let Some(count) = args.workers.or(worker.map(|worker| worker.count)) else {
        return Ok(None);
    };
    if !(args.wait > 0.0 && args.wait <= MAX_WAIT_SECONDS) {
        return Err(format!(
            "--wait must be a number of seconds from 0 to {MAX_WAIT_SECONDS}, not {}",
            args.wait
        ));
    }
    Ok(Some(Workers {
        count,
        wait: Duration::from_secs_f64(args.wait),
    }))
}

/// A generation's line of progress.
fn generation_line(record: &Checkpoint, steps: u64) -> String {
    let losses = record.losses.map_or(String::new(), |losses| {
        format!(
            ", loss {:.4} (policy {:.4}, value {:.4})",
            losses.total, losses.policy, losses.value
        )
    });
    format!(
        "generation {}: {} games, {} samples in all (buffer {}), {steps} steps{losses}, {:.1} s",
        record.generation, record.games, record.samples, record.buffer, record.seconds
    )
}

/// What the session did, in a line.
fn summary_text(summary: &TrainSummary, last: &Checkpoint, dir: &str) -> String {
    format!(
        "{dir}: generation {} ({} trained now), {} steps, {} games, {} samples, {:.1} s of work\n",
        last.generation, summary.trained, last.steps, last.games, last.samples, last.seconds
    )
}
