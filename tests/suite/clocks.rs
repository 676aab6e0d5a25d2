//! Game clocks in tournaments: the time control is part of the run, the
//! reports say how much of its clock each agent used, and a loss on time
//! is checked like any other ending of a logged game; a single game of
//! `norn play` takes the same clock.

use crate::common::cli::{assert_fails_with, json, norn, read_json, stdout};
use norn::arena::{GameLine, TIME_REASON, TournamentConfig, check_line};
use norn::core::{Game, Notation, Status};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use std::path::{Path, PathBuf};

/// A finished tournament with a generous clock, in a fresh directory.
fn clocked_run(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let output = norn(&[
        "tournament",
        "hnefatafl",
        "--agents",
        "alphabeta:depth=1",
        "random",
        "--games",
        "2",
        "--max-plies",
        "10",
        "--tc",
        "100+0.5",
        "--no-openings",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    dir
}

#[test]
fn a_clocked_tournament_records_its_time_control_and_the_clock_used() {
    let dir = clocked_run("clocked-tournament");
    let config = read_json(&dir.join("config.json"));
    assert_eq!(config["time_control"], "100+0.5", "{config}");
    let summary = read_json(&dir.join("summary.json"));
    for agent in summary["agents"].as_array().unwrap() {
        let used = agent["search"]["clock_used"].as_f64().unwrap();
        // Five moves at most of microseconds to milliseconds, against 100 s.
        assert!(used > 0.0 && used < 0.01, "{used}");
    }
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("clock used"));
    assert_fails_with(
        &["tournament", "hnefatafl", "--tc", "0+1"],
        "the base time must be at least 0.001",
    );
    assert_fails_with(
        &["tournament", "hnefatafl", "--tc", "fast"],
        "is not a number of seconds",
    );
}

#[test]
fn a_loss_on_time_is_checked_like_any_ending() {
    let dir = clocked_run("clocked-forgery");
    let stored = read_json(&dir.join("config.json"));
    let config: TournamentConfig = serde_json::from_value(stored).unwrap();
    let start = Hnefatafl::new(HnefataflRules::default());
    let log = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let game: GameLine = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    // The same game cut after 5 plies, lost on time by the side to move.
    let mut state = start.clone();
    for text in &game.moves[..5] {
        let ply = state.parse_ply(text).unwrap();
        state.play_ply(&ply);
    }
    let Status::ToMove(mover) = state.status() else {
        panic!("the game goes on after 5 plies");
    };
    let mut timed_out = game.clone();
    timed_out.moves.truncate(5);
    timed_out.plies = 5;
    timed_out.search.as_mut().unwrap().truncate(5);
    timed_out.reason = TIME_REASON.to_string();
    timed_out.payoffs = if mover == 0 { [-1.0, 1.0] } else { [1.0, -1.0] };
    timed_out.winner = Some(state.player_name(1 - mover));
    check_line(&config, &start, &timed_out).unwrap();
    // The other side cannot have run out of time: it was not choosing.
    let mut wrong_side = timed_out.clone();
    wrong_side.payoffs = [wrong_side.payoffs[1], wrong_side.payoffs[0]];
    wrong_side.winner = Some(state.player_name(mover));
    assert!(check_line(&config, &start, &wrong_side).is_err());
    // Nor can anyone in a tournament without a clock.
    let unclocked = TournamentConfig {
        time_control: None,
        adjudication: None,
        ..config
    };
    assert!(
        check_line(&unclocked, &start, &timed_out)
            .unwrap_err()
            .contains("no clock")
    );
}

#[test]
fn a_match_says_on_the_console_that_its_games_were_lost_on_time() {
    // A depth-3 search ignores a clock of a millisecond, and loses on time
    // at its first move, from either side.
    let args = [
        "match",
        "hnefatafl",
        "alphabeta:depth=3",
        "random",
        "--tc",
        "0.001",
        "--sprt",
        "0,10",
        "--max-games",
        "2",
        "--threads",
        "1",
    ];
    let text = stdout(&norn(&args));
    assert!(text.contains("game ends: time 2"), "{text}");
    let with_json: Vec<&str> = args.iter().copied().chain(["--json"]).collect();
    let report = json(&norn(&with_json));
    assert_eq!(report["overall"]["reasons"]["time"], 2, "{report}");
}

#[test]
fn a_played_game_keeps_its_clock_and_says_what_each_side_used() {
    // A depth-3 search ignores the clock, and takes longer than a
    // millisecond at the attackers' first move.
    let lost = json(&norn(&[
        "play",
        "hnefatafl",
        "--attackers",
        "alphabeta:depth=3",
        "--defenders",
        "random",
        "--tc",
        "0.001",
        "--json",
    ]));
    assert_eq!(lost["reason"], TIME_REASON, "{lost}");
    assert_eq!(lost["plies"], 0, "{lost}");
    assert_eq!(lost["winner"], "defenders", "{lost}");
    assert_eq!(lost["time_control"], "0.001+0", "{lost}");
    let played = json(&norn(&[
        "play",
        "hnefatafl",
        "--attackers",
        "alphabeta:depth=1",
        "--defenders",
        "random",
        "--tc",
        "100+1",
        "--json",
    ]));
    assert_ne!(played["reason"], TIME_REASON, "{played}");
    for player in played["players"].as_array().unwrap() {
        let seconds = player["seconds"].as_f64().unwrap();
        assert!(seconds > 0.0 && seconds < 100.0, "{player}");
    }
    let text = stdout(&norn(&[
        "play",
        "hnefatafl",
        "--attackers",
        "random",
        "--defenders",
        "random",
        "--tc",
        "100+1",
    ]));
    assert!(text.contains("clock 100+1: used attackers "), "{text}");
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--agent0",
            "random",
            "--agent1",
            "random",
            "--tc",
            "0",
        ],
        "the base time must be at least 0.001",
    );
}
