//! `norn winrate fenrir-cards`: win rates of Fetters of Fenrir policies on
//! the same seeded deals (or on one deal given as text), at one track length
//! or over a range of them.
//!
//! The open-hand reference reads every hand; every report marks it.

use super::{CliResult, WinrateArgs, print_json, print_rates, progress_bar, search_budget};
use crate::arena::plot::{SweepSeries, difficulty_curve_svg, sweep_svg};
use crate::arena::winrate::{
    AgentPolicy, DealPlayer, DealPolicy, WinRate, WinRateRun, deal, estimate_win_rate,
};
use crate::core::{Game, Notation};
use crate::games::fenrir_cards::{
    Deal, FenrirCards, FenrirCardsRules, build_policy, sees_hidden_cards,
};
use serde::Serialize;
use std::path::Path;

/// How tables mark a policy that sees hidden cards, and the note that says why.
const CHEATS_MARK: &str = " *";
const CHEATS_NOTE: &str =
    "* sees every hand: a reference that reads hidden cards, not a fair player";

/// One policy's result, with whether it reads hidden cards.
#[derive(Clone, Serialize)]
struct PolicyRate {
    #[serde(flatten)]
    rate: WinRate,
    sees_hidden_cards: bool,
}

#[derive(Serialize)]
struct Report {
    game: &'static str,
    rules: String,
    seed: u64,
    deals: u64,
    threads: usize,
    /// The deal every game was played on, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    deal: Option<String>,
    policies: Vec<PolicyRate>,
}

#[derive(Serialize)]
struct SweepPoint {
    track: u32,
    policies: Vec<PolicyRate>,
}

#[derive(Serialize)]
struct SweepReport {
    game: &'static str,
    /// The rules but for the track, which the sweep varies.
    rules: String,
    seed: u64,
    deals: u64,
    threads: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    deal: Option<String>,
    tracks: Vec<SweepPoint>,
}

pub(super) fn run(args: &WinrateArgs) -> CliResult {
    if args.turn_order.is_some() {
        return Err("--turn-order is an option of fenrir-path".into());
    }
    let rules = rules(args)?;
    for spec in &args.policies {
        build_policy(spec, 0).map_err(|error| error.to_string())?;
    }
    let deal = match &args.deal {
        Some(text) => Some(Deal::parse(text, &rules).map_err(|error| error.to_string())?),
        None => None,
    };
    match &args.sweep_track {
        None => single(args, rules, deal),
        Some(range) => {
            let tracks = track_range(range, args.track_step)?;
            sweep(args, rules, deal, &tracks)
        }
    }
}

/// The rules from `--rules`, `--players` and `--track` (an option given
/// twice is an error).
fn rules(args: &WinrateArgs) -> Result<FenrirCardsRules, String> {
    let mut parts: Vec<String> = args.rules.iter().cloned().collect();
    if let Some(players) = args.players {
        parts.push(format!("players={players}"));
    }
    if let Some(track) = args.track {
        if args.sweep_track.is_some() {
            return Err("give either --track or --sweep-track".into());
        }
        parts.push(format!("track={track}"));
    }
    parts
        .join(",")
        .parse()
        .map_err(|error: crate::core::ParseError| error.to_string())
}

/// The track lengths of `A..B` (both included) in steps of `step`, or of
/// about a tenth of the range.
fn track_range(text: &str, step: Option<u32>) -> Result<Vec<u32>, String> {
    let bad = |problem: &str| format!("invalid --sweep-track `{text}`: {problem}");
    let (low, high) = text
        .split_once("..")
        .ok_or_else(|| bad("write it as A..B, e.g. 10..84"))?;
    let low: u32 = low.trim().parse().map_err(|_| bad("A is not a number"))?;
    let high: u32 = high
        .trim()
        .trim_start_matches('=')
        .parse()
        .map_err(|_| bad("B is not a number"))?;
    if low == 0 || high < low {
        return Err(bad("the lengths must satisfy 1 <= A <= B"));
    }
    let step = match step {
        Some(0) => return Err("--track-step must be at least 1".into()),
        Some(step) => step,
        None => ((high - low) / 10).max(1),
    };
    // Each length is a full run over every deal: a sweep of more is a typo.
    const MAX_LENGTHS: u32 = 1000;
    if (high - low) / step + 1 > MAX_LENGTHS {
        return Err(bad(&format!(
            "more than {MAX_LENGTHS} track lengths; give a shorter range or a larger --track-step"
        )));
    }
    let mut tracks: Vec<u32> = (low..=high).step_by(step as usize).collect();
    if tracks.last() != Some(&high) {
        tracks.push(high);
    }
    Ok(tracks)
}

/// The policy of a spec, playing the given deal every time if there is one.
fn policy(
    spec: &str,
    fixed: Option<&FenrirCards>,
) -> Result<Box<dyn DealPolicy<FenrirCards>>, String> {
    let agents =
        AgentPolicy::from_spec(spec.trim(), build_policy).map_err(|error| error.to_string())?;
    Ok(match fixed {
        None => Box::new(agents),
        Some(state) => Box::new(FixedDeal {
            inner: Box::new(agents),
            state: state.clone(),
        }),
    })
}

/// A policy that plays one given deal whatever deal the estimator hands it:
/// the runs then measure a policy's own randomness on that deal.
struct FixedDeal {
    inner: Box<dyn DealPolicy<FenrirCards>>,
    state: FenrirCards,
}

impl DealPolicy<FenrirCards> for FixedDeal {
    fn spec(&self) -> &str {
        self.inner.spec()
    }

    fn player(&self) -> Box<dyn DealPlayer<FenrirCards>> {
        Box::new(FixedDealPlayer {
            inner: self.inner.player(),
            state: self.state.clone(),
        })
    }
}

struct FixedDealPlayer {
    inner: Box<dyn DealPlayer<FenrirCards>>,
    state: FenrirCards,
}

impl DealPlayer<FenrirCards> for FixedDealPlayer {
    fn play_deal(&mut self, _dealt: &FenrirCards, seed: u64) -> bool {
        self.inner.play_deal(&self.state, seed)
    }
}

/// Every policy's win rate under `rules`, with the deals each won.
fn estimate_all(
    args: &WinrateArgs,
    rules: &FenrirCardsRules,
    deal: Option<Deal>,
    bar: &indicatif::ProgressBar,
) -> Result<Vec<(PolicyRate, Vec<bool>)>, String> {
    let fixed = deal.map(|deal| FenrirCards::from_deal(deal, *rules));
    let run = WinRateRun {
        deals: args.deals,
        master_seed: args.seed,
        threads: args.threads,
    };
    let mut results = Vec::new();
    for spec in &args.policies {
        let policy = policy(spec, fixed.as_ref())?;
        bar.set_prefix(spec.clone());
        let estimate = estimate_win_rate(rules, policy.as_ref(), run, &|| bar.inc(1))
            .map_err(|error| error.to_string())?;
        results.push((
            PolicyRate {
                rate: estimate.rate,
                sees_hidden_cards: sees_hidden_cards(spec),
            },
            estimate.won,
        ));
    }
    Ok(results)
}

/// The name of a policy in tables, marked if it cheats.
fn label(rate: &PolicyRate) -> String {
    if rate.sees_hidden_cards {
        format!("{}{CHEATS_MARK}", rate.rate.policy)
    } else {
        rate.rate.policy.clone()
    }
}

/// The name of a policy in plots, marked if it cheats.
fn plot_label(rate: &PolicyRate) -> String {
    if rate.sees_hidden_cards {
        format!("{} (cheats)", rate.rate.policy)
    } else {
        rate.rate.policy.clone()
    }
}

fn single(args: &WinrateArgs, rules: FenrirCardsRules, deal: Option<Deal>) -> CliResult {
    let bar = progress_bar(args.deals * args.policies.len() as u64, "");
    let results = estimate_all(args, &rules, deal, &bar)?;
    bar.finish_and_clear();
    let report = Report {
        game: FenrirCards::NAME,
        rules: rules.to_string(),
        seed: args.seed,
        deals: args.deals,
        threads: args.threads,
        deal: deal.map(|deal| deal.text(&rules)),
        policies: results.iter().map(|(rate, _)| rate.clone()).collect(),
    };
    if let Some(dir) = &args.out {
        let won: Vec<&[bool]> = results.iter().map(|(_, won)| won.as_slice()).collect();
        write_single(dir, &rules, &report, &won)?;
    }
    if args.json {
        return print_json(&report);
    }
    match &report.deal {
        Some(text) => println!(
            "{} games of {} on one deal (seed {}, {})\ndeal {text}",
            report.deals, report.game, report.seed, report.rules
        ),
        None => println!(
            "{} deals of {} (seed {}, {})",
            report.deals, report.game, report.seed, report.rules
        ),
    }
    print_rates(
        40,
        report
            .policies
            .iter()
            .map(|policy| (label(policy), &policy.rate)),
    );
    cheat_note(&report.policies);
    if let Some(dir) = &args.out {
        println!(
            "wrote summary.json, deals.csv and winrate.svg to {}",
            dir.display()
        );
    }
    Ok(())
}

fn cheat_note(policies: &[PolicyRate]) {
    if policies.iter().any(|policy| policy.sees_hidden_cards) {
        println!("{CHEATS_NOTE}");
    }
}

fn write_file(dir: &Path, name: &str, contents: &str) -> CliResult {
    std::fs::create_dir_all(dir)
        .map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, contents)
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// DIR/summary.json, DIR/deals.csv and DIR/winrate.svg, as for Fenrir's Path.
fn write_single(
    dir: &Path,
    rules: &FenrirCardsRules,
    report: &Report,
    won: &[&[bool]],
) -> CliResult {
    let json = serde_json::to_string_pretty(report).map_err(|error| error.to_string())?;
    write_file(dir, "summary.json", &(json + "\n"))?;
    let mut csv = String::from("deal_index,deal");
    for policy in &report.policies {
        csv.push(',');
        csv.push_str(&policy.rate.policy.replace(',', ";"));
    }
    csv.push('\n');
    for index in 0..report.deals {
        let text = match &report.deal {
            Some(text) => text.clone(),
            None => {
                let dealt: FenrirCards = deal(rules, report.seed, index);
                dealt.position_text()
            }
        };
        // Deal texts hold commas: quote them.
        csv.push_str(&format!("{index},\"{text}\""));
        for policy in won {
            csv.push_str(if policy[index as usize] { ",1" } else { ",0" });
        }
        csv.push('\n');
    }
    write_file(dir, "deals.csv", &csv)?;
    let (curve, references): (Vec<&PolicyRate>, Vec<&PolicyRate>) =
        report.policies.iter().partition(|policy| {
            !policy.sees_hidden_cards && search_budget(&policy.rate.policy).is_some()
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
        "{}: win rate over {} deals ({} players, track {})",
        report.game, report.deals, rules.players, rules.track
    );
    write_file(
        dir,
        "winrate.svg",
        &difficulty_curve_svg(&title, &curve, &references),
    )
}

fn sweep(
    args: &WinrateArgs,
    rules: FenrirCardsRules,
    deal: Option<Deal>,
    tracks: &[u32],
) -> CliResult {
    let bar = progress_bar(args.deals * (args.policies.len() * tracks.len()) as u64, "");
    let mut points = Vec::new();
    for &track in tracks {
        let rules = FenrirCardsRules { track, ..rules };
        let results = estimate_all(args, &rules, deal, &bar)?;
        points.push(SweepPoint {
            track,
            policies: results.into_iter().map(|(rate, _)| rate).collect(),
        });
    }
    bar.finish_and_clear();
    let base_rules: Vec<String> = rules
        .to_string()
        .split(',')
        .filter(|option| !option.starts_with("track="))
        .map(str::to_string)
        .collect();
    let report = SweepReport {
        game: FenrirCards::NAME,
        rules: base_rules.join(","),
        seed: args.seed,
        deals: args.deals,
        threads: args.threads,
        deal: deal.map(|deal| deal.text(&rules)),
        tracks: points,
    };
    let series: Vec<SweepSeries> = args
        .policies
        .iter()
        .enumerate()
        .map(|(index, spec)| SweepSeries {
            label: plot_label(&report.tracks[0].policies[index]),
            dashed: sees_hidden_cards(spec),
            points: report
                .tracks
                .iter()
                .map(|point| (point.track as f64, point.policies[index].rate.clone()))
                .collect(),
        })
        .collect();
    let title = format!(
        "{}: win rate against track length ({} players, {} {} each)",
        report.game,
        rules.players,
        report.deals,
        if report.deal.is_some() {
            "games"
        } else {
            "deals"
        }
    );
    let svg = sweep_svg(
        &title,
        "track length (spaces from the wolf's start to Odin)",
        &series,
    );
    let svg_path = match &args.out {
        Some(dir) => {
            let json = serde_json::to_string_pretty(&report).map_err(|error| error.to_string())?;
            write_file(dir, "sweep.json", &(json + "\n"))?;
            write_file(dir, "sweep.csv", &sweep_csv(&report))?;
            write_file(dir, "sweep.svg", &svg)?;
            dir.join("sweep.svg")
        }
        None => {
            let path = Path::new("fenrir-cards-sweep.svg");
            std::fs::write(path, &svg)
                .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
            path.to_path_buf()
        }
    };
    if args.json {
        return print_json(&report);
    }
    println!(
        "{} of {} per track length (seed {}, {})",
        match &report.deal {
            Some(text) => format!("{} games on the deal {text}", report.deals),
            None => format!("{} deals", report.deals),
        },
        report.game,
        report.seed,
        report.rules
    );
    print!("{:>6}", "track");
    for index in 0..args.policies.len() {
        print!(
            "  {:>26}",
            truncate(&label(&report.tracks[0].policies[index]), 26)
        );
    }
    println!();
    for point in &report.tracks {
        print!("{:>6}", point.track);
        for policy in &point.policies {
            let rate = &policy.rate;
            print!(
                "  {:>7.2}% ({:>6.2}-{:>6.2}%)",
                100.0 * rate.win_rate,
                100.0 * rate.ci_low,
                100.0 * rate.ci_high
            );
        }
        println!();
    }
    cheat_note(&report.tracks[0].policies);
    println!("wrote the plot to {}", svg_path.display());
    Ok(())
}

/// One line per track length and policy.
fn sweep_csv(report: &SweepReport) -> String {
    let mut csv =
        String::from("track,policy,sees_hidden_cards,deals,wins,win_rate,ci_low,ci_high\n");
    for point in &report.tracks {
        for policy in &point.policies {
            let rate = &policy.rate;
            csv.push_str(&format!(
                "{},{},{},{},{},{},{},{}\n",
                point.track,
                rate.policy.replace(',', ";"),
                policy.sees_hidden_cards,
                rate.deals,
                rate.wins,
                rate.win_rate,
                rate.ci_low,
                rate.ci_high
            ));
        }
    }
    csv
}

/// `text` cut to `width` characters, with an ellipsis if cut.
fn truncate(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let kept: String = text.chars().take(width - 1).collect();
        format!("{kept}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn track_ranges_cover_both_ends() {
        assert_eq!(
            track_range("10..84", None).unwrap(),
            vec![10, 17, 24, 31, 38, 45, 52, 59, 66, 73, 80, 84]
        );
        assert_eq!(track_range("10..=30", Some(10)).unwrap(), vec![10, 20, 30]);
        assert_eq!(track_range("5..5", None).unwrap(), vec![5]);
        for (text, problem) in [
            ("10-84", "A..B"),
            ("0..5", "1 <= A"),
            ("9..3", "1 <= A"),
            ("x..3", "A is not"),
        ] {
            let error = track_range(text, None).unwrap_err();
            assert!(error.contains(problem), "{text}: {error}");
        }
        assert!(track_range("1..9", Some(0)).is_err());
    }
}
