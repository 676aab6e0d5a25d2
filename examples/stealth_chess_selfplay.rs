//! Stealth Chess self-play: how often White wins, how long games last, how
//! they end, and how often the Assassins decide them.
//!
//! Two agents (alpha-beta at a fixed depth by default) play games from the
//! start, each opened by a few seeded random plies so that no two games are
//! the same, with colours swapped every game. Every ply is examined for
//! captures by Assassins, and every mate for a stealth check.
//!
//! Run with `cargo run --release --example stealth_chess_selfplay -- [GAMES] [SPEC] [SPEC]`.

use norn::agents::Decision;
use norn::core::{Game, MoveList, rng_from_seed};
use norn::games::stealth_chess::{Kind, Special, StealthChess, StealthChessRules, square_name};
use norn::rand::RngExt;
use norn::registry::Registered;
use std::collections::BTreeMap;

/// Random plies at the start of each game: one move per side.
const RANDOM_OPENING: usize = 2;

#[derive(Default)]
struct Tally {
    games: usize,
    white_score: f64,
    plies: Vec<usize>,
    endings: BTreeMap<&'static str, usize>,
    assassin_captures: usize,
    own_piece_captures: usize,
    quiet_emergences: usize,
    games_with_assassin_capture: usize,
    mates: usize,
    stealth_mates: usize,
    /// Decisive games whose winner's Assassins captured more material
    /// (pieces) than the loser's.
    won_on_assassin_captures: usize,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args
        .get(1)
        .map_or(20, |n| n.parse().expect("a number of games"));
    let specs = [
        args.get(2).map_or("alphabeta:depth=3", String::as_str),
        args.get(3).map_or("alphabeta:depth=3", String::as_str),
    ];
    let rules = StealthChessRules::default();
    let mut tally = Tally::default();
    for game in 0..games {
        let mut rng = rng_from_seed(game as u64);
        // Colours swap every game: agent `game % 2` plays White.
        let seats = if game % 2 == 0 { [0, 1] } else { [1, 0] };
        let mut agents: Vec<_> = seats
            .iter()
            .map(|&agent| StealthChess::build_agent(specs[agent], game as u64).unwrap())
            .collect();
        let mut state = StealthChess::new(rules);
        let mut moves = MoveList::new();
        let mut captures_by_side = [0usize; 2];
        let mut captured_any = false;
        while !state.status().is_over() {
            let player = state.status().player_to_move().unwrap();
            let mv = if (state.ply() as usize) < RANDOM_OPENING {
                state.legal_moves(&mut moves);
                moves[rng.random_range(0..moves.len())]
            } else {
                match agents[player].decide(&state, player).unwrap() {
                    Decision::Play(mv) => mv,
                    Decision::Resign => break,
                }
            };
            let mover = state.piece_at(mv.from).unwrap();
            if mover.kind == Kind::Assassin {
                let target = match mv.special {
                    Special::EmergeCapture(_) | Special::None => state.piece_at(mv.to),
                    _ => None,
                };
                // Leaving a Slurk for another file is an emergence.
                let emerges = state.slurk_mark(mv.from).is_some()
                    && square_name(mv.from)[..1] != square_name(mv.to)[..1];
                if emerges && target.is_none() {
                    tally.quiet_emergences += 1;
                }
                if let Some(target) = target {
                    tally.assassin_captures += 1;
                    captured_any = true;
                    if target.side == mover.side {
                        tally.own_piece_captures += 1;
                    } else {
                        captures_by_side[player] += 1;
                    }
                }
            }
            state.play(mv);
        }
        let outcome = state.status().outcome().expect("a finished game");
        tally.games += 1;
        tally.white_score += (outcome.payoffs.get(0) + 1.0) / 2.0;
        tally.plies.push(state.ply() as usize);
        *tally.endings.entry(outcome.reason).or_insert(0) += 1;
        tally.games_with_assassin_capture += usize::from(captured_any);
        if outcome.reason == "checkmate" {
            tally.mates += 1;
            tally.stealth_mates += usize::from(state.in_stealth_check());
        }
        if let Some(winner) = outcome.winner()
            && captures_by_side[winner] > captures_by_side[1 - winner]
        {
            tally.won_on_assassin_captures += 1;
        }
        eprintln!(
            "game {game}: {} after {} plies",
            outcome.reason,
            state.ply()
        );
    }
    report(&tally, &specs);
}

fn report(tally: &Tally, specs: &[&str; 2]) {
    let mut plies = tally.plies.clone();
    plies.sort_unstable();
    let mean = plies.iter().sum::<usize>() as f64 / plies.len().max(1) as f64;
    println!(
        "agents: {} and {} (colours alternate), {RANDOM_OPENING} random opening plies",
        specs[0], specs[1]
    );
    println!("games: {}", tally.games);
    println!(
        "White's score: {:.1}%",
        100.0 * tally.white_score / tally.games.max(1) as f64
    );
    println!(
        "length in plies: mean {mean:.1}, median {}, min {}, max {}",
        plies.get(plies.len() / 2).copied().unwrap_or(0),
        plies.first().copied().unwrap_or(0),
        plies.last().copied().unwrap_or(0)
    );
    println!("endings: {:?}", tally.endings);
    println!(
        "Assassin captures: {} ({} of the capturer's own pieces), in {} of {} games",
        tally.assassin_captures,
        tally.own_piece_captures,
        tally.games_with_assassin_capture,
        tally.games
    );
    println!("emergences without capture: {}", tally.quiet_emergences);
    println!(
        "mates: {}, of them by stealth check (an Assassin's leap or emergence among the checks): {}",
        tally.mates, tally.stealth_mates
    );
    println!(
        "decisive games whose winner's Assassins took more enemy pieces: {}",
        tally.won_on_assassin_captures
    );
}
