//! The page of a win-rate run: each policy's win rate with its interval,
//! or for a sweep every policy's rate against the swept option.

use super::build::{Filmstrip, ViewOptions, pack_games};
use super::charts::win_rate_chart;
use super::frames::Layouts;
use super::page::{Browser, Page, check_layout_ids, place_of};
use crate::arena::winrate::{
    CHEATS_NOTE, DealsSoFar, EXACT_POLICY, PairedComparison, PolicyFile, PolicyRate, RunUnderWay,
    SweepPoint, SweepReport, WinRate, WinRateReport, deal, play_out_watched, policy_seed,
    read_win_rate_run,
};
use crate::arena::{AgentFactory, Provenance};
use crate::core::{Notation, ParseError, Stochastic, escape_xml};
use rayon::prelude::*;
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;

/// The deals of a win-rate run that its page plays again, to show how each
/// policy played them: the run keeps only whether each deal was won.
pub struct ReplayedDeals<G: Stochastic> {
    /// How many of the run's first deals each policy plays again.
    pub count: u64,
    /// Makes a policy's agent from its spec and seed, as the run made it.
    pub build: Arc<AgentFactory<'static, G>>,
}

/// The browser of the first deals of `run` played again by each policy
/// that is an agent, each agent seeded as in the run; and a note for each
/// deal whose result differs from the run's (a policy limited by time does
/// not repeat its play). `logged(policy, k)` is the run's result of the
/// policy's `k`-th deal of the shard, if the run has played it.
///
/// # Errors
/// The run's rules or deal do not read, or a policy cannot be built or
/// cannot play a deal.
fn deal_browser<G: Stochastic + Notation>(
    run: &WinRateReport,
    logged: &dyn Fn(usize, u64) -> Option<bool>,
    replay: &ReplayedDeals<G>,
) -> Result<(Option<Browser>, Vec<String>), String> {
    let rules: G::Rules = run
        .rules
        .parse()
        .map_err(|error: ParseError| format!("the run's rules: {error}"))?;
    let fixed = run
        .deal
        .as_deref()
        .map(|text| G::from_position_text(text, rules.clone()))
        .transpose()
        .map_err(|error| format!("the run's deal: {error}"))?;
    let shown = replay.count.min(run.shard.share(run.deals));
    let jobs: Vec<(usize, u64)> = (0..run.policies.len())
        .filter(|&policy| run.policies[policy].rate.policy != EXACT_POLICY)
        .flat_map(|policy| (0..shown).map(move |k| (policy, k)))
        .collect();
    if jobs.is_empty() {
        return Ok((None, Vec::new()));
    }
    let played = jobs
        .par_iter()
        .map(|&(policy, k)| {
            let index = run.shard.nth(k);
            let spec = &run.policies[policy].rate.policy;
            let at = |error: String| format!("deal {index} of `{spec}`: {error}");
            let dealt = match &fixed {
                Some(state) => state.clone(),
                None => deal::<G>(&rules, run.seed, index),
            };
            let mut agent = (replay.build)(spec, policy_seed(run.seed, index))
                .map_err(|error| at(error.to_string()))?;
            let mut strip = Filmstrip::default();
            let mut moves = Vec::new();
            let end = play_out_watched(agent.as_mut(), &dealt, |state, ply| {
                strip.add(state);
                if let Some(ply) = ply {
                    moves.push(state.ply_text(ply).one_line());
                }
            })
            .map_err(at)?;
            let plies = moves.len();
            Ok((index, end, plies, strip.finish(moves)))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut agents = Vec::new();
    let mut reasons = Vec::new();
    let mut notes = Vec::new();
    let mut framed = Vec::new();
    let mut rows = Vec::new();
    for (key, (&(policy, k), (index, end, plies, frames))) in jobs.iter().zip(played).enumerate() {
        let spec = &run.policies[policy].rate.policy;
        if let Some(logged) = logged(policy, k)
            && logged != end.won
        {
            let result = |won: bool| if won { "won" } else { "lost" };
            notes.push(format!(
                "deal {index} of `{spec}` was {} in the run and {} when played again here",
                result(logged),
                result(end.won)
            ));
        }
        let agent = place_of(&mut agents, spec);
        rows.push([
            key,
            agent,
            agent,
            usize::from(!end.won),
            place_of(&mut reasons, &end.reason),
            plies,
            index as usize,
        ]);
        framed.push(frames);
    }
    let mut layouts = Layouts::default();
    let packed = pack_games(framed, &mut layouts)?;
    check_layout_ids(&layouts)?;
    let browser = Browser {
        label: "deal",
        columns: vec!["policy".to_string()],
        results: vec!["won".to_string(), "lost".to_string()],
        agents,
        reasons,
        players: G::new(rules.clone()).num_players(),
        rows,
        layouts,
        packed,
        note: None,
    };
    Ok((Some(browser), notes))
}

/// What the page reads of a sweep's `sweep.json`.
#[derive(Deserialize)]
struct SweepFile {
    game: String,
    rules: String,
    option: String,
    seed: u64,
    deals: u64,
    threads: usize,
    #[serde(default)]
    deal: Option<String>,
    #[serde(flatten)]
    provenance: Provenance,
    points: Vec<PointFile>,
}

#[derive(Deserialize)]
struct PointFile {
    value: u64,
    policies: Vec<PolicyFile>,
    #[serde(default)]
    comparisons: Vec<PairedComparison>,
}

/// The sweep in `dir`, if its `sweep.json` is there; its rates are
/// computed from the counts as the sweep computed them.
fn read_sweep<G: Notation>(dir: &Path) -> Result<Option<SweepReport>, String> {
    let path = dir.join("sweep.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
    };
    let file: SweepFile = serde_json::from_str(&text)
        .map_err(|error| format!("{} is not a sweep's report: {error}", path.display()))?;
    if file.game != G::NAME {
        return Err(format!(
            "{} is a sweep of {}, not of {}",
            path.display(),
            file.game,
            G::NAME
        ));
    }
    if file.points.is_empty() {
        return Err(format!("{} holds no values", path.display()));
    }
    Ok(Some(SweepReport {
        game: G::NAME,
        rules: file.rules,
        option: file.option,
        seed: file.seed,
        deals: file.deals,
        threads: file.threads,
        deal: file.deal,
        provenance: file.provenance,
        points: file
            .points
            .into_iter()
            .map(|point| SweepPoint {
                value: point.value,
                policies: point
                    .policies
                    .into_iter()
                    .map(|policy| PolicyRate {
                        rate: WinRate::new(
                            &policy.policy,
                            policy.wins,
                            policy.deals,
                            policy.seconds,
                        ),
                        sees_hidden_information: policy.sees_hidden_information,
                    })
                    .collect(),
                comparisons: point.comparisons,
            })
            .collect(),
    }))
}

/// The policies' names with their rates so far, from each one's deals in
/// the log of a run under way (at `value` of a sweep).
fn rates_so_far<G: Stochastic>(
    run: &RunUnderWay,
    value: Option<u64>,
    replay: &ReplayedDeals<G>,
) -> Result<Vec<PolicyRate>, String> {
    run.config
        .policies
        .iter()
        .enumerate()
        .map(|(place, spec)| {
            let so_far = run.deals_of(value, place);
            let wins = so_far.won.values().filter(|&&won| won).count() as u64;
            let sees_hidden_information = spec != EXACT_POLICY
                && (replay.build)(spec, 0)
                    .map_err(|error| format!("policy `{spec}`: {error}"))?
                    .sees_hidden_information();
            Ok(PolicyRate {
                rate: WinRate::new(spec, wins, so_far.won.len() as u64, so_far.seconds),
                sees_hidden_information,
            })
        })
        .collect()
}

/// The page of the win-rate run or sweep in `dir`, read as `norn merge`
/// reads a run (every deal's result checked against the summary); or, of
/// a run under way (without its reports yet), from its configuration and
/// the deals its log holds.
///
/// # Errors
/// If the run's files do not read, or are of another game.
pub fn win_rate_page<G: Stochastic + Notation>(
    dir: &Path,
    options: ViewOptions,
    replay: &ReplayedDeals<G>,
) -> Result<String, String> {
    if let Some(sweep) = read_sweep::<G>(dir)? {
        return Ok(sweep_page(dir, &sweep, "", options));
    }
    let finished = ["summary.json", "deals.csv"]
        .iter()
        .any(|name| dir.join(name).exists());
    if finished {
        let run = read_win_rate_run::<G>(dir)?;
        let logged = |policy: usize, k: u64| Some(run.won[policy][k as usize]);
        return rates_page(dir, &run, "", &logged, replay, options);
    }
    let run = RunUnderWay::read(dir)?;
    let config = &run.config;
    if config.game != G::NAME {
        return Err(format!(
            "{} is a run of {}, not of {}",
            dir.display(),
            config.game,
            G::NAME
        ));
    }
    let (logged, total) = run.progress();
    let under_way = format!(
        "<p>The run is under way: its log holds {logged} of its {total} deals, over which the rates are.</p>\n"
    );
    if let Some((option, values)) = &config.sweep {
        let points = values
            .iter()
            .map(|&value| {
                Ok(SweepPoint {
                    value,
                    policies: rates_so_far(&run, Some(value), replay)?,
                    // The page shows no paired comparisons.
                    comparisons: Vec::new(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        if points.is_empty() {
            return Err(format!("{}: the sweep has no values", dir.display()));
        }
        let sweep = SweepReport {
            game: G::NAME,
            rules: config.rules.clone(),
            option: option.clone(),
            seed: config.seed,
            deals: config.deals,
            // The page does not show the threads, which config.json leaves
            // out (a resume may use others).
            threads: 0,
            deal: config.deal.clone(),
            provenance: config.provenance.clone(),
            points,
        };
        return Ok(sweep_page(dir, &sweep, &under_way, options));
    }
    let report = WinRateReport {
        game: G::NAME,
        rules: config.rules.clone(),
        seed: config.seed,
        deals: config.deals,
        threads: 0,
        deal: config.deal.clone(),
        shard: config.shard,
        policies: rates_so_far(&run, None, replay)?,
        provenance: config.provenance.clone(),
        shard_provenance: Vec::new(),
        won: Vec::new(),
        comparisons: Vec::new(),
    };
    let so_far: Vec<DealsSoFar> = (0..config.policies.len())
        .map(|policy| run.deals_of(None, policy))
        .collect();
    let logged = |policy: usize, k: u64| so_far[policy].won.get(&config.shard.nth(k)).copied();
    rates_page(dir, &report, &under_way, &logged, replay, options)
}

/// The page's list of the build and the policies' configurations.
fn provenance_lines(provenance: &Provenance) -> String {
    let mut lines = String::new();
    if let Some(build) = &provenance.build {
        lines.push_str(&format!(
            "<li>played by {}</li>",
            escape_xml(&build.to_string())
        ));
    }
    for configuration in &provenance.agent_configurations {
        lines.push_str(&format!(
            "<li><code>{}</code></li>",
            escape_xml(configuration)
        ));
    }
    match lines.is_empty() {
        true => String::new(),
        false => format!("<h2>Provenance</h2>\n<ul>{lines}</ul>\n"),
    }
}

/// The page of a sweep, `under_way` (HTML) said first.
fn sweep_page(dir: &Path, sweep: &SweepReport, under_way: &str, options: ViewOptions) -> String {
    let report = format!(
        "{under_way}<p>Win rates of {} policies over {} deals at each value of <code>{}</code> (seed {}, rules <code>{}</code>), with 95% intervals.</p>\n<pre>{}</pre>\n{}",
        sweep.points[0].policies.len(),
        sweep.deals,
        escape_xml(&sweep.option),
        sweep.seed,
        escape_xml(&sweep.rules),
        escape_xml(&sweep.table()),
        provenance_lines(&sweep.provenance)
    );
    Page {
        title: format!("{} win-rate sweep", sweep.game),
        source: dir.display().to_string(),
        report,
        charts: vec![(format!("Win rate against {}", sweep.option), sweep.svg())],
        browser: None,
        version: options.version,
    }
    .html()
}

/// The page of a win-rate run, `under_way` (HTML) said first, with the
/// deals `replay` asks for played again (`logged` as in [`deal_browser`]).
fn rates_page<G: Stochastic + Notation>(
    dir: &Path,
    run: &WinRateReport,
    under_way: &str,
    logged: &dyn Fn(usize, u64) -> Option<bool>,
    replay: &ReplayedDeals<G>,
    options: ViewOptions,
) -> Result<String, String> {
    let mut report = format!(
        "{under_way}<p>Win rates over {} deals (seed {}, rules <code>{}</code>), with 95% Wilson intervals.</p>\n<pre>{}</pre>\n",
        run.deals,
        run.seed,
        escape_xml(&run.rules),
        escape_xml(&run.table())
    );
    if run
        .policies
        .iter()
        .any(|policy| policy.sees_hidden_information)
    {
        report.push_str(&format!("<p>{}</p>\n", escape_xml(CHEATS_NOTE)));
    }
    report.push_str(&provenance_lines(&run.provenance));
    let (browser, notes) = deal_browser(run, logged, replay)?;
    report.push_str(&replay_lines(run, replay.count, browser.is_some(), &notes));
    Ok(Page {
        title: format!("{} win-rate run", G::NAME),
        source: dir.display().to_string(),
        report,
        charts: vec![(
            "Win rate per policy (95% interval)".to_string(),
            win_rate_chart(&run.policies),
        )],
        browser,
        version: options.version,
    }
    .html())
}

/// What the page says of the deals it played again.
fn replay_lines(run: &WinRateReport, count: u64, shown: bool, notes: &[String]) -> String {
    let mut lines = String::new();
    if shown {
        lines.push_str(&format!(
            "<p>The games list shows the first {} deals of the run played again by each policy that is an agent, seeded as in the run.</p>\n",
            count.min(run.shard.share(run.deals))
        ));
    }
    if run
        .policies
        .iter()
        .any(|policy| policy.rate.policy == EXACT_POLICY)
    {
        lines.push_str(
            "<p>The exact solver decides a deal without playing it: its deals are not shown.</p>\n",
        );
    }
    if !notes.is_empty() {
        lines.push_str("<p>Played again with another result:</p>\n<ul>");
        for note in notes {
            lines.push_str(&format!("<li>{}</li>", escape_xml(note)));
        }
        lines.push_str("</ul>\n");
    }
    lines
}
