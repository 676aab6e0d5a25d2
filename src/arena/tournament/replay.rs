//! Replaying game logs (`games.jsonl`): every logged game is played again
//! under the rules, move by move, and must end as the log says.

use super::log::{GameLine, opening_state, replay_line, replay_texts};
use super::opening::{Opening, OpeningPlies};
use super::report::seconds_text;
use super::search_log::{LoggedSearch, PlySearch};
use super::store::read_config;
use crate::arena::playing::{CONFIG_FILE, plies_text, resolve_pending_chance};
use crate::core::{
    Game, Notation, Player, Ply, PlyText, Status, escape_control_lines, rng_from_seed,
};
use serde::Serialize;
use std::path::Path;

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

/// Plays a logged game again and shows `visit` every state it passes
/// through, in order: the state its moves start from (after its opening),
/// then the state after each ply, the last one the final state (chance
/// events drawn from the game's seed and resolved, as they were played).
/// Each ply is read in the state it was written from, so an illegal one is
/// an error; check the rest of the game first with [`replay_line`].
///
/// # Errors
/// An opening or a ply that does not play.
pub fn logged_states<G: Notation>(
    start: &G,
    line: &GameLine,
    mut visit: impl FnMut(&G),
) -> Result<(), String> {
    let chance_seed = line.chance_seed();
    let opened = opening_state(start, line.opening.as_ref())?;
    let last = replay_texts(&opened, &line.moves, chance_seed, |_, state| {
        visit(state);
        Ok(())
    })?;
    visit(&last);
    Ok(())
}

/// One logged game written out ply by ply: the ply's number, the side that
/// moved (`together` at a simultaneous choice), the move, and beside it
/// what the decision cost where the log records it; last, the final
/// position in the game's notation.
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
    let mut rows = Vec::with_capacity(line.moves.len());
    let opened = opening_state(start, line.opening.as_ref())?;
    let end = replay_texts(&opened, &line.moves, line.chance_seed(), |number, state| {
        let side = match state.status() {
            Status::ToMove(mover) => state.player_name(mover),
            _ => "together".to_string(),
        };
        rows.push((side, line.moves[number].one_line()));
        Ok(())
    })?;
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
    out.push_str(&format!("final position: {}\n", end.position_text()));
    // The agents' names are their specs, which may hold anything.
    Ok(escape_control_lines(&out))
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
    if let Some(entropy) = decision.policy_entropy {
        parts.push(format!("entropy {entropy:.2}"));
    }
    if !decision.pv.is_empty() {
        parts.push(format!("pv {}", decision.pv.join(" ")));
    }
    parts.join("  ")
}

/// How a recorded game ended, as far as its record says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecordedResult {
    /// This player won.
    Win(Player),
    /// A draw.
    Draw,
    /// The record stops before the game is decided (or does not say how it
    /// ended).
    Unfinished,
}

/// One game as a record holds it, read from a game log or from another
/// program's record: where it starts, its plies, who played and how it
/// ended. Record formats are written from this ([`crate::registry::ExportFormat`])
/// and read into it ([`crate::registry::ImportFormat`]).
#[derive(Clone, Debug)]
pub struct RecordedGame<G: Game> {
    /// The game's number: its index in a tournament's schedule, or its
    /// line in a file of records.
    pub number: usize,
    /// The state the plies start from: the game's start, or the position
    /// of the game's opening. An opening of plies is part of `plies`.
    pub start: G,
    /// The players' plies in order (chance events are drawn again from
    /// `chance_seed`, as [`crate::arena::replay_plies`] does).
    pub plies: Vec<Ply<G::Move>>,
    /// The seed the game's chance events are drawn from.
    pub chance_seed: u64,
    /// How many of `plies` an opening set before the players chose.
    pub opening_plies: usize,
    /// Who played each side, player 0 first (an agent's spec), when known.
    pub players: Vec<String>,
    /// The seed of the game's pair in a tournament, when it was played by
    /// norn.
    pub seed: Option<u64>,
    /// How the game ended.
    pub result: RecordedResult,
    /// Why it ended (`checkmate`, `max-plies`, ...), when known.
    pub reason: Option<String>,
    /// What a reader should know of the record, such as where an imported
    /// record stopped being legal.
    pub note: Option<String>,
}

/// The games of a log's text as records in the order of their numbers,
/// each checked first as [`replay_log`] checks it.
///
/// # Errors
/// A line that is not a logged game, or a game that does not replay as
/// logged; the error names it.
pub fn recorded_games<G: Notation>(start: &G, text: &str) -> Result<Vec<RecordedGame<G>>, String> {
    let mut games = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let game: GameLine = serde_json::from_str(line)
            .map_err(|error| format!("line {}: not a logged game: {error}", number + 1))?;
        replay_line(start, &game).map_err(|error| format!("line {}: {error}", number + 1))?;
        games.push(
            recorded_game(start, &game).map_err(|error| format!("line {}: {error}", number + 1))?,
        );
    }
    // A log holds games in the order they finished; records go by number.
    games.sort_by_key(|game| game.number);
    Ok(games)
}

/// A logged game (which replays) as a record.
fn recorded_game<G: Notation>(start: &G, line: &GameLine) -> Result<RecordedGame<G>, String> {
    let chance_seed = line.chance_seed();
    let (from, mut plies) = match &line.opening {
        Some(opening) => {
            let OpeningPlies { from, plies } = opening.plies(start)?;
            (from, plies)
        }
        None => (start.clone(), Vec::new()),
    };
    let opening_plies = plies.len();
    let mut state = from.clone();
    for ply in &plies {
        state.play_ply(ply);
    }
    let mut chance = rng_from_seed(chance_seed);
    for (number, text) in line.moves.iter().enumerate() {
        resolve_pending_chance(&mut state, &mut chance)?;
        let ply = state
            .parse_ply(text)
            .map_err(|error| format!("ply {}: {error}", number + 1))?;
        state.play_ply(&ply);
        plies.push(ply);
    }
    let result = match &line.winner {
        Some(side) => RecordedResult::Win(
            line.sides
                .iter()
                .position(|name| name == side)
                .ok_or_else(|| format!("the winner {side} is not one of the sides"))?,
        ),
        None => RecordedResult::Draw,
    };
    Ok(RecordedGame {
        number: line.index,
        start: from,
        plies,
        chance_seed,
        opening_plies,
        players: line.agents.to_vec(),
        seed: Some(line.seed),
        result,
        reason: Some(line.reason.clone()),
        note: None,
    })
}

/// The players' names a record's two tags give (`?` for a missing one),
/// none when it has neither.
pub fn tagged_players(first: Option<&str>, second: Option<&str>) -> Vec<String> {
    match (first, second) {
        (None, None) => Vec::new(),
        (first, second) => [first, second]
            .map(|player| player.unwrap_or("?").to_string())
            .to_vec(),
    }
}

impl<G: Game> RecordedGame<G> {
    /// The record of a game read from another program's file: its moves
    /// from `start`, one player moving at a time, with no chance events,
    /// opening or seed of norn's, unfinished until its reader says how it
    /// ended.
    pub fn imported(number: usize, start: G, moves: &[G::Move], players: Vec<String>) -> Self {
        RecordedGame {
            number,
            start,
            plies: moves.iter().map(|&mv| Ply::Move(mv)).collect(),
            chance_seed: 0,
            opening_plies: 0,
            players,
            seed: None,
            result: RecordedResult::Unfinished,
            reason: None,
            note: None,
        }
    }

    /// The state the record's moves lead to (chance events aside).
    pub fn end(&self) -> G {
        let mut end = self.start.clone();
        for ply in &self.plies {
            end.play_ply(ply);
        }
        end
    }
}

impl<G: Notation> RecordedGame<G> {
    /// The result in words: `attackers win (escape)`, `draw (repetition)`.
    pub fn result_text(&self) -> String {
        let result = match self.result {
            RecordedResult::Win(player) => format!("{} won", self.start.player_name(player)),
            RecordedResult::Draw => "draw".to_string(),
            RecordedResult::Unfinished => "unfinished".to_string(),
        };
        match &self.reason {
            Some(reason) => format!("{result} ({reason})"),
            None => result,
        }
    }

    /// The game as text in the game's own notation: header lines
    /// (`key: value`), then one numbered ply a line, each written from the
    /// state it was played in (a simultaneous ply as every player's move
    /// joined by ` & `), then a blank line.
    ///
    /// # Errors
    /// If the plies do not replay from the start.
    pub fn text(&self) -> Result<String, String> {
        let mut out = format!("game {}\n", self.number);
        for (player, spec) in self.players.iter().enumerate() {
            out.push_str(&format!("{}: {spec}\n", self.start.player_name(player)));
        }
        if let Some(seed) = self.seed {
            out.push_str(&format!("seed: {seed}\n"));
        }
        out.push_str(&format!("start: {}\n", self.start.position_text()));
        if self.opening_plies > 0 {
            out.push_str(&format!("opening plies: {}\n", self.opening_plies));
        }
        out.push_str(&format!("result: {}\n", self.result_text()));
        if let Some(note) = &self.note {
            out.push_str(&format!("note: {note}\n"));
        }
        let texts = plies_text(&self.start, &self.plies, self.chance_seed)?;
        for (number, text) in texts.iter().enumerate() {
            out.push_str(&format!("{}. {}\n", number + 1, text.one_line()));
        }
        out.push('\n');
        Ok(out)
    }
}

/// The rules a run was played under, as its `config.json` beside the log
/// at `log_path` records them: `None` when there is no such file.
///
/// # Errors
/// If the file does not read, is not a run's configuration, or is that of
/// another game than `game`.
pub fn run_rules(log_path: &Path, game: &str) -> Result<Option<String>, String> {
    let path = log_path.with_file_name(CONFIG_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
    };
    let stored = read_config(&path, &text).map_err(|error| error.to_string())?;
    if stored.config.game != game {
        return Err(format!(
            "{} is a run of {}, not of {game}",
            path.display(),
            stored.config.game
        ));
    }
    Ok(Some(stored.config.rules))
}
