//! A page of a tournament, a match or a game log: the run read and every
//! game replayed and checked, its pictures computed ply by ply.

use super::charts::{length_histogram, llr_chart, score_heat_map};
use super::encode::pack;
use super::frames::{GameFrames, Layouts, PlyFrame, ply_frame};
use super::markdown::markdown_html;
use super::page::{Browser, Page, check_layout_ids, place_of};
use crate::arena::playing::{CONFIG_FILE, LogLine, LogReader};
use crate::arena::{
    FinishedGames, GameLine, LinePlace, PairScoring, RunKind, StoredLog, TournamentConfig,
    TournamentSummary, check_line, logged_states, markdown_report, match_history, read_stored_run,
    replay_line,
};
use crate::core::{Capabilities, Notation, ParseError, Picture, escape_xml};
use rayon::prelude::*;
use std::collections::{BTreeMap, BinaryHeap};
use std::path::Path;

/// A run directory's game log.
const GAMES_FILE: &str = "games.jsonl";

/// How a page is written.
#[derive(Clone, Copy, Debug)]
pub struct ViewOptions {
    /// The version of a page that `norn view --watch` serves: the page
    /// polls the server's `version` and reloads itself when it changes. A
    /// log's last line cut short is then a line being written, and left
    /// out; otherwise it is an error.
    pub version: Option<u64>,
    /// The most games the page's browser holds, the first by index: each
    /// is stored with its pictures, and a page of a million games would
    /// not open. The report counts every game.
    pub games: usize,
}

/// The games a page holds by default: a page of 10,000 long games opens in
/// about a second (`bench-results/view.md`).
pub const DEFAULT_VIEWED_GAMES: usize = 10_000;

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            version: None,
            games: DEFAULT_VIEWED_GAMES,
        }
    }
}

/// The page of the run at `path`: a run directory of a tournament or a
/// match (its `config.json` gives the rules), or a game log (`games.jsonl`;
/// under the rules of the `config.json` beside it, or `log_rules` when
/// there is none). Every game is checked as `norn replay` checks it, in one
/// pass over the log that keeps a few numbers per game, and the first
/// [`ViewOptions::games`] games are read again for the browser.
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

/// The games a page's browser holds: the first `limit` by index (then by
/// line) of the games offered, and where their lines are.
struct FirstGames {
    limit: usize,
    /// The games kept, the last by index on top.
    kept: BinaryHeap<(usize, LinePlace)>,
}

impl FirstGames {
    fn new(limit: usize) -> FirstGames {
        FirstGames {
            limit,
            kept: BinaryHeap::new(),
        }
    }

    /// Offers game `index`, logged at `place`.
    fn offer(&mut self, index: usize, place: LinePlace) {
        if self.kept.len() < self.limit {
            self.kept.push((index, place));
        } else if self.kept.peek().is_some_and(|last| (index, place) < *last) {
            self.kept.pop();
            self.kept.push((index, place));
        }
    }

    /// The games kept, by index.
    fn in_order(self) -> Vec<(usize, LinePlace)> {
        self.kept.into_sorted_vec()
    }
}

/// The page of a run directory.
fn run_page<G: Notation>(dir: &Path, options: ViewOptions) -> Result<String, String> {
    let run = read_stored_run(dir).map_err(|error| error.to_string())?;
    if run.config.game != G::NAME {
        return Err(format!(
            "{} is a run of {}, not of {}",
            dir.display(),
            run.config.game,
            G::NAME
        ));
    }
    let rules = run
        .config
        .rules
        .parse()
        .map_err(|error: ParseError| format!("the run's rules: {error}"))?;
    let start = G::new(rules);
    let mut finished = FinishedGames::new(&run.config);
    let mut first = FirstGames::new(options.games);
    let log = run
        .read_log(
            &|line| check_line(&run.config, &start, line),
            &mut |line, place| {
                finished.add(&line);
                first.offer(line.index, place);
            },
        )
        .map_err(|error| error.to_string())?;
    refuse_torn(&dir.join(GAMES_FILE), &log, options)?;
    let scored = Capabilities::of::<G>().scored();
    let mut charts = Vec::new();
    let summary = match (run.kind, run.sprt) {
        (RunKind::Match, Some(sprt)) if !finished.is_empty() => {
            let history = match_history(&run.config, sprt, PairScoring::of(scored), &finished);
            let played = TournamentConfig {
                games_per_pair: finished.len(),
                ..run.config.clone()
            };
            charts.push((
                "Log-likelihood ratio of the sequential test".to_string(),
                llr_chart(&history.llr, sprt.bounds()),
            ));
            TournamentSummary {
                match_result: Some(history.result),
                ..TournamentSummary::of_games(&played, &finished, scored)
            }
        }
        _ => TournamentSummary::of_games(&run.config, &finished, scored),
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
    let lengths: Vec<usize> = finished.lengths().collect();
    if !lengths.is_empty() {
        charts.push(("Game lengths".to_string(), length_histogram(&lengths)));
    }
    let names = run.config.display_names();
    let browser = browser(
        &start,
        &dir.join(GAMES_FILE),
        first.in_order(),
        finished.len(),
        |line| {
            line.seats
                .map(|seat| names.get(seat).cloned().unwrap_or_default())
        },
    )?;
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

/// Refuses a log (at `path`) whose last line is cut short, unless the page
/// is served while the run is writing it.
fn refuse_torn(path: &Path, log: &StoredLog, options: ViewOptions) -> Result<(), String> {
    if log.torn && options.version.is_none() {
        return Err(format!(
            "{}: line {} is cut short (a run still writing it, or one that stopped while writing)",
            path.display(),
            log.games + 1
        ));
    }
    Ok(())
}

/// The page of a game log without a run directory: its games replayed,
/// counted by result, length and end.
fn log_page<G: Notation>(path: &Path, start: &G, options: ViewOptions) -> Result<String, String> {
    let unreadable = |error: std::io::Error| format!("cannot read {}: {error}", path.display());
    let mut log = LogReader::open(path).map_err(unreadable)?;
    let sides = [start.player_name(0), start.player_name(1)];
    let mut results: BTreeMap<String, usize> = BTreeMap::new();
    let mut lengths = Vec::new();
    let mut first = FirstGames::new(options.games);
    let read = |line: &LogLine| -> Result<Option<GameLine>, String> {
        let text = line.text()?;
        if text.trim().is_empty() {
            return Ok(None);
        }
        let game: GameLine =
            serde_json::from_str(text).map_err(|error| format!("not a logged game: {error}"))?;
        if game.sides != sides {
            return Err(format!(
                "a game of sides {:?}, but {} has {sides:?}",
                game.sides,
                G::NAME
            ));
        }
        replay_line(start, &game)?;
        Ok(Some(game))
    };
    log.read_each(
        read,
        |line, game| {
            let Some(game) = game.map_err(|problem| {
                format!("{}: line {}: {problem}", path.display(), line.number)
            })?
            else {
                return Ok(());
            };
            let result = match &game.winner {
                Some(side) => format!("{side} won by {}", game.reason),
                None => format!("drawn by {}", game.reason),
            };
            *results.entry(result).or_default() += 1;
            lengths.push(game.plies);
            first.offer(
                game.index,
                LinePlace {
                    number: line.number,
                    offset: line.offset,
                    length: line.length,
                },
            );
            Ok(())
        },
        unreadable,
    )?;
    // A line being written is left out while the page is served.
    if log.torn() && options.version.is_none() {
        return Err(format!(
            "{}: the last line is cut short (a run still writing it, or one that stopped while writing)",
            path.display()
        ));
    }
    let mut report = format!("{} games", lengths.len());
    for (result, count) in &results {
        report.push_str(&format!("; {result}: {count}"));
    }
    let charts = match lengths.is_empty() {
        true => Vec::new(),
        false => vec![("Game lengths".to_string(), length_histogram(&lengths))],
    };
    let browser = browser(start, path, first.in_order(), lengths.len(), |line| {
        line.agents.clone()
    })?;
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

/// Games read again from their log for the browser at once: their
/// pictures are made in parallel, and packed before the next ones are
/// read. A game's pictures and parsed line take several times its packed
/// data, so a few dozen at a time keep both cores busy without holding
/// more than the packed page (256 at a time held twice as much).
const BROWSED_AT_ONCE: usize = 32;

/// The browser of the games of the log at `path` found at `places` (checked
/// already, in the order of their indices), of `total` games in all;
/// `agents` names each game's agents by seat.
fn browser<G: Notation>(
    start: &G,
    path: &Path,
    places: Vec<(usize, LinePlace)>,
    total: usize,
    agents: impl Fn(&GameLine) -> [String; 2],
) -> Result<Browser, String> {
    let sides = vec![start.player_name(0), start.player_name(1)];
    let mut agent_names: Vec<String> = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    let mut rows = Vec::with_capacity(places.len());
    let mut layouts = Layouts::default();
    let mut packed = Vec::with_capacity(places.len());
    let file = std::fs::File::open(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    for chunk in places.chunks(BROWSED_AT_ONCE) {
        let games = chunk
            .iter()
            .map(|&(_, place)| read_line_at(&file, path, place))
            .collect::<Result<Vec<GameLine>, String>>()?;
        for game in &games {
            let [first, second] = agents(game);
            let result = match &game.winner {
                Some(side) => sides.iter().position(|name| name == side).unwrap_or(2),
                None => 2,
            };
            rows.push([
                game.index,
                place_of(&mut agent_names, &first),
                place_of(&mut agent_names, &second),
                result,
                place_of(&mut reasons, &game.reason),
                game.plies,
                game.index,
            ]);
        }
        let framed = games
            .par_iter()
            .map(|line| {
                game_frames(start, line).map_err(|error| format!("game {}: {error}", line.index))
            })
            .collect::<Result<_, String>>()?;
        packed.extend(pack_games(framed, &mut layouts)?);
    }
    check_layout_ids(&layouts)?;
    let results = sides
        .iter()
        .map(|side| format!("{side} won"))
        .chain(["draw".to_string()])
        .collect();
    let note = (rows.len() < total).then(|| {
        format!(
            "The list holds the first {} of the {total} games, by index: norn view --games N \
             holds more, and norn replay LOG --game INDEX shows any game.",
            rows.len()
        )
    });
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
        note,
    })
}

/// The game logged at `place` of the log `file` (at `path`).
fn read_line_at(file: &std::fs::File, path: &Path, place: LinePlace) -> Result<GameLine, String> {
    let bytes = place
        .read_from(file)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|error| {
        format!(
            "{}: line {} changed while it was read: {error}",
            path.display(),
            place.number
        )
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

/// Games' frames, packed, their layouts numbered as `layouts` numbers
/// them (added to it where new): each game numbered its own layouts, and
/// the numbers are made the page's in the games' order, so that the page
/// does not depend on the number of threads that made them.
pub(super) fn pack_games(
    framed: Vec<(Layouts, GameFrames)>,
    layouts: &mut Layouts,
) -> Result<Vec<String>, String> {
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
    Ok(renumbered
        .par_iter()
        .map(|frames| pack(&frames.json().to_string()))
        .collect())
}
