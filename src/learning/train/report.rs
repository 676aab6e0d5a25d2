//! `report.md`: a training run in a page: its settings, each
//! generation's games, samples, losses and time, and the ratings of the
//! generations evaluated (or, on a cooperative game, their win rates),
//! and links to the plots ([`super::plots`]).

use super::TrainRun;
use super::plots::{Strength, write_plots};
use super::store::CheckpointRecord;
use super::winrates::WinRates;
use std::fmt::Write as _;
use std::path::Path;

/// The report's file in the run directory.
pub const REPORT_FILE: &str = "report.md";

/// Writes `report.md` in `dir` from the run, its checkpoints' records (in
/// order) and its `ratings.json` or `winrates.json`, if any.
///
/// # Errors
/// A ratings or win-rates file that does not read, or a report that cannot
/// be written.
pub(super) fn write_report(
    dir: &Path,
    run: &TrainRun,
    records: &[CheckpointRecord],
) -> Result<(), String> {
    let strength = Strength::read(dir)?;
    let mut text = report_text(run, records, strength.as_ref());
    let plots = write_plots(dir, records, strength.as_ref())?;
    if !plots.is_empty() {
        text.push_str("\n## Plots\n\n");
        for plot in plots {
            let _ = writeln!(text, "- [{}]({})", plot.caption, plot.file);
        }
    }
    let path = dir.join(REPORT_FILE);
    let partial = dir.join(format!("{REPORT_FILE}.partial"));
    std::fs::write(&partial, text)
        .and_then(|()| std::fs::rename(&partial, &path))
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// The win rates' section of the report.
fn win_rates_text(rates: &WinRates) -> String {
    let mut text = format!(
        "\n## Win rates\n\nEach network and baseline on the same {} deals \
         (those of `norn winrate --seed {}`), with 95% Wilson intervals.\n\n\
         | policy | wins | win rate | 95% interval |\n| --- | ---: | ---: | ---: |\n",
        rates.deals, rates.seed
    );
    for rate in rates
        .generations
        .iter()
        .map(|generation| &generation.rate)
        .chain(&rates.baselines)
    {
        let _ = writeln!(
            text,
            "| `{}` | {} | {:.1}% | {:.1}% to {:.1}% |",
            rate.policy,
            rate.wins,
            100.0 * rate.win_rate,
            100.0 * rate.ci_low,
            100.0 * rate.ci_high
        );
    }
    text
}

/// The report's markdown.
fn report_text(
    run: &TrainRun,
    records: &[CheckpointRecord],
    strength: Option<&Strength>,
) -> String {
    let mut text = String::new();
    let rules = if run.rules.is_empty() {
        String::new()
    } else {
        format!(" (`{}`)", run.rules)
    };
    let _ = writeln!(text, "# Training {}{rules}\n", run.game);
    let steps = run.steps_per_generation.map_or(
        "twice the new samples over the batch size".to_string(),
        |steps| steps.to_string(),
    );
    for (what, value) in [
        ("seed", run.seed.to_string()),
        ("games per generation", run.games_per_generation.to_string()),
        ("search", format!("`{}`", run.search)),
        ("network", format!("`{}`", run.network)),
        ("training", format!("`{}`", run.training)),
        ("batch size", run.batch_size.to_string()),
        ("replay buffer", format!("{} samples", run.buffer_samples)),
        ("steps per generation", steps),
        (
            "build",
            crate::arena::Build::describe(run.provenance.build.as_ref()),
        ),
    ] {
        let _ = writeln!(text, "- {what}: {value}");
    }
    text.push_str(
        "\n## Generations\n\n\
         | generation | games | samples | buffer | steps | policy loss | value loss | seconds | games/s |\n\
         | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let mut before: Option<&CheckpointRecord> = None;
    for record in records {
        let (policy, value) = record
            .losses
            .map_or(("".to_string(), "".to_string()), |losses| {
                (
                    format!("{:.4}", losses.policy),
                    format!("{:.4}", losses.value),
                )
            });
        let speed = before
            .map(|before| {
                let seconds = record.seconds - before.seconds;
                let games = record.games - before.games;
                if seconds > 0.0 {
                    format!("{:.2}", games as f64 / seconds)
                } else {
                    String::new()
                }
            })
            .unwrap_or_default();
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {policy} | {value} | {:.1} | {speed} |",
            record.generation,
            record.games,
            record.samples,
            record.buffer,
            record.steps,
            record.seconds
        );
        before = Some(record);
    }
    text.push_str(
        "\nGames, samples and steps count from the start of the run; the losses \
         are the generation's means over its steps, each taken before its step; \
         the seconds are the work of every session (self-play and training), \
         and games/s the generation's games over its seconds.\n",
    );
    if let Some(Strength::WinRates(rates)) = strength {
        text.push_str(&win_rates_text(rates));
    }
    if let Some(Strength::Ratings(ratings)) = strength {
        let _ = writeln!(
            text,
            "\n## Ratings\n\nBradley-Terry ratings from every evaluation's games, `{}` at 0.\n\n\
             | agent | Elo | 95% interval | games |\n| --- | ---: | ---: | ---: |",
            ratings.anchor
        );
        for rating in &ratings.agents {
            let _ = writeln!(
                text,
                "| `{}` | {:+.0} | {:+.0} to {:+.0} | {} |",
                rating.agent, rating.elo, rating.low, rating.high, rating.games
            );
        }
    }
    text
}
