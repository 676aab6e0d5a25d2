//! The command line as a user runs it.

use crate::common::cli::{assert_fails_with, json, norn, read_json, stdout};
use norn::core::{Game, Notation};
use norn::games::hnefatafl::Hnefatafl;

#[test]
fn perft_reports_json_with_depth_nodes_and_seconds() {
    let report = json(&norn(&["perft", "hnefatafl", "--depth", "2", "--json"]));
    assert_eq!(report["depth"], 2);
    assert_eq!(report["nodes"], 6788);
    assert!(report["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn perft_divide_lists_every_first_move() {
    let report = json(&norn(&[
        "perft",
        "hnefatafl",
        "--depth",
        "2",
        "--divide",
        "--threads",
        "2",
        "--json",
    ]));
    let divide = report["divide"].as_array().unwrap();
    assert_eq!(divide.len(), 116);
    let total: u64 = divide
        .iter()
        .map(|entry| entry["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 6788);
    assert!(divide.iter().any(|entry| entry["move"] == "d1-d3"));
}

#[test]
fn perft_from_a_given_position() {
    let position = "/11/11/11/11/11/5K5/11/11/11/11/11/ defenders";
    let report = json(&norn(&[
        "perft",
        "hnefatafl",
        "--depth",
        "1",
        "--position",
        position,
        "--json",
    ]));
    // A lone king on the throne slides 5 squares in each direction.
    assert_eq!(report["nodes"], 20);
}

#[test]
fn show_prints_the_board_and_the_position_text() {
    let output = norn(&["show", "hnefatafl"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("a b c d e f g h i j k"));
    assert!(text.contains("attackers to move, 116 legal moves"));
    assert!(text.contains("/3ttttt3/5t5/"));
}

#[test]
fn replay_checks_every_record() {
    let summary = json(&norn(&[
        "replay",
        "hnefatafl",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/copenhagen-games.csv"
        ),
        "--json",
    ]));
    assert_eq!(summary["games"], 876);
    assert_eq!(summary["illegal_moves"], 0);
    assert_eq!(summary["capture_mismatches"], 0);
    assert!(summary["moves"].as_u64().unwrap() > 40_000);
    assert!(summary["ended_early"].as_u64().is_some());
}

#[test]
fn bad_input_gives_one_clear_line_and_a_failure_code() {
    assert_fails_with(
        &["perft", "hnefatafl", "--depth", "1", "--position", "/11/"],
        "ranks",
    );
    assert_fails_with(&["perft", "hnefatafl", "--depth", "x"], "--depth");
    assert_fails_with(&["perft", "chess", "--depth", "1"], "chess");
    assert_fails_with(
        &["perft", "hnefatafl", "--depth", "1", "--rules", "speed=9"],
        "valid options",
    );
    assert_fails_with(
        &["perft", "hnefatafl", "--depth", "1", "--threads", "0"],
        "threads",
    );
    assert_fails_with(&["replay", "hnefatafl", "/no/such/file.csv"], "cannot read");
    assert_fails_with(
        &[
            "show",
            "hnefatafl",
            "--position",
            "/11/11/11/11/11/11/11/11/11/11/11/",
        ],
        "no king",
    );
}

#[test]
fn every_subcommand_has_help() {
    for command in ["perft", "show", "replay"] {
        let output = norn(&[command, "--help"]);
        assert!(output.status.success());
        assert!(stdout(&output).contains("Usage"), "{command}");
    }
}

#[test]
fn match_stops_when_the_sequential_test_decides() {
    let report = json(&norn(&[
        "match",
        "hnefatafl",
        "alphabeta:depth=2",
        "random",
        "--sprt",
        "-20,20",
        "--max-games",
        "60",
        "--threads",
        "2",
        "--json",
    ]));
    assert_eq!(report["decision"], "accept-h1", "{report}");
    let games = report["games"].as_u64().unwrap();
    assert!(games < 60 && games.is_multiple_of(2), "{games} games");
    assert!(report["llr"].as_f64().unwrap() >= report["llr_upper"].as_f64().unwrap());
    assert!(report["elo_low"].as_f64().unwrap() > 0.0);
    assert_fails_with(
        &["match", "hnefatafl", "random", "greedy", "--sprt", "10,0"],
        "elo0 < elo1",
    );
}

#[test]
fn matches_and_tournaments_refuse_games_without_two_opponents() {
    assert_fails_with(
        &[
            "match",
            "fenrir-cards",
            "random",
            "greedy",
            "--sprt",
            "0,10",
        ],
        "fenrir-cards is cooperative",
    );
    assert_fails_with(
        &["match", "fenrir-path", "random", "greedy", "--sprt", "0,10"],
        "fenrir-path is cooperative",
    );
    assert_fails_with(
        &["tournament", "fenrir-path", "--agents", "random", "greedy"],
        "two competing sides",
    );
}

#[test]
fn a_tournament_writes_its_log_and_reports_and_resumes() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-tournament");
    let _ = std::fs::remove_dir_all(&dir);
    let args = [
        "tournament",
        "hnefatafl",
        "--agents",
        "random",
        "greedy",
        "--games",
        "4",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ];
    let summary = json(&norn(&args));
    let agents = summary["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 2);
    for agent in agents {
        for key in [
            "spec", "games", "wins", "draws", "losses", "score", "elo", "elo_low", "elo_high",
        ] {
            assert!(!agent[key].is_null(), "{key} missing in {agent}");
        }
    }
    for file in [
        "games.jsonl",
        "summary.json",
        "report.md",
        "ratings.svg",
        "config.json",
    ] {
        assert!(dir.join(file).exists(), "{file}");
    }
    let stored = read_json(&dir.join("summary.json"));
    assert_eq!(stored, summary);
    // Running again plays nothing new and reports the same.
    assert_eq!(json(&norn(&args)), summary);
    // The log replays under the rules; an edited move does not.
    let log = dir.join("games.jsonl");
    let replay = json(&norn(&[
        "replay",
        "hnefatafl",
        log.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(replay["games"], 4);
    assert_eq!(replay["failures"].as_array().unwrap().len(), 0);
    let text = std::fs::read_to_string(&log).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let first_move = first["moves"][0].as_str().unwrap().to_string();
    // One game ply by ply ends with the position its opening and moves
    // lead to.
    let mut end = match first["opening"]["position"].as_str() {
        Some(position) => Hnefatafl::from_position_text(position, Default::default()).unwrap(),
        None => Hnefatafl::new(Default::default()),
    };
    let opening = first["opening"]["moves"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for text in opening.iter().chain(first["moves"].as_array().unwrap()) {
        let mv = end.parse_move(text.as_str().unwrap()).unwrap();
        end.play(mv);
    }
    let index = first["index"].to_string();
    let shown = stdout(&norn(&[
        "replay",
        "hnefatafl",
        log.to_str().unwrap(),
        "--game",
        &index,
    ]));
    let last_line = shown.lines().last().unwrap();
    assert_eq!(
        last_line,
        format!("final position: {}", end.position_text())
    );
    let forged_path = dir.join("forged.jsonl");
    std::fs::write(&forged_path, text.replacen(&first_move, "a4-a1", 1)).unwrap();
    let forged = norn(&[
        "replay",
        "hnefatafl",
        forged_path.to_str().unwrap(),
        "--json",
    ]);
    assert!(!forged.status.success(), "a log that does not replay fails");
    let forged: serde_json::Value = serde_json::from_slice(&forged.stdout).unwrap();
    assert_eq!(forged["failures"].as_array().unwrap().len(), 1, "{forged}");
    assert_fails_with(
        &[
            "tournament",
            "hnefatafl",
            "--agents",
            "random",
            "--games",
            "4",
        ],
        "two agents",
    );
    assert_fails_with(
        &[
            "tournament",
            "hnefatafl",
            "--agents",
            "random",
            "greedy",
            "--games",
            "3",
        ],
        "even",
    );
    assert_fails_with(
        &[
            "tournament",
            "hnefatafl",
            "--agents",
            "random",
            "mcts:speed=1",
        ],
        "valid",
    );
}

#[test]
fn commands_and_agents_refuse_a_game_by_the_capability_it_lacks() {
    // Commands.
    assert_fails_with(
        &["winrate", "thud", "--policy", "random"],
        "needs a cooperative game with chance events, and thud has competing sides",
    );
    assert_fails_with(
        &["solve", "koom-valley", "--seed", "1"],
        "needs a cooperative game",
    );
    assert_fails_with(
        &["engine", "thud"],
        "no engine protocol is defined for thud",
    );
    assert_fails_with(
        &[
            "tournament",
            "fenrir-cards",
            "--agents",
            "random",
            "counting",
        ],
        "two competing sides, and fenrir-cards is cooperative",
    );
    // Agent kinds.
    for (game, side, spec, expected) in [
        (
            "fenrir-path",
            "gods",
            "alphabeta:depth=2",
            "`alphabeta` needs two competing sides, and fenrir-path is cooperative",
        ),
        (
            "hnefatafl",
            "attackers",
            "ismcts:iters=10",
            "`ismcts` needs a game with hidden information, and hnefatafl has none",
        ),
    ] {
        let others = ["--agent1", "random"];
        let mut args = vec!["play", game];
        let seat = format!("{side}={spec}");
        args.extend(["--player", &seat]);
        if game == "hnefatafl" {
            args.extend(others);
        }
        assert_fails_with(&args, expected);
    }
}

#[test]
fn every_side_of_every_game_has_its_own_flag() {
    // The flags come from the registry's side names: fenrir-path's team
    // has one too.
    let report = json(&norn(&[
        "play",
        "fenrir-path",
        "--gods",
        "greedy",
        "--seed",
        "2",
        "--json",
    ]));
    assert_eq!(report["players"][0]["name"], "gods");
    assert_eq!(report["players"][0]["spec"], "greedy");
    let help = stdout(&norn(&["play", "--help"]));
    for flag in [
        "--attackers",
        "--defenders",
        "--dwarfs",
        "--trolls",
        "--gods",
    ] {
        assert!(help.contains(flag), "{flag} missing from the help");
    }
    assert_fails_with(
        &[
            "play",
            "thud",
            "--attackers",
            "random",
            "--trolls",
            "random",
        ],
        "thud has no player `attackers`",
    );
}

#[test]
fn runs_without_a_terminal_write_plain_progress_lines() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("plain-progress");
    let _ = std::fs::remove_dir_all(&out);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_norn"))
        .args(["tournament", "hnefatafl", "--agents", "random", "greedy"])
        .args(["--games", "4", "--seed", "3", "--json", "--out"])
        .arg(&out)
        .env("NORN_PROGRESS_SECONDS", "0")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 4, "{stderr}");
    assert!(lines[3].starts_with("4/4 games, "), "{stderr}");

    let output = std::process::Command::new(env!("CARGO_BIN_EXE_norn"))
        .args(["winrate", "fenrir-path", "--policy", "random", "greedy"])
        .args(["--deals", "3", "--threads", "1"])
        .env("NORN_PROGRESS_SECONDS", "0")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("greedy: 6/6 deals, "), "{stderr}");
}

#[test]
fn a_match_writes_its_games_and_reports_like_a_tournament() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("match-out");
    let _ = std::fs::remove_dir_all(&out);
    let report = json(&norn(&[
        "match",
        "hnefatafl",
        "greedy",
        "random",
        "--sprt",
        "-20,20",
        "--max-games",
        "20",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]));
    let games = report["games"].as_u64().unwrap();
    let log = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(log.lines().count() as u64, games);
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["games_played"].as_u64(), Some(games));
    let wins: u64 = summary["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|agent| agent["spec"] == "greedy")
        .map(|agent| agent["wins"].as_u64().unwrap())
        .unwrap();
    assert_eq!(wins, report["wins"].as_u64().unwrap());
    assert!(out.join("report.md").exists() && out.join("ratings.svg").exists());
    // The test's result is kept, as the command printed it.
    let test = &summary["match"];
    for field in [
        "sprt",
        "decision",
        "llr",
        "llr_lower",
        "llr_upper",
        "games",
        "pairs",
        "pentanomial",
        "elo",
        "elo_low",
        "elo_high",
    ] {
        assert_eq!(test[field], report[field], "{field}");
    }
    assert_eq!(test["sprt"]["elo0"], -20.0);
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        markdown.starts_with("# hnefatafl match\n\n## Sequential test")
            && markdown.contains(&format!("LLR {:.2}", report["llr"].as_f64().unwrap()))
            && !markdown.contains("tournament"),
        "{markdown}"
    );
    // The log replays under the rules.
    let replay = json(&norn(&[
        "replay",
        "hnefatafl",
        out.join("games.jsonl").to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(replay["failures"].as_array().unwrap().len(), 0);
}

#[test]
fn a_run_records_its_build_and_every_agent_setting() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("provenance");
    let _ = std::fs::remove_dir_all(&out);
    let output = norn(&[
        "tournament",
        "hnefatafl",
        "--agents",
        "greedy",
        "alphabeta:depth=1",
        "--games",
        "2",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success());
    let stored = read_json(&out.join("config.json"));
    assert_eq!(stored["build"]["version"], env!("CARGO_PKG_VERSION"));
    let settings = stored["agent_configurations"].as_array().unwrap();
    assert_eq!(settings[0], "greedy");
    // The spec named the depth only; the defaults and the evaluation are
    // recorded too, as a spec that builds the same agent.
    assert_eq!(settings[1], "alphabeta:depth=1,tt=16,threads=1,eval=hand");
    // The rules with every option written out, and the same record in
    // summary.json and report.md.
    assert!(
        stored["rules_in_force"]
            .as_str()
            .unwrap()
            .contains("repetition="),
        "{stored}"
    );
    let provenance = |value: &serde_json::Value| {
        ["build", "agent_configurations", "rules_in_force"].map(|key| value[key].clone())
    };
    assert_eq!(
        provenance(&read_json(&out.join("summary.json"))),
        provenance(&stored)
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("## Provenance") && report.contains("tt=16"));

    // Merged shards keep their provenance.
    let shards: Vec<String> = (1..=2)
        .map(|shard| {
            let dir = out.join(format!("shard-{shard}"));
            let status = norn(&[
                "tournament",
                "hnefatafl",
                "--agents",
                "greedy",
                "alphabeta:depth=1",
                "--games",
                "4",
                "--json",
                "--shard",
                &format!("{shard}/2"),
                "--out",
                dir.to_str().unwrap(),
            ])
            .status;
            assert!(status.success());
            dir.to_str().unwrap().to_string()
        })
        .collect();
    let merged = out.join("merged");
    json(&norn(&[
        "merge",
        &shards[0],
        &shards[1],
        "--json",
        "--out",
        merged.to_str().unwrap(),
    ]));
    let shard_config = read_json(&out.join("shard-1/config.json"));
    assert_eq!(
        provenance(&read_json(&merged.join("config.json"))),
        provenance(&shard_config)
    );
    assert_eq!(
        provenance(&read_json(&merged.join("summary.json"))),
        provenance(&shard_config)
    );
}

#[test]
fn tournaments_start_from_openings_so_deterministic_agents_do_not_repeat_games() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-openings");
    let _ = std::fs::remove_dir_all(&dir);
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let tournament = |extra: &[&str], name: &str| {
        let out = out(name);
        let mut args = vec![
            "tournament",
            "hnefatafl",
            "--agents",
            "alphabeta:depth=1",
            "alphabeta:depth=2",
            "--games",
            "20",
            "--max-plies",
            "80",
            "--json",
            "--out",
            &out,
        ];
        args.extend_from_slice(extra);
        json(&norn(&args))
    };
    // By default the pairs take the built-in openings: every game differs.
    let varied = tournament(&[], "default");
    assert_eq!(varied["overall"]["games"], 20);
    assert_eq!(varied["overall"]["distinct_games"], 20, "{varied}");
    assert!(
        varied["openings"]
            .as_str()
            .unwrap()
            .contains("100 openings")
    );
    let log = std::fs::read_to_string(dir.join("default/games.jsonl")).unwrap();
    assert!(log.lines().all(|line| line.contains("\"opening\"")));
    // From the game's start, the two deterministic agents replay two games.
    let repeated = tournament(&["--no-openings"], "start");
    assert_eq!(repeated["overall"]["distinct_games"], 2, "{repeated}");

    // An openings file: a bad line is named; a good file is played.
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\nh1-h3 f8-i8\n\nd1-d3 f4-f2x\n").unwrap();
    assert_fails_with(
        &[
            "tournament",
            "hnefatafl",
            "--agents",
            "random",
            "greedy",
            "--openings",
            file.to_str().unwrap(),
            "--out",
            &out("bad"),
        ],
        "openings.txt: line 4: neither a position",
    );
    std::fs::write(&file, "# two openings\nh1-h3 f8-i8\n\nd1-d3\n").unwrap();
    let from_file = tournament(
        &[
            "--openings",
            file.to_str().unwrap(),
            "--openings-order",
            "random",
        ],
        "file",
    );
    assert_eq!(from_file["overall"]["distinct_games"], 4, "{from_file}");

    // A resume with other openings is refused.
    let random = |plies: &str| {
        norn(&[
            "tournament",
            "hnefatafl",
            "--agents",
            "random",
            "greedy",
            "--games",
            "2",
            "--random-plies",
            plies,
            "--out",
            &out("random"),
        ])
    };
    assert!(random("2").status.success());
    let refused = random("3");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("different openings"));
    assert_fails_with(
        &[
            "match",
            "hnefatafl",
            "random",
            "greedy",
            "--sprt",
            "0,10",
            "--random-plies",
            "100000",
        ],
        "random plies must be from 1 to 200",
    );
}

#[test]
fn a_match_counts_a_repeated_pair_once_and_stops_when_only_repeats_come() {
    // From the game's start two alpha-beta depths play one game per
    // seating, again and again: one pair of evidence, never H1.
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("match-repeats");
    let _ = std::fs::remove_dir_all(&out);
    let report = json(&norn(&[
        "match",
        "hnefatafl",
        "alphabeta:depth=2",
        "alphabeta:depth=1",
        "--sprt",
        "0,30",
        "--no-openings",
        "--threads",
        "2",
        "--max-plies",
        "100",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert_eq!(report["decision"], "continue", "{report}");
    assert_eq!(report["pairs"], 1, "{report}");
    assert_eq!(report["repeated_pairs"], 1, "{report}");
    assert_eq!(report["stopped_repeating"], true, "{report}");
    let summary = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(summary.contains("1 pair that repeated"), "{summary}");
    // With the built-in openings the same match has new pairs to count.
    let varied = json(&norn(&[
        "match",
        "hnefatafl",
        "alphabeta:depth=2",
        "alphabeta:depth=1",
        "--sprt",
        "0,30",
        "--max-games",
        "8",
        "--max-plies",
        "100",
        "--json",
    ]));
    assert_eq!(varied["repeated_pairs"], 0, "{varied}");
    assert!(varied["pairs"].as_u64().unwrap() > 1, "{varied}");
}

#[test]
fn presets_reach_every_command_that_builds_agents() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("preset");
    let _ = std::fs::remove_dir_all(&out);
    let output = norn(&[
        "tournament",
        "koom-valley",
        "--agents",
        "mcts:preset=best,iters=30",
        "greedy",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    let stored = read_json(&out.join("config.json"));
    // The run records what the preset stood for: best-first minimax with
    // its tempo bonus.
    let mcts = stored["agent_configurations"][0].as_str().unwrap();
    assert!(
        mcts.starts_with("mcts:iters=30,")
            && mcts.contains(",expand=all,pick=value,")
            && mcts.ends_with(",tempo=0.04"),
        "{mcts}"
    );
    // These errors show that each command reads presets.
    assert_fails_with(
        &[
            "play",
            "thud",
            "--dwarfs",
            "alphabeta:preset=best",
            "--trolls",
            "random",
        ],
        "no ladder has measured best settings of `alphabeta` on thud (presets: mcts)",
    );
    assert_fails_with(
        &["engine", "hnefatafl", "--agent", "mcts:preset=fastest"],
        "`preset` takes `best`, not `fastest`",
    );
    assert_fails_with(
        &["winrate", "fenrir-path", "--policy", "mcts:preset=best"],
        "no ladder has measured best settings on fenrir-path",
    );
}

#[test]
fn a_gauntlet_of_a_challenger_against_one_baseline_listed_twice() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gauntlet-cli");
    let _ = std::fs::remove_dir_all(&out);
    let summary = json(&norn(&[
        "tournament",
        "hnefatafl",
        "--gauntlet",
        "greedy",
        "--agents",
        "random",
        "random",
        "--games",
        "2",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(summary["gauntlet"], true, "{summary}");
    assert_eq!(summary["anchor"], "random", "{summary}");
    assert_eq!(summary["games_scheduled"], 4, "{summary}");
    let names: Vec<&str> = summary["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|agent| agent["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["greedy", "random", "random #2"]);
    let opponents: Vec<&str> = summary["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pairing| pairing["agents"][1].as_str().unwrap())
        .collect();
    assert_eq!(opponents, ["random", "random #2"]);
    let stored = read_json(&out.join("config.json"));
    assert_eq!(stored["agents"][0], "greedy");
    assert_eq!(stored["gauntlet"], true);
}

#[test]
fn agents_named_in_their_specs_go_by_their_names_in_every_report() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("named-agents");
    let _ = std::fs::remove_dir_all(&out);
    let summary = json(&norn(&[
        "tournament",
        "hnefatafl",
        "--agents",
        "alphabeta:name=shallow,depth=1",
        "random:name=noise",
        "random",
        "--anchor",
        "noise",
        "--games",
        "2",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]));
    let names: Vec<&str> = summary["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|agent| agent["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["shallow", "noise", "random"]);
    assert_eq!(summary["anchor"], "noise");
    assert_eq!(summary["pairings"][0]["agents"][0], "shallow");
    // The spec that built the agent is kept beside the name.
    assert_eq!(
        summary["agents"][0]["spec"],
        "alphabeta:name=shallow,depth=1"
    );
    assert!(
        summary["agent_configurations"][0]
            .as_str()
            .unwrap()
            .starts_with("alphabeta:depth=1,"),
        "{summary}"
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("| `shallow` | `noise` |"), "{report}");
    let svg = std::fs::read_to_string(out.join("ratings.svg")).unwrap();
    assert!(
        svg.contains(">shallow<") && svg.contains("anchor noise = 0"),
        "{svg}"
    );
    // Two agents may not share a name, and a name is checked like any input.
    assert_fails_with(
        &[
            "tournament",
            "hnefatafl",
            "--agents",
            "random:name=a",
            "greedy:name=a",
        ],
        "two agents would both be called `a`",
    );
    assert_fails_with(
        &[
            "tournament",
            "hnefatafl",
            "--agents",
            "random:name=a\u{1b}[2J",
            "greedy",
        ],
        "\\u{1b}",
    );
    assert_fails_with(
        &[
            "tournament",
            "hnefatafl",
            "--agents",
            "random:name=a|b",
            "greedy",
        ],
        "`|`",
    );
}
