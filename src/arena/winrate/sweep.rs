//! Sweeps: a win-rate experiment repeated over a range of one numeric rules
//! option, with its table, plot and files (`sweep.json`, `sweep.csv`,
//! `sweep.svg`).

use super::experiment::{CHEATS_NOTE, PolicyRate, WinRateReport, plot_label, write_file};
use super::paired::PairedComparison;
use super::plot::{SweepSeries, sweep_svg};
use crate::arena::playing::Provenance;
use crate::core::{ParseError, escape_control};
use serde::Serialize;
use std::path::Path;

/// A range of values of one numeric rules option, e.g. `track=10..84`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// The rules option swept, by its key (e.g. `track`).
    pub option: String,
    /// The values it takes, ascending, both ends of the range included.
    pub values: Vec<u64>,
}

/// The most values a sweep may have: each is a full run over every deal, so
/// a sweep of more is a typo.
pub const MAX_SWEEP_VALUES: u64 = 1000;

impl Sweep {
    /// Reads `OPTION=A..B` (both ends included, `A..=B` too), in steps of
    /// `step` or of about a tenth of the range.
    ///
    /// # Errors
    /// If the text is not of that form, `A > B`, the step is 0 or the range
    /// has more than [`MAX_SWEEP_VALUES`] values.
    pub fn parse(text: &str, step: Option<u64>) -> Result<Sweep, ParseError> {
        let bad = |problem: String| ParseError::new("sweep", text, problem);
        let (option, range) = text
            .split_once('=')
            .ok_or_else(|| bad("write it as OPTION=A..B, e.g. track=10..84".into()))?;
        let (low, high) = range
            .split_once("..")
            .ok_or_else(|| bad("write the range as A..B, e.g. track=10..84".into()))?;
        let low: u64 = low
            .trim()
            .parse()
            .map_err(|_| bad("A is not a whole number".into()))?;
        let high: u64 = high
            .trim()
            .trim_start_matches('=')
            .parse()
            .map_err(|_| bad("B is not a whole number".into()))?;
        if high < low {
            return Err(bad("the range must satisfy A <= B".into()));
        }
        let step = match step {
            Some(0) => return Err(bad("the step must be at least 1".into())),
            Some(step) => step,
            None => ((high - low) / 10).max(1),
        };
        if (high - low) / step >= MAX_SWEEP_VALUES {
            return Err(bad(format!(
                "more than {MAX_SWEEP_VALUES} values; give a shorter range or a larger step"
            )));
        }
        let mut values: Vec<u64> = (low..=high).step_by(step as usize).collect();
        if values.last() != Some(&high) {
            values.push(high);
        }
        Ok(Sweep {
            option: option.trim().to_string(),
            values,
        })
    }

    /// The rules text of one point: `base` with the option set to `value`.
    pub fn rules_text(&self, base: &str, value: u64) -> String {
        let mut parts: Vec<&str> = base
            .split(',')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .collect();
        let setting = format!("{}={value}", self.option);
        parts.push(&setting);
        parts.join(",")
    }
}

/// One value of a sweep and every policy's result there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepPoint {
    /// The swept option's value.
    pub value: u64,
    /// Every policy's rate at that value, in the order they were given.
    pub policies: Vec<PolicyRate>,
    /// Every pair of policies compared deal by deal at that value
    /// ([`WinRateReport::comparisons`]); none with one policy.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comparisons: Vec<PairedComparison>,
}

/// The report of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepReport {
    /// The game's registry name.
    pub game: &'static str,
    /// The rules options given, without the swept one.
    pub rules: String,
    /// The swept option.
    pub option: String,
    /// The master seed: every value is played on the same deals.
    pub seed: u64,
    /// The deals played at each value.
    pub deals: u64,
    /// Deals played at the same time.
    pub threads: usize,
    /// The deal every game was played on, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deal: Option<String>,
    /// The build that played the deals and the policies' full
    /// configurations (the rules vary with the value).
    #[serde(flatten)]
    pub provenance: Provenance,
    /// One point per value, in the sweep's order.
    pub points: Vec<SweepPoint>,
}

impl SweepReport {
    /// A report from the runs at each value of `sweep`.
    pub fn new(base_rules: &str, sweep: &Sweep, runs: Vec<WinRateReport>) -> SweepReport {
        let first = &runs[0];
        SweepReport {
            game: first.game,
            rules: base_rules.to_string(),
            option: sweep.option.clone(),
            seed: first.seed,
            deals: first.deals,
            threads: first.threads,
            deal: first.deal.clone(),
            provenance: Provenance {
                rules_in_force: None,
                ..first.provenance.clone()
            },
            points: sweep
                .values
                .iter()
                .zip(runs)
                .map(|(&value, run)| SweepPoint {
                    value,
                    policies: run.policies,
                    comparisons: run.comparisons,
                })
                .collect(),
        }
    }

    /// The report as a table: one row per value, one column per policy.
    pub fn table(&self) -> String {
        let policies = &self.points[0].policies;
        let mut out = format!("{:>8}", self.option);
        for policy in policies {
            out.push_str(&format!(
                "  {:>26}",
                truncate(&escape_control(&policy.label()), 26)
            ));
        }
        out.push('\n');
        for point in &self.points {
            out.push_str(&format!("{:>8}", point.value));
            for policy in &point.policies {
                let rate = &policy.rate;
                out.push_str(&format!(
                    "  {:>7.2}% ({:>6.2}-{:>6.2}%)",
                    100.0 * rate.win_rate,
                    100.0 * rate.ci_low,
                    100.0 * rate.ci_high
                ));
            }
            out.push('\n');
        }
        if policies.iter().any(|policy| policy.sees_hidden_information) {
            out.push_str(CHEATS_NOTE);
            out.push('\n');
        }
        out
    }

    /// The rules options given, or `standard rules` when none were: how
    /// the texts name the rules.
    pub(crate) fn rules_or_standard(&self) -> &str {
        if self.rules.is_empty() {
            "standard rules"
        } else {
            &self.rules
        }
    }

    /// The plot of win rate against the swept option, one line per policy
    /// (dashed for references that cheat).
    pub fn svg(&self) -> String {
        let series: Vec<SweepSeries> = (0..self.points[0].policies.len())
            .map(|index| {
                let first = &self.points[0].policies[index];
                SweepSeries {
                    label: plot_label(first),
                    dashed: first.sees_hidden_information,
                    points: self
                        .points
                        .iter()
                        .map(|point| (point.value as f64, point.policies[index].rate.clone()))
                        .collect(),
                }
            })
            .collect();
        let title = format!(
            "{}: win rate against {} ({}, {} {} each)",
            self.game,
            self.option,
            self.rules_or_standard(),
            self.deals,
            if self.deal.is_some() {
                "games"
            } else {
                "deals"
            }
        );
        sweep_svg(&title, &self.option, &series)
    }

    /// One line per value and policy.
    pub fn csv(&self) -> String {
        let mut csv = format!(
            "{},policy,sees_hidden_information,deals,wins,win_rate,ci_low,ci_high\n",
            self.option
        );
        for point in &self.points {
            for policy in &point.policies {
                let rate = &policy.rate;
                csv.push_str(&format!(
                    "{},{},{},{},{},{},{},{}\n",
                    point.value,
                    rate.policy.replace(',', ";"),
                    policy.sees_hidden_information,
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

    /// Writes `sweep.json`, `sweep.csv` and `sweep.svg` to `dir`.
    ///
    /// # Errors
    /// If a file cannot be written.
    pub fn write_files(&self, dir: &Path) -> Result<(), String> {
        let json = serde_json::to_string_pretty(self).map_err(|error| error.to_string())?;
        write_file(dir, "sweep.json", &(json + "\n"))?;
        write_file(dir, "sweep.csv", &self.csv())?;
        write_file(dir, "sweep.svg", &self.svg())
    }
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
    fn sweeps_cover_both_ends() {
        let values = |text: &str, step| Sweep::parse(text, step).unwrap().values;
        assert_eq!(
            values("track=10..84", None),
            vec![10, 17, 24, 31, 38, 45, 52, 59, 66, 73, 80, 84]
        );
        assert_eq!(values("track=10..=30", Some(10)), vec![10, 20, 30]);
        assert_eq!(values("track=5..5", None), vec![5]);
        for (text, problem) in [
            ("10..84", "OPTION=A..B"),
            ("track=10-84", "A..B"),
            ("track=9..3", "A <= B"),
            ("track=x..3", "A is not"),
        ] {
            let error = Sweep::parse(text, None).unwrap_err().to_string();
            assert!(error.contains(problem), "{text}: {error}");
        }
        assert!(Sweep::parse("track=1..9", Some(0)).is_err());
        let too_many = Sweep::parse("track=1..100000", Some(1)).unwrap_err();
        assert!(
            too_many.to_string().contains("more than 1000"),
            "{too_many}"
        );
    }

    #[test]
    fn a_sweep_point_sets_its_option_after_the_given_ones() {
        let sweep = Sweep::parse("track=10..20", None).unwrap();
        assert_eq!(sweep.rules_text("players=2", 15), "players=2,track=15");
        assert_eq!(sweep.rules_text("", 15), "track=15");
    }
}
