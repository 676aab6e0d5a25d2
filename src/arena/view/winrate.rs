//! The page of a win-rate run: each policy's win rate with its interval,
//! or for a sweep every policy's rate against the swept option.

use super::build::ViewOptions;
use super::charts::win_rate_chart;
use super::page::Page;
use crate::arena::Provenance;
use crate::arena::winrate::{
    CHEATS_NOTE, PolicyFile, PolicyRate, SweepPoint, SweepReport, WinRate, read_win_rate_run,
};
use crate::core::{Notation, Stochastic, escape_xml};
use serde::Deserialize;
use std::path::Path;

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
    Ok(Page {
        title: format!("{} win-rate run", G::NAME),
        source: dir.display().to_string(),
        report,
        charts: vec![(
            "Win rate per policy (95% interval)".to_string(),
            win_rate_chart(&run.policies),
        )],
        browser: None,
        version: options.version,
    }
    .html())
}
