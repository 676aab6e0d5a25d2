//! A tournament killed with SIGKILL at arbitrary moments, again and again,
//! and resumed each time, ends with exactly the games and summary of a run
//! that was never interrupted; the same for the shards of a split run.

#![cfg(unix)]

use crate::common::cli::{read_json, without_search_records};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const AGENTS: [&str; 3] = ["random", "greedy", "alphabeta:depth=2"];

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn tournament(out: &Path, shard: Option<&str>) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_norn"));
    command
        .args(["tournament", "hnefatafl", "--agents"])
        .args(AGENTS)
        .args([
            "--games",
            "6",
            "--seed",
            "11",
            "--threads",
            "2",
            "--json",
            "--out",
        ])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(shard) = shard {
        command.args(["--shard", shard]);
    }
    command
}

/// Finishes the run in `out` without interruption.
fn finish(out: &Path, shard: Option<&str>) {
    let status = tournament(out, shard).status().unwrap();
    assert!(status.success(), "the resumed run failed");
}

/// Starts the run in `out` up to `kills` times and kills it with SIGKILL
/// each time at a moment drawn from `seed`: once the log has grown by one
/// to three games, plus up to 4 ms. Returns how many kills left the run
/// unfinished (fewer than `games` games logged).
fn kill_repeatedly(
    out: &Path,
    shard: Option<&str>,
    kills: usize,
    seed: u64,
    games: usize,
) -> usize {
    let mut state = seed;
    let mut draw = |range: u64| {
        // A linear congruential generator is enough to spread the moments.
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % range
    };
    let mut unfinished = 0;
    for _ in 0..kills {
        let logged = logged_games(out).len();
        if logged == games {
            break;
        }
        let target = logged + 1 + draw(3) as usize;
        let extra = Duration::from_millis(draw(5));
        let mut child = tournament(out, shard).spawn().unwrap();
        while logged_games(out).len() < target && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(extra);
        child.kill().unwrap(); // SIGKILL: no handler runs, no buffer is flushed
        child.wait().unwrap();
        if logged_games(out).len() < games {
            unfinished += 1;
        }
    }
    unfinished
}

/// The log's complete lines as JSON, in game order, without the times of
/// their search records.
fn logged_games(dir: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap_or_default();
    let complete = &text[..text.rfind('\n').map_or(0, |end| end + 1)];
    let mut games: Vec<serde_json::Value> = complete
        .lines()
        .map(|line| without_search_records(serde_json::from_str(line).unwrap()))
        .collect();
    games.sort_by_key(|game| game["index"].as_u64());
    games
}

fn summary(dir: &Path) -> serde_json::Value {
    without_search_records(read_json(&dir.join("summary.json")))
}

#[test]
fn a_tournament_killed_again_and_again_ends_as_an_uninterrupted_run() {
    let calm = scratch_dir("calm");
    finish(&calm, None);
    let games = logged_games(&calm).len();
    assert_eq!(games, 18);

    let killed = scratch_dir("killed");
    let unfinished = kill_repeatedly(&killed, None, 6, 1, games);
    assert!(
        unfinished >= 2,
        "only {unfinished} kills landed before the run ended"
    );
    finish(&killed, None);
    assert_eq!(logged_games(&killed), logged_games(&calm));
    assert_eq!(summary(&killed), summary(&calm));
}

#[test]
fn killed_shards_resume_and_merge_to_an_uninterrupted_run() {
    let calm = scratch_dir("calm-for-shards");
    finish(&calm, None);
    let mut shards = Vec::new();
    for (number, shard) in ["1/2", "2/2"].into_iter().enumerate() {
        let dir = scratch_dir(&format!("killed-shard-{}", number + 1));
        let unfinished = kill_repeatedly(&dir, Some(shard), 3, 7 + number as u64, 9);
        assert!(
            unfinished >= 1,
            "no kill of shard {shard} landed before it ended"
        );
        finish(&dir, Some(shard));
        shards.push(dir);
    }
    let merged = scratch_dir("merged-after-kills");
    let status = Command::new(env!("CARGO_BIN_EXE_norn"))
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(logged_games(&merged), logged_games(&calm));
    assert_eq!(summary(&merged), summary(&calm));
}
