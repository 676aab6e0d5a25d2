//! Experiments that play many games: matches and tournaments between agents
//! with the statistics and ratings researchers report, win-rate estimation
//! over seeded deals of cooperative games, and plots.

mod build;
pub mod experiment;
mod forfeits;
mod matches;
pub mod openings;
mod playing;
pub mod plot;
pub mod ratings;
mod replay;
mod report;
mod run_dir;
pub mod solutions;
pub mod sprt;
pub mod stats;
mod summary;
mod tournament;
pub mod winrate;
pub mod winrate_runs;
pub mod winrate_shards;

pub use build::{Build, Provenance};
pub use forfeits::{DEFAULT_MAX_FORFEITS, SeatForfeit};
pub use matches::{MatchOptions, MatchReport, run_match};
pub use openings::{
    OPENINGS_FILE, Opening, OpeningOrder, OpeningPlies, OpeningSet, Openings, parse_openings,
};
pub use playing::{
    FORFEIT_REASON, Forfeit, MAX_PLIES_REASON, PlayError, PlayOptions, PlayedGame,
    RESIGNATION_REASON, play_game, play_game_after, plies_text, replay_plies,
};
pub use replay::{LogReplay, replay_log};
pub use report::{markdown_report, ratings_svg, text_report};
pub use run_dir::{RunDirectory, RunKind, refuse_input_as_output};
pub use summary::{
    AgentSummary, LengthStats, OverallSummary, PairingSummary, RATED_BY_GAMES, RATED_BY_PAIRS,
    Record, SideRecord, TournamentSummary,
};
pub use tournament::{
    AgentFactory, GameLine, MAX_TOURNAMENT_GAMES, MergedRun, RunOptions, RunProgress, RunResult,
    ScheduledGame, Shard, ShardProvenance, TournamentConfig, TournamentError, Unwatched,
    check_line, merge_directories, replay_line, run_tournament, write_merged_run, write_reports,
};
