//! Another program as a Hnefatafl agent: any engine that speaks the
//! Hnefatafl Text Protocol on standard input and output (as `norn engine
//! hnefatafl` does), so that tournaments and matches can pit norn's agents
//! against outside AIs.
//!
//! The spec is `htp:[OPTIONS,]cmd=PROGRAM ARGUMENTS...`: everything after
//! `cmd=` is the command line, split at spaces. The options, before it
//! (and `name=NAME`, which names the engine in reports, as for any agent):
//!
//! | option | meaning |
//! |--------|---------|
//! | `reply-ms=N` | the longest wait for any one reply of the engine |
//! | `ms=N` | the engine's own time per move (as its command line sets it), from which the default `reply-ms` is derived |
//!
//! Without `reply-ms` the engine has twice `ms` plus one second per reply,
//! or [`DEFAULT_REPLY_MS`] without `ms` either.
//!
//! The engine is started with the agent, told `board_size 11` at the start
//! of each game and every move of the game it did not make itself, and
//! asked `generate_move` for its own. Its choices are its own: a tournament
//! with an outside engine is reproducible only as far as the engine is.
//!
//! An engine cannot hang or end the process that runs it: it runs in a
//! process group of its own, which is killed as a whole when the agent is
//! dropped, when the engine fails (no reply in time, a line longer than
//! [`MAX_LINE_BYTES`], an early exit) and by [`crate::engine::stop_all_engines`] (on
//! Ctrl-C). Writing to an engine that has exited is an error, never a
//! SIGPIPE, and the error says how it exited, with its last lines on
//! standard error.

use crate::agents::{Agent, AgentError, COMMAND_OPTION, Decision};
use crate::core::{Game, ParseError, Player, Ply, escape_control};
use crate::engine::{EXIT_GRACE, EngineProcess, Event, MAX_LINE_BYTES};
use crate::games::hnefatafl::{Hnefatafl, HnefataflMove, Side, parse_square, square_name};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// The prefix of the specs this agent is built from.
pub const HTP_PREFIX: &str = "htp:";

/// The longest wait for a reply when the spec sets neither `reply-ms` nor
/// `ms`, and no game clock runs out sooner ([`Agent::clock`]): an engine
/// that thinks longer than this must be given its time.
pub const DEFAULT_REPLY_MS: u64 = 10_000;

/// The longest `reply-ms` or `ms` a spec may set: a day.
const MAX_SPEC_MS: u64 = 24 * 60 * 60 * 1000;

/// The settings of an `htp:` spec.
#[derive(Clone, Debug, PartialEq, Eq)]
struct EngineSpec {
    /// The longest wait for one reply.
    reply_limit: Duration,
    /// The engine's command line.
    command_line: String,
}

impl EngineSpec {
    fn parse(spec: &str) -> Result<EngineSpec, ParseError> {
        let bad = |problem: String| ParseError::new("agent spec", spec, problem);
        let mut rest = spec
            .strip_prefix(HTP_PREFIX)
            .ok_or_else(|| bad("an engine is given as htp:cmd=PROGRAM ARGUMENTS".into()))?;
        let (mut reply_ms, mut move_ms) = (None, None);
        let command_line = loop {
            if let Some(command_line) = rest
                .strip_prefix(COMMAND_OPTION)
                .and_then(|after| after.strip_prefix('='))
            {
                break command_line;
            }
            let (option, after) = rest.split_once(',').ok_or_else(|| {
                bad("an engine is given as htp:[reply-ms=N,][ms=N,]cmd=PROGRAM ARGUMENTS".into())
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
enum Fault {
    /// The engine answered `? MESSAGE`: it is still in a known state.
    Refused(String),
    /// Anything else: the engine cannot be trusted with another command.
    Broken(String),
    /// Its output ended or its input could not be written: it exited.
    Gone,
}

/// A running engine and what it knows of the game.
pub struct HtpEngineAgent {
    spec: String,
    settings: EngineSpec,
    process: EngineProcess,
    /// Why the engine was stopped, repeated by every later command.
    failure: Option<String>,
    /// The game's moves so far, as `play` arguments (`attacker a4 c4`).
    moves: Vec<String>,
    /// How many of them the engine knows (told, or played itself).
    known: usize,
    /// Whether the engine was told that a new game started.
    started: bool,
    /// Whether the game began away from the start position, which the
    /// protocol cannot tell the engine.
    off_start: bool,
    /// With a game clock, how long the engine may take over its next
    /// decision: a moment past what its clock holds, when it has lost on
    /// time anyway.
    clock_limit: Option<Duration>,
}

/// How long past the end of its clock an engine is waited for: enough for
/// the runner to see the clock run out before the engine's fault.
const CLOCK_MARGIN: Duration = Duration::from_millis(50);

/// Why an engine agent cannot play from a position given as text.
const OFF_START: &str = "an engine agent plays games from the start position or from moves played from it, not from a position given as text";

/// Whether `state` is away from the start position: the protocol has no
/// command to set up a position, so an engine knows a game only as moves
/// from the start.
fn is_off_start(state: &Hnefatafl) -> bool {
    state.hash() != Hnefatafl::new(*state.rules()).hash()
}

impl HtpEngineAgent {
    /// Starts the engine of an `htp:[OPTIONS,]cmd=PROGRAM ARGUMENTS...` spec.
    ///
    /// # Errors
    /// If the spec is malformed or the program cannot be started.
    pub fn from_spec(spec: &str) -> Result<HtpEngineAgent, ParseError> {
        let settings = EngineSpec::parse(spec)?;
        let process = EngineProcess::start(&settings.command_line)
            .map_err(|problem| ParseError::new("agent spec", spec, problem))?;
        Ok(HtpEngineAgent {
            spec: spec.to_string(),
            settings,
            process,
            failure: None,
            moves: Vec::new(),
            known: 0,
            started: false,
            off_start: false,
            clock_limit: None,
        })
    }

    /// Notes whether `state`, the first the agent sees in a game, is the
    /// start position.
    fn note_first_state(&mut self, state: &Hnefatafl) {
        self.off_start |= is_off_start(state);
    }

    /// Sends one command and returns the result of a success (`= RESULT`).
    /// Any failure but a refusal stops the engine.
    fn command(&mut self, line: &str) -> Result<String, AgentError> {
        if let Some(failure) = &self.failure {
            return Err(AgentError::new(failure.clone()));
        }
        let fault = match self.exchange(line) {
            Ok(result) => return Ok(result),
            Err(fault) => fault,
        };
        let message = match fault {
            Fault::Refused(reason) => return Err(AgentError::new(reason)),
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
                format!("the engine {how} when sent `{}`", escape_control(line))
            }
        };
        let message = message + &self.process.stderr_clause();
        self.failure = Some(message.clone());
        Err(AgentError::new(message))
    }

    /// Writes `line` and reads the reply: its first line, then lines up to
    /// the empty line that ends every reply, all within the reply limit.
    fn exchange(&mut self, line: &str) -> Result<String, Fault> {
        let input = self.process.input.as_ref().ok_or(Fault::Gone)?;
        input.send(line.to_string()).map_err(|_| Fault::Gone)?;
        let (limit, which) = match self.clock_limit {
            Some(clock) if clock < self.settings.reply_limit => (clock, "its game clock"),
            _ => (self.settings.reply_limit, "reply-ms"),
        };
        let deadline = Instant::now() + limit;
        let quoted = escape_control(line);
        let mut reply: Option<String> = None;
        loop {
            let waited = deadline.saturating_duration_since(Instant::now());
            let event = match self.process.events.recv_timeout(waited) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => {
                    let what = if reply.is_some() {
                        "did not end its reply to"
                    } else {
                        "did not answer"
                    };
                    return Err(Fault::Broken(format!(
                        "{what} `{quoted}` within {} ms ({which})",
                        limit.as_millis()
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(Fault::Gone),
            };
            let text = match event {
                Event::Line(bytes) => String::from_utf8(bytes).map_err(|_| {
                    Fault::Broken(format!("answered `{quoted}` with a line that is not UTF-8"))
                })?,
                Event::TooLong => {
                    return Err(Fault::Broken(format!(
                        "answered `{quoted}` with a line longer than {MAX_LINE_BYTES} bytes"
                    )));
                }
                Event::ReadFailed(error) => {
                    return Err(Fault::Broken(format!("cannot be read: {error}")));
                }
                Event::Closed | Event::WriteFailed => return Err(Fault::Gone),
            };
            match &reply {
                // Every reply ends with an empty line.
                Some(_) if text.trim().is_empty() => break,
                Some(_) => {}
                None => reply = Some(text),
            }
        }
        let reply = reply.unwrap_or_default();
        let reply = reply.trim_end();
        match reply.strip_prefix('=') {
            Some(result) => Ok(result.trim().to_string()),
            None => {
                // A refusal may quote a command line the engine read wrongly.
                let reason = escape_control(reply.trim_start_matches('?').trim());
                Err(Fault::Refused(format!(
                    "the engine refused `{quoted}`: {reason}"
                )))
            }
        }
    }

    /// Reads the move of a `generate_move` result, `play ROLE FROM TO` or
    /// `play ROLE resign`, which must be for the side to move.
    fn read_decision(result: &str, state: &Hnefatafl) -> Result<Decision<HnefataflMove>, String> {
        let words: Vec<&str> = result.split_whitespace().collect();
        let (role_word, rest) = match words[..] {
            ["play", role_word, ref rest @ ..] if !rest.is_empty() => (role_word, rest),
            _ => return Err(format!("`{}` is not a move", escape_control(result))),
        };
        let mover = state.side_to_move();
        if parse_role(role_word) != Some(mover) {
            return Err(format!(
                "`{}`, a move for another side than the {} to move",
                escape_control(result),
                role(mover)
            ));
        }
        match rest {
            ["resign" | "resigns"] => Ok(Decision::Resign),
            [from, to] => {
                let square = |text: &str| parse_square(text).map_err(|error| error.to_string());
                let mv = HnefataflMove {
                    from: square(from)?,
                    to: square(to)?,
                };
                state.check_move(mv).map_err(|illegal| {
                    format!("`{}`: {}", escape_control(result), illegal.reason())
                })?;
                Ok(Decision::Play(mv))
            }
            _ => Err(format!("`{}` is not a move", escape_control(result))),
        }
    }
}

fn role(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

/// Reads a role as the protocol writes it: `attacker`/`a` or
/// `defender`/`d`, in any case.
fn parse_role(text: &str) -> Option<Side> {
    match text.to_ascii_lowercase().as_str() {
        "attacker" | "a" => Some(Side::Attackers),
        "defender" | "d" => Some(Side::Defenders),
        _ => None,
    }
}

impl Agent<Hnefatafl> for HtpEngineAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn configuration(&self) -> String {
        format!(
            "{HTP_PREFIX}reply-ms={},cmd={}",
            self.settings.reply_limit.as_millis(),
            self.settings.command_line
        )
    }

    fn clock(&mut self, remaining: Duration, _increment: Duration) {
        // The protocol has no time commands: the engine is not told its
        // clock, only stopped once it has run out.
        self.clock_limit = Some(remaining + CLOCK_MARGIN);
    }

    fn decide(
        &mut self,
        state: &Hnefatafl,
        _player: Player,
    ) -> Result<Decision<HnefataflMove>, AgentError> {
        // The protocol has no command to set up a position: the engine
        // knows a game only as moves from the start, which it must be told.
        if self.moves.is_empty() {
            self.note_first_state(state);
        }
        if self.off_start {
            return Err(AgentError::new(OFF_START));
        }
        if !self.started {
            self.command("board_size 11")?;
            self.started = true;
            self.known = 0;
        }
        while self.known < self.moves.len() {
            let line = format!("play {}", self.moves[self.known]);
            self.command(&line)?;
            self.known += 1;
        }
        let result = self.command("generate_move")?;
        let decision = Self::read_decision(&result, state)
            .map_err(|problem| AgentError::new(format!("the engine answered {problem}")))?;
        // The engine has played its own move: it is not told it again.
        self.known += 1;
        Ok(decision)
    }

    fn observe(&mut self, before: &Hnefatafl, ply: &Ply<HnefataflMove>) {
        if self.moves.is_empty() {
            self.note_first_state(before);
        }
        if let Ply::Move(mv) = ply {
            self.moves.push(format!(
                "{} {} {}",
                role(before.side_to_move()),
                square_name(mv.from),
                square_name(mv.to)
            ));
        }
    }

    fn check_start(&self, state: &Hnefatafl) -> Result<(), String> {
        if is_off_start(state) {
            return Err(OFF_START.to_string());
        }
        Ok(())
    }

    fn reset(&mut self) {
        self.off_start = false;
        self.moves.clear();
        self.known = 0;
        self.started = false;
    }
}

impl Drop for HtpEngineAgent {
    fn drop(&mut self) {
        // A polite quit and a moment to act on it; then the whole group is
        // killed, so that nothing the engine started outlives it.
        if !self.process.reaped {
            if let Some(input) = self.process.input.take() {
                let _ = input.send("quit".to_string());
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
        let parsed = |spec: &str| EngineSpec::parse(spec).map(|settings| settings.reply_limit);
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
            EngineSpec::parse("htp:reply-ms=5,cmd=my engine -a=1,2")
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
        ] {
            assert!(EngineSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_reply_for_the_side_not_to_move_is_refused() {
        let start = Hnefatafl::new(Default::default());
        let wrong = HtpEngineAgent::read_decision("play defender e1 e2", &start);
        assert!(wrong.unwrap_err().contains("another side"));
        let resign = HtpEngineAgent::read_decision("play d resign", &start);
        assert!(resign.unwrap_err().contains("another side"));
        assert_eq!(
            HtpEngineAgent::read_decision("play A resign", &start),
            Ok(Decision::Resign)
        );
    }
}
