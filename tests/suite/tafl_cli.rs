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

/// What a summary says of one agent, counted from the log's lines.
#[derive(Debug, Default, PartialEq)]
struct Counted {
    reasons: std::collections::BTreeMap<String, u64>,
    lengths: Vec<u64>,
    decisions: u64,
    nodes: u64,
}

#[test]
fn a_variant_s_adjudicated_run_of_named_agents_reads_back_whole_on_resume_and_page() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tafl-adjudicated");
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let run = || {
        let output = norn(&[
            "tournament",
            "brandub",
            "--agents",
            "alphabeta:depth=1,name=shallow",
            "alphabeta:depth=2",
            "--games",
            "4",
            "--seed",
            "8",
            "--threads",
            "2",
            "--adjudicate",
            "resign-moves=2,resign-score=0.3,draw-moves=2,draw-score=0.1",
            "--out",
            out,
        ]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    run();
    // Each agent's endings, lengths and searches, counted from the log.
    let log = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let mut counted = [Counted::default(), Counted::default()];
    for line in log.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        let seats: Vec<usize> = game["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|seat| seat.as_u64().unwrap() as usize)
            .collect();
        for &agent in &seats {
            let reason = game["reason"].as_str().unwrap().to_string();
            *counted[agent].reasons.entry(reason).or_default() += 1;
            counted[agent].lengths.push(game["plies"].as_u64().unwrap());
        }
        for decision in game["search"].as_array().unwrap() {
            let agent = seats[decision["seat"].as_u64().unwrap() as usize];
            counted[agent].decisions += 1;
            counted[agent].nodes += decision["nodes"].as_u64().unwrap();
        }
    }
    assert!(
        counted[0]
            .reasons
            .keys()
            .any(|reason| reason.starts_with("adjudicated")),
        "{counted:?}"
    );
    // The resume reads the summary back from the log as it streams by.
    std::fs::remove_file(dir.join("summary.json")).unwrap();
    run();
    let summary = read_json(&dir.join("summary.json"));
    for (agent, counted) in summary["agents"].as_array().unwrap().iter().zip(&counted) {
        let reasons: std::collections::BTreeMap<String, u64> = agent["reasons"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(reason, count)| (reason.clone(), count.as_u64().unwrap()))
            .collect();
        assert_eq!(reasons, counted.reasons);
        let lengths = &counted.lengths;
        assert_eq!(agent["length"]["min"], *lengths.iter().min().unwrap());
        assert_eq!(agent["length"]["max"], *lengths.iter().max().unwrap());
        let average = lengths.iter().sum::<u64>() as f64 / lengths.len() as f64;
        assert_eq!(agent["length"]["average"].as_f64().unwrap(), average);
        assert_eq!(agent["search"]["decisions"], counted.decisions);
        let nodes = counted.nodes as f64 / counted.decisions as f64;
        assert_eq!(agent["search"]["nodes"].as_f64().unwrap(), nodes);
    }
    assert_eq!(summary["agents"][0]["name"], "shallow");
    // The page draws Brandub's board of 7x7 from the run's rules, and
    // lists the named agent and the adjudicated endings.
    let page = dir.join("page.html");
    let viewed = norn(&["view", out, "--out", page.to_str().unwrap()]);
    assert!(
        viewed.status.success(),
        "{}",
        String::from_utf8_lossy(&viewed.stderr)
    );
    let page = std::fs::read_to_string(&page).unwrap();
    assert!(page.contains("\"g7\"") && !page.contains("\"h8\""));
    assert!(page.contains("shallow"));
    for reason in counted[0].reasons.keys() {
        assert!(page.contains(reason.as_str()), "{reason}");
    }
}
