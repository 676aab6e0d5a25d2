//! `norn engine hnefatafl` answers scripted Hnefatafl Text Protocol sessions.

use norn::core::{Game, Notation};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs a session and returns the replies, one string per command.
fn session(agent: &str, script: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_norn"))
        .args(["engine", "hnefatafl", "--agent", agent, "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the norn binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.ends_with("\n\n"),
        "every reply ends with an empty line: {text:?}"
    );
    text.trim_end_matches('\n')
        .split("\n\n")
        .map(str::to_string)
        .collect()
}

#[test]
fn a_scripted_session_gets_the_expected_replies() {
    let script = "\
name
protocol_version
# a comment line and an empty one get no reply

known_command generate_move
known_command fly
board_size 13
board_size 11
play attacker a8 e8   # trailing comments are ignored
play d D6 D8
play defender f4 f2
play attacker a4 a1
play attacker a4
play king a4 a2
frobnicate
play_undo
play d d6 d8
final_status
time_settings fischer 900000 10
time_settings un-timed
time_settings sometimes
play a resign
final_status
generate_move
play_undo
final_status
quit
name
";
    let replies = session("alphabeta:depth=1", script);
    let expected = [
        "= norn",
        "= 1-beta",
        "= true",
        "= false",
        "? board size 13 is not supported: norn plays Copenhagen Hnefatafl on 11x11",
        "= ",
        "= ",
        "= e8",
        "? it is the attacker's turn, not the defender's",
        "? illegal move: only the king may stop on a1 (the throne and the corners are restricted)",
        "? expected: play ROLE FROM TO or play ROLE resign",
        "? `king` is not a role (attacker or defender)",
        "? unknown command: frobnicate",
        "= ",
        "= e8",
        "= ongoing",
        "= ",
        "= ",
        "? expected: time_settings un-timed or time_settings fischer MILLISECONDS ADD_SECONDS",
        "= ",
        "= defender_wins",
        "? the game is over (defender_wins)",
        "= ",
        "= ongoing",
        "= ",
    ];
    assert_eq!(replies, expected, "replies after `quit` are not expected");
}

#[test]
fn list_commands_and_show_board_answer_on_the_following_lines() {
    let replies = session("random", "list_commands\nshow_board\n");
    let commands: Vec<&str> = replies[0].lines().collect();
    assert_eq!(commands[0], "= ");
    for command in [
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
    ] {
        assert!(commands.contains(&command), "{command} missing");
    }
    let board: Vec<&str> = replies[1].lines().collect();
    assert_eq!(board[0], "= ");
    assert_eq!(board[1].trim_start(), "11  + . . a a a a a . . +");
}

/// The agent plays both sides; every generated move is legal in norn's own
/// game, written with lower-case squares, and the status follows the game.
#[test]
fn generated_moves_replay_as_a_legal_game() {
    let script = "generate_move\n".repeat(40) + "final_status\n";
    let replies = session("greedy", &script);
    let mut game = Hnefatafl::new(HnefataflRules::default());
    for reply in &replies[..replies.len() - 1] {
        if game.status().is_over() {
            assert!(reply.starts_with("? the game is over"), "{reply}");
            continue;
        }
        let words: Vec<&str> = reply.split_whitespace().collect();
        let [_, "play", role, from, to] = words[..] else {
            panic!("not a move: {reply}");
        };
        let expected_role = ["attacker", "defender"][game.status().player_to_move().unwrap()];
        assert_eq!(role, expected_role);
        assert_eq!(from, from.to_lowercase());
        let mv = game.parse_move(&format!("{from}-{to}")).unwrap();
        game.try_play(mv).unwrap();
    }
    let status = match game.status().outcome().map(|outcome| outcome.winner()) {
        None => "ongoing",
        Some(Some(0)) => "attacker_wins",
        Some(Some(_)) => "defender_wins",
        Some(None) => "draw",
    };
    assert_eq!(replies.last().unwrap(), &format!("= {status}"));
}

#[test]
fn replies_quote_commands_with_control_characters_escaped() {
    let replies = session("random", "\u{1b}[2J\nplay \u{1b}]0;x\u{7} d1 d3\n");
    assert_eq!(replies[0], "? unknown command: \\u{1b}[2J");
    assert_eq!(
        replies[1],
        "? `\\u{1b}]0;x\\u{7}` is not a role (attacker or defender)"
    );
}
