//! The tafl family's records in OpenTafl's format: written, read, and
//! replayed move by move.

use crate::arena::RecordedGame;
use crate::companions::numbered_records;
use crate::companions::opentafl::{imported_record, moves_of, record_tags};
use crate::core::{Game, ParseError};
use crate::games::tafl::opentafl::{self, OpenTaflGame};
use crate::games::tafl::{Tafl, TaflRules};
use crate::registry::RecordsReplay;
use serde::Serialize;

/// One game as an OpenTafl record.
pub(super) fn write_opentafl(game: &RecordedGame<Tafl>) -> Result<String, String> {
    let moves = moves_of(&game.plies)?;
    opentafl::write_game(&game.start, &moves, &record_tags(game))
        .map_err(|illegal| illegal.to_string())
}

/// The games of an OpenTafl record file, each under its own rules string
/// with the engine's options of `rules`.
pub(super) fn read_opentafl(
    text: &str,
    rules: &TaflRules,
) -> Result<Vec<RecordedGame<Tafl>>, ParseError> {
    let games = opentafl::read_games(text, rules)?;
    Ok(numbered_records(games, |number, game: OpenTaflGame| {
        let tag = |key: &str| game.tag(key).map(str::to_string);
        imported_record(number, game.start.clone(), &game.moves, tag, game.resigned)
    }))
}

/// One record replayed: its rules, its moves, and where they lead.
#[derive(Serialize)]
struct ReplayedRecord {
    /// The record's number in the file, from 1.
    number: usize,
    /// The built-in variant the rules string is, if any.
    variant: Option<&'static str>,
    /// The rules string.
    rules: String,
    /// The moves replayed (each berserk step one), all of the record's.
    moves: usize,
    /// How the engine sees the last position: `ongoing`, or the game's end.
    status: String,
}

/// Replays every record of an OpenTafl file: each move must be legal and
/// capture what the record names.
pub(super) fn replay_opentafl(text: &str, rules: &TaflRules) -> Result<RecordsReplay, ParseError> {
    let games = opentafl::read_games(text, rules)?;
    let replayed: Vec<ReplayedRecord> = games
        .iter()
        .enumerate()
        .map(|(index, game)| {
            let mut end = game.start.clone();
            for &mv in &game.moves {
                end.play(mv);
            }
            ReplayedRecord {
                number: index + 1,
                variant: game.start.rules().variant_name(),
                rules: game.start.rules().rules_string_text().to_string(),
                moves: game.moves.len(),
                status: end
                    .ending()
                    .map_or("ongoing".to_string(), |reason| reason.name().to_string()),
            }
        })
        .collect();
    let mut summary = format!("{} records, every move legal as recorded\n", replayed.len());
    for record in &replayed {
        summary.push_str(&format!(
            "record {}: {} ({} moves), {}\n",
            record.number,
            record.variant.unwrap_or("rules string of its own"),
            record.moves,
            record.status
        ));
    }
    Ok(RecordsReplay {
        json: serde_json::json!({ "records": replayed }),
        text: summary,
        all_agree: true,
    })
}
