//! What the OpenTafl game records of Copenhagen Hnefatafl and of the tafl
//! family share above the game layer: the tags norn writes, and a read
//! game made into a record with its result.

use crate::arena::{RecordedGame, RecordedResult, tagged_players};
use crate::core::{Game, Ply};

/// The plies of a game of turns as moves.
pub(super) fn moves_of<M: Copy>(plies: &[Ply<M>]) -> Result<Vec<M>, String> {
    plies
        .iter()
        .map(|ply| match ply {
            Ply::Move(mv) => Ok(*mv),
            Ply::Joint(_) => Err("a joint move in a game of turns".to_string()),
        })
        .collect()
}

/// The tags of a game's record: the game's number and seed, the players
/// (the attackers are player 0), the result as OpenTafl writes it (`1`
/// the attackers won, `-1` the defenders, `0` a draw, `?` not decided),
/// how it ended, and the program that wrote it.
pub(super) fn record_tags<G: Game>(game: &RecordedGame<G>) -> Vec<(&'static str, String)> {
    let mut event = format!("norn game {}", game.number);
    if let Some(seed) = game.seed {
        event.push_str(&format!(", seed {seed}"));
    }
    let mut tags = vec![("event", event)];
    for (side, player) in ["attackers", "defenders"].into_iter().zip(&game.players) {
        tags.push((side, player.clone()));
    }
    let result = match game.result {
        RecordedResult::Win(0) => "1",
        RecordedResult::Win(_) => "-1",
        RecordedResult::Draw => "0",
        RecordedResult::Unfinished => "?",
    };
    tags.push(("result", result.to_string()));
    if let Some(reason) = &game.reason {
        tags.push(("termination", reason.clone()));
    }
    tags.push(("compiler", "norn".to_string()));
    tags
}

/// The record of a game read from OpenTafl's file: its result is where
/// its moves lead if the game is over there (the tag's winner if it names
/// one), else a resignation's (`---`: the side to move gave up), else the
/// tag's.
pub(super) fn imported_record<G: Game>(
    number: usize,
    start: G,
    moves: &[G::Move],
    tag: impl Fn(&str) -> Option<String>,
    resigned: bool,
) -> RecordedGame<G> {
    let players = tagged_players(tag("attackers").as_deref(), tag("defenders").as_deref());
    let mut record = RecordedGame::imported(number, start, moves, players);
    let end = record.end();
    let tagged = match tag("result").as_deref() {
        Some("1") => Some(RecordedResult::Win(0)),
        Some("-1") => Some(RecordedResult::Win(1)),
        Some("0") => Some(RecordedResult::Draw),
        _ => None,
    };
    let status = end.status();
    (record.result, record.reason) = match (tagged, status.outcome(), resigned) {
        (_, Some(outcome), _) => (
            tagged.unwrap_or(match outcome.winner() {
                Some(player) => RecordedResult::Win(player),
                None => RecordedResult::Draw,
            }),
            Some(outcome.reason.to_string()),
        ),
        (_, None, true) => (
            RecordedResult::Win(1 - status.player_to_move().unwrap_or(0).min(1)),
            Some("resignation".to_string()),
        ),
        (Some(result), None, false) => (result, tag("termination")),
        (None, None, false) => (RecordedResult::Unfinished, None),
    };
    record
}
