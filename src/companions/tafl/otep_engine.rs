//! Another program as an agent of any tafl variant: an engine that speaks
//! the OpenTafl Engine Protocol (OTEP) on standard input and output, as
//! OpenTafl hosts it and as `norn engine --protocol otep` speaks it.
//!
//! The spec is `otep:[OPTIONS,]cmd=PROGRAM ARGUMENTS...`, with the options
//! of `htp:` engines (`reply-ms=N`, `ms=N`; see
//! [`crate::companions::hnefatafl::htp_engine`]) and their protections:
//! the engine runs in a process group of its own, killed as a whole when
//! it fails or the agent is dropped; every line it owes has a time limit
//! (the reply limit, or its game clock when that runs out sooner); a line
//! longer than [`MAX_LINE_BYTES`](crate::engine::MAX_LINE_BYTES), an exit
//! or `error -1` (the protocol's critical error) stops it, and in a
//! tournament or match each failure is its loss by forfeit.
//!
//! norn hosts the engine as OpenTafl does: it waits for `hello`, and at a
//! game's first decision sends `rules` (the variant's rules string, its
//! start the game's first position) and `side`; before each decision the
//! moves the other side made since (`opponent-move`, joined by `|`, with
//! the board after them), then `play` and, with a game clock, `clock`. It
//! reads `move FROM-TO` (skipping `status` lines and `error 0`), and takes
//! the move with `move RECORD` if the rules allow it; a move they refuse
//! is the engine's forfeit. A game's end is told with `finish`, the
//! agent's end with `goodbye`.

use crate::agents::{Agent, AgentError, Decision};
use crate::core::{Game, ParseError, Player, Ply, escape_control};
use crate::engine::{Fault, OutsideEngine};
use crate::games::tafl::opentafl::{position_of, read_move, rules_string};
use crate::games::tafl::{Side, Tafl, TaflMove};
use std::time::Duration;

/// The prefix of the specs this agent is built from.
pub const OTEP_PREFIX: &str = "otep:";

/// A running OTEP engine and what it has been told of the game.
pub struct OtepEngineAgent {
    engine: OutsideEngine,
    /// Whether the engine said `hello`.
    greeted: bool,
    /// The side the engine plays in this game, once it has been asked.
    side: Option<Side>,
    /// The other side's moves since the engine last moved, in OTEP's
    /// simple notation.
    unsent: Vec<String>,
    /// The game's first state, from which its rules string starts.
    first: Option<Tafl>,
    /// The engine's game clock, if the game has one.
    remaining: Option<Duration>,
}

/// Why the engine cannot begin in a state.
const BERSERK_START: &str = "an OTEP engine cannot be given a position where a piece must move again (berserk): its rules string can only say who moves first";

impl OtepEngineAgent {
    /// Starts the engine of an `otep:[OPTIONS,]cmd=PROGRAM ARGUMENTS...`
    /// spec.
    ///
    /// # Errors
    /// If the spec is malformed or the program cannot be started.
    pub fn from_spec(spec: &str) -> Result<OtepEngineAgent, ParseError> {
        Ok(OtepEngineAgent {
            engine: OutsideEngine::start(OTEP_PREFIX, spec, "goodbye")?,
            greeted: false,
            side: None,
            unsent: Vec::new(),
            first: None,
            remaining: None,
        })
    }

    /// Sends the lines, then reads up to a line that `wanted` takes (its
    /// result), skipping `status`, `error 0` and commands norn does not
    /// act on, all within the reply limit; `error -1` is the engine's
    /// critical failure.
    fn exchange<T>(
        &mut self,
        lines: &[String],
        mut wanted: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, AgentError> {
        self.engine.check_failure()?;
        let awaited = match lines.last() {
            Some(line) => format!("`{}`", escape_control(line)),
            None => "the start (`hello` expected)".to_string(),
        };
        let result = (|| {
            for line in lines {
                self.engine.send(line)?;
            }
            let deadline = self.engine.reply_deadline();
            let mut begun = false;
            loop {
                let text = self.engine.next_line(deadline, &awaited, begun)?;
                begun = true;
                if let Some(result) = wanted(text.trim()) {
                    return Ok(result);
                }
                if let Some(message) = text.trim().strip_prefix("error -1") {
                    return Err(Fault::Broken(format!(
                        "reported a critical error:{}",
                        escape_control(message)
                    )));
                }
            }
        })();
        result.map_err(|fault| self.engine.fail(fault, &awaited))
    }

    /// The game's opening lines for the engine: `rules` and `side`.
    fn opening(&self, state: &Tafl, side: Side) -> Vec<String> {
        let first = self.first.as_ref().unwrap_or(state);
        vec![
            format!("rules {}", rules_string(first)),
            format!("side {side}"),
        ]
    }
}

/// A move in OTEP's simple notation: `d1-d3`.
fn simple_move(state: &Tafl, mv: TaflMove) -> String {
    format!(
        "{}-{}",
        state.square_name(mv.from.into()),
        state.square_name(mv.to.into())
    )
}

/// OTEP's code of a game that ended in `state`: 1 a draw, 2 the attackers
/// won, 3 the defenders.
fn finish_code(state: &Tafl) -> Option<u8> {
    let outcome = state.status().outcome()?;
    Some(match outcome.winner() {
        Some(player) if player == Side::Attackers.player() => 2,
        Some(_) => 3,
        None => 1,
    })
}

impl Agent<Tafl> for OtepEngineAgent {
    fn spec(&self) -> &str {
        self.engine.spec()
    }

    fn configuration(&self) -> String {
        self.engine.configuration()
    }

    fn clock(&mut self, remaining: Duration, _increment: Duration) {
        self.engine.set_clock(remaining);
        self.remaining = Some(remaining);
    }

    fn decide(&mut self, state: &Tafl, player: Player) -> Result<Decision<TaflMove>, AgentError> {
        let side = state.side_to_move();
        if side.player() != player {
            return Err(AgentError::new(format!(
                "the engine is asked to move for player {player}, but the {side} are to move"
            )));
        }
        if !self.greeted {
            self.exchange(&[], |line| (line == "hello").then_some(()))?;
            self.greeted = true;
        }
        let mut lines = Vec::new();
        if self.side.is_none() {
            self.check_start(self.first.as_ref().unwrap_or(state))
                .map_err(AgentError::new)?;
            lines.extend(self.opening(state, side));
            self.side = Some(side);
        }
        if !self.unsent.is_empty() {
            lines.push(format!(
                "opponent-move {} {}",
                self.unsent.join("|"),
                position_of(state)
            ));
            self.unsent.clear();
        }
        lines.push(format!("play {side}"));
        if let Some(remaining) = self.remaining {
            let ms = remaining.as_millis();
            lines.push(format!("clock {ms} {ms} 0 0 0"));
        }
        let text = self.exchange(&lines, |line| {
            line.strip_prefix("move ")
                .map(|text| text.trim().to_string())
        })?;
        let mv = read_move(state, &text).map_err(|error| {
            AgentError::new(format!(
                "the engine answered `move {}`: {}",
                escape_control(&text),
                error.problem()
            ))
        })?;
        let mut after = state.clone();
        after.play(mv);
        // The host takes the move; a send that fails shows at the next
        // exchange.
        let _ = self.engine.send(&format!("move {}", position_of(&after)));
        Ok(Decision::Play(mv))
    }

    fn observe(&mut self, before: &Tafl, ply: &Ply<TaflMove>) {
        if self.first.is_none() {
            self.first = Some(before.clone());
        }
        let Ply::Move(mv) = ply else {
            return;
        };
        if self.side != Some(before.side_to_move()) {
            self.unsent.push(simple_move(before, *mv));
        }
        let mut after = before.clone();
        after.play(*mv);
        if self.side.is_some()
            && let Some(code) = finish_code(&after)
        {
            let _ = self.engine.send(&format!("finish {code}"));
        }
    }

    fn check_start(&self, state: &Tafl) -> Result<(), String> {
        match state.berserk_square() {
            Some(_) => Err(BERSERK_START.to_string()),
            None => Ok(()),
        }
    }

    fn reset(&mut self) {
        self.side = None;
        self.unsent.clear();
        self.first = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Notation;
    use crate::games::tafl::TaflRules;

    #[test]
    fn finish_codes_name_the_winner() {
        let rules = TaflRules::variant("brandub").unwrap();
        let escaped = Tafl::from_position_text("/K6/7/7/3t3/7/7/3t3/ attackers", rules).unwrap();
        assert_eq!(finish_code(&escaped), Some(3));
        assert_eq!(finish_code(&Tafl::new(rules)), None);
    }
}
