//! Progress bars on standard error, hidden when it is not a terminal.

use crate::arena::{GameLine, RunProgress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `total` deals, labelled by its prefix (the policy being run).
pub(crate) fn deals_bar(total: u64, prefix: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix:>12} [{bar:30}] {pos}/{len} deals, {per_sec}, eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(prefix.to_string());
    bar
}

/// The progress of a tournament run as a bar of games.
pub(crate) struct GamesBar {
    bar: ProgressBar,
}

impl GamesBar {
    /// A bar, or a hidden one when `shown` is false.
    pub(crate) fn new(shown: bool) -> Self {
        let bar = if shown {
            let bar = ProgressBar::new(0);
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {elapsed} elapsed, ETA {eta}",
            ) {
                bar.set_style(style);
            }
            bar
        } else {
            ProgressBar::hidden()
        };
        GamesBar { bar }
    }
}

impl RunProgress for GamesBar {
    fn start(&self, games: usize) {
        self.bar.set_length(games as u64);
    }

    fn game_done(&self, _game: &GameLine) {
        self.bar.inc(1);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
