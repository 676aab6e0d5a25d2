//! Evaluation during training (`norn train --eval-every`): on a game of two
//! sides, the default baselines and the presets at the network's own time
//! per move; on a cooperative game, win rates on the deals `norn winrate`
//! deals, which an independent `norn winrate` run reproduces.

use crate::common::cli::{norn, read_json};
use std::path::{Path, PathBuf};

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("train-eval-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `norn train GAME` with a tiny network, 8 simulations, one thread, into
/// `dir`, with `extra` arguments.
fn train(game: &str, dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "train",
        game,
        "--arch",
        "blocks=0,channels=4,value-hidden=8",
        "--games-per-generation",
        "4",
        "--sims",
        "8",
        "--batch-size",
        "16",
        "--steps",
        "4",
        "--threads",
        "1",
        "--seed",
        "3",
        "--out",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let output = norn(&args);
    assert!(output.status.success(), "{output:?}");
    output
}

/// The agents of `ratings.json`, with their games.
fn rated(dir: &Path) -> Vec<(String, u64)> {
    read_json(&dir.join("ratings.json"))["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|agent| {
            (
                agent["agent"].as_str().unwrap().to_string(),
                agent["games"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_two_sided_game_is_rated_against_alpha_beta_and_its_presets_at_the_networks_time() {
    let dir = scratch_dir("hnefatafl");
    train(
        "hnefatafl",
        &dir,
        &[
            "--rules",
            "ply-limit=8",
            "--generations",
            "1",
            "--eval-every",
            "1",
            "--eval-games",
            "2",
        ],
    );
    // The network's mean time per decision in its first gauntlet, as the
    // game log records it, in whole milliseconds rounded up.
    let log = std::fs::read_to_string(dir.join("evaluations/1/games.jsonl")).unwrap();
    let (mut seconds, mut decisions) = (0.0, 0.0);
    for line in log.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        for decision in game["search"].as_array().unwrap() {
            let seat = decision["seat"].as_u64().unwrap() as usize;
            if game["agents"][seat] == "checkpoint-1" {
                seconds += decision["time"].as_f64().unwrap();
                decisions += 1.0;
            }
        }
    }
    assert!(decisions > 0.0, "{log}");
    let ms = ((seconds / decisions * 1000.0).ceil() as u64).max(1);
    let expected = [
        ("checkpoint-0".to_string(), 2),
        ("checkpoint-1".to_string(), 10),
        ("mcts:iters=8".to_string(), 2),
        ("alphabeta:depth=2".to_string(), 2),
        (format!("alphabeta:preset=best,ms={ms}"), 2),
        (format!("mcts:preset=best,ms={ms}"), 2),
    ];
    assert_eq!(rated(&dir), expected);
    let ratings = read_json(&dir.join("ratings.json"));
    assert_eq!(ratings["anchor"], "mcts:iters=8");
    let summary = read_json(&dir.join("evaluations/1-equal-time/summary.json"));
    assert_eq!(summary["games_played"], 4, "{summary}");
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains(&format!("| `mcts:preset=best,ms={ms}` |")),
        "{report}"
    );

    // The plots beside the report, linked from it: the losses a point per
    // step and loss, the ratings a point per network.
    let steps = std::fs::read_to_string(dir.join("losses.jsonl"))
        .unwrap()
        .lines()
        .count();
    let plot = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(
        plot("plot-losses.svg").matches("<circle").count(),
        3 * steps
    );
    let strength = plot("plot-strength.svg");
    assert_eq!(strength.matches("<circle").count(), 2 + 2 * 4, "{strength}");
    assert!(strength.contains("alphabeta:depth=2"), "{strength}");
    assert_eq!(plot("plot-speed.svg").matches("<circle").count(), 1);
    for file in [
        "plot-losses.svg",
        "plot-strength.svg",
        "plot-strength-time.svg",
        "plot-speed.svg",
    ] {
        assert!(report.contains(&format!("]({file})")), "{file}: {report}");
    }
    // `norn view` shows the report's tables and the plots in a page.
    let page = dir.join("view.html");
    let output = norn(&["view", dir.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<figure>").count(), 4);
    assert!(html.contains("<code>checkpoint-1</code>"), "{html}");
}

/// The wins of each policy of `norn winrate GAME --json`.
fn winrate_wins(args: &[&str]) -> Vec<(String, u64)> {
    let mut all = vec!["winrate", "fenrir-path", "--json", "--threads", "1"];
    all.extend_from_slice(args);
    let output = norn(&all);
    assert!(output.status.success(), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    report["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|policy| {
            (
                policy["policy"].as_str().unwrap().to_string(),
                policy["wins"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// `(policy, wins)` of each rate in `winrates.json`, the generations first.
fn trained_wins(dir: &Path) -> Vec<(String, u64)> {
    let rates = read_json(&dir.join("winrates.json"));
    rates["generations"]
        .as_array()
        .unwrap()
        .iter()
        .chain(rates["baselines"].as_array().unwrap())
        .map(|rate| {
            (
                rate["policy"].as_str().unwrap().to_string(),
                rate["wins"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_cooperative_game_is_evaluated_by_win_rates_on_the_deals_of_norn_winrate() {
    let dir = scratch_dir("fenrir-path");
    let deals = ["--eval-every", "2", "--eval-games", "30"];
    let output = train(
        "fenrir-path",
        &dir,
        &[&["--generations", "2"][..], &deals[..]].concat(),
    );
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(progress.contains("win rates on 30 deals"), "{progress}");
    let rates = read_json(&dir.join("winrates.json"));
    assert_eq!(
        (rates["seed"].as_u64(), rates["deals"].as_u64()),
        (Some(3), Some(30))
    );
    let generations: Vec<u64> = rates["generations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rate| rate["generation"].as_u64().unwrap())
        .collect();
    assert_eq!(generations, [0, 2]);
    let rate = &rates["generations"][1];
    let (low, high) = (
        rate["ci_low"].as_f64().unwrap(),
        rate["ci_high"].as_f64().unwrap(),
    );
    let win_rate = rate["win_rate"].as_f64().unwrap();
    assert!(low <= win_rate && win_rate <= high && low < high, "{rate}");

    // The same deals in `norn winrate`: the baselines win the same deals,
    // and so does the checkpoint played as an `az` agent of the same
    // search.
    let network = dir.join("checkpoints/2");
    let az = format!("az:sims=8,net={}", network.display());
    let independent = winrate_wins(&[
        "--seed",
        "3",
        "--deals",
        "30",
        "--policy",
        &az,
        "mcts:iters=8",
        "exact",
    ]);
    let trained = trained_wins(&dir);
    assert_eq!(
        trained[1].1, independent[0].1,
        "{trained:?} {independent:?}"
    );
    assert_eq!(trained[2..], independent[1..]);
    assert!(independent[2].1 > 0, "the solver wins some deals");
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("## Win rates"), "{report}");
    assert!(report.contains("| `exact` |"), "{report}");

    // A longer run plays only the new evaluation: the deals played are
    // read back, not played again.
    let log = dir.join("evaluations/2/deals.jsonl");
    let before = std::fs::read(&log).unwrap();
    train(
        "fenrir-path",
        &dir,
        &[&["--generations", "4"][..], &deals[..]].concat(),
    );
    assert_eq!(std::fs::read(&log).unwrap(), before);
    let again = trained_wins(&dir);
    assert_eq!(again.len(), 5, "{again:?}");
    assert_eq!(again[..2], trained[..2]);
}
