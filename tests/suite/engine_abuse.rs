//! Engine sessions under abuse: garbage commands, bytes that are not text,
//! endless lines, absurd arguments, illegal and late moves, an agent that
//! cannot move, and input that stops mid-game. Each gets a `? MESSAGE`
//! reply or a clean end, never a panic or a hang, for every game of the
//! registry that has an engine protocol.
//!
//! The protocols here are those that frame their replies as the Go Text
//! Protocol does (`= RESULT` or `? MESSAGE`, then an empty line) and have
//! `name` and `generate_move`, which the tests for all games rely on: the
//! Hnefatafl Text Protocol (`htp`). OTEP, which acknowledges nothing, is
//! abused in tests/suite/otep_host.rs.

use norn::agents::{Agent, AgentError, Decision, build_agent};
use norn::companions::hnefatafl::HtpSession;
use norn::core::{Player, rng_from_seed};
use norn::engine::{EngineSession, MAX_LINE_BYTES, serve};
use norn::games::hnefatafl::{Hnefatafl, HnefataflMove, HnefataflRules};
use norn::registry::{self, GameVisitor, Registered};
use rand::RngExt;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The sessions of every game with an engine protocol framed as the Go
/// Text Protocol's, each with a random agent, by game name.
struct EngineGames;

impl GameVisitor for EngineGames {
    type Output = Option<(&'static str, Box<dyn EngineSession>)>;

    fn visit<G: Registered>(&mut self) -> Self::Output {
        let agent = G::build_agent("random", 5).expect("every game has a random agent");
        let protocol = G::engine_protocols()
            .into_iter()
            .find(|protocol| protocol.name == "htp")?;
        Some((G::NAME, (protocol.session)(G::Rules::default(), agent)))
    }
}

fn engine_sessions() -> Vec<(&'static str, Box<dyn EngineSession>)> {
    let sessions: Vec<_> = registry::visit_all(&mut EngineGames)
        .into_iter()
        .flatten()
        .collect();
    assert!(!sessions.is_empty(), "hnefatafl has an engine protocol");
    sessions
}

/// Lines that no protocol takes as a command.
fn garbage_lines() -> Vec<Vec<u8>> {
    vec![
        b"frobnicate".to_vec(),
        b"\xff\xfe\xfd\xfc".to_vec(),
        // A command cut inside a two-byte character.
        b"name \xc3".to_vec(),
        b"\x00\x01\x02\x1b[2J\x07".to_vec(),
        b"\x7fELF\x02\x01\x01\x00\x00\x00".to_vec(),
        "\u{16a0}\u{16a2}\u{16a6} \u{fffd}".as_bytes().to_vec(),
        vec![b'x'; MAX_LINE_BYTES + 1],
        [b"name ".as_slice(), &vec![b'9'; 3 * MAX_LINE_BYTES]].concat(),
    ]
}

/// `lines` joined by line breaks, the last without one.
fn input(lines: &[Vec<u8>]) -> Vec<u8> {
    lines.join(&b'\n')
}

/// The replies of a session's output, without their empty lines.
fn replies(output: &[u8]) -> Vec<String> {
    let text = std::str::from_utf8(output).expect("replies are UTF-8 text");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "every reply ends with an empty line: {text:?}"
    );
    let replies: Vec<String> = text
        .strip_suffix("\n\n")
        .map(|text| text.split("\n\n").map(str::to_string).collect())
        .unwrap_or_default();
    for reply in &replies {
        assert!(
            reply.starts_with("= ") || reply.starts_with("? "),
            "not a reply: {reply:?}"
        );
    }
    replies
}

fn served(session: &mut dyn EngineSession, lines: &[Vec<u8>]) -> Vec<String> {
    let mut output = Vec::new();
    serve(session, std::io::Cursor::new(input(lines)), &mut output).expect("memory does not fail");
    replies(&output)
}

#[test]
fn garbage_lines_are_refused_and_the_session_goes_on() {
    for (game, mut session) in engine_sessions() {
        let garbage = garbage_lines();
        let lines = [
            vec![b"name".to_vec()],
            garbage.clone(),
            vec![b"name".to_vec()],
        ]
        .concat();
        let replies = served(session.as_mut(), &lines);
        assert_eq!(replies.len(), lines.len(), "{game}: one reply a line");
        for (line, reply) in garbage.iter().zip(&replies[1..]) {
            let shown = String::from_utf8_lossy(&line[..line.len().min(40)]);
            assert!(reply.starts_with("? "), "{game}: {shown:?} got {reply:?}");
        }
        assert_eq!(replies[0], replies[replies.len() - 1], "{game}");
        assert!(!session.finished(), "{game}");
    }
}

#[test]
fn refusals_say_what_is_wrong_with_the_line() {
    let (_, mut session) = engine_sessions().remove(0);
    let lines = [
        b"\xff".to_vec(),
        vec![b' '; MAX_LINE_BYTES + 1],
        vec![b' '; MAX_LINE_BYTES],
    ];
    let replies = served(session.as_mut(), &lines);
    assert_eq!(
        replies,
        [
            "? the line is not UTF-8 text".to_string(),
            format!("? the line is longer than {MAX_LINE_BYTES} bytes"),
        ],
        "a blank line of the longest length is no command and gets no reply"
    );
}

/// A session of the Hnefatafl Text Protocol with `agent` under `rules`.
fn htp(agent: &str, rules: &str) -> HtpSession {
    let rules: HnefataflRules = rules.parse().unwrap();
    HtpSession::new(rules, build_agent::<Hnefatafl>(agent, 3).unwrap())
}

/// Asserts that each command of `commands` is refused.
fn assert_refused(session: &mut HtpSession, commands: &[&str]) {
    for command in commands {
        let reply = session.answer(command).unwrap();
        assert!(reply.starts_with("? "), "{command:?} got {reply:?}");
    }
}

#[test]
fn absurd_board_sizes_and_arguments_are_refused() {
    let mut session = htp("random", "");
    session.answer("play attacker d1 d3").unwrap();
    assert_refused(
        &mut session,
        &[
            "board_size 1000000000",
            "board_size 99999999999999999999999999999999",
            "board_size -11",
            "board_size 0",
            "board_size eleven",
            "board_size 11.0",
            "board_size 11 11",
            "board_size",
            "boardsize 11",
            "known_command",
            "known_command name name",
            "time_settings fischer -1 5",
            "time_settings fischer 99999999999999999999999 1",
            "time_settings fischer 1000",
        ],
    );
    // None of them touched the game.
    assert_eq!(session.answer("play_undo").unwrap(), "= \n\n");
    assert_refused(&mut session, &["play_undo"]);
}

#[test]
fn illegal_moves_are_refused_and_leave_the_game_as_it_was() {
    let mut session = htp("random", "");
    let board = session.answer("show_board").unwrap();
    assert_refused(
        &mut session,
        &[
            "play",
            "play attacker",
            "play attacker d1",
            "play attacker d1 d3 d5",
            "play attacker a1 a1",
            "play attacker d1 d1",
            "play attacker z99 a1",
            "play attacker a0 a1",
            "play attacker a-1 a1",
            "play attacker a4 a1",
            "play attacker a4 b5",
            "play attacker f6 f7",
            "play defender f4 f2",
            "play king d1 d3",
            "play attacker resign please",
            "play \u{16a0} d1 d3",
        ],
    );
    assert_eq!(session.answer("show_board").unwrap(), board);
    assert_eq!(session.answer("final_status").unwrap(), "= ongoing\n\n");
}

#[test]
fn moves_in_a_finished_game_are_refused() {
    let mut session = htp("random", "ply-limit=4");
    for _ in 0..4 {
        let reply = session.answer("generate_move").unwrap();
        assert!(reply.starts_with("= play "), "{reply}");
    }
    let status = session.answer("final_status").unwrap();
    assert_ne!(status, "= ongoing\n\n", "the ply limit ends the game");
    assert_refused(
        &mut session,
        &[
            "generate_move",
            "play attacker a4 a3",
            "play defender e5 e3",
            "play attacker resign",
        ],
    );
    assert_eq!(session.answer("final_status").unwrap(), status);
    let mut session = htp("random", "");
    assert_refused(&mut session, &["play defender resign"]);
    session.answer("play attacker resign");
    assert_refused(&mut session, &["generate_move", "play attacker d1 d3"]);
    assert_eq!(session.answer("play_undo").unwrap(), "= \n\n");
    assert_eq!(session.answer("play attacker d1 d3").unwrap(), "= \n\n");
}

/// An agent that never finds a move.
struct Stuck;

impl Agent<Hnefatafl> for Stuck {
    fn spec(&self) -> &str {
        "stuck"
    }

    fn decide(&mut self, _: &Hnefatafl, _: Player) -> Result<Decision<HnefataflMove>, AgentError> {
        Err(AgentError::new("no move comes to mind"))
    }
}

#[test]
fn an_agent_that_cannot_move_is_a_refusal_and_the_session_goes_on() {
    let mut session = HtpSession::new(HnefataflRules::default(), Box::new(Stuck));
    assert_eq!(
        session.answer("generate_move").unwrap(),
        "? the engine's agent cannot move: no move comes to mind\n\n"
    );
    assert_eq!(session.answer("play attacker d1 d3").unwrap(), "= \n\n");
    assert_eq!(session.answer("final_status").unwrap(), "= ongoing\n\n");
    assert!(!session.finished());
}

#[test]
fn random_command_soup_gets_a_reply_to_every_line() {
    const WORDS: [&str; 30] = [
        "name",
        "generate_move",
        "play",
        "play_undo",
        "board_size",
        "final_status",
        "show_board",
        "known_command",
        "list_commands",
        "time_settings",
        "fischer",
        "un-timed",
        "attacker",
        "defender",
        "a",
        "D",
        "resign",
        "11",
        "-1",
        "4294967296",
        "d1",
        "d3",
        "f6",
        "a1",
        "k11",
        "L12",
        "#",
        "\u{0}",
        "\u{16a0}",
        "",
    ];
    let mut rng = rng_from_seed(11);
    let mut session = htp("random", "ply-limit=30");
    for _ in 0..5_000 {
        let length = rng.random_range(0..5);
        let line: Vec<&str> = (0..length)
            .map(|_| WORDS[rng.random_range(0..WORDS.len())])
            .collect();
        let line = line.join(" ");
        if let Some(reply) = session.answer(&line) {
            assert!(
                (reply.starts_with("= ") || reply.starts_with("? ")) && reply.ends_with("\n\n"),
                "{line:?} got {reply:?}"
            );
        }
    }
    assert!(!session.finished());
}

/// Runs `norn engine GAME` on `input` and returns its replies, failing if it
/// does not exit cleanly within a minute of the end of its input.
fn engine_binary(game: &str, input: Vec<u8>) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_norn"))
        .args(["engine", game, "--agent", "random", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the norn binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut output = Vec::new();
        stdout.read_to_end(&mut output).map(|_| output)
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("`norn engine {game}` still runs a minute after its input ended");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    writer
        .join()
        .unwrap()
        .expect("the engine reads all its input");
    let output = reader.join().unwrap().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(status.success(), "{game}: {status}: {stderr}");
    assert!(stderr.is_empty(), "{game}: {stderr}");
    replies(&output)
}

#[test]
fn the_binary_survives_garbage_and_input_that_ends_mid_game() {
    let (names, _): (Vec<&str>, Vec<_>) = engine_sessions().into_iter().unzip();
    for game in names {
        let garbage = garbage_lines();
        let moves = vec![b"generate_move".to_vec(); 3];
        let lines = [garbage.clone(), moves.clone(), garbage.clone(), moves].concat();
        let replies = engine_binary(game, input(&lines));
        assert_eq!(replies.len(), lines.len(), "{game}: one reply a line");
        for (line, reply) in lines.iter().zip(&replies) {
            let expected = if line == b"generate_move" { "= " } else { "? " };
            assert!(reply.starts_with(expected), "{game}: {reply:?}");
        }
    }
}
