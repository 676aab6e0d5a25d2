//! Progress of long runs on standard error: a bar on a terminal, and
//! otherwise (a log file, a batch job) a plain line every few seconds, so
//! that a run always shows it is alive.

use crate::arena::{GameLine, RunProgress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often a plain progress line is written, unless the environment
/// variable `NORN_PROGRESS_SECONDS` gives another interval.
const LINE_INTERVAL: Duration = Duration::from_secs(5);

fn line_interval() -> Duration {
    std::env::var("NORN_PROGRESS_SECONDS")
        .ok()
        .and_then(|text| text.parse::<f64>().ok())
        .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
        .unwrap_or(LINE_INTERVAL)
}

/// Counts done units of work (deals, games) and shows them.
pub(crate) struct Meter {
    bar: ProgressBar,
    lines: Option<PlainLines>,
}

/// The plain-line form of a [`Meter`], for output that is not a terminal.
struct PlainLines {
    unit: &'static str,
    total: AtomicU64,
    started: Instant,
    interval: Duration,
    /// The units done, when the last line was written, and the label of the
    /// work under way; one lock, so that the lines' counts only grow.
    state: Mutex<LineState>,
}

struct LineState {
    done: u64,
    written: Instant,
    label: String,
}

impl Meter {
    /// A meter of `total` units named `unit`; `template` is the bar's
    /// indicatif template.
    fn new(total: u64, unit: &'static str, template: &str) -> Meter {
        if !std::io::stderr().is_terminal() {
            let started = Instant::now();
            return Meter {
                bar: ProgressBar::hidden(),
                lines: Some(PlainLines {
                    unit,
                    total: AtomicU64::new(total),
                    started,
                    interval: line_interval(),
                    state: Mutex::new(LineState {
                        done: 0,
                        written: started,
                        label: String::new(),
                    }),
                }),
            };
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Meter { bar, lines: None }
    }

    pub(crate) fn set_length(&self, total: u64) {
        self.bar.set_length(total);
        if let Some(lines) = &self.lines {
            lines.total.store(total, Ordering::Relaxed);
        }
    }

    /// Labels the work under way (e.g. the policy being run).
    pub(crate) fn set_prefix(&self, prefix: String) {
        if let Some(lines) = &self.lines {
            lines.state.lock().expect("no writer panicked").label = prefix.clone();
        }
        self.bar.set_prefix(prefix);
    }

    pub(crate) fn inc(&self, units: u64) {
        self.bar.inc(units);
        let Some(lines) = &self.lines else { return };
        let mut state = lines.state.lock().expect("no writer panicked");
        state.done += units;
        if state.written.elapsed() >= lines.interval {
            state.written = Instant::now();
            let label = if state.label.is_empty() {
                String::new()
            } else {
                format!("{}: ", state.label)
            };
            eprintln!(
                "{label}{}/{} {}, {:.0} s elapsed",
                state.done,
                lines.total.load(Ordering::Relaxed),
                lines.unit,
                lines.started.elapsed().as_secs_f64()
            );
        }
    }

    pub(crate) fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
    }
}

/// A meter of `total` deals, labelled by its prefix (the policy being run).
pub(crate) fn deals_bar(total: u64, prefix: &str) -> Meter {
    let meter = Meter::new(
        total,
        "deals",
        "{prefix:>12} [{bar:30}] {pos}/{len} deals, {per_sec}, eta {eta}",
    );
    meter.set_prefix(prefix.to_string());
    meter
}

/// A meter of `total` units of a training generation's work (its
/// self-play games, its steps), labelled by its prefix.
pub(crate) fn generation_bar(total: u64, unit: &'static str, prefix: String) -> Meter {
    let meter = Meter::new(
        total,
        unit,
        "{prefix:>24} [{bar:30}] {pos}/{len}, {per_sec}, eta {eta}",
    );
    meter.set_prefix(prefix);
    meter
}

/// The progress of a tournament run, in games.
pub(crate) struct GamesBar {
    meter: Meter,
}

impl GamesBar {
    pub(crate) fn new() -> Self {
        GamesBar {
            meter: Meter::new(
                0,
                "games",
                "{bar:40} {pos}/{len} games, {elapsed} elapsed, ETA {eta}",
            ),
        }
    }
}

impl RunProgress for GamesBar {
    fn start(&self, games: usize) {
        self.meter.set_length(games as u64);
    }

    fn game_done(&self, _game: &GameLine) {
        self.meter.inc(1);
    }

    fn finish(&self) {
        self.meter.finish_and_clear();
    }
}
