//! A researcher's own evaluation in the built-in searchers.
//!
//! Alpha-beta and MCTS take the evaluation as a parameter: any function
//! from a state and a player to an estimated payoff (or a type implementing
//! `Evaluator`, which may also name tactical moves). Here a plain material
//! count replaces Hnefatafl's own evaluation, and alpha-beta with each
//! evaluation meets the other in a short tournament.
//!
//! Run with `cargo run --release --example custom_evaluation`.

use norn::agents::{Agent, AlphaBetaAgent, MctsAgent, build_agent};
use norn::arena::{
    Openings, RunOptions, Shard, TournamentConfig, TournamentSummary, Unwatched, run_tournament,
    text_report,
};
use norn::core::{Game, ParseError, Player};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::search::{AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig};
use std::sync::atomic::AtomicBool;

/// Material only: a defender is worth two attackers. Within the payoff
/// range (-1 to 1) and short of its ends, which finished games keep.
fn material(state: &Hnefatafl, player: Player) -> f64 {
    if let Some(outcome) = state.status().outcome() {
        return outcome.payoffs.get(player);
    }
    let attackers = f64::from(state.attackers().count());
    let defenders = f64::from(state.defenders().count());
    // Attackers are player 0; 24 attackers against 12 defenders is even.
    let for_attackers = ((attackers - 2.0 * defenders) / 48.0).clamp(-0.9, 0.9);
    if player == 0 {
        for_attackers
    } else {
        -for_attackers
    }
}

fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Hnefatafl>>, ParseError> {
    match spec {
        "alphabeta-material:depth=2" => Ok(Box::new(AlphaBetaAgent::with_evaluator(
            spec,
            AlphaBeta::new(AlphaBetaConfig {
                depth: Some(2),
                ..AlphaBetaConfig::default()
            }),
            material,
        ))),
        "mcts-material:iters=1000" => {
            let config = MctsConfig {
                iterations: Some(1000),
                ..MctsConfig::default()
            };
            let search = Mcts::with_evaluator(config, seed, material)
                .map_err(|error| ParseError::new("agent spec", spec, error))?;
            Ok(Box::new(MctsAgent::new(spec, search)))
        }
        _ => build_agent(spec, seed),
    }
}

fn main() {
    let start = Hnefatafl::new(HnefataflRules::default());
    let mut search = AlphaBeta::new(AlphaBetaConfig {
        depth: Some(3),
        ..AlphaBetaConfig::default()
    });
    let own = search.search(&start).expect("hnefatafl is turn-based");
    search.clear();
    let counted = search
        .search_with(&start, &material)
        .expect("hnefatafl is turn-based");
    println!(
        "depth 3 from the start: the game's evaluation scores {} ({} nodes), material {} ({} nodes)",
        own.score, own.nodes, counted.score, counted.nodes
    );

    let config = TournamentConfig {
        game: "hnefatafl".into(),
        rules: String::new(),
        agents: vec![
            "alphabeta:depth=2".into(),
            "alphabeta-material:depth=2".into(),
            "mcts-material:iters=1000".into(),
        ],
        games_per_pair: 6,
        seed: 5,
        max_plies: Some(200),
        anchor: None,
        gauntlet: false,
        time_control: None,
        adjudication: None,
        openings: Openings::RandomPlies(4),
    };
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        record_search: false,
        threads: 2,
        shard: Shard::ALL,
        out_dir: None,
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    let result =
        run_tournament(&config, &start, &make_agent, &options).expect("the tournament runs");
    let summary = TournamentSummary::compute(&config, &result.games, false);
    print!("{}", text_report(&summary));
}
