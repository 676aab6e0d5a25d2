//! Tournaments: the same games for any thread count, shards and resumed runs
//! that add up to one run, logs that replay, and ratings and tests that work.

use crate::common::cli::read_json;
use norn::agents::{Agent, AgentError, Decision, RandomAgent};
use norn::arena::{
    GameLine, Openings, RunOptions, RunResult, Shard, TournamentConfig, TournamentSummary,
    Unwatched, check_line, merge_directories, replay_line, run_tournament, write_reports,
};
use norn::core::{Game, GameRng, MoveList, ParseError, Player, rng_from_seed};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use rand::RngExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Captures whenever it can, otherwise plays at random: clearly stronger than random.
struct CaptureFirst {
    rng: GameRng,
    moves: MoveList<norn::games::hnefatafl::HnefataflMove>,
}

impl Agent<Hnefatafl> for CaptureFirst {
    fn spec(&self) -> &str {
        "capture-first"
    }

    fn decide(
        &mut self,
        state: &Hnefatafl,
        _player: Player,
    ) -> Result<Decision<norn::games::hnefatafl::HnefataflMove>, AgentError> {
        state.legal_moves(&mut self.moves);
        let capturing: Vec<_> = self
            .moves
            .iter()
            .copied()
            .filter(|&mv| {
                let (soldiers, king) = state.captures_of(mv);
                soldiers.any() || king
            })
            .collect();
        let pool: &[_] = if capturing.is_empty() {
            &self.moves
        } else {
            &capturing
        };
        Ok(Decision::Play(pool[self.rng.random_range(0..pool.len())]))
    }
}

fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Hnefatafl>>, ParseError> {
    match spec {
        "random" | "random-too" => Ok(Box::new(RandomAgent::new(seed))),
        "capture-first" => Ok(Box::new(CaptureFirst {
            rng: rng_from_seed(seed),
            moves: MoveList::new(),
        })),
        _ => Err(ParseError::new("agent spec", spec, "unknown agent")),
    }
}

fn config() -> TournamentConfig {
    TournamentConfig {
        game: "hnefatafl".into(),
        rules: String::new(),
        agents: vec!["random".into(), "capture-first".into()],
        games_per_pair: 12,
        seed: 42,
        max_plies: Some(300),
        anchor: None,
        gauntlet: false,
        time_control: None,
        adjudication: None,
        openings: Openings::Start,
    }
}

fn start() -> Hnefatafl {
    Hnefatafl::new(HnefataflRules::default())
}

/// A fresh, empty directory under the target directory.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(
    config: &TournamentConfig,
    threads: usize,
    shard: Shard,
    out: Option<PathBuf>,
    stop: &AtomicBool,
) -> RunResult {
    let options = RunOptions {
        record_search: false,
        threads,
        shard,
        out_dir: out,
        stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    run_tournament(config, &start(), &make_agent, &options).unwrap()
}

fn summary_json(config: &TournamentConfig, games: &[GameLine]) -> String {
    serde_json::to_string(&TournamentSummary::compute(config, games, false)).unwrap()
}

#[test]
fn the_thread_count_does_not_change_the_games() {
    let stop = AtomicBool::new(false);
    let one = run(&config(), 1, Shard::ALL, None, &stop);
    let two = run(&config(), 2, Shard::ALL, None, &stop);
    assert_eq!(one.games, two.games);
    assert_eq!(
        summary_json(&config(), &one.games),
        summary_json(&config(), &two.games)
    );
    assert_eq!(one.games.len(), 12);
}

#[test]
fn two_shards_merged_give_the_summary_of_one_run() {
    let stop = AtomicBool::new(false);
    let whole = run(&config(), 2, Shard::ALL, None, &stop);
    let first = scratch_dir("shard-1-of-2");
    let second = scratch_dir("shard-2-of-2");
    let a = run(
        &config(),
        2,
        Shard::parse("1/2").unwrap(),
        Some(first.clone()),
        &stop,
    );
    let b = run(
        &config(),
        1,
        Shard::parse("2/2").unwrap(),
        Some(second.clone()),
        &stop,
    );
    assert!(!a.games.is_empty() && !b.games.is_empty());
    assert_eq!(a.games.len() + b.games.len(), whole.games.len());
    let merged = merge_directories(&[first, second], false).unwrap();
    let (merged_config, merged) = (merged.config, merged.games);
    assert_eq!(merged_config, config());
    assert_eq!(
        summary_json(&config(), &merged),
        summary_json(&config(), &whole.games)
    );
}

#[test]
fn an_interrupted_run_resumes_to_the_same_result() {
    let dir = scratch_dir("interrupted");
    let stop = AtomicBool::new(false);
    let started = AtomicUsize::new(0);
    // Raise the stop flag once four games have started (two agents per game).
    let interrupting = |spec: &str, seed: u64| {
        if started.fetch_add(1, Ordering::SeqCst) >= 8 {
            stop.store(true, Ordering::SeqCst);
        }
        make_agent(spec, seed)
    };
    let options = RunOptions {
        record_search: false,
        threads: 2,
        shard: Shard::ALL,
        out_dir: Some(dir.clone()),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    let partial = run_tournament(&config(), &start(), &interrupting, &options).unwrap();
    assert!(partial.missing > 0, "the run should have been cut short");
    assert!(!partial.games.is_empty());

    let calm = AtomicBool::new(false);
    let resumed = run(&config(), 2, Shard::ALL, Some(dir), &calm);
    assert_eq!(resumed.missing, 0);
    assert_eq!(resumed.resumed, partial.games.len());
    let whole = run(&config(), 1, Shard::ALL, None, &calm);
    assert_eq!(resumed.games, whole.games);
}

#[test]
fn a_half_written_last_line_is_played_again() {
    let dir = scratch_dir("torn");
    let stop = AtomicBool::new(false);
    let whole = run(&config(), 2, Shard::ALL, Some(dir.clone()), &stop);
    // Cut the log in the middle of its last line, as a crash during a write would.
    let log = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let last_start = text[..text.len() - 1].rfind('\n').unwrap() + 1;
    std::fs::write(&log, &text[..last_start + (text.len() - last_start) / 2]).unwrap();

    let repaired = run(&config(), 2, Shard::ALL, Some(dir.clone()), &stop);
    assert!(repaired.repaired_torn_line);
    assert_eq!(repaired.resumed, whole.games.len() - 1);
    assert_eq!(repaired.games, whole.games);
    assert_eq!(
        std::fs::read_to_string(&log).unwrap().lines().count(),
        whole.games.len()
    );
}

#[test]
fn a_corrupt_line_in_the_middle_is_an_error_not_skipped() {
    let dir = scratch_dir("corrupt");
    let stop = AtomicBool::new(false);
    run(&config(), 2, Shard::ALL, Some(dir.clone()), &stop);
    let log = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, text.replacen("{\"index\"", "{\"idx\"", 1)).unwrap();
    let options = RunOptions {
        record_search: false,
        threads: 1,
        shard: Shard::ALL,
        out_dir: Some(dir),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    let error = run_tournament(&config(), &start(), &make_agent, &options)
        .err()
        .unwrap();
    assert!(error.to_string().contains("line 1"), "{error}");
}

#[test]
fn a_directory_of_another_tournament_is_refused() {
    let dir = scratch_dir("other");
    let stop = AtomicBool::new(false);
    run(&config(), 2, Shard::ALL, Some(dir.clone()), &stop);
    let different = TournamentConfig {
        seed: 7,
        ..config()
    };
    let options = RunOptions {
        record_search: false,
        threads: 1,
        shard: Shard::ALL,
        out_dir: Some(dir),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    let error = run_tournament(&different, &start(), &make_agent, &options)
        .err()
        .unwrap();
    assert!(error.to_string().contains("seed"), "{error}");
}

#[test]
fn every_logged_game_replays_to_its_recorded_result() {
    let dir = scratch_dir("replay");
    let stop = AtomicBool::new(false);
    let result = run(&config(), 2, Shard::ALL, Some(dir.clone()), &stop);
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let logged: Vec<GameLine> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(logged.len(), result.games.len());
    for line in &logged {
        replay_line(&start(), line).unwrap();
    }
    // A log that claims another ending is caught.
    let mut forged = logged[0].clone();
    forged.reason = "forged".into();
    assert!(replay_line(&start(), &forged).is_err());
}

#[test]
fn colour_swapped_pairs_share_a_seed_and_the_stronger_agent_rates_higher() {
    let stop = AtomicBool::new(false);
    let result = run(&config(), 2, Shard::ALL, None, &stop);
    for pair in result.games.chunks(2) {
        assert_eq!(pair[0].seed, pair[1].seed);
        assert_eq!(pair[0].seats, [pair[1].seats[1], pair[1].seats[0]]);
    }
    let summary = TournamentSummary::compute(&config(), &result.games, false);
    assert_eq!(summary.agents[0].elo, 0.0, "the first agent is the anchor");
    assert!(summary.agents[1].elo > 0.0, "{:?}", summary.agents);
    let agent = &summary.agents[1];
    assert_eq!(agent.wins + agent.draws + agent.losses, agent.games);
    assert_eq!(
        summary.overall.first_player_wins
            + summary.overall.second_player_wins
            + summary.overall.draws,
        12
    );
    let sides: usize = agent.by_side.iter().map(|side| side.record.games).sum();
    assert_eq!(sides, agent.games);
}

#[test]
fn the_reports_written_by_the_library_hold_the_summary() {
    let dir = scratch_dir("reports");
    std::fs::create_dir_all(&dir).unwrap();
    let stop = AtomicBool::new(false);
    let result = run(&config(), 2, Shard::ALL, None, &stop);
    let summary = TournamentSummary::compute(&config(), &result.games, false);
    write_reports(&dir, &summary).unwrap();

    // Both sides are read from the numbers' text: serde_json's reader may
    // take a last-digit neighbour of a float that the writer wrote in its
    // shortest form, so the value in memory is not what a reader sees.
    let written = read_json(&dir.join("summary.json"));
    let text = serde_json::to_string(&summary).unwrap();
    assert_eq!(
        written,
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    );
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for agent in &summary.agents {
        assert!(report.contains(&agent.spec), "{report}");
    }
    let svg = std::fs::read_to_string(dir.join("ratings.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));

    // A directory that does not exist is an error, not a panic.
    assert!(write_reports(&dir.join("missing"), &summary).is_err());
}

/// Runs the tournament into a fresh directory and returns it with its log's lines.
fn logged_run(name: &str) -> (PathBuf, Vec<String>) {
    let dir = scratch_dir(name);
    let stop = AtomicBool::new(false);
    run(&config(), 2, Shard::ALL, Some(dir.clone()), &stop);
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    (dir, text.lines().map(str::to_string).collect())
}

fn resume(dir: &Path, repair: bool) -> Result<RunResult, String> {
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        record_search: false,
        threads: 2,
        shard: Shard::ALL,
        out_dir: Some(dir.to_path_buf()),
        stop: &stop,
        progress: &Unwatched,
        repair,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    run_tournament(&config(), &start(), &make_agent, &options).map_err(|error| error.to_string())
}

/// A log line with one field replaced.
fn forge(line: &str, field: &str, value: serde_json::Value) -> String {
    let mut game: serde_json::Value = serde_json::from_str(line).unwrap();
    game[field] = value;
    serde_json::to_string(&game).unwrap()
}

#[test]
fn a_resume_refuses_forged_lines_and_repair_plays_their_games_again() {
    let whole = run(&config(), 1, Shard::ALL, None, &AtomicBool::new(false));
    let forgeries = [
        ("outside the schedule", "index", serde_json::json!(12)),
        (
            "a stranger's game",
            "agents",
            serde_json::json!(["random", "greedy"]),
        ),
        (
            "an edited result",
            "payoffs",
            serde_json::json!([1.0, -1.0]),
        ),
        (
            "an invented reason",
            "reason",
            serde_json::json!("surrender"),
        ),
        ("another seed", "seed", serde_json::json!(7)),
    ];
    for (what, field, value) in forgeries {
        let (dir, mut lines) = logged_run("forged");
        let original = lines[3].clone();
        let before: serde_json::Value = serde_json::from_str(&original).unwrap();
        if before[field] == value {
            continue; // the game already had that value: nothing to forge
        }
        lines[3] = forge(&original, field, value);
        std::fs::write(dir.join("games.jsonl"), lines.join("\n") + "\n").unwrap();
        let error = resume(&dir, false).map(|_| ()).unwrap_err();
        assert!(error.contains("line 4"), "{what}: {error}");

        let repaired = resume(&dir, true).unwrap();
        assert_eq!(repaired.dropped_lines.len(), 1, "{what}");
        assert_eq!(repaired.games, whole.games, "{what}");
        assert_eq!(resume(&dir, false).unwrap().games, whole.games, "{what}");
    }
}

#[test]
fn a_game_logged_twice_is_refused_and_repaired() {
    let (dir, mut lines) = logged_run("twice");
    lines.push(lines[0].clone());
    std::fs::write(dir.join("games.jsonl"), lines.join("\n") + "\n").unwrap();
    let error = resume(&dir, false).map(|_| ()).unwrap_err();
    assert!(error.contains("recorded twice"), "{error}");
    let repaired = resume(&dir, true).unwrap();
    assert_eq!(repaired.dropped_lines.len(), 1);
    assert_eq!(
        std::fs::read_to_string(dir.join("games.jsonl"))
            .unwrap()
            .lines()
            .count(),
        12
    );
}

#[test]
fn a_second_run_on_a_directory_in_use_is_refused() {
    let (dir, _) = logged_run("locked");
    // Another run holds the directory's lock.
    let held = std::fs::File::open(dir.join("run.lock")).unwrap();
    held.try_lock().unwrap();
    let error = resume(&dir, false).map(|_| ()).unwrap_err();
    assert!(error.contains("in use by another run"), "{error}");
    held.unlock().unwrap();
    assert!(resume(&dir, false).is_ok());
}

#[test]
fn merged_shards_with_an_edited_line_are_caught() {
    let stop = AtomicBool::new(false);
    let first = scratch_dir("edited-shard-1");
    let second = scratch_dir("edited-shard-2");
    run(
        &config(),
        2,
        Shard::parse("1/2").unwrap(),
        Some(first.clone()),
        &stop,
    );
    run(
        &config(),
        2,
        Shard::parse("2/2").unwrap(),
        Some(second.clone()),
        &stop,
    );
    let log = second.join("games.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let merged = merge_directories(&[first.clone(), second.clone()], false).unwrap();
    let (config, games) = (merged.config, merged.games);
    for game in &games {
        check_line(&config, &start(), game).unwrap();
    }
    // Swap the result of a game: the schedule still matches, the replay does not.
    let game: GameLine = serde_json::from_str(&lines[0]).unwrap();
    let swapped = [game.payoffs[1], game.payoffs[0]];
    lines[0] = forge(&lines[0], "payoffs", serde_json::json!(swapped));
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let merged = merge_directories(&[first, second], false).unwrap();
    let (config, games) = (merged.config, merged.games);
    let failures = games
        .iter()
        .filter(|game| check_line(&config, &start(), game).is_err())
        .count();
    assert_eq!(failures, 1);
}

#[test]
fn a_run_of_another_build_resumes_only_when_forced() {
    let (dir, _) = logged_run("other-build");
    let path = dir.join("config.json");
    let mut stored = read_json(&path);
    assert_eq!(stored["build"]["version"], env!("CARGO_PKG_VERSION"));
    stored["build"]["executable"] = "0123456789abcdef".into();
    std::fs::write(&path, serde_json::to_string(&stored).unwrap()).unwrap();
    let error = resume(&dir, false).map(|_| ()).unwrap_err();
    assert!(error.contains("executable 0123456789abcdef"), "{error}");

    let stop = AtomicBool::new(false);
    let forced = RunOptions {
        record_search: false,
        threads: 1,
        shard: Shard::ALL,
        out_dir: Some(dir.clone()),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: true,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    let result = run_tournament(&config(), &start(), &make_agent, &forced).unwrap();
    assert_eq!(result.resumed, 12);
    // Shards of another build are not merged either.
    assert!(merge_directories(&[dir], false).is_err());
}

#[test]
fn a_config_must_describe_the_game_it_is_played_with() {
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        record_search: false,
        threads: 1,
        shard: Shard::ALL,
        out_dir: None,
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    let thud = TournamentConfig {
        game: "thud".into(),
        ..config()
    };
    let error = run_tournament(&thud, &start(), &make_agent, &options)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("of thud, but the games are of hnefatafl"),
        "{error}"
    );
    let other_rules = TournamentConfig {
        rules: "repetition=off".into(),
        ..config()
    };
    let error = run_tournament(&other_rules, &start(), &make_agent, &options)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(error.contains("start position's are"), "{error}");
}

#[test]
fn the_schedule_plays_the_pairings_in_order_in_colour_swapped_pairs() {
    let four = TournamentConfig {
        agents: vec!["a".into(), "b".into(), "c".into(), "d".into()],
        games_per_pair: 4,
        ..config()
    };
    let schedule = four.schedule();
    let pairings = four.pairings();
    assert_eq!(schedule.len(), 6 * 4);
    for game in &schedule {
        let (a, b) = pairings[game.index / 4];
        let seats = if game.index % 2 == 0 { [a, b] } else { [b, a] };
        assert_eq!(game.seats, seats, "game {}", game.index);
        assert_eq!(four.scheduled_game(game.index).as_ref(), Some(game));
    }
    assert_eq!(four.scheduled_game(24), None);
}

/// A gauntlet of capture-first against two random baselines, and the round
/// robin of the same three agents.
fn gauntlet_and_round_robin() -> (TournamentConfig, TournamentConfig) {
    let round_robin = TournamentConfig {
        agents: vec!["capture-first".into(), "random".into(), "random-too".into()],
        games_per_pair: 4,
        ..config()
    };
    let gauntlet = TournamentConfig {
        gauntlet: true,
        ..round_robin.clone()
    };
    (gauntlet, round_robin)
}

#[test]
fn a_gauntlet_plays_the_round_robins_games_of_the_challenger() {
    let (gauntlet, round_robin) = gauntlet_and_round_robin();
    let stop = AtomicBool::new(false);
    let full = run(&round_robin, 2, Shard::ALL, None, &stop);
    let played = run(&gauntlet, 2, Shard::ALL, None, &stop);
    assert_eq!(gauntlet.pairings(), vec![(0, 1), (0, 2)]);
    assert_eq!(played.games.len(), 8);
    assert_eq!(full.games.len(), 12);
    // The same games, with the same indices, seeds and moves.
    let challengers: Vec<&GameLine> = full
        .games
        .iter()
        .filter(|game| game.seats.contains(&0))
        .collect();
    assert_eq!(played.games.iter().collect::<Vec<_>>(), challengers);
    // Anchored on the first baseline, and said to be a gauntlet.
    assert_eq!(gauntlet.anchor_index(), 1);
    let summary = &played.summary;
    assert_eq!(summary.anchor, "random");
    assert_eq!(summary.agents[1].elo, 0.0);
    assert!(summary.gauntlet && !full.summary.gauntlet);
    assert_eq!(summary.pairings.len(), 2);
    let report = norn::arena::markdown_report(summary);
    assert!(
        report.starts_with("# hnefatafl gauntlet")
            && report.contains("Gauntlet: capture-first played each of 2 baselines"),
        "{report}"
    );
    // A round robin's configuration is written as before: no gauntlet field,
    // so its digest and `config.json` are unchanged.
    assert!(
        !serde_json::to_string(&round_robin)
            .unwrap()
            .contains("gauntlet")
    );
    assert!(
        serde_json::to_string(&gauntlet)
            .unwrap()
            .contains("\"gauntlet\":true")
    );
    assert_ne!(gauntlet.digest(), round_robin.digest());
}

#[test]
fn gauntlet_shards_merge_and_resume_as_a_round_robins_do() {
    let (gauntlet, round_robin) = gauntlet_and_round_robin();
    let stop = AtomicBool::new(false);
    let whole = run(&gauntlet, 1, Shard::ALL, None, &stop);
    let first = scratch_dir("gauntlet-1-of-2");
    let second = scratch_dir("gauntlet-2-of-2");
    run(
        &gauntlet,
        2,
        Shard::parse("1/2").unwrap(),
        Some(first.clone()),
        &stop,
    );
    run(
        &gauntlet,
        1,
        Shard::parse("2/2").unwrap(),
        Some(second.clone()),
        &stop,
    );
    let merged = merge_directories(&[first.clone(), second], false).unwrap();
    assert_eq!(merged.config, gauntlet);
    assert_eq!(merged.games, whole.games);
    assert_eq!(
        summary_json(&gauntlet, &merged.games),
        summary_json(&gauntlet, &whole.games)
    );
    // The round robin of the same agents is another run: its directory is
    // refused, naming the difference.
    let options = RunOptions {
        threads: 1,
        shard: Shard::parse("1/2").unwrap(),
        out_dir: Some(first.clone()),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
        record_search: false,
    };
    let error = run_tournament(&round_robin, &start(), &make_agent, &options)
        .err()
        .unwrap();
    assert!(error.to_string().contains("gauntlet"), "{error}");
    // The gauntlet itself resumes: nothing left to play.
    let resumed = run_tournament(&gauntlet, &start(), &make_agent, &options).unwrap();
    assert_eq!(resumed.resumed, resumed.games.len());
    assert_eq!(read_json(&first.join("config.json"))["gauntlet"], true);
}

#[test]
fn one_spec_listed_twice_plays_itself_from_two_seats() {
    let selfplay = TournamentConfig {
        agents: vec!["random".into(), "random".into()],
        games_per_pair: 4,
        anchor: Some("random #2".into()),
        ..config()
    };
    selfplay.validate().unwrap();
    assert_eq!(selfplay.display_names(), ["random", "random #2"]);
    assert_eq!(selfplay.anchor_index(), 1);
    // Each seat has its own seed, so the two do not mirror each other.
    let first = selfplay.scheduled_game(0).unwrap();
    assert_ne!(first.agent_seed(0), first.agent_seed(1));
    let stop = AtomicBool::new(false);
    let played = run(&selfplay, 1, Shard::ALL, None, &stop);
    assert_eq!(played.games.len(), 4);
    let summary = &played.summary;
    assert_eq!(summary.anchor, "random #2");
    assert_eq!(summary.agents[1].name, "random #2");
    assert_eq!(summary.agents[1].spec, "random");
    assert_eq!(summary.pairings[0].agents, ["random", "random #2"]);
    let report = norn::arena::markdown_report(summary);
    assert!(report.contains("| `random #2` |"), "{report}");
    // The spec alone names its first listing.
    let by_spec = TournamentConfig {
        anchor: Some("random".into()),
        ..selfplay.clone()
    };
    assert_eq!(by_spec.anchor_index(), 0);
    // A name that two agents would share is refused.
    let clash = TournamentConfig {
        agents: vec!["random".into(), "random".into(), "random #2".into()],
        anchor: None,
        ..selfplay
    };
    assert!(clash.validate().unwrap_err().contains("`random #2`"));
}
