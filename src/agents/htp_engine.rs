//! Another program as a Hnefatafl agent: any engine that speaks the
//! Hnefatafl Text Protocol on standard input and output (as `norn engine
//! hnefatafl` does), so that tournaments and matches can pit norn's agents
//! against outside AIs.
//!
//! The spec is `htp:cmd=PROGRAM ARGUMENTS...`: everything after `cmd=` is
//! the command line, split at spaces. The engine is started with the agent,
//! told `board_size 11` at the start of each game and every move of the
//! game it did not make itself, and asked `generate_move` for its own. Its
//! choices are its own: a tournament with an outside engine is reproducible
//! only as far as the engine is.

use super::{Agent, AgentError, Decision};
use crate::core::{Game, ParseError, Player, Ply, escape_control};
use crate::games::hnefatafl::{Hnefatafl, HnefataflMove, Side, parse_square, square_name};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The prefix of the specs this agent is built from.
pub const HTP_PREFIX: &str = "htp:";

/// A running engine and what it knows of the game.
pub struct HtpEngineAgent {
    spec: String,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
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

impl HtpEngineAgent {
    /// Starts the engine of an `htp:cmd=PROGRAM ARGUMENTS...` spec.
    ///
    /// # Errors
    /// If the spec has no command or the program cannot be started.
    pub fn from_spec(spec: &str) -> Result<HtpEngineAgent, ParseError> {
        let bad = |problem: String| ParseError::new("agent spec", spec, problem);
        let command_line = spec
            .strip_prefix(HTP_PREFIX)
            .and_then(|rest| rest.strip_prefix("cmd="))
            .ok_or_else(|| bad("an engine is given as htp:cmd=PROGRAM ARGUMENTS".into()))?;
        let mut words = command_line.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| bad("the engine's command is empty".into()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| bad(format!("cannot start `{program}`: {error}")))?;
        let input = child.stdin.take().expect("stdin was piped");
        let output = BufReader::new(child.stdout.take().expect("stdout was piped"));
        Ok(HtpEngineAgent {
            spec: spec.to_string(),
            child,
            input,
            output,
            moves: Vec::new(),
            known: 0,
            started: false,
            off_start: false,
        })
    }

    /// Notes whether `state`, the first the agent sees in a game, is the
    /// start position.
    fn note_first_state(&mut self, state: &Hnefatafl) {
        self.off_start |= state.hash() != Hnefatafl::new(*state.rules()).hash();
    }

    /// Sends one command and returns the result of a success (`= RESULT`).
    fn command(&mut self, line: &str) -> Result<String, AgentError> {
        let failed = |problem: String| AgentError::new(format!("the engine {problem}"));
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|error| failed(format!("cannot be written to: {error}")))?;
        let mut reply = String::new();
        let read = self
            .output
            .read_line(&mut reply)
            .map_err(|error| failed(format!("cannot be read: {error}")))?;
        if read == 0 {
            return Err(failed("closed its output".into()));
        }
        // Every reply ends with an empty line.
        let mut rest = String::new();
        while self.output.read_line(&mut rest).unwrap_or(0) > 0 && !rest.trim().is_empty() {
            rest.clear();
        }
        let reply = reply.trim_end();
        if !reply.starts_with('=') {
            // A refusal may quote a command line the engine read wrongly.
            let reason = escape_control(reply.trim_start_matches('?').trim());
            return Err(failed(format!("refused `{line}`: {reason}")));
        }
        Ok(reply[1..].trim().to_string())
    }

    /// Reads the move of a `generate_move` result, `play ROLE FROM TO` or
    /// `play ROLE resign`.
    fn read_decision(result: &str, state: &Hnefatafl) -> Result<Decision<HnefataflMove>, String> {
        let words: Vec<&str> = result.split_whitespace().collect();
        match words[..] {
            ["play", _, "resign" | "resigns"] => Ok(Decision::Resign),
            ["play", _, from, to] => {
                let square = |text: &str| parse_square(text).map_err(|error| error.to_string());
                let mv = HnefataflMove {
                    from: square(from)?,
                    to: square(to)?,
                };
                state.check_move(mv).map_err(|illegal| {
                    format!("{}: {}", escape_control(result), illegal.reason())
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

impl Agent<Hnefatafl> for HtpEngineAgent {
    fn spec(&self) -> &str {
        &self.spec
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
            return Err(AgentError::new(
                "an engine agent plays games from the start position or from moves played from it, not from a position given as text",
            ));
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

    fn reset(&mut self) {
        self.off_start = false;
        self.moves.clear();
        self.known = 0;
        self.started = false;
    }
}

impl Drop for HtpEngineAgent {
    fn drop(&mut self) {
        // A polite quit, then no waiting on an engine that ignores it.
        let _ = writeln!(self.input, "quit").and_then(|()| self.input.flush());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
