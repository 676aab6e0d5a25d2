//! `norn winrate fenrir-cards`, `show` and `perft` as a user runs them.

use crate::common::cli::{assert_fails_with, json, norn, read_json};
use std::path::PathBuf;

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("norn-fenrir-cards-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The win rates of a report's policies, by spec.
fn rates(report: &serde_json::Value) -> Vec<(String, u64, bool)> {
    report["policies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|policy| {
            (
                policy["policy"].as_str().unwrap().to_string(),
                policy["wins"].as_u64().unwrap(),
                policy["sees_hidden_information"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn winrate_compares_policies_on_the_same_deals_and_marks_open_hand() {
    let args = [
        "winrate",
        "fenrir-cards",
        "--rules",
        "players=3,track=60",
        "--deals",
        "60",
        "--policy",
        "random",
        "counting",
        "open-hand",
        "--json",
    ];
    let report = json(&norn(&[&args[..], &["--threads", "1"]].concat()));
    assert_eq!(report["game"], "fenrir-cards");
    assert_eq!(report["deals"], 60);
    assert!(
        report["rules"]
            .as_str()
            .unwrap()
            .contains("players=3,ranks=12,track=60")
    );
    let rates = rates(&report);
    assert_eq!(rates[0].0, "random");
    assert!(
        !rates[0].2 && !rates[1].2 && rates[2].2,
        "only open-hand sees hidden cards"
    );
    assert!(
        rates[1].1 > rates[0].1 + 20,
        "counting beats random: {rates:?}"
    );
    for policy in report["policies"].as_array().unwrap() {
        let low = policy["ci_low"].as_f64().unwrap();
        let high = policy["ci_high"].as_f64().unwrap();
        let rate = policy["win_rate"].as_f64().unwrap();
        assert!(low <= rate && rate <= high);
    }
    // The same numbers on two threads.
    let again = json(&norn(&[&args[..], &["--threads", "2"]].concat()));
    assert_eq!(rates, self::rates(&again));
    // The table names the cheat.
    let table = norn(&args[..args.len() - 1]);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("open-hand *"), "{text}");
    assert!(text.contains("sees hidden information"), "{text}");
}

#[test]
fn a_deal_as_text_is_written_out_and_replayed() {
    let dir = scratch_dir("deal");
    let out = dir.to_str().unwrap();
    let report = json(&norn(&[
        "winrate",
        "fenrir-cards",
        "--rules",
        "players=2",
        "--deals",
        "3",
        "--policy",
        "counting",
        "--json",
        "--out",
        out,
    ]));
    let csv = std::fs::read_to_string(dir.join("deals.csv")).unwrap();
    let first = csv.lines().nth(1).unwrap();
    let deal = first.split('"').nth(1).unwrap().to_string();
    let won_first = first.ends_with(",1");
    assert!(dir.join("summary.json").exists() && dir.join("winrate.svg").exists());
    // Counting makes no random choice: replaying deal 0 repeats its result.
    let replay = json(&norn(&[
        "winrate",
        "fenrir-cards",
        "--rules",
        "players=2",
        "--deals",
        "4",
        "--policy",
        "counting",
        "--deal",
        &deal,
        "--json",
    ]));
    assert_eq!(replay["deal"], deal.as_str());
    assert_eq!(rates(&replay)[0].1, if won_first { 4 } else { 0 });
    assert_eq!(report["deals"], 3);
    // The deal is also a position for show and perft.
    let shown = norn(&[
        "show",
        "fenrir-cards",
        "--rules",
        "players=2",
        "--position",
        &deal,
    ]);
    assert!(shown.status.success());
    assert!(String::from_utf8_lossy(&shown.stdout).contains("player0* "));
    let perft = json(&norn(&[
        "perft",
        "fenrir-cards",
        "--rules",
        "players=2",
        "--deal",
        &deal,
        "--depth",
        "1",
        "--json",
    ]));
    assert!(perft["nodes"].as_u64().unwrap() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_track_sweep_writes_a_table_and_a_plot() {
    let dir = scratch_dir("sweep");
    let out = dir.to_str().unwrap();
    let output = norn(&[
        "winrate",
        "fenrir-cards",
        "--rules",
        "players=4",
        "--sweep",
        "track=10..50",
        "--sweep-step",
        "20",
        "--deals",
        "30",
        "--policy",
        "random",
        "counting",
        "--out",
        out,
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let table = String::from_utf8_lossy(&output.stdout);
    for track in ["10", "30", "50"] {
        assert!(
            table
                .lines()
                .any(|line| line.trim_start().starts_with(track)),
            "{table}"
        );
    }
    let report = read_json(&dir.join("sweep.json"));
    assert_eq!(report["option"], "track");
    let tracks = report["points"].as_array().unwrap();
    assert_eq!(tracks.len(), 3);
    assert!(!report["rules"].as_str().unwrap().contains("track="));
    // Counting wins more often on a longer track.
    let counting = |point: &serde_json::Value| point["policies"][1]["wins"].as_u64().unwrap();
    assert!(counting(&tracks[2]) > counting(&tracks[0]));
    let svg = std::fs::read_to_string(dir.join("sweep.svg")).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 2);
    assert!(
        std::fs::read_to_string(dir.join("sweep.csv"))
            .unwrap()
            .lines()
            .count()
            == 7
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_explained() {
    let winrate = ["winrate", "fenrir-cards", "--policy"];
    assert_fails_with(
        &[&winrate[..], &["random", "--rules", "players=5"]].concat(),
        "`players` must be from 2 to 4, not 5",
    );
    assert_fails_with(&[&winrate[..], &["greedy"]].concat(), "valid policies");
    assert_fails_with(
        &[&winrate[..], &["random", "--rules", "players=2,players=3"]].concat(),
        "given twice",
    );
    assert_fails_with(
        &[&winrate[..], &["random", "--sweep", "track=40..10"]].concat(),
        "A <= B",
    );
    assert_fails_with(
        &[
            &winrate[..],
            &[
                "random",
                "--sweep",
                "track=1..4294967295",
                "--sweep-step",
                "1",
            ],
        ]
        .concat(),
        "more than 1000 values",
    );
    assert_fails_with(
        &[
            &winrate[..],
            &["random", "--rules", "track=20", "--sweep", "track=10..20"],
        ]
        .concat(),
        "given twice",
    );
    assert_fails_with(
        &[&winrate[..], &["random", "--deal", "L1,L2"]].concat(),
        "hand(s)",
    );
    assert_fails_with(
        &[&winrate[..], &["random", "--rules", "turn-order=fixed"]].concat(),
        "unknown option `turn-order`",
    );
    assert_fails_with(
        &[
            "winrate",
            "fenrir-path",
            "--policy",
            "random",
            "--rules",
            "players=3",
        ],
        "unknown option `players`",
    );
    assert_fails_with(
        &["winrate", "fenrir-cards", "--policy", "exact"],
        "every player seeing the whole state",
    );
    assert_fails_with(&["perft", "fenrir-cards", "--depth", "1"], "--deal");
}

#[test]
fn play_deals_from_the_seed_and_seats_only_fenrir_cards_policies() {
    let output = norn(&[
        "play",
        "fenrir-cards",
        "--rules",
        "players=3",
        "--player",
        "0=counting",
        "--player",
        "1=ismcts:iters=50",
        "--player",
        "2=open-hand",
        "--seed",
        "5",
        "--json",
    ]);
    let report = json(&output);
    let players = report["players"].as_array().unwrap();
    let cheats: Vec<bool> = players
        .iter()
        .map(|player| player["sees_hidden_information"].as_bool().unwrap())
        .collect();
    assert_eq!(cheats, [false, false, true]);
    // The deal is the first of `norn winrate` with the same seed.
    let dir = scratch_dir("play-deal");
    let out = dir.to_str().unwrap();
    let winrate = [
        "winrate",
        "fenrir-cards",
        "--rules",
        "players=3",
        "--policy",
        "counting",
        "--deals",
        "1",
        "--seed",
        "5",
        "--out",
        out,
    ];
    assert!(norn(&winrate).status.success());
    let csv = std::fs::read_to_string(dir.join("deals.csv")).unwrap();
    let first_deal = csv.lines().nth(1).unwrap().split('"').nth(1).unwrap();
    assert_eq!(report["start"], first_deal, "{report}");
    let payoffs = report["payoffs"].as_array().unwrap();
    assert!(payoffs.iter().all(|payoff| payoff == &payoffs[0]));
    assert!(report["winner"].is_null(), "a team has no single winner");
    let seats = ["--player", "1=random", "--player", "2=random"];
    assert_fails_with(
        &[
            &[
                "play",
                "fenrir-cards",
                "--rules",
                "players=3",
                "--player",
                "0=human",
            ][..],
            &seats,
        ]
        .concat(),
        "hidden information",
    );
    assert_fails_with(
        &[
            &[
                "play",
                "fenrir-cards",
                "--rules",
                "players=3",
                "--player",
                "0=mcts:iters=10",
            ][..],
            &seats,
        ]
        .concat(),
        "valid policies",
    );
}
