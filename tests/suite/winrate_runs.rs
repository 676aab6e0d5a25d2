//! Win-rate runs and sweeps kept in a directory have the tournament's
//! guarantees: each deal's result is logged as it ends, a killed run
//! resumes to the results of an uninterrupted one, the build and the
//! policies' full settings are recorded, and a resume on another build is
//! refused unless forced. A sweep without `--out` writes no file.

#![cfg(unix)]

use crate::common::cli::{json, norn, read_json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("winrate-runs-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

const RUN: [&str; 10] = [
    "winrate",
    "fenrir-path",
    "--policy",
    "greedy",
    "mcts:iters=60",
    "--deals",
    "200",
    "--threads",
    "1",
    "--out",
];

fn winrate(out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&str> = RUN.to_vec();
    let out = out.to_str().unwrap();
    args.push(out);
    args.extend(extra);
    norn(&args)
}

fn succeeded(output: &Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn logged_lines(dir: &Path) -> usize {
    std::fs::read(dir.join("deals.jsonl"))
        .map(|bytes| bytes.iter().filter(|&&byte| byte == b'\n').count())
        .unwrap_or(0)
}

/// The results of a summary without its timings.
fn results(summary: &serde_json::Value) -> Vec<(String, u64, u64)> {
    summary["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|policy| {
            (
                policy["policy"].as_str().unwrap().to_string(),
                policy["deals"].as_u64().unwrap(),
                policy["wins"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_killed_win_rate_run_resumes_to_the_results_of_an_uninterrupted_one() {
    let calm = scratch_dir("calm");
    succeeded(&winrate(&calm, &[]));
    let killed = scratch_dir("killed");
    let mut args: Vec<&str> = RUN.to_vec();
    args.push(killed.to_str().unwrap());
    let mut child = Command::new(env!("CARGO_BIN_EXE_norn"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed once the log holds the greedy deals and some of MCTS's.
    let deadline = Instant::now() + Duration::from_secs(60);
    while logged_lines(&killed) < 230 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let logged = logged_lines(&killed);
    assert!(
        (230..400).contains(&logged) && !killed.join("summary.json").exists(),
        "the kill should land mid-run: {logged} deals logged"
    );

    succeeded(&winrate(&killed, &[]));
    assert_eq!(logged_lines(&killed), 400, "each deal logged once");
    assert_eq!(
        std::fs::read_to_string(killed.join("deals.csv")).unwrap(),
        std::fs::read_to_string(calm.join("deals.csv")).unwrap()
    );
    let (resumed, uninterrupted) = (
        read_json(&killed.join("summary.json")),
        read_json(&calm.join("summary.json")),
    );
    assert_eq!(results(&resumed), results(&uninterrupted));
    assert_eq!(resumed["build"], uninterrupted["build"]);
}

#[test]
fn a_win_rate_run_records_its_build_and_resumes_another_only_when_forced() {
    let dir = scratch_dir("build");
    succeeded(&winrate(&dir, &[]));
    let summary = read_json(&dir.join("summary.json"));
    assert_eq!(summary["build"]["version"], env!("CARGO_PKG_VERSION"));
    let settings = summary["agent_configurations"].as_array().unwrap();
    assert!(
        settings[1]
            .as_str()
            .unwrap()
            .starts_with("mcts:iters=60,c=1,threads=1,"),
        "{settings:?}"
    );

    let path = dir.join("config.json");
    let mut config = read_json(&path);
    config["build"]["executable"] = "0123456789abcdef".into();
    std::fs::write(&path, serde_json::to_string(&config).unwrap()).unwrap();
    let output = winrate(&dir, &[]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("0123456789abcdef") && message.contains("--force-resume"),
        "{message}"
    );
    succeeded(&winrate(&dir, &["--force-resume"]));

    // Another run into the same directory is refused, and so is a sweep.
    let output = winrate(&dir, &["--seed", "9"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("another seed"));
    let output = winrate(&dir, &["--sweep", "spacing=3..5"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("holds a win-rate run"));
}

#[test]
fn a_sweep_resumes_and_without_out_writes_no_file() {
    let sweep = ["--sweep", "spacing=3..5", "--sweep-step", "2"];
    let calm = scratch_dir("sweep-calm");
    succeeded(&winrate(&calm, &sweep));
    let cut = scratch_dir("sweep-cut");
    succeeded(&winrate(&cut, &sweep));
    // As if killed: half the log kept, the last line torn, no report yet.
    let log = std::fs::read_to_string(cut.join("deals.jsonl")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    let mut kept: String = lines[..lines.len() / 2]
        .iter()
        .map(|line| format!("{line}\n"))
        .collect();
    kept.push_str(&lines[lines.len() / 2][..10]);
    std::fs::write(cut.join("deals.jsonl"), kept).unwrap();
    std::fs::remove_file(cut.join("sweep.json")).unwrap();
    succeeded(&winrate(&cut, &sweep));
    assert_eq!(
        std::fs::read_to_string(cut.join("sweep.csv")).unwrap(),
        std::fs::read_to_string(calm.join("sweep.csv")).unwrap()
    );

    let here = scratch_dir("sweep-nowhere");
    std::fs::create_dir_all(&here).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_norn"))
        .args(&RUN[..9])
        .args(sweep)
        .current_dir(&here)
        .output()
        .unwrap();
    succeeded(&output);
    assert_eq!(std::fs::read_dir(&here).unwrap().count(), 0);
}

#[test]
fn a_run_compares_its_policies_deal_by_deal() {
    let out = scratch_dir("paired");
    let output = winrate(&out, &[]);
    succeeded(&output);
    // The deals each policy alone won, counted from deals.csv.
    let csv = std::fs::read_to_string(out.join("deals.csv")).unwrap();
    let (mut greedy_only, mut mcts_only) = (0u64, 0u64);
    for row in csv.lines().skip(1) {
        let marks: Vec<&str> = row.rsplitn(3, ',').take(2).collect();
        match (marks[1], marks[0]) {
            ("1", "0") => greedy_only += 1,
            ("0", "1") => mcts_only += 1,
            _ => {}
        }
    }
    let summary = read_json(&out.join("summary.json"));
    let comparison = &summary["comparisons"][0];
    assert_eq!(comparison["policies"][0], "greedy", "{summary}");
    assert_eq!(comparison["policies"][1], "mcts:iters=60");
    assert_eq!(comparison["deals"], 200);
    assert_eq!(comparison["won_by_first_only"], greedy_only);
    assert_eq!(comparison["won_by_second_only"], mcts_only);
    assert!(mcts_only > greedy_only, "{comparison}");
    // The sign test: twice the chance of at most `greedy_only` of the
    // discordant deals going greedy's way, each way equally likely.
    let discordant = greedy_only + mcts_only;
    let mut term = 0.5f64.powi(discordant as i32);
    let mut tail = term;
    for k in 1..=greedy_only {
        term *= (discordant - k + 1) as f64 / k as f64;
        tail += term;
    }
    let p = comparison["sign_test_p"].as_f64().unwrap();
    assert!((p - (2.0 * tail).min(1.0)).abs() <= 1e-9 * p, "{p} {tail}");
    let rates: Vec<f64> = summary["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|policy| policy["win_rate"].as_f64().unwrap())
        .collect();
    let difference = comparison["difference"].as_f64().unwrap();
    assert!((difference - (rates[0] - rates[1])).abs() < 1e-12);
    let (low, high) = (
        comparison["difference_low"].as_f64().unwrap(),
        comparison["difference_high"].as_f64().unwrap(),
    );
    assert!(low < difference && difference < high, "{comparison}");
    // The table says it too.
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("paired on the same deals"), "{text}");
    let counts = [greedy_only.to_string(), mcts_only.to_string()];
    assert!(
        text.lines().any(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            words.len() > 4 && words[..4] == ["greedy", "mcts:iters=60", &counts[0], &counts[1]]
        }),
        "{text}"
    );
    // `--json` prints the same comparison, the finished run read back.
    let printed = json(&winrate(&out, &["--json"]));
    assert_eq!(printed["comparisons"], summary["comparisons"]);
}
