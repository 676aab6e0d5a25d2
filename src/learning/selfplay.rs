//! Self-play: games played by a guided search against itself, every
//! decision kept as a training sample, written as NumPy `.npz` shards with
//! a JSON manifest (the format is in docs/learning.md).
//!
//! `batch` games are played at once, and every decision of all of them is
//! searched in one batched search, so an evaluator sees one call per round
//! for the whole batch. Game `i` draws from a seed of its own (its chance
//! events, and each of its searches), so its moves do not depend on the
//! batch or the threads; samples are written in the order of the games.

use super::npz::{Array, ArrayData, read_npz, write_npz};
use crate::core::{
    Encoding, Game, GameRng, Player, Status, derive_seed, normalised_payoffs, resolve_chance,
    rng_from_seed,
};
use crate::search::StopFlag;
use crate::search::guided::{GuidedSearch, LeafEvaluator, SearchRoot, ValueLayout};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The name of the manifest in a self-play directory.
pub const MANIFEST: &str = "manifest.json";

/// What the manifest's `format` says.
const FORMAT: &str = "norn-selfplay";

/// How many games, and how they are played and written.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// Games to play.
    pub games: u64,
    /// Games played at once, their decisions searched together.
    pub batch: usize,
    /// Samples per shard (the last shard holds what is left).
    pub shard_samples: usize,
    /// The master seed; game `i` draws from `derive_seed(seed, i)`.
    pub seed: u64,
    /// Once raised, self-play ends with an error before its next round of
    /// searches (a Ctrl-C, a training session's stop).
    pub stop: StopFlag,
}

/// One shard of a self-play directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardEntry {
    /// The file's name in the directory.
    pub file: String,
    /// The samples it holds.
    pub samples: u64,
}

/// What a self-play directory holds: the game, how the samples were made,
/// the shapes of their arrays and the shards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always `norn-selfplay`.
    pub format: String,
    /// The format's version, 1.
    pub version: u32,
    /// The game's name.
    pub game: String,
    /// Its rules, every option written out.
    pub rules: String,
    /// The players.
    pub players: usize,
    /// The shape of one observation.
    pub observation_shape: Vec<usize>,
    /// The game's action ids.
    pub num_actions: usize,
    /// How the outcome of each sample is laid out ([`ValueLayout::name`]).
    pub value_layout: String,
    /// Outcome values per sample.
    pub value_width: usize,
    /// The search's settings, as the `az` agent's spec writes them.
    pub search: String,
    /// The evaluator that guided it.
    pub evaluator: String,
    /// The master seed.
    pub seed: u64,
    /// The first game's number (its seed's): a part of a larger run
    /// starts past 0; absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_game: u64,
    /// Games played.
    pub games: u64,
    /// Samples in all the shards.
    pub samples: u64,
    /// The shards, in the order of the games.
    pub shards: Vec<ShardEntry>,
}

/// One decision of a game, with the game's outcome once it is known.
struct Sample {
    observation: Vec<f32>,
    mask: Vec<u8>,
    policy: Vec<f32>,
    player: Player,
    game: u64,
    ply: u64,
    outcome: Vec<f32>,
    search_value: f32,
}

/// A game under way.
struct Playing<G: Game> {
    id: u64,
    seed: u64,
    state: G,
    pending: Vec<u32>,
    rng: GameRng,
    decisions: u64,
    samples: Vec<Sample>,
}

/// The samples of the games finished, waiting to be written in order.
struct Writer<'a> {
    dir: &'a Path,
    shard_samples: usize,
    observation_shape: Vec<usize>,
    num_actions: usize,
    value_width: usize,
    finished: BTreeMap<u64, Vec<Sample>>,
    next_game: u64,
    buffer: Vec<Sample>,
    shards: Vec<ShardEntry>,
}

impl Writer<'_> {
    /// Takes a finished game's samples and writes every full shard that
    /// the games finished in order make.
    fn finish(&mut self, game: u64, samples: Vec<Sample>) -> Result<(), String> {
        self.finished.insert(game, samples);
        while let Some(samples) = self.finished.remove(&self.next_game) {
            self.buffer.extend(samples);
            self.next_game += 1;
            while self.buffer.len() >= self.shard_samples {
                let rest = self.buffer.split_off(self.shard_samples);
                let full = std::mem::replace(&mut self.buffer, rest);
                self.write(full)?;
            }
        }
        Ok(())
    }

    /// Writes `samples` as the next shard.
    fn write(&mut self, samples: Vec<Sample>) -> Result<(), String> {
        let count = samples.len();
        let mut shape = vec![count];
        shape.extend(&self.observation_shape);
        let arrays = [
            (
                "observation",
                Array::new(
                    shape,
                    ArrayData::F32(samples.iter().flat_map(|s| s.observation.clone()).collect()),
                ),
            ),
            (
                "mask",
                Array::new(
                    vec![count, self.num_actions],
                    ArrayData::Bool(samples.iter().flat_map(|s| s.mask.clone()).collect()),
                ),
            ),
            (
                "policy",
                Array::new(
                    vec![count, self.num_actions],
                    ArrayData::F32(samples.iter().flat_map(|s| s.policy.clone()).collect()),
                ),
            ),
            (
                "player",
                Array::new(
                    vec![count],
                    ArrayData::I64(samples.iter().map(|s| s.player as i64).collect()),
                ),
            ),
            (
                "outcome",
                Array::new(
                    vec![count, self.value_width],
                    ArrayData::F32(samples.iter().flat_map(|s| s.outcome.clone()).collect()),
                ),
            ),
            (
                "search_value",
                Array::new(
                    vec![count],
                    ArrayData::F32(samples.iter().map(|s| s.search_value).collect()),
                ),
            ),
            (
                "game",
                Array::new(
                    vec![count],
                    ArrayData::I64(samples.iter().map(|s| s.game as i64).collect()),
                ),
            ),
            (
                "ply",
                Array::new(
                    vec![count],
                    ArrayData::I64(samples.iter().map(|s| s.ply as i64).collect()),
                ),
            ),
        ];
        let file = format!("shard-{:05}.npz", self.shards.len());
        let named: Vec<(&str, &Array)> =
            arrays.iter().map(|(name, array)| (*name, array)).collect();
        write_npz(&self.dir.join(&file), &named)?;
        self.shards.push(ShardEntry {
            file,
            samples: count as u64,
        });
        Ok(())
    }
}

/// Plays `config.games` games from `start` with `search` guided by
/// `evaluator` (named `evaluator_name` in the manifest), writing their
/// samples into `dir` (created if missing) and its manifest last;
/// `on_game` is told of each game finished. Returns the manifest.
///
/// # Errors
/// A directory that holds a manifest already or cannot be written, a
/// start where no player decides, or what stops the search (an evaluator
/// that fails, a simultaneous choice).
pub fn self_play<G: Encoding, E: LeafEvaluator<G>>(
    start: &G,
    search: &GuidedSearch,
    evaluator: &mut E,
    evaluator_name: &str,
    config: &SelfPlayConfig,
    dir: &Path,
    on_game: impl FnMut(u64),
) -> Result<Manifest, String> {
    self_play_from(
        start,
        (search, evaluator),
        evaluator_name,
        config,
        0,
        dir,
        on_game,
    )
}

/// [`self_play`] of the games numbered from `first_game` on (their seeds
/// and their `game` numbers): the games a run of `first_game +
/// config.games` games plays last, the same, sample for sample. A run's
/// games split into parts played apart, each part in a directory of its
/// own, give the run's samples in the order of the parts.
///
/// # Errors
/// As [`self_play`].
pub fn self_play_from<G: Encoding, E: LeafEvaluator<G>>(
    start: &G,
    (search, evaluator): (&GuidedSearch, &mut E),
    evaluator_name: &str,
    config: &SelfPlayConfig,
    first_game: u64,
    dir: &Path,
    mut on_game: impl FnMut(u64),
) -> Result<Manifest, String> {
    let last_game = first_game
        .checked_add(config.games)
        .ok_or("self-play's game numbers overflow")?;
    if config.batch == 0 || config.shard_samples == 0 {
        return Err("self-play needs a batch and shards of at least one".into());
    }
    if dir.join(MANIFEST).exists() {
        return Err(format!(
            "{} holds self-play data already: choose another directory",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    let rules = start.rules();
    let players = start.num_players();
    let layout = ValueLayout::of_game::<G>(players);
    let observation_shape = G::observation_shape(rules);
    let observation_size: usize = observation_shape.iter().product();
    let num_actions = G::num_actions(rules);
    let mut writer = Writer {
        dir,
        shard_samples: config.shard_samples,
        observation_shape: observation_shape.clone(),
        num_actions,
        value_width: layout.width(),
        finished: BTreeMap::new(),
        next_game: first_game,
        buffer: Vec::new(),
        shards: Vec::new(),
    };
    let mut started = first_game;
    let mut playing: Vec<Playing<G>> = Vec::new();
    let mut total = 0u64;
    loop {
        while playing.len() < config.batch && started < last_game {
            let seed = derive_seed(config.seed, started);
            playing.push(Playing {
                id: started,
                seed,
                state: start.clone(),
                pending: Vec::new(),
                // Chance draws from a stream apart from the searches'.
                rng: rng_from_seed(derive_seed(seed, u64::MAX)),
                decisions: 0,
                samples: Vec::new(),
            });
            started += 1;
        }
        // Chance events resolved and finished games written, until every
        // game left waits for a decision.
        let mut index = 0;
        while index < playing.len() {
            let game = &mut playing[index];
            match game.state.status() {
                Status::Chance => {
                    if !resolve_chance(&mut game.state, &mut game.rng) {
                        return Err(format!("{} cannot draw its chance events", G::NAME));
                    }
                }
                Status::Simultaneous => {
                    return Err(format!(
                        "self-play searches one player's decisions, and {} has simultaneous moves",
                        G::NAME
                    ));
                }
                Status::Over(outcome) => {
                    let game = playing.swap_remove(index);
                    let values: Vec<f64> =
                        normalised_payoffs(&game.state, outcome.payoffs.as_slice())
                            .iter()
                            .map(|value| 2.0 * value - 1.0)
                            .collect();
                    let mut samples = game.samples;
                    for sample in &mut samples {
                        sample.outcome = vec![0.0; layout.width()];
                        layout.gather(&values, sample.player, &mut sample.outcome);
                    }
                    total += samples.len() as u64;
                    writer.finish(game.id, samples)?;
                    on_game(game.id);
                }
                Status::ToMove(_) => index += 1,
            }
        }
        if playing.is_empty() && started >= last_game {
            break;
        }
        if playing.is_empty() {
            continue;
        }
        if config.stop.raised() {
            return Err("self-play was stopped before its end".into());
        }
        // Searched in the order of the games, whatever order they finish
        // in, so that the evaluator's batches are the same every run.
        playing.sort_by_key(|game| game.id);
        let roots: Vec<SearchRoot<'_, G>> = playing
            .iter()
            .map(|game| SearchRoot {
                state: &game.state,
                pending: &game.pending,
                seed: derive_seed(game.seed, game.decisions),
            })
            .collect();
        let outcomes = search
            .search(&roots, evaluator)
            .map_err(|error| error.to_string())?;
        for (game, outcome) in playing.iter_mut().zip(outcomes) {
            let mut observation = vec![0.0; observation_size];
            game.state
                .write_observation(outcome.player, &game.pending, &mut observation);
            let mut mask = vec![0u8; num_actions];
            for action in &outcome.actions {
                mask[action.id as usize] = 1;
            }
            let mut policy = vec![0.0; num_actions];
            outcome.write_policy(&mut policy);
            game.samples.push(Sample {
                observation,
                mask,
                policy,
                player: outcome.player,
                game: game.id,
                ply: game.decisions,
                outcome: Vec::new(),
                search_value: outcome.policy_value() as f32,
            });
            game.decisions += 1;
            match outcome.completed {
                Some(mv) => {
                    game.state.play(mv);
                    game.pending.clear();
                }
                None => game.pending.push(outcome.chosen),
            }
        }
    }
    let rest = std::mem::take(&mut writer.buffer);
    if !rest.is_empty() {
        writer.write(rest)?;
    }
    let manifest = Manifest {
        format: FORMAT.to_string(),
        version: 1,
        game: G::NAME.to_string(),
        rules: rules.to_string(),
        players,
        observation_shape,
        num_actions,
        value_layout: layout.name().to_string(),
        value_width: layout.width(),
        search: search.config().to_string(),
        evaluator: evaluator_name.to_string(),
        seed: config.seed,
        first_game,
        games: config.games,
        samples: total,
        shards: writer.shards,
    };
    let text = serde_json::to_string_pretty(&manifest).map_err(|error| error.to_string())?;
    let temporary = dir.join(format!("{MANIFEST}.partial"));
    std::fs::write(&temporary, text + "\n")
        .and_then(|()| std::fs::rename(&temporary, dir.join(MANIFEST)))
        .map_err(|error| format!("cannot write the manifest in {}: {error}", dir.display()))?;
    Ok(manifest)
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// The samples of one shard, as arrays with the manifest's shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardSamples {
    /// `[samples, *observation_shape]`, flattened.
    pub observation: Vec<f32>,
    /// `[samples, num_actions]`, 1 for a legal id.
    pub mask: Vec<u8>,
    /// `[samples, num_actions]`: the search policy.
    pub policy: Vec<f32>,
    /// `[samples]`: the player who decided.
    pub player: Vec<i64>,
    /// `[samples, value_width]`: the game's outcome in the value layout.
    pub outcome: Vec<f32>,
    /// `[samples]`: the search's value of the position for the player who
    /// decided ([`crate::search::guided::SearchOutcome::policy_value`]); `None` in the shards of
    /// earlier versions of norn, which did not write it.
    pub search_value: Option<Vec<f32>>,
    /// `[samples]`: the game's index in the run.
    pub game: Vec<i64>,
    /// `[samples]`: the decision's index in its game.
    pub ply: Vec<i64>,
}

/// Reads a self-play directory's manifest.
///
/// # Errors
/// A manifest that cannot be read or is not one of self-play data.
pub fn read_manifest(dir: &Path) -> Result<Manifest, String> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let manifest: Manifest = serde_json::from_str(&text)
        .map_err(|error| format!("{} is not a self-play manifest: {error}", path.display()))?;
    if manifest.format != FORMAT || manifest.version != 1 {
        return Err(format!(
            "{} is not a self-play manifest of version 1",
            path.display()
        ));
    }
    Ok(manifest)
}

/// Reads one shard of the self-play directory `dir` (an entry of its
/// manifest), checking every array's shape against the manifest.
///
/// # Errors
/// A shard that cannot be read, an array missing or of another type or
/// shape, a shard name that leaves the directory.
pub fn read_shard(
    dir: &Path,
    manifest: &Manifest,
    shard: &ShardEntry,
) -> Result<ShardSamples, String> {
    let name = Path::new(&shard.file);
    if name.components().count() != 1 || name.file_name().is_none() {
        return Err(format!(
            "the shard name `{}` is not a file name",
            shard.file
        ));
    }
    let path: PathBuf = dir.join(name);
    let mut arrays: BTreeMap<String, Array> = read_npz(&path)?.into_iter().collect();
    let samples = shard.samples as usize;
    // Read only if present, so that the shards of earlier versions load.
    let has_search_value = arrays.contains_key("search_value");
    let mut take = |name: &str, shape: Vec<usize>| -> Result<ArrayData, String> {
        let array = arrays
            .remove(name)
            .ok_or_else(|| format!("{}: no array `{name}`", path.display()))?;
        if array.shape != shape {
            return Err(format!(
                "{}: `{name}` has the shape {:?}, not {shape:?}",
                path.display(),
                array.shape
            ));
        }
        Ok(array.data)
    };
    let mut observation_shape = vec![samples];
    observation_shape.extend(&manifest.observation_shape);
    let wrong = |name: &str| format!("{}: `{name}` has another element type", path.display());
    let ArrayData::F32(observation) = take("observation", observation_shape)? else {
        return Err(wrong("observation"));
    };
    let ArrayData::Bool(mask) = take("mask", vec![samples, manifest.num_actions])? else {
        return Err(wrong("mask"));
    };
    let ArrayData::F32(policy) = take("policy", vec![samples, manifest.num_actions])? else {
        return Err(wrong("policy"));
    };
    let ArrayData::I64(player) = take("player", vec![samples])? else {
        return Err(wrong("player"));
    };
    let ArrayData::F32(outcome) = take("outcome", vec![samples, manifest.value_width])? else {
        return Err(wrong("outcome"));
    };
    let search_value = if has_search_value {
        let ArrayData::F32(values) = take("search_value", vec![samples])? else {
            return Err(wrong("search_value"));
        };
        Some(values)
    } else {
        None
    };
    // Values outside [-1, 1] (NaN among them) would poison every training
    // step that draws them: refused here, wherever the shard came from.
    let in_range = |name: &str, values: &[f32]| match values
        .iter()
        .find(|value| !(-1.0..=1.0).contains(*value))
    {
        Some(value) => Err(format!(
            "{}: `{name}` holds {value}, outside [-1, 1]",
            path.display()
        )),
        None => Ok(()),
    };
    in_range("outcome", &outcome)?;
    in_range("search_value", search_value.as_deref().unwrap_or_default())?;
    let ArrayData::I64(game) = take("game", vec![samples])? else {
        return Err(wrong("game"));
    };
    let ArrayData::I64(ply) = take("ply", vec![samples])? else {
        return Err(wrong("ply"));
    };
    Ok(ShardSamples {
        observation,
        mask,
        policy,
        player,
        outcome,
        search_value,
        game,
        ply,
    })
}
