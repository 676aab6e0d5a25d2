//! Self-play in worker processes: a run's games played by processes of
//! their own (on other machines of a cluster, sharing the run directory),
//! the trainer only training on what they write.
//!
//! Worker `i` of `n` plays a fixed part of every generation's games, the
//! games `games * i / n` up to `games * (i + 1) / n`, each seeded as the
//! trainer playing them itself would seed it (from the run's seed, the
//! generation and the game's number), with the run's newest checkpoint.
//! The trainer waits for every part of a generation before it trains, and
//! takes the parts in the order of the workers: the samples, and so the
//! checkpoints, are those of the same run without workers, whatever the
//! number of workers and whenever they finish (on processors with the
//! trainer's vector instructions, which the network's products depend on).
//!
//! A worker never holds the run's lock (`run.lock` is the trainer's) and
//! writes into the directory of the next generation's samples only:
//! its games in a directory of its own (named for its process), whose
//! shards are then renamed into the generation's directory under names of
//! the worker's (`worker-I-of-N-shard-K.npz`), and its part's manifest
//! (`worker-I-of-N.json`) last. A part is there when its manifest is: a
//! worker killed at any moment leaves no part, only files the trainer
//! removes; two workers given the same part write the same files.

use super::store::{
    CHECKPOINTS, NETWORK_FILE, generation_name, newest_checkpoint, read_record, remove_dir,
    write_atomically,
};
use super::{
    SELF_PLAY_BATCH, SHARD_SAMPLES, TrainEvent, TrainRun, TrainSession, TrainSettings, finished,
    generation_seed, run_record,
};
use crate::arena::{Build, CONFIG_FILE, Shard};
use crate::core::{Encoding, Evaluate};
use crate::learning::guided::refuse_unsearchable;
use crate::learning::selfplay::{MANIFEST, Manifest, SelfPlayConfig, self_play_from};
use crate::net::{GameShape, NetDescription, Network};
use crate::search::guided::{EvaluationBlend, GuidedConfig, GuidedSearch, Tensors};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a side waiting for the other looks at the directory again.
const POLL: Duration = Duration::from_millis(100);
/// The longest wait a run may set: a day.
pub const MAX_WAIT_SECONDS: f64 = 86_400.0;

/// Where a run's self-play comes from when workers play it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Workers {
    /// The worker processes that share each generation's games.
    pub count: usize,
    /// The longest a side waits for the other: the trainer for a
    /// generation's parts, a worker for the run to start or for a new
    /// checkpoint.
    pub wait: Duration,
}

impl Workers {
    /// Refuses a count of workers that leaves one without games, and a
    /// wait that is not a positive time.
    ///
    /// # Errors
    /// As said.
    pub fn check(&self, games_per_generation: u64) -> Result<(), String> {
        if self.count == 0 || self.count as u64 > games_per_generation {
            return Err(format!(
                "the workers must be from 1 to the {games_per_generation} games per generation, \
                 not {}",
                self.count
            ));
        }
        let seconds = self.wait.as_secs_f64();
        if !(seconds > 0.0 && seconds <= MAX_WAIT_SECONDS) {
            return Err(format!(
                "the wait for workers must be from 0 to {MAX_WAIT_SECONDS} seconds, \
                 not {seconds}"
            ));
        }
        Ok(())
    }

    /// The games of a generation of `games` that `worker` plays: their
    /// first number and their count.
    fn part(&self, worker: usize, games: u64) -> (u64, u64) {
        let bound =
            |worker: usize| (u128::from(games) * worker as u128 / self.count as u128) as u64;
        let first = bound(worker);
        (first, bound(worker + 1) - first)
    }

    /// `worker-2-of-4`: the name of worker `worker`'s files (counted
    /// from 1, as on the command line).
    fn name(&self, worker: usize) -> String {
        format!("worker-{}-of-{}", worker + 1, self.count)
    }
}

/// What a worker reports as it goes.
#[derive(Clone, Debug)]
pub enum WorkerEvent {
    /// The worker plays its part of generation `generation`: `games`
    /// games with checkpoint `generation - 1`.
    Playing {
        /// The generation.
        generation: u64,
        /// The part's games.
        games: u64,
    },
    /// A game of the part ended.
    Game,
    /// The part was written.
    Written {
        /// The generation.
        generation: u64,
        /// Its samples.
        samples: u64,
    },
    /// The part of generation `generation` is there already: the worker
    /// waits for the next checkpoint.
    Waiting {
        /// The generation.
        generation: u64,
    },
}

/// What a worker did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WorkerSummary {
    /// The generations whose part it wrote.
    pub generations: Vec<u64>,
    /// The run's last checkpoint when it stopped.
    pub last: u64,
}

/// The generation's directory of samples in the run `dir`.
fn samples_dir(dir: &Path, generation: u64) -> PathBuf {
    dir.join(super::store::SAMPLES)
        .join(generation_name(generation))
}

/// Waits until `ready` gives a value, looking again every [`POLL`]; none
/// after `wait`.
fn wait_for<T>(
    wait: Duration,
    mut ready: impl FnMut() -> Result<Option<T>, String>,
) -> Result<Option<T>, String> {
    let began = Instant::now();
    loop {
        if let Some(value) = ready()? {
            return Ok(Some(value));
        }
        if began.elapsed() >= wait {
            return Ok(None);
        }
        std::thread::sleep(POLL);
    }
}

/// Worker `worker` (from 0) of the run in `dir`: plays its part of each
/// generation with the newest checkpoint, until the run reaches the
/// session's limit. The run is the one `settings` make with `start`,
/// which the trainer started (waited for as long as
/// `session.workers.wait`).
///
/// # Errors
/// A session without workers or a worker beyond their count, settings
/// out of their ranges, a directory that holds another run (or another
/// build's, unless `session.force_resume`), a checkpoint that is not the
/// run's, a trainer that writes no checkpoint for as long as the wait,
/// and a file that cannot be written.
pub fn work<G: Encoding + Evaluate>(
    start: &G,
    settings: &TrainSettings,
    session: &TrainSession,
    worker: Shard,
    dir: &Path,
    mut on_event: impl FnMut(WorkerEvent),
) -> Result<WorkerSummary, String> {
    refuse_unsearchable::<G>("training")?;
    super::check_settings(settings, session)?;
    let workers = session
        .workers
        .ok_or("a worker needs the number of workers and the wait")?;
    if workers.count != worker.count {
        return Err(format!(
            "worker {}/{} of a run of {} workers",
            worker.index + 1,
            worker.count,
            workers.count
        ));
    }
    let shape = GameShape::of_state(start);
    let description =
        NetDescription::new(&shape, &settings.network).map_err(|error| error.to_string())?;
    let run = run_record(start, settings);
    check_run(dir, &run, workers.wait, session.force_resume)?;
    let search = GuidedSearch::new(GuidedConfig {
        threads: session.threads,
        ..settings.search.clone()
    })?;
    let name = workers.name(worker.index);
    let mut summary = WorkerSummary {
        generations: Vec::new(),
        last: 0,
    };
    let mut seen: Option<u64> = None;
    loop {
        let newest = wait_for(workers.wait, || {
            Ok(newest_checkpoint(dir)?.filter(|&newest| Some(newest) > seen))
        })?
        .ok_or_else(|| match seen {
            None => format!(
                "{}: no checkpoint after {} s: is the trainer running?",
                dir.display(),
                workers.wait.as_secs_f64()
            ),
            Some(seen) => format!(
                "{}: no checkpoint after {seen} in {} s: is the trainer running?",
                dir.display(),
                workers.wait.as_secs_f64()
            ),
        })?;
        seen = Some(newest);
        summary.last = newest;
        let record = read_record(dir, newest)?;
        if finished(session, &record) {
            return Ok(summary);
        }
        let generation = newest + 1;
        let generation_dir = samples_dir(dir, generation);
        if generation_dir.join(format!("{name}.json")).exists()
            || generation_dir.join(MANIFEST).exists()
        {
            on_event(WorkerEvent::Waiting { generation });
            continue;
        }
        let network = read_network(dir, newest, &record.sha256, &description, &shape)?;
        let (first, games) = workers.part(worker.index, settings.games_per_generation);
        on_event(WorkerEvent::Playing { generation, games });
        let config = SelfPlayConfig {
            games,
            batch: games.min(SELF_PLAY_BATCH) as usize,
            shard_samples: SHARD_SAMPLES,
            seed: generation_seed(settings, generation),
            stop: session.stop.clone(),
        };
        let partial = generation_dir.join(format!(".{name}-{}.partial", std::process::id()));
        remove_dir(&partial)?;
        let manifest = self_play_from(
            start,
            (
                &search,
                &mut EvaluationBlend::new(Tensors(&network), settings.search.eval_mix),
            ),
            &format!("checkpoint {newest}"),
            &config,
            first,
            &partial,
            |_| on_event(WorkerEvent::Game),
        )?;
        publish(&partial, &generation_dir, &name, manifest)?;
        on_event(WorkerEvent::Written {
            generation,
            samples: manifest_samples(&generation_dir, &name)?,
        });
        summary.generations.push(generation);
    }
}

/// Waits for the run's `config.json` and checks that it is `run`'s.
fn check_run(dir: &Path, run: &TrainRun, wait: Duration, force_resume: bool) -> Result<(), String> {
    let path = dir.join(CONFIG_FILE);
    let text = wait_for(wait, || match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(format!("cannot read {}: {error}", path.display())),
    })?
    .ok_or_else(|| {
        format!(
            "{} has no training run after {} s: is the trainer running?",
            dir.display(),
            wait.as_secs_f64()
        )
    })?;
    let stored: TrainRun = serde_json::from_str(&text).map_err(|error| {
        format!(
            "{}: not a training run's configuration: {error}",
            path.display()
        )
    })?;
    if let Some(field) = stored.difference(run) {
        return Err(format!(
            "{} holds a different training run (another {field}): a worker takes the \
             trainer's options",
            dir.display()
        ));
    }
    if !force_resume {
        Build::check_current(
            stored.provenance.build.as_ref(),
            &format!("the checkpoints in {}", dir.display()),
            "--force-resume plays on with this build knowingly",
        )?;
    }
    Ok(())
}

/// Checkpoint `generation`'s network, checked against its record's digest
/// and the run's architecture.
fn read_network(
    dir: &Path,
    generation: u64,
    sha256: &str,
    description: &NetDescription,
    shape: &GameShape,
) -> Result<Network, String> {
    let file = dir
        .join(CHECKPOINTS)
        .join(generation.to_string())
        .join(NETWORK_FILE);
    let bytes = crate::net::read_network_file(&file).map_err(|error| error.to_string())?;
    if crate::core::sha256_hex(&bytes) != sha256 {
        return Err(format!(
            "{} is not the file its checkpoint recorded (its SHA-256 digest differs)",
            file.display()
        ));
    }
    let network = Network::load(&file).map_err(|error| error.to_string())?;
    network
        .description()
        .check_game(shape)
        .map_err(|error| format!("{}: {error}", file.display()))?;
    if network.description() != description {
        return Err(format!(
            "{} is not a network of this run's architecture",
            file.display()
        ));
    }
    Ok(network)
}

/// Moves a part played into `partial` into the generation's directory:
/// its shards renamed to the worker's names, then its manifest, then
/// `partial` removed.
fn publish(
    partial: &Path,
    generation_dir: &Path,
    name: &str,
    mut manifest: Manifest,
) -> Result<(), String> {
    for shard in &mut manifest.shards {
        let renamed = format!("{name}-{}", shard.file);
        let to = generation_dir.join(&renamed);
        std::fs::rename(partial.join(&shard.file), &to)
            .map_err(|error| format!("cannot write {}: {error}", to.display()))?;
        shard.file = renamed;
    }
    let text = serde_json::to_string_pretty(&manifest).map_err(|error| error.to_string())?;
    let written = partial.join(format!("{name}.json"));
    let to = generation_dir.join(format!("{name}.json"));
    std::fs::write(&written, text + "\n")
        .and_then(|()| std::fs::rename(&written, &to))
        .map_err(|error| format!("cannot write {}: {error}", to.display()))?;
    remove_dir(partial)
}

/// The samples of the part `name` written in `generation_dir`.
fn manifest_samples(generation_dir: &Path, name: &str) -> Result<u64, String> {
    Ok(read_part(generation_dir, name)?.map_or(0, |manifest| manifest.samples))
}

/// The manifest of the part `name` in `generation_dir`, if written.
fn read_part(generation_dir: &Path, name: &str) -> Result<Option<Manifest>, String> {
    let path = generation_dir.join(format!("{name}.json"));
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|error| format!("{} is not a self-play manifest: {error}", path.display())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(format!("cannot read {}: {error}", path.display())),
    }
}

/// The trainer's side: waits for every worker's part of generation
/// `generation` in `generation_dir`, each checked to be the part the
/// worker owes (played with the checkpoint before, seeded as the run
/// seeds it), then writes the generation's manifest: the parts' shards in
/// the order of the workers. Each game of a part arrived is reported.
///
/// # Errors
/// A part that is not what its worker owes, no part from some worker for
/// as long as the wait, the session's stop, and a file that cannot be
/// written.
pub(super) fn gather_generation(
    (workers, session): (&Workers, &TrainSession),
    settings: &TrainSettings,
    generation: u64,
    generation_dir: &Path,
    on_event: &mut impl FnMut(TrainEvent<'_>),
) -> Result<(), String> {
    std::fs::create_dir_all(generation_dir)
        .map_err(|error| format!("cannot create {}: {error}", generation_dir.display()))?;
    let games = settings.games_per_generation;
    let seed = generation_seed(settings, generation);
    let evaluator = format!("checkpoint {}", generation - 1);
    let mut parts: Vec<Option<Manifest>> = vec![None; workers.count];
    let mut done = 0;
    let gathered = wait_for(workers.wait, || {
        session.check_stop()?;
        for (worker, slot) in parts.iter_mut().enumerate() {
            if slot.is_some() {
                continue;
            }
            let name = workers.name(worker);
            let Some(manifest) = read_part(generation_dir, &name)? else {
                continue;
            };
            let (first, count) = workers.part(worker, games);
            if manifest.evaluator != evaluator
                || manifest.seed != seed
                || manifest.first_game != first
                || manifest.games != count
            {
                return Err(format!(
                    "{}: not the part of generation {generation} that worker {}/{} owes \
                         (games {first} to {} with {evaluator})",
                    generation_dir.join(format!("{name}.json")).display(),
                    worker + 1,
                    workers.count,
                    first + count - 1
                ));
            }
            for _ in 0..count {
                done += 1;
                on_event(TrainEvent::Game {
                    generation,
                    done,
                    games,
                });
            }
            *slot = Some(manifest);
        }
        Ok(parts.iter().all(Option::is_some).then_some(()))
    })?;
    if gathered.is_none() {
        let missing: Vec<String> = parts
            .iter()
            .enumerate()
            .filter(|(_, part)| part.is_none())
            .map(|(worker, _)| format!("{}/{}", worker + 1, workers.count))
            .collect();
        return Err(format!(
            "generation {generation}: no games from worker {} after {} s; start the \
                 workers (the same command with --worker I/N), then this command again",
            missing.join(", "),
            workers.wait.as_secs_f64()
        ));
    }
    let mut parts = parts.into_iter().flatten();
    let mut manifest = parts.next().expect("one worker at least");
    for part in parts {
        manifest.samples += part.samples;
        manifest.games += part.games;
        manifest.shards.extend(part.shards);
    }
    manifest.first_game = 0;
    let text = serde_json::to_string_pretty(&manifest).map_err(|error| error.to_string())?;
    write_atomically(&generation_dir.join(MANIFEST), (text + "\n").as_bytes())?;
    // What killed workers left: their unfinished games.
    let entries = std::fs::read_dir(generation_dir)
        .map_err(|error| format!("cannot read {}: {error}", generation_dir.display()))?;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let name = file_name.to_string_lossy();
        if name.starts_with(".worker-") && name.ends_with(".partial") {
            remove_dir(&entry.path())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workers_parts_cover_a_generations_games_once_in_order() {
        for (games, count) in [(1, 1), (7, 3), (64, 64), (10, 4), (u64::MAX / 2, 7)] {
            let workers = Workers {
                count,
                wait: Duration::from_secs(1),
            };
            let mut next = 0;
            for worker in 0..count {
                let (first, part) = workers.part(worker, games);
                assert_eq!(first, next, "{games} games, worker {worker} of {count}");
                assert!(part >= games / count as u64 && part <= games.div_ceil(count as u64));
                next = first + part;
            }
            assert_eq!(next, games);
        }
    }
}
