//! Win rates of cooperative games: how often a policy wins over many random
//! deals, with a 95% confidence interval.
//!
//! Deal `i` of a run is dealt from the seed `derive_seed(master, i)`, so
//! every policy meets the same deals, and each result depends only on the
//! deal and the policy, never on the thread that played it: a run gives the
//! same numbers on any number of threads.

use super::stats::{Z_95, wilson_interval};
use crate::agents::{Agent, Decision};
use crate::arena::RESIGNATION_REASON;
use crate::arena::playing::{AgentFactory, Shard};
use crate::core::{
    Evaluate, Game, ParseError, Ply, Status, Stochastic, check_threads, derive_seed, rng_from_seed,
    thread_pool,
};
use crate::search::{CoopSolver, Verdict};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A way of playing whole deals of a cooperative game, e.g. an agent or an
/// exact solver. It hands out one [`DealPlayer`] per worker thread, which
/// keeps its memory (a solver's table) from deal to deal.
pub trait DealPolicy<G: Game>: Send + Sync {
    /// The spec the policy was built from, e.g. `greedy` or `mcts:iters=1000`.
    fn spec(&self) -> &str;

    /// The policy's full configuration, defaults included, as a run's
    /// provenance records it ([`Agent::configuration`] for an agent).
    fn configuration(&self) -> String {
        self.spec().to_string()
    }

    /// A player for one worker thread.
    fn player(&self) -> Box<dyn DealPlayer<G>>;
}

/// Plays dealt games for a [`DealPolicy`].
pub trait DealPlayer<G: Game>: Send {
    /// Plays `dealt` to the end (or decides it) and returns whether the team
    /// won. `seed` drives every random choice, and the result must depend on
    /// nothing else but the deal.
    ///
    /// # Errors
    /// If the deal cannot be played: an agent that cannot choose, a solver
    /// that meets a state it cannot search.
    fn play_deal(&mut self, dealt: &G, seed: u64) -> Result<bool, String>;
}

/// A policy that plays each deal with a fresh [`Agent`] seeded for that deal.
pub struct AgentPolicy<G: Game> {
    spec: String,
    /// The agent's full configuration ([`Agent::configuration`]).
    configuration: String,
    build: Arc<AgentFactory<'static, G>>,
}

impl<G: Game> AgentPolicy<G> {
    /// A policy whose agents `build(spec, seed)` makes, with the spec checked
    /// once here so that a bad spec is an error before any deal is played.
    ///
    /// # Errors
    /// If `build` refuses the spec.
    pub fn new(spec: &str, build: Arc<AgentFactory<'static, G>>) -> Result<Self, ParseError> {
        let configuration = build(spec, 0)?.configuration();
        Ok(AgentPolicy {
            spec: spec.to_string(),
            configuration,
            build,
        })
    }
}

impl<G: Game> DealPolicy<G> for AgentPolicy<G> {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        self.configuration.clone()
    }

    fn player(&self) -> Box<dyn DealPlayer<G>> {
        Box::new(AgentPlayer {
            spec: self.spec.clone(),
            build: Arc::clone(&self.build),
        })
    }
}

struct AgentPlayer<G: Game> {
    spec: String,
    build: Arc<AgentFactory<'static, G>>,
}

impl<G: Game> DealPlayer<G> for AgentPlayer<G> {
    fn play_deal(&mut self, dealt: &G, seed: u64) -> Result<bool, String> {
        let mut agent = (self.build)(&self.spec, seed).map_err(|error| error.to_string())?;
        play_out(agent.as_mut(), dealt)
    }
}

/// Plays `start` to the end with `agent` making every decision, and returns
/// whether the team won (a resignation is a loss).
///
/// # Errors
/// If the agent cannot choose or chooses an illegal move, or the game
/// reaches a chance event or a simultaneous choice (a dealt cooperative game
/// has neither).
pub fn play_out<G: Game>(agent: &mut dyn Agent<G>, start: &G) -> Result<bool, String> {
    play_out_watched(agent, start, |_, _| {}).map(|end| end.won)
}

/// How a dealt game played out to its end ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealEnd {
    /// Whether the team won.
    pub won: bool,
    /// Why the game ended: the game's own reason, or
    /// [`RESIGNATION_REASON`](crate::arena::RESIGNATION_REASON).
    pub reason: String,
}

/// [`play_out`], with `watch` shown every state the game passes through
/// and the ply played in it (`None` at the last state, and at the state an
/// agent resigned in), and the game's end reason kept.
///
/// # Errors
/// As [`play_out`].
pub fn play_out_watched<G: Game>(
    agent: &mut dyn Agent<G>,
    start: &G,
    mut watch: impl FnMut(&G, Option<&Ply<G::Move>>),
) -> Result<DealEnd, String> {
    let mut state = start.clone();
    loop {
        match state.status() {
            Status::Over(outcome) => {
                watch(&state, None);
                return Ok(DealEnd {
                    won: outcome.payoffs.get(0) >= state.payoff_range().1,
                    reason: outcome.reason.to_string(),
                });
            }
            Status::ToMove(player) => match agent.decide(&state, player) {
                Ok(Decision::Play(mv)) => {
                    let ply = Ply::Move(mv);
                    agent.observe(&state, &ply);
                    watch(&state, Some(&ply));
                    state.try_play_ply(&ply).map_err(|illegal| {
                        format!("`{}` chose an illegal move: {illegal}", agent.spec())
                    })?;
                }
                Ok(Decision::Resign) => {
                    watch(&state, None);
                    return Ok(DealEnd {
                        won: false,
                        reason: RESIGNATION_REASON.to_string(),
                    });
                }
                Err(error) => return Err(format!("`{}`: {error}", agent.spec())),
            },
            Status::Chance | Status::Simultaneous => {
                return Err(format!(
                    "{} reached a chance event or a simultaneous choice, which a \
                     cooperative team playing a dealt game never meets",
                    G::NAME
                ));
            }
        }
    }
}

/// The spec of [`ExactPolicy`] among a run's policies.
pub const EXACT_POLICY: &str = "exact";

/// The perfect team: the exact cooperative solver decides each deal.
pub struct ExactPolicy;

impl<G: Game + Evaluate> DealPolicy<G> for ExactPolicy {
    fn spec(&self) -> &str {
        EXACT_POLICY
    }

    fn player(&self) -> Box<dyn DealPlayer<G>> {
        Box::new(ExactPlayer {
            solver: CoopSolver::new(),
        })
    }
}

struct ExactPlayer<G: Game> {
    solver: CoopSolver<G>,
}

impl<G: Game + Evaluate> DealPlayer<G> for ExactPlayer<G> {
    fn play_deal(&mut self, dealt: &G, _seed: u64) -> Result<bool, String> {
        let solution = self
            .solver
            .solve(dealt)
            .map_err(|error| error.to_string())?;
        Ok(solution.verdict == Verdict::Win)
    }
}

/// The dealt state of deal `index` of a run with master seed `master`.
pub fn deal<G: Stochastic>(rules: &G::Rules, master: u64, index: u64) -> G {
    deal_from_seed(rules, derive_seed(master, index))
}

/// The start of a game under `rules` with its chance events drawn from a
/// generator seeded with `seed`.
pub fn deal_from_seed<G: Stochastic>(rules: &G::Rules, seed: u64) -> G {
    let mut rng = rng_from_seed(seed);
    let mut state = G::new(rules.clone());
    while state.status() == Status::Chance {
        state.resolve_chance(&mut rng);
    }
    state
}

/// The seed a policy gets for deal `index` of a run with master seed
/// `master` (independent of the seed that dealt it).
pub fn policy_seed(master: u64, index: u64) -> u64 {
    derive_seed(derive_seed(master, index), 1)
}

/// A win rate with its 95% Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WinRate {
    /// The policy's spec.
    pub policy: String,
    /// The deals played.
    pub deals: u64,
    /// The deals the policy won.
    pub wins: u64,
    /// `wins / deals` (0 for no deals).
    pub win_rate: f64,
    /// The lower end of the 95% Wilson interval of the win rate.
    pub ci_low: f64,
    /// The upper end of that interval.
    pub ci_high: f64,
    /// The time spent playing the deals, in seconds: wall-clock, summed over
    /// the sessions of a resumed run and over the shards of a merged one.
    pub seconds: f64,
    /// `deals / seconds`: the speed of play.
    pub deals_per_second: f64,
}

impl WinRate {
    /// The rate of `wins` in `deals`, with its interval.
    pub fn new(policy: &str, wins: u64, deals: u64, seconds: f64) -> WinRate {
        let (ci_low, ci_high) = wilson_interval(wins, deals, Z_95);
        WinRate {
            policy: policy.to_string(),
            deals,
            wins,
            win_rate: if deals == 0 {
                0.0
            } else {
                wins as f64 / deals as f64
            },
            ci_low,
            ci_high,
            seconds,
            deals_per_second: deals as f64 / seconds.max(1e-9),
        }
    }
}

/// The result of one estimation: the rate and whether each deal was won.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The rate over the deals played.
    pub rate: WinRate,
    /// `won[k]` tells whether the `k`-th deal played was won: deal `k` of a
    /// whole run, deal [`Shard::nth`]`(k)` of a shard.
    pub won: Vec<bool>,
}

/// Which deals to play and on how many threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinRateRun {
    /// How many deals: deals `0..deals` are played (at most [`MAX_DEALS`]).
    pub deals: u64,
    /// The seed every deal and every policy's seed derives from, with the
    /// deal's index: each policy meets the same deals.
    pub master_seed: u64,
    /// Deals played at the same time.
    pub threads: usize,
}

/// The most deals of one run: a run keeps one result per deal (for the
/// per-deal table and the paired comparison of policies), and at a
/// microsecond a deal this is already minutes of play per policy.
pub const MAX_DEALS: u64 = 100_000_000;

impl WinRateRun {
    /// Checks the run before any work: from 1 to [`MAX_DEALS`] deals, and a
    /// thread count the machine can use.
    pub fn validate(&self) -> Result<(), String> {
        if self.deals == 0 || self.deals > MAX_DEALS {
            return Err(format!(
                "the number of deals must be from 1 to {MAX_DEALS}, not {}",
                self.deals
            ));
        }
        check_threads("the thread count", self.threads)
    }
}

/// Plays (or solves) deals `0..run.deals` with `policy` on `run.threads`
/// threads and counts the wins. `on_deal_done` is called after each deal
/// (from any thread), e.g. to advance a progress bar.
///
/// # Errors
/// If the thread pool cannot be created or a deal cannot be played (the
/// error of the first such deal).
pub fn estimate_win_rate<G: Stochastic>(
    rules: &G::Rules,
    policy: &dyn DealPolicy<G>,
    run: WinRateRun,
    on_deal_done: &(dyn Fn() + Sync),
) -> Result<Estimate, String> {
    estimate_shard_win_rate(rules, policy, run, Shard::ALL, on_deal_done)
}

/// As [`estimate_win_rate`], on the deals of `shard` of the run only (deal
/// `i` is shard `i mod N`'s): each deal is played as in the whole run, so
/// the shards' results together are the whole run's.
///
/// # Errors
/// As [`estimate_win_rate`], and for a shard that is not one.
pub fn estimate_shard_win_rate<G: Stochastic>(
    rules: &G::Rules,
    policy: &dyn DealPolicy<G>,
    run: WinRateRun,
    shard: Shard,
    on_deal_done: &(dyn Fn() + Sync),
) -> Result<Estimate, String> {
    estimate_recorded_win_rate(rules, policy, run, shard, &Unrecorded, on_deal_done)
}

/// Where a run keeps each deal's result as the deal ends, and finds the
/// results an earlier, interrupted run kept (a run directory's log).
pub trait DealRecord: Sync {
    /// The result of deal `index` that an earlier run kept, if any.
    fn recorded(&self, index: u64) -> Option<bool>;
    /// The seconds earlier runs spent on this policy's deals.
    fn seconds_before(&self) -> f64;
    /// Keeps the result of deal `index`, which ended `seconds` into the
    /// policy's time (earlier runs' included).
    ///
    /// # Errors
    /// If the result cannot be kept.
    fn record(&self, index: u64, won: bool, seconds: f64) -> Result<(), String>;
}

/// Keeps nothing: a run without a directory.
pub struct Unrecorded;

impl DealRecord for Unrecorded {
    fn recorded(&self, _index: u64) -> Option<bool> {
        None
    }

    fn seconds_before(&self) -> f64 {
        0.0
    }

    fn record(&self, _index: u64, _won: bool, _seconds: f64) -> Result<(), String> {
        Ok(())
    }
}

/// As [`estimate_shard_win_rate`], taking the deals `record` already holds
/// from it and giving it every other deal's result as the deal ends. The
/// seconds are the earlier runs' and this one's.
///
/// # Errors
/// As [`estimate_shard_win_rate`], and if a result cannot be kept.
pub fn estimate_recorded_win_rate<G: Stochastic>(
    rules: &G::Rules,
    policy: &dyn DealPolicy<G>,
    run: WinRateRun,
    shard: Shard,
    record: &dyn DealRecord,
    on_deal_done: &(dyn Fn() + Sync),
) -> Result<Estimate, String> {
    run.validate()?;
    shard.validate()?;
    let pool = thread_pool(run.threads)?;
    // Players go back to this pool after each deal, so at most one per
    // thread is ever built.
    let players: Mutex<Vec<Box<dyn DealPlayer<G>>>> = Mutex::new(Vec::new());
    let started = Instant::now();
    let deals = shard.share(run.deals);
    let won: Result<Vec<bool>, String> = pool.install(|| {
        (0..deals)
            .into_par_iter()
            .map(|k| {
                let index = shard.nth(k);
                if let Some(won) = record.recorded(index) {
                    on_deal_done();
                    return Ok(won);
                }
                let idle = players.lock().expect("no player panicked").pop();
                let mut player = idle.unwrap_or_else(|| policy.player());
                let dealt: G = deal(rules, run.master_seed, index);
                let won = player
                    .play_deal(&dealt, policy_seed(run.master_seed, index))
                    .map_err(|error| format!("deal {index}: {error}"));
                players.lock().expect("no player panicked").push(player);
                let won = won?;
                let seconds = record.seconds_before() + started.elapsed().as_secs_f64();
                record.record(index, won, seconds)?;
                on_deal_done();
                Ok(won)
            })
            .collect()
    });
    let won = won?;
    let wins = won.iter().filter(|&&w| w).count() as u64;
    let seconds = record.seconds_before() + started.elapsed().as_secs_f64();
    let rate = WinRate::new(policy.spec(), wins, deals, seconds);
    Ok(Estimate { rate, won })
}
