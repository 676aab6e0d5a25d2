//! Run directories through the command line: every command that writes one
//! takes its lock and refuses another kind of run or another run, merges
//! refuse missing, cut-short and damaged shards (and their own inputs as
//! output), a refused run leaves no trap, and shards of different builds
//! merge only knowingly.

use crate::common::cli::{norn, read_json, without_search_records};
use norn::arena::{
    GameLine, MatchOptions, Openings, RunProgress, Sprt, TournamentConfig, Unwatched, run_match,
};
use norn::core::Game;
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::registry::build_agent;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A fresh, empty directory under the target directory.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("run-dirs-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn text(path: &Path) -> String {
    path.to_str().expect("scratch paths are text").to_string()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A small Hnefatafl tournament (6 games, or a shard of them) into `out`,
/// with `extra` arguments.
fn tournament_with(out: &Path, shard: Option<&str>, extra: &[&str]) -> Output {
    let out = text(out);
    let mut args = vec![
        "tournament",
        "hnefatafl",
        "--agents",
        "random",
        "greedy",
        "--games",
        "6",
        "--max-plies",
        "30",
        "--seed",
        "5",
        "--threads",
        "2",
        "--json",
        "--out",
        &out,
    ];
    if let Some(shard) = shard {
        args.extend(["--shard", shard]);
    }
    args.extend(extra);
    norn(&args)
}

fn tournament(out: &Path, shard: Option<&str>) -> Output {
    tournament_with(out, shard, &[])
}

fn finished_tournament(out: &Path, shard: Option<&str>) {
    let output = tournament(out, shard);
    assert!(output.status.success(), "{}", stderr(&output));
}

fn refused(output: &Output, expected: &str) {
    assert!(!output.status.success(), "should have been refused");
    let message = stderr(output);
    assert!(message.contains(expected), "{message}");
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|error| panic!("{path:?}: {error}"))
}

/// Two finished shards of the small tournament.
fn two_shards(name: &str) -> [PathBuf; 2] {
    ["1/2", "2/2"].map(|shard| {
        let dir = scratch_dir(&format!("{name}-{}", &shard[..1]));
        finished_tournament(&dir, Some(shard));
        dir
    })
}

fn merge(dirs: &[&Path], out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<String> = vec!["merge".into()];
    args.extend(dirs.iter().map(|dir| text(dir)));
    args.extend(["--out".into(), text(out), "--json".into()]);
    args.extend(extra.iter().map(|arg| arg.to_string()));
    norn(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn a_match_or_a_win_rate_run_into_a_tournament_directory_is_refused() {
    let dir = scratch_dir("not-a-match");
    finished_tournament(&dir, None);
    let (games, summary) = (
        read(&dir.join("games.jsonl")),
        read(&dir.join("summary.json")),
    );
    let out = text(&dir);
    let output = norn(&[
        "match",
        "hnefatafl",
        "random",
        "greedy",
        "--sprt",
        "0,10",
        "--max-games",
        "4",
        "--max-plies",
        "20",
        "--out",
        &out,
    ]);
    refused(&output, "holds a tournament");
    let output = norn(&[
        "winrate",
        "fenrir-path",
        "--policy",
        "greedy",
        "--deals",
        "5",
        "--out",
        &out,
    ]);
    refused(&output, "holds a tournament");
    assert_eq!(read(&dir.join("games.jsonl")), games);
    assert_eq!(read(&dir.join("summary.json")), summary);
}

#[test]
fn a_merge_into_a_directory_in_use_or_into_a_shard_is_refused() {
    let [first, second] = two_shards("merge-out");
    let out = scratch_dir("merge-out-locked");
    std::fs::create_dir_all(&out).unwrap();
    let held = std::fs::File::create(out.join("run.lock")).unwrap();
    held.try_lock().unwrap();
    refused(
        &merge(&[&first, &second], &out, &[]),
        "in use by another run",
    );
    held.unlock().unwrap();
    assert!(!out.join("games.jsonl").exists());

    let shard_log = read(&second.join("games.jsonl"));
    refused(
        &merge(&[&first, &second], &second, &[]),
        "is one of the shards being merged",
    );
    assert_eq!(read(&second.join("games.jsonl")), shard_log);

    // A directory that holds another tournament is not overwritten.
    let other = scratch_dir("merge-out-other");
    let output = norn(&[
        "tournament",
        "hnefatafl",
        "--agents",
        "random",
        "greedy",
        "--games",
        "2",
        "--max-plies",
        "10",
        "--out",
        &text(&other),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let other_log = read(&other.join("games.jsonl"));
    refused(
        &merge(&[&first, &second], &other, &[]),
        "holds a different tournament",
    );
    assert_eq!(read(&other.join("games.jsonl")), other_log);

    // The merge into a fresh directory, and again into its own output.
    assert!(merge(&[&first, &second], &out, &[]).status.success());
    let output = merge(&[&first, &second], &out, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn a_merge_refuses_missing_and_cut_short_shards() {
    let [first, second] = two_shards("incomplete");
    let out = scratch_dir("incomplete-merged");
    refused(&merge(&[&first], &out, &[]), "shard 2/2 missing");
    refused(&merge(&[&first, &first], &out, &[]), "both hold shard 1/2");

    let config = read_json(&second.join("config.json"));
    assert_eq!(config["shard"], "2/2");
    assert_eq!(config["shard_games"], 2);
    let log = second.join("games.jsonl");
    let whole = String::from_utf8(read(&log)).unwrap();
    let cut: String = whole
        .lines()
        .take(1)
        .map(|line| format!("{line}\n"))
        .collect();
    std::fs::write(&log, cut).unwrap();
    refused(
        &merge(&[&first, &second], &out, &[]),
        "holds 1 of the 2 games of shard 2/2",
    );
    assert!(!out.join("games.jsonl").exists());
}

#[test]
fn a_byte_that_is_not_utf8_is_reported_by_line_and_repaired() {
    let calm = scratch_dir("utf8-calm");
    finished_tournament(&calm, None);
    let damaged = scratch_dir("utf8-damaged");
    finished_tournament(&damaged, None);
    let log = damaged.join("games.jsonl");
    let mut bytes = read(&log);
    let second_line = bytes.iter().position(|&byte| byte == b'\n').unwrap() + 1;
    bytes[second_line + 3] = 0xff;
    std::fs::write(&log, &bytes).unwrap();

    refused(&tournament(&damaged, None), "line 2: not UTF-8 text");
    let output = tournament_with(&damaged, None, &["--repair"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        without_search_records(read_json(&damaged.join("summary.json"))),
        without_search_records(read_json(&calm.join("summary.json")))
    );

    // A merge names the shard and the line, and advises nothing merge
    // does not take.
    let [first, second] = two_shards("utf8-shards");
    let log = second.join("games.jsonl");
    let mut bytes = read(&log);
    bytes[5] = 0xfe;
    std::fs::write(&log, &bytes).unwrap();
    let output = merge(&[&first, &second], &scratch_dir("utf8-merged"), &[]);
    refused(
        &output,
        &format!("{}: line 1: not UTF-8 text", log.display()),
    );
    assert!(
        stderr(&output).contains("norn tournament ... --repair"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_run_refused_before_its_first_game_leaves_no_trap() {
    let dir = scratch_dir("no-trap");
    let out = text(&dir);
    let nibelungen = |openings: &[&str]| {
        let mut args = vec![
            "tournament",
            "nibelungen",
            "--agents",
            "random",
            "smmcts:iters=10",
            "--games",
            "2",
            "--max-plies",
            "40",
            "--out",
            &out,
        ];
        args.extend(openings);
        norn(&args)
    };
    refused(&nibelungen(&["--random-plies", "200"]), "random");
    assert!(!dir.join("config.json").exists());
    let output = nibelungen(&["--random-plies", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));

    // A directory whose run finished no game is taken by another command.
    let other = scratch_dir("no-trap-unfinished");
    finished_tournament(&other, None);
    std::fs::write(other.join("games.jsonl"), "{\"index\":0").unwrap();
    std::fs::remove_file(other.join("summary.json")).unwrap();
    let output = norn(&[
        "match",
        "hnefatafl",
        "random",
        "greedy",
        "--sprt",
        "0,10",
        "--max-games",
        "2",
        "--max-plies",
        "20",
        "--out",
        &text(&other),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(read_json(&other.join("config.json"))["run"], "match");
}

#[test]
fn shards_of_different_builds_merge_only_knowingly_and_record_every_build() {
    let [first, second] = two_shards("builds");
    let config_path = second.join("config.json");
    let mut stored = read_json(&config_path);
    stored["build"]["executable"] = "0123456789abcdef".into();
    std::fs::write(&config_path, serde_json::to_string(&stored).unwrap()).unwrap();
    let out = scratch_dir("builds-merged");
    let output = merge(&[&first, &second], &out, &[]);
    refused(&output, "executable 0123456789abcdef");
    refused(&output, "norn merge --force-resume");

    let output = merge(&[&first, &second], &out, &["--force-resume"]);
    assert!(output.status.success(), "{}", stderr(&output));
    for file in ["config.json", "summary.json"] {
        let merged = read_json(&out.join(file));
        let shards = merged["shard_provenance"].as_array().unwrap();
        assert_eq!(shards.len(), 2, "{file}");
        assert_eq!(shards[1]["shard"], "2/2");
        assert_eq!(shards[1]["build"]["executable"], "0123456789abcdef");
        assert_ne!(shards[0]["build"]["executable"], "0123456789abcdef");
    }
}

/// Raises the stop flag once `after` games have ended.
struct StopAfter<'a> {
    ended: AtomicUsize,
    after: usize,
    stop: &'a AtomicBool,
}

impl RunProgress for StopAfter<'_> {
    fn game_done(&self, _game: &GameLine) {
        if self.ended.fetch_add(1, Ordering::SeqCst) + 1 >= self.after {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

fn hnefatafl_match(
    out: &Path,
    stop: &AtomicBool,
    progress: &dyn RunProgress,
) -> norn::arena::MatchReport {
    let start = Hnefatafl::new(HnefataflRules::default());
    let config = TournamentConfig {
        game: "hnefatafl".into(),
        rules: String::new(),
        agents: vec!["random".into(), "greedy".into()],
        games_per_pair: 2,
        seed: 3,
        max_plies: Some(20),
        anchor: None,
        gauntlet: false,
        time_control: None,
        adjudication: None,
        openings: Openings::Start,
    };
    let options = MatchOptions {
        record_search: false,
        sprt: Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        },
        max_pairs: 4,
        threads: 1,
        stop,
        progress,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
        out_dir: Some(out),
        repair: false,
        force_resume: false,
    };
    run_match(&config, &start, &build_agent::<Hnefatafl>, &options).unwrap()
}

fn log_lines(dir: &Path) -> Vec<String> {
    let text = String::from_utf8(read(&dir.join("games.jsonl"))).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.sort();
    lines
}

#[test]
fn a_match_writes_each_game_as_it_ends_and_resumes() {
    let calm_dir = scratch_dir("match-calm");
    let running = AtomicBool::new(false);
    let calm = hnefatafl_match(&calm_dir, &running, &Unwatched);
    assert!(!calm.interrupted);
    assert_eq!(calm.result.games, 8);

    let dir = scratch_dir("match-interrupted");
    let stop = AtomicBool::new(false);
    let stopper = StopAfter {
        ended: AtomicUsize::new(0),
        after: 3,
        stop: &stop,
    };
    // The test reads a batch of two games (one thread) when both have
    // ended: the stop comes after the second batch, and the third is
    // stopped at its first move.
    let cut = hnefatafl_match(&dir, &stop, &stopper);
    assert!(cut.interrupted);
    assert_eq!(log_lines(&dir).len(), 4, "each game is logged as it ends");

    let resumed = hnefatafl_match(&dir, &running, &Unwatched);
    assert_eq!(resumed.resumed, 4);
    assert_eq!(
        serde_json::to_value(&resumed).unwrap(),
        serde_json::to_value(&calm).unwrap()
    );
    assert_eq!(resumed.game_lines, calm.game_lines);
    assert_eq!(log_lines(&dir), log_lines(&calm_dir));
    assert_eq!(
        read_json(&dir.join("summary.json")),
        read_json(&calm_dir.join("summary.json"))
    );
}
