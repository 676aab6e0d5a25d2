//! Hnefatafl's records in other programs' formats: OpenTafl's game records
//! written and read, and the CSV records of the shared data read.

use crate::arena::{RecordedGame, RecordedResult};
use crate::companions::numbered_records;
use crate::companions::opentafl::{imported_record, moves_of, record_tags};
use crate::core::ParseError;
use crate::games::hnefatafl::opentafl::{self, OpenTaflGame};
use crate::games::hnefatafl::{Hnefatafl, HnefataflRules, Side, read_records};

/// One game as an OpenTafl record.
pub(super) fn write_opentafl(game: &RecordedGame<Hnefatafl>) -> Result<String, String> {
    let moves = moves_of(&game.plies)?;
    opentafl::write_game(&game.start, &moves, &record_tags(game))
        .map_err(|illegal| illegal.to_string())
}

/// The games of an OpenTafl record file.
pub(super) fn read_opentafl(
    text: &str,
    rules: &HnefataflRules,
) -> Result<Vec<RecordedGame<Hnefatafl>>, ParseError> {
    let games = opentafl::read_games(text, *rules)?;
    Ok(numbered_records(games, |number, game: OpenTaflGame| {
        let tag = |key: &str| game.tag(key).map(str::to_string);
        imported_record(number, game.start.clone(), &game.moves, tag, game.resigned)
    }))
}

/// The records of a CSV file of the shared data (`moves,attacker_captures,
/// defender_captures,result`, one game a line), each with its moves as far
/// as they replay ([`GameRecord::legal_moves`]); a record cut short says
/// why in its note.
pub(super) fn read_csv(
    text: &str,
    rules: &HnefataflRules,
) -> Result<Vec<RecordedGame<Hnefatafl>>, ParseError> {
    let mut games = Vec::new();
    for (line, record) in read_records(text)? {
        let (moves, note) = record.legal_moves(*rules);
        let result = match record.result.as_str() {
            "Black" => RecordedResult::Win(Side::Attackers.player()),
            "White" => RecordedResult::Win(Side::Defenders.player()),
            "Draw" => RecordedResult::Draw,
            _ => RecordedResult::Unfinished,
        };
        let mut record = RecordedGame::imported(line, Hnefatafl::start(*rules), &moves, Vec::new());
        record.result = result;
        record.note = note;
        games.push(record);
    }
    Ok(games)
}
