//! `norn play` as a user runs it.

use crate::common::cli::{assert_fails_with, json, norn, norn_with_input};

#[test]
fn json_reports_the_moves_winner_reason_and_payoffs() {
    let args = [
        "play",
        "hnefatafl",
        "--attackers",
        "alphabeta:depth=2",
        "--defenders",
        "random",
        "--seed",
        "5",
        "--rules",
        "ply-limit=60",
        "--json",
    ];
    let report = json(&norn(&args));
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(report["plies"].as_u64().unwrap() as usize, moves.len());
    assert!(moves.len() <= 60);
    assert!(moves.iter().all(|mv| mv.as_str().unwrap().contains('-')));
    let payoffs: Vec<f64> = report["payoffs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .collect();
    assert_eq!(payoffs.len(), 2);
    match report["winner"].as_str() {
        Some("attackers") => assert_eq!(payoffs, [1.0, -1.0]),
        Some("defenders") => assert_eq!(payoffs, [-1.0, 1.0]),
        None => assert_eq!(
            (payoffs.as_slice(), report["reason"].as_str()),
            ([0.0, 0.0].as_slice(), Some("ply-limit"))
        ),
        Some(other) => panic!("unknown winner {other}"),
    }
    assert!(report["reason"].is_string());
    assert_eq!(
        json(&norn(&args)),
        report,
        "the same seed plays the same game"
    );
}

#[test]
fn players_can_be_named_by_number_or_by_side() {
    let report = json(&norn(&[
        "play",
        "hnefatafl",
        "--agent0",
        "greedy",
        "--player",
        "defenders=random",
        "--rules",
        "ply-limit=20",
        "--json",
    ]));
    assert_eq!(report["players"][0]["spec"], "greedy");
    assert_eq!(report["players"][1]["name"], "defenders");
}

#[test]
fn a_human_is_told_why_a_move_is_illegal_and_asked_again() {
    let output = norn_with_input(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "human",
            "--defenders",
            "greedy",
            "--json",
        ],
        "d1-d9\nnonsense\nmoves\nd1-d3\nresign\n",
    );
    assert!(output.status.success());
    let terminal = String::from_utf8_lossy(&output.stderr);
    assert!(
        terminal.contains("the way from d1 to d9 is blocked; try again"),
        "{terminal}"
    );
    assert!(terminal.contains("a move is written from-to"), "{terminal}");
    assert!(terminal.contains("legal moves: d1-b1"), "{terminal}");
    assert!(terminal.contains("attackers played d1-d3"), "{terminal}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["moves"][0], "d1-d3");
    assert_eq!(report["plies"], 2);
    assert_eq!(report["winner"], "defenders");
    assert_eq!(report["reason"], "resignation");
}

#[test]
fn bad_options_are_one_line_errors() {
    assert_fails_with(
        &["play", "hnefatafl", "--attackers", "random"],
        "no agent for the defenders",
    );
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "random",
            "--player",
            "dwarfs=random",
        ],
        "no player `dwarfs`",
    );
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "random",
            "--agent0",
            "greedy",
            "--defenders",
            "random",
        ],
        "two agents given for the attackers",
    );
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "mcts:iterations=5",
            "--defenders",
            "random",
        ],
        "valid options: iters, ms, c",
    );
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "random",
            "--defenders",
            "random",
            "--position",
            "/11/",
        ],
        "invalid position",
    );
}

#[test]
fn text_output_lists_the_moves_and_the_result() {
    let output = norn(&[
        "play",
        "hnefatafl",
        "--attackers",
        "greedy",
        "--defenders",
        "greedy",
        "--rules",
        "ply-limit=12",
    ]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("hnefatafl: attackers = greedy, defenders = greedy (seed 0)"));
    assert!(text.contains("   1. attackers "), "{text}");
    assert!(text.contains("    a b c d e f g h i j k"), "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("result: "),
        "{text}"
    );
}
