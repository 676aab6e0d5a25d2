//! Perft, a move typed as text, and one game between two searchers.
//!
//! Run with `cargo run --release --example quickstart`.

use norn::agents::build_agent;
use norn::arena::{PlayOptions, play_game};
use norn::core::{Game, Notation};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::search::perft;

fn main() {
    let mut game = Hnefatafl::new(HnefataflRules::default());
    println!("perft(2) from the start: {}", perft(&game, 2));
    let mv = game.parse_move("d1-d3").expect("a legal opening move");
    game.try_play(mv).expect("the move was checked");
    println!("{}", game.diagram());

    let mut agents = vec![
        build_agent::<Hnefatafl>("alphabeta:depth=3", 1).expect("a valid spec"),
        build_agent::<Hnefatafl>("mcts:iters=2000", 2).expect("a valid spec"),
    ];
    let start = Hnefatafl::new(HnefataflRules::default());
    let played =
        play_game(&start, &mut agents, &PlayOptions::default()).expect("hnefatafl is turn-based");
    let winner = played
        .outcome
        .winner()
        .map_or("nobody".to_string(), |player| start.player_name(player));
    println!(
        "alphabeta:depth=3 (attackers) vs mcts:iters=2000 (defenders): {winner} won by {} after {} plies",
        played.outcome.reason,
        played.plies.len()
    );
}
