//! The cooperative line: how often a team of policies wins over many seeded
//! deals of a cooperative game with chance events, with the experiments
//! built on that.
//!
//! - `estimate`: one policy over the deals of a run, with its 95% interval
//!   (the policies, the deals and their seeds);
//! - `experiment`: several policies on the same deals (or on one deal), the
//!   report and the files a run leaves; `sweep`: the same over a range of
//!   one numeric rules option; `run`: a whole run as `norn winrate` makes
//!   it, from the policies' specs to the files;
//! - `directory`: a run kept in a run directory, resumable from its deal
//!   log; `merge`: shards of a run read back and merged;
//! - `plot`: the difficulty curves and sweeps as SVG; `stats`: the
//!   intervals and tests the reports give; `paired`: two policies compared
//!   deal by deal.

mod directory;
mod estimate;
mod experiment;
mod merge;
mod paired;
mod plot;
mod run;
mod stats;
mod sweep;

pub use directory::{
    DealsSoFar, RunUnderWay, WinRateDirectory, WinRateRunConfig, write_merged_config,
};
pub use estimate::{
    AgentPolicy, DealEnd, DealPlayer, DealPolicy, DealRecord, EXACT_POLICY, Estimate, ExactPolicy,
    MAX_DEALS, Unrecorded, WinRate, WinRateRun, deal, deal_from_seed, estimate_recorded_win_rate,
    estimate_shard_win_rate, estimate_win_rate, play_out, play_out_watched, policy_seed,
};
pub use experiment::{
    CHEATS_NOTE, Contender, PolicyRate, RunLog, WinRateReport, compare_policies,
    compare_policies_in, search_budget,
};
pub(crate) use merge::PolicyFile;
pub use merge::{
    is_win_rate_run, merge_win_rate_reports, merge_win_rate_runs, read_win_rate_run,
    win_rate_run_game,
};
pub use paired::PairedComparison;
pub use plot::{
    SweepSeries, ValuePoint, ValueSeries, difficulty_curve_svg, log_curves_svg, sweep_svg,
    value_lines_svg,
};
pub use run::{
    DealsProgress, Unwatched, WinRateConfig, WinRateOptions, WinRateOutcome, run_win_rate,
};
pub use stats::{
    Z_95, mean_interval, p_value_text, paired_difference_interval, sign_test_p, wilson_interval,
};
pub use sweep::{MAX_SWEEP_VALUES, Sweep, SweepPoint, SweepReport};
