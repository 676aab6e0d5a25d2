//! What each move cost, as the game log records it: the numbers are the
//! searcher's own (searched again alone on the logged position, it reports
//! the same), the expected lines replay under the rules, and forged
//! records are refused.

use crate::common::cli::{assert_fails_with, norn, read_json};
use norn::agents::Decision;
use norn::arena::{
    GameLine, LoggedSearch, Openings, PlySearch, RunOptions, RunResult, Shard, TournamentConfig,
    Unwatched, check_line, run_tournament,
};
use norn::core::{Game, Notation, PlyText, Status};
use norn::games::fenrir_cards::{FenrirCards, FenrirCardsRules};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::games::nibelungen::{Nibelungen, NibelungenRules};
use norn::registry::{Registered, build_agent};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// A recorded tournament of `agents` on `start`, two games per pair.
fn recorded_run<G: Registered>(
    start: &G,
    agents: &[&str],
    max_plies: Option<usize>,
) -> (TournamentConfig, RunResult) {
    let config = TournamentConfig {
        game: G::NAME.to_string(),
        rules: String::new(),
        agents: agents.iter().map(|spec| spec.to_string()).collect(),
        games_per_pair: 2,
        seed: 5,
        max_plies,
        anchor: None,
        openings: Openings::Start,
        gauntlet: false,
        time_control: None,
        adjudication: None,
    };
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        threads: 2,
        shard: Shard::ALL,
        out_dir: None,
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
        record_search: true,
    };
    let result = run_tournament(&config, start, &build_agent::<G>, &options).unwrap();
    (config, result)
}

/// The state before each ply of a logged game that starts at `start`.
fn states_before<G: Notation>(start: &G, game: &GameLine) -> Vec<G> {
    let mut state = start.clone();
    let mut states = Vec::new();
    for text in &game.moves {
        states.push(state.clone());
        let ply = state.parse_ply(text).unwrap();
        state.play_ply(&ply);
    }
    states
}

/// Checks that a logged line starts with the move played and replays
/// legally from the state it was searched in.
fn assert_line_replays<G: Notation>(state: &G, played: &str, pv: &[String]) {
    assert_eq!(
        pv.first().map(String::as_str),
        Some(played),
        "the line starts with the move played"
    );
    let mut line = state.clone();
    for text in pv {
        let mv = line
            .parse_move(text)
            .unwrap_or_else(|error| panic!("`{text}` of {pv:?}: {error}"));
        line.play(mv);
    }
}

#[test]
fn searched_again_alone_the_logged_positions_give_the_logged_numbers() {
    let start = Hnefatafl::new(HnefataflRules::default());
    // Without a table carried between moves or a tree kept between them,
    // each alpha-beta search depends on its position alone; MCTS draws
    // from its seed, so its first search of a game is compared.
    let agents = ["alphabeta:depth=2,tt=0", "mcts:iters=120,reuse=off"];
    let (config, result) = recorded_run(&start, &agents, Some(24));
    assert_eq!(result.games.len(), 2);
    let mut compared = [0, 0];
    for game in &result.games {
        let search = game.search.as_ref().expect("the run records the searches");
        assert_eq!(search.len(), game.moves.len());
        let scheduled = config.scheduled_game(game.index).unwrap();
        let mut first_search = [true, true];
        for ((state, entry), text) in states_before(&start, game)
            .iter()
            .zip(search)
            .zip(&game.moves)
        {
            let (PlySearch::Move(logged), PlyText::Move(played)) = (entry, text) else {
                panic!("Hnefatafl has no joint moves");
            };
            let Status::ToMove(mover) = state.status() else {
                panic!("a logged ply in a finished game");
            };
            assert_eq!(logged.seat, mover);
            assert!(logged.time > 0.0);
            assert_line_replays(state, played, &logged.pv);
            let spec = &game.agents[mover];
            let is_mcts = spec.starts_with("mcts");
            if is_mcts && !std::mem::take(&mut first_search[mover]) {
                continue;
            }
            let mut alone = build_agent::<Hnefatafl>(spec, scheduled.agent_seed(mover)).unwrap();
            let decision = alone.decide(state, mover).unwrap();
            let record = alone.last_search().unwrap().written(state);
            assert_eq!(decision, Decision::Play(state.parse_move(played).unwrap()));
            assert_eq!(
                (logged.depth, logged.iterations),
                (record.depth, record.iterations)
            );
            assert_eq!(logged.nodes, Some(record.nodes));
            assert_eq!(logged.score, Some(record.value));
            assert_eq!(logged.pv, record.pv);
            compared[usize::from(is_mcts)] += 1;
        }
    }
    // Every alpha-beta move, and each game's first MCTS move.
    assert!(compared[0] >= 20, "{compared:?}");
    assert_eq!(compared[1], 2);
    for game in &result.games {
        check_line(&config, &start, game).unwrap();
    }
    let summary = &result.summary;
    let alphabeta = summary.agents[0].search.as_ref().unwrap();
    assert_eq!(alphabeta.depth, Some(2.0));
    assert!(alphabeta.iterations.is_none() && alphabeta.nodes.unwrap() > 1.0);
    let mcts = summary.agents[1].search.as_ref().unwrap();
    assert_eq!(mcts.iterations, Some(120.0));
    assert_eq!(
        alphabeta.decisions + mcts.decisions,
        result.games.iter().map(|game| game.plies).sum::<usize>()
    );
}

#[test]
fn a_simultaneous_choice_records_each_players_decision() {
    let start = Nibelungen::new(NibelungenRules::default());
    let (config, result) = recorded_run(&start, &["smmcts:iters=200", "random"], None);
    let mut joint = 0;
    for game in &result.games {
        check_line(&config, &start, game).unwrap();
        let smmcts_seat = game.seats.iter().position(|&agent| agent == 0).unwrap();
        let states = states_before(&start, game);
        let search = game.search.as_ref().unwrap();
        for ((entry, text), state) in search.iter().zip(&game.moves).zip(&states) {
            // Where one player chooses alone, its record is the ply's.
            let (searched, chosen) = match (entry, text) {
                (PlySearch::Joint(decisions), PlyText::Joint(moves)) => {
                    let seats: Vec<usize> = decisions.iter().map(|d| d.seat).collect();
                    assert_eq!(seats, [0, 1]);
                    let unsearched = &decisions[1 - smmcts_seat];
                    assert!(unsearched.iterations.is_none() && unsearched.pv.is_empty());
                    joint += 1;
                    (&decisions[smmcts_seat], &moves[smmcts_seat])
                }
                (PlySearch::Move(decision), PlyText::Move(text)) => {
                    assert_eq!(state.status(), Status::ToMove(decision.seat));
                    if decision.seat != smmcts_seat {
                        continue;
                    }
                    (decision, text)
                }
                _ => panic!("a record of another shape than its ply: {entry:?}"),
            };
            assert_eq!(searched.iterations, Some(200));
            assert!(searched.nodes.unwrap() > 1);
            let share = searched.visit_share.unwrap();
            assert!(share > 0.0 && share <= 1.0);
            assert_eq!(searched.pv, std::slice::from_ref(chosen));
        }
    }
    assert!(joint > 0);
}

#[test]
fn information_set_mcts_reports_its_search() {
    let mut state = FenrirCards::new(FenrirCardsRules::default());
    let mut rng = norn::core::rng_from_seed(3);
    while state.status() == Status::Chance {
        assert!(norn::core::resolve_chance(&mut state, &mut rng));
    }
    let Status::ToMove(player) = state.status() else {
        panic!("the deal leaves a player to move");
    };
    let mut agent = build_agent::<FenrirCards>("ismcts:iters=300", 8).unwrap();
    assert!(agent.last_search().is_none());
    let Decision::Play(chosen) = agent.decide(&state, player).unwrap() else {
        panic!("IS-MCTS does not resign");
    };
    let record = agent.last_search().unwrap();
    assert_eq!(record.iterations, Some(300));
    assert_eq!(record.pv, [chosen]);
    assert!(record.nodes > 1 && record.seconds > 0.0);
    let share = record.visit_share.unwrap();
    assert!(share > 0.0 && share <= 1.0);
    assert!((-1.0..=1.0).contains(&record.value));
    agent.reset();
    assert!(agent.last_search().is_none());
}

#[test]
fn forged_search_records_are_refused() {
    let start = Hnefatafl::new(HnefataflRules::default());
    let (config, result) = recorded_run(&start, &["alphabeta:depth=1", "random"], Some(10));
    let game = &result.games[0];
    check_line(&config, &start, game).unwrap();
    let forged = |change: &dyn Fn(&mut Vec<PlySearch>)| {
        let mut forged = game.clone();
        change(forged.search.as_mut().unwrap());
        check_line(&config, &start, &forged).unwrap_err()
    };
    assert!(
        forged(&|search| {
            search.pop();
        })
        .contains("search records for")
    );
    assert!(forged(&|search| mover(&mut search[0]).seat = 1).contains("were to move"));
    assert!(forged(&|search| mover(&mut search[0]).seat = 7).contains("another shape"));
    assert!(forged(&|search| mover(&mut search[1]).score = Some(3.0)).contains("score of 3"));
    assert!(forged(&|search| mover(&mut search[1]).time = -1.0).contains("time of -1"));
    assert!(
        forged(&|search| mover(&mut search[1]).visit_share = Some(1.5)).contains("visit share")
    );
    assert!(
        forged(&|search| mover(&mut search[1]).pv = vec!["a1-a2".into(); 1000])
            .contains("1000 moves")
    );
    // A field no record has makes the line unreadable, as any unknown field of a record.
    let line =
        serde_json::to_string(game)
            .unwrap()
            .replacen("\"seat\":", "\"budget\":1,\"seat\":", 1);
    assert!(serde_json::from_str::<GameLine>(&line).is_err());
}

/// The record of a move (not a joint move).
fn mover(entry: &mut PlySearch) -> &mut LoggedSearch {
    match entry {
        PlySearch::Move(decision) => decision,
        PlySearch::Joint(_) => unreachable!("Hnefatafl has no joint moves"),
    }
}

/// The logged games of a run directory, without their search records.
fn games_without_search(dir: &Path) -> Vec<GameLine> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|line| GameLine {
            search: None,
            ..serde_json::from_str(line).unwrap()
        })
        .collect()
}

#[test]
fn the_command_line_records_searches_unless_told_not_to() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("search_records_cli");
    let _ = std::fs::remove_dir_all(&dir);
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec![
            "tournament",
            "hnefatafl",
            "--agents",
            "alphabeta:depth=1",
            "random",
            "--games",
            "2",
            "--max-plies",
            "12",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        assert!(norn(&args).status.success());
        out
    };
    let on = run("on", &[]);
    let off = run("off", &["--record-search", "off"]);
    let recorded = std::fs::read_to_string(on.join("games.jsonl")).unwrap();
    for line in recorded.lines() {
        let game: GameLine = serde_json::from_str(line).unwrap();
        assert_eq!(game.search.map(|search| search.len()), Some(game.plies));
    }
    assert!(
        !std::fs::read_to_string(off.join("games.jsonl"))
            .unwrap()
            .contains("\"search\"")
    );
    // Recording changes no move.
    let mut with = games_without_search(&on);
    let mut without = games_without_search(&off);
    with.sort_by_key(|game| game.index);
    without.sort_by_key(|game| game.index);
    assert_eq!(with, without);
    let report = std::fs::read_to_string(on.join("report.md")).unwrap();
    assert!(report.contains("## What each move cost"));
    assert!(
        !std::fs::read_to_string(off.join("report.md"))
            .unwrap()
            .contains("What each move cost")
    );
    let summary = read_json(&on.join("summary.json"));
    assert_eq!(summary["agents"][0]["search"]["depth"], 1.0);
    assert_fails_with(
        &["tournament", "hnefatafl", "--record-search", "maybe"],
        "expected `on` or `off`, not `maybe`",
    );
}

/// Plays at random and reports a search the log cannot hold as it is: a
/// value and a share outside their ranges and an expected line of up to
/// 300 legal plies, as an agent of a library user might.
struct Boasting {
    random: norn::agents::RandomAgent<Hnefatafl>,
    rng: norn::core::GameRng,
    record: Option<norn::agents::SearchRecord<norn::games::hnefatafl::HnefataflMove>>,
}

impl norn::agents::Agent<Hnefatafl> for Boasting {
    fn spec(&self) -> &str {
        "boasting"
    }

    fn decide(
        &mut self,
        state: &Hnefatafl,
        player: norn::core::Player,
    ) -> Result<Decision<norn::games::hnefatafl::HnefataflMove>, norn::agents::AgentError> {
        let decision = self.random.decide(state, player)?;
        let Decision::Play(chosen) = decision else {
            unreachable!("a random agent does not resign");
        };
        let mut pv = vec![chosen];
        let mut line = state.clone();
        line.play(chosen);
        let mut moves = norn::core::MoveList::new();
        while pv.len() < 300 && !line.status().is_over() {
            line.legal_moves(&mut moves);
            let mv = moves[rand::RngExt::random_range(&mut self.rng, 0..moves.len())];
            line.play(mv);
            pv.push(mv);
        }
        self.record = Some(norn::agents::SearchRecord {
            seconds: 0.001,
            depth: Some(1),
            iterations: None,
            nodes: 1,
            value: 7.5,
            pv,
            visit_share: Some(1.5),
            policy_entropy: Some(-0.5),
        });
        Ok(decision)
    }

    fn last_search(
        &self,
    ) -> Option<norn::agents::SearchRecord<norn::games::hnefatafl::HnefataflMove>> {
        self.record.clone()
    }
}

#[test]
fn whatever_an_agent_reports_of_its_search_the_log_reads_back() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("boasting-searches");
    let _ = std::fs::remove_dir_all(&dir);
    let start = Hnefatafl::new(HnefataflRules::default());
    let config = TournamentConfig {
        game: "hnefatafl".into(),
        rules: String::new(),
        agents: vec!["random".into(), "boasting".into()],
        games_per_pair: 2,
        seed: 5,
        max_plies: Some(6),
        anchor: None,
        openings: Openings::Start,
        gauntlet: false,
        time_control: None,
        adjudication: None,
    };
    let make = |spec: &str, seed: u64| -> Result<Box<dyn norn::agents::Agent<Hnefatafl>>, _> {
        match spec {
            "boasting" => Ok(Box::new(Boasting {
                random: norn::agents::RandomAgent::new(seed),
                rng: norn::core::rng_from_seed(seed),
                record: None,
            })),
            _ => build_agent::<Hnefatafl>(spec, seed),
        }
    };
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        threads: 1,
        shard: Shard::ALL,
        out_dir: Some(dir.clone()),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
        record_search: true,
    };
    let played = run_tournament(&config, &start, &make, &options).unwrap();
    // The numbers are brought into their ranges, the lines cut.
    let decisions: Vec<LoggedSearch> = played
        .games
        .iter()
        .flat_map(|game| game.search.clone().unwrap())
        .map(|mut entry| mover(&mut entry).clone())
        .filter(|decision| decision.depth == Some(1))
        .collect();
    assert_eq!(decisions.len(), 6);
    for decision in &decisions {
        assert_eq!(decision.score, Some(1.0));
        assert_eq!(decision.visit_share, Some(1.0));
        // No entropy stands for a negative one: it is left out.
        assert_eq!(decision.policy_entropy, None);
    }
    assert!(decisions.iter().any(|decision| decision.pv.len() == 256));
    assert!(decisions.iter().all(|decision| decision.pv.len() <= 256));
    // The run resumes from its log.
    let resumed = run_tournament(&config, &start, &make, &options).unwrap();
    assert_eq!(resumed.resumed, 2);
}
