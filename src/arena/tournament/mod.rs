//! The competitive line: agents of a game of two competing sides played
//! against each other, and what researchers report of it.
//!
//! - `config`: the tournament and its schedule; `opening`, `openings`:
//!   where its games start;
//! - `run`: the games of a shard played in parallel and logged; `store`:
//!   the run directory's `config.json` and game log, read back on resume;
//!   `merge`: shards put back together;
//! - `log`: a logged game and its checks; `search_log`: what each move
//!   cost; `replay`: a log replayed;
//!   `forfeits`: agents that fail;
//! - `facts`: what a summary keeps of each game;
//!   `summary`, `ratings`, `report`: the results, the fitted ratings and
//!   the reports; `pairs`: colour-swapped pairs scored as the game scores
//!   them; `matches`, `sprt`: a match of two agents stopped by a
//!   sequential test.

mod adjudicated;
mod config;
mod facts;
mod forfeits;
mod labels;
mod log;
mod match_text;
mod matches;
mod merge;
mod opening;
mod openings;
mod pairs;
mod ratings;
mod replay;
mod report;
mod run;
mod search_log;
mod sprt;
mod store;
mod summary;

pub use config::{MAX_TOURNAMENT_GAMES, ScheduledGame, TournamentConfig};
pub use facts::FinishedGames;
pub use forfeits::{DEFAULT_MAX_FORFEITS, MAX_FORFEIT_REASON_BYTES, SeatForfeit};
pub(crate) use labels::ChartNames;
#[cfg(test)]
pub(crate) use labels::tests::assert_no_text_is_cut_off;
pub use log::{GameLine, check_line, replay_line};
pub use matches::{MatchHistory, MatchOptions, MatchReport, match_history, run_match};
pub use merge::{MergedRun, MergedShards, merge_directories, merge_shards, write_merged_run};
pub use opening::{MAX_OPENING_PLIES, MAX_OPENINGS, Opening, OpeningPlies, parse_openings};
pub use openings::{OPENINGS_FILE, OpeningOrder, OpeningSet, Openings};
pub use pairs::PairScoring;
pub use ratings::{RatingFit, Z_95, elo_from_score, expected_score, fit_ratings};
pub use replay::{
    LogReplay, RecordedGame, RecordedResult, game_text, logged_states, recorded_games, replay_log,
    run_rules, tagged_players,
};
pub use report::{markdown_report, ratings_svg, text_report, write_reports};
pub use run::{
    RunOptions, RunProgress, RunResult, TournamentError, Unwatched, run_logged_tournament,
    run_tournament,
};
pub use search_log::{LoggedSearch, PlySearch, SearchMeans};
pub use sprt::{PairOutcomes, Pentanomial, Sprt, SprtDecision, SprtResult, Trinomial};
pub use store::{LinePlace, StoredLog, StoredRun, read_stored_run};
pub use summary::{
    AgentSummary, LengthStats, OverallSummary, PairingSummary, RATED_BY_GAMES, RATED_BY_PAIRS,
    Record, SideRecord, TournamentSummary,
};
