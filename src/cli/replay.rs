//! `norn replay`: game records in a game's own format, or the library's
//! game logs, checked move by move.

use super::{CliResult, parse_rules, print_json, print_report, with_game};
use crate::arena::{
    GameLine, LogReplay, RecordedGame, game_text, recorded_games, replay_log, run_rules,
};
use crate::core::Notation;
use crate::registry::{GameList, Registered};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The game
    game: String,
    /// A game log of a tournament (games.jsonl, any game), or a file of game
    /// records in the game's own format (hnefatafl: CSV lines
    /// moves,attacker_captures,defender_captures,result)
    file: PathBuf,
    /// Rules options as key=value pairs (for a game log: by default those
    /// its run's config.json beside it records)
    #[arg(long)]
    rules: Option<String>,
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// Print one game of a game log ply by ply (its index in the log),
    /// with what each move cost where the log records it
    #[arg(long = "game", value_name = "INDEX")]
    show_game: Option<usize>,
    /// Print one JSON summary object instead of text
    #[arg(long)]
    json: bool,
    /// Write the games as records instead of checking them: `text` (every
    /// game: header lines, then its plies in the game's notation) or a
    /// format the game writes for other programs (a name the game lacks
    /// lists those it has)
    #[arg(long, value_name = "FORMAT", conflicts_with = "json")]
    export: Option<String>,
    /// Read FILE as records in a format of other programs that the game
    /// reads (a name the game lacks lists those it has) and write them out
    /// as --export says (text by default)
    #[arg(long, value_name = "FORMAT", conflicts_with = "json")]
    import: Option<String>,
    /// Write the records to this file instead of standard output
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn run<L: GameList>(args: ReplayArgs) -> CliResult {
    with_game!(L, args: ReplayArgs, G => replay::<G>(args))
}

fn replay<G: Registered>(args: &ReplayArgs) -> CliResult {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|error| format!("cannot read {}: {error}", args.file.display()))?;
    // Game logs are JSON objects, one per line.
    let is_log = args.import.is_none() && text.trim_start().starts_with('{');
    let rules = replay_rules::<G>(args, is_log)?;
    if args.export.is_some() || args.import.is_some() || args.out.is_some() {
        return export::<G>(args, &text, is_log, rules);
    }
    if let Some(index) = args.show_game {
        if !is_log {
            return Err("--game shows a game of a game log (games.jsonl)".into());
        }
        print!("{}", logged_game_text(&G::new(rules), &text, index)?);
        return Ok(());
    }
    if is_log {
        let replay = replay_log(&G::new(rules), &text)?;
        print_report(args.json, &replay, LogReplay::text)?;
        return match replay.failures.len() {
            0 => Ok(()),
            failures => Err(format!("{failures} logged games do not replay as logged")),
        };
    }
    let format = G::record_formats().into_iter().next().ok_or_else(|| {
        format!(
            "{} has no record format of its own; replay a game log (games.jsonl) instead",
            G::NAME
        )
    })?;
    let replay = (format.replay)(&text, &rules).map_err(|error| error.to_string())?;
    if args.json {
        print_json(&replay.json)?;
    } else {
        print!("{}", replay.text);
    }
    if replay.all_agree {
        Ok(())
    } else {
        Err("some records do not replay as recorded (see above)".into())
    }
}

/// The game of schedule index `index` in the log `text`, ply by ply.
fn logged_game_text<G: Notation>(start: &G, text: &str, index: usize) -> Result<String, String> {
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let game: GameLine = serde_json::from_str(line)
            .map_err(|error| format!("line {}: not a logged game: {error}", number + 1))?;
        if game.index == index {
            return game_text(start, &game);
        }
    }
    Err(format!("the log holds no game {index}"))
}

/// The rules to replay under: `--rules`, or for a game log without them
/// the rules its run's `config.json` records (a run under other rules than
/// the defaults does not replay under the defaults).
fn replay_rules<G: Registered>(args: &ReplayArgs, is_log: bool) -> Result<G::Rules, String> {
    if args.rules.is_some() || !is_log {
        return parse_rules::<G>(args.rules.as_deref());
    }
    match run_rules(&args.file, G::NAME)? {
        Some(rules) if !rules.is_empty() => {
            eprintln!("rules from the run's config.json: {rules}");
            parse_rules::<G>(Some(&rules)).map_err(|error| format!("the run's rules: {error}"))
        }
        _ => parse_rules::<G>(None),
    }
}

/// `--export`/`--import`: the games of a log, or of another program's
/// records, written in a record format.
fn export<G: Registered>(
    args: &ReplayArgs,
    text: &str,
    is_log: bool,
    rules: G::Rules,
) -> CliResult {
    let names = |formats: Vec<&'static str>| match formats.is_empty() {
        true => "none".to_string(),
        false => formats.join(", "),
    };
    let games: Vec<RecordedGame<G>> = match &args.import {
        Some(name) => {
            let formats = G::import_formats();
            let known = names(formats.iter().map(|format| format.name).collect());
            let format = formats
                .into_iter()
                .find(|format| format.name == name)
                .ok_or_else(|| {
                    format!(
                        "{} reads no records in `{name}` (its formats: {known})",
                        G::NAME
                    )
                })?;
            (format.read)(text, &rules).map_err(|error| error.to_string())?
        }
        None if is_log => recorded_games(&G::new(rules), text)?,
        None => {
            let known = names(
                G::import_formats()
                    .iter()
                    .map(|format| format.name)
                    .collect(),
            );
            return Err(format!(
                "{} is not a game log (games.jsonl); to read another program's records give --import FORMAT (formats of {}: {known})",
                args.file.display(),
                G::NAME
            ));
        }
    };
    let name = args.export.as_deref().unwrap_or("text");
    let write: fn(&RecordedGame<G>) -> Result<String, String> = if name == "text" {
        RecordedGame::text
    } else {
        let formats = G::export_formats();
        let mut known = vec!["text"];
        known.extend(formats.iter().map(|format| format.name));
        formats
            .into_iter()
            .find(|format| format.name == name)
            .map(|format| format.write)
            .ok_or_else(|| {
                format!(
                    "{} has no record format `{name}` to write (formats: {})",
                    G::NAME,
                    known.join(", ")
                )
            })?
    };
    let mut out = String::new();
    for game in &games {
        out.push_str(&write(game).map_err(|error| format!("game {}: {error}", game.number))?);
    }
    match &args.out {
        Some(path) => std::fs::write(path, out)
            .map_err(|error| format!("cannot write {}: {error}", path.display()))?,
        None => print!("{out}"),
    }
    eprintln!("{} games written as {name}", games.len());
    Ok(())
}
