//! A researcher's own agent in a tournament next to the built-in ones.
//!
//! The agent below plays the move that leaves the opponent the fewest legal
//! replies, a crude mobility heuristic. The tournament runner takes any
//! function from a spec string and a seed to an agent, so new agents need no
//! change to the library.
//!
//! Run with `cargo run --release --example custom_agent`.

use norn::agents::{Agent, AgentError, Decision, build_agent};
use norn::arena::{
    Openings, RunOptions, Shard, TournamentConfig, TournamentSummary, Unwatched, run_tournament,
    text_report,
};
use norn::core::{Game, MoveList, ParseError, Player};
use norn::games::hnefatafl::{Hnefatafl, HnefataflMove, HnefataflRules};
use std::sync::atomic::AtomicBool;

/// Chooses the move after which the opponent has the fewest legal moves.
struct Smother {
    moves: MoveList<HnefataflMove>,
    scratch: MoveList<HnefataflMove>,
}

impl Agent<Hnefatafl> for Smother {
    fn spec(&self) -> &str {
        "smother"
    }

    fn decide(
        &mut self,
        state: &Hnefatafl,
        _player: Player,
    ) -> Result<Decision<HnefataflMove>, AgentError> {
        state.legal_moves(&mut self.moves);
        let best = self
            .moves
            .iter()
            .copied()
            .min_by_key(|&mv| {
                let mut next = state.clone();
                next.play(mv);
                next.count_legal_moves(&mut self.scratch)
            })
            .ok_or_else(|| AgentError::new("no legal move"))?;
        Ok(Decision::Play(best))
    }
}

fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Hnefatafl>>, ParseError> {
    if spec == "smother" {
        return Ok(Box::new(Smother {
            moves: MoveList::new(),
            scratch: MoveList::new(),
        }));
    }
    build_agent(spec, seed)
}

fn main() {
    let config = TournamentConfig {
        game: "hnefatafl".into(),
        rules: String::new(),
        agents: vec!["random".into(), "smother".into(), "greedy".into()],
        games_per_pair: 10,
        seed: 3,
        max_plies: None,
        anchor: None,
        gauntlet: false,
        time_control: None,
        adjudication: None,
        // Each colour-swapped pair starts after four random plies, so that
        // the deterministic greedy agent does not replay one game.
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
    let start = Hnefatafl::new(HnefataflRules::default());
    let result =
        run_tournament(&config, &start, &make_agent, &options).expect("a valid tournament");
    let summary = TournamentSummary::compute(&config, &result.games, false);
    print!("{}", text_report(&summary));
}
