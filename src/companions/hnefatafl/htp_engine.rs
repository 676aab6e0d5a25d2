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
//! [`MAX_LINE_BYTES`](crate::engine::MAX_LINE_BYTES), an early exit) and by [`crate::engine::stop_all_engines`] (on
//! Ctrl-C). Writing to an engine that has exited is an error, never a
//! SIGPIPE, and the error says how it exited, with its last lines on
//! standard error.

use crate::agents::{Agent, AgentError, Decision};
use crate::core::{Game, ParseError, Player, Ply, escape_control};
pub use crate::engine::DEFAULT_REPLY_MS;
use crate::engine::{Fault, OutsideEngine};
use crate::games::hnefatafl::{Hnefatafl, HnefataflMove, Side, parse_square, square_name};
use std::time::Duration;

/// The prefix of the specs this agent is built from.
pub const HTP_PREFIX: &str = "htp:";

/// A running engine and what it knows of the game.
pub struct HtpEngineAgent {
    engine: OutsideEngine,
    /// The game's moves so far, as `play` arguments (`attacker a4 c4`).
    moves: Vec<String>,
    /// How many of them the engine knows (told, or played itself).
    known: usize,
    /// Whether the engine was told that a new game started.
    started: bool,
    /// Whether the game began away from the start position, which the
    /// protocol cannot tell the engine.
    off_start: bool,
}

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
        Ok(HtpEngineAgent {
            engine: OutsideEngine::start(HTP_PREFIX, spec, "quit")?,
            moves: Vec::new(),
            known: 0,
            started: false,
            off_start: false,
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
        self.engine.check_failure()?;
        self.exchange(line).map_err(|fault| {
            self.engine
                .fail(fault, &format!("`{}`", escape_control(line)))
        })
    }

    /// Writes `line` and reads the reply: its first line, then lines up to
    /// the empty line that ends every reply, all within the reply limit.
    fn exchange(&mut self, line: &str) -> Result<String, Fault> {
        self.engine.send(line)?;
        let deadline = self.engine.reply_deadline();
        let mut reply: Option<String> = None;
        loop {
            let awaited = format!("`{}`", escape_control(line));
            let text = self.engine.next_line(deadline, &awaited, reply.is_some())?;
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
                    "the engine refused `{}`: {reason}",
                    escape_control(line)
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
        self.engine.spec()
    }

    fn configuration(&self) -> String {
        self.engine.configuration()
    }

    fn clock(&mut self, remaining: Duration, _increment: Duration) {
        // The protocol has no time commands: the engine is not told its
        // clock, only stopped once it has run out.
        self.engine.set_clock(remaining);
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

#[cfg(test)]
mod tests {
    use super::*;

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
