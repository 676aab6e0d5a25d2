//! Hnefatafl's records in other programs' formats: OpenTafl's game records
//! written and read, and the CSV records of the shared data read.

use crate::arena::{RecordedGame, RecordedResult, tagged_players};
use crate::companions::numbered_records;
use crate::core::{Game, ParseError, Ply};
use crate::games::hnefatafl::opentafl::{self, OpenTaflGame};
use crate::games::hnefatafl::{Hnefatafl, HnefataflMove, HnefataflRules, Side, read_records};

/// The plies of a game of turns as moves.
fn moves_of(plies: &[Ply<HnefataflMove>]) -> Result<Vec<HnefataflMove>, String> {
    plies
        .iter()
        .map(|ply| match ply {
            Ply::Move(mv) => Ok(*mv),
            Ply::Joint(_) => Err("a joint move in a game of turns".to_string()),
        })
        .collect()
}

/// One game as an OpenTafl record: the players and the game's number and
/// seed in the tags, the result as OpenTafl writes it (`1` the attackers
/// won, `-1` the defenders, `0` a draw, `?` not decided).
pub(super) fn write_opentafl(game: &RecordedGame<Hnefatafl>) -> Result<String, String> {
    let moves = moves_of(&game.plies)?;
    let mut event = format!("norn game {}", game.number);
    if let Some(seed) = game.seed {
        event.push_str(&format!(", seed {seed}"));
    }
    let mut tags = vec![("event", event)];
    for (side, player) in [Side::Attackers, Side::Defenders]
        .into_iter()
        .zip(&game.players)
    {
        tags.push((
            if side == Side::Attackers {
                "attackers"
            } else {
                "defenders"
            },
            player.clone(),
        ));
    }
    let result = match game.result {
        RecordedResult::Win(player) if player == Side::Attackers.player() => "1",
        RecordedResult::Win(_) => "-1",
        RecordedResult::Draw => "0",
        RecordedResult::Unfinished => "?",
    };
    tags.push(("result", result.to_string()));
    if let Some(reason) = &game.reason {
        tags.push(("termination", reason.clone()));
    }
    tags.push(("compiler", "norn".to_string()));
    opentafl::write_game(&game.start, &moves, &tags).map_err(|illegal| illegal.to_string())
}

/// The games of an OpenTafl record file.
pub(super) fn read_opentafl(
    text: &str,
    rules: &HnefataflRules,
) -> Result<Vec<RecordedGame<Hnefatafl>>, ParseError> {
    let games = opentafl::read_games(text, *rules)?;
    Ok(numbered_records(games, recorded_opentafl))
}

/// An OpenTafl game as a record: the result of its `result` tag, or
/// where its moves lead.
fn recorded_opentafl(number: usize, game: OpenTaflGame) -> RecordedGame<Hnefatafl> {
    let players = tagged_players(game.tag("attackers"), game.tag("defenders"));
    let mut record = RecordedGame::imported(number, game.start.clone(), &game.moves, players);
    let end = record.end();
    let tagged = match game.tag("result") {
        Some("1") => Some(RecordedResult::Win(Side::Attackers.player())),
        Some("-1") => Some(RecordedResult::Win(Side::Defenders.player())),
        Some("0") => Some(RecordedResult::Draw),
        _ => None,
    };
    (record.result, record.reason) = match (tagged, end.status().outcome(), game.resigned) {
        (_, Some(outcome), _) => (
            tagged.unwrap_or(match outcome.winner() {
                Some(player) => RecordedResult::Win(player),
                None => RecordedResult::Draw,
            }),
            Some(outcome.reason.to_string()),
        ),
        (_, None, true) => (
            RecordedResult::Win(end.side_to_move().opponent().player()),
            Some("resignation".to_string()),
        ),
        (Some(result), None, false) => (result, game.tag("termination").map(str::to_string)),
        (None, None, false) => (RecordedResult::Unfinished, None),
    };
    record
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
