//! What every outside engine played as an agent shares, whatever its
//! protocol (`htp:` engines of Hnefatafl, `otep:` engines of the tafl
//! family): the spec `PREFIX[reply-ms=N,][ms=N,]cmd=PROGRAM ARGUMENTS`,
//! the running process, a limit on the wait for each line it owes, and
//! the failure that stops it and is repeated by every later command.

use super::{EXIT_GRACE, EngineProcess, Event, MAX_LINE_BYTES};
use crate::agents::{AgentError, COMMAND_OPTION};
use crate::core::ParseError;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// The longest wait for a reply when the spec sets neither `reply-ms` nor
/// `ms`, and no game clock runs out sooner: an engine that thinks longer
/// than this must be given its time.
pub const DEFAULT_REPLY_MS: u64 = 10_000;

/// The longest `reply-ms` or `ms` a spec may set: a day.
const MAX_SPEC_MS: u64 = 24 * 60 * 60 * 1000;

/// How long past the end of its clock an engine is waited for: enough for
/// the runner to see the clock run out before the engine's fault.
const CLOCK_MARGIN: Duration = Duration::from_millis(50);

/// The settings of an engine's spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EngineSpec {
    /// The longest wait for one reply.
    pub(crate) reply_limit: Duration,
    /// The engine's command line.
    pub(crate) command_line: String,
}

impl EngineSpec {
    /// Reads `PREFIX[reply-ms=N,][ms=N,]cmd=PROGRAM ARGUMENTS`: everything
    /// after `cmd=` is the command line, split at spaces. Without
    /// `reply-ms` the engine has twice `ms` plus a second per reply, or
    /// [`DEFAULT_REPLY_MS`] without `ms` either.
    pub(crate) fn parse(prefix: &str, spec: &str) -> Result<EngineSpec, ParseError> {
        let bad = |problem: String| ParseError::new("agent spec", spec, problem);
        let mut rest = spec.strip_prefix(prefix).ok_or_else(|| {
            bad(format!(
                "an engine is given as {prefix}cmd=PROGRAM ARGUMENTS"
            ))
        })?;
        let (mut reply_ms, mut move_ms) = (None, None);
        let command_line = loop {
            if let Some(command_line) = rest
                .strip_prefix(COMMAND_OPTION)
                .and_then(|after| after.strip_prefix('='))
            {
                break command_line;
            }
            let (option, after) = rest.split_once(',').ok_or_else(|| {
                bad(format!(
                    "an engine is given as {prefix}[reply-ms=N,][ms=N,]cmd=PROGRAM ARGUMENTS"
                ))
            })?;
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| bad(format!("`{option}` is not KEY=VALUE")))?;
            let slot = match key.trim() {
                "reply-ms" => &mut reply_ms,
                "ms" => &mut move_ms,
                other => {
                    return Err(bad(format!(
                        "unknown engine option `{other}` (reply-ms, ms, then cmd=)"
                    )));
                }
            };
            let milliseconds = value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|&ms| (1..=MAX_SPEC_MS).contains(&ms))
                .ok_or_else(|| {
                    bad(format!(
                        "{key} takes milliseconds from 1 to {MAX_SPEC_MS}, not `{value}`"
                    ))
                })?;
            if slot.replace(milliseconds).is_some() {
                return Err(bad(format!("{key} is given twice")));
            }
            rest = after;
        };
        if command_line.split_whitespace().next().is_none() {
            return Err(bad("the engine's command is empty".into()));
        }
        let reply_ms = reply_ms
            .or(move_ms.map(|ms| 2 * ms + 1000))
            .unwrap_or(DEFAULT_REPLY_MS);
        Ok(EngineSpec {
            reply_limit: Duration::from_millis(reply_ms),
            command_line: command_line.to_string(),
        })
    }
}

/// Why an exchange with the engine failed.
pub(crate) enum Fault {
    /// The engine refused the command in its protocol's words: it is still
    /// in a known state.
    Refused(String),
    /// Anything else: the engine cannot be trusted with another command.
    Broken(String),
    /// Its output ended or its input could not be written: it exited.
    Gone,
}

/// An outside engine's process, with its spec's limits.
pub(crate) struct OutsideEngine {
    spec: String,
    prefix: &'static str,
    pub(crate) settings: EngineSpec,
    process: EngineProcess,
    /// Why the engine was stopped, repeated by every later command.
    failure: Option<String>,
    /// With a game clock, how long the engine may take over its next
    /// decision: a moment past what its clock holds, when it has lost on
    /// time anyway.
    clock_limit: Option<Duration>,
    /// The command that asks the engine to exit, sent when it is dropped.
    farewell: &'static str,
}

impl OutsideEngine {
    /// Starts the engine of a `PREFIX[OPTIONS,]cmd=PROGRAM ARGUMENTS`
    /// spec, which is told `farewell` when it is no longer needed.
    ///
    /// # Errors
    /// If the spec is malformed or the program cannot be started.
    pub(crate) fn start(
        prefix: &'static str,
        spec: &str,
        farewell: &'static str,
    ) -> Result<OutsideEngine, ParseError> {
        let settings = EngineSpec::parse(prefix, spec)?;
        let process = EngineProcess::start(&settings.command_line)
            .map_err(|problem| ParseError::new("agent spec", spec, problem))?;
        Ok(OutsideEngine {
            spec: spec.to_string(),
            prefix,
            settings,
            process,
            failure: None,
            clock_limit: None,
            farewell,
        })
    }

    /// The spec the engine was started from.
    pub(crate) fn spec(&self) -> &str {
        &self.spec
    }

    /// The spec with its reply limit written out.
    pub(crate) fn configuration(&self) -> String {
        format!(
            "{}reply-ms={},cmd={}",
            self.prefix,
            self.settings.reply_limit.as_millis(),
            self.settings.command_line
        )
    }

    /// Notes the engine's game clock: it is stopped once that has run out.
    pub(crate) fn set_clock(&mut self, remaining: Duration) {
        self.clock_limit = Some(remaining + CLOCK_MARGIN);
    }

    /// The error of an engine already stopped, if it was.
    pub(crate) fn check_failure(&self) -> Result<(), AgentError> {
        match &self.failure {
            Some(failure) => Err(AgentError::new(failure.clone())),
            None => Ok(()),
        }
    }

    /// Writes one line to the engine.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), Fault> {
        let input = self.process.input.as_ref().ok_or(Fault::Gone)?;
        input.send(line.to_string()).map_err(|_| Fault::Gone)
    }

    /// The deadline of a reply begun now, and what set it.
    pub(crate) fn reply_deadline(&self) -> (Instant, Duration, &'static str) {
        let (limit, which) = match self.clock_limit {
            Some(clock) if clock < self.settings.reply_limit => (clock, "its game clock"),
            _ => (self.settings.reply_limit, "reply-ms"),
        };
        (Instant::now() + limit, limit, which)
    }

    /// The engine's next line, before `deadline` (set as
    /// [`OutsideEngine::reply_deadline`] says), as a reply to `awaited`
    /// (the command, quoted, in the fault's words); `begun` says whether
    /// the reply has begun.
    pub(crate) fn next_line(
        &mut self,
        (deadline, limit, which): (Instant, Duration, &'static str),
        awaited: &str,
        begun: bool,
    ) -> Result<String, Fault> {
        let waited = deadline.saturating_duration_since(Instant::now());
        let event = match self.process.events.recv_timeout(waited) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => {
                let what = if begun {
                    "did not end its reply to"
                } else {
                    "did not answer"
                };
                return Err(Fault::Broken(format!(
                    "{what} {awaited} within {} ms ({which})",
                    limit.as_millis()
                )));
            }
            Err(RecvTimeoutError::Disconnected) => return Err(Fault::Gone),
        };
        match event {
            Event::Line(bytes) => String::from_utf8(bytes).map_err(|_| {
                Fault::Broken(format!("answered {awaited} with a line that is not UTF-8"))
            }),
            Event::TooLong => Err(Fault::Broken(format!(
                "answered {awaited} with a line longer than {MAX_LINE_BYTES} bytes"
            ))),
            Event::ReadFailed(error) => Err(Fault::Broken(format!("cannot be read: {error}"))),
            Event::Closed | Event::WriteFailed => Err(Fault::Gone),
        }
    }

    /// The agent's error for `fault` in the exchange of `awaited` (as
    /// [`OutsideEngine::next_line`] words it): any fault but a refusal
    /// stops the engine, and every later command repeats its error.
    pub(crate) fn fail(&mut self, fault: Fault, awaited: &str) -> AgentError {
        let message = match fault {
            Fault::Refused(reason) => return AgentError::new(reason),
            Fault::Broken(problem) => {
                self.process.stop();
                format!("the engine {problem}; it was stopped")
            }
            Fault::Gone => {
                let exited = self.process.await_exit(EXIT_GRACE);
                let status = self.process.stop();
                let how = match status {
                    Some(status) if exited => format!("exited ({status})"),
                    _ => "closed its pipes and was stopped".to_string(),
                };
                format!("the engine {how} when sent {awaited}")
            }
        };
        let message = message + &self.process.stderr_clause();
        self.failure = Some(message.clone());
        AgentError::new(message)
    }
}

impl Drop for OutsideEngine {
    fn drop(&mut self) {
        // A polite farewell and a moment to act on it; then the whole group
        // is killed, so that nothing the engine started outlives it.
        if !self.process.reaped {
            if let Some(input) = self.process.input.take() {
                let _ = input.send(self.farewell.to_string());
            }
            self.process.await_exit(EXIT_GRACE);
        }
        self.process.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_set_the_reply_limit_and_keep_the_command_whole() {
        let parsed =
            |spec: &str| EngineSpec::parse("htp:", spec).map(|settings| settings.reply_limit);
        assert_eq!(
            parsed("htp:cmd=engine --x a,b"),
            Ok(Duration::from_millis(DEFAULT_REPLY_MS))
        );
        assert_eq!(
            parsed("htp:reply-ms=250,cmd=engine"),
            Ok(Duration::from_millis(250))
        );
        assert_eq!(
            parsed("htp:ms=1000,cmd=engine"),
            Ok(Duration::from_millis(3000))
        );
        assert_eq!(
            parsed("htp:ms=1000,reply-ms=1500,cmd=engine"),
            Ok(Duration::from_millis(1500))
        );
        assert_eq!(
            EngineSpec::parse("otep:", "otep:reply-ms=5,cmd=my engine -a=1,2")
                .unwrap()
                .command_line,
            "my engine -a=1,2"
        );
        for bad in [
            "htp:reply-ms=0,cmd=engine",
            "htp:reply-ms=99999999999999999999,cmd=engine",
            "htp:reply-ms=5,reply-ms=6,cmd=engine",
            "htp:depth=3,cmd=engine",
            "htp:reply-ms=5",
            "htp:cmd=  ",
            "otep:cmd=engine",
        ] {
            assert!(EngineSpec::parse("htp:", bad).is_err(), "{bad}");
        }
    }
}
