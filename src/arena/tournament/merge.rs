//! Merging the shards of a tournament: their logs checked and combined
//! into the directory of a whole run.

use super::config::TournamentConfig;
use super::log::GameLine;
use super::run::TournamentError;
use super::store::{
    GAMES_FILE, LogRead, StoredConfig, check_build, describe_difference, io_error,
    load_openings_file, read_config, read_games, write_config, write_log,
};
use crate::arena::playing::{
    CONFIG_FILE, Provenance, RunDirectory, RunKind, Shard, ShardProvenance, refuse_input_as_output,
};
use std::path::{Path, PathBuf};

/// The shards of a run combined by [`merge_directories`].
pub struct MergedRun {
    /// The tournament the shards played, the same in every shard.
    pub config: TournamentConfig,
    /// The first shard's provenance (every shard's, unless
    /// `shard_provenance` lists them).
    pub provenance: Provenance,
    /// Every shard's provenance, when the shards differ in it (shards of
    /// different builds merged with `force_resume`); empty otherwise.
    pub shard_provenance: Vec<ShardProvenance>,
    /// Every shard's games, by index.
    pub games: Vec<GameLine>,
}

/// How many games shard `shard` of the tournament `config` holds: its
/// share of the colour-swapped pairs.
fn shard_game_count(config: &TournamentConfig, shard: Shard) -> usize {
    2 * shard.share((config.total_games() / 2) as u64) as usize
}

/// Combines the logs of shard directories: they must hold the shards of
/// one split of the same tournament, every shard once and finished,
/// played by this build (by any builds with `force_resume`, which the
/// merged run records) with the same agent configurations and rules;
/// every line must be the schedule's game at its index, and no game may
/// appear in two of them. The moves are not replayed here (that needs the
/// game's type): check each game with [`check_line`](crate::arena::check_line).
pub fn merge_directories(
    dirs: &[PathBuf],
    force_resume: bool,
) -> Result<MergedRun, TournamentError> {
    let invalid = |message: String| TournamentError::Invalid(message);
    let mut first: Option<(StoredConfig, &PathBuf)> = None;
    let mut games: Vec<GameLine> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    let mut shards: Vec<Option<&PathBuf>> = Vec::new();
    let mut shard_provenance = Vec::new();
    for dir in dirs {
        let config_path = dir.join(CONFIG_FILE);
        let text =
            std::fs::read_to_string(&config_path).map_err(|error| io_error(&config_path, error))?;
        let mut stored = read_config(&config_path, &text)?;
        if stored.run != RunKind::Tournament {
            return Err(invalid(format!(
                "{} holds a match, not a shard of a tournament",
                dir.display()
            )));
        }
        check_build(
            dir,
            stored.provenance.build.as_ref(),
            force_resume,
            "norn merge --force-resume merges shards of different builds knowingly",
        )?;
        let shard = stored.shard.ok_or_else(|| {
            invalid(format!(
                "{} does not record which shard it holds (an older norn wrote it), \
                 so the merge cannot tell whether every shard is there; play it again with this norn",
                config_path.display()
            ))
        })?;
        shard_provenance.push(ShardProvenance {
            shard,
            provenance: stored.provenance.clone(),
        });
        match &first {
            None => {
                shards = vec![None; shard.count];
                // The merged run's directory gets the set's lines from here.
                load_openings_file(&config_path, &mut stored.config)?;
                first = Some((stored, dir));
            }
            Some((first, first_dir)) => {
                let difference = if first.config != stored.config {
                    describe_difference(&first.config, &stored.config)
                } else if first.shard.map(|shard| shard.count) != Some(shard.count) {
                    "another number of shards".to_string()
                } else if first.provenance.build == stored.provenance.build
                    && first.provenance != stored.provenance
                {
                    "different agent configurations or rules in force".to_string()
                } else {
                    String::new()
                };
                if !difference.is_empty() {
                    return Err(invalid(format!(
                        "{} holds a different tournament than {} ({difference})",
                        dir.display(),
                        first_dir.display(),
                    )));
                }
            }
        }
        if let Some(other) = shards[shard.index].replace(dir) {
            return Err(invalid(format!(
                "{} and {} both hold shard {shard}",
                other.display(),
                dir.display()
            )));
        }
        let config = &first.as_ref().expect("set above").0.config;
        let check = |line: &GameLine| {
            shard.check_holds(line)?;
            config.check_scheduled(line)
        };
        let games_path = dir.join(GAMES_FILE);
        let LogRead {
            games: shard_games,
            torn,
            ..
        } = read_games(
            &games_path,
            &check,
            false,
            false,
            "; resume that shard with `norn tournament ... --repair`, which drops such lines \
             and plays their games again, before merging",
        )?;
        if torn {
            return Err(invalid(format!(
                "{} ends with a half-written game; resume that shard before merging",
                games_path.display()
            )));
        }
        let expected = shard_game_count(config, shard);
        if shard_games.len() != expected {
            return Err(invalid(format!(
                "{} holds {} of the {expected} games of shard {shard}: the shard was cut short; \
                 resume it (run its command again) before merging",
                games_path.display(),
                shard_games.len()
            )));
        }
        for game in shard_games {
            if let Some(other) = seen.insert(game.index, dir.clone()) {
                return Err(invalid(format!(
                    "game {} appears in both {} and {}",
                    game.index,
                    other.display(),
                    dir.display()
                )));
            }
            games.push(game);
        }
    }
    let (stored, _) = first.ok_or_else(|| invalid("nothing to merge".into()))?;
    Shard::require_all(&shards.iter().map(Option::is_some).collect::<Vec<_>>()).map_err(invalid)?;
    if shard_provenance
        .iter()
        .all(|shard| shard.provenance == stored.provenance)
    {
        shard_provenance.clear();
    } else {
        shard_provenance.sort_by_key(|shard| shard.shard.index);
    }
    games.sort_by_key(|game| game.index);
    Ok(MergedRun {
        config: stored.config,
        provenance: stored.provenance,
        shard_provenance,
        games,
    })
}

/// Writes merged shards to `out` as the directory of a whole run, so that
/// it can be summarised: opens `out` as a run directory (refusing one of
/// the merged shards, a directory in use, and one that holds another run)
/// and writes its configuration and log. The directory stays locked while
/// the returned handle lives.
///
/// # Errors
/// If `out` is refused or cannot be written.
pub fn write_merged_run(
    out: &Path,
    inputs: &[PathBuf],
    merged: &MergedRun,
) -> Result<RunDirectory, TournamentError> {
    refuse_input_as_output(inputs, out).map_err(TournamentError::Invalid)?;
    let (directory, existing) =
        RunDirectory::open(out, RunKind::Tournament).map_err(TournamentError::Invalid)?;
    let config_path = out.join(CONFIG_FILE);
    if let Some(text) = existing {
        let held = read_config(&config_path, &text)?;
        if held.config != merged.config {
            return Err(TournamentError::Invalid(format!(
                "{} holds a different tournament ({}); merge into another directory",
                out.display(),
                describe_difference(&held.config, &merged.config)
            )));
        }
    }
    let stored = StoredConfig {
        shard: Some(Shard::ALL),
        shard_games: Some(merged.config.total_games()),
        shard_provenance: merged.shard_provenance.clone(),
        ..StoredConfig::new(RunKind::Tournament, &merged.config, &merged.provenance)
    };
    write_config(&config_path, &stored)?;
    write_log(&out.join(GAMES_FILE), &merged.games)?;
    Ok(directory)
}
