//! Adjudication (`--adjudicate`): games ended early where both searchers'
//! scores agree, recorded with their reason, kept in config.json and the
//! reports, honoured by resumes and checked by replays; off by default and
//! refused where it cannot be honoured.

use crate::common::cli::{assert_fails_with, norn, read_json, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};

const ADJUDICATE: &str =
    "resign-moves=3,resign-score=0.3,draw-moves=4,draw-score=0.1,draw-after=10";

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs the adjudicated tournament of these tests into `out`, with
/// `adjudicate` as its adjudication.
fn tournament(out: &Path, adjudicate: &str) -> std::process::Output {
    norn(&[
        "tournament",
        "hnefatafl",
        "--agents",
        "alphabeta:depth=2",
        "alphabeta:depth=1",
        "--games",
        "8",
        "--threads",
        "2",
        "--adjudicate",
        adjudicate,
        "--out",
        out.to_str().unwrap(),
    ])
}

fn games(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Per ply of a logged game, the deciding seat and its score.
fn scores(game: &Value) -> Vec<(usize, f64)> {
    game["search"]
        .as_array()
        .unwrap()
        .iter()
        .map(|ply| {
            (
                ply["seat"].as_u64().unwrap() as usize,
                ply["score"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// Whether, after the first `plies` plies of `scores`, each seat's last
/// `moves` scores all pass `test` (its seat, its score).
fn last_moves_all(
    scores: &[(usize, f64)],
    plies: usize,
    moves: usize,
    test: impl Fn(usize, f64) -> bool,
) -> bool {
    (0..2).all(|seat| {
        let own: Vec<f64> = scores[..plies]
            .iter()
            .filter(|(mover, _)| *mover == seat)
            .map(|&(_, score)| score)
            .collect();
        own.len() >= moves && own[own.len() - moves..].iter().all(|&s| test(seat, s))
    })
}

/// Whether this run's adjudication calls for an end after `plies` plies.
fn adjudicable(scores: &[(usize, f64)], plies: usize) -> bool {
    let resign = (0..2).any(|loser| {
        last_moves_all(scores, plies, 3, |seat, score| match seat == loser {
            true => score <= -0.3,
            false => score >= 0.3,
        })
    });
    let draw = plies >= 10 && last_moves_all(scores, plies, 4, |_, score| score.abs() <= 0.1);
    resign || draw
}

#[test]
fn adjudicated_games_end_where_both_searchers_agree_and_resumes_and_replays_check_them() {
    let out = scratch_dir("adjudicated");
    let output = tournament(&out, ADJUDICATE);
    assert!(output.status.success(), "{output:?}");
    let logged = games(&out);
    let reason = |game: &Value| game["reason"].as_str().unwrap().to_string();
    let count = |wanted: &str| logged.iter().filter(|game| reason(game) == wanted).count();
    assert!(count("adjudicated-resignation") >= 1, "{logged:?}");
    assert!(count("adjudicated-draw") >= 1, "{logged:?}");
    for game in &logged {
        let scores = scores(game);
        let plies = scores.len();
        let payoffs: Vec<f64> = game["payoffs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_f64().unwrap())
            .collect();
        match reason(game).as_str() {
            "adjudicated-resignation" => {
                // The loser is the seat whose own scores were the lost ones.
                let loser = usize::from(payoffs[1] < payoffs[0]);
                assert!(
                    last_moves_all(&scores, plies, 3, |seat, score| match seat == loser {
                        true => score <= -0.3,
                        false => score >= 0.3,
                    }),
                    "{game}"
                );
            }
            "adjudicated-draw" => {
                assert_eq!(payoffs, [0.0, 0.0]);
                assert!(adjudicable(&scores, plies), "{game}");
            }
            _ => {}
        }
        // No game went on past a ply at which adjudication called for an end.
        assert!(
            (1..plies).all(|ply| !adjudicable(&scores, ply)),
            "{game} went on"
        );
    }
    let config = read_json(&out.join("config.json"));
    assert_eq!(
        config["adjudication"],
        "resign-moves=3,resign-score=0.3,draw-moves=4,draw-score=0.1,draw-after=10"
    );
    assert_eq!(
        read_json(&out.join("summary.json"))["adjudication"],
        config["adjudication"]
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("- adjudication: `resign-moves=3"),
        "{report}"
    );
    assert!(report.contains("adjudicated-draw"), "{report}");

    // The same command resumes the run; another adjudication is another run.
    let resumed = tournament(&out, ADJUDICATE);
    assert!(stdout(&resumed).contains("0 games played now, 8 read back"));
    let other = tournament(&out, "resign-moves=4");
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("different adjudication"),
        "{other:?}"
    );
    // The log replays under the rules.
    let replay = norn(&[
        "replay",
        "hnefatafl",
        out.join("games.jsonl").to_str().unwrap(),
    ]);
    assert!(
        stdout(&replay).contains("0 games that do not replay"),
        "{replay:?}"
    );
}

#[test]
fn a_match_says_on_the_console_which_games_were_adjudicated() {
    let output = norn(&[
        "match",
        "hnefatafl",
        "alphabeta:depth=2",
        "alphabeta:depth=1",
        "--sprt",
        "0,10",
        "--max-games",
        "8",
        "--threads",
        "2",
        "--adjudicate",
        ADJUDICATE,
    ]);
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    // With these searchers and thresholds some games end by adjudication.
    let ends = text
        .lines()
        .find_map(|line| line.strip_prefix("game ends: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(ends.contains("adjudicated-"), "{text}");
}

/// `out`'s log with `edit` applied to the first game ended by `reason`,
/// written to a copy of the run at `forged`.
fn forge(out: &Path, forged: &Path, reason: &str, edit: impl Fn(&mut Value)) {
    std::fs::create_dir_all(forged).unwrap();
    for file in ["config.json", "openings.txt"] {
        std::fs::copy(out.join(file), forged.join(file)).unwrap();
    }
    let mut edited = false;
    let lines: Vec<String> = games(out)
        .into_iter()
        .map(|mut game| {
            if !edited && game["reason"] == reason {
                edit(&mut game);
                edited = true;
            }
            game.to_string()
        })
        .collect();
    assert!(edited, "no game ended by {reason}");
    std::fs::write(forged.join("games.jsonl"), lines.join("\n") + "\n").unwrap();
}

#[test]
fn a_resume_refuses_games_that_end_elsewhere_than_their_adjudication() {
    let out = scratch_dir("adjudicated-forged-source");
    assert!(tournament(&out, ADJUDICATE).status.success());
    // An adjudicated game whose last score no longer calls for its end.
    let forged = scratch_dir("adjudicated-forged-end");
    forge(&out, &forged, "adjudicated-resignation", |game| {
        let last = game["search"].as_array_mut().unwrap().last_mut().unwrap();
        last["score"] = 0.0.into();
    });
    let refused = tournament(&forged, ADJUDICATE);
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(error.contains("call for no adjudication"), "{error}");
    // A game that ended by the rules, whose scores called for a loss long
    // before.
    let forged = scratch_dir("adjudicated-forged-late");
    forge(&out, &forged, "escape", |game| {
        for ply in game["search"].as_array_mut().unwrap() {
            let seat = ply["seat"].as_u64().unwrap();
            ply["score"] = (if seat == 0 { -1.0 } else { 1.0 }).into();
        }
    });
    let refused = tournament(&forged, ADJUDICATE);
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(
        error.contains("call for seat 0's loss after 6 plies, but it went on"),
        "{error}"
    );
}

#[test]
fn adjudication_is_off_by_default_and_refused_where_it_cannot_be_honoured() {
    let out = scratch_dir("not-adjudicated");
    let output = norn(&[
        "tournament",
        "hnefatafl",
        "--agents",
        "alphabeta:depth=1",
        "random",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(read_json(&out.join("config.json"))["adjudication"].is_null());
    assert!(read_json(&out.join("summary.json"))["adjudication"].is_null());
    let base = ["tournament", "hnefatafl", "--games", "2", "--adjudicate"];
    for (options, problem) in [
        ("resign-score=0.5", "needs resign-moves or draw-moves"),
        ("resign-moves=2,resign-score=0", "above 0"),
        (
            "draw-moves=2,draw-score=1.5",
            "`draw-score` must be from 0 to 1",
        ),
        (
            "resign-moves=2,draw-moves=2,draw-score=0.95",
            "must be below",
        ),
        ("draw-moves=\u{1b}[2J", "\\u{1b}"),
    ] {
        let args: Vec<&str> = base.iter().copied().chain([options]).collect();
        let output = norn(&args);
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success() && error.contains(problem),
            "{options}: {error}"
        );
        assert!(!error.contains('\u{1b}'), "{error}");
    }
    assert_fails_with(
        &[
            "match",
            "thud",
            "greedy",
            "random",
            "--sprt",
            "0,10",
            "--adjudicate",
            "draw-moves=3",
        ],
        "thud is scored by a margin",
    );
    assert_fails_with(
        &[
            "tournament",
            "hnefatafl",
            "--adjudicate",
            "resign-moves=3",
            "--record-search",
            "off",
        ],
        "--record-search on",
    );
}
