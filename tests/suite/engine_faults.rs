//! Outside engines that misbehave (hostile scripts in tests/data/engines)
//! cannot kill, hang or outlive norn: an engine that exits is an error that
//! says how it exited and what it last wrote on stderr; one that does not
//! answer in time, or writes a line without end, is stopped with its whole
//! process group; a reply for the wrong side is refused; in tournaments and
//! matches each failure is the engine's loss by forfeit.

#![cfg(target_os = "linux")]

use crate::common::cli::{norn, stdout};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn script(name: &str) -> String {
    format!("{}/tests/data/engines/{name}", env!("CARGO_MANIFEST_DIR"))
}

const NORN: &str = env!("CARGO_BIN_EXE_norn");

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs norn with `args`, killing it if it has not ended after `limit`.
fn norn_within(args: &[&str], limit: Duration) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = Command::new(NORN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "{args:?} still ran after {limit:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let elapsed = started.elapsed();
    (child.wait_with_output().unwrap(), elapsed)
}

/// The error norn printed, after checking that it ended by itself (no
/// signal: no SIGPIPE) with a failure.
fn failure(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.code().is_some_and(|code| code != 0),
        "{:?}: {stderr}",
        output.status
    );
    stderr
}

/// The process groups of the engine scripts that added theirs to `file`.
fn groups_in(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|line| line.trim().parse().unwrap())
        .collect()
}

/// The processes of group `group` that are still running (zombies, which
/// wait for a parent to read their status, have ended).
fn running_in_group(group: u32) -> Vec<u32> {
    let mut running = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (command) state ppid pgrp ...: the command may hold spaces.
        let Some(after_command) = stat.rfind(')').map(|end| &stat[end + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = after_command.split_whitespace().collect();
        if fields.get(2) == Some(&group.to_string().as_str()) && fields[0] != "Z" {
            running.push(pid);
        }
    }
    running
}

fn assert_groups_gone(groups: &[u32]) {
    assert!(!groups.is_empty(), "no engine wrote its group");
    for &group in groups {
        assert_group_gone(group);
    }
}

fn assert_group_gone(group: u32) {
    // SIGKILL takes effect at once, but the kernel may take a moment to
    // show the processes as ended.
    let deadline = Instant::now() + Duration::from_secs(2);
    while !running_in_group(group).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(running_in_group(group), Vec::<u32>::new(), "group {group}");
}

fn play_against_random(engine: &str) -> (Output, Duration) {
    norn_within(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            engine,
            "--defenders",
            "random",
        ],
        Duration::from_secs(20),
    )
}

#[test]
fn an_engine_that_exits_at_once_is_an_error_saying_how() {
    let engine = format!("htp:cmd={}", script("exits-at-once.sh"));
    let (output, _) = play_against_random(&engine);
    let error = failure(&output);
    assert!(error.contains("exits-at-once.sh"), "{error}");
    assert!(error.contains("exited (exit status: 3)"), "{error}");
    assert!(error.contains("cannot load its weights"), "{error}");
}

#[test]
fn an_engine_that_exits_mid_game_ends_play_match_and_tournament_clearly() {
    let engine = format!("htp:cmd={} {NORN}", script("dies-at-third-move.sh"));
    let (output, _) = play_against_random(&engine);
    let error = failure(&output);
    assert!(error.contains("dies-at-third-move.sh"), "{error}");
    assert!(error.contains("exited (exit status: 7)"), "{error}");
    assert!(error.contains("out of patience at move 3"), "{error}");

    // In a match and a tournament each game it plays is its forfeit, and
    // the run stops when it has forfeited --max-forfeits in a row.
    let (output, _) = norn_within(
        &[
            "match",
            "hnefatafl",
            &engine,
            "random",
            "--sprt",
            "0,10",
            "--max-games",
            "20",
            "--threads",
            "1",
            "--max-forfeits",
            "2",
        ],
        Duration::from_secs(30),
    );
    let error = failure(&output);
    assert!(error.contains("forfeited 2 games in a row"), "{error}");
    assert!(error.contains("exit status: 7"), "{error}");

    let log = forfeited_tournament("hnefatafl", &engine, "engine-dies-tournament");
    assert!(log.contains("out of patience"), "{log}");
}

#[test]
fn a_match_names_its_engine_and_says_why_each_game_ended() {
    // The engine fails in every game: the console says so, game by game,
    // under the name the spec gives it, without --out.
    let engine = format!(
        "htp:name=patient,cmd={} {NORN}",
        script("dies-at-third-move.sh")
    );
    let (output, _) = norn_within(
        &[
            "match",
            "hnefatafl",
            &engine,
            "random",
            "--sprt",
            "0,10",
            "--max-games",
            "2",
            "--threads",
            "1",
        ],
        Duration::from_secs(30),
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{output:?}");
    assert!(text.starts_with("patient vs random: undecided"), "{text}");
    assert!(text.contains("game ends: forfeit 2"), "{text}");
    for game in 0..2 {
        assert!(
            text.contains(&format!("game {game}: patient forfeited: ")),
            "{text}"
        );
    }
    assert!(text.contains("exit status: 7"), "{text}");
}

#[test]
fn engines_that_do_not_answer_in_time_are_stopped_with_their_processes() {
    let dir = scratch_dir("engine-hangs");
    let cases = [
        (
            "sleeps-at-generate-move.sh",
            true,
            "did not answer `generate_move` within 1000 ms",
        ),
        (
            "never-replies.sh",
            false,
            "did not answer `board_size 11` within 1000 ms",
        ),
        (
            "omits-blank-line.sh",
            false,
            "did not end its reply to `board_size 11` within 1000 ms",
        ),
        ("huge-line.sh", false, "with a line longer than 65536 bytes"),
    ];
    for (name, through_norn, reason) in cases {
        let group_file = dir.join(format!("{name}.group"));
        let group_path = group_file.to_str().unwrap();
        let arguments = if through_norn {
            format!("{NORN} {group_path}")
        } else {
            group_path.to_string()
        };
        let engine = format!("htp:reply-ms=1000,cmd={} {arguments}", script(name));
        let (output, elapsed) = play_against_random(&engine);
        let error = failure(&output);
        assert!(error.contains(reason), "{name}: {error}");
        assert!(error.contains("it was stopped"), "{name}: {error}");
        assert!(elapsed < Duration::from_secs(5), "{name}: {elapsed:?}");
        assert_groups_gone(&groups_in(&group_file));
    }
}

#[test]
fn ctrl_c_stops_a_tournament_waiting_on_an_engine_and_its_processes() {
    let dir = scratch_dir("engine-ctrl-c");
    let group_file = dir.join("group");
    let engine = format!(
        "htp:reply-ms=60000,cmd={} {}",
        script("never-replies.sh"),
        group_file.display()
    );
    let mut child = Command::new(NORN)
        .args(["tournament", "hnefatafl", "--agents", "random", &engine])
        .args(["--games", "2", "--threads", "1", "--out"])
        .arg(dir.join("run"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // One engine is started to read its configuration, one for the game.
    let deadline = Instant::now() + Duration::from_secs(10);
    while groups_in(&group_file).len() < 2 {
        assert!(Instant::now() < deadline, "the engines did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    // Past board_size: norn waits for the reply that never comes.
    std::thread::sleep(Duration::from_millis(200));
    let interrupted = Instant::now();
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    while child.try_wait().unwrap().is_none() {
        if interrupted.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("norn still waited on the engine 5 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_groups_gone(&groups_in(&group_file));
    // The game was abandoned, not forfeited.
    let log = std::fs::read_to_string(dir.join("run/games.jsonl")).unwrap_or_default();
    assert!(!log.contains("forfeit"), "{log}");
}

#[test]
fn a_reply_for_the_side_not_to_move_is_refused() {
    let engine = format!("htp:cmd={}", script("wrong-side.sh"));
    let (output, _) = play_against_random(&engine);
    let error = failure(&output);
    assert!(
        error.contains("a move for another side than the attacker to move"),
        "{error}"
    );
    assert!(stdout(&output).is_empty());
}

#[test]
fn a_dropped_engine_is_told_to_quit_without_norn_dying() {
    // An engine that exits before the quit norn sends at the end: the
    // write to its closed input is no SIGPIPE.
    let output = norn(&[
        "play",
        "hnefatafl",
        "--attackers",
        "random",
        "--defenders",
        &format!("htp:cmd={}", script("exits-at-once.sh")),
        "--rules",
        "ply-limit=1",
    ]);
    assert_eq!(output.status.code(), Some(0), "{:?}", output.status);
}

#[test]
fn an_engine_with_a_position_given_as_text_is_refused_before_anything_is_written() {
    // The protocol cannot set up a position; refused at its first game,
    // the run would leave a directory that the corrected command could not
    // use. One attacker moved: not the start position.
    let dir = scratch_dir("engine-off-start");
    let out = dir.join("run");
    let engine = format!("htp:cmd={NORN} engine hnefatafl");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "tournament",
            "hnefatafl",
            "--agents",
            &engine,
            "random",
            "--games",
            "2",
            "--max-plies",
            "4",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        norn_within(&args, Duration::from_secs(60)).0
    };
    let refused = run(&[
        "--position",
        "/2t1tttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ defenders",
    ]);
    let error = failure(&refused);
    assert!(
        error.contains("not from a position given as text"),
        "{error}"
    );
    assert!(!out.join("config.json").exists());
    let corrected = run(&["--no-openings"]);
    assert!(corrected.status.success(), "{}", failure(&corrected));
}

#[test]
fn an_engine_that_does_not_answer_is_stopped_when_its_clock_runs_out() {
    let dir = scratch_dir("engine-clock");
    let group_file = dir.join("sleeps.group");
    // The engine's reply limit is the default 10 s; its clock of 0.5 s
    // stops it sooner, and it loses each game on time.
    let engine = format!(
        "htp:cmd={} {NORN} {}",
        script("sleeps-at-generate-move.sh"),
        group_file.to_str().unwrap()
    );
    let out = dir.join("run");
    let (output, elapsed) = norn_within(
        &[
            "tournament",
            "hnefatafl",
            "--agents",
            &engine,
            "random",
            "--games",
            "2",
            "--threads",
            "1",
            "--tc",
            "0.5+0",
            "--no-openings",
            "--out",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(30),
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Two games of 10 s each without the clock.
    assert!(elapsed < Duration::from_secs(8), "{elapsed:?}");
    let log = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 2);
    for line in log.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["reason"], "time", "{game}");
        assert_eq!(
            game["winner"],
            if game["seats"][0] == 0 {
                "defenders"
            } else {
                "attackers"
            }
        );
    }
    assert_groups_gone(&groups_in(&group_file));
}

/// `norn play brandub` with the OTEP engine of `spec` as attackers.
fn otep_against_random(spec: &str) -> (Output, Duration) {
    norn_within(
        &[
            "play",
            "brandub",
            "--attackers",
            spec,
            "--defenders",
            "random",
        ],
        Duration::from_secs(20),
    )
}

#[test]
fn otep_engines_that_misbehave_are_stopped_or_forfeit() {
    let dir = scratch_dir("otep-engine-faults");
    // Silent from the start: no `hello` within the reply limit.
    let group_file = dir.join("silent.group");
    let engine = format!(
        "otep:reply-ms=1000,cmd={} {}",
        script("never-replies.sh"),
        group_file.display()
    );
    let (output, elapsed) = otep_against_random(&engine);
    let error = failure(&output);
    assert!(
        error.contains("did not answer the start (`hello` expected) within 1000 ms"),
        "{error}"
    );
    assert!(error.contains("it was stopped"), "{error}");
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
    assert_groups_gone(&groups_in(&group_file));

    // An endless line, an exit at once, the protocol's critical error and
    // a move the rules refuse.
    let huge_group = dir.join("huge.group");
    for (engine, reason) in [
        (
            format!(
                "{} {}",
                script("otep-endless-hello.sh"),
                huge_group.display()
            ),
            "with a line longer than 65536 bytes".to_string(),
        ),
        (
            script("exits-at-once.sh"),
            "exited (exit status: 3)".to_string(),
        ),
        (
            script("otep-critical-error.sh"),
            "reported a critical error: cannot load its tables".to_string(),
        ),
        (
            script("otep-illegal-move.sh"),
            "the engine answered `move a1-a1`".to_string(),
        ),
    ] {
        let (output, elapsed) = otep_against_random(&format!("otep:reply-ms=1000,cmd={engine}"));
        let error = failure(&output);
        assert!(error.contains(&reason), "{engine}: {error}");
        assert!(elapsed < Duration::from_secs(5), "{engine}: {elapsed:?}");
    }
    assert_groups_gone(&groups_in(&huge_group));

    // In a tournament each failure is the engine's forfeit, and the run
    // stops after --max-forfeits in a row.
    let engine = format!("otep:cmd={}", script("otep-illegal-move.sh"));
    let log = forfeited_tournament("brandub", &engine, "otep-engine-forfeits");
    assert!(log.contains("a1-a1"), "{log}");
}

/// Runs a tournament of `game` between random play and `engine`, which
/// fails every game: the run stops after two forfeits in a row, and its
/// log (returned) holds the two games, each a forfeit.
fn forfeited_tournament(game: &str, engine: &str, dir_name: &str) -> String {
    let dir = scratch_dir(dir_name);
    let (output, _) = norn_within(
        &[
            "tournament",
            game,
            "--agents",
            "random",
            engine,
            "--games",
            "6",
            "--threads",
            "1",
            "--max-forfeits",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ],
        Duration::from_secs(30),
    );
    let error = failure(&output);
    assert!(error.contains("forfeited 2 games in a row"), "{error}");
    let log = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 2, "{log}");
    assert!(log.contains("\"reason\":\"forfeit\""), "{log}");
    log
}
