//! Outside engines as agents: `norn engine hnefatafl` itself, run as a
//! separate program, plays a tournament against norn's own agents.

use norn::arena::{
    Openings, RunOptions, Shard, TournamentConfig, Unwatched, replay_line, run_tournament,
};
use norn::core::Game;
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::registry::Registered;
use std::sync::atomic::AtomicBool;

fn engine_spec(agent: &str) -> String {
    format!(
        "htp:cmd={} engine hnefatafl --agent {agent} --seed 5",
        env!("CARGO_BIN_EXE_norn")
    )
}

#[test]
fn an_engine_speaking_htp_plays_a_tournament() {
    let engine = engine_spec("greedy");
    let config = TournamentConfig {
        game: "hnefatafl".into(),
        rules: String::new(),
        agents: vec!["random".into(), engine.clone()],
        games_per_pair: 4,
        seed: 2,
        max_plies: Some(120),
        anchor: None,
        openings: Openings::Start,
    };
    let start = Hnefatafl::new(HnefataflRules::default());
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        threads: 2,
        shard: Shard::ALL,
        out_dir: None,
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
    };
    let result = run_tournament(&config, &start, &Hnefatafl::build_agent, &options).unwrap();
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
