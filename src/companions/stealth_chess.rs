//! Stealth Chess's registry entry: the generic agents and tools serve it,
//! and its records are written and read as PGN ([`pgn`]).

use crate::arena::{RecordedGame, RecordedResult, tagged_players};
use crate::companions::numbered_records;
use crate::core::{Game, ParseError, Ply};
use crate::games::stealth_chess::pgn::{self, PgnGame, PgnResult};
use crate::games::stealth_chess::{Side, StealthChess, StealthChessMove, StealthChessRules};
use crate::registry::{ExportFormat, ImportFormat, Registered};

impl Registered for StealthChess {
    const TITLE: &'static str = "Stealth Chess: chess on 10x8 with Slurks and Assassins";
    const SIDES: &'static [&'static str] = &["white", "black"];

    fn export_formats() -> Vec<ExportFormat<Self>> {
        vec![ExportFormat {
            name: "pgn",
            title: "PGN: standard chess PGN for games without Assassins, Stealth Chess PGN otherwise",
            write: write_pgn,
        }]
    }

    fn import_formats() -> Vec<ImportFormat<Self>> {
        vec![ImportFormat {
            name: "pgn",
            title: "PGN of chess or of Stealth Chess",
            read: read_pgn,
        }]
    }
}

/// One game as PGN: the agents as the players, the game's number as the
/// round, norn's reason for the end in `Termination` and a comment.
fn write_pgn(game: &RecordedGame<StealthChess>) -> Result<String, String> {
    let moves = game
        .plies
        .iter()
        .map(|ply| match ply {
            Ply::Move(mv) => Ok(*mv),
            Ply::Joint(_) => Err("a joint move in a game of turns".to_string()),
        })
        .collect::<Result<Vec<StealthChessMove>, String>>()?;
    let player = |side: Side| {
        game.players
            .get(side.player())
            .cloned()
            .unwrap_or_else(|| "?".to_string())
    };
    let event = match game.seed {
        Some(seed) => format!("norn game {}, seed {seed}", game.number),
        None => format!("norn game {}", game.number),
    };
    let result = match game.result {
        RecordedResult::Win(player) if player == Side::White.player() => PgnResult::WhiteWon,
        RecordedResult::Win(_) => PgnResult::BlackWon,
        RecordedResult::Draw => PgnResult::Draw,
        RecordedResult::Unfinished => PgnResult::Unknown,
    };
    let termination = match game.reason.as_deref() {
        None => "unterminated",
        Some(crate::arena::MAX_PLIES_REASON) => "adjudication",
        Some(crate::arena::FORFEIT_REASON) => "rules infraction",
        Some(_) => "normal",
    };
    let tags = [
        ("Event", event),
        ("Site", "?".to_string()),
        ("Date", "????.??.??".to_string()),
        ("Round", game.number.to_string()),
        ("White", player(Side::White)),
        ("Black", player(Side::Black)),
        ("Termination", termination.to_string()),
    ];
    pgn::write_game(&game.start, &moves, &tags, result, game.reason.as_deref())
        .map_err(|illegal| illegal.to_string())
}

/// The games of a PGN file.
fn read_pgn(
    text: &str,
    rules: &StealthChessRules,
) -> Result<Vec<RecordedGame<StealthChess>>, ParseError> {
    let games = pgn::read_games(text, *rules)?;
    Ok(numbered_records(games, recorded_pgn))
}

/// A PGN game as a record.
fn recorded_pgn(number: usize, game: PgnGame) -> RecordedGame<StealthChess> {
    let players = tagged_players(game.tag("White"), game.tag("Black"));
    let mut record = RecordedGame::imported(number, game.start, &game.moves, players);
    record.result = match game.result {
        PgnResult::WhiteWon => RecordedResult::Win(Side::White.player()),
        PgnResult::BlackWon => RecordedResult::Win(Side::Black.player()),
        PgnResult::Draw => RecordedResult::Draw,
        PgnResult::Unknown => RecordedResult::Unfinished,
    };
    record.reason = (record.end().status().outcome()).map(|outcome| outcome.reason.to_string());
    record
}
