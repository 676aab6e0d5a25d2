//! OpenTafl's game records (`.otg`) of any tafl game: tags `[key:value]`,
//! the rules string in the `rules` tag (its start position and `atkf` say
//! where the game starts), then numbered turns of OpenTafl notation
//! (`1. d1-d3 c4-c2`).
//!
//! A turn is one side's move: `from-to` (the king's marked `K`, as in
//! `Kd4-d6`), its captures appended as `x` with the squares joined by `/`
//! (`e5-e8xe9/f8`), a move that wins ending in `++` (the king captured)
//! or `--` (the king out); a berserk piece's moves of one turn are joined
//! by `|`. Position records in the rules string list rank 1 first, as
//! OpenTafl writes them. Several games in one file follow one another,
//! each starting with its tags.

use super::board::Side;
use super::moves::TaflMove;
use super::notation::WrittenMove;
use super::options::TaflRules;
use super::pieces::Kind;
use super::rules_string::{RulesString, position_record};
use super::state::{EndReason, Tafl};
use crate::core::{Game, IllegalMove, ParseError};
use crate::games::opentafl_text::{read_record_games, write_record};

/// One game of an OpenTafl record of Tafl.
pub type OpenTaflGame = crate::games::opentafl_text::OpenTaflGame<Tafl>;

/// The rules string of a game that starts from `start`: its rules with
/// the start position and the side to move of `start`.
pub fn rules_string(start: &Tafl) -> String {
    let mut string: RulesString = start.rules.rules_string().clone();
    string.start = (0..start.dim() * start.dim())
        .map(|index| start.piece_at(index))
        .collect();
    string.attackers_first = start.side_to_move() == Side::Attackers;
    string.to_string()
}

/// The board of `state` as an OpenTafl position record, rank 1 first.
pub fn position_of(state: &Tafl) -> String {
    position_record(state.dim(), |index| state.piece_at(index))
}

/// One move in OpenTafl notation, written from the state before it.
pub fn move_text(state: &Tafl, mv: TaflMove) -> String {
    let captures = state.captures_of(mv);
    let mut text = String::new();
    if state
        .piece_at(mv.from.into())
        .is_some_and(|piece| piece.kind == Kind::King)
    {
        text.push('K');
    }
    text.push_str(&format!(
        "{}-{}",
        state.square_name(mv.from.into()),
        state.square_name(mv.to.into())
    ));
    if !captures.squares.is_empty() {
        let names: Vec<String> = captures
            .squares
            .iter()
            .map(|&square| state.square_name(square))
            .collect();
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
/// turns, two to a numbered line, and a blank line.
///
/// # Errors
/// A move that is not legal in turn.
pub fn write_game(
    start: &Tafl,
    moves: &[TaflMove],
    tags: &[(&str, String)],
) -> Result<String, IllegalMove> {
    let mut turns: Vec<String> = Vec::new();
    let mut state = start.clone();
    for &mv in moves {
        state.check_move(mv)?;
        let continues = state.berserk_square().is_some();
        let text = move_text(&state, mv);
        match turns.last_mut() {
            Some(turn) if continues => {
                turn.push('|');
                turn.push_str(&text);
            }
            _ => turns.push(text),
        }
        state.play(mv);
    }
    Ok(write_record(tags, &rules_string(start), &turns))
}

/// Reads the games of an OpenTafl record file. Each plays the rules
/// string of its `rules` tag, with the engine's own options (the ply
/// limit, the reading of repetitions) of `options`. Commentary and
/// variations are skipped; every move of the main line must be legal, and
/// the captures it names must be those it makes.
///
/// # Errors
/// What makes the text no OpenTafl record of a game the engine plays: a
/// missing or unsupported rules string, a malformed or illegal move; the
/// error names the line.
pub fn read_games(text: &str, options: &TaflRules) -> Result<Vec<OpenTaflGame>, ParseError> {
    read_record_games(
        text,
        |tags| start_of(tags, options),
        |state, token, moves| {
            for step in token.split('|') {
                let mv = read_move(state, step)?;
                state.play(mv);
                moves.push(mv);
            }
            Ok(())
        },
    )
}

/// The start of the rules string among `tags`, with the engine's options
/// of `options`.
fn start_of(tags: &[(String, String)], options: &TaflRules) -> Result<Tafl, String> {
    let text = tags
        .iter()
        .rev()
        .find(|(key, _)| key == "rules")
        .map(|(_, value)| value.as_str())
        .ok_or("no rules string (`[rules:dim:N ... start:POSITION]`) before the moves")?;
    let rules = TaflRules::from_rules_string(text).map_err(|error| error.to_string())?;
    Ok(Tafl::new(rules.with_options_of(options)))
}

/// Reads one move in OpenTafl notation (the plain `d1-d3` too), which must
/// be legal in `state` and capture what it names.
///
/// # Errors
/// Text that is no such move, or a move the rules refuse in `state`.
pub fn read_move(state: &Tafl, token: &str) -> Result<TaflMove, ParseError> {
    let bad = |problem: String| ParseError::new("OpenTafl move", token, problem);
    // A piece letter before the squares (`K`, or another kind's): a square
    // starts with a file letter and a digit.
    let strip_letter = |text: &str| -> usize {
        let bytes = text.as_bytes();
        usize::from(
            bytes.len() > 1 && bytes[0].is_ascii_alphabetic() && bytes[1].is_ascii_alphabetic(),
        )
    };
    let text = &token[strip_letter(token)..];
    let text = text.trim_end_matches(['+', '-']);
    let (squares, captures) = text.split_once('x').unwrap_or((text, ""));
    let mut written = squares.to_string();
    for captured in captures.split('/').filter(|captured| !captured.is_empty()) {
        written.push('x');
        written.push_str(&captured[strip_letter(captured)..]);
    }
    let recorded = WrittenMove::parse(state.dim(), &written)
        .map_err(|error| bad(error.problem().to_string()))?;
    let mv = TaflMove::new(recorded.from, recorded.to);
    state
        .check_move(mv)
        .map_err(|illegal| bad(illegal.reason().to_string()))?;
    let captured = state.captures_of(mv).squares;
    if let Some(named) = recorded.captures
        && named != captured
    {
        let names: Vec<String> = captured
            .iter()
            .map(|&square| state.square_name(square))
            .collect();
        return Err(bad(format!("the move captures [{}]", names.join(" "))));
    }
    Ok(mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::MoveList;
    use crate::games::tafl::VARIANTS;
    use crate::testing::playout_states;

    #[test]
    fn records_of_every_variant_read_back_as_written() {
        for variant in VARIANTS {
            let rules = TaflRules::variant(variant.name).unwrap();
            let start = Tafl::new(rules);
            let states = playout_states(&start, 1, 120, 11);
            // The moves from the start to the last state of the playout.
            let mut moves = Vec::new();
            let mut state = start.clone();
            let mut list = MoveList::new();
            for next in states.iter().skip(1) {
                state.legal_moves(&mut list);
                let mv = *list
                    .iter()
                    .find(|&&mv| {
                        let mut after = state.clone();
                        after.play(mv);
                        after == *next
                    })
                    .expect("a move leads to the next state");
                moves.push(mv);
                state.play(mv);
            }
            let text = write_game(&start, &moves, &[("event", "test".into())]).unwrap();
            let games = read_games(&text, &rules).unwrap();
            assert_eq!(games.len(), 1, "{}", variant.name);
            assert_eq!(games[0].moves, moves, "{}: {text}", variant.name);
            assert_eq!(games[0].start, start, "{}", variant.name);
            assert_eq!(games[0].tag("event"), Some("test"));
        }
    }
}
