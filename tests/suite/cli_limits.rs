//! What the machine cannot give, and input that used to slip through, is
//! refused with one clear line before any work starts.

use crate::common::cli::{assert_fails_with, norn};

#[test]
fn thread_counts_beyond_the_machine_are_refused() {
    for command in [
        &["perft", "hnefatafl", "--depth", "2", "--threads", "100000"][..],
        &[
            "tournament",
            "hnefatafl",
            "--agents",
            "random",
            "greedy",
            "--threads",
            "100000",
        ],
        &[
            "winrate",
            "fenrir-path",
            "--policy",
            "random",
            "--threads",
            "100000",
        ],
    ] {
        assert_fails_with(command, "at most");
    }
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "mcts:threads=100000",
            "--defenders",
            "random",
        ],
        "`threads` must be from 1 to",
    );
}

#[test]
fn huge_runs_are_refused_before_anything_is_written() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("huge-tournament");
    let _ = std::fs::remove_dir_all(&out);
    assert_fails_with(
        &[
            "tournament",
            "hnefatafl",
            "--agents",
            "random",
            "greedy",
            "--games",
            "1000000000000",
            "--out",
            out.to_str().unwrap(),
        ],
        "games a run may hold",
    );
    assert!(!out.exists(), "nothing may be written for a refused run");
    for deals in ["1000000000000", "18446744073709551615"] {
        assert_fails_with(
            &[
                "winrate",
                "fenrir-path",
                "--policy",
                "random",
                "--deals",
                deals,
            ],
            "number of deals must be from 1 to",
        );
    }
}

#[test]
fn tables_and_trees_larger_than_the_machine_are_refused() {
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "alphabeta:tt=1048576",
            "--defenders",
            "random",
        ],
        "memory",
    );
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "mcts:nodes=4294967294",
            "--defenders",
            "random",
        ],
        "memory",
    );
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "mcts:nodes=99999999999",
            "--defenders",
            "random",
        ],
        "`nodes` must be from 1 to",
    );
}

#[test]
fn an_mcts_tree_of_one_node_still_chooses_its_moves() {
    let output = norn(&[
        "play",
        "koom-valley",
        "--dwarfs",
        "mcts:iters=10,nodes=1,playout=4",
        "--trolls",
        "random",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn empty_matches_are_refused() {
    assert_fails_with(
        &[
            "match",
            "hnefatafl",
            "random",
            "greedy",
            "--sprt",
            "0,30",
            "--max-games",
            "0",
        ],
        "at least one colour-swapped pair",
    );
}

#[test]
fn searches_that_cannot_finish_are_refused() {
    assert_fails_with(&["perft", "hnefatafl", "--depth", "65"], "at most 64");
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "mcts:iters=1000000000000",
            "--defenders",
            "random",
        ],
        "`iters` must be from 1 to 1000000000",
    );
    assert_fails_with(
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "alphabeta:depth=101",
            "--defenders",
            "random",
        ],
        "`depth` must be from 1 to 100",
    );
}

#[test]
fn a_number_of_a_hundred_thousand_digits_gives_a_short_error() {
    let digits = "9".repeat(100_000);
    let spec = format!("mcts:iters={digits}");
    let rules = format!("ply-limit={digits}");
    for command in [
        &[
            "play",
            "hnefatafl",
            "--attackers",
            &spec,
            "--defenders",
            "random",
        ][..],
        &["tournament", "thud", "--rules", &rules],
        &["tournament", "--games", &digits],
        &["perft", "hnefatafl", &digits],
    ] {
        let output = norn(command);
        assert!(!output.status.success());
        let error = String::from_utf8_lossy(&output.stderr);
        assert_eq!(error.lines().count(), 1, "{}: {error:.300}", command[0]);
        assert!(error.len() < 400, "{}: {} bytes", command[0], error.len());
        assert!(error.contains(&"9".repeat(80)), "{error}");
    }
}

/// The command that runs `norn` with `args` under an address-space limit
/// of `kilobytes` (`ulimit -v`), as a user on a shared machine may be held.
fn norn_command_within_address_space(kilobytes: u64, args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -v {kilobytes} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_norn"))
        .args(args);
    command
}

/// Runs `norn` with `args` under an address-space limit of `kilobytes`.
fn norn_within_address_space(kilobytes: u64, args: &[&str]) -> std::process::Output {
    norn_command_within_address_space(kilobytes, args)
        .output()
        .expect("sh runs")
}

/// glibc reserves 64 MB of address space for each thread's allocation
/// arena, which an address-space limit counts although nothing is held
/// there. Under such a limit norn's threads share one arena, so a page
/// that reads its log on every core fits in the limit the same page needs
/// with one arena asked for by hand (`MALLOC_ARENA_MAX=1`).
#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn under_an_address_space_limit_the_threads_reserve_no_arenas_of_their_own() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("one-arena");
    let _ = std::fs::remove_dir_all(&out);
    let run = out.to_str().unwrap();
    let played = norn(&[
        "tournament",
        "hnefatafl",
        "--agents",
        "random",
        "random",
        "--games",
        "200",
        "--max-plies",
        "20",
        "--threads",
        "1",
        "--out",
        run,
    ]);
    assert!(played.status.success(), "{played:?}");
    let page_fits = |kib: u64, arenas: Option<&str>| {
        let mut command = norn_command_within_address_space(kib, &["view", run]);
        match arenas {
            Some(count) => command.env("MALLOC_ARENA_MAX", count),
            None => command.env_remove("MALLOC_ARENA_MAX"),
        };
        command.output().expect("sh runs").status.success()
    };
    // The smallest limit, within 4 MiB, under which one arena makes the page.
    let (mut too_small, mut enough) = (16u64 << 10, 4u64 << 20);
    assert!(page_fits(enough, Some("1")), "4 GiB of address space");
    while enough - too_small > 4 << 10 {
        let middle = (too_small + enough) / 2;
        if page_fits(middle, Some("1")) {
            enough = middle;
        } else {
            too_small = middle;
        }
    }
    let allowed = enough + (16 << 10);
    assert!(
        page_fits(allowed, None),
        "one arena makes the page within {} MiB, norn on its own not within {} MiB",
        enough >> 10,
        allowed >> 10
    );
}

/// Asserts that `output` is a refusal: status 1 (not 134, an abort), one
/// line on standard error mentioning `expected`.
fn assert_refused(output: &std::process::Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(expected), "{stderr}");
}

/// Under an address-space limit, a table the machine's memory would hold
/// but the process cannot is refused by name, not left to abort the run
/// when its allocation fails.
#[test]
#[cfg(target_os = "linux")]
fn tables_beyond_the_address_space_limit_are_refused() {
    let output = norn_within_address_space(
        1 << 20,
        &[
            "play",
            "hnefatafl",
            "--attackers",
            "alphabeta:tt=2048,depth=1",
            "--defenders",
            "random",
        ],
    );
    assert_refused(&output, "address space, ulimit -v");
}

/// A run holds every agent's table in every game it plays at once: two
/// tables that fit alone, played in two games at once, are refused.
#[test]
#[cfg(target_os = "linux")]
fn a_run_counts_the_tables_of_every_game_it_plays_at_once() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tables-at-once");
    refused_at_two_games_at_once_and_played_alone(
        &out,
        4 << 20,
        &[
            "hnefatafl",
            "--agents",
            "alphabeta:tt=512,depth=1",
            "alphabeta:tt=1024,depth=1",
            "--max-plies",
            "2",
        ],
    );
    // The trees of simultaneous-move MCTS count as tables do: two agents
    // of 600,000 nodes (of up to 1 KiB each) in one game fit in half of 3
    // GiB, in two games at once they do not.
    refused_at_two_games_at_once_and_played_alone(
        &out,
        3 << 20,
        &[
            "nibelungen",
            "--agents",
            "smmcts:nodes=600000,iters=10",
            "smmcts:nodes=600000,iters=20",
            "--max-plies",
            "1",
        ],
    );
}

/// A two-game tournament (`game_and_agents` its game, agents and other
/// options) into `out` under an address-space limit of `kib` KiB: refused
/// on two threads before it writes anything, played on one.
#[cfg(target_os = "linux")]
fn refused_at_two_games_at_once_and_played_alone(
    out: &std::path::Path,
    kib: u64,
    game_and_agents: &[&str],
) {
    let _ = std::fs::remove_dir_all(out);
    let tournament = |threads: &str| {
        let mut args = vec!["tournament"];
        args.extend_from_slice(game_and_agents);
        args.extend_from_slice(&[
            "--games",
            "2",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ]);
        norn_within_address_space(kib, &args)
    };
    assert_refused(&tournament("2"), "2 games at a time");
    assert!(!out.join("config.json").exists());
    let alone = tournament("1");
    assert!(
        alone.status.success(),
        "{}",
        String::from_utf8_lossy(&alone.stderr)
    );
}

/// A depth-first solve of more rounds than can fit is refused at once,
/// pointing to the retrograde solve, instead of growing until the memory
/// runs out and the process aborts.
#[test]
fn a_depth_first_solve_too_big_to_fit_is_refused_at_once() {
    assert_fails_with(
        &["solve", "nibelungen", "--rounds", "3", "--budget", "1000"],
        "--retrograde",
    );
    assert_fails_with(
        &[
            "solve",
            "nibelungen",
            "--rounds",
            "30",
            "--budget",
            "10000000",
        ],
        "growing 300-fold a round",
    );
    #[cfg(target_os = "linux")]
    assert_refused(
        &norn_within_address_space(400_000, &["solve", "nibelungen", "--rounds", "30"]),
        "--retrograde",
    );
    assert_fails_with(
        &["solve", "nibelungen", "--retrograde", "--budget", "1000"],
        "--budget",
    );
}

/// Rules under which a game need never end, and a cap of no plies, are
/// refused.
#[test]
fn games_that_cannot_end_and_caps_of_no_plies_are_refused() {
    assert_fails_with(
        &[
            "show",
            "stealth-chess",
            "--rules",
            "repetition=off,fifty-moves=off,insufficient-material=off",
        ],
        "ply-limit",
    );
    let output = norn(&[
        "show",
        "stealth-chess",
        "--rules",
        "repetition=off,fifty-moves=off,insufficient-material=off,ply-limit=500",
    ]);
    assert!(output.status.success());
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-plies");
    let out = out.to_str().unwrap();
    let tournament = ["tournament", "hnefatafl", "--agents", "random", "greedy"];
    let match_games = ["match", "hnefatafl", "random", "greedy", "--sprt", "0,10"];
    for command in [&tournament[..], &match_games[..]] {
        let _ = std::fs::remove_dir_all(out);
        let mut args = command.to_vec();
        args.extend(["--max-plies", "0", "--out", out]);
        let output = norn(&args);
        assert!(!output.status.success(), "{command:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--max-plies"), "{command:?}: {stderr}");
        assert!(!std::path::Path::new(out).join("config.json").exists());
    }
}

#[test]
fn a_missing_argument_is_named() {
    let output = norn(&["winrate", "fenrir-path"]);
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("--policy"), "{error}");
    assert_eq!(error.lines().count(), 1, "{error}");
}

/// The oracle's table is checked with every other resource before the
/// run writes anything: a table the process cannot hold is a refusal, not
/// a forfeit at the oracle's first move logged as a lost game.
#[test]
#[cfg(target_os = "linux")]
fn an_oracle_whose_table_cannot_fit_is_refused_before_anything_is_written() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("oracle-too-big");
    let _ = std::fs::remove_dir_all(&out);
    // The default rules' 30 rounds take 33 layers of 144 MB to compute.
    let output = norn_within_address_space(
        4 << 20,
        &[
            "tournament",
            "nibelungen",
            "--agents",
            "random",
            "oracle",
            "--games",
            "2",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_refused(&output, "the retrograde tables");
    assert!(!out.join("config.json").exists());
    assert!(!out.join("games.jsonl").exists());
    // A saved table is measured by its header: 40 layers (a sparse file of
    // 5.4 GiB) do not fit in half of 4 GiB.
    use norn::companions::nibelungen::retrograde::RetrogradeTable;
    let table = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("forty-layers.table");
    let header = format!(
        "norn nibelungen retrograde table 1\n{}\n1 40 0\n",
        norn::games::nibelungen::NibelungenRules::default()
    );
    std::fs::write(&table, &header).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&table)
        .unwrap()
        .set_len(header.len() as u64 + 40 * RetrogradeTable::LAYER_BYTES)
        .unwrap();
    let spec = format!("oracle:table={}", table.display());
    let output = norn_within_address_space(
        4 << 20,
        &[
            "tournament",
            "nibelungen",
            "--agents",
            "random",
            &spec,
            "--games",
            "2",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let needed = format!(
        "the retrograde table needs {} MB",
        (40 * RetrogradeTable::LAYER_BYTES) >> 20
    );
    assert_refused(&output, &needed);
    assert!(!out.join("config.json").exists());
}
