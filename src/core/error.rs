//! Errors for bad input: unreadable text and illegal moves.

use std::fmt;

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
        if self.text.chars().count() > SHOWN {
            let shown: String = self.text.chars().take(SHOWN).collect();
            write!(f, "invalid {} `{shown}...`: {}", self.what, self.problem)
        } else {
            write!(f, "invalid {} `{}`: {}", self.what, self.text, self.problem)
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
        write!(f, "illegal move: {}", self.reason)
    }
}

impl std::error::Error for IllegalMove {}
