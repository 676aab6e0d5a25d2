//! `norn train ... --worker I/N`: one worker process of a training run,
//! playing its part of each generation's self-play.

use super::progress::{Meter, generation_bar};
use super::{CliResult, print_report};
use crate::arena::Shard;
use crate::core::{Encoding, Evaluate};
use crate::learning::train::workers::{WorkerEvent, WorkerSummary, work};
use crate::learning::train::{TrainSession, TrainSettings};
use std::path::Path;

/// Runs worker `worker` of the run in `out` until the run's limit, a
/// line on the terminal for each part written; the summary in JSON with
/// `json`.
pub(super) fn run_worker<G: Encoding + Evaluate>(
    start: &G,
    settings: &TrainSettings,
    session: &TrainSession,
    worker: Shard,
    (out, json): (&Path, bool),
) -> CliResult {
    let dir = out.display().to_string();
    let me = format!("worker {}/{}", worker.index + 1, worker.count);
    eprintln!("{me} of the {} training in {dir}", G::NAME);
    let mut meter: Option<Meter> = None;
    let summary = work(start, settings, session, worker, out, |event| match event {
        WorkerEvent::Playing { generation, games } => {
            meter = Some(generation_bar(
                games,
                "games",
                format!("generation {generation} self-play"),
            ));
        }
        WorkerEvent::Game => {
            if let Some(bar) = &meter {
                bar.inc(1);
            }
        }
        WorkerEvent::Written {
            generation,
            samples,
        } => {
            if let Some(bar) = meter.take() {
                bar.finish_and_clear();
            }
            eprintln!("{me}: generation {generation}: {samples} samples written");
        }
        WorkerEvent::Waiting { generation } => {
            eprintln!("{me}: generation {generation} is played; waiting for its checkpoint");
        }
    })?;
    print_report(json, &summary, |summary: &WorkerSummary| {
        format!(
            "{dir}: {me} played its part of {} generations; the run is at generation {}\n",
            summary.generations.len(),
            summary.last
        )
    })
}
