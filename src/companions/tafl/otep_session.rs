//! The OpenTafl Engine Protocol (OTEP) spoken by `norn engine --protocol
//! otep`, so that OpenTafl, or any host that speaks it, can play norn's
//! agents in every tafl variant.
//!
//! One command a line, unacknowledged. The session writes `hello` when it
//! starts; the host sets the variant with `rules RULES-STRING` and asks
//! for a move with `play SIDE`, followed by `clock ...`, which the session
//! waits a moment for ([`CLOCK_PATIENCE`]). Position records list rank 1
//! first, as OpenTafl writes them; moves are written `d1-d3` and read in
//! that form or in OpenTafl's full notation.
//!
//! | host's command | what the session does |
//! |----------------|-----------------------|
//! | `rules RULES-STRING` | plays that variant from its start; `error -1 MESSAGE` if the string is not one norn plays |
//! | `position RECORD` | sets the board (the side to move is kept until `side` says otherwise) |
//! | `side SIDE` | after `position`, makes `SIDE` the side to move |
//! | `play SIDE` | moves for `SIDE` (the side to move becomes `SIDE` if it was not): `status ...` with the search's depth and score, then `move FROM-TO` |
//! | `clock A[*] D[*] OVERTIME-S A-OVERTIMES D-OVERTIMES` | the time left in milliseconds (`*`: in overtime), from which the move's time is taken |
//! | `opponent-move MOVES RECORD` | plays the other side's moves (joined by `\|`); the record is the board after them, and the session takes it if the moves do not lead there |
//! | `move RECORD` | the host took the session's move; a different record is taken as the board |
//! | `error CODE` | the host refused the session's move: it is taken back |
//! | `analyze N SECONDS` | `analysis 1 LINE SCORE`, the line's moves joined by `\|`, the score the mover's in thousandths (-1000 a loss, 1000 a win) |
//! | `finish CODE` | the game is over: the agent forgets it |
//! | `goodbye` | the session ends |
//!
//! A command the session does not know (`start`, `hello`, ...) is ignored,
//! as the protocol asks; a known command it cannot follow is answered
//! `error 0 MESSAGE` and the game is untouched.

use crate::agents::{Agent, Decision, move_time};
use crate::core::{Game, Notation, ParseError, Ply, escape_control};
use crate::engine::EngineSession;
use crate::games::tafl::opentafl::{position_of, read_move};
use crate::games::tafl::{Side, Tafl, TaflMove, TaflRules};
use crate::search::StopFlag;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Duration;

/// How long `play` waits for the `clock` that OpenTafl sends right after
/// it before the session moves without one.
pub const CLOCK_PATIENCE: Duration = Duration::from_millis(250);

/// What a move's time is cut by, for the host's and the pipes' delays.
const CLOCK_RESERVE: Duration = Duration::from_millis(30);

/// The clocks of a `clock` command: the milliseconds left to each side
/// (attackers first; `None` for a side without a clock), the overtime
/// period, and each side's periods left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Clocks {
    left: [Option<Duration>; 2],
    overtime: Duration,
    overtimes: [u32; 2],
}

impl Clocks {
    fn parse(arguments: &[&str]) -> Result<Clocks, String> {
        let usage = "expected: clock ATTACKER-MS[*] DEFENDER-MS[*] OVERTIME-S ATTACKER-OVERTIMES DEFENDER-OVERTIMES";
        let [attackers, defenders, rest @ ..] = arguments else {
            return Err(usage.into());
        };
        let millis = |text: &str| -> Result<Option<Duration>, String> {
            let digits = text.trim_end_matches('*');
            match digits.parse::<i64>() {
                Ok(ms) if ms < 0 => Ok(None),
                Ok(ms) => Ok(Some(Duration::from_millis(ms.unsigned_abs()))),
                Err(_) => Err(format!("`{}` is not milliseconds", escape_control(text))),
            }
        };
        let count = |text: Option<&&str>| -> Result<u32, String> {
            text.map_or(Ok(0), |text| {
                text.parse::<i64>()
                    .map(|n| u32::try_from(n.max(0)).unwrap_or(u32::MAX))
                    .map_err(|_| format!("`{}` is not a count", escape_control(text)))
            })
        };
        if rest.len() > 3 {
            return Err(usage.into());
        }
        let overtime_seconds = count(rest.first())?;
        Ok(Clocks {
            left: [millis(attackers)?, millis(defenders)?],
            overtime: Duration::from_secs(overtime_seconds.into()),
            overtimes: [count(rest.get(1))?, count(rest.get(2))?],
        })
    }
}

/// A session of OTEP: the game as the host has set it, and the agent that
/// moves.
pub struct OtepSession {
    /// The engine's own options (ply limit, reading of repetitions), kept
    /// under every rules string the host sets.
    options: TaflRules,
    agent: Box<dyn Agent<Tafl>>,
    state: Tafl,
    /// The state before the session's last move, until the host takes it.
    before_own_move: Option<Tafl>,
    /// Whether the board came from `position`, whose side to move `side`
    /// then sets.
    positioned: bool,
    /// A `play` waiting for its `clock`: the side to move for.
    waiting_play: Option<Side>,
    /// The last clocks the host sent.
    clocks: Option<Clocks>,
    /// Raised to end a search when its time is up, if the agent heeds it.
    stop: Arc<AtomicBool>,
    heeds_stop: bool,
    goodbye: bool,
}

impl OtepSession {
    /// A session that starts under `rules` (OpenTafl's `rules` changes the
    /// variant, keeping the engine's options of `rules`), with `agent`
    /// choosing the moves.
    pub fn new(rules: TaflRules, mut agent: Box<dyn Agent<Tafl>>) -> OtepSession {
        let stop = Arc::new(AtomicBool::new(false));
        let heeds_stop = agent.set_stop_flag(StopFlag::new(Arc::clone(&stop)));
        OtepSession {
            options: rules,
            agent,
            state: Tafl::new(rules),
            before_own_move: None,
            positioned: false,
            waiting_play: None,
            clocks: None,
            stop,
            heeds_stop,
            goodbye: false,
        }
    }

    fn execute(&mut self, name: &str, rest: &str) -> Result<Option<String>, String> {
        let arguments: Vec<&str> = rest.split_whitespace().collect();
        match name {
            "rules" => self.rules(rest.trim()).map(|()| None),
            "position" => self.position(&arguments).map(|()| None),
            "side" => self.side(&arguments).map(|()| None),
            "play" => {
                let side = one_side(&arguments, "play")?;
                self.waiting_play = Some(side);
                Ok(None)
            }
            "clock" => {
                self.clocks = Some(Clocks::parse(&arguments)?);
                Ok(None)
            }
            "opponent-move" => self.opponent_move(&arguments).map(|()| None),
            "move" => self.own_move_taken(&arguments).map(|()| None),
            "error" => {
                // The host refused the last move: it is taken back, and the
                // host repeats the opponent's move and `play`.
                if let Some(before) = self.before_own_move.take() {
                    self.state = before;
                    self.agent.reset();
                }
                Ok(None)
            }
            "analyze" => self.analyze(&arguments).map(Some),
            "finish" => {
                self.agent.reset();
                self.before_own_move = None;
                Ok(None)
            }
            "goodbye" => {
                self.goodbye = true;
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    fn rules(&mut self, text: &str) -> Result<(), String> {
        let rules = TaflRules::from_rules_string(text).map_err(|error| error.to_string())?;
        self.state = Tafl::new(rules.with_options_of(&self.options));
        self.agent.reset();
        self.before_own_move = None;
        self.positioned = false;
        Ok(())
    }

    /// The board of `record`, with `to_move` to move, under the session's
    /// rules.
    fn board(&self, record: &str, to_move: Side) -> Result<Tafl, String> {
        Tafl::from_position_text(&format!("{record} {to_move}"), *self.state.rules())
            .map_err(|error: ParseError| error.to_string())
    }

    fn position(&mut self, arguments: &[&str]) -> Result<(), String> {
        let [record] = arguments else {
            return Err("expected: position RECORD".into());
        };
        self.state = self.board(record, self.state.side_to_move())?;
        self.agent.reset();
        self.before_own_move = None;
        self.positioned = true;
        Ok(())
    }

    fn side(&mut self, arguments: &[&str]) -> Result<(), String> {
        let side = one_side(arguments, "side")?;
        if self.positioned {
            self.set_side_to_move(side)?;
        }
        Ok(())
    }

    /// Makes `side` the side to move, keeping the board.
    fn set_side_to_move(&mut self, side: Side) -> Result<(), String> {
        if self.state.side_to_move() != side {
            self.state = self.board(&position_of(&self.state), side)?;
        }
        Ok(())
    }

    fn opponent_move(&mut self, arguments: &[&str]) -> Result<(), String> {
        let (moves, record) = match arguments {
            [moves, record] => (*moves, Some(*record)),
            [moves] => (*moves, None),
            _ => return Err("expected: opponent-move MOVES RECORD".into()),
        };
        self.before_own_move = None;
        // After a refused move the host repeats the opponent's last move,
        // which the board already shows.
        if record.is_some_and(|record| same_board(&self.state, record)) {
            return Ok(());
        }
        let mut state = self.state.clone();
        let mut played = Vec::new();
        let moved = moves.split('|').try_for_each(|text| {
            let mv = read_move(&state, text).map_err(|error| error.to_string())?;
            played.push((state.clone(), mv));
            state.play(mv);
            Ok::<(), String>(())
        });
        match (moved, record) {
            (Ok(()), Some(record)) if !same_board(&state, record) => {
                // The host's board is the game's: take it.
                let to_move = state.side_to_move();
                self.state = self.board(record, to_move)?;
                self.agent.reset();
            }
            (Ok(()), _) => {
                for (before, mv) in &played {
                    self.agent.observe(before, &Ply::Move(*mv));
                }
                self.state = state;
            }
            (Err(problem), Some(record)) => {
                let to_move = self.state.side_to_move().opponent();
                self.state = self.board(record, to_move).map_err(|_| problem)?;
                self.agent.reset();
            }
            (Err(problem), None) => return Err(problem),
        }
        Ok(())
    }

    fn own_move_taken(&mut self, arguments: &[&str]) -> Result<(), String> {
        self.before_own_move = None;
        match arguments {
            [record] if !same_board(&self.state, record) => {
                let to_move = self.state.side_to_move();
                self.state = self.board(record, to_move)?;
                self.agent.reset();
                Ok(())
            }
            [_] => Ok(()),
            _ => Err("expected: move RECORD".into()),
        }
    }

    /// The move for `side`: `status` with what the search found, then
    /// `move FROM-TO`, or `error 0 ...` when there is none to make.
    fn play(&mut self, side: Side) -> String {
        if let Err(problem) = self.set_side_to_move(side) {
            return error_line(&problem);
        }
        if let Some(outcome) = self.state.status().outcome() {
            return error_line(&format!("the game is over ({})", outcome.reason));
        }
        let budget = self.clocks.and_then(|clocks| self.budget(clocks, side));
        let mover = side.player();
        let decision = self.searching_for(budget, |agent, state| agent.decide(state, mover));
        let mv = match decision {
            Ok(Decision::Play(mv)) => mv,
            Ok(Decision::Resign) => return error_line("the engine's agent resigned"),
            Err(error) => return error_line(&format!("the engine's agent cannot move: {error}")),
        };
        let mut reply = self.status_line();
        reply.push_str(&format!("move {}\n", simple_move(&self.state, mv)));
        self.agent.observe(&self.state, &Ply::Move(mv));
        self.before_own_move = Some(self.state.clone());
        self.state.play(mv);
        reply
    }

    /// The time to spend on a move for `side` with `clocks`: what
    /// [`move_time`] gives of the clock, the overtime period counting as
    /// what each move adds while periods are left.
    fn budget(&mut self, clocks: Clocks, side: Side) -> Option<Duration> {
        let left = clocks.left[side.player()]?;
        let added = if clocks.overtimes[side.player()] > 0 {
            clocks.overtime
        } else {
            Duration::ZERO
        };
        self.agent.clock(left, added);
        Some(move_time(left, added).saturating_sub(CLOCK_RESERVE))
    }

    /// Runs `search` with the agent, stopped once `budget` has passed when
    /// the agent heeds a stop flag.
    fn searching_for<T>(
        &mut self,
        budget: Option<Duration>,
        search: impl FnOnce(&mut dyn Agent<Tafl>, &Tafl) -> T,
    ) -> T {
        self.stop.store(false, Ordering::Relaxed);
        let _alarm = match budget {
            Some(budget) if self.heeds_stop => Some(alarm(Arc::clone(&self.stop), budget)),
            _ => None,
        };
        search(self.agent.as_mut(), &self.state)
    }

    /// `status depth D, score S for SIDE, N nodes, T s`, from the agent's
    /// last search; nothing for an agent that did not search.
    fn status_line(&self) -> String {
        let Some(search) = self.agent.last_search() else {
            return String::new();
        };
        let depth = search
            .depth
            .map(|depth| format!("depth {depth}, "))
            .unwrap_or_default();
        format!(
            "status {depth}score {:+.3} for the {}, {} nodes, {:.2} s\n",
            search.value,
            self.state.side_to_move(),
            search.nodes,
            search.seconds
        )
    }

    fn analyze(&mut self, arguments: &[&str]) -> Result<String, String> {
        let [_count, seconds] = arguments else {
            return Err("expected: analyze COUNT SECONDS".into());
        };
        let seconds = seconds
            .parse::<f64>()
            .ok()
            .filter(|seconds| seconds.is_finite() && *seconds > 0.0 && *seconds <= 86_400.0)
            .ok_or_else(|| format!("`{}` is not seconds", escape_control(seconds)))?;
        if self.state.status().outcome().is_some() {
            return Err("the game is over".into());
        }
        let mover = self.state.side_to_move().player();
        let budget = Duration::from_secs_f64(seconds);
        self.agent.clock(budget * 2, budget);
        let decision = self.searching_for(Some(budget), |agent, state| agent.decide(state, mover));
        let first = match decision {
            Ok(Decision::Play(mv)) => mv,
            Ok(Decision::Resign) => return Err("the engine's agent resigned".into()),
            Err(error) => return Err(format!("the engine's agent cannot move: {error}")),
        };
        let (line, value) = match self.agent.last_search() {
            Some(search) if search.pv.first() == Some(&first) => (search.pv, search.value),
            Some(search) => (vec![first], search.value),
            None => (vec![first], 0.0),
        };
        let mut state = self.state.clone();
        let mut texts = Vec::new();
        for mv in line {
            if state.check_move(mv).is_err() {
                break;
            }
            texts.push(simple_move(&state, mv));
            state.play(mv);
        }
        // Thousandths of the mover's value, as a whole number.
        let score = (value.clamp(-1.0, 1.0) * 1000.0).round() as i32;
        Ok(format!("analysis 1 {} {score}\n", texts.join("|")))
    }
}

impl EngineSession for OtepSession {
    /// Nothing for most commands (OTEP does not acknowledge them); `move`
    /// after `play` and its clock, `analysis` for `analyze`, `error 0
    /// MESSAGE` for a command that cannot be followed.
    fn answer(&mut self, line: &str) -> Option<String> {
        let line = line.trim();
        let (name, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let mut reply = String::new();
        if let Some(side) = self.waiting_play.take() {
            // `play` waits for its clock; any other command comes after
            // the move.
            if name == "clock" {
                match Clocks::parse(&rest.split_whitespace().collect::<Vec<_>>()) {
                    Ok(clocks) => self.clocks = Some(clocks),
                    Err(problem) => reply.push_str(&error_line(&problem)),
                }
                reply.push_str(&self.play(side));
                return Some(reply);
            }
            reply.push_str(&self.play(side));
        }
        if name.is_empty() {
            return (!reply.is_empty()).then_some(reply);
        }
        match self.execute(name, rest) {
            Ok(Some(answer)) => reply.push_str(&answer),
            Ok(None) => {}
            Err(problem) => {
                let critical = name == "rules";
                reply.push_str(&if critical {
                    format!("error -1 {}\n", escape_control(&problem))
                } else {
                    error_line(&problem)
                });
            }
        }
        (!reply.is_empty()).then_some(reply)
    }

    fn refusal(&self, message: &str) -> String {
        error_line(message)
    }

    fn finished(&self) -> bool {
        self.goodbye
    }

    fn greeting(&mut self) -> Option<String> {
        Some("hello\n".into())
    }

    fn patience(&self) -> Option<Duration> {
        self.waiting_play.map(|_| CLOCK_PATIENCE)
    }

    fn lost_patience(&mut self) -> Option<String> {
        let side = self.waiting_play.take()?;
        Some(self.play(side))
    }
}

/// A non-critical error line: the host shows it and the game goes on.
fn error_line(problem: &str) -> String {
    format!("error 0 {}\n", escape_control(problem))
}

/// The one side named by a command's arguments.
fn one_side(arguments: &[&str], command: &str) -> Result<Side, String> {
    match arguments {
        [word] => Side::parse(word)
            .ok_or_else(|| format!("`{}` is not attackers or defenders", escape_control(word))),
        _ => Err(format!("expected: {command} attackers|defenders")),
    }
}

/// Whether `state`'s board is the one `record` writes.
fn same_board(state: &Tafl, record: &str) -> bool {
    Tafl::from_position_text(
        &format!("{record} {}", state.side_to_move()),
        *state.rules(),
    )
    .is_ok_and(|board| position_of(&board) == position_of(state))
}

/// A move as OTEP's simple notation writes it: `d1-d3`.
fn simple_move(state: &Tafl, mv: TaflMove) -> String {
    format!(
        "{}-{}",
        state.square_name(mv.from.into()),
        state.square_name(mv.to.into())
    )
}

/// Raises `flag` once `after` has passed, unless the returned sender is
/// dropped first.
fn alarm(flag: Arc<AtomicBool>, after: Duration) -> Sender<()> {
    let (cancel, cancelled) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        if cancelled.recv_timeout(after) == Err(RecvTimeoutError::Timeout) {
            flag.store(true, Ordering::Relaxed);
        }
    });
    cancel
}
