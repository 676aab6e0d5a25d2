//! `norn replay`: game records in a game's own format, or the library's
//! game logs, checked move by move.

use super::{CliResult, parse_rules, print_json, print_report, with_game};
use crate::arena::{GameLine, LogReplay, game_text, replay_log};
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
    /// Rules options as key=value pairs
    #[arg(long)]
    rules: Option<String>,
    /// Print one game of a game log ply by ply (its index in the log),
    /// with what each move cost where the log records it
    #[arg(long = "game", value_name = "INDEX")]
    show_game: Option<usize>,
    /// Print one JSON summary object instead of text
    #[arg(long)]
    json: bool,
}

pub fn run<L: GameList>(args: ReplayArgs) -> CliResult {
    with_game!(L, args: ReplayArgs, G => replay::<G>(args))
}

fn replay<G: Registered>(args: &ReplayArgs) -> CliResult {
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let text = std::fs::read_to_string(&args.file)
        .map_err(|error| format!("cannot read {}: {error}", args.file.display()))?;
    // Game logs are JSON objects, one per line.
    if text.trim_start().starts_with('{') {
        if let Some(index) = args.show_game {
            print!("{}", logged_game_text(&G::new(rules), &text, index)?);
            return Ok(());
        }
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
