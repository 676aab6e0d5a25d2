//! The run's plots as SVG files beside `report.md`, which links them: the
//! losses by training step, the networks' strength (their ratings, or on a
//! cooperative game their win rates) by generation and by the run's
//! seconds of work, and the self-play games per second of each
//! generation.

use super::evaluate::{RATINGS_FILE, Ratings};
use super::store::{CheckpointRecord, LOSSES};
use super::winrates::{WIN_RATES_FILE, WinRates};
use crate::arena::LogReader;
use crate::arena::winrate::{ValuePoint, ValueSeries, value_lines_svg};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::path::Path;

/// The losses by training step.
pub const LOSSES_PLOT: &str = "plot-losses.svg";
/// The networks' ratings or win rates by generation.
pub const STRENGTH_PLOT: &str = "plot-strength.svg";
/// The networks' ratings or win rates by the run's seconds of work.
pub const STRENGTH_TIME_PLOT: &str = "plot-strength-time.svg";
/// The self-play games per second of each generation.
pub const SPEED_PLOT: &str = "plot-speed.svg";
/// The most points of a line of losses: longer runs are averaged over
/// runs of consecutive steps, so that the file stays small.
const MOST_LOSS_POINTS: usize = 400;

/// What the run's strength is measured by.
pub(super) enum Strength {
    /// Ratings on a Bradley-Terry scale.
    Ratings(Ratings),
    /// Win rates on seeded deals.
    WinRates(WinRates),
}

impl Strength {
    /// The strength the run in `dir` measured so far: its `ratings.json`,
    /// else its `winrates.json`, if either is there.
    ///
    /// # Errors
    /// A file that does not read.
    pub(super) fn read(dir: &Path) -> Result<Option<Strength>, String> {
        if let Some(ratings) = read_if_there(&dir.join(RATINGS_FILE))? {
            return Ok(Some(Strength::Ratings(ratings)));
        }
        Ok(read_if_there(&dir.join(WIN_RATES_FILE))?.map(Strength::WinRates))
    }
}

/// The JSON file at `path`, if there is one.
fn read_if_there<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|error| format!("{} does not read: {error}", path.display())),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(format!("{}: {error}", path.display())),
    }
}

/// A plot of the run.
pub(super) struct Plot {
    /// Its file in the run directory.
    pub file: &'static str,
    /// What it shows.
    pub caption: &'static str,
    /// The drawing.
    pub svg: String,
}

/// One step's losses in `losses.jsonl`, the fields a plot needs.
#[derive(Deserialize)]
struct StepLosses {
    step: u64,
    policy: f64,
    value: f64,
    total: f64,
}

/// Writes the plots of the run in `dir` there ([`plots`]); returns them.
///
/// # Errors
/// As [`plots`], and a plot that cannot be written.
pub(super) fn write_plots(
    dir: &Path,
    records: &[CheckpointRecord],
    strength: Option<&Strength>,
) -> Result<Vec<Plot>, String> {
    let plots = plots(dir, records, strength)?;
    for plot in &plots {
        let path = dir.join(plot.file);
        std::fs::write(&path, &plot.svg)
            .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
    }
    Ok(plots)
}

/// The plots of the run in `dir` from its losses log, the checkpoints'
/// records (in order) and the strength measured, if any: each as soon as
/// it has a point.
///
/// # Errors
/// A losses log that does not read.
pub(super) fn plots(
    dir: &Path,
    records: &[CheckpointRecord],
    strength: Option<&Strength>,
) -> Result<Vec<Plot>, String> {
    let mut written = Vec::new();
    let mut write = |file: &'static str, caption: &'static str, svg: String| {
        written.push(Plot { file, caption, svg });
        Ok::<(), String>(())
    };
    let losses = loss_series(&dir.join(LOSSES))?;
    if losses.iter().any(|line| !line.points.is_empty()) {
        write(
            LOSSES_PLOT,
            "losses by training step",
            value_lines_svg("Losses", "training step", "loss", &losses),
        )?;
    }
    if let Some(strength) = strength {
        let (title, axis) = match strength {
            Strength::Ratings(_) => ("Ratings", "Elo (95% interval)"),
            Strength::WinRates(_) => ("Win rates", "win rate, % (95% interval)"),
        };
        let by_generation = strength_series(strength, |generation| Some(generation as f64));
        write(
            STRENGTH_PLOT,
            "strength by generation",
            value_lines_svg(title, "generation", axis, &by_generation),
        )?;
        let by_time = strength_series(strength, |generation| {
            records
                .iter()
                .find(|record| record.generation == generation)
                .map(|record| record.seconds)
        });
        write(
            STRENGTH_TIME_PLOT,
            "strength by seconds of work",
            value_lines_svg(title, "seconds of work", axis, &by_time),
        )?;
    }
    let speed: Vec<ValuePoint> = records
        .windows(2)
        .filter_map(|pair| {
            let seconds = pair[1].seconds - pair[0].seconds;
            (seconds > 0.0).then(|| {
                let games = (pair[1].games - pair[0].games) as f64;
                (pair[1].generation as f64, games / seconds, None)
            })
        })
        .collect();
    if !speed.is_empty() {
        let series = [ValueSeries {
            label: "self-play".into(),
            dashed: false,
            points: speed,
        }];
        write(
            SPEED_PLOT,
            "self-play games per second by generation",
            value_lines_svg("Self-play speed", "generation", "games per second", &series),
        )?;
    }
    Ok(written)
}

/// The policy, value and total losses of the log at `path`, averaged over
/// runs of consecutive steps when there are many.
fn loss_series(path: &Path) -> Result<Vec<ValueSeries>, String> {
    let unreadable = |error: String| format!("{}: {error}", path.display());
    let mut log = LogReader::open(path).map_err(|error| unreadable(error.to_string()))?;
    let mut steps = Vec::new();
    while let Some(read) = log
        .next_line()
        .map_err(|error| unreadable(error.to_string()))?
    {
        let line: StepLosses = read
            .text()
            .and_then(|text| serde_json::from_str(text).map_err(|error| error.to_string()))
            .map_err(|error| unreadable(format!("line {}: {error}", read.number)))?;
        steps.push(line);
    }
    let run = steps.len().div_ceil(MOST_LOSS_POINTS).max(1);
    let mean = |chunk: &[StepLosses], of: fn(&StepLosses) -> f64| {
        chunk.iter().map(of).sum::<f64>() / chunk.len() as f64
    };
    let line = |label: &str, of: fn(&StepLosses) -> f64| ValueSeries {
        label: label.to_string(),
        dashed: false,
        points: steps
            .chunks(run)
            .map(|chunk| (mean(chunk, |line| line.step as f64), mean(chunk, of), None))
            .collect(),
    };
    Ok(vec![
        line("total", |line| line.total),
        line("policy", |line| line.policy),
        line("value", |line| line.value),
    ])
}

/// An agent's strength: its name, its generation if a network's, its value
/// and interval.
type Measured = (String, Option<u64>, f64, (f64, f64));

/// The networks' strength at the places `x_of` gives their generations
/// (those it places), with their intervals, and each baseline's as a
/// dashed level line across them.
fn strength_series(strength: &Strength, x_of: impl Fn(u64) -> Option<f64>) -> Vec<ValueSeries> {
    let measured: Vec<Measured> = match strength {
        Strength::Ratings(ratings) => ratings
            .agents
            .iter()
            .map(|rating| {
                let generation = rating
                    .agent
                    .strip_prefix("checkpoint-")
                    .and_then(|number| number.parse().ok());
                (
                    rating.agent.clone(),
                    generation,
                    rating.elo,
                    (rating.low, rating.high),
                )
            })
            .collect(),
        Strength::WinRates(rates) => rates
            .generations
            .iter()
            .map(|generation| (Some(generation.generation), &generation.rate))
            .chain(rates.baselines.iter().map(|rate| (None, rate)))
            .map(|(generation, rate)| {
                (
                    rate.policy.clone(),
                    generation,
                    100.0 * rate.win_rate,
                    (100.0 * rate.ci_low, 100.0 * rate.ci_high),
                )
            })
            .collect(),
    };
    let networks: Vec<ValuePoint> = measured
        .iter()
        .filter_map(|(_, generation, value, interval)| {
            Some((x_of((*generation)?)?, *value, Some(*interval)))
        })
        .collect();
    let span = networks
        .iter()
        .map(|&(x, _, _)| x)
        .fold(None, |span: Option<(f64, f64)>, x| {
            Some(span.map_or((x, x), |(low, high)| (low.min(x), high.max(x))))
        });
    let mut series = vec![ValueSeries {
        label: "networks".into(),
        dashed: false,
        points: networks,
    }];
    if let Some((first, last)) = span {
        series.extend(
            measured
                .iter()
                .filter(|(_, generation, _, _)| generation.is_none())
                .map(|(name, _, value, _)| ValueSeries {
                    label: name.clone(),
                    dashed: true,
                    points: vec![(first, *value, None), (last, *value, None)],
                }),
        );
    }
    series
}
