//! The game model shared by every game and every searcher.
//!
//! - [`Game`]: states, moves, status and hashing, for every kind of game;
//! - [`Notation`], [`Stochastic`], [`Simultaneous`], [`ImperfectInformation`]:
//!   what only some games have;
//! - [`Setup`]: a position or a deal as written, read the same way for
//!   every game before the rules check it;
//! - [`Evaluate`], [`Playout`] and [`Objective`]: per-game knowledge that
//!   searchers use;
//! - [`Outcome`] and [`Payoffs`]: one payoff per player, which covers zero-sum,
//!   scored and cooperative games alike;
//! - [`Capabilities`] and the hooks through which generic code reaches the
//!   optional traits;
//! - [`Picture`]: a position drawn, for pages and `norn show --svg`;
//! - [`MoveList`], [`Ply`], Zobrist keys and seeded random number generators;
//! - the resources a run may ask for ([`thread_limit`], [`memory_limit`]).

mod capability;
mod declared;
mod encoding;
mod error;
mod evaluate;
mod fast_hash;
mod game;
mod moves;
mod objective;
mod options;
mod outcome;
mod picture;
mod playout;
mod ply;
mod repetition;
mod resources;
mod rng;
mod setup;
mod sides;
pub mod zobrist;

pub use crate::{
    hash_and_ply_fields, moves_until_ending, two_sided_players, two_sided_turns, two_sides,
};
pub use capability::{
    Capabilities, ChanceVisitor, HiddenInformationVisitor, Scoring, SimultaneousVisitor,
    joint_choices, resolve_chance,
};
#[cfg(test)]
pub(crate) use declared::assert_reads_back;
pub(crate) use declared::declared_configuration;
pub use declared::{
    Configurable, Declared, Kind, LIMIT, MILLISECONDS, Value, WholeField, keys, options_table,
    read_options, read_options_onto, validate_options, write_options,
};
pub use encoding::{
    ActionPath, BoardSymmetry, DealModel, Encoding, MAX_DECISIONS, Symmetry, chance_outcome_count,
    length_within,
};
pub use error::{IllegalMove, ParseError, escape_control, escape_control_lines, shorten_quoted};
pub use evaluate::{Evaluate, Evaluator, GameEvaluation};
pub(crate) use fast_hash::{FastHashMap, FastHasher, sha256_hex};
pub use game::{Game, ImperfectInformation, Notation, Simultaneous, Stochastic};
pub use moves::{MoveCounter, MoveList, MoveSink};
pub use objective::{Objective, Sense};
pub use options::{NoRules, RulesOptions, limit_reached, parse_key_values, unknown_key};
pub use outcome::{MAX_PLAYERS, Outcome, Payoffs, Player, Status};
pub use picture::{Content, HIDDEN_SYMBOL, Picture, Slot, Viewer, escape_xml, symbol_uses};
pub use playout::{Playout, normalised_payoffs};
pub use ply::{Ply, PlyText};
pub use repetition::{RepetitionHistory, scramble};
pub use resources::{
    address_space_limit, check_memory, check_run_memory, check_threads, memory_limit,
    physical_memory, thread_limit, thread_pool, usable_memory,
};
pub use rng::{GameRng, derive_seed, rng_from_seed};
pub use setup::Setup;
