//! Playing games between agents, and what every run of many games keeps
//! with it: one game played to its end (joint moves, chance events,
//! resignations, forfeits and adjudications included), the build and agent configurations
//! that played a run, its locked run directory, and shards.

mod adjudication;
mod build;
mod clock;
mod directory;
mod game;
mod shard;

pub(crate) use adjudication::Adjudicator;
pub use adjudication::{
    Adjudication, DRAW_ADJUDICATION_REASON, RESIGN_ADJUDICATION_REASON, Verdict,
};
pub use build::{Build, Provenance};
pub use clock::TimeControl;
pub(crate) use directory::{CONFIG_FILE, LogLine, LogReader};
pub use directory::{RunDirectory, RunKind, refuse_input_as_output};
pub use game::{
    AgentFactory, DecisionRecord, FORFEIT_REASON, Forfeit, MAX_PLIES_REASON, PlayError,
    PlayOptions, PlayedGame, RESIGNATION_REASON, TIME_REASON, play_game, play_game_after,
    plies_text, replay_plies,
};
pub(crate) use game::{
    adjudicated_outcome, forfeit_outcome, max_plies_outcome, resignation_outcome,
    resolve_pending_chance, time_loss_outcome,
};
pub use shard::{Shard, ShardProvenance};
