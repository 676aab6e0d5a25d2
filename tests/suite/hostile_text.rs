//! What norn prints and refuses when the text it is given is hostile: an
//! agent whose name holds terminal escape codes, a log with a byte that is
//! not UTF-8 or a winner edited by hand, a table that could not be used.

use crate::common::cli::norn;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh, empty directory under the target directory.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hostile-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn text(path: &Path) -> &str {
    path.to_str().expect("scratch paths are text")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn succeeds(args: &[&str]) -> Output {
    let output = norn(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    output
}

/// A small Hnefatafl tournament of `agents` into `out`: `games` games a
/// pairing.
fn tournament(out: &Path, agents: &[&str], games: &str, extra: &[&str]) -> Output {
    let mut args = vec!["tournament", "hnefatafl", "--agents"];
    args.extend(agents);
    args.extend(["--games", games, "--max-plies", "6", "--seed", "3", "--out"]);
    args.push(text(out));
    args.extend(extra);
    succeeds(&args)
}

#[test]
fn escape_codes_in_an_agent_name_are_printed_escaped() {
    let dir = scratch_dir("escape-codes");
    // An outside engine's spec is its command, which may hold anything;
    // this one is norn's own engine, which refuses the extra argument and
    // so forfeits its games.
    let engine = format!(
        "htp:cmd={} engine hnefatafl --agent random --colour \u{1b}[31mred\u{1b}[0m",
        env!("CARGO_BIN_EXE_norn")
    );
    let output = tournament(&dir, &["random", &engine], "2", &[]);
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let replayed = succeeds(&[
        "replay",
        "hnefatafl",
        text(&dir.join("games.jsonl")),
        "--game",
        "0",
    ]);
    let replayed = String::from_utf8_lossy(&replayed.stdout).into_owned();
    // A match names the agents in its verdict and each forfeit.
    let matched = succeeds(&[
        "match",
        "hnefatafl",
        "random",
        &engine,
        "--sprt",
        "0,10",
        "--max-games",
        "2",
        "--max-plies",
        "6",
        "--seed",
        "3",
    ]);
    let matched = String::from_utf8_lossy(&matched.stdout).into_owned();
    assert!(matched.contains("forfeited"), "{matched}");
    for (what, printed) in [
        ("report", &report),
        ("report.md", &markdown),
        ("replay", &replayed),
        ("match", &matched),
    ] {
        assert!(!printed.contains('\u{1b}'), "{what}: {printed:?}");
        assert!(
            printed.contains("--colour \\u{1b}[31mred\\u{1b}[0m"),
            "{what}: {printed}"
        );
    }
    // The table stays aligned: each name is measured as it is shown, so
    // every row's count of games ends under the header's.
    let rows: Vec<&str> = report
        .lines()
        .skip_while(|line| !line.starts_with("rank"))
        .take(3)
        .collect();
    let end = rows[0].find("games").unwrap() + "games".len();
    for row in &rows[1..] {
        assert_eq!(row.get(end - 2..end + 1), Some(" 2 "), "{report}");
    }
}

#[test]
fn replay_names_the_line_of_a_byte_that_is_not_utf8() {
    let dir = scratch_dir("replay-not-utf8");
    tournament(&dir, &["random", "greedy"], "2", &[]);
    let log = dir.join("games.jsonl");
    let mut bytes = std::fs::read(&log).unwrap();
    let second_line = bytes.iter().position(|&byte| byte == b'\n').unwrap() + 1;
    // A byte that no UTF-8 text holds, the 11th of the second line.
    bytes[second_line + 10] = 0xff;
    std::fs::write(&log, &bytes).unwrap();
    let output = norn(&["replay", "hnefatafl", text(&log)]);
    assert!(!output.status.success());
    let error = stderr(&output);
    assert!(
        error.contains("games.jsonl: line 2: not UTF-8 text (byte 11 of the line)"),
        "{error}"
    );
}

#[test]
fn a_merge_names_the_shard_and_line_of_an_edited_winner_in_words() {
    let shards = ["1/2", "2/2"].map(|shard| {
        let dir = scratch_dir(&format!("edited-winner-{}", &shard[..1]));
        tournament(&dir, &["random", "greedy"], "4", &["--shard", shard]);
        dir
    });
    let log = shards[1].join("games.jsonl");
    let log_text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<serde_json::Value> = log_text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let sides = lines[1]["sides"].clone();
    // The other side (or a side, for a draw) named the winner.
    let forged = match lines[1]["winner"].as_str() {
        Some(winner) if winner == sides[0] => sides[1].clone(),
        _ => sides[0].clone(),
    };
    lines[1]["winner"] = forged.clone();
    let forged_text: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
    std::fs::write(&log, forged_text.join("\n") + "\n").unwrap();
    let out = scratch_dir("edited-winner-merged");
    let output = norn(&[
        "merge",
        text(&shards[0]),
        text(&shards[1]),
        "--out",
        text(&out),
    ]);
    assert!(!output.status.success());
    let error = stderr(&output);
    assert!(
        error.contains(&format!("{}: line 2:", log.display())),
        "{error}"
    );
    assert!(
        error.contains(&format!("the winner `{}`", forged.as_str().unwrap())),
        "{error}"
    );
    assert!(!error.contains("Some("), "{error}");
}

#[test]
fn a_retrograde_table_of_no_layers_is_refused_before_it_is_written() {
    let dir = scratch_dir("no-layers");
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("one-round.table");
    // With one round left the last round is solved on its own, from no
    // layer: the table would hold none, and the oracle refuses such a file.
    let output = norn(&[
        "solve",
        "nibelungen",
        "--retrograde",
        "--rounds",
        "1",
        "--out",
        text(&table),
    ]);
    assert!(!output.status.success(), "a table of no layers was written");
    let error = stderr(&output);
    assert!(error.contains("give --rounds 2 or more"), "{error}");
    assert!(!table.exists());
}
