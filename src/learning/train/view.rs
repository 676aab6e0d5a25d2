//! `norn view` of a training run: its report and its plots in one page.

use super::plots::{Strength, plots};
use super::report::REPORT_FILE;
use super::store::read_records;
use crate::arena::view::{Page, ViewOptions, markdown_html};
use std::path::Path;

/// The page of the training run in `dir`: its `report.md` and the plots
/// drawn again from the run's files (not read from its SVG files, so that
/// the page holds only what norn draws). The run is read, not held: a run
/// training on may be viewed.
///
/// # Errors
/// A report, a checkpoint's record, the ratings, win rates or losses that
/// do not read.
pub fn train_page(dir: &Path, game: &str, options: ViewOptions) -> Result<String, String> {
    let report_path = dir.join(REPORT_FILE);
    let report = std::fs::read_to_string(&report_path)
        .map_err(|error| format!("cannot read {}: {error}", report_path.display()))?;
    let records = read_records(dir)?;
    let strength = Strength::read(dir)?;
    let charts = plots(dir, &records, strength.as_ref())?
        .into_iter()
        .map(|plot| (plot.caption.to_string(), plot.svg))
        .collect();
    Ok(Page {
        title: format!("{game} training run"),
        source: dir.display().to_string(),
        report: markdown_html(&report),
        charts,
        browser: None,
        version: options.version,
    }
    .html())
}
