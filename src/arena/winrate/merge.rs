//! Win-rate runs split into shards (`norn winrate --shard I/N --out DIR`)
//! and merged back: each shard's directory holds its `summary.json` and
//! `deals.csv`, and the merge gives the report of the whole run, with the
//! totals and intervals a single run gives (deal `i` is dealt and played
//! from seeds derived from the master seed and `i` alone).

use super::estimate::WinRate;
use super::experiment::{PolicyRate, WinRateReport};
use crate::arena::playing::{Build, CONFIG_FILE, Provenance, RunKind, Shard, ShardProvenance};
use crate::core::{Notation, Stochastic};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// What a merge reads of a run's `summary.json`.
#[derive(Deserialize)]
struct SummaryFile {
    game: String,
    rules: String,
    seed: u64,
    deals: u64,
    threads: usize,
    #[serde(default)]
    deal: Option<String>,
    #[serde(default)]
    shard: Option<String>,
    policies: Vec<PolicyFile>,
    #[serde(flatten)]
    provenance: Provenance,
}

/// One policy's counts as a win-rate run's summary files store them.
#[derive(Deserialize)]
pub(crate) struct PolicyFile {
    pub(crate) policy: String,
    pub(crate) deals: u64,
    pub(crate) wins: u64,
    pub(crate) seconds: f64,
    pub(crate) sees_hidden_information: bool,
}

const SUMMARY_FILE: &str = "summary.json";
const DEALS_FILE: &str = "deals.csv";

/// Whether `dir` holds a win-rate run (its `deals.csv`, or a
/// `config.json` that says so for a run not yet finished) rather than a
/// tournament.
pub fn is_win_rate_run(dir: &Path) -> bool {
    #[derive(Deserialize)]
    struct Kind {
        run: Option<RunKind>,
    }
    dir.join(DEALS_FILE).is_file()
        || std::fs::read_to_string(dir.join(CONFIG_FILE))
            .ok()
            .and_then(|text| serde_json::from_str::<Kind>(&text).ok())
            .is_some_and(|kind| kind.run == Some(RunKind::WinRate))
}

fn read_summary(dir: &Path) -> Result<SummaryFile, String> {
    let path = dir.join(SUMMARY_FILE);
    let text = std::fs::read_to_string(&path).map_err(|error| {
        if error.kind() == std::io::ErrorKind::NotFound {
            format!(
                "{} has no {SUMMARY_FILE}: the run has not finished; run its command again to resume it",
                dir.display()
            )
        } else {
            format!("cannot read {}: {error}", path.display())
        }
    })?;
    serde_json::from_str(&text).map_err(|error| {
        format!(
            "{} is not the summary of a win-rate run: {error}",
            path.display()
        )
    })
}

/// The name of the game of the win-rate run in `dir`.
///
/// # Errors
/// If its `summary.json` cannot be read.
pub fn win_rate_run_game(dir: &Path) -> Result<String, String> {
    read_summary(dir).map(|summary| summary.game)
}

/// Reads the win-rate run (whole or a shard) in `dir`: its summary, and
/// from `deals.csv` whether each policy won each of its deals. Every row
/// must be the shard's next deal, as the run's seed deals it, and the wins
/// must add up to the summary's.
///
/// # Errors
/// If a file cannot be read, is of another game, or disagrees with the run.
pub fn read_win_rate_run<G: Stochastic + Notation>(dir: &Path) -> Result<WinRateReport, String> {
    let summary = read_summary(dir)?;
    let summary_path = dir.join(SUMMARY_FILE);
    let bad_summary = |problem: String| format!("{}: {problem}", summary_path.display());
    if summary.game != G::NAME {
        return Err(bad_summary(format!(
            "a run of {}, not {}",
            summary.game,
            G::NAME
        )));
    }
    let rules: G::Rules = summary
        .rules
        .parse()
        .map_err(|error: crate::core::ParseError| bad_summary(error.to_string()))?;
    let shard = match &summary.shard {
        Some(text) => Shard::parse(text).map_err(|error| bad_summary(error.to_string()))?,
        None => Shard::ALL,
    };
    let shard_deals = shard.share(summary.deals);
    let mut report = WinRateReport {
        game: G::NAME,
        rules: rules.to_string(),
        seed: summary.seed,
        deals: summary.deals,
        threads: summary.threads,
        deal: summary.deal,
        shard,
        policies: summary
            .policies
            .iter()
            .map(|policy| PolicyRate {
                rate: WinRate::new(&policy.policy, policy.wins, policy.deals, policy.seconds),
                sees_hidden_information: policy.sees_hidden_information,
            })
            .collect(),
        provenance: summary.provenance,
        shard_provenance: Vec::new(),
        comparisons: Vec::new(),
        won: vec![Vec::new(); summary.policies.len()],
    };
    let deals_path = dir.join(DEALS_FILE);
    let text = std::fs::read_to_string(&deals_path)
        .map_err(|error| format!("cannot read {}: {error}", deals_path.display()))?;
    let mut lines = text.lines();
    let header = report.deals_header();
    if lines.next() != Some(header.trim_end()) {
        return Err(format!(
            "{}: the header is not `{}` (the policies of {})",
            deals_path.display(),
            header.trim_end(),
            summary_path.display()
        ));
    }
    let mut rows = 0;
    for (k, line) in lines.enumerate() {
        let number = k + 2;
        let bad_row =
            |problem: String| format!("{} line {number}: {problem}", deals_path.display());
        let (index, text, marks) = parse_row(line, report.policies.len()).ok_or_else(|| {
            bad_row(format!(
                "not `index,\"deal\"` and a 0 or 1 for each of the {} policies",
                report.policies.len()
            ))
        })?;
        let expected = shard.nth(k as u64);
        if k as u64 >= shard_deals || index != expected {
            return Err(bad_row(format!(
                "deal {index}, where shard {shard} of {} deals has {}",
                report.deals,
                if k as u64 >= shard_deals {
                    "no more deals".to_string()
                } else {
                    format!("deal {expected}")
                }
            )));
        }
        if text != report.deal_text::<G>(&rules, index) {
            return Err(bad_row(format!(
                "deal {index} is not the deal seed {} gives",
                report.seed
            )));
        }
        for (won, mark) in report.won.iter_mut().zip(marks) {
            won.push(mark);
        }
        rows += 1;
    }
    if rows != shard_deals {
        return Err(format!(
            "{} holds {rows} deals, shard {shard} of {} deals has {shard_deals}; run the shard again",
            deals_path.display(),
            report.deals
        ));
    }
    for (policy, won) in report.policies.iter().zip(&report.won) {
        let wins = won.iter().filter(|&&won| won).count() as u64;
        if wins != policy.rate.wins || policy.rate.deals != shard_deals {
            return Err(format!(
                "{} says {} won {} of {} deals, {} {wins} of {shard_deals}",
                summary_path.display(),
                policy.rate.policy,
                policy.rate.wins,
                policy.rate.deals,
                deals_path.display()
            ));
        }
    }
    Ok(report.compare_pairs())
}

/// A row of `deals.csv`: `index,"deal"` (quotes in the deal doubled), then
/// `0` or `1` for each of `policies` policies.
fn parse_row(line: &str, policies: usize) -> Option<(u64, String, Vec<bool>)> {
    let (index, rest) = line.split_once(',')?;
    let quoted = rest.strip_prefix('"')?;
    let mut text = String::new();
    let mut chars = quoted.char_indices();
    let end = loop {
        let (at, c) = chars.next()?;
        if c != '"' {
            text.push(c);
        } else if quoted[at + 1..].starts_with('"') {
            text.push('"');
            chars.next();
        } else {
            break at + 1;
        }
    };
    let marks = quoted[end..]
        .strip_prefix(',')?
        .split(',')
        .map(|mark| match mark {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        })
        .collect::<Option<Vec<bool>>>()?;
    (marks.len() == policies).then_some((index.parse().ok()?, text, marks))
}

/// What makes two reports parts of different runs, if anything.
fn difference(first: &WinRateReport, other: &WinRateReport) -> Option<&'static str> {
    let specs = |report: &WinRateReport| -> Vec<(String, bool)> {
        report
            .policies
            .iter()
            .map(|policy| (policy.rate.policy.clone(), policy.sees_hidden_information))
            .collect()
    };
    if first.game != other.game {
        Some("another game")
    } else if first.rules != other.rules {
        Some("other rules")
    } else if first.seed != other.seed {
        Some("another seed")
    } else if first.deals != other.deals {
        Some("another number of deals")
    } else if first.deal != other.deal {
        Some("another given deal")
    } else if specs(first) != specs(other) {
        Some("other policies")
    } else if first.shard.count != other.shard.count {
        Some("another number of shards")
    } else {
        None
    }
}

/// Combines the shards of one win-rate run into the report of the whole
/// run: every shard of the split exactly once. Each policy's wins and
/// seconds are the shards' sums, so the rates and intervals are the ones a
/// single run gives; the thread count is the first shard's.
///
/// # Errors
/// If the parts are of different runs, a shard is given twice or missing.
pub fn merge_win_rate_reports(parts: &[WinRateReport]) -> Result<WinRateReport, String> {
    let first = parts.first().ok_or("nothing to merge")?;
    let count = first.shard.count;
    let mut shards: Vec<Option<&WinRateReport>> = vec![None; count];
    for part in parts {
        if let Some(problem) = difference(first, part) {
            return Err(format!(
                "shard {} is of a different run than shard {} ({problem})",
                part.shard, first.shard
            ));
        }
        if shards[part.shard.index].replace(part).is_some() {
            return Err(format!("shard {} is given twice", part.shard));
        }
    }
    Shard::require_all(&shards.iter().map(Option::is_some).collect::<Vec<_>>())?;
    let shards: Vec<&WinRateReport> = shards.into_iter().flatten().collect();
    let policies = first
        .policies
        .iter()
        .enumerate()
        .map(|(p, policy)| {
            let wins = shards.iter().map(|part| part.policies[p].rate.wins).sum();
            let seconds = shards
                .iter()
                .map(|part| part.policies[p].rate.seconds)
                .sum();
            PolicyRate {
                rate: WinRate::new(&policy.rate.policy, wins, first.deals, seconds),
                sees_hidden_information: policy.sees_hidden_information,
            }
        })
        .collect();
    let won = (0..first.policies.len())
        .map(|p| {
            (0..first.deals)
                .map(|index| {
                    shards[(index % count as u64) as usize].won[p][(index / count as u64) as usize]
                })
                .collect()
        })
        .collect();
    Ok(WinRateReport {
        shard: Shard::ALL,
        policies,
        won,
        ..first.clone()
    }
    .compare_pairs())
}

/// Reads the shard directories `dirs` of one win-rate run
/// ([`read_win_rate_run`]) and merges them ([`merge_win_rate_reports`]).
/// Shards that different builds played are merged only with
/// `force_resume`, and the merged report then lists every shard's
/// provenance.
///
/// # Errors
/// As those two, and for shards of different builds without
/// `force_resume`.
pub fn merge_win_rate_runs<G: Stochastic + Notation>(
    dirs: &[PathBuf],
    force_resume: bool,
) -> Result<WinRateReport, String> {
    let parts = dirs
        .iter()
        .map(|dir| read_win_rate_run::<G>(dir))
        .collect::<Result<Vec<_>, String>>()?;
    let mut merged = merge_win_rate_reports(&parts)?;
    if let Some((part, dir)) = parts
        .iter()
        .zip(dirs)
        .find(|(part, _)| part.provenance.build != parts[0].provenance.build)
    {
        if !force_resume {
            let name = |report: &WinRateReport| Build::describe(report.provenance.build.as_ref());
            return Err(format!(
                "{} was played by {}, {} by {}; norn merge --force-resume merges shards of different builds knowingly",
                dir.display(),
                name(part),
                dirs[0].display(),
                name(&parts[0])
            ));
        }
        let mut shards: Vec<ShardProvenance> = parts
            .iter()
            .map(|part| ShardProvenance {
                shard: part.shard,
                provenance: part.provenance.clone(),
            })
            .collect();
        shards.sort_by_key(|shard| shard.shard.index);
        merged.shard_provenance = shards;
    }
    Ok(merged)
}
