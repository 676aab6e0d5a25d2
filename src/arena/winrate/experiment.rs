//! Whole win-rate experiments on cooperative games: several policies on the
//! same seeded deals (or on one given deal), at one setting of the rules or
//! over a range of one numeric rules option, with the reports and the files
//! a run leaves behind (`summary.json`, `deals.csv`, `winrate.svg`; for a
//! sweep `sweep.json`, `sweep.csv`, `sweep.svg`).

use super::directory::WinRateDirectory;
use super::estimate::{
    AgentPolicy, DealPlayer, DealPolicy, EXACT_POLICY, ExactPolicy, Unrecorded, WinRate,
    WinRateRun, deal, estimate_recorded_win_rate,
};
use super::paired::PairedComparison;
use super::plot::difficulty_curve_svg;
use super::run::Stoppable;
use super::stats::p_value_text;
use crate::agents::agent_label;
use crate::arena::playing::{AgentFactory, Provenance, Shard, ShardProvenance};
use crate::core::{
    Capabilities, Evaluate, Notation, ParseError, Stochastic, escape_control, parse_key_values,
};
use serde::Serialize;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A policy of an experiment, built from its spec.
pub struct Contender<G: Stochastic> {
    policy: Box<dyn DealPolicy<G>>,
    sees_hidden_information: bool,
}

impl<G: Stochastic> Contender<G> {
    /// The policy's full configuration, defaults included.
    pub fn configuration(&self) -> String {
        self.policy.configuration()
    }

    /// The same policy, refusing to start a deal once `stop` is raised.
    pub(super) fn stopped_by(self, stop: Arc<AtomicBool>) -> Self {
        Contender {
            policy: Box::new(Stoppable {
                inner: self.policy,
                stop,
            }),
            ..self
        }
    }
}

impl<G: Stochastic + Evaluate> Contender<G> {
    /// The policy of `spec`: `exact` for the exact cooperative solver, any
    /// other spec an agent that `build` makes, marked if the agent reads
    /// what its players may not see
    /// ([`crate::agents::Agent::sees_hidden_information`]).
    ///
    /// # Errors
    /// If `build` refuses the spec, or `exact` is asked for a game with
    /// hidden information (the solver would read every hand).
    pub fn from_spec(spec: &str, build: Arc<AgentFactory<'static, G>>) -> Result<Self, ParseError> {
        let spec = spec.trim();
        if spec
            .split_once(':')
            .is_some_and(|(kind, _)| kind.trim() == EXACT_POLICY)
        {
            return Err(ParseError::new(
                "policy",
                spec,
                "the exact solver takes no options: write `exact` alone",
            ));
        }
        if spec == EXACT_POLICY {
            if Capabilities::of::<G>().hidden_information {
                return Err(ParseError::new(
                    "policy",
                    spec,
                    format!(
                        "the exact solver needs every player seeing the whole state, and {} hides information from its players",
                        G::NAME
                    ),
                ));
            }
            return Ok(Contender {
                policy: Box::new(ExactPolicy),
                sees_hidden_information: false,
            });
        }
        let sees_hidden_information = build(spec, 0)?.sees_hidden_information();
        Ok(Contender {
            policy: Box::new(AgentPolicy::new(spec, build)?),
            sees_hidden_information,
        })
    }
}

/// One policy's result, marked if it reads hidden information.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolicyRate {
    /// How often the policy won.
    #[serde(flatten)]
    pub rate: WinRate,
    /// Whether the policy reads what its players may not see: its rate is
    /// a reference, not a fair player's.
    pub sees_hidden_information: bool,
}

impl PolicyRate {
    /// The policy's name in tables (its spec's `name=`, else its spec:
    /// [`agent_label`]), marked `*` if it cheats.
    pub fn label(&self) -> String {
        let name = agent_label(&self.rate.policy);
        if self.sees_hidden_information {
            format!("{name} *")
        } else {
            name
        }
    }
}

/// The note that explains the `*` of [`PolicyRate::label`].
pub const CHEATS_NOTE: &str = "* sees hidden information: a reference that reads what its players may not see, not a fair player";

/// The report of a win-rate run at one setting of the rules.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WinRateReport {
    /// The game's registry name.
    pub game: &'static str,
    /// The rules options in force, as text.
    pub rules: String,
    /// The run's master seed, which deals the deals.
    pub seed: u64,
    /// The deals of the whole run (a shard plays its share of them).
    pub deals: u64,
    /// Deals played at the same time.
    pub threads: usize,
    /// The deal every game was played on, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal: Option<String>,
    /// The part of the run played, when it is split (`I/N`); the rates are
    /// then over the shard's deals only.
    #[serde(skip_serializing_if = "Shard::is_all")]
    pub shard: Shard,
    /// One rate per policy, in the order they were given.
    pub policies: Vec<PolicyRate>,
    /// The build that played the deals, the policies' full configurations
    /// and the rules in force.
    #[serde(flatten)]
    pub provenance: Provenance,
    /// For shards of different builds merged knowingly: every shard's
    /// provenance (empty otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shard_provenance: Vec<ShardProvenance>,
    /// Every pair of policies compared deal by deal (the earlier policy
    /// first): the deals only one of them won, the sign test on those and
    /// the interval of the difference of their win rates
    /// ([`WinRateReport::compare_pairs`]); none with one policy.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comparisons: Vec<PairedComparison>,
    /// `won[p][k]`: whether policy `p` won the shard's `k`-th deal, deal
    /// [`Shard::nth`]`(k)` (deal `k` of a whole run).
    #[serde(skip)]
    pub won: Vec<Vec<bool>>,
}

/// Plays every contender on the deals of `shard` of `run` (or every time
/// on `fixed`, when given) under `rules`. `on_deal_done` is called after
/// each deal.
///
/// # Errors
/// If a deal cannot be played.
pub fn compare_policies<G: Stochastic + Notation>(
    rules: &G::Rules,
    contenders: &[Contender<G>],
    fixed: Option<&G>,
    run: WinRateRun,
    shard: Shard,
    on_deal_done: &(dyn Fn(&str) + Sync),
) -> Result<WinRateReport, String> {
    compare_policies_in(rules, contenders, fixed, run, shard, None, on_deal_done)
}

/// Where a run keeps its deals: a run directory, and the value of the
/// sweep (`None` outside sweeps).
pub type RunLog<'a> = Option<(&'a WinRateDirectory, Option<u64>)>;

/// As [`compare_policies`], keeping each deal's result in `log` as the
/// deal ends and taking the deals it already holds from it (a resume). The
/// report's provenance is the run's as the directory records it.
///
/// # Errors
/// As [`compare_policies`], and if a result cannot be kept.
pub fn compare_policies_in<G: Stochastic + Notation>(
    rules: &G::Rules,
    contenders: &[Contender<G>],
    fixed: Option<&G>,
    run: WinRateRun,
    shard: Shard,
    log: RunLog<'_>,
    on_deal_done: &(dyn Fn(&str) + Sync),
) -> Result<WinRateReport, String> {
    let mut policies = Vec::new();
    let mut won = Vec::new();
    for (place, contender) in contenders.iter().enumerate() {
        let spec = contender.policy.spec().to_string();
        let fixed_policy;
        let policy: &dyn DealPolicy<G> = match fixed {
            Some(state) => {
                fixed_policy = FixedDeal {
                    inner: contender.policy.as_ref(),
                    state: state.clone(),
                };
                &fixed_policy
            }
            None => contender.policy.as_ref(),
        };
        let on_deal = || on_deal_done(&spec);
        let estimate = match log {
            Some((directory, value)) => {
                let record = directory.record(value, place);
                estimate_recorded_win_rate(rules, policy, run, shard, &record, &on_deal)?
            }
            None => estimate_recorded_win_rate(rules, policy, run, shard, &Unrecorded, &on_deal)?,
        };
        policies.push(PolicyRate {
            rate: estimate.rate,
            sees_hidden_information: contender.sees_hidden_information,
        });
        won.push(estimate.won);
    }
    Ok(WinRateReport {
        game: G::NAME,
        rules: rules.to_string(),
        seed: run.master_seed,
        deals: run.deals,
        threads: run.threads,
        deal: fixed.map(Notation::position_text),
        shard,
        policies,
        provenance: match log {
            Some((directory, _)) => directory.config.provenance.clone(),
            None => Provenance::current(
                contenders.iter().map(Contender::configuration).collect(),
                rules.to_string(),
            ),
        },
        shard_provenance: Vec::new(),
        comparisons: Vec::new(),
        won,
    }
    .compare_pairs())
}

/// A policy that plays one given deal whatever deal the estimator hands
/// it: the run then measures a policy's own randomness on that deal.
struct FixedDeal<'a, G: Stochastic> {
    inner: &'a dyn DealPolicy<G>,
    state: G,
}

impl<G: Stochastic> DealPolicy<G> for FixedDeal<'_, G> {
    fn spec(&self) -> &str {
        self.inner.spec()
    }

    fn player(&self) -> Box<dyn DealPlayer<G>> {
        Box::new(FixedDealPlayer {
            inner: self.inner.player(),
            state: self.state.clone(),
        })
    }
}

struct FixedDealPlayer<G: Stochastic> {
    inner: Box<dyn DealPlayer<G>>,
    state: G,
}

impl<G: Stochastic> DealPlayer<G> for FixedDealPlayer<G> {
    fn play_deal(&mut self, _dealt: &G, seed: u64) -> Result<bool, String> {
        self.inner.play_deal(&self.state, seed)
    }
}

/// The search budget of a policy spec such as `mcts:iters=1000`, which puts
/// the policy on the difficulty curve.
pub fn search_budget(spec: &str) -> Option<u64> {
    let (_, options) = spec.split_once(':')?;
    parse_key_values(options, "policy")
        .ok()?
        .into_iter()
        .find(|&(key, _)| key == "iters")
        .and_then(|(_, value)| value.parse().ok())
}

impl WinRateReport {
    /// The report with its paired comparisons ([`Self::comparisons`])
    /// worked out from whether each policy won each deal.
    pub fn compare_pairs(self) -> WinRateReport {
        WinRateReport {
            comparisons: PairedComparison::all(&self.policies, &self.won),
            ..self
        }
    }

    /// The paired comparisons as a table, empty with one policy: per pair
    /// of policies the deals only one of them won, the sign test's p and
    /// the difference of their win rates with its interval.
    pub fn comparisons_table(&self) -> String {
        if self.comparisons.is_empty() {
            return String::new();
        }
        let label = |spec: &str| escape_control(&agent_label(spec));
        let width = self
            .comparisons
            .iter()
            .flat_map(|comparison| comparison.policies.iter())
            .map(|spec| label(spec).chars().count())
            .max()
            .unwrap_or(0)
            .max(8);
        let games = match self.deal {
            Some(_) => "the games of the same number on the one deal",
            None => "the same deals",
        };
        let mut out = format!(
            "paired on {games}: won by A only and by B only, the exact two-sided sign test \
             (McNemar) on those, and A's win rate minus B's with Newcombe's 95% interval\n\
             {:<width$}  {:<width$} {:>8} {:>8} {:>9} {:>26}\n",
            "A", "B", "A only", "B only", "p", "difference [95%]"
        );
        for comparison in &self.comparisons {
            out.push_str(&format!(
                "{:<width$}  {:<width$} {:>8} {:>8} {:>9} {:>26}\n",
                label(&comparison.policies[0]),
                label(&comparison.policies[1]),
                comparison.won_by_first_only,
                comparison.won_by_second_only,
                p_value_text(comparison.sign_test_p),
                format!(
                    "{:+.3}% [{:+.3}%, {:+.3}%]",
                    100.0 * comparison.difference,
                    100.0 * comparison.difference_low,
                    100.0 * comparison.difference_high
                )
            ));
        }
        out
    }

    /// The report as a table: one row per policy (its name's control
    /// characters escaped), then the note on references that cheat, if any.
    pub fn table(&self) -> String {
        let width = self
            .policies
            .iter()
            .map(|policy| escape_control(&policy.label()).chars().count())
            .max()
            .unwrap_or(0)
            .max(20);
        let mut out = format!(
            "{:<width$} {:>8} {:>8} {:>9} {:>21} {:>9} {:>10}\n",
            "policy", "deals", "wins", "win rate", "95% interval", "seconds", "deals/s"
        );
        for policy in &self.policies {
            let rate = &policy.rate;
            out.push_str(&format!(
                "{:<width$} {:>8} {:>8} {:>8.3}% {:>8.3}% - {:>7.3}% {:>9.2} {:>10.1}\n",
                escape_control(&policy.label()),
                rate.deals,
                rate.wins,
                100.0 * rate.win_rate,
                100.0 * rate.ci_low,
                100.0 * rate.ci_high,
                rate.seconds,
                rate.deals_per_second
            ));
        }
        if self
            .policies
            .iter()
            .any(|policy| policy.sees_hidden_information)
        {
            out.push_str(CHEATS_NOTE);
            out.push('\n');
        }
        out
    }

    /// Writes `summary.json`, `deals.csv` (each deal as a position and which
    /// policies won it) and `winrate.svg` (win rate against search budget)
    /// to `dir`.
    ///
    /// # Errors
    /// If a file cannot be written.
    pub fn write_files<G: Stochastic + Notation>(
        &self,
        dir: &Path,
        rules: &G::Rules,
    ) -> Result<(), String> {
        let json = serde_json::to_string_pretty(self).map_err(|error| error.to_string())?;
        write_file(dir, "summary.json", &(json + "\n"))?;
        let mut csv = self.deals_header();
        for k in 0..self.shard.share(self.deals) {
            let index = self.shard.nth(k);
            let text = self.deal_text::<G>(rules, index);
            // Position texts may hold commas and quotes.
            csv.push_str(&format!("{index},\"{}\"", text.replace('"', "\"\"")));
            for won in &self.won {
                csv.push_str(if won[k as usize] { ",1" } else { ",0" });
            }
            csv.push('\n');
        }
        write_file(dir, "deals.csv", &csv)?;
        let (curve, references): (Vec<&PolicyRate>, Vec<&PolicyRate>) =
            self.policies.iter().partition(|policy| {
                !policy.sees_hidden_information && search_budget(&policy.rate.policy).is_some()
            });
        let curve: Vec<(u64, WinRate)> = curve
            .into_iter()
            .map(|policy| {
                (
                    search_budget(&policy.rate.policy).unwrap_or(1),
                    policy.rate.clone(),
                )
            })
            .collect();
        let references: Vec<WinRate> = references
            .into_iter()
            .map(|policy| WinRate {
                policy: plot_label(policy),
                ..policy.rate.clone()
            })
            .collect();
        let title = format!(
            "{}: win rate over {} deals ({})",
            self.game, self.deals, self.rules
        );
        write_file(
            dir,
            "winrate.svg",
            &difficulty_curve_svg(&title, &curve, &references),
        )
    }
}

impl WinRateReport {
    /// The header of `deals.csv`: the deal's index and text, then one
    /// column per policy (commas in specs become semicolons).
    pub(crate) fn deals_header(&self) -> String {
        let mut header = String::from("deal_index,deal");
        for policy in &self.policies {
            header.push(',');
            header.push_str(&policy.rate.policy.replace(',', ";"));
        }
        header.push('\n');
        header
    }

    /// The text of deal `index` of this run: the given deal, or the one
    /// the seed deals.
    pub(crate) fn deal_text<G: Stochastic + Notation>(
        &self,
        rules: &G::Rules,
        index: u64,
    ) -> String {
        match &self.deal {
            Some(text) => text.clone(),
            None => deal::<G>(rules, self.seed, index).position_text(),
        }
    }
}

/// The name of a policy in plots, marked if it cheats.
pub(super) fn plot_label(policy: &PolicyRate) -> String {
    let name = agent_label(&policy.rate.policy);
    if policy.sees_hidden_information {
        format!("{name} (cheats)")
    } else {
        name
    }
}

pub(super) fn write_file(dir: &Path, name: &str, contents: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, contents)
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}
