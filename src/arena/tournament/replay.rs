//! Replaying game logs (`games.jsonl`): every logged game is played again
//! under the rules, move by move, and must end as the log says.

use super::config::ScheduledGame;
use super::log::{GameLine, opening_state, replay_line, replay_texts};
use super::opening::Opening;
use super::report::seconds_text;
use super::search_log::{LoggedSearch, PlySearch};
use crate::core::{Notation, PlyText, Status};
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

/// One logged game written out ply by ply: the ply's number, the side that
/// moved (`together` at a simultaneous choice), the move, and beside it
/// what the decision cost where the log records it.
///
/// # Errors
/// A game that does not replay as logged ([`replay_line`]).
pub fn game_text<G: Notation>(start: &G, line: &GameLine) -> Result<String, String> {
    replay_line(start, line)?;
    let result = match &line.winner {
        Some(winner) => format!("the {winner} won by {}", line.reason),
        None => format!("drawn by {}", line.reason),
    };
    let mut out = format!(
        "game {}: {} ({}) against {} ({}), seed {}; {result} after {} plies\n",
        line.index,
        line.agents[0],
        line.sides[0],
        line.agents[1],
        line.sides[1],
        line.seed,
        line.plies
    );
    match &line.opening {
        Some(Opening::Position(position)) => out.push_str(&format!("from: {position}\n")),
        Some(Opening::Moves(plies)) => {
            let plies: Vec<String> = plies.iter().map(PlyText::one_line).collect();
            out.push_str(&format!("opening: {}\n", plies.join(" ")));
        }
        None => {}
    }
    let scheduled = ScheduledGame {
        index: line.index,
        seats: line.seats,
        seed: line.seed,
    };
    let mut rows = Vec::with_capacity(line.moves.len());
    let opened = opening_state(start, line.opening.as_ref())?;
    replay_texts(
        &opened,
        &line.moves,
        scheduled.chance_seed(),
        |number, state| {
            let side = match state.status() {
                Status::ToMove(mover) => state.player_name(mover),
                _ => "together".to_string(),
            };
            rows.push((side, line.moves[number].one_line()));
            Ok(())
        },
    )?;
    let side_width = rows.iter().map(|(side, _)| side.len()).max().unwrap_or(0);
    let move_width = rows
        .iter()
        .map(|(_, text)| text.chars().count())
        .max()
        .unwrap_or(0);
    for (number, (side, text)) in rows.iter().enumerate() {
        let cost = match line.search.as_ref().map(|search| &search[number]) {
            Some(PlySearch::Move(decision)) => decision_text(decision),
            Some(PlySearch::Joint(decisions)) => decisions
                .iter()
                .map(decision_text)
                .collect::<Vec<_>>()
                .join(" | "),
            None => String::new(),
        };
        let row = format!(
            "{:>4}. {side:<side_width$}  {text:<move_width$}  {cost}",
            number + 1
        );
        out.push_str(row.trim_end());
        out.push('\n');
    }
    Ok(out)
}

/// What one decision cost, as one line's worth of text.
fn decision_text(decision: &LoggedSearch) -> String {
    let mut parts = vec![seconds_text(decision.time)];
    if let Some(depth) = decision.depth {
        parts.push(format!("depth {depth}"));
    }
    if let Some(iterations) = decision.iterations {
        parts.push(format!("iterations {iterations}"));
    }
    if let Some(nodes) = decision.nodes {
        parts.push(format!("nodes {nodes}"));
    }
    if let Some(score) = decision.score {
        parts.push(format!("score {score:+.2}"));
    }
    if let Some(share) = decision.visit_share {
        parts.push(format!("share {:.0}%", 100.0 * share));
    }
    if !decision.pv.is_empty() {
        parts.push(format!("pv {}", decision.pv.join(" ")));
    }
    parts.join("  ")
}
