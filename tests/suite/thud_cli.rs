//! The command line for classic Thud and Koom Valley Thud (perft, show, play,
//! tournaments), as a user runs it.

use crate::common::cli::{assert_fails_with, json, norn};

#[test]
fn perft_counts_both_games() {
    let thud = json(&norn(&[
        "perft",
        "thud",
        "--depth",
        "2",
        "--threads",
        "2",
        "--json",
    ]));
    assert_eq!(thud["game"], "thud");
    assert_eq!(thud["nodes"], 22_624);
    let divide = json(&norn(&[
        "perft", "thud", "--depth", "1", "--divide", "--json",
    ]));
    assert_eq!(divide["divide"].as_array().unwrap().len(), 656);
    assert_eq!(divide["divide"][0]["move"], "dF1-F2");
    let koom = json(&norn(&["perft", "koom-valley", "--depth", "1", "--json"]));
    assert_eq!(koom["game"], "koom-valley");
    assert_eq!(koom["nodes"], 388);
}

#[test]
fn perft_takes_positions_and_rules() {
    let trolls =
        "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd trolls";
    let report = json(&norn(&[
        "perft",
        "thud",
        "-d",
        "1",
        "--position",
        trolls,
        "--json",
    ]));
    assert_eq!(report["nodes"], 32);
    // Two dwarfs next to the troll's step square: four choices instead of two.
    let subset = "5/7/9/11/13/15/15/7R7/15/15/8T4/11/5d1d1/7/5 trolls";
    let all_or_none = json(&norn(&[
        "perft",
        "thud",
        "-d",
        "1",
        "--position",
        subset,
        "--json",
    ]));
    let any = json(&norn(&[
        "perft",
        "thud",
        "-d",
        "1",
        "--position",
        subset,
        "--rules",
        "troll-captures=any-subset",
        "--json",
    ]));
    assert_eq!(
        any["nodes"].as_u64().unwrap(),
        all_or_none["nodes"].as_u64().unwrap() + 2
    );
}

#[test]
fn show_draws_the_octagon_and_prints_the_position() {
    let output = norn(&["show", "koom-valley"]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains(" 1            * * * * *"), "{text}");
    assert!(text.contains("dwarfs to move, 388 legal moves"), "{text}");
    assert!(text.contains("7R7/7d7"), "{text}");
    let output = norn(&["show", "thud"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains(" 8  . . . . . . T R T . . . . . ."), "{text}");
    assert!(text.contains("margin +0"), "{text}");
}

#[test]
fn bad_input_is_one_line_naming_the_problem() {
    assert_fails_with(
        &["perft", "thud", "-d", "1", "--position", "dd1dd/d5d"],
        "2 rows",
    );
    assert_fails_with(
        &[
            "perft",
            "koom-valley",
            "-d",
            "1",
            "--rules",
            "troll-captures=any-subset",
        ],
        "unknown option `troll-captures`",
    );
    assert_fails_with(&["show", "thud", "--rules", "ply-limit=soon"], "ply-limit");
    assert_fails_with(&["replay", "thud", "Cargo.toml"], "no record format");
}

#[test]
fn play_names_the_sides_dwarfs_and_trolls() {
    let game = json(&norn(&[
        "play",
        "koom-valley",
        "--dwarfs",
        "greedy",
        "--trolls",
        "random",
        "--seed",
        "3",
        "--json",
    ]));
    assert_eq!(game["players"][0]["name"], "dwarfs");
    assert_eq!(game["players"][0]["spec"], "greedy");
    assert_eq!(game["players"][1]["name"], "trolls");
    assert_eq!(
        game["plies"].as_u64().unwrap() as usize,
        game["moves"].as_array().unwrap().len()
    );
    assert_fails_with(
        &[
            "play",
            "thud",
            "--attackers",
            "greedy",
            "--trolls",
            "random",
        ],
        "no player `attackers`",
    );
}

#[test]
fn a_thud_tournament_reports_the_margin_of_each_pair_of_battles() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("thud-tournament");
    let _ = std::fs::remove_dir_all(&dir);
    let summary = json(&norn(&[
        "tournament",
        "thud",
        "--agents",
        "greedy",
        "random",
        "--games",
        "4",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]));
    let pairing = &summary["pairings"][0];
    let margins = pairing["pair_margins"].as_array().unwrap();
    assert_eq!(
        margins.len(),
        2,
        "four battles make two colour-swapped pairs"
    );
    // Each pair's summed margin is the first agent's payoff over both battles.
    let log = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let mut games: Vec<serde_json::Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    games.sort_by_key(|game| game["index"].as_u64());
    for (pair, margin) in games.chunks(2).zip(margins) {
        let greedy_total: f64 = pair
            .iter()
            .map(|game| {
                let seat = if game["agents"][0] == "greedy" { 0 } else { 1 };
                game["payoffs"][seat].as_f64().unwrap()
            })
            .sum();
        assert_eq!(margin.as_f64().unwrap(), greedy_total);
    }
    assert!(
        std::fs::read_to_string(dir.join("report.md"))
            .unwrap()
            .contains("summed margin")
    );
}
