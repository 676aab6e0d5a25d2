//! A page of a tournament, a match or a game log: the run read and every
//! game replayed and checked, its pictures computed ply by ply.

use super::charts::{length_histogram, llr_chart, score_heat_map};
use super::encode::pack;
use super::frames::{GameFrames, Layouts, PlyFrame, ply_frame};
use super::markdown::markdown_html;
use super::page::{Browser, Page, check_layout_ids, place_of};
use crate::arena::playing::CONFIG_FILE;
use crate::arena::{
    GameLine, PairScoring, RunKind, StoredRun, TournamentConfig, TournamentSummary, check_line,
    logged_states, markdown_report, match_history, read_stored_run, replay_line,
};
use crate::core::{Capabilities, Notation, ParseError, Picture, escape_xml};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// How a page is written.
#[derive(Clone, Copy, Debug, Default)]
pub struct ViewOptions {
    /// The version of a page that `norn view --watch` serves: the page
    /// polls the server's `version` and reloads itself when it changes. A
    /// log's last line cut short is then a line being written, and left
    /// out; otherwise it is an error.
    pub version: Option<u64>,
}

/// The page of the run at `path`: a run directory of a tournament or a
/// match (its `config.json` gives the rules), or a game log (`games.jsonl`;
/// under the rules of the `config.json` beside it, or `log_rules` when
/// there is none). Every game is checked as `norn replay` checks it.
///
/// # Errors
/// A path that does not read, a run of another game, or a line of the log
/// that is not a game of this run or does not replay (the error names the
/// line).
pub fn view_page<G: Notation>(
    path: &Path,
    log_rules: &G::Rules,
    options: ViewOptions,
) -> Result<String, String> {
    let metadata = std::fs::metadata(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let dir = match metadata.is_dir() {
        true => path,
        false => path.parent().unwrap_or(Path::new(".")),
    };
    if dir.join(CONFIG_FILE).is_file() {
        return run_page::<G>(dir, options);
    }
    if metadata.is_dir() {
        return Err(format!(
            "{} holds no {CONFIG_FILE}: not the directory of a run (give a games.jsonl file to view a log alone)",
            path.display()
        ));
    }
    log_page(path, &G::new(log_rules.clone()), options)
}

/// The page of a run directory.
fn run_page<G: Notation>(dir: &Path, options: ViewOptions) -> Result<String, String> {
    let starts = std::cell::RefCell::new(None::<G>);
    let check = |config: &TournamentConfig, line: &GameLine| {
        let mut start = starts.borrow_mut();
        if start.is_none() {
            if config.game != G::NAME {
                return Err(format!("a game of {}, not of {}", config.game, G::NAME));
            }
            let rules = config
                .rules
                .parse()
                .map_err(|error: ParseError| format!("the run's rules: {error}"))?;
            *start = Some(G::new(rules));
        }
        check_line(config, start.as_ref().expect("set above"), line)
    };
    let run = read_stored_run(dir, &check).map_err(|error| error.to_string())?;
    if run.config.game != G::NAME {
        return Err(format!(
            "{} is a run of {}, not of {}",
            dir.display(),
            run.config.game,
            G::NAME
        ));
    }
    refuse_torn(dir, &run, options)?;
    let rules = run
        .config
        .rules
        .parse()
        .map_err(|error: ParseError| format!("the run's rules: {error}"))?;
    let start = G::new(rules);
    let scored = Capabilities::of::<G>().scored();
    let mut charts = Vec::new();
    let summary = match (run.kind, run.sprt) {
        (RunKind::Match, Some(sprt)) if !run.games.is_empty() => {
            let history = match_history(&run.config, sprt, PairScoring::of(scored), &run.games);
            let played = TournamentConfig {
                games_per_pair: run.games.len(),
                ..run.config.clone()
            };
            charts.push((
                "Log-likelihood ratio of the sequential test".to_string(),
                llr_chart(&history.llr, sprt.bounds()),
            ));
            TournamentSummary {
                match_result: Some(history.result),
                ..TournamentSummary::compute(&played, &run.games, scored)
            }
        }
        _ => TournamentSummary::compute(&run.config, &run.games, scored),
    };
    let summary = TournamentSummary {
        shard_provenance: run.shard_provenance.clone(),
        ..summary.with_provenance(&run.provenance)
    };
    if summary.agents.len() > 1 {
        charts.insert(
            0,
            (
                "Score of each agent (row) against each other (column)".to_string(),
                score_heat_map(&summary),
            ),
        );
    }
    let lengths: Vec<usize> = run.games.iter().map(|game| game.plies).collect();
    if !lengths.is_empty() {
        charts.push(("Game lengths".to_string(), length_histogram(&lengths)));
    }
    let names = run.config.display_names();
    let browser = browser(&start, run.games, |line| {
        line.seats
            .map(|seat| names.get(seat).cloned().unwrap_or_default())
    })?;
    Ok(Page {
        title: format!("{} {}", G::NAME, kind_name(&summary)),
        source: dir.display().to_string(),
        report: markdown_html(&markdown_report(&summary)),
        charts,
        browser: Some(browser),
        version: options.version,
    }
    .html())
}

/// What kind of run a summary is of, as report.md names it.
fn kind_name(summary: &TournamentSummary) -> &'static str {
    match (summary.match_result.is_some(), summary.gauntlet) {
        (true, _) => "match",
        (false, true) => "gauntlet",
        (false, false) => "tournament",
    }
}

/// Refuses a log whose last line is cut short, unless the page is served
/// while the run is writing it.
fn refuse_torn(dir: &Path, run: &StoredRun, options: ViewOptions) -> Result<(), String> {
    if run.torn && options.version.is_none() {
        return Err(format!(
            "{}: line {} is cut short (a run still writing it, or one that stopped while writing)",
            dir.join("games.jsonl").display(),
            run.games.len() + 1
        ));
    }
    Ok(())
}

/// The page of a game log without a run directory: its games replayed,
/// counted by result, length and end.
fn log_page<G: Notation>(path: &Path, start: &G, options: ViewOptions) -> Result<String, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let sides = [start.player_name(0), start.player_name(1)];
    let mut games = Vec::new();
    let line_count = text.lines().count();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |problem: String| format!("{}: line {}: {problem}", path.display(), number + 1);
        if number + 1 == line_count && !text.ends_with('\n') && options.version.is_some() {
            // A line being written.
            break;
        }
        let game: GameLine = serde_json::from_str(line)
            .map_err(|error| at(format!("not a logged game: {error}")))?;
        if game.sides != sides {
            return Err(at(format!(
                "a game of sides {:?}, but {} has {sides:?}",
                game.sides,
                G::NAME
            )));
        }
        replay_line(start, &game).map_err(at)?;
        games.push(game);
    }
    let mut results: BTreeMap<String, usize> = BTreeMap::new();
    for game in &games {
        let result = match &game.winner {
            Some(side) => format!("{side} won by {}", game.reason),
            None => format!("drawn by {}", game.reason),
        };
        *results.entry(result).or_default() += 1;
    }
    let mut report = format!("{} games", games.len());
    for (result, count) in &results {
        report.push_str(&format!("; {result}: {count}"));
    }
    let lengths: Vec<usize> = games.iter().map(|game| game.plies).collect();
    let charts = match lengths.is_empty() {
        true => Vec::new(),
        false => vec![("Game lengths".to_string(), length_histogram(&lengths))],
    };
    let browser = browser(start, games, |line| line.agents.clone())?;
    Ok(Page {
        title: format!("{} games", G::NAME),
        source: path.display().to_string(),
        report: format!("<p>{}.</p>\n", escape_xml(&report)),
        charts,
        browser: Some(browser),
        version: options.version,
    }
    .html())
}

/// The browser of `games` (checked already), in the order of their
/// indices; `agents` names each game's agents by seat.
fn browser<G: Notation>(
    start: &G,
    mut games: Vec<GameLine>,
    agents: impl Fn(&GameLine) -> [String; 2],
) -> Result<Browser, String> {
    games.sort_by_key(|game| game.index);
    let sides = vec![start.player_name(0), start.player_name(1)];
    let mut agent_names: Vec<String> = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    let rows = games
        .iter()
        .map(|game| {
            let [first, second] = agents(game);
            let result = match &game.winner {
                Some(side) => sides.iter().position(|name| name == side).unwrap_or(2),
                None => 2,
            };
            [
                game.index,
                place_of(&mut agent_names, &first),
                place_of(&mut agent_names, &second),
                result,
                place_of(&mut reasons, &game.reason),
                game.plies,
                game.index,
            ]
        })
        .collect();
    let framed = games
        .par_iter()
        .map(|line| {
            game_frames(start, line).map_err(|error| format!("game {}: {error}", line.index))
        })
        .collect::<Result<_, String>>()?;
    let (layouts, packed) = pack_games(framed)?;
    let results = sides
        .iter()
        .map(|side| format!("{side} won"))
        .chain(["draw".to_string()])
        .collect();
    Ok(Browser {
        label: "game",
        columns: sides,
        results,
        agents: agent_names,
        reasons,
        players: start.num_players(),
        rows,
        layouts,
        packed,
    })
}

/// A game's pictures and position texts, taken one state after another,
/// and the layouts they use.
#[derive(Default)]
pub struct Filmstrip {
    layouts: Layouts,
    frames: Vec<PlyFrame>,
    texts: Vec<String>,
    previous: Option<Picture>,
}

impl Filmstrip {
    /// Adds the picture and the position text of the game's next state.
    pub fn add<G: Notation>(&mut self, state: &G) {
        let picture = state.picture();
        self.frames.push(ply_frame(
            self.previous.as_ref(),
            &picture,
            &mut self.layouts,
        ));
        self.texts.push(state.position_text());
        self.previous = Some(picture);
    }

    /// The game, its `moves` being the texts of the plies between the
    /// states added, with the layouts it uses.
    pub fn finish(self, moves: Vec<String>) -> (Layouts, GameFrames) {
        let frames = GameFrames {
            frames: self.frames,
            texts: self.texts,
            moves,
        };
        (self.layouts, frames)
    }
}

/// The pictures of one logged game ply by ply, with the layouts they use.
///
/// # Errors
/// A ply that does not play ([`logged_states`]).
pub fn game_frames<G: Notation>(
    start: &G,
    line: &GameLine,
) -> Result<(Layouts, GameFrames), String> {
    let mut strip = Filmstrip::default();
    logged_states(start, line, |state| strip.add(state))?;
    Ok(strip.finish(line.moves.iter().map(|ply| ply.one_line()).collect()))
}

/// Every game's frames, packed, with the layouts they use: each game
/// numbered its own layouts, and the numbers are made the page's in the
/// games' order, so that the page does not depend on the number of threads
/// that made them.
///
/// # Errors
/// A drawing that takes one of the page's own ids ([`check_layout_ids`]).
pub(super) fn pack_games(
    framed: Vec<(Layouts, GameFrames)>,
) -> Result<(Layouts, Vec<String>), String> {
    let mut layouts = Layouts::default();
    let renumbered: Vec<GameFrames> = framed
        .into_iter()
        .map(|(own, mut frames)| {
            let numbers: Vec<usize> = own
                .pictures
                .iter()
                .map(|picture| layouts.find_or_add(picture))
                .collect();
            for frame in &mut frames.frames {
                if let PlyFrame::Key { layout, .. } = frame {
                    *layout = numbers[*layout];
                }
            }
            frames
        })
        .collect();
    check_layout_ids(&layouts)?;
    let packed = renumbered
        .par_iter()
        .map(|frames| pack(&frames.json().to_string()))
        .collect();
    Ok((layouts, packed))
}
