//! How much a game's own evaluation swings with the parity of a search's
//! depth, on the positions of a tournament's game log: the mean value, for
//! the player to move, of plain alpha-beta searches 0, 1 and 2 plies deep
//! over the evaluation. An evaluation that knows the worth of having the
//! move gives about the same value at every depth; the swing from depth 0
//! to 1 and back at depth 2 is what MCTS's `tempo=` option takes out
//! (about half the swing, as a share of the payoff range).
//!
//! ```sh
//! cargo run --release --example tempo_probe -- koom-valley runs/NAME/games.jsonl
//! cargo run --release --example tempo_probe -- hnefatafl runs/NAME/games.jsonl tuned
//! cargo run --release --example tempo_probe -- hnefatafl tests/data/copenhagen-games.csv tuned
//! ```
//!
//! A Hnefatafl file ending in `.csv` is read as game records
//! (`tests/data/copenhagen-games.csv`) instead of a game log.
//!
//! A third argument names one of the game's evaluations (`eval=` of the
//! agent specs) instead of its own.

use norn::core::{Evaluate, Evaluator, Game, GameEvaluation, Notation, ParseError, Status};
use norn::games::hnefatafl::{GameRecord, Hnefatafl, HnefataflMove, RecordedMove};
use norn::games::thud::classic::Thud;
use norn::games::thud::koom_valley::KoomValley;
use norn::search::ShallowSearch;
use serde_json::Value;

/// Every this many plies of a game is a sample.
const SAMPLE_EVERY: usize = 7;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let (Some(game), Some(log)) = (args.next(), args.next()) else {
        return Err("usage: tempo_probe hnefatafl|thud|koom-valley GAMES.jsonl [EVAL]".into());
    };
    let evaluation = args.next();
    let text = std::fs::read_to_string(&log).map_err(|error| format!("{log}: {error}"))?;
    match game.as_str() {
        "hnefatafl" if log.ends_with(".csv") => {
            let games = text
                .lines()
                .filter(|line| !line.trim().is_empty())
                .map(recorded_plies)
                .collect::<Result<Vec<_>, _>>()?;
            probe::<Hnefatafl>(&games, evaluation.as_deref())
        }
        "hnefatafl" => probe::<Hnefatafl>(&logged_games(&text)?, evaluation.as_deref()),
        "thud" => probe::<Thud>(&logged_games(&text)?, evaluation.as_deref()),
        "koom-valley" => probe::<KoomValley>(&logged_games(&text)?, evaluation.as_deref()),
        other => Err(format!("unknown game `{other}`")),
    }
}

/// The plies of a recorded Hnefatafl game in the engine's notation.
fn recorded_plies(line: &str) -> Result<Vec<String>, String> {
    let record = GameRecord::parse_line(line).map_err(|error| error.to_string())?;
    let mut state = Hnefatafl::new(Default::default());
    let mut plies = Vec::new();
    for text in &record.moves {
        let recorded: RecordedMove = text
            .parse()
            .map_err(|error: ParseError| error.to_string())?;
        let mv = HnefataflMove {
            from: recorded.from,
            to: recorded.to,
        };
        plies.push(state.move_text(mv));
        state.play(mv);
        if state.status().is_over() {
            break;
        }
    }
    Ok(plies)
}

/// The plies of every game of a log's text.
fn logged_games(log: &str) -> Result<Vec<Vec<String>>, String> {
    log.lines()
        .filter(|line| !line.trim().is_empty())
        .map(logged_plies)
        .collect()
}

/// The plies of a logged game as text: its opening, then its moves.
fn logged_plies(line: &str) -> Result<Vec<String>, String> {
    let game: Value = serde_json::from_str(line).map_err(|error| error.to_string())?;
    let texts = |value: &Value| -> Vec<String> {
        value
            .as_array()
            .map(|plies| {
                plies
                    .iter()
                    .filter_map(|ply| ply.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut plies = texts(&game["opening"]["moves"]);
    plies.extend(texts(&game["moves"]));
    Ok(plies)
}

fn probe<G: Evaluate + Notation>(
    games: &[Vec<String>],
    evaluation: Option<&str>,
) -> Result<(), String> {
    let evaluator = || -> Result<Box<dyn Evaluator<G>>, String> {
        match evaluation {
            None => Ok(Box::new(GameEvaluation)),
            Some(name) => G::named_evaluation(name)
                .ok_or_else(|| format!("{} has no evaluation `{name}`", G::NAME)),
        }
    };
    let (low, high) = G::new(G::Rules::default()).payoff_range();
    // For each player to move: positions, and the sums of the values at
    // depths 0, 1 and 2.
    let mut samples = [0usize; 2];
    let mut sums = [[0.0f64; 3]; 2];
    for plies in games {
        let mut state = G::new(G::Rules::default());
        for (ply, text) in plies.iter().enumerate() {
            if let Status::ToMove(mover) = state.status()
                && ply % SAMPLE_EVERY == 0
                && mover < 2
            {
                samples[mover] += 1;
                for (depth, sum) in sums[mover].iter_mut().enumerate() {
                    let search = ShallowSearch::new(evaluator()?, depth as u32);
                    *sum += search.evaluate(&state, mover);
                }
            }
            let mv = state.parse_move(text).map_err(|error| error.to_string())?;
            state.play(mv);
            if state.status().is_over() {
                break;
            }
        }
    }
    let range = high - low;
    for mover in 0..2 {
        let n = samples[mover].max(1) as f64;
        let [v0, v1, v2] = sums[mover].map(|sum| sum / n);
        println!(
            "player {mover} to move, {} positions: depth 0 {v0:+.4}, 1 {v1:+.4}, 2 {v2:+.4}; \
             swing 0 to 1 {:+.4}, 1 to 2 {:+.4}; half the swing as a share of the range {:.4}",
            samples[mover],
            v1 - v0,
            v2 - v1,
            (v1 - (v0 + v2) / 2.0) / 2.0 / range
        );
    }
    Ok(())
}
