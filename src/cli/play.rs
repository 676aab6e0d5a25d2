//! `norn play`: one game between agents, or against a person at the terminal.

use super::{CliResult, GameName, initial_state, parse_rules, print_json, with_game};
use crate::agents::{Agent, HumanAgent, build_agent};
use crate::arena::play_game;
use crate::core::{Evaluate, Game, Notation, derive_seed};
use clap::Args;
use serde::Serialize;
use std::io::BufReader;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game
    game: GameName,
    /// Agent for the attackers (hnefatafl), e.g. "alphabeta:depth=4" or "human"
    #[arg(long, value_name = "SPEC")]
    attackers: Option<String>,
    /// Agent for the defenders (hnefatafl)
    #[arg(long, value_name = "SPEC")]
    defenders: Option<String>,
    /// Agent for the dwarfs (thud, koom-valley)
    #[arg(long, value_name = "SPEC")]
    dwarfs: Option<String>,
    /// Agent for the trolls (thud, koom-valley)
    #[arg(long, value_name = "SPEC")]
    trolls: Option<String>,
    /// Agent for player 0, the first to move
    #[arg(long, value_name = "SPEC")]
    agent0: Option<String>,
    /// Agent for player 1
    #[arg(long, value_name = "SPEC")]
    agent1: Option<String>,
    /// Agent for a side named by the game (or a player number), e.g. "trolls=mcts:ms=500"
    #[arg(long, value_name = "NAME=SPEC")]
    player: Vec<String>,
    /// Master seed; agent N uses a seed derived from it and N
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Start from this position instead of the initial one
    #[arg(long)]
    position: Option<String>,
    /// Rules options as key=value pairs
    #[arg(long)]
    rules: Option<String>,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct PlayReport {
    game: &'static str,
    seed: u64,
    players: Vec<PlayerReport>,
    start: String,
    moves: Vec<String>,
    plies: usize,
    /// The winning side's name, or null for a draw.
    winner: Option<String>,
    reason: &'static str,
    payoffs: Vec<f64>,
    final_position: String,
}

#[derive(Serialize)]
struct PlayerReport {
    name: String,
    spec: String,
}

pub fn run(args: PlayArgs) -> CliResult {
    with_game!(args.game, G => play::<G>(&args))
}

fn play<G: Notation + Evaluate>(args: &PlayArgs) -> CliResult {
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let start: G = initial_state(args.position.as_deref(), rules)?;
    let specs = assign_specs(&start, args)?;
    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::new();
    for (player, spec) in specs.iter().enumerate() {
        agents.push(if spec == "human" {
            Box::new(HumanAgent::<G>::new(
                Box::new(BufReader::new(std::io::stdin())),
                Box::new(std::io::stderr()),
            ))
        } else {
            build_agent::<G>(spec, derive_seed(args.seed, player as u64))
                .map_err(|error| error.to_string())?
        });
    }
    if start.status().is_over() {
        return Err("the game is already over in that position".into());
    }
    let game = play_game(&start, &mut agents, None).map_err(|error| error.to_string())?;
    let mut state = start.clone();
    let mut moves = Vec::with_capacity(game.moves.len());
    for &mv in &game.moves {
        moves.push(state.move_text(mv));
        state.play(mv);
    }
    let report = PlayReport {
        game: G::NAME,
        seed: args.seed,
        players: specs
            .iter()
            .enumerate()
            .map(|(player, spec)| PlayerReport {
                name: start.player_name(player),
                spec: spec.clone(),
            })
            .collect(),
        start: start.position_text(),
        plies: moves.len(),
        moves,
        winner: game
            .outcome
            .winner()
            .map(|player| start.player_name(player)),
        reason: game.outcome.reason,
        payoffs: game.outcome.payoffs.as_slice().to_vec(),
        final_position: state.position_text(),
    };
    if args.json {
        return print_json(&report);
    }
    let players: Vec<String> = report
        .players
        .iter()
        .map(|player| format!("{} = {}", player.name, player.spec))
        .collect();
    println!(
        "{}: {} (seed {})",
        report.game,
        players.join(", "),
        report.seed
    );
    let mut mover = start.clone();
    for (ply, (&mv, text)) in game.moves.iter().zip(&report.moves).enumerate() {
        let side = mover
            .status()
            .player_to_move()
            .map(|player| mover.player_name(player))
            .unwrap_or_default();
        println!("{:>4}. {side} {text}", ply + 1);
        mover.play(mv);
    }
    print!("\n{}", state.diagram());
    let result = match &report.winner {
        Some(winner) => format!("{winner} win"),
        None => "draw".to_string(),
    };
    println!(
        "result: {result} ({}) after {} plies, payoffs {:?}",
        report.reason, report.plies, report.payoffs
    );
    Ok(())
}

/// One spec per player, from the side options, `--agentN` and `--player NAME=SPEC`.
fn assign_specs<G: Game>(start: &G, args: &PlayArgs) -> Result<Vec<String>, String> {
    let players = start.num_players();
    let names: Vec<String> = (0..players).map(|p| start.player_name(p)).collect();
    let mut given: Vec<(String, String)> = Vec::new();
    for (name, spec) in [
        ("attackers", &args.attackers),
        ("defenders", &args.defenders),
        ("dwarfs", &args.dwarfs),
        ("trolls", &args.trolls),
        ("0", &args.agent0),
        ("1", &args.agent1),
    ] {
        if let Some(spec) = spec {
            given.push((name.to_string(), spec.clone()));
        }
    }
    for entry in &args.player {
        let (name, spec) = entry
            .split_once('=')
            .ok_or_else(|| format!("--player takes NAME=SPEC, not `{entry}`"))?;
        given.push((name.trim().to_string(), spec.trim().to_string()));
    }
    let mut specs: Vec<Option<String>> = vec![None; players];
    for (name, spec) in given {
        let player = names
            .iter()
            .position(|candidate| *candidate == name)
            .or_else(|| name.parse::<usize>().ok().filter(|&p| p < players))
            .ok_or_else(|| {
                format!(
                    "{} has no player `{name}` (players: {}, or numbers 0 to {})",
                    G::NAME,
                    names.join(", "),
                    players - 1
                )
            })?;
        if specs[player].replace(spec).is_some() {
            return Err(format!("two agents given for the {}", names[player]));
        }
    }
    specs
        .into_iter()
        .enumerate()
        .map(|(player, spec)| {
            spec.ok_or_else(|| {
                let name = &names[player];
                let numbered = if player < 2 {
                    format!(" or --agent{player} SPEC")
                } else {
                    String::new()
                };
                format!("no agent for the {name}: give --player {name}=SPEC{numbered}")
            })
        })
        .collect()
}
