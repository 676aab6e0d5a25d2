//! Outside engines as agents: `norn engine hnefatafl` itself, run as a
//! separate program, plays a tournament against norn's own agents.

use norn::arena::{
    OpeningOrder, OpeningSet, Openings, RunOptions, RunResult, Shard, TournamentConfig, Unwatched,
    parse_openings, replay_line, run_tournament,
};
use norn::core::{Game, Notation};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::registry::Registered;
use std::sync::atomic::AtomicBool;

fn engine_spec(agent: &str) -> String {
    format!(
        "htp:cmd={} engine hnefatafl --agent {agent} --seed 5",
        env!("CARGO_BIN_EXE_norn")
    )
}

/// The options of a tournament in memory on `threads` threads.
fn run_options(stop: &AtomicBool, threads: usize) -> RunOptions<'_> {
    RunOptions {
        record_search: false,
        threads,
        shard: Shard::ALL,
        out_dir: None,
        stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    }
}

/// A tournament between random play and a greedy engine, from `openings`.
fn engine_tournament(openings: Openings) -> Result<RunResult, String> {
    let engine = engine_spec("greedy");
    let config = TournamentConfig {
        game: "hnefatafl".into(),
        rules: String::new(),
        agents: vec!["random".into(), engine.clone()],
        games_per_pair: 4,
        seed: 2,
        max_plies: Some(120),
        anchor: None,
        gauntlet: false,
        time_control: None,
        adjudication: None,
        openings,
    };
    let start = Hnefatafl::new(HnefataflRules::default());
    let stop = AtomicBool::new(false);
    let options = run_options(&stop, 2);
    run_tournament(&config, &start, &Hnefatafl::build_agent, &options)
        .map_err(|error| error.to_string())
}

#[test]
fn an_engine_speaking_htp_plays_a_tournament() {
    let start = Hnefatafl::new(HnefataflRules::default());
    let result = engine_tournament(Openings::Start).unwrap();
    assert_eq!(result.games.len(), 4);
    for game in &result.games {
        replay_line(&start, game).unwrap();
        assert!(game.moves.len() >= 2, "both agents moved");
    }
    // The greedy engine beats random play.
    let engine_points: f64 = result
        .games
        .iter()
        .map(|game| game.payoffs[usize::from(game.seats[1] == 1)])
        .sum();
    assert!(engine_points > 0.0, "{engine_points}");

    // From openings of moves the engine is told them before it plays.
    let set = parse_openings(Hnefatafl::default_openings().unwrap(), &start).unwrap();
    let from_openings = engine_tournament(Openings::Set(OpeningSet::new(
        set,
        OpeningOrder::Sequential,
        2,
    )))
    .unwrap();
    for game in &from_openings.games {
        assert!(game.opening.is_some());
        replay_line(&start, game).unwrap();
    }
    // A position given as text cannot be told to it: refused, not misplayed.
    let mut later = start.clone();
    later.play(later.parse_move("h1-h3").unwrap());
    let refused = engine_tournament(Openings::Position(later.position_text()))
        .map(|result| result.games.len())
        .unwrap_err();
    assert!(refused.contains("not from a position"), "{refused}");
}

#[test]
fn engines_that_cannot_start_or_answer_are_errors() {
    let missing = Hnefatafl::build_agent("htp:cmd=/no/such/engine", 1);
    assert!(
        missing
            .map(|_| ())
            .unwrap_err()
            .to_string()
            .contains("cannot start")
    );
    assert!(Hnefatafl::build_agent("htp:", 1).is_err());
    assert!(Hnefatafl::build_agent("htp:cmd=", 1).is_err());

    // A program that is not an engine: `true` exits at once.
    let mut agent = Hnefatafl::build_agent("htp:cmd=true", 1).unwrap();
    let start = Hnefatafl::new(HnefataflRules::default());
    let error = agent.decide(&start, 0).map(|_| ()).unwrap_err();
    assert!(error.to_string().contains("the engine"), "{error}");
}

/// A tournament of Brandub between random play and `agent`, from the
/// start, with every game's moves.
fn brandub_tournament(agent: &str) -> Vec<Vec<norn::core::PlyText>> {
    use norn::games::tafl::{Tafl, TaflRules};
    let config = TournamentConfig {
        game: "tafl".into(),
        rules: "variant=brandub".into(),
        agents: vec!["random".into(), agent.into()],
        games_per_pair: 4,
        seed: 9,
        max_plies: Some(120),
        anchor: None,
        gauntlet: false,
        time_control: None,
        openings: Openings::Start,
        adjudication: None,
    };
    let start = Tafl::new(TaflRules::variant("brandub").unwrap());
    let stop = AtomicBool::new(false);
    let options = run_options(&stop, 1);
    let result = run_tournament(&config, &start, &Tafl::build_agent, &options).unwrap();
    result
        .games
        .iter()
        .map(|game| {
            replay_line(&start, game).unwrap();
            game.moves.clone()
        })
        .collect()
}

#[test]
fn an_engine_speaking_otep_plays_the_games_its_agent_plays_in_process() {
    // norn's own OTEP engine, hosted through the protocol, must make the
    // very moves its agent makes when it plays inside the tournament: the
    // host tells it every move and position faithfully.
    let agent = "alphabeta:depth=2";
    let engine = format!(
        "otep:cmd={} engine --protocol otep --agent {agent}",
        env!("CARGO_BIN_EXE_norn")
    );
    let hosted = brandub_tournament(&engine);
    assert_eq!(hosted.len(), 4);
    assert!(hosted.iter().all(|moves| moves.len() >= 2));
    assert_eq!(hosted, brandub_tournament(agent));
}
