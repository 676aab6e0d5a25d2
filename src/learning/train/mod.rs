//! Training by self-play, AlphaZero's loop: generation after generation,
//! the current network guides a batched search that plays games against
//! itself ([`crate::learning::selfplay`]), the decisions join a replay
//! buffer of the newest samples, and the network takes AdamW steps on
//! batches drawn from it (the policy's cross-entropy against the search
//! policy, the value's squared error against the game's outcome:
//! [`crate::net::Trainer`]); then a checkpoint.
//!
//! A run lives in a directory ([`store`]): killed at any moment, the same
//! call resumes from the last checkpoint and the samples on disk, and
//! reaches the checkpoints an uninterrupted run reaches, bit for bit. Every
//! draw comes from the run's seed: the network's initial weights, each
//! generation's games (their seeds derived from the seed and the
//! generation) and its batches; the thread count changes none of them.
//!
//! Where a game declares its symmetries ([`Encoding::symmetries`]: the
//! rotations and reflections of a tafl board, the relabellings of Fenrir's
//! Path's colours), every sample of a batch is seen
//! through one of them or as played, drawn from the seed.

mod buffer;
pub mod evaluate;
pub mod options;
pub mod plots;
pub mod report;
pub mod store;
pub mod view;
pub mod winrates;
pub mod workers;

use crate::arena::{Provenance, RunKind};
use crate::core::{
    Encoding, Evaluate, Symmetry, check_memory, check_threads, derive_seed, rng_from_seed,
    write_options,
};
use crate::learning::guided::refuse_unsearchable;
use crate::learning::selfplay::{SelfPlayConfig, read_manifest, self_play};
use crate::net::{GameShape, Losses, NetDescription, NetOptions, Network, TrainConfig, Trainer};
use crate::search::StopFlag;
use crate::search::guided::{EvaluationBlend, GuidedConfig, GuidedSearch, Tensors, ValueLayout};
use buffer::{Batch, ReplayBuffer, SampleShape, check_search_values, read_generation};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;
use store::{CheckpointRecord, MeanLosses, TrainDirectory};

pub use store::CheckpointRecord as Checkpoint;

/// The most samples a replay buffer may hold.
pub const MAX_BUFFER_SAMPLES: usize = 100_000_000;
/// The most samples of a training batch.
pub const MAX_BATCH_SIZE: usize = 1 << 16;
/// The most self-play games of a generation.
pub const MAX_GAMES_PER_GENERATION: u64 = 10_000_000;
/// The most training steps of a generation.
pub const MAX_STEPS_PER_GENERATION: u64 = 100_000_000;
/// The most games self-play plays at once, their decisions searched
/// together.
const SELF_PLAY_BATCH: u64 = 256;
/// Samples per self-play shard.
const SHARD_SAMPLES: usize = 100_000;

/// The streams of a generation's draws, each derived from the run's seed
/// and the generation.
const SELF_PLAY_STREAM: u64 = 0;
const TRAINING_STREAM: u64 = 1;
const AUGMENT_STREAM: u64 = 2;
const INIT_STREAM: u64 = 2;

/// What a training run is: two runs of equal settings make the same
/// checkpoints.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSettings {
    /// Self-play games per generation.
    pub games_per_generation: u64,
    /// The self-play search (its `threads` are the session's, not the
    /// run's).
    pub search: GuidedConfig,
    /// The network's size.
    pub network: NetOptions,
    /// The optimizer and the loss's weights.
    pub training: TrainConfig,
    /// Samples per training step.
    pub batch_size: usize,
    /// The replay buffer: the newest samples trained on.
    pub buffer_samples: usize,
    /// Training steps per generation; `None`: as many as draw each new
    /// sample twice on average (`ceil(2 * samples / batch_size)`).
    pub steps_per_generation: Option<u64>,
    /// The run's seed.
    pub seed: u64,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            games_per_generation: 64,
            search: GuidedConfig::default(),
            network: NetOptions::default(),
            training: TrainConfig::default(),
            batch_size: 256,
            buffer_samples: 100_000,
            steps_per_generation: None,
            seed: 0,
        }
    }
}

/// How long this session trains, and on how many threads.
#[derive(Clone, Debug)]
pub struct TrainSession {
    /// Train until this many generations are done (counted from the run's
    /// start, over every session).
    pub generations: Option<u64>,
    /// Train until this many minutes of work are done, over every session
    /// (a generation started is finished).
    pub minutes: Option<f64>,
    /// Threads for self-play and training; the results do not depend on
    /// them.
    pub threads: usize,
    /// Resume a run that another build of norn started.
    pub force_resume: bool,
    /// Self-play from worker processes ([`workers::work`]) instead of
    /// this one.
    pub workers: Option<workers::Workers>,
    /// Raised to stop the session: it ends with an error before the next
    /// training step and the next round of self-play's searches, its
    /// checkpoints (and a generation's complete self-play) kept.
    pub stop: StopFlag,
}

/// The error of a session stopped by its flag.
const STOPPED: &str = "training stopped; the same call resumes it";

impl TrainSession {
    /// An error once the session's stop flag is raised.
    fn check_stop(&self) -> Result<(), String> {
        if self.stop.raised() {
            Err(STOPPED.to_string())
        } else {
            Ok(())
        }
    }
}

/// A training run as its `config.json` records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainRun {
    /// Always [`RunKind::Train`].
    pub run: RunKind,
    /// The game's registry name.
    pub game: String,
    /// The rules, every option written out.
    pub rules: String,
    /// The run's seed.
    pub seed: u64,
    /// Self-play games per generation.
    pub games_per_generation: u64,
    /// The self-play search's options (`az` options, one thread).
    pub search: String,
    /// The network's options.
    pub network: String,
    /// The training options.
    pub training: String,
    /// Samples per training step.
    pub batch_size: usize,
    /// Samples in the replay buffer.
    pub buffer_samples: usize,
    /// Training steps per generation (absent: twice the new samples over
    /// the batch size).
    pub steps_per_generation: Option<u64>,
    /// The build that started the run, and the rules in force.
    #[serde(flatten)]
    pub provenance: Provenance,
}

impl TrainRun {
    /// The first setting in which `other` is another run, if any.
    fn difference(&self, other: &TrainRun) -> Option<&'static str> {
        [
            (self.game != other.game, "game"),
            (self.rules != other.rules, "rules"),
            (self.seed != other.seed, "seed"),
            (
                self.games_per_generation != other.games_per_generation,
                "number of games per generation",
            ),
            (self.search != other.search, "search"),
            (self.network != other.network, "network"),
            (self.training != other.training, "training options"),
            (self.batch_size != other.batch_size, "batch size"),
            (self.buffer_samples != other.buffer_samples, "buffer size"),
            (
                self.steps_per_generation != other.steps_per_generation,
                "number of steps per generation",
            ),
        ]
        .into_iter()
        .find(|(differs, _)| *differs)
        .map(|(_, field)| field)
    }
}

/// What a session reports as it goes.
#[derive(Clone, Debug)]
pub enum TrainEvent<'a> {
    /// The run starts at this checkpoint (0 for a new run).
    Start {
        /// The last checkpoint's generation.
        generation: u64,
        /// Whether it was there before this session.
        resumed: bool,
    },
    /// A self-play game of generation `generation` ended.
    Game {
        /// The generation under way.
        generation: u64,
        /// Its games ended so far.
        done: u64,
        /// Its games.
        games: u64,
    },
    /// A training step was taken.
    Step {
        /// The generation under way.
        generation: u64,
        /// Its steps taken so far.
        done: u64,
        /// Its steps.
        steps: u64,
        /// The step's batch's losses, before the step.
        losses: &'a Losses,
    },
    /// A generation's checkpoint was written.
    Checkpoint(&'a CheckpointRecord),
}

/// What a session did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSummary {
    /// The last checkpoint's record.
    pub last: CheckpointRecord,
    /// The generations this session trained.
    pub trained: u64,
}

/// Trains a network for the game of `start` (its rules, starting there)
/// in the run directory `dir` as `settings` say, for as long as `session`
/// says: starts the run, or resumes it from its last checkpoint.
/// `after_checkpoint` runs with the directory held, on the last
/// checkpoint's generation when the session starts and on each new one
/// (an evaluation: [`evaluate::evaluate_generations`]); an error stops the
/// run, its checkpoints kept.
///
/// # Errors
/// Settings out of their ranges, a game the guided search cannot play
/// (hidden information, simultaneous moves), a directory that holds
/// another run or files that do not read (a checkpoint of another game, a
/// corrupted shard), and a file that cannot be written.
pub fn train<G: Encoding + Evaluate>(
    start: &G,
    settings: &TrainSettings,
    session: &TrainSession,
    dir: &Path,
    mut on_event: impl FnMut(TrainEvent<'_>),
    after_checkpoint: &mut dyn FnMut(u64) -> Result<(), String>,
) -> Result<TrainSummary, String> {
    refuse_unsearchable::<G>("training")?;
    check_settings(settings, session)?;
    let shape = GameShape::of_state(start);
    let description =
        NetDescription::new(&shape, &settings.network).map_err(|error| error.to_string())?;
    let players = start.num_players();
    let layout = ValueLayout::of_game::<G>(players);
    if description.value_layout != layout {
        return Err(format!(
            "{} gives its self-play outcomes as {layout}, and its network's values are {}: \
             training cannot pair them yet",
            G::NAME,
            description.value_layout
        ));
    }
    check_search_values(layout.width(), settings.training.search_value)
        .map_err(|error| format!("{}: {error}", G::NAME))?;
    let sample_shape = SampleShape {
        input_len: description.input_len(),
        num_actions: description.num_actions,
        value_width: layout.width(),
    };
    let symmetries = G::symmetries(start.rules());
    if symmetries.iter().any(|symmetry| {
        !is_permutation(&symmetry.observation, sample_shape.input_len)
            || !is_permutation(&symmetry.actions, sample_shape.num_actions)
    }) {
        return Err(format!(
            "{} declares a symmetry that does not permute its {} observation values and {} actions",
            G::NAME,
            sample_shape.input_len,
            sample_shape.num_actions
        ));
    }
    let sample_bytes = (sample_shape.input_len * 4
        + sample_shape.num_actions * 5
        + sample_shape.value_width * 4
        + 24) as u64;
    check_memory(
        &format!("a replay buffer of {} samples", settings.buffer_samples),
        sample_bytes.saturating_mul(settings.buffer_samples as u64),
    )?;
    let run = run_record(start, settings);
    let (mut directory, latest) = TrainDirectory::open(dir, &run, session.force_resume)?;
    let (mut record, mut trainer) =
        last_checkpoint(&directory, latest, &description, &shape, settings)?;
    trainer
        .set_threads(session.threads)
        .map_err(|error| error.to_string())?;
    on_event(TrainEvent::Start {
        generation: record.generation,
        resumed: latest.is_some(),
    });
    after_checkpoint(record.generation)?;
    let mut records = (0..record.generation)
        .map(|generation| directory.read_record(generation))
        .collect::<Result<Vec<_>, String>>()?;
    records.push(record.clone());
    report::write_report(dir, &run, &records)?;

    let mut buffer = reload_buffer(
        &directory,
        &run,
        &sample_shape,
        record.generation,
        settings.training.search_value,
    )?;
    let search = GuidedSearch::new(GuidedConfig {
        threads: session.threads,
        ..settings.search.clone()
    })?;
    let mut trained = 0;
    while !finished(session, &record) {
        let began = Instant::now();
        let generation = record.generation + 1;
        let samples_dir = directory.samples(generation);
        session.check_stop()?;
        if read_manifest(&samples_dir).is_err() {
            match &session.workers {
                Some(workers) => workers::gather_generation(
                    (workers, session),
                    settings,
                    generation,
                    &samples_dir,
                    &mut on_event,
                )?,
                None => play_generation(
                    start,
                    (&search, trainer.network()),
                    (settings, session),
                    generation,
                    &samples_dir,
                    &mut on_event,
                )?,
            }
        }
        let (manifest, samples) = read_generation(
            &samples_dir,
            &run.game,
            &run.rules,
            &sample_shape,
            settings.training.search_value,
        )?;
        buffer.push(generation, samples);
        if buffer.len() == 0 {
            return Err(format!(
                "generation {generation}'s self-play made no samples: {} ends before any decision",
                G::NAME
            ));
        }
        let steps = settings.steps_per_generation.unwrap_or_else(|| {
            (2 * manifest.samples)
                .div_ceil(settings.batch_size as u64)
                .max(1)
        });
        let mean = train_generation(
            &mut trainer,
            (&buffer, &symmetries),
            &mut directory,
            (settings, session),
            (generation, steps),
            &mut on_event,
        )?;
        record = directory.save_checkpoint(
            &trainer,
            CheckpointRecord {
                generation,
                steps: trainer.steps(),
                games: record.games + manifest.games,
                samples: record.samples + manifest.samples,
                buffer: buffer.len() as u64,
                losses: Some(mean),
                seconds: record.seconds + began.elapsed().as_secs_f64(),
                sha256: String::new(),
            },
        )?;
        if let Some(oldest) = buffer.oldest_generation() {
            directory.drop_samples_before(oldest)?;
        }
        trained += 1;
        on_event(TrainEvent::Checkpoint(&record));
        after_checkpoint(record.generation)?;
        records.push(record.clone());
        report::write_report(dir, &run, &records)?;
    }
    Ok(TrainSummary {
        last: record,
        trained,
    })
}

/// The run that `settings` make with `start`, as its `config.json`
/// records it.
fn run_record<G: Encoding>(start: &G, settings: &TrainSettings) -> TrainRun {
    TrainRun {
        run: RunKind::Train,
        game: G::NAME.to_string(),
        rules: start.rules().to_string(),
        seed: settings.seed,
        games_per_generation: settings.games_per_generation,
        search: write_options(&GuidedConfig {
            threads: 1,
            ..settings.search.clone()
        }),
        network: write_options(&settings.network),
        training: write_options(&settings.training),
        batch_size: settings.batch_size,
        buffer_samples: settings.buffer_samples,
        steps_per_generation: settings.steps_per_generation,
        provenance: Provenance::current(Vec::new(), start.rules().to_string()),
    }
}

/// The seed of generation `generation`'s self-play games.
fn generation_seed(settings: &TrainSettings, generation: u64) -> u64 {
    derive_seed(derive_seed(settings.seed, generation), SELF_PLAY_STREAM)
}

/// The run's last checkpoint, `latest`, checked to be a network of the
/// game and of the run's architecture and training options; or, for a
/// new run, checkpoint 0, written now.
fn last_checkpoint(
    directory: &TrainDirectory,
    latest: Option<u64>,
    description: &NetDescription,
    shape: &GameShape,
    settings: &TrainSettings,
) -> Result<(CheckpointRecord, Trainer), String> {
    let Some(generation) = latest else {
        let network = Network::init(
            description.clone(),
            derive_seed(derive_seed(settings.seed, 0), INIT_STREAM),
        )
        .map_err(|error| error.to_string())?;
        let trainer =
            Trainer::new(network, settings.training.clone()).map_err(|error| error.to_string())?;
        let record = CheckpointRecord {
            generation: 0,
            steps: 0,
            games: 0,
            samples: 0,
            buffer: 0,
            losses: None,
            seconds: 0.0,
            sha256: String::new(),
        };
        return Ok((directory.save_checkpoint(&trainer, record)?, trainer));
    };
    let (record, trainer) = directory.load_checkpoint(generation)?;
    let file = directory.checkpoint(generation).join(store::NETWORK_FILE);
    let network = trainer.network().description();
    network
        .check_game(shape)
        .map_err(|error| format!("{}: {error}", file.display()))?;
    if network != description || trainer.config() != &settings.training {
        return Err(format!(
            "{} is not a network of this run's architecture and training options",
            file.display()
        ));
    }
    Ok((record, trainer))
}

/// The replay buffer as it was after generation `last`: the newest
/// samples of the generations up to it, read back from their shards,
/// with their value targets made as [`read_generation`] makes them.
fn reload_buffer(
    directory: &TrainDirectory,
    run: &TrainRun,
    shape: &SampleShape,
    last: u64,
    search_value: f64,
) -> Result<ReplayBuffer, String> {
    let mut buffer = ReplayBuffer::new(run.buffer_samples, shape.clone());
    let mut newest_first = Vec::new();
    let mut held = 0usize;
    for generation in (1..=last).rev() {
        if held >= run.buffer_samples {
            break;
        }
        let (_, samples) = read_generation(
            &directory.samples(generation),
            &run.game,
            &run.rules,
            shape,
            search_value,
        )?;
        held += samples.player.len();
        newest_first.push((generation, samples));
    }
    for (generation, samples) in newest_first.into_iter().rev() {
        buffer.push(generation, samples);
    }
    Ok(buffer)
}

/// Plays generation `generation`'s self-play games with `network` into
/// `samples_dir` (removing what a session cut short left there).
fn play_generation<G: Encoding + Evaluate>(
    start: &G,
    (search, network): (&GuidedSearch, &Network),
    (settings, session): (&TrainSettings, &TrainSession),
    generation: u64,
    samples_dir: &Path,
    on_event: &mut impl FnMut(TrainEvent<'_>),
) -> Result<(), String> {
    match std::fs::remove_dir_all(samples_dir) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => return Err(format!("cannot remove {}: {error}", samples_dir.display())),
    }
    let games = settings.games_per_generation;
    let config = SelfPlayConfig {
        games,
        batch: games.min(SELF_PLAY_BATCH) as usize,
        shard_samples: SHARD_SAMPLES,
        seed: generation_seed(settings, generation),
        stop: session.stop.clone(),
    };
    let mut done = 0;
    self_play(
        start,
        search,
        &mut EvaluationBlend::new(Tensors(network), settings.search.eval_mix),
        &format!("checkpoint {}", generation - 1),
        &config,
        samples_dir,
        |_| {
            done += 1;
            on_event(TrainEvent::Game {
                generation,
                done,
                games,
            });
        },
    )
    .map_err(|error| {
        if session.stop.raised() {
            STOPPED.to_string()
        } else {
            error
        }
    })?;
    Ok(())
}

/// Whether `map` sends `0..len` onto itself, each value once.
fn is_permutation(map: &[u32], len: usize) -> bool {
    let mut seen = vec![false; len];
    map.len() == len
        && map
            .iter()
            .all(|&to| (to as usize) < len && !std::mem::replace(&mut seen[to as usize], true))
}

/// Takes generation `generation`'s `steps` on batches drawn from the
/// buffer, each logged; returns their mean losses. Where the game has
/// `symmetries`, each sample is seen through one drawn with the identity
/// (from a stream of its own, so the samples drawn are the same).
fn train_generation(
    trainer: &mut Trainer,
    (buffer, symmetries): (&ReplayBuffer, &[Symmetry]),
    directory: &mut TrainDirectory,
    (settings, session): (&TrainSettings, &TrainSession),
    (generation, steps): (u64, u64),
    on_event: &mut impl FnMut(TrainEvent<'_>),
) -> Result<MeanLosses, String> {
    let mut rng = rng_from_seed(derive_seed(
        derive_seed(settings.seed, generation),
        TRAINING_STREAM,
    ));
    let mut sums = MeanLosses {
        policy: 0.0,
        value: 0.0,
        total: 0.0,
    };
    let mut augment_rng = rng_from_seed(derive_seed(
        derive_seed(settings.seed, generation),
        AUGMENT_STREAM,
    ));
    let mut indices = vec![0; settings.batch_size];
    let mut views: Vec<Option<&Symmetry>> = vec![None; settings.batch_size];
    let mut batch = Batch::default();
    for done in 1..=steps {
        session.check_stop()?;
        for index in &mut indices {
            *index = rng.random_range(0..buffer.len());
        }
        buffer.fill(&indices, &mut batch);
        if !symmetries.is_empty() {
            for view in &mut views {
                // 0 is the identity.
                *view = augment_rng
                    .random_range(0..=symmetries.len())
                    .checked_sub(1)
                    .map(|chosen| &symmetries[chosen]);
            }
            buffer.transform(&views, &mut batch);
        }
        let losses = trainer
            .step(&crate::net::TrainingBatch {
                observations: &batch.observations,
                masks: &batch.masks,
                policies: &batch.policies,
                values: &batch.values,
            })
            .map_err(|error| format!("generation {generation}: {error}"))?;
        directory.log_step(generation, trainer.steps(), &losses)?;
        sums.policy += losses.policy;
        sums.value += losses.value;
        sums.total += losses.total;
        on_event(TrainEvent::Step {
            generation,
            done,
            steps,
            losses: &losses,
        });
    }
    Ok(MeanLosses {
        policy: sums.policy / steps as f64,
        value: sums.value / steps as f64,
        total: sums.total / steps as f64,
    })
}

/// Whether the session's limits are reached at checkpoint `record`.
fn finished(session: &TrainSession, record: &CheckpointRecord) -> bool {
    session
        .generations
        .is_some_and(|generations| record.generation >= generations)
        || session
            .minutes
            .is_some_and(|minutes| record.seconds >= minutes * 60.0)
}

/// Refuses settings out of their ranges, and a session without a limit.
fn check_settings(settings: &TrainSettings, session: &TrainSession) -> Result<(), String> {
    let within = |what: &str, value: u64, max: u64| {
        if (1..=max).contains(&value) {
            Ok(())
        } else {
            Err(format!("{what} must be from 1 to {max}, not {value}"))
        }
    };
    within(
        "the games per generation",
        settings.games_per_generation,
        MAX_GAMES_PER_GENERATION,
    )?;
    within(
        "the batch size",
        settings.batch_size as u64,
        MAX_BATCH_SIZE as u64,
    )?;
    within(
        "the buffer size",
        settings.buffer_samples as u64,
        MAX_BUFFER_SAMPLES as u64,
    )?;
    if let Some(steps) = settings.steps_per_generation {
        within("the steps per generation", steps, MAX_STEPS_PER_GENERATION)?;
    }
    crate::core::validate_options(&settings.search)?;
    crate::core::validate_options(&settings.network)?;
    crate::core::validate_options(&settings.training)?;
    check_threads("the thread count", session.threads)?;
    if let Some(workers) = &session.workers {
        workers.check(settings.games_per_generation)?;
    }
    if let Some(minutes) = session.minutes
        && !(minutes.is_finite() && minutes > 0.0)
    {
        return Err(format!(
            "the minutes must be a positive number, not {minutes}"
        ));
    }
    if let Some(generations) = session.generations
        && generations > store::MAX_GENERATION
    {
        return Err(format!(
            "the generations must be at most {}, not {generations}",
            store::MAX_GENERATION
        ));
    }
    if session.generations.is_none() && session.minutes.is_none() {
        return Err("say how long to train: a number of generations or of minutes".to_string());
    }
    Ok(())
}
