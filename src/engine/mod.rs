//! Engine protocols: line protocols on standard input and output through
//! which other programs (drivers, servers, graphical boards) play against
//! norn's agents.
//!
//! - [`HtpSession`]: the Hnefatafl Text Protocol.

mod htp;

pub use htp::HtpSession;

/// One session of a line protocol: it reads a command line and gives the
/// reply, keeping the game between commands.
pub trait EngineSession {
    /// The reply to one input line, in the protocol's framing, or `None`
    /// for a line without a command (a blank line or a comment).
    fn answer(&mut self, line: &str) -> Option<String>;

    /// Whether the session has ended (after `quit`).
    fn finished(&self) -> bool;
}
