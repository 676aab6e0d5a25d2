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
        const SHOWN: usize = 80;
        let problem = escape_control(&self.problem);
        if self.text.chars().count() > SHOWN {
            let shown: String = self.text.chars().take(SHOWN).collect();
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
}
