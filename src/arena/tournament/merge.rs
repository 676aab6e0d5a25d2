//! Merging the shards of a tournament: their logs checked and combined
//! into the directory of a whole run.

use super::config::TournamentConfig;
use super::facts::FinishedGames;
use super::log::{GameLine, check_line};
use super::run::TournamentError;
use super::store::{
    GAMES_FILE, LineCheck, LinePlace, StoredConfig, check_build, describe_difference, io_error,
    load_openings_file, read_config, read_games, write_config, write_log, write_log_lines,
};
use crate::arena::playing::{
    CONFIG_FILE, Provenance, RunDirectory, RunKind, Shard, ShardProvenance, refuse_input_as_output,
};
use crate::core::{Notation, ParseError};
use std::fs::File;
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

/// The shards of one split of a tournament, as their `config.json` files
/// record them ([`read_shards`]), before their logs are read.
struct Shards {
    /// The first shard's configuration (its opening set loaded).
    stored: StoredConfig,
    /// Every shard's provenance, when they differ; empty otherwise.
    shard_provenance: Vec<ShardProvenance>,
    /// Each shard's directory, with the shard it holds.
    dirs: Vec<(PathBuf, Shard)>,
}

/// Reads the configurations of shard directories: they must hold the
/// shards of one split of the same tournament, every shard once, played
/// by this build (by any builds with `force_resume`, which the merged run
/// records) with the same agent configurations and rules.
fn read_shards(dirs: &[PathBuf], force_resume: bool) -> Result<Shards, TournamentError> {
    let invalid = |message: String| TournamentError::Invalid(message);
    let mut first: Option<(StoredConfig, &PathBuf)> = None;
    let mut shards: Vec<Option<&PathBuf>> = Vec::new();
    let mut shard_provenance = Vec::new();
    let mut held = Vec::with_capacity(dirs.len());
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
        held.push((dir.clone(), shard));
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
    Ok(Shards {
        stored,
        shard_provenance,
        dirs: held,
    })
}

impl Shards {
    /// Reads every shard's log: each line must be a game of its shard (so
    /// that no game is in two shards) and the schedule's game at its
    /// index, and pass `check`, and every shard must be whole. Each game goes to
    /// `visit` with the number of its shard (in the order given) and where
    /// its line is.
    fn read_logs(
        &self,
        check: LineCheck<'_>,
        visit: &mut dyn FnMut(GameLine, usize, LinePlace),
    ) -> Result<(), TournamentError> {
        let invalid = |message: String| TournamentError::Invalid(message);
        let config = &self.stored.config;
        for (number, (dir, shard)) in self.dirs.iter().enumerate() {
            let check = |line: &GameLine| {
                shard.check_holds(line)?;
                config.check_scheduled(line)?;
                check(line)
            };
            let games_path = dir.join(GAMES_FILE);
            let read = read_games(
                &games_path,
                config.total_games(),
                &check,
                false,
                false,
                "; resume that shard with `norn tournament ... --repair`, which drops such lines \
                 and plays their games again, before merging",
                &mut |game, line| {
                    let place = LinePlace {
                        number: line.number,
                        offset: line.offset,
                        length: line.length,
                    };
                    visit(game, number, place);
                },
            )?;
            if read.torn {
                return Err(invalid(format!(
                    "{} ends with a half-written game; resume that shard before merging",
                    games_path.display()
                )));
            }
            let expected = shard_game_count(config, *shard);
            if read.games != expected {
                return Err(invalid(format!(
                    "{} holds {} of the {expected} games of shard {shard}: the shard was cut short; \
                     resume it (run its command again) before merging",
                    games_path.display(),
                    read.games
                )));
            }
        }
        Ok(())
    }
}

/// Combines the logs of shard directories: they must hold the shards of
/// one split of the same tournament, every shard once and finished,
/// played by this build (by any builds with `force_resume`, which the
/// merged run records) with the same agent configurations and rules;
/// every line must be a game of its shard and the schedule's game at its
/// index, and no game may appear in two of them. The moves are not
/// replayed here (that needs the game's type): check each game with
/// [`check_line`](crate::arena::check_line), or merge with
/// [`merge_shards`], which does and holds no game in memory.
pub fn merge_directories(
    dirs: &[PathBuf],
    force_resume: bool,
) -> Result<MergedRun, TournamentError> {
    let shards = read_shards(dirs, force_resume)?;
    let mut games = Vec::new();
    shards.read_logs(&|_| Ok(()), &mut |game, _, _| games.push(game))?;
    games.sort_by_key(|game: &GameLine| game.index);
    Ok(MergedRun {
        config: shards.stored.config,
        provenance: shards.stored.provenance,
        shard_provenance: shards.shard_provenance,
        games,
    })
}

/// Shards merged by [`merge_shards`] into a run directory.
pub struct MergedShards {
    /// The directory of the whole run, locked while this lives.
    pub directory: RunDirectory,
    /// The tournament the shards played.
    pub config: TournamentConfig,
    /// The first shard's provenance (every shard's, unless
    /// `shard_provenance` lists them).
    pub provenance: Provenance,
    /// Every shard's provenance, when the shards differ in it.
    pub shard_provenance: Vec<ShardProvenance>,
    /// What the summary needs of every game.
    pub games: FinishedGames,
}

/// Merges shard directories of a tournament of game `G` (as
/// [`merge_directories`] checks them, and every game replayed as a resume
/// checks it: an error names the shard's log and the line) into the
/// directory `out` of a whole run: its configuration and its log, the
/// games in the order of their indices. The logs are read line by line and
/// copied, so that the merge holds a few numbers per game, whatever the
/// size of the logs.
///
/// # Errors
/// As [`merge_directories`] and [`write_merged_run`], and for shards of
/// another game.
pub fn merge_shards<G: Notation>(
    dirs: &[PathBuf],
    out: &Path,
    force_resume: bool,
) -> Result<MergedShards, TournamentError> {
    let shards = read_shards(dirs, force_resume)?;
    let config = &shards.stored.config;
    let invalid = TournamentError::Invalid;
    if config.game != G::NAME {
        return Err(invalid(format!(
            "the shards hold games of {}, not of {}",
            config.game,
            G::NAME
        )));
    }
    let rules = config.rules.parse().map_err(|error: ParseError| {
        invalid(format!("the shards' rules `{}`: {error}", config.rules))
    })?;
    let start = &G::new(rules);
    let mut games = FinishedGames::new(config);
    games.reserve(config.total_games());
    let mut places = Vec::with_capacity(config.total_games());
    shards.read_logs(
        &|line| check_line(config, start, line),
        &mut |game, shard, place| {
            games.add(&game);
            places.push((game.index, shard, place));
        },
    )?;
    places.sort_unstable_by_key(|&(index, _, _)| index);
    let directory = open_merged_run(out, dirs, config)?;
    let stored = merged_config(config, &shards.stored.provenance, &shards.shard_provenance);
    write_config(&out.join(CONFIG_FILE), &stored)?;
    let logs = shards
        .dirs
        .iter()
        .map(|(dir, _)| {
            let path = dir.join(GAMES_FILE);
            File::open(&path)
                .map(|file| (path.clone(), file))
                .map_err(|error| io_error(&path, error))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let lines = places.iter().map(|&(_, shard, place)| {
        let (path, file) = &logs[shard];
        place.read_from(file).map_err(|error| io_error(path, error))
    });
    write_log_lines(&out.join(GAMES_FILE), lines)?;
    Ok(MergedShards {
        directory,
        config: shards.stored.config.clone(),
        provenance: shards.stored.provenance.clone(),
        shard_provenance: shards.shard_provenance.clone(),
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
    let directory = open_merged_run(out, inputs, &merged.config)?;
    let stored = merged_config(&merged.config, &merged.provenance, &merged.shard_provenance);
    write_config(&out.join(CONFIG_FILE), &stored)?;
    write_log(&out.join(GAMES_FILE), &merged.games)?;
    Ok(directory)
}

/// Opens `out` for the merge of shards of the tournament `config` read
/// from `inputs`: refuses one of the shards, a directory in use, and one
/// that holds another run.
fn open_merged_run(
    out: &Path,
    inputs: &[PathBuf],
    config: &TournamentConfig,
) -> Result<RunDirectory, TournamentError> {
    refuse_input_as_output(inputs, out).map_err(TournamentError::Invalid)?;
    let (directory, existing) =
        RunDirectory::open(out, RunKind::Tournament).map_err(TournamentError::Invalid)?;
    if let Some(text) = existing {
        let held = read_config(&out.join(CONFIG_FILE), &text)?;
        if held.config != *config {
            return Err(TournamentError::Invalid(format!(
                "{} holds a different tournament ({}); merge into another directory",
                out.display(),
                describe_difference(&held.config, config)
            )));
        }
    }
    Ok(directory)
}

/// The `config.json` of a whole run merged from shards.
fn merged_config(
    config: &TournamentConfig,
    provenance: &Provenance,
    shard_provenance: &[ShardProvenance],
) -> StoredConfig {
    StoredConfig {
        shard: Some(Shard::ALL),
        shard_games: Some(config.total_games()),
        shard_provenance: shard_provenance.to_vec(),
        ..StoredConfig::new(RunKind::Tournament, config, provenance)
    }
}
