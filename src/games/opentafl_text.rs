//! The text of OpenTafl's game records (`.otg`), shared by Copenhagen
//! Hnefatafl's and the tafl family's readers and writers: tags
//! `[key:value]`, the rules string, numbered turns of move tokens,
//! commentary and variations; what a move token means is each game's.

use crate::core::{Game, ParseError};
use crate::games::tag_value;

/// One game of an OpenTafl record: its tags, where it starts and its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenTaflGame<G: Game> {
    /// The tags in the order written, key and value (`rules` included).
    pub tags: Vec<(String, String)>,
    /// The position of the rules string's `start`, with the side that moves
    /// first.
    pub start: G,
    /// The moves of the record's main line, each legal in turn.
    pub moves: Vec<G::Move>,
    /// Whether the record ends with a resignation (`---`) by the side to
    /// move.
    pub resigned: bool,
}

impl<G: Game> OpenTaflGame<G> {
    /// The value of tag `key`, if the record has it.
    pub fn tag(&self, key: &str) -> Option<&str> {
        tag_value(&self.tags, key)
    }
}

/// Reads the games of an OpenTafl record file: `begin` makes a game's
/// start from its tags when its first turn is read, `play` reads each
/// move token of its main line, played on the position so far, into the
/// moves it stands for (several for a berserk turn). Commentary (`[first|second]`) and variations
/// (turns numbered like `2a.1.1a.`) are skipped; a line starting `dim:`
/// is a rules string without its tag. Errors name the line.
///
/// # Errors
/// A line that is no tag, rules string or turn; a token after a
/// resignation; what `begin` and `play` refuse; a file without a game.
pub(crate) fn read_record_games<G: Game>(
    text: &str,
    begin: impl Fn(&[(String, String)]) -> Result<G, String>,
    mut play: impl FnMut(&mut G, &str, &mut Vec<G::Move>) -> Result<(), ParseError>,
) -> Result<Vec<OpenTaflGame<G>>, ParseError> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    // The game being read and the position its moves lead to.
    let mut current: Option<(OpenTaflGame<G>, G)> = None;
    for (index, line) in text.lines().enumerate() {
        let bad = |problem: String| {
            ParseError::new(
                "OpenTafl record",
                line,
                format!("line {}: {problem}", index + 1),
            )
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if inner.contains('|') {
                continue; // commentary
            }
            games.extend(current.take().map(|(game, _)| game));
            let (key, value) = inner
                .split_once(':')
                .ok_or_else(|| bad("a tag is written [key:value]".into()))?;
            tags.push((key.trim().to_string(), value.trim().to_string()));
            continue;
        }
        if line.starts_with("dim:") {
            games.extend(current.take().map(|(game, _)| game));
            tags.push(("rules".to_string(), line.to_string()));
            continue;
        }
        let mut tokens = line.split_whitespace();
        let turn = tokens.next().unwrap_or_default();
        let Some(number) = turn.strip_suffix('.') else {
            return Err(bad(format!(
                "expected a tag, a rules string or a numbered turn (`1. h1-h3 f4-i4`), found `{turn}`"
            )));
        };
        if !number.bytes().all(|byte| byte.is_ascii_digit()) {
            continue; // a variation
        }
        let (read, position) = match current.as_mut() {
            Some(current) => current,
            None => {
                let start = begin(&tags).map_err(bad)?;
                let game = OpenTaflGame {
                    tags: std::mem::take(&mut tags),
                    start: start.clone(),
                    moves: Vec::new(),
                    resigned: false,
                };
                current.insert((game, start))
            }
        };
        for token in tokens {
            if read.resigned {
                return Err(bad(format!("`{token}` after a resignation")));
            }
            if token == "---" {
                read.resigned = true;
                continue;
            }
            play(position, token, &mut read.moves).map_err(|error| bad(error.to_string()))?;
        }
    }
    if let Some((read, _)) = current.take() {
        games.push(read);
    } else if !tags.is_empty() {
        // A record of a game with no move yet.
        let start =
            begin(&tags).map_err(|problem| ParseError::new("OpenTafl record", "", problem))?;
        games.push(OpenTaflGame {
            tags,
            start,
            moves: Vec::new(),
            resigned: false,
        });
    }
    if games.is_empty() {
        return Err(ParseError::new(
            "OpenTafl record",
            "",
            "no game: a record has a rules string and numbered turns",
        ));
    }
    Ok(games)
}

/// Writes one game's record: `tags` (a `]` or a line break in a value,
/// which would end the tag, is written as a space), the rules string,
/// then `turns` two to a numbered line, and a blank line.
pub(crate) fn write_record(tags: &[(&str, String)], rules: &str, turns: &[String]) -> String {
    let mut out = String::new();
    for (key, value) in tags {
        let value: String = value
            .chars()
            .map(|c| {
                if matches!(c, ']' | '\n' | '\r') {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        out.push_str(&format!("[{key}:{value}]\n"));
    }
    out.push_str(&format!("[rules:{rules}]\n\n"));
    for (index, pair) in turns.chunks(2).enumerate() {
        out.push_str(&format!("{}. {}\n", index + 1, pair.join(" ")));
    }
    out.push('\n');
    out
}
