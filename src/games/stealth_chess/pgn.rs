//! Games as PGN, the chess world's game records, with moves in standard
//! algebraic notation (SAN).
//!
//! A game that starts with no Assassin on the board is a game of chess on
//! files `b`..`i` (no other piece may enter a Slurk, and no pawn promotes
//! to an Assassin): it is written as standard chess PGN that chess tools
//! read, the files renamed `a`..`h`, with `[SetUp "1"]` and an 8-file
//! `[FEN]` when it does not start from the chess start position.
//!
//! Any other game is written on the 10-file board with
//! `[Variant "Stealth Chess"]`, `[SetUp "1"]`, `[FEN]` holding the first six
//! fields of the 10-file FEN and `[Slurks]` its seventh, the Slurk field
//! (`a1:a1:0,j1:j1:0,a8:a8:0,j8:j8:0` at the start: each Assassin in a
//! Slurk as its square, its entry point and its Slurk count). The moves of
//! the ordinary pieces are SAN; an Assassin's move is written with the
//! letter `A` and both squares, `-` between them for a step, a Slurk move
//! or an emergence and `x` for a capture (`Aa1-a2`, `Ab3xd5`), and an
//! emergence with a capture as `A`, the Slurk square, `-`, the square it
//! emerges on, `x` and the square it captures on (`Aa5-d3xd4`).
//! [`read_games`] reads both forms back.

use super::board::{FILES, Kind, RANKS, Side, square_at, square_name};
use super::moves::{Special, StealthChessMove};
use super::options::StealthChessRules;
use super::state::{EndReason, StealthChess};
use crate::bitboard::Square;
use crate::core::{Game, IllegalMove, MoveList, Notation, ParseError};
use crate::games::tag_value;

/// The chess start position as an 8-file FEN.
pub const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The tag that holds the Slurk field of a Stealth Chess game's start.
pub const SLURKS_TAG: &str = "Slurks";

/// Whether a game from `start` is written as chess: no Assassin stands on
/// the board, so none ever will.
pub fn is_chess(start: &StealthChess) -> bool {
    start.kind_pieces(Kind::Assassin).is_empty()
}

/// The name of `square` in a record from `start`: on the 8 files of chess
/// for a chess game, on the 10 files otherwise.
fn name(square: Square, chess: bool) -> String {
    let text = square_name(square);
    if !chess {
        return text;
    }
    let mut chars = text.chars();
    let file = chars.next().expect("a square name has a file");
    format!("{}{}", (file as u8 - 1) as char, chars.as_str())
}

/// The position as an 8-file chess FEN: files `b`..`i` of a position
/// with no Assassin.
pub fn chess_fen(state: &StealthChess) -> String {
    let mut rows = Vec::new();
    for rank in (0..RANKS as i32).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 1..FILES as i32 - 1 {
            match state.piece_at(square_at(file, rank)) {
                Some(piece) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(piece.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    // The other fields are the 10-file FEN's, the en passant square renamed.
    let text = state.position_text();
    let fields: Vec<&str> = text.split_whitespace().collect();
    let en_passant = match state.en_passant() {
        Some(square) => name(square, true),
        None => "-".to_string(),
    };
    format!(
        "{} {} {} {en_passant} {} {}",
        rows.join("/"),
        fields[1],
        fields[2],
        fields[4],
        fields[5]
    )
}

/// A move in SAN, written from the state before it (`chess` names the
/// squares on 8 files).
pub fn san(state: &StealthChess, mv: StealthChessMove, chess: bool) -> String {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    let mut text = san_without_check(state, mv, &moves, chess);
    let mut after = state.clone();
    after.play(mv);
    if after.ending() == Some(EndReason::Checkmate) {
        text.push('#');
    } else if after.in_check() {
        text.push('+');
    }
    text
}

/// SAN without the check mark, among the legal `moves`.
fn san_without_check(
    state: &StealthChess,
    mv: StealthChessMove,
    moves: &[StealthChessMove],
    chess: bool,
) -> String {
    let kind = state
        .piece_at(mv.from)
        .map_or(Kind::Pawn, |piece| piece.kind);
    let (from, to) = (name(mv.from, chess), name(mv.to, chess));
    let occupied = state.piece_at(mv.to).is_some();
    match (kind, mv.special) {
        (_, Special::Castle) => {
            if mv.to.index() > mv.from.index() {
                "O-O".into()
            } else {
                "O-O-O".into()
            }
        }
        (Kind::Assassin, Special::EmergeCapture(via)) => {
            format!("A{from}-{}x{to}", name(via, chess))
        }
        (Kind::Assassin, _) => format!("A{from}{}{to}", if occupied { 'x' } else { '-' }),
        (Kind::Pawn, special) => {
            let mut text = if from.as_bytes()[0] != to.as_bytes()[0] {
                format!("{}x{to}", &from[..1])
            } else {
                to
            };
            if let Special::Promotion(promoted) = special {
                text.push('=');
                text.push(promoted.letter());
            }
            text
        }
        (kind, _) => {
            let rivals: Vec<Square> = moves
                .iter()
                .filter(|other| {
                    other.to == mv.to
                        && other.from != mv.from
                        && other.special != Special::Castle
                        && state.piece_at(other.from).map(|piece| piece.kind) == Some(kind)
                })
                .map(|other| other.from)
                .collect();
            let (file, rank) = (&from[..1], &from[1..]);
            let which = if rivals.is_empty() {
                String::new()
            } else if rivals.iter().all(|&other| name(other, chess)[..1] != *file) {
                file.to_string()
            } else if rivals.iter().all(|&other| name(other, chess)[1..] != *rank) {
                rank.to_string()
            } else {
                from.clone()
            };
            let capture = if occupied { "x" } else { "" };
            format!("{}{which}{capture}{to}", kind.letter())
        }
    }
}

/// Reads a move in SAN (as [`san`] writes it; check marks and
/// annotations such as `!?` are optional), which must be legal.
///
/// # Errors
/// A text that is no legal move's SAN here.
pub fn read_san(
    state: &StealthChess,
    text: &str,
    chess: bool,
) -> Result<StealthChessMove, ParseError> {
    let bare = text.trim_end_matches(['+', '#', '!', '?']);
    // Castling is also written with zeros.
    let bare = bare.replace('0', "O");
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    moves
        .iter()
        .copied()
        .find(|&mv| san_without_check(state, mv, &moves, chess) == bare)
        .ok_or_else(|| ParseError::new("move", text, "no legal move is written so here"))
}

/// How a game ended, as PGN's result field writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgnResult {
    /// `1-0`.
    WhiteWon,
    /// `0-1`.
    BlackWon,
    /// `1/2-1/2`.
    Draw,
    /// `*`: not decided, or not known.
    Unknown,
}

impl PgnResult {
    /// The result as PGN writes it.
    pub fn text(self) -> &'static str {
        match self {
            PgnResult::WhiteWon => "1-0",
            PgnResult::BlackWon => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unknown => "*",
        }
    }

    /// The result of PGN's result text.
    pub fn from_text(text: &str) -> Option<PgnResult> {
        [
            PgnResult::WhiteWon,
            PgnResult::BlackWon,
            PgnResult::Draw,
            PgnResult::Unknown,
        ]
        .into_iter()
        .find(|result| result.text() == text)
    }
}

/// Writes one game: the tags of the Seven Tag Roster among `tags` in the
/// order given (PGN's order is `Event`, `Site`, `Date`, `Round`, `White`,
/// `Black`), `Result`, the other tags given, the tags of the start
/// position, the moves in SAN, an optional comment before the result, and
/// a blank line.
///
/// # Errors
/// A move that is not legal in turn.
pub fn write_game(
    start: &StealthChess,
    moves: &[StealthChessMove],
    tags: &[(&str, String)],
    result: PgnResult,
    comment: Option<&str>,
) -> Result<String, IllegalMove> {
    let chess = is_chess(start);
    let mut out = String::new();
    let mut tag = |key: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let value: String = value.chars().filter(|c| !c.is_control()).collect();
        out.push_str(&format!("[{key} \"{value}\"]\n"));
    };
    let roster = |key: &str| ["Event", "Site", "Date", "Round", "White", "Black"].contains(&key);
    for (key, value) in tags.iter().filter(|(key, _)| roster(key)) {
        tag(key, value);
    }
    tag("Result", result.text());
    for (key, value) in tags.iter().filter(|(key, _)| !roster(key)) {
        tag(key, value);
    }
    if chess {
        let fen = chess_fen(start);
        if fen != CHESS_START {
            tag("SetUp", "1");
            tag("FEN", &fen);
        }
    } else {
        let text = start.position_text();
        let fields: Vec<&str> = text.split_whitespace().collect();
        tag("Variant", "Stealth Chess");
        tag("SetUp", "1");
        tag("FEN", &fields[..6].join(" "));
        tag(SLURKS_TAG, fields.get(6).copied().unwrap_or("-"));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    let mut state = start.clone();
    for (index, &mv) in moves.iter().enumerate() {
        state.check_move(mv)?;
        let white = state.side_to_move() == Side::White;
        let number = start.fullmove + (index as u32 + u32::from(!start_is_white(start))) / 2;
        // A move number stays on the line of its move.
        let text = san(&state, mv, chess);
        tokens.push(match (white, index) {
            (true, _) => format!("{number}. {text}"),
            (false, 0) => format!("{number}... {text}"),
            (false, _) => text,
        });
        state.play(mv);
    }
    if let Some(comment) = comment {
        tokens.push(format!("{{{}}}", comment.replace('}', ")")));
    }
    tokens.push(result.text().to_string());
    // Lines of at most 80 characters, as PGN's export format asks.
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    Ok(out)
}

/// Whether White moves first from `start`.
fn start_is_white(start: &StealthChess) -> bool {
    start.side_to_move() == Side::White
}

/// One game read from PGN.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    /// Every tag in the order read.
    pub tags: Vec<(String, String)>,
    /// Where the game starts: the chess start, the Stealth Chess start, or
    /// the `FEN` (and `Slurks`) tags.
    pub start: StealthChess,
    /// The moves of the main line (variations are skipped).
    pub moves: Vec<StealthChessMove>,
    /// The result that ends the movetext.
    pub result: PgnResult,
}

impl PgnGame {
    /// The value of tag `key`, if the game has it.
    pub fn tag(&self, key: &str) -> Option<&str> {
        tag_value(&self.tags, key)
    }
}

/// Reads the games of a PGN text under `rules`: standard chess PGN (played
/// on files `b`..`i`) and Stealth Chess PGN as [`write_game`] writes them.
/// Comments, NAGs and variations are skipped.
///
/// # Errors
/// Malformed tags, a position that does not read, or a move that is not
/// legal; the error names the line.
pub fn read_games(text: &str, rules: StealthChessRules) -> Result<Vec<PgnGame>, ParseError> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut first_line = 1;
    let mut in_movetext = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('%') {
            continue;
        }
        if trimmed.starts_with('[') && !in_movetext_open(&movetext) {
            if in_movetext {
                games.push(read_game(&tags, &movetext, rules, first_line)?);
                tags.clear();
                movetext.clear();
                in_movetext = false;
            }
            if tags.is_empty() {
                first_line = index + 1;
            }
            tags.push(read_tag(trimmed).map_err(|problem| {
                ParseError::new("PGN tag", line, format!("line {}: {problem}", index + 1))
            })?);
            continue;
        }
        if !trimmed.is_empty() {
            in_movetext = true;
        }
        movetext.push_str(line);
        movetext.push('\n');
    }
    if in_movetext || !tags.is_empty() {
        games.push(read_game(&tags, &movetext, rules, first_line)?);
    }
    if games.is_empty() {
        return Err(ParseError::new("PGN", "", "no game"));
    }
    Ok(games)
}

/// Whether `movetext` ends inside a comment or a variation, where a `[`
/// at the start of a line is no tag.
fn in_movetext_open(movetext: &str) -> bool {
    let mut depth = 0i32;
    let mut comment = false;
    for c in movetext.chars() {
        match c {
            '{' if !comment => comment = true,
            '}' if comment => comment = false,
            '(' if !comment => depth += 1,
            ')' if !comment => depth -= 1,
            _ => {}
        }
    }
    comment || depth > 0
}

/// Reads `[Key "value"]`.
fn read_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or("a tag is written [Key \"value\"]")?;
    let (key, value) = inner
        .split_once(' ')
        .ok_or("a tag is written [Key \"value\"]")?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .ok_or("a tag's value is written in double quotes")?;
    Ok((
        key.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// Reads one game's movetext from the position its tags give.
fn read_game(
    tags: &[(String, String)],
    movetext: &str,
    rules: StealthChessRules,
    line: usize,
) -> Result<PgnGame, ParseError> {
    let at = |problem: String| {
        ParseError::new("PGN game", "", format!("game at line {line}: {problem}"))
    };
    let tag = |key: &str| tag_value(tags, key);
    let stealth =
        tag("Variant").is_some_and(|variant| variant.eq_ignore_ascii_case("stealth chess"));
    let start = match (tag("FEN"), stealth) {
        (Some(fen), true) => {
            let slurks = tag(SLURKS_TAG).unwrap_or("-");
            StealthChess::from_position_text(&format!("{fen} {slurks}"), rules)
        }
        (Some(fen), false) => StealthChess::from_position_text(fen, rules),
        (None, true) => Ok(StealthChess::new(rules)),
        (None, false) => StealthChess::from_position_text(CHESS_START, rules),
    }
    .map_err(|error| at(error.to_string()))?;
    let chess = !stealth;
    if chess && !is_chess(&start) {
        return Err(at(
            "a position with Assassins is Stealth Chess: it needs [Variant \"Stealth Chess\"]"
                .into(),
        ));
    }
    let mut state = start.clone();
    let mut moves = Vec::new();
    let mut result = PgnResult::Unknown;
    let mut depth = 0usize;
    let mut rest = movetext;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let end = rest
                .find('}')
                .ok_or_else(|| at("a comment is not closed".into()))?;
            rest = &rest[end + 1..];
            continue;
        }
        if c == ';' {
            rest = rest.find('\n').map_or("", |end| &rest[end..]);
            continue;
        }
        if c == '(' || c == ')' {
            depth = if c == '(' {
                depth + 1
            } else {
                depth.saturating_sub(1)
            };
            rest = &rest[1..];
            continue;
        }
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || "{}();".contains(c))
            .unwrap_or(rest.len());
        if end == 0 {
            // Only a `}` outside a comment stops a token before it starts.
            return Err(at(format!("a `{c}` outside a comment")));
        }
        let token = &rest[..end];
        rest = &rest[end..];
        if depth > 0 || token.starts_with('$') {
            continue;
        }
        if let Some(ended) = PgnResult::from_text(token) {
            result = ended;
            continue;
        }
        // A move number, `12.` or `12...`, possibly joined to its move
        // (SAN has no dot).
        let token = token.rfind('.').map_or(token, |dot| &token[dot + 1..]);
        if token.is_empty() {
            continue;
        }
        let mv = read_san(&state, token, chess).map_err(|error| at(error.to_string()))?;
        state.play(mv);
        moves.push(mv);
    }
    Ok(PgnGame {
        tags: tags.to_vec(),
        start,
        moves,
        result,
    })
}
