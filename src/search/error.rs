//! Why a search could not run to its end.

use crate::core::Status;
use std::fmt;

/// A search reached a kind of state it does not search through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchError {
    /// The searcher, e.g. `"alpha-beta"`.
    pub searcher: &'static str,
    /// The kind of state, e.g. `"a simultaneous choice"`.
    pub state: &'static str,
}

impl SearchError {
    /// The error of `searcher` for a state with `status`, which it cannot
    /// search: a chance event or a simultaneous choice.
    pub(crate) fn unsupported(searcher: &'static str, status: Status) -> SearchError {
        let state = match status {
            Status::Chance => "a chance event",
            Status::Simultaneous => "a simultaneous choice",
            Status::ToMove(_) => "a state with one player to move",
            Status::Over(_) => "a finished game",
        };
        SearchError { searcher, state }
    }
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cannot search through {}: it searches states where one player is to move",
            self.searcher, self.state
        )
    }
}

impl std::error::Error for SearchError {}
