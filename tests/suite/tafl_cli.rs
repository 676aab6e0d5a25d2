//! The tafl variants on the command line, as a user runs them: by name,
//! by rules string, in tournaments that resume, in records OpenTafl reads,
//! and refused with a reason when the rules cannot be played.

use crate::common::cli::{assert_fails_with, json, norn, read_json, stdout};
use norn::games::tafl::VARIANTS;
use std::path::Path;

fn nodes(args: &[&str]) -> u64 {
    json(&norn(args))["nodes"].as_u64().unwrap()
}

#[test]
fn a_variant_is_the_same_game_by_name_by_option_and_by_rules_string() {
    let brandub = VARIANTS.iter().find(|v| v.name == "brandub").unwrap();
    let by_name = nodes(&["perft", "brandub", "--depth", "3", "--json"]);
    let by_option = nodes(&[
        "perft",
        "tafl",
        "--rules",
        "variant=brandub",
        "--depth",
        "3",
        "--json",
    ]);
    let by_string = nodes(&[
        "perft",
        "tafl",
        "--otn",
        brandub.rules,
        "--depth",
        "3",
        "--json",
    ]);
    assert_eq!(by_name, by_option);
    assert_eq!(by_name, by_string);
    // A variant's position text lists rank 1 first.
    let report = json(&norn(&["perft", "brandub", "--depth", "1", "--json"]));
    assert_eq!(report["game"], "tafl");
    assert_eq!(
        report["position"],
        "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ attackers"
    );
    assert_eq!(report["nodes"], 40);
}

#[test]
fn rules_that_cannot_be_played_are_refused_with_the_reason() {
    assert_fails_with(
        &["perft", "tafl", "--otn", "dim:8 start:/8/", "--depth", "1"],
        "odd",
    );
    assert_fails_with(
        &[
            "perft",
            "tafl",
            "--otn",
            "dim:7 zz:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
            "--depth",
            "1",
        ],
        "`zz` is not supported",
    );
    assert_fails_with(
        &[
            "perft",
            "brandub",
            "--otn",
            "dim:7 start:/7/7/7/3K3/7/7/7/",
            "--depth",
            "1",
        ],
        "rules of brandub",
    );
    assert_fails_with(
        &[
            "perft",
            "brandub",
            "--rules",
            "variant=tablut",
            "--depth",
            "1",
        ],
        "rules of brandub",
    );
}

#[test]
fn a_variant_s_tournament_resumes_and_its_games_become_opentafl_records() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tafl-tournament");
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let run = |games: &str| {
        let output = norn(&[
            "tournament",
            "brandub",
            "--agents",
            "random",
            "greedy",
            "--games",
            games,
            "--seed",
            "3",
            "--threads",
            "1",
            "--out",
            out,
        ]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    run("4");
    let config = read_json(&dir.join("config.json"));
    assert_eq!(config["game"], "tafl");
    assert!(
        config["rules"]
            .as_str()
            .unwrap()
            .starts_with("variant=brandub,")
    );
    let log = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    // The same command resumes the run: nothing is played again.
    run("4");
    assert_eq!(
        std::fs::read_to_string(dir.join("games.jsonl")).unwrap(),
        log
    );
    // The games as OpenTafl records, read back and replayed move by move.
    let records = dir.join("games.otg");
    let exported = norn(&[
        "replay",
        "tafl",
        dir.join("games.jsonl").to_str().unwrap(),
        "--export",
        "opentafl",
        "--out",
        records.to_str().unwrap(),
    ]);
    assert!(
        exported.status.success(),
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(
        text.matches("[rules:dim:7 name:Brandub").count(),
        4,
        "{text}"
    );
    let replayed = norn(&["replay", "tafl", records.to_str().unwrap()]);
    assert!(
        replayed.status.success(),
        "{}",
        String::from_utf8_lossy(&replayed.stderr)
    );
    assert!(
        stdout(&replayed).starts_with("4 records, every move legal"),
        "{}",
        stdout(&replayed)
    );
    assert_eq!(stdout(&replayed).matches(": brandub (").count(), 4);
    // And the run's page draws its games.
    let page = dir.join("page.html");
    let viewed = norn(&["view", out, "--out", page.to_str().unwrap()]);
    assert!(
        viewed.status.success(),
        "{}",
        String::from_utf8_lossy(&viewed.stderr)
    );
}
