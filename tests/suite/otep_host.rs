//! `norn engine --protocol otep` under a host that speaks the OpenTafl
//! Engine Protocol as OpenTafl does: it waits for `hello`, sends the
//! variant's rules string and the engine's side, and for every turn of
//! the engine `opponent-move` (from the second turn on), `play` and
//! `clock`; it checks each `move` against its own copy of the game,
//! acknowledges it with `move RECORD`, and ends with `finish` and
//! `goodbye`. Its own moves are random.

use norn::core::{Game, GameRng, MoveList, Notation, rng_from_seed};
use norn::games::tafl::opentafl::{position_of, read_move};
use norn::games::tafl::{Side, Tafl, TaflRules};
use norn::rand::RngExt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

const NORN: &str = env!("CARGO_BIN_EXE_norn");

/// How long the host waits for any line the engine owes it.
const PATIENCE: Duration = Duration::from_secs(30);

/// A running engine: its input, and its output's lines.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(agent: &str) -> Engine {
        let mut child = Command::new(NORN)
            .args(["engine", "--protocol", "otep", "--agent", agent])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in output.lines() {
                if sender.send(line.unwrap()).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
    }

    fn next_line(&self, waiting_for: &str) -> String {
        self.lines
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|_| panic!("no line from the engine while waiting for {waiting_for}"))
    }

    /// The engine's next `move`, after any `status` lines (each must tell
    /// the search's depth and score).
    fn next_move(&self, statuses: &mut usize) -> String {
        loop {
            let line = self.next_line("`move`");
            if let Some(text) = line.strip_prefix("move ") {
                return text.to_string();
            }
            let status = line
                .strip_prefix("status ")
                .unwrap_or_else(|| panic!("unexpected line {line:?}"));
            assert!(
                status.contains("depth") && status.contains("score"),
                "{status}"
            );
            *statuses += 1;
        }
    }
}

/// OTEP's finish code of a game that ended in `state` (or was stopped
/// there, a draw).
fn finish_code(state: &Tafl) -> u8 {
    match state
        .status()
        .outcome()
        .and_then(|outcome| outcome.winner())
    {
        Some(0) => 2,
        Some(_) => 3,
        None => 1,
    }
}

/// How a game under the host ended.
struct Played {
    plies: usize,
    ended_by_rules: bool,
    engine_won: bool,
}

/// Plays one game of `variant` with the engine on `engine_side`, the host
/// moving at random from `seed`. With `refuse_first`, the host refuses the
/// engine's first move once, as OpenTafl does a move it rejects: `error`,
/// then the opponent's move again with the board, then `play`.
fn play_game(variant: &str, engine_side: Side, seed: u64, refuse_first: bool) -> Played {
    let rules = TaflRules::variant(variant).unwrap();
    let mut engine = Engine::start("alphabeta:depth=2");
    assert_eq!(engine.next_line("`hello`"), "hello");
    engine.send(&format!("rules {}", rules.rules_string_text()));
    engine.send(&format!("side {engine_side}"));
    let mut state = Tafl::new(rules);
    let mut rng: GameRng = rng_from_seed(seed);
    let mut moves = MoveList::new();
    let mut unsent: Vec<String> = Vec::new();
    let mut last_opponent_move: Option<String> = None;
    let mut refuse = refuse_first;
    let mut statuses = 0;
    let mut plies = 0;
    while state.status().outcome().is_none() && plies < 300 {
        if state.side_to_move() == engine_side {
            if !unsent.is_empty() {
                let moves_text = unsent.join("|");
                engine.send(&format!(
                    "opponent-move {moves_text} {}",
                    position_of(&state)
                ));
                last_opponent_move = Some(moves_text);
                unsent.clear();
            }
            engine.send(&format!("play {engine_side}"));
            engine.send("clock 60000 60000 0 0 0");
            let text = engine.next_move(&mut statuses);
            let mv = read_move(&state, &text)
                .unwrap_or_else(|error| panic!("{variant}: the engine's move: {error}"));
            if refuse {
                refuse = false;
                engine.send("error 2");
                if let Some(previous) = &last_opponent_move {
                    engine.send(&format!("opponent-move {previous} {}", position_of(&state)));
                }
                continue;
            }
            state.play(mv);
            engine.send(&format!("move {}", position_of(&state)));
        } else {
            state.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            unsent.push(format!(
                "{}-{}",
                state.square_name(mv.from.into()),
                state.square_name(mv.to.into())
            ));
            state.play(mv);
        }
        plies += 1;
    }
    engine.send(&format!("finish {}", finish_code(&state)));
    engine.send("goodbye");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    let status = loop {
        if let Some(status) = engine.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the engine did not exit after goodbye"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success(), "{variant}: {status}");
    assert!(statuses > 0, "{variant}: no status line");
    let outcome = state.status().outcome();
    Played {
        plies,
        ended_by_rules: outcome.is_some(),
        engine_won: outcome.and_then(|outcome| outcome.winner()) == Some(engine_side.player()),
    }
}

#[test]
fn the_engine_plays_whole_games_of_four_variants_under_an_opentafl_host() {
    for (variant, side, refuse_first) in [
        ("brandub", Side::Attackers, false),
        ("tablut", Side::Defenders, true),
        ("copenhagen", Side::Defenders, false),
        ("alea-evangelii", Side::Defenders, false),
    ] {
        let played = play_game(variant, side, 7, refuse_first);
        assert!(
            played.ended_by_rules && played.engine_won,
            "{variant}: after {} plies the engine had not won against random moves",
            played.plies
        );
    }
}

#[test]
fn the_engine_moves_without_a_clock_and_analyses_positions() {
    let mut engine = Engine::start("alphabeta:depth=2");
    assert_eq!(engine.next_line("`hello`"), "hello");
    let rules = TaflRules::variant("brandub").unwrap();
    engine.send(&format!("rules {}", rules.rules_string_text()));
    // A command the engine does not know is ignored.
    engine.send("start");
    // The defenders to move, their king on b1 beside the corner a1: the
    // king escapes at once.
    let record = "/1K5/7/7/3t3/7/7/3t3/";
    engine.send(&format!("position {record}"));
    engine.send("side defenders");
    engine.send("analyze 1 2");
    let line = engine.next_line("`analysis`");
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[..2], ["analysis", "1"], "{line}");
    let state = Tafl::from_position_text(&format!("{record} defenders"), rules).unwrap();
    let first = words[2].split('|').next().unwrap();
    let mut after = state.clone();
    after.play(read_move(&state, first).unwrap());
    assert_eq!(
        after
            .status()
            .outcome()
            .and_then(|outcome| outcome.winner()),
        Some(Side::Defenders.player()),
        "{line}"
    );
    assert_eq!(words[3], "1000", "{line}");
    // `play` with no clock after it: the engine moves all the same.
    engine.send("play defenders");
    let mut statuses = 0;
    let text = engine.next_move(&mut statuses);
    assert!(read_move(&state, &text).is_ok(), "{text}");
    engine.send("goodbye");
    assert!(engine.child.wait().unwrap().success());
}

#[test]
fn garbage_and_bad_arguments_get_errors_and_the_session_goes_on() {
    use norn::agents::build_agent;
    use norn::companions::tafl::OtepSession;
    use norn::engine::{MAX_LINE_BYTES, serve};

    let rules = TaflRules::variant("brandub").unwrap();
    let lines: Vec<Vec<u8>> = vec![
        b"frobnicate".to_vec(),
        b"\xff\xfe\xfd".to_vec(),
        b"\x00\x1b[2J\x07".to_vec(),
        vec![b'x'; MAX_LINE_BYTES + 1],
        b"rules dim:99 start:/".to_vec(),
        b"rules dim:7 ber:q start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".to_vec(),
        b"position /2K\x1b/".to_vec(),
        b"side nobody".to_vec(),
        b"clock lots of time".to_vec(),
        b"clock 99999999999999999999999 1 0 0 0".to_vec(),
        b"opponent-move z99-a1 /3t3/".to_vec(),
        b"analyze 1 -5".to_vec(),
        b"analyze 1 1e300".to_vec(),
        b"move".to_vec(),
        b"play".to_vec(),
        b"play attackers".to_vec(),
        b"clock 60000 60000 0 0 0".to_vec(),
        b"goodbye".to_vec(),
        b"play defenders".to_vec(),
    ];
    let agent = build_agent("alphabeta:depth=1", 1).unwrap();
    let mut session = OtepSession::new(rules, agent);
    let mut output = Vec::new();
    serve(
        &mut session,
        std::io::Cursor::new(lines.join(&b'\n')),
        &mut output,
    )
    .unwrap();
    let text = String::from_utf8(output).unwrap();
    let replies: Vec<&str> = text.lines().collect();
    assert_eq!(replies[0], "hello");
    for reply in &replies {
        assert!(
            ["hello", "error 0 ", "error -1 ", "status ", "move "]
                .iter()
                .any(|start| reply.starts_with(start)),
            "{reply:?}"
        );
        assert!(!reply.chars().any(char::is_control), "{reply:?}");
    }
    // Two refused rules strings are critical, every other bad line is not;
    // the unknown command is ignored; and after all of it the engine still
    // plays a legal move of the start position, once, before `goodbye`.
    let critical = replies
        .iter()
        .filter(|reply| reply.starts_with("error -1"))
        .count();
    assert_eq!(critical, 2, "{text}");
    let moves: Vec<&&str> = replies
        .iter()
        .filter(|reply| reply.starts_with("move "))
        .collect();
    assert_eq!(moves.len(), 1, "{text}");
    let start = Tafl::new(rules);
    assert!(
        read_move(&start, &moves[0]["move ".len()..]).is_ok(),
        "{text}"
    );
}

#[test]
fn the_engine_takes_its_time_from_the_clock_whatever_its_agent() {
    // A search to depth 30 would take hours; with 3 s on its clock the
    // engine has a thirtieth of it, less its reserve, and moves in time.
    let mut engine = Engine::start("alphabeta:depth=30");
    assert_eq!(engine.next_line("`hello`"), "hello");
    let rules = TaflRules::variant("copenhagen").unwrap();
    engine.send(&format!("rules {}", rules.rules_string_text()));
    engine.send("side attackers");
    engine.send("play attackers");
    let asked = std::time::Instant::now();
    engine.send("clock 3000 3000 0 0 0");
    let mut statuses = 0;
    let text = engine.next_move(&mut statuses);
    let took = asked.elapsed();
    assert!(took < Duration::from_millis(1500), "{took:?}");
    assert!(read_move(&Tafl::new(rules), &text).is_ok(), "{text}");
    engine.send("goodbye");
    assert!(engine.child.wait().unwrap().success());
}
