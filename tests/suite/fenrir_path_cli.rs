//! The fenrir-path commands as a user runs them.

use crate::common::cli::{self, assert_fails_with, norn, read_json};

const SORTED: &str = "RRRRRRBBBBBBGGGGGGYYYYYY:RBGY";

fn json(args: &[&str]) -> serde_json::Value {
    cli::json(&norn(args))
}

#[test]
fn perft_counts_from_a_deal() {
    let report = json(&[
        "perft",
        "fenrir-path",
        "--deal",
        SORTED,
        "--depth",
        "1",
        "--json",
    ]);
    assert_eq!(report["nodes"], 9);
    assert_eq!(report["depth"], 1);
    assert!(report["position"].as_str().unwrap().starts_with(SORTED));
    assert_fails_with(&["perft", "fenrir-path", "--depth", "2"], "--deal");
    assert_fails_with(
        &["perft", "fenrir-path", "--deal", "RRRR:RB", "--depth", "2"],
        "4 tiles",
    );
}

#[test]
fn solve_gives_a_winning_line_that_replays() {
    let report = json(&["solve", "fenrir-path", "--deal", SORTED, "--json"]);
    assert!(report["position"].as_str().unwrap().starts_with(SORTED));
    assert_eq!(report["win"], true);
    let line: Vec<&str> = report["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv.as_str().unwrap())
        .collect();
    assert!(line.len() >= 18, "at least one move per tile collected");
    let seeded = json(&[
        "solve",
        "fenrir-path",
        "--seed",
        "4",
        "--rules",
        "turn-order=fixed",
        "--json",
    ]);
    assert!(
        seeded["rules"]
            .as_str()
            .unwrap()
            .contains("turn-order=fixed")
    );
    let deal = seeded["position"].as_str().unwrap().split_whitespace();
    assert_eq!(deal.into_iter().next().unwrap().len(), 29);
}

#[test]
fn solve_reports_a_loss_and_objective_bounds() {
    // Two colours of two tiles: the wolf starts on tile 4, two steps from Odin.
    let lost = json(&[
        "solve",
        "fenrir-path",
        "--deal",
        "RBBR:BR",
        "--rules",
        "colours=2,tiles-per-colour=2,sets=2,spacing=1",
        "--json",
    ]);
    assert_eq!(lost["win"], false);
    assert_eq!(lost["verdict"], "loss");
    assert_eq!(lost["line"].as_array().unwrap().len(), 0);

    let bounded = json(&[
        "solve",
        "fenrir-path",
        "--seed",
        "1",
        "--budget",
        "20000",
        "--json",
    ]);
    let objectives = bounded["objectives"].as_array().unwrap();
    assert_eq!(objectives.len(), 2);
    for objective in objectives {
        let lower = objective["lower"].as_i64().unwrap();
        let upper = objective["upper"].as_i64().unwrap();
        assert!(lower <= upper, "{objective}");
    }
    assert_eq!(objectives[0]["objective"], "safety-margin");
    assert_eq!(objectives[1]["objective"], "shortest-win");
}

#[test]
fn solve_bounds_objectives_over_many_deals() {
    let report = json(&[
        "solve",
        "fenrir-path",
        "--deals",
        "6",
        "--budget",
        "3000",
        "--seed",
        "2",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(report["deals"], 6);
    let per_deal = report["per_deal"].as_array().unwrap();
    assert_eq!(per_deal.len(), 6);
    // The deals are those `winrate` plays with the same seed.
    let csv_dir = std::env::temp_dir().join(format!("norn-fenrir-bounds-{}", std::process::id()));
    json(&[
        "winrate",
        "fenrir-path",
        "--policy",
        "random",
        "--deals",
        "6",
        "--seed",
        "2",
        "--json",
        "--out",
        csv_dir.to_str().unwrap(),
    ]);
    let csv = std::fs::read_to_string(csv_dir.join("deals.csv")).unwrap();
    for (entry, line) in per_deal.iter().zip(csv.lines().skip(1)) {
        assert_eq!(
            line.split('"').nth(1).unwrap(),
            entry["deal"].as_str().unwrap()
        );
    }
    std::fs::remove_dir_all(&csv_dir).unwrap();
    let margin = &report["objectives"][0];
    assert_eq!(margin["objective"], "safety-margin");
    let won = report["winnable"].as_u64().unwrap();
    assert_eq!(margin["deals"].as_u64().unwrap(), won);
    assert!(margin["mean_lower"].as_f64().unwrap() <= margin["mean_upper"].as_f64().unwrap());
    assert_fails_with(&["solve", "fenrir-path", "--deals", "3"], "--budget");
}

#[test]
fn winrate_reports_every_policy_and_writes_its_files() {
    let dir = std::env::temp_dir().join(format!("norn-fenrir-winrate-{}", std::process::id()));
    let report = json(&[
        "winrate",
        "fenrir-path",
        "--policy",
        "exact",
        "greedy",
        "random",
        "--deals",
        "40",
        "--threads",
        "2",
        "--seed",
        "3",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let policies = report["policies"].as_array().unwrap();
    let names: Vec<&str> = policies
        .iter()
        .map(|p| p["policy"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["exact", "greedy", "random"]);
    for policy in policies {
        assert_eq!(policy["deals"], 40);
        let rate = policy["win_rate"].as_f64().unwrap();
        let wins = policy["wins"].as_u64().unwrap();
        assert!((rate - wins as f64 / 40.0).abs() < 1e-12);
        assert!(policy["ci_low"].as_f64().unwrap() <= rate);
        assert!(rate <= policy["ci_high"].as_f64().unwrap());
        assert!(policy["seconds"].as_f64().unwrap() >= 0.0);
    }
    let svg = std::fs::read_to_string(dir.join("winrate.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("greedy"));
    let csv = std::fs::read_to_string(dir.join("deals.csv")).unwrap();
    assert_eq!(csv.lines().count(), 41);
    assert!(csv.starts_with("deal_index,deal,exact,greedy,random\n"));
    let summary = read_json(&dir.join("summary.json"));
    assert_eq!(summary["policies"], report["policies"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_requests_get_one_clear_line() {
    assert_fails_with(
        &[
            "winrate",
            "fenrir-path",
            "--policy",
            "wizard",
            "--deals",
            "5",
        ],
        "unknown agent `wizard`",
    );
    assert_fails_with(
        &[
            "winrate",
            "fenrir-path",
            "--policy",
            "mcts:speed=3",
            "--deals",
            "5",
        ],
        "valid",
    );
    assert_fails_with(
        &[
            "winrate",
            "fenrir-path",
            "--policy",
            "random",
            "--rules",
            "colours=7",
        ],
        "colours",
    );
    assert_fails_with(&["solve", "hnefatafl", "--seed", "1"], "cooperative");
    assert_fails_with(&["solve", "fenrir-path", "--deal", "RBGY:RBGY"], "4 tiles");
    assert_fails_with(&["solve", "fenrir-path"], "--seed");
}

#[test]
fn mcts_plays_through_the_generic_searcher_and_beats_random_play() {
    let report = json(&[
        "winrate",
        "fenrir-path",
        "--policy",
        "random",
        "mcts:iters=300",
        "exact",
        "--deals",
        "30",
        "--threads",
        "2",
        "--seed",
        "5",
        "--json",
    ]);
    let wins = |index: usize| report["policies"][index]["wins"].as_u64().unwrap();
    assert_eq!(report["policies"][1]["policy"], "mcts:iters=300");
    // Random play has never won a deal in 100,000; a few hundred iterations of
    // search per move win a good share, and never a deal the solver calls lost.
    assert!(
        wins(1) > wins(0) + 5,
        "mcts won {} of 30, random {}",
        wins(1),
        wins(0)
    );
    assert!(wins(1) <= wins(2));
}
