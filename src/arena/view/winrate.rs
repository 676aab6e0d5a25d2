//! The page of a win-rate run: each policy's win rate with its interval,
//! or for a sweep every policy's rate against the swept option.

use super::build::{Filmstrip, ViewOptions, pack_games};
use super::charts::win_rate_chart;
use super::page::{Browser, Page, place_of};
use crate::arena::winrate::{
    CHEATS_NOTE, EXACT_POLICY, PairedComparison, PolicyFile, PolicyRate, SweepPoint, SweepReport,
    WinRate, WinRateReport, deal, play_out_watched, policy_seed, read_win_rate_run,
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
/// not repeat its play).
///
/// # Errors
/// The run's rules or deal do not read, or a policy cannot be built or
/// cannot play a deal.
fn deal_browser<G: Stochastic + Notation>(
    run: &WinRateReport,
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
        let logged = run.won[policy][k as usize];
        if logged != end.won {
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
    let (layouts, packed) = pack_games(framed)?;
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

/// The page of the win-rate run or sweep in `dir`, read as `norn merge`
/// reads a run (every deal's result checked against the summary).
///
/// # Errors
/// If the run's files do not read, or are of another game.
pub fn win_rate_page<G: Stochastic + Notation>(
    dir: &Path,
    options: ViewOptions,
    replay: &ReplayedDeals<G>,
) -> Result<String, String> {
    let provenance_lines = |provenance: &Provenance| {
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
    };
    if let Some(sweep) = read_sweep::<G>(dir)? {
        let report = format!(
            "<p>Win rates of {} policies over {} deals at each value of <code>{}</code> (seed {}, rules <code>{}</code>), with 95% intervals.</p>\n<pre>{}</pre>\n{}",
            sweep.points[0].policies.len(),
            sweep.deals,
            escape_xml(&sweep.option),
            sweep.seed,
            escape_xml(&sweep.rules),
            escape_xml(&sweep.table()),
            provenance_lines(&sweep.provenance)
        );
        return Ok(Page {
            title: format!("{} win-rate sweep", G::NAME),
            source: dir.display().to_string(),
            report,
            charts: vec![(format!("Win rate against {}", sweep.option), sweep.svg())],
            browser: None,
            version: options.version,
        }
        .html());
    }
    let run = read_win_rate_run::<G>(dir)?;
    let mut report = format!(
        "<p>Win rates over {} deals (seed {}, rules <code>{}</code>), with 95% Wilson intervals.</p>\n<pre>{}</pre>\n",
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
    let (browser, notes) = deal_browser(&run, replay)?;
    report.push_str(&replay_lines(&run, replay.count, browser.is_some(), &notes));
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
