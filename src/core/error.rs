//! Errors for bad input: unreadable text and illegal moves.

use std::fmt;

/// `text` with its control characters (line breaks, terminal escape codes)
/// and the invisible characters that reorder text on screen written as
/// escapes such as `\n` and `\u{1b}`, so that input echoed in a message
/// cannot break the message's line or write to the terminal. Other
/// characters, accents included, are kept as they are.
pub fn escape_control(text: &str) -> String {
    text.chars()
        .map(|c| {
            let reorders = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
            if c.is_control() || reorders {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `text` with the control characters of each of its lines escaped as
/// [`escape_control`] escapes them, its line breaks kept: a report or a
/// table that holds names an outside engine or a user chose (an agent's
/// spec) cannot write to the terminal. Text escaped once is unchanged by a
/// second escaping.
pub fn escape_control_lines(text: &str) -> String {
    text.split('\n')
        .map(escape_control)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The most characters of one quoted input shown in a message.
const QUOTED_CHARACTERS_SHOWN: usize = 80;

/// `message` with every quoted span (between backticks, or single quotes
/// that open after a space as clap writes them) longer than 80 characters
/// cut to its first 80 and `...`, so that a message quoting a hostile input
/// (a number of 100,000 digits, a spec of a megabyte) stays one short line.
/// An apostrophe inside a word (`the engine's`) opens no quote.
pub fn shorten_quoted(message: &str) -> String {
    let mut shortened = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(open) = opening_quote(rest) {
        let quote = rest.as_bytes()[open] as char;
        shortened.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let Some(close) = rest.find(quote) else {
            break;
        };
        let quoted = &rest[..close];
        match quoted.char_indices().nth(QUOTED_CHARACTERS_SHOWN) {
            Some((cut, _)) => {
                shortened.push_str(&quoted[..cut]);
                shortened.push_str("...");
            }
            None => shortened.push_str(quoted),
        }
        shortened.push(quote);
        rest = &rest[close + 1..];
    }
    shortened.push_str(rest);
    shortened
}

/// The byte offset of the first quote in `text` that opens a quoted span:
/// a backtick, or a single quote at the start or after a space.
fn opening_quote(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().find_map(|(at, &byte)| {
        let opens = byte == b'`' || (byte == b'\'' && (at == 0 || bytes[at - 1] == b' '));
        opens.then_some(at)
    })
}

/// Text that could not be read as a position, a move or an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    what: &'static str,
    text: String,
    problem: String,
}

impl ParseError {
    /// `what` names the kind of text (`"position"`, `"move"`), `text` is the
    /// offending input and `problem` says what is wrong with it.
    pub fn new(what: &'static str, text: &str, problem: impl Into<String>) -> Self {
        ParseError {
            what,
            text: text.to_string(),
            problem: problem.into(),
        }
    }

    /// What is wrong with the text.
    pub fn problem(&self) -> &str {
        &self.problem
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let problem = shorten_quoted(&escape_control(&self.problem));
        if self.text.chars().count() > QUOTED_CHARACTERS_SHOWN {
            let shown: String = self.text.chars().take(QUOTED_CHARACTERS_SHOWN).collect();
            let shown = escape_control(&shown);
            write!(f, "invalid {} `{shown}...`: {problem}", self.what)
        } else {
            let text = escape_control(&self.text);
            write!(f, "invalid {} `{text}`: {problem}", self.what)
        }
    }
}

impl std::error::Error for ParseError {}

/// A move that the rules do not allow in the current state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    reason: String,
}

impl IllegalMove {
    /// The refusal of a move, saying why (e.g. `the game is already over`).
    pub fn new(reason: impl Into<String>) -> Self {
        IllegalMove {
            reason: reason.into(),
        }
    }

    /// Why the move is illegal.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move: {}", escape_control(&self.reason))
    }
}

impl std::error::Error for IllegalMove {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_show_control_characters_escaped() {
        let forged = "a1\n\u{1b}[2J\u{202e}x\té";
        let error = ParseError::new("move", forged, format!("`{forged}` is no move"));
        let message = error.to_string();
        assert_eq!(
            message,
            "invalid move `a1\\n\\u{1b}[2J\\u{202e}x\\té`: \
             `a1\\n\\u{1b}[2J\\u{202e}x\\té` is no move"
        );
        let illegal = IllegalMove::new(format!("no piece on {forged}")).to_string();
        assert!(!illegal.chars().any(char::is_control), "{illegal:?}");
        assert!(illegal.ends_with("x\\té"), "{illegal:?}");
    }

    #[test]
    fn long_quoted_inputs_are_cut_and_short_ones_kept() {
        let digits = "9".repeat(100_000);
        let message = format!("`{digits}` is not a valid value for 'iters' (`{digits}`)");
        let shortened = shorten_quoted(&message);
        let cut = format!("`{}...`", "9".repeat(80));
        assert_eq!(
            shortened,
            format!("{cut} is not a valid value for 'iters' ({cut})")
        );
        let exactly_shown = "é".repeat(80);
        let kept =
            format!("the engine's `{exactly_shown}` and {digits:.90}'s, and an unclosed ` stays");
        assert_eq!(shorten_quoted(&kept), kept);
        let error = ParseError::new("spec", &digits, format!("`{digits}` is too large"));
        assert!(error.to_string().len() < 300, "{error}");
    }
}
