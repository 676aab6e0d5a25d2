//! The Hnefatafl Text Protocol, a line protocol in the style of the Go Text
//! Protocol, so that norn's agents can play through the drivers, servers and
//! AIs that speak it (`norn engine hnefatafl`).
//!
//! One command per line (`#` starts a comment; blank lines are ignored). A
//! success is answered `= RESULT`, a failure `? MESSAGE`, each followed by an
//! empty line; [`crate::engine::serve`] also answers `? MESSAGE` to a line that is not
//! UTF-8 text or is too long. Roles are `attacker`/`a` and `defender`/`d` in any case;
//! squares are a file letter `a`..`k` and a rank `1`..`11`, rank 1 at the
//! attackers' bottom edge, in any case on input and lower case on output.
//!
//! | command | result |
//! |---------|--------|
//! | `name`, `version`, `protocol_version` | `norn`, the crate version, `1-beta` |
//! | `list_commands` | the commands, one per line after a line break |
//! | `known_command NAME` | `true` or `false` |
//! | `board_size 11` | starts a new game (only 11 is supported) |
//! | `play ROLE FROM TO` | plays the move; the result lists the captured squares |
//! | `play ROLE resign` | the role gives up (`resigns` is accepted too) |
//! | `generate_move` | the agent moves for the side to move: `play ROLE FROM TO` |
//! | `final_status` | `ongoing`, `attacker_wins`, `defender_wins` or `draw` |
//! | `show_board` | the board as text, after a line break |
//! | `play_undo` | takes back the last move or resignation |
//! | `time_settings un-timed` or `time_settings fischer MS ADD_SECONDS` | accepted and remembered; the agent's spec sets its thinking time |
//! | `quit` | ends the session |

use crate::agents::{Agent, Decision};
use crate::core::{Game, Notation, Ply, Status, escape_control};
use crate::engine::EngineSession;
use crate::games::hnefatafl::{
    Hnefatafl, HnefataflMove, HnefataflRules, Side, parse_square, square_name,
};

const COMMANDS: [&str; 13] = [
    "board_size",
    "final_status",
    "generate_move",
    "known_command",
    "list_commands",
    "name",
    "play",
    "play_undo",
    "protocol_version",
    "quit",
    "show_board",
    "time_settings",
    "version",
];

/// A game in progress as the protocol sees it.
#[derive(Clone)]
struct Position {
    state: Hnefatafl,
    /// The side that resigned, which ends the game.
    resigned: Option<Side>,
}

/// A session of the protocol: the game so far, its history for
/// `play_undo`, and the agent that answers `generate_move`.
pub struct HtpSession {
    rules: HnefataflRules,
    agent: Box<dyn Agent<Hnefatafl>>,
    position: Position,
    history: Vec<Position>,
    quit: bool,
}

impl EngineSession for HtpSession {
    /// `= RESULT` for a success, `? MESSAGE` for a failure, each followed by
    /// an empty line.
    fn answer(&mut self, line: &str) -> Option<String> {
        let command = line.split('#').next().unwrap_or_default();
        let words: Vec<&str> = command.split_whitespace().collect();
        let (&name, arguments) = words.split_first()?;
        Some(match self.execute(name, arguments) {
            Ok(result) => format!("= {result}\n\n"),
            Err(message) => self.refusal(&message),
        })
    }

    fn refusal(&self, message: &str) -> String {
        // A message may quote the command, which must not write to the
        // terminal or break the reply's framing.
        format!("? {}\n\n", escape_control(message))
    }

    fn finished(&self) -> bool {
        self.quit
    }
}

impl HtpSession {
    /// A session under `rules` whose moves `agent` generates.
    pub fn new(rules: HnefataflRules, agent: Box<dyn Agent<Hnefatafl>>) -> Self {
        HtpSession {
            rules,
            agent,
            position: Position {
                state: Hnefatafl::new(rules),
                resigned: None,
            },
            history: Vec::new(),
            quit: false,
        }
    }

    fn execute(&mut self, name: &str, arguments: &[&str]) -> Result<String, String> {
        match name {
            "name" => Ok("norn".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "protocol_version" => Ok("1-beta".into()),
            "list_commands" => Ok(format!("\n{}", COMMANDS.join("\n"))),
            "known_command" => {
                let [command] = arguments else {
                    return Err("expected: known_command COMMAND".into());
                };
                Ok(COMMANDS.contains(command).to_string())
            }
            "board_size" => self.board_size(arguments),
            "play" => self.play(arguments),
            "generate_move" => self.generate_move(),
            "final_status" => Ok(self.final_status().into()),
            "show_board" => Ok(format!("\n{}", self.position.state.diagram().trim_end())),
            "play_undo" => {
                let previous = self.history.pop().ok_or("there is no move to undo")?;
                self.position = previous;
                self.agent.reset();
                Ok(String::new())
            }
            "time_settings" => {
                check_time_settings(arguments)?;
                Ok(String::new())
            }
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            other => Err(format!("unknown command: {other}")),
        }
    }

    fn board_size(&mut self, arguments: &[&str]) -> Result<String, String> {
        match arguments {
            ["11"] => {
                self.position = Position {
                    state: Hnefatafl::new(self.rules),
                    resigned: None,
                };
                self.history.clear();
                self.agent.reset();
                Ok(String::new())
            }
            [size] => Err(format!(
                "board size {size} is not supported: norn plays Copenhagen Hnefatafl on 11x11"
            )),
            _ => Err("expected: board_size 11".into()),
        }
    }

    fn final_status(&self) -> &'static str {
        if let Some(side) = self.position.resigned {
            return match side.opponent() {
                Side::Attackers => "attacker_wins",
                Side::Defenders => "defender_wins",
            };
        }
        match self.position.state.status().outcome() {
            None => "ongoing",
            Some(outcome) => match outcome.winner().map(Side::from_player) {
                Some(Side::Attackers) => "attacker_wins",
                Some(Side::Defenders) => "defender_wins",
                None => "draw",
            },
        }
    }

    /// The side to move, or an error if the game is over.
    fn side_to_move(&self) -> Result<Side, String> {
        match (self.position.resigned, self.position.state.status()) {
            (None, Status::ToMove(player)) => Ok(Side::from_player(player)),
            _ => Err(format!("the game is over ({})", self.final_status())),
        }
    }

    fn play(&mut self, arguments: &[&str]) -> Result<String, String> {
        const USAGE: &str = "expected: play ROLE FROM TO or play ROLE resign";
        let (role, rest) = arguments.split_first().ok_or(USAGE)?;
        let role = parse_role(role)?;
        let to_move = self.side_to_move()?;
        if role != to_move {
            return Err(format!(
                "it is the {}'s turn, not the {}'s",
                role_name(to_move),
                role_name(role)
            ));
        }
        match rest {
            ["resign" | "resigns"] | ["resigns", "_"] => {
                self.history.push(self.position.clone());
                self.position.resigned = Some(role);
                Ok(String::new())
            }
            [from, to] => {
                let mv = HnefataflMove {
                    from: parse_square(&from.to_ascii_lowercase()).map_err(|e| e.to_string())?,
                    to: parse_square(&to.to_ascii_lowercase()).map_err(|e| e.to_string())?,
                };
                self.position
                    .state
                    .check_move(mv)
                    .map_err(|illegal| illegal.to_string())?;
                Ok(self.make_move(mv))
            }
            _ => Err(USAGE.into()),
        }
    }

    /// Plays a legal move and lists the squares it captured.
    fn make_move(&mut self, mv: HnefataflMove) -> String {
        let (captured, _) = self.position.state.captures_of(mv);
        self.agent.observe(&self.position.state, &Ply::Move(mv));
        self.history.push(self.position.clone());
        self.position.state.play(mv);
        captured
            .squares()
            .map(square_name)
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn generate_move(&mut self) -> Result<String, String> {
        let role = self.side_to_move()?;
        let decision = self
            .agent
            .decide(&self.position.state, role.player())
            .map_err(|error| format!("the engine's agent cannot move: {error}"))?;
        match decision {
            Decision::Play(mv) => {
                self.make_move(mv);
                Ok(format!(
                    "play {} {} {}",
                    role_name(role),
                    square_name(mv.from),
                    square_name(mv.to)
                ))
            }
            Decision::Resign => {
                self.history.push(self.position.clone());
                self.position.resigned = Some(role);
                Ok(format!("play {} resign", role_name(role)))
            }
        }
    }
}

fn parse_role(text: &str) -> Result<Side, String> {
    match text.to_ascii_lowercase().as_str() {
        "a" | "attacker" | "attackers" => Ok(Side::Attackers),
        "d" | "defender" | "defenders" => Ok(Side::Defenders),
        _ => Err(format!("`{text}` is not a role (attacker or defender)")),
    }
}

fn role_name(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

/// Checks a time control. The agent's spec, not the clock, sets how long it
/// thinks, so a valid control is only acknowledged.
fn check_time_settings(arguments: &[&str]) -> Result<(), String> {
    const USAGE: &str =
        "expected: time_settings un-timed or time_settings fischer MILLISECONDS ADD_SECONDS";
    match arguments {
        ["un-timed" | "untimed" | "none"] => Ok(()),
        ["fischer", milliseconds, add_seconds] => {
            for number in [milliseconds, add_seconds] {
                if number.parse::<u64>().is_err() {
                    return Err(format!("`{number}` is not a number; {USAGE}"));
                }
            }
            Ok(())
        }
        _ => Err(USAGE.into()),
    }
}
