//! An agent's failure is the game's result: a loss by forfeit, logged with
//! its reason, counted in the summary, read back on resume (and refused
//! when forged), and a run stops only when an agent forfeits several games
//! in a row. A logged resignation must be by an agent that can resign.

use norn::agents::{Agent, AgentError, Decision, RandomAgent};
use norn::arena::{
    FORFEIT_REASON, GameLine, Openings, RESIGNATION_REASON, RunOptions, RunResult, Shard,
    TournamentConfig, TournamentSummary, Unwatched, replay_line, run_tournament, text_report,
};
use norn::core::{Game, ParseError, Player};
use norn::games::hnefatafl::{Hnefatafl, HnefataflMove, HnefataflRules};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Plays at random, and fails (returns an error) at its third decision.
struct FailsAtThird {
    random: RandomAgent<Hnefatafl>,
    decisions: usize,
}

impl Agent<Hnefatafl> for FailsAtThird {
    fn spec(&self) -> &str {
        "fails-at-third"
    }

    fn decide(
        &mut self,
        state: &Hnefatafl,
        player: Player,
    ) -> Result<Decision<HnefataflMove>, AgentError> {
        self.decisions += 1;
        if self.decisions == 3 {
            return Err(AgentError::new("out of memory"));
        }
        self.random.decide(state, player)
    }

    fn reset(&mut self) {
        self.decisions = 0;
    }
}

fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Hnefatafl>>, ParseError> {
    match spec {
        "random" | "random-too" => Ok(Box::new(RandomAgent::new(seed))),
        "fails-at-third" => Ok(Box::new(FailsAtThird {
            random: RandomAgent::new(seed),
            decisions: 0,
        })),
        _ => Err(ParseError::new("agent spec", spec, "unknown agent")),
    }
}

fn config(agents: [&str; 2], games: usize) -> TournamentConfig {
    TournamentConfig {
        game: "hnefatafl".into(),
        rules: String::new(),
        agents: agents.iter().map(|spec| spec.to_string()).collect(),
        games_per_pair: games,
        seed: 8,
        max_plies: Some(200),
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

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(config: &TournamentConfig, out: &Path, max_forfeits: usize) -> Result<RunResult, String> {
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        record_search: false,
        threads: 1,
        shard: Shard::ALL,
        out_dir: Some(out.to_path_buf()),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits,
    };
    run_tournament(config, &start(), &make_agent, &options).map_err(|error| error.to_string())
}

fn log_lines(dir: &Path) -> Vec<GameLine> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn write_log(dir: &Path, lines: &[GameLine]) {
    let text: String = lines
        .iter()
        .map(|line| serde_json::to_string(line).unwrap() + "\n")
        .collect();
    std::fs::write(dir.join("games.jsonl"), text).unwrap();
}

#[test]
fn a_failing_agent_loses_by_forfeit_and_the_run_goes_on() {
    let dir = scratch_dir("forfeits-logged");
    let config = config(["random", "fails-at-third"], 4);
    let result = run(&config, &dir, 5).unwrap();
    assert_eq!(result.games.len(), 4);
    for game in &result.games {
        let failing_seat = usize::from(game.seats[1] == 1);
        assert_eq!(game.reason, FORFEIT_REASON);
        let forfeit = game.forfeit.as_ref().expect("the forfeit is logged");
        assert_eq!(forfeit.seat, failing_seat);
        assert!(
            forfeit.reason.contains("out of memory"),
            "{}",
            forfeit.reason
        );
        assert!(
            forfeit.reason.contains("fails-at-third"),
            "{}",
            forfeit.reason
        );
        // Its third decision: two of its own moves and the opponent's.
        assert_eq!(game.plies, 4 + failing_seat);
        assert!(game.payoffs[failing_seat] < game.payoffs[1 - failing_seat]);
    }
    let summary = TournamentSummary::compute(&config, &result.games, false);
    assert_eq!(summary.agents[1].forfeits, 4);
    assert_eq!(summary.agents[0].forfeits, 0);
    assert_eq!(summary.agents[0].wins, 4);
    assert!(text_report(&summary).contains("lost by forfeit"));

    // A resume reads the forfeits back: nothing is played again.
    let resumed = run(&config, &dir, 5).unwrap();
    assert_eq!(resumed.resumed, 4);
    assert_eq!(resumed.games, result.games);
}

#[test]
fn a_run_stops_when_an_agent_forfeits_games_in_a_row() {
    let dir = scratch_dir("forfeits-in-a-row");
    let error = run(&config(["random", "fails-at-third"], 6), &dir, 2)
        .map(|_| ())
        .unwrap_err();
    assert!(
        error.contains("`fails-at-third` forfeited 2 games in a row"),
        "{error}"
    );
    assert!(error.contains("out of memory"), "{error}");
    // The forfeited games are kept.
    assert_eq!(log_lines(&dir).len(), 2);
    assert!(run(&config(["random", "fails-at-third"], 6), &dir, 0).is_err());
}

/// A name and an edit of a logged forfeit.
type Forgery = (&'static str, fn(&mut GameLine));

#[test]
fn forged_forfeits_are_refused_on_resume() {
    let dir = scratch_dir("forfeits-forged");
    let config = config(["random", "fails-at-third"], 2);
    let good = run(&config, &dir, 5).unwrap().games;
    let forgeries: [Forgery; 4] = [
        ("another seat", |line| {
            let forfeit = line.forfeit.as_mut().unwrap();
            forfeit.seat = 1 - forfeit.seat;
        }),
        ("no seat", |line| line.forfeit = None),
        ("no reason", |line| {
            line.forfeit.as_mut().unwrap().reason.clear()
        }),
        ("another reason", |line| {
            line.reason = "max-plies".into();
        }),
    ];
    for (name, forge) in forgeries {
        let mut lines = good.clone();
        forge(&mut lines[0]);
        write_log(&dir, &lines);
        let error = run(&config, &dir, 5).map(|_| ()).unwrap_err();
        assert!(error.contains("line 1"), "{name}: {error}");
    }
    // A normal game cannot name a forfeit either.
    let normal_dir = scratch_dir("forfeits-forged-normal");
    let normal = config_without_forfeits();
    let mut lines = run(&normal, &normal_dir, 5).unwrap().games;
    lines[0].forfeit = good[0].forfeit.clone();
    write_log(&normal_dir, &lines);
    let error = run(&normal, &normal_dir, 5).map(|_| ()).unwrap_err();
    assert!(error.contains("names a forfeit"), "{error}");
}

/// Two random players whose games end by the ply cap.
fn config_without_forfeits() -> TournamentConfig {
    TournamentConfig {
        max_plies: Some(10),
        ..config(["random", "random-too"], 2)
    }
}

#[test]
fn a_logged_resignation_must_be_by_an_agent_that_can_resign() {
    let dir = scratch_dir("forged-resignation");
    let config = config_without_forfeits();
    let games = run(&config, &dir, 5).unwrap().games;
    assert_eq!(games[0].reason, "max-plies");
    let (low, high) = start().payoff_range();
    // Cut to 4 plies and ended by a resignation of the side to move then
    // (the attackers, seat 0), with the payoffs a resignation gives.
    let mut forged = games[0].clone();
    forged.moves.truncate(4);
    forged.plies = 4;
    forged.reason = RESIGNATION_REASON.into();
    forged.payoffs = [low, high];
    forged.winner = Some(start().player_name(1));
    let error = replay_line(&start(), &forged).unwrap_err();
    assert!(error.contains("resign"), "{error}");
    let mut lines = games.clone();
    lines[0] = forged.clone();
    write_log(&dir, &lines);
    let error = run(&config, &dir, 5).map(|_| ()).unwrap_err();
    assert!(error.contains("line 1"), "{error}");
    // The same game, had an outside engine played the attackers, is a
    // resignation it could have made.
    forged.agents[0] = "htp:cmd=engine".into();
    replay_line(&start(), &forged).unwrap();
}
