//! Replaying game logs (`games.jsonl`): every logged game is played again
//! under the rules, move by move, and must end as the log says.

use super::log::{GameLine, replay_line};
use crate::core::Notation;
use serde::Serialize;

/// The replay of a game log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogReplay {
    /// The games read from the log.
    pub games: usize,
    /// Plies replayed, over all games.
    pub plies: usize,
    /// One line per game that did not replay: an illegal ply, or an ending
    /// other than the logged one.
    pub failures: Vec<String>,
}

impl LogReplay {
    /// The replay as text: the failures, then the totals.
    pub fn text(&self) -> String {
        let mut out: String = self
            .failures
            .iter()
            .map(|failure| format!("{failure}\n"))
            .collect();
        out.push_str(&format!(
            "{} games, {} plies replayed, {} games that do not replay as logged\n",
            self.games,
            self.plies,
            self.failures.len()
        ));
        out
    }
}

/// Replays every game of a log's text from `start` (blank lines skipped).
///
/// # Errors
/// If a line is not a logged game; the error names the line.
pub fn replay_log<G: Notation>(start: &G, text: &str) -> Result<LogReplay, String> {
    let mut replay = LogReplay {
        games: 0,
        plies: 0,
        failures: Vec::new(),
    };
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let game: GameLine = serde_json::from_str(line)
            .map_err(|error| format!("line {}: not a logged game: {error}", number + 1))?;
        replay.games += 1;
        match replay_line(start, &game) {
            Ok(()) => replay.plies += game.moves.len(),
            Err(failure) => replay.failures.push(failure),
        }
    }
    Ok(replay)
}
