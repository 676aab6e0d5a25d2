//! The replay buffer: the newest samples of self-play, generation after
//! generation, from which training draws its batches.

use crate::core::Symmetry;
use crate::learning::selfplay::{Manifest, ShardSamples, read_manifest, read_shard};
use std::collections::VecDeque;
use std::path::Path;

/// What every sample of a run has the shape of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SampleShape {
    /// Values of one observation.
    pub input_len: usize,
    /// The game's action ids.
    pub num_actions: usize,
    /// Outcome values per sample.
    pub value_width: usize,
}

/// One generation's samples, the oldest `dropped` of them no longer in
/// the buffer.
struct Generation {
    number: u64,
    dropped: usize,
    samples: ShardSamples,
    count: usize,
}

/// The newest `capacity` samples, oldest generation first.
pub(super) struct ReplayBuffer {
    capacity: usize,
    shape: SampleShape,
    generations: VecDeque<Generation>,
    len: usize,
}

/// A batch drawn from the buffer, each field sample after sample, as a
/// [`crate::net::TrainingBatch`] takes them.
#[derive(Default)]
pub(super) struct Batch {
    pub observations: Vec<f32>,
    pub masks: Vec<u8>,
    pub policies: Vec<f32>,
    pub values: Vec<f32>,
}

impl ReplayBuffer {
    /// An empty buffer of at most `capacity` samples of `shape`.
    pub fn new(capacity: usize, shape: SampleShape) -> ReplayBuffer {
        ReplayBuffer {
            capacity,
            shape,
            generations: VecDeque::new(),
            len: 0,
        }
    }

    /// The samples held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The oldest generation with a sample in the buffer.
    pub fn oldest_generation(&self) -> Option<u64> {
        self.generations.front().map(|generation| generation.number)
    }

    /// Adds generation `number`'s samples (newer than any held), then
    /// drops the oldest samples beyond the capacity.
    pub fn push(&mut self, number: u64, samples: ShardSamples) {
        let count = samples.player.len();
        self.len += count;
        self.generations.push_back(Generation {
            number,
            dropped: 0,
            samples,
            count,
        });
        while self.len > self.capacity {
            let excess = self.len - self.capacity;
            let oldest = self.generations.front_mut().expect("samples are held");
            let held = oldest.count - oldest.dropped;
            if held <= excess {
                self.len -= held;
                self.generations.pop_front();
            } else {
                oldest.dropped += excess;
                self.len -= excess;
            }
        }
    }

    /// Fills `batch` with the samples at `indices` (each below
    /// [`len`](Self::len), oldest sample first).
    pub fn fill(&self, indices: &[usize], batch: &mut Batch) {
        let SampleShape {
            input_len,
            num_actions,
            value_width,
        } = self.shape;
        batch.observations.clear();
        batch.masks.clear();
        batch.policies.clear();
        batch.values.clear();
        for &index in indices {
            let (samples, at) = self.locate(index);
            batch
                .observations
                .extend_from_slice(&samples.observation[at * input_len..(at + 1) * input_len]);
            batch
                .masks
                .extend_from_slice(&samples.mask[at * num_actions..(at + 1) * num_actions]);
            batch
                .policies
                .extend_from_slice(&samples.policy[at * num_actions..(at + 1) * num_actions]);
            batch
                .values
                .extend_from_slice(&samples.outcome[at * value_width..(at + 1) * value_width]);
        }
    }

    /// Moves each sample of `batch` to its image under the symmetry of
    /// `views` in its place (`None` leaves it as it is): its observation's
    /// entries, and its mask's and policy's actions.
    pub fn transform(&self, views: &[Option<&Symmetry>], batch: &mut Batch) {
        let SampleShape {
            input_len,
            num_actions,
            ..
        } = self.shape;
        let mut observation = vec![0.0; input_len];
        let (mut mask, mut policy) = (vec![0; num_actions], vec![0.0; num_actions]);
        for (sample, symmetry) in views.iter().enumerate() {
            let Some(symmetry) = symmetry else { continue };
            let seen = &mut batch.observations[sample * input_len..(sample + 1) * input_len];
            for (value, &from) in observation.iter_mut().zip(&symmetry.observation) {
                *value = seen[from as usize];
            }
            seen.copy_from_slice(&observation);
            let actions = sample * num_actions..(sample + 1) * num_actions;
            for (action, &image) in symmetry.actions.iter().enumerate() {
                mask[image as usize] = batch.masks[actions.start + action];
                policy[image as usize] = batch.policies[actions.start + action];
            }
            batch.masks[actions.clone()].copy_from_slice(&mask);
            batch.policies[actions].copy_from_slice(&policy);
        }
    }

    /// The generation's samples and the place in them of the buffer's
    /// sample `index`.
    fn locate(&self, mut index: usize) -> (&ShardSamples, usize) {
        for generation in &self.generations {
            let held = generation.count - generation.dropped;
            if index < held {
                return (&generation.samples, generation.dropped + index);
            }
            index -= held;
        }
        panic!("sample {index} is beyond the buffer's {}", self.len)
    }
}

/// Every sample of the self-play directory `dir`, its shards one after
/// another, once its manifest is checked against the run's game and
/// shapes (`game` and `rules` as the run records them), with its value
/// targets made of `search_value` parts of the search's value to the rest
/// of the game's outcome ([`crate::net::TrainConfig::search_value`]).
///
/// # Errors
/// A manifest or shard that cannot be read, or of another game, rules or
/// shape; search values asked of shards without them, or of a game whose
/// targets hold a value for each player (the search values the position
/// for the player who decides only).
pub(super) fn read_generation(
    dir: &Path,
    game: &str,
    rules: &str,
    shape: &SampleShape,
    search_value: f64,
) -> Result<(Manifest, ShardSamples), String> {
    let manifest = read_manifest(dir)?;
    let found = SampleShape {
        input_len: manifest.observation_shape.iter().product(),
        num_actions: manifest.num_actions,
        value_width: manifest.value_width,
    };
    if manifest.game != game || manifest.rules != rules || &found != shape {
        return Err(format!(
            "{} holds samples of {} under the rules `{}` ({found:?}), not of this run's {game} \
             under `{rules}` ({shape:?})",
            dir.display(),
            manifest.game,
            manifest.rules,
        ));
    }
    let mut all = ShardSamples {
        observation: Vec::new(),
        mask: Vec::new(),
        policy: Vec::new(),
        player: Vec::new(),
        outcome: Vec::new(),
        search_value: Some(Vec::new()),
        game: Vec::new(),
        ply: Vec::new(),
    };
    for shard in &manifest.shards {
        let samples = read_shard(dir, &manifest, shard)?;
        all.observation.extend(samples.observation);
        all.mask.extend(samples.mask);
        all.policy.extend(samples.policy);
        all.player.extend(samples.player);
        all.outcome.extend(samples.outcome);
        all.search_value = all
            .search_value
            .zip(samples.search_value)
            .map(|(mut all, values)| {
                all.extend(values);
                all
            });
        all.game.extend(samples.game);
        all.ply.extend(samples.ply);
    }
    if all.player.len() as u64 != manifest.samples {
        return Err(format!(
            "{}: the shards hold {} samples, the manifest says {}",
            dir.display(),
            all.player.len(),
            manifest.samples
        ));
    }
    if search_value > 0.0 {
        mix_search_values(&mut all, search_value)
            .map_err(|error| format!("{}: {error}", dir.display()))?;
    }
    Ok((manifest, all))
}

/// Why value targets of a value for each player take no search values.
const PER_PLAYER_TARGETS: &str = "the search values the position for the player who decides, \
     and these value targets hold a value for each player: train on outcomes (search-value=0)";

/// Refuses search values (a `share` above 0) for value targets of
/// `width` values a sample: the search values a position for the player
/// who decides only, so only targets of one value (the mover's or the
/// team's) can take them.
///
/// # Errors
/// A share above 0 with a width other than 1.
pub(super) fn check_search_values(width: usize, share: f64) -> Result<(), String> {
    if share > 0.0 && width != 1 {
        return Err(PER_PLAYER_TARGETS.into());
    }
    Ok(())
}

/// Makes each sample's value target `share` parts of its search value to
/// `1 - share` of its outcome.
fn mix_search_values(samples: &mut ShardSamples, share: f64) -> Result<(), String> {
    let Some(values) = &samples.search_value else {
        return Err(
            "the shards hold no search values (earlier versions of norn did not \
             write them): train on outcomes (search-value=0)"
                .into(),
        );
    };
    if samples.outcome.len() != values.len() {
        return Err(PER_PLAYER_TARGETS.into());
    }
    let share = share as f32;
    for (target, &value) in samples.outcome.iter_mut().zip(values) {
        *target = (1.0 - share) * *target + share * value;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::BoardSymmetry;

    /// A generation of `count` samples of one value each, numbered from
    /// `first` in their observation.
    fn numbered(first: usize, count: usize) -> ShardSamples {
        ShardSamples {
            observation: (first..first + count).map(|n| n as f32).collect(),
            mask: vec![1; count],
            policy: vec![1.0; count],
            player: vec![0; count],
            outcome: vec![0.0; count],
            search_value: None,
            game: vec![0; count],
            ply: vec![0; count],
        }
    }

    fn held(buffer: &ReplayBuffer) -> Vec<f32> {
        let indices: Vec<usize> = (0..buffer.len()).collect();
        let mut batch = Batch::default();
        buffer.fill(&indices, &mut batch);
        batch.observations
    }

    #[test]
    fn the_buffer_holds_the_newest_samples_whatever_the_generations_sizes() {
        let shape = SampleShape {
            input_len: 1,
            num_actions: 1,
            value_width: 1,
        };
        let mut buffer = ReplayBuffer::new(5, shape);
        let mut all = Vec::new();
        let mut next = 0;
        for (generation, count) in [3, 1, 4, 0, 7, 2].into_iter().enumerate() {
            buffer.push(generation as u64, numbered(next, count));
            all.extend((next..next + count).map(|n| n as f32));
            next += count;
            let newest = &all[all.len().saturating_sub(5)..];
            assert_eq!(held(&buffer), newest, "after generation {generation}");
        }
        // Generation 4 gave the last 7 samples but 2: it is the oldest held.
        assert_eq!(buffer.oldest_generation(), Some(4));
    }

    #[test]
    fn value_targets_take_the_asked_share_of_the_search_values() {
        let outcomes = [1.0f32, -1.0, 1.0, -1.0];
        let searched = [0.5f32, -0.25, -1.0, 0.75];
        let samples = |search_value: Option<Vec<f32>>| ShardSamples {
            outcome: outcomes.to_vec(),
            search_value,
            ..numbered(0, outcomes.len())
        };
        for share in [0.25, 0.5, 1.0] {
            let mut mixed = samples(Some(searched.to_vec()));
            mix_search_values(&mut mixed, share).unwrap();
            for ((target, outcome), search) in mixed.outcome.iter().zip(outcomes).zip(searched) {
                let expected = f64::from(outcome) + share * f64::from(search - outcome);
                assert!(
                    (f64::from(*target) - expected).abs() < 1e-6,
                    "share {share}: {target} for outcome {outcome} and search value {search}"
                );
            }
        }
        let error = mix_search_values(&mut samples(None), 1.0).unwrap_err();
        assert!(error.contains("no search values"), "{error}");
        let mut per_player = samples(Some(searched[..2].to_vec()));
        let error = mix_search_values(&mut per_player, 1.0).unwrap_err();
        assert!(error.contains("each player"), "{error}");
    }

    #[test]
    fn a_transformed_sample_sees_and_moves_as_its_symmetry_maps_it() {
        // Two samples of a 3x3 board of one plane, each id a square: the
        // first seen turned a quarter, the second as played.
        let quarter = BoardSymmetry::Quarter;
        let turn = Symmetry::of_planes(
            1,
            3,
            quarter,
            (0..9)
                .map(|square| quarter.square(3, square) as u32)
                .collect(),
        );
        let shape = SampleShape {
            input_len: 9,
            num_actions: 9,
            value_width: 1,
        };
        let mut buffer = ReplayBuffer::new(2, shape);
        let observation: Vec<f32> = (0..18).map(|n| n as f32).collect();
        let mask: Vec<u8> = (0..18).map(|n| u8::from(n % 3 == 0)).collect();
        let policy: Vec<f32> = (0..18).map(|n| f32::from(n % 3 == 0) * n as f32).collect();
        buffer.push(
            0,
            ShardSamples {
                observation: observation.clone(),
                mask: mask.clone(),
                policy: policy.clone(),
                player: vec![0; 2],
                outcome: vec![0.0; 2],
                search_value: None,
                game: vec![0; 2],
                ply: vec![0; 2],
            },
        );
        let mut batch = Batch::default();
        buffer.fill(&[0, 1], &mut batch);
        buffer.transform(&[Some(&turn), None], &mut batch);
        for square in 0..9 {
            let image = quarter.square(3, square);
            assert_eq!(batch.observations[image], observation[square]);
            assert_eq!(batch.masks[image], mask[square]);
            assert_eq!(batch.policies[image], policy[square]);
        }
        assert_eq!(batch.observations[9..], observation[9..]);
        assert_eq!(batch.masks[9..], mask[9..]);
        assert_eq!(batch.policies[9..], policy[9..]);
        assert_ne!(batch.observations[..9], observation[..9], "a turn moves");
    }
}
