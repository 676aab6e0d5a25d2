//! `norn play`: one game between agents, or against a person at the terminal.

use super::{CliResult, GameName, initial_state, parse_rules, print_json, with_game};
use crate::agents::{Agent, HumanAgent, build_agent};
use crate::arena::play_game;
use crate::arena::winrate::{SpecBuilder, deal};
use crate::core::{Evaluate, Game, Notation, Stochastic, derive_seed};
use crate::games::fenrir_cards::{self, FenrirCards};
use crate::games::fenrir_path::FenrirPath;
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
    /// Start from this position instead of the initial one (without it, a
    /// cooperative game is dealt as deal 0 of `norn winrate --seed S`)
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
    /// The winning side's name, or null for a draw or a cooperative game
    /// (whose shared result is in `payoffs`).
    winner: Option<String>,
    reason: &'static str,
    payoffs: Vec<f64>,
    final_position: String,
}

#[derive(Serialize)]
struct PlayerReport {
    name: String,
    spec: String,
    /// Whether this player reads cards the rules hide from it.
    sees_hidden_cards: bool,
}

/// How a game's players are built from their specs.
struct Roster<G: Game> {
    build: SpecBuilder<G>,
    /// Whether a spec's player reads cards the rules hide from it.
    sees_hidden_cards: fn(&str) -> bool,
    /// Why a person cannot play this game at the terminal, if they cannot.
    no_humans: Option<&'static str>,
}

impl<G: Evaluate> Roster<G> {
    /// The generic agents, for games whose players see the whole state.
    fn open() -> Self {
        Roster {
            build: build_agent::<G>,
            sees_hidden_cards: |_| false,
            no_humans: None,
        }
    }
}

pub fn run(args: PlayArgs) -> CliResult {
    match args.game {
        GameName::FenrirPath => play(&args, dealt::<FenrirPath>(&args)?, Roster::open()),
        GameName::FenrirCards => play(
            &args,
            dealt::<FenrirCards>(&args)?,
            Roster {
                build: fenrir_cards::build_policy,
                sees_hidden_cards: fenrir_cards::sees_hidden_cards,
                no_humans: Some("the terminal would show every hand"),
            },
        ),
        _ => with_game!(args.game, G => {
            let rules = parse_rules::<G>(args.rules.as_deref())?;
            play(&args, initial_state::<G>(args.position.as_deref(), rules)?, Roster::open())
        }),
    }
}

/// The start of a game with a deal: the given position, or else the deal
/// `norn winrate --seed S` plays first, so that a run's deal can be watched.
fn dealt<G: Notation + Stochastic>(args: &PlayArgs) -> Result<G, String> {
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    match &args.position {
        Some(_) => initial_state(args.position.as_deref(), rules),
        None => Ok(deal(&rules, args.seed, 0)),
    }
}

fn play<G: Notation>(args: &PlayArgs, start: G, roster: Roster<G>) -> CliResult {
    let specs = assign_specs(&start, args)?;
    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::new();
    for (player, spec) in specs.iter().enumerate() {
        agents.push(if spec == "human" {
            if let Some(reason) = roster.no_humans {
                return Err(format!("a person cannot play {} here: {reason}", G::NAME));
            }
            Box::new(HumanAgent::<G>::new(
                Box::new(BufReader::new(std::io::stdin())),
                Box::new(std::io::stderr()),
            ))
        } else {
            (roster.build)(spec, derive_seed(args.seed, player as u64))
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
                sees_hidden_cards: (roster.sees_hidden_cards)(spec),
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
        .map(|player| {
            let label = if player.sees_hidden_cards {
                " (sees every hand)"
            } else {
                ""
            };
            format!("{} = {}{label}", player.name, player.spec)
        })
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
    let (worst, best) = state.payoff_range();
    let payoffs = game.outcome.payoffs.as_slice();
    let result = match &report.winner {
        Some(winner) => format!("{winner} win"),
        // A cooperative team (or a lone player) shares one payoff.
        None if payoffs.iter().all(|&payoff| payoff >= best) => "the team wins".to_string(),
        None if payoffs.iter().all(|&payoff| payoff <= worst) => "the team loses".to_string(),
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
