//! Engine protocols: line protocols on standard input and output through
//! which other programs (drivers, servers, graphical boards) play against
//! norn's agents.
//!
//! - [`EngineSession`]: what a protocol is, whatever the game; each game's
//!   protocols live with its other additions (the Hnefatafl Text Protocol:
//!   [`crate::companions::hnefatafl::HtpSession`]).
//! - [`serve`]: runs any session on a byte stream, refusing lines that are
//!   not text and surviving whatever else arrives.

mod outside;
mod process;

pub use outside::DEFAULT_REPLY_MS;
pub(crate) use outside::{Fault, OutsideEngine};
pub use process::stop_all_engines;
pub(crate) use process::{EXIT_GRACE, EngineProcess, Event};

use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// One session of a line protocol: it reads a command line and gives the
/// reply, keeping the game between commands.
pub trait EngineSession {
    /// The reply to one input line, in the protocol's framing, or `None`
    /// for a line without a command (a blank line or a comment).
    fn answer(&mut self, line: &str) -> Option<String>;

    /// The protocol's failure reply saying `message`, for a line that could
    /// not be read as a command at all.
    fn refusal(&self, message: &str) -> String;

    /// Whether the session has ended (after `quit`).
    fn finished(&self) -> bool;

    /// What the session writes before it reads any line (OTEP's `hello`);
    /// nothing by default.
    fn greeting(&mut self) -> Option<String> {
        None
    }

    /// How long the session waits for its next line before it acts without
    /// it ([`EngineSession::lost_patience`]): OTEP's `play` waits a moment
    /// for the `clock` that follows it. `None`, the default, waits as long
    /// as the input stays open.
    fn patience(&self) -> Option<Duration> {
        None
    }

    /// The reply when no line came within [`EngineSession::patience`].
    fn lost_patience(&mut self) -> Option<String> {
        None
    }
}

/// The longest line [`serve`] reads as a command. No command of a protocol
/// comes near it; the limit keeps a stream without line breaks from filling
/// the memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Why [`serve`] stopped before `quit` or the end of the input.
#[derive(Debug)]
pub enum ServeError {
    /// The input could not be read.
    Read(io::Error),
    /// An answer could not be written to the output.
    Write(io::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Read(error) => write!(f, "cannot read the input: {error}"),
            ServeError::Write(error) => write!(f, "cannot write the output: {error}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Read(error) | ServeError::Write(error) => Some(error),
        }
    }
}

/// Answers the lines of `input` with `session` until `quit` or the end of
/// the input (which may come mid-game), writing and flushing each reply
/// before reading on, so that a driver can wait for it. The session's
/// greeting, if it has one, is written first.
///
/// A line that is not UTF-8, or longer than [`MAX_LINE_BYTES`], gets the
/// protocol's failure reply ([`EngineSession::refusal`]) and the session goes
/// on. A line break is `\n` or `\r\n`; the last line may lack one. The
/// input is read on a thread of its own, so that a session that waits for
/// a line only so long ([`EngineSession::patience`]) is not held by a
/// silent driver.
///
/// ```
/// use norn::agents::build_agent;
/// use norn::companions::hnefatafl::HtpSession;
/// use norn::engine::serve;
///
/// let agent = build_agent("random", 1).unwrap();
/// let mut session = HtpSession::new(Default::default(), agent);
/// let mut output = Vec::new();
/// serve(&mut session, &b"name\n\xff\xfe\nversion"[..], &mut output).unwrap();
/// let replies = String::from_utf8(output).unwrap();
/// assert!(replies.starts_with("= norn\n\n? the line is not UTF-8 text\n\n= "));
/// ```
///
/// # Errors
/// If the input cannot be read or the output cannot be written.
pub fn serve(
    session: &mut dyn EngineSession,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> Result<(), ServeError> {
    let mut write = |reply: Option<String>| match reply {
        Some(reply) => output
            .write_all(reply.as_bytes())
            .and_then(|()| output.flush())
            .map_err(ServeError::Write),
        None => Ok(()),
    };
    write(session.greeting())?;
    let lines = read_lines_apart(input);
    while !session.finished() {
        let next = match session.patience() {
            None => lines.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(patience) => lines.recv_timeout(patience),
        };
        let (line, length) = match next {
            Ok(read) => match read.map_err(ServeError::Read)? {
                Some(line) => line,
                None => break,
            },
            Err(RecvTimeoutError::Timeout) => {
                write(session.lost_patience())?;
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        write(match length {
            LineLength::TooLong => {
                Some(session.refusal(&format!("the line is longer than {MAX_LINE_BYTES} bytes")))
            }
            LineLength::Fits => match std::str::from_utf8(&line) {
                Ok(text) => session.answer(text),
                Err(_) => Some(session.refusal("the line is not UTF-8 text")),
            },
        })?;
    }
    Ok(())
}

/// A line read by [`read_lines_apart`]: its bytes and whether it fitted;
/// `None` at the end of the input.
type ReadLine = io::Result<Option<(Vec<u8>, LineLength)>>;

/// Reads `input`'s lines on a thread of its own, as [`read_line`] reads
/// them, until the input ends or fails. A few lines are read ahead; a
/// driver that floods the input waits for the session to catch up.
fn read_lines_apart(mut input: impl BufRead + Send + 'static) -> Receiver<ReadLine> {
    let (sender, lines) = mpsc::sync_channel(16);
    std::thread::spawn(move || {
        let mut line = Vec::new();
        loop {
            let read = read_line(&mut input, &mut line, Overlong::Skip)
                .map(|length| length.map(|length| (std::mem::take(&mut line), length)));
            let last = !matches!(read, Ok(Some(_)));
            if sender.send(read).is_err() || last {
                return;
            }
        }
    });
    lines
}

/// Whether a line read fitted in [`MAX_LINE_BYTES`].
pub(crate) enum LineLength {
    Fits,
    /// Only the first [`MAX_LINE_BYTES`] were kept; the rest was skipped.
    TooLong,
}

/// What [`read_line`] does with a line longer than [`MAX_LINE_BYTES`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Overlong {
    /// Reads on to the line's end, dropping the bytes past the limit, so
    /// that the next line can be read (a session goes on after refusing it).
    Skip,
    /// Returns as soon as the limit is passed: a stream that may never send
    /// a line break (an outside engine gone wrong) is not read on.
    Stop,
}

/// Reads the next line into `line`, without its line break; `None` at the
/// end of the input. At most [`MAX_LINE_BYTES`] are kept; `overlong` says
/// whether the rest of a longer line is read and dropped.
pub(crate) fn read_line(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    overlong: Overlong,
) -> io::Result<Option<LineLength>> {
    line.clear();
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            break;
        }
        read_any = true;
        let end = buffer.iter().position(|&byte| byte == b'\n');
        let content = &buffer[..end.unwrap_or(buffer.len())];
        let room = MAX_LINE_BYTES - line.len();
        too_long |= content.len() > room;
        line.extend_from_slice(&content[..content.len().min(room)]);
        let used = end.map_or(buffer.len(), |end| end + 1);
        input.consume(used);
        if end.is_some() || (too_long && overlong == Overlong::Stop) {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(if too_long {
        LineLength::TooLong
    } else {
        LineLength::Fits
    }))
}
