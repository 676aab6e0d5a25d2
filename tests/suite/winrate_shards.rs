//! Win-rate runs split into shards: merged, the shards give the deals,
//! totals and intervals of a single run, and a merge refuses shards that
//! are missing, doubled, of another run or edited.

use crate::common::cli::{assert_fails_with, norn};
use norn::arena::Shard;
use norn::arena::winrate::{
    Contender, WinRateReport, WinRateRun, compare_policies, merge_win_rate_reports,
    merge_win_rate_runs,
};
use norn::games::fenrir_path::{FenrirPath, FenrirPathRules};
use norn::registry::Registered;
use std::path::PathBuf;
use std::sync::Arc;

fn scratch_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("norn-winrate-shards-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn contenders() -> Vec<Contender<FenrirPath>> {
    ["exact", "greedy", "mcts:iters=40"]
        .into_iter()
        .map(|spec| Contender::from_spec(spec, Arc::new(FenrirPath::build_agent)).unwrap())
        .collect()
}

fn run(threads: usize) -> WinRateRun {
    WinRateRun {
        deals: 61,
        master_seed: 5,
        threads,
    }
}

fn shard_report(shard: Shard) -> WinRateReport {
    compare_policies(
        &FenrirPathRules::default(),
        &contenders(),
        None,
        run(1),
        shard,
        &|_| {},
    )
    .unwrap()
}

fn shards(count: usize) -> Vec<WinRateReport> {
    (0..count)
        .map(|index| shard_report(Shard { index, count }))
        .collect()
}

/// The report with the times, which depend on the machine, set to zero.
fn untimed(mut report: WinRateReport) -> WinRateReport {
    for policy in &mut report.policies {
        policy.rate.seconds = 0.0;
        policy.rate.deals_per_second = 0.0;
    }
    report
}

#[test]
fn merged_shards_equal_a_single_run() {
    let single = untimed(shard_report(Shard::ALL));
    assert!(
        single.policies[1].rate.wins > 0,
        "greedy should win some deals for the test to compare wins"
    );
    // 61 deals into 4 and 3 shards of unequal sizes, merged in any order.
    for count in [4, 3, 1] {
        let mut parts = shards(count);
        parts.reverse();
        let merged = untimed(merge_win_rate_reports(&parts).unwrap());
        assert_eq!(merged, single, "{count} shards");
    }
}

/// Writes the `count` shards of the run to `dir/shard-I`; their directories.
fn write_shards(dir: &std::path::Path, count: usize) -> Vec<PathBuf> {
    shards(count)
        .iter()
        .map(|part| {
            let shard_dir = dir.join(format!("shard-{}", part.shard.index + 1));
            part.write_files::<FenrirPath>(&shard_dir, &FenrirPathRules::default())
                .unwrap();
            shard_dir
        })
        .collect()
}

#[test]
fn shards_written_and_read_back_equal_a_single_run() {
    let dir = scratch_dir("files");
    let rules = FenrirPathRules::default();
    let dirs = write_shards(&dir, 4);
    let merged = merge_win_rate_runs::<FenrirPath>(&dirs, false).unwrap();
    let single = shard_report(Shard::ALL);
    assert_eq!(untimed(merged.clone()), untimed(single.clone()));
    merged
        .write_files::<FenrirPath>(&dir.join("all"), &rules)
        .unwrap();
    single
        .write_files::<FenrirPath>(&dir.join("single"), &rules)
        .unwrap();
    let deals = |name: &str| std::fs::read_to_string(dir.join(name).join("deals.csv")).unwrap();
    assert_eq!(deals("all"), deals("single"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_merge_refuses_missing_doubled_and_foreign_shards() {
    let parts = shards(3);
    let error = merge_win_rate_reports(&parts[..2]).unwrap_err();
    assert!(error.contains("shard 3/3 missing"), "{error}");
    let doubled = [parts[0].clone(), parts[1].clone(), parts[1].clone()];
    let error = merge_win_rate_reports(&doubled).unwrap_err();
    assert!(error.contains("shard 2/3 is given twice"), "{error}");
    let mut foreign = parts.clone();
    foreign[2].seed += 1;
    let error = merge_win_rate_reports(&foreign).unwrap_err();
    assert!(error.contains("another seed"), "{error}");
    let other_split = [parts[0].clone(), shard_report(Shard { index: 1, count: 2 })];
    let error = merge_win_rate_reports(&other_split).unwrap_err();
    assert!(error.contains("another number of shards"), "{error}");
}

/// Writes shards 1 and 2 of 2 to `dir`, edits shard 2's `file` with
/// `edit`, and returns the merge's error.
fn merge_after_editing(name: &str, file: &str, edit: impl Fn(String) -> String) -> String {
    let dir = scratch_dir(name);
    let dirs = write_shards(&dir, 2);
    let path = dirs[1].join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = edit(text.clone());
    assert_ne!(edited, text, "the edit must change {file}");
    std::fs::write(&path, edited).unwrap();
    let error = merge_win_rate_runs::<FenrirPath>(&dirs, false).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    error
}

/// `deals.csv` with the mark of the first policy on the first deal flipped.
fn flip_first_mark(text: String) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let row = &mut lines[1];
    let at = row.rfind("\",").unwrap() + 2;
    let flipped = if &row[at..at + 1] == "1" { "0" } else { "1" };
    row.replace_range(at..at + 1, flipped);
    lines.join("\n") + "\n"
}

#[test]
fn a_merge_refuses_edited_shards() {
    let error = merge_after_editing("flipped", "deals.csv", flip_first_mark);
    assert!(error.contains("says exact won 30 of 30 deals"), "{error}");
    let error = merge_after_editing("swapped-deal", "deals.csv", |text| {
        let mut lines: Vec<&str> = text.lines().collect();
        lines.swap(1, 2);
        lines.join("\n") + "\n"
    });
    assert!(error.contains("line 2: deal 3, where shard 2/2"), "{error}");
    let error = merge_after_editing("other-deal", "deals.csv", |text| {
        text.replacen(",\"", ",\"R", 1)
    });
    assert!(error.contains("is not the deal seed 5 gives"), "{error}");
    let error = merge_after_editing("cut", "deals.csv", |text| {
        let lines: Vec<&str> = text.lines().collect();
        lines[..lines.len() - 1].join("\n") + "\n"
    });
    assert!(
        error.contains("holds 29 deals, shard 2/2 of 61 deals has 30"),
        "{error}"
    );
    let error = merge_after_editing("summary", "summary.json", |text| {
        text.replace("\"seed\": 5", "\"seed\": 4")
    });
    assert!(error.contains("is not the deal seed 4 gives"), "{error}");
}

#[test]
fn the_command_line_merges_shards_into_the_single_run() {
    let dir = scratch_dir("cli");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let run_args = |extra: &[String]| {
        let mut args: Vec<String> = [
            "winrate",
            "fenrir-path",
            "--policy",
            "greedy",
            "random",
            "--deals",
            "90",
            "--seed",
            "5",
            "--threads",
            "1",
        ]
        .map(String::from)
        .to_vec();
        args.extend_from_slice(extra);
        args
    };
    let succeed = |args: &[String]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = norn(&args);
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    for shard in 1..=3 {
        succeed(&run_args(&[
            "--shard".into(),
            format!("{shard}/3"),
            "--out".into(),
            path(&format!("shard-{shard}")),
        ]));
    }
    succeed(&run_args(&["--out".into(), path("single")]));
    succeed(&[
        "merge".into(),
        path("shard-1"),
        path("shard-2"),
        path("shard-3"),
        "--out".into(),
        path("all"),
    ]);
    let read = |name: &str, file: &str| std::fs::read_to_string(dir.join(name).join(file)).unwrap();
    assert_eq!(read("all", "deals.csv"), read("single", "deals.csv"));
    let untimed = |name: &str| {
        let mut summary: serde_json::Value =
            serde_json::from_str(&read(name, "summary.json")).unwrap();
        for policy in summary["policies"].as_array_mut().unwrap() {
            policy.as_object_mut().unwrap().remove("seconds");
            policy.as_object_mut().unwrap().remove("deals_per_second");
        }
        summary
    };
    assert_eq!(untimed("all"), untimed("single"));
    assert_fails_with(
        &[
            "merge",
            &path("shard-1"),
            &path("shard-3"),
            "--out",
            &path("part"),
        ],
        "shard 2/3 missing",
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let refused = |shard: &[&str], expected: &str| {
        let mut args = vec!["winrate", "fenrir-path", "--policy", "greedy", "--shard"];
        args.extend_from_slice(shard);
        assert_fails_with(&args, expected);
    };
    let out = path("x");
    refused(&["0/3", "--out", &out], "a shard is written I/N");
    refused(&["1/3"], "--shard needs --out DIR");
    refused(
        &["1/3", "--sweep", "spacing=3..5", "--out", &out],
        "cannot be used with",
    );
}
