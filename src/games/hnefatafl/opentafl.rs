//! OpenTafl's game records (`.otg`): tags `[key:value]`, a rules string
//! with the start position, then numbered turns of two moves in OpenTafl
//! notation (`1. h1-h3 f4-i4`).
//!
//! A move is `from-to`, the king's moves marked `K` (`Kf6-f9`), its
//! captures appended as `x` and the squares joined by `/` (`e5-e8xe9/f8`);
//! a move that wins ends in `++` (the king is captured) or `--` (the king
//! escapes). The rules string of Copenhagen Hnefatafl is
//! `dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:POSITION`, the
//! position an OpenTafl position string (the game's own position text,
//! [`HnefataflSetup`](super::HnefataflSetup), less the side to move: `atkf`
//! says whether the attackers move first). Several games in one file follow
//! one another, each starting with its tags.

use super::board::{Side, square_name};
use super::moves::HnefataflMove;
use super::notation::RecordedMove;
use super::options::HnefataflRules;
use super::state::{EndReason, Hnefatafl};
use crate::core::{Game, IllegalMove, Notation, ParseError};
use crate::games::opentafl_text::{read_record_games, write_record};

/// One game of an OpenTafl record of Hnefatafl.
pub type OpenTaflGame = crate::games::opentafl_text::OpenTaflGame<Hnefatafl>;

/// The rules string of a game that starts from `start`.
pub fn rules_string(start: &Hnefatafl) -> String {
    let text = start.position_text();
    let board = text.split_whitespace().next().unwrap_or_default();
    let attackers_first = if start.side_to_move() == Side::Attackers {
        "y"
    } else {
        "n"
    };
    let repetition = if start.rules().repetition_loses {
        "w"
    } else {
        "d"
    };
    format!(
        "dim:11 name:Copenhagen atkf:{attackers_first} tfr:{repetition} sw:s efe:y start:{board}"
    )
}

/// A move in OpenTafl notation, written from the state before it.
pub fn move_text(state: &Hnefatafl, mv: HnefataflMove) -> String {
    let (captured, _) = state.captures_of(mv);
    let mut text = String::new();
    if mv.from == state.king() {
        text.push('K');
    }
    text.push_str(&format!("{}-{}", square_name(mv.from), square_name(mv.to)));
    let names: Vec<String> = captured.squares().map(square_name).collect();
    if !names.is_empty() {
        text.push('x');
        text.push_str(&names.join("/"));
    }
    let mut after = state.clone();
    after.play(mv);
    match after.ending() {
        Some(EndReason::KingCaptured) => text.push_str("++"),
        Some(EndReason::Escape | EndReason::ExitFort) => text.push_str("--"),
        _ => {}
    }
    text
}

/// Writes one game: `tags` (key and value; a `]` or a line break in a
/// value is written as a space), the rules string of `start`, then the
/// moves in numbered turns, and a blank line.
///
/// # Errors
/// A move that is not legal in turn.
pub fn write_game(
    start: &Hnefatafl,
    moves: &[HnefataflMove],
    tags: &[(&str, String)],
) -> Result<String, IllegalMove> {
    let mut state = start.clone();
    let mut turns = Vec::with_capacity(moves.len());
    for &mv in moves {
        state.check_move(mv)?;
        turns.push(move_text(&state, mv));
        state.play(mv);
    }
    Ok(write_record(tags, &rules_string(start), &turns))
}

/// Reads the games of an OpenTafl record file under `rules`. Commentary
/// (`[first|second]`) and variations (turns numbered like `2a.1.1a.`) are
/// skipped; every move of the main line must be legal, and the captures it
/// names must be those it makes.
///
/// # Errors
/// What makes the text no OpenTafl record of Copenhagen Hnefatafl: a
/// board other than 11x11, a start position that is not one, a
/// malformed or illegal move; the error names the line.
pub fn read_games(text: &str, rules: HnefataflRules) -> Result<Vec<OpenTaflGame>, ParseError> {
    read_record_games(
        text,
        |tags| start_of(tags, rules),
        |state, token, moves| {
            let mv = read_move(state, token)?;
            state.play(mv);
            moves.push(mv);
            Ok(())
        },
    )
}

/// The start position of the rules string among `tags`.
fn start_of(tags: &[(String, String)], rules: HnefataflRules) -> Result<Hnefatafl, String> {
    let rules_text = tags
        .iter()
        .rev()
        .find(|(key, _)| key == "rules")
        .map(|(_, value)| value.as_str())
        .ok_or("no rules string (`[rules:dim:11 ... start:POSITION]`) before the moves")?;
    let mut board = None;
    let mut attackers_first = true;
    for entry in rules_text.split_whitespace() {
        let (key, value) = entry.split_once(':').unwrap_or((entry, ""));
        match key {
            "dim" if value != "11" => {
                return Err(format!(
                    "a board of {value}x{value}; Copenhagen Hnefatafl is played on 11x11"
                ));
            }
            "atkf" => attackers_first = value != "n",
            "start" => board = Some(value),
            _ => {}
        }
    }
    let board = board.ok_or("the rules string has no start position (`start:`)")?;
    let side = if attackers_first {
        Side::Attackers
    } else {
        Side::Defenders
    };
    Hnefatafl::from_position_text(&format!("{board} {side}"), rules)
        .map_err(|error| error.to_string())
}

/// Reads one move in OpenTafl notation, which must be legal in `state` and
/// capture what it names.
fn read_move(state: &Hnefatafl, token: &str) -> Result<HnefataflMove, ParseError> {
    let bad = |problem: String| ParseError::new("OpenTafl move", token, problem);
    // A piece letter before the squares (`K`, or any of OpenTafl's
    // special pieces): a square starts with a file letter and a digit.
    let mut text = token;
    let bytes = text.as_bytes();
    if bytes.len() > 1 && bytes[0].is_ascii_alphabetic() && bytes[1].is_ascii_alphabetic() {
        text = &text[1..];
    }
    let text = text.trim_end_matches(['+', '-']);
    let (squares, captures) = text.split_once('x').unwrap_or((text, ""));
    let mut written = squares.to_string();
    if !captures.is_empty() {
        for captured in captures.split('/') {
            let captured = captured.trim_start_matches(|c: char| c.is_ascii_uppercase());
            let captured = match captured.as_bytes() {
                [first, second, ..]
                    if first.is_ascii_alphabetic() && second.is_ascii_alphabetic() =>
                {
                    &captured[1..]
                }
                _ => captured,
            };
            written.push('x');
            written.push_str(captured);
        }
    }
    let recorded: RecordedMove = written
        .parse()
        .map_err(|error: ParseError| bad(error.problem().to_string()))?;
    let mv = recorded.mv();
    state
        .check_move(mv)
        .map_err(|illegal| bad(illegal.reason().to_string()))?;
    let (captured, _) = state.captures_of(mv);
    if !captures.is_empty() && captured != recorded.captures {
        return Err(bad(format!(
            "the move captures [{}]",
            captured
                .squares()
                .map(square_name)
                .collect::<Vec<_>>()
                .join(" ")
        )));
    }
    Ok(mv)
}
