//! `norn play`: one game between agents, or against a person at the terminal.

use super::{CliResult, initial_state, parse_rules, print_json, with_game};
use crate::agents::{Agent, HumanAgent};
use crate::arena::winrate::deal;
use crate::arena::{PlayOptions, TimeControl, play_game, replay_plies};
use crate::core::{
    Capabilities, ChanceVisitor, Game, PlyText, Status, Stochastic, check_memory, derive_seed,
};
use crate::engine::stop_all_engines;
use crate::registry::{self, GameList, Registered};
use clap::Args;
use serde::Serialize;
use std::io::BufReader;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game
    game: String,
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
    /// game that starts with a deal is dealt as deal 0 of `norn winrate --seed S`)
    #[arg(long)]
    position: Option<String>,
    /// Rules options as key=value pairs
    #[arg(long)]
    rules: Option<String>,
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// A game clock per player, BASE+INCREMENT in seconds (60+0.5): a player
    /// that runs out of time loses; agents with a time limit (ms=) spend
    /// their clock instead
    #[arg(long, value_name = "BASE+INC")]
    tc: Option<TimeControl>,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
    /// The side flags given (`--attackers SPEC` and the like), made from the
    /// registry's side names.
    #[arg(skip)]
    pub(super) side_flags: Vec<(String, String)>,
}

#[derive(Serialize)]
struct PlayReport {
    game: &'static str,
    seed: u64,
    /// The game clock, if the game had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    time_control: Option<TimeControl>,
    players: Vec<PlayerReport>,
    start: String,
    moves: Vec<PlyText>,
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
    /// Whether this player reads information the rules hide from it.
    sees_hidden_information: bool,
    /// With a game clock, the wall-clock seconds this player's played
    /// moves took in all (a decision that ran out of time is not one);
    /// left out without a clock, so that a seed's report is the same from
    /// run to run.
    #[serde(skip_serializing_if = "Option::is_none")]
    seconds: Option<f64>,
}

pub fn run<L: GameList>(args: PlayArgs) -> CliResult {
    with_game!(L, args: PlayArgs, G => play::<G>(args))
}

/// The deal `norn winrate --seed S` plays first, so that a run's deal can
/// be watched.
struct Deal<G> {
    state: G,
    seed: u64,
}

impl<G: Game> ChanceVisitor<G> for Deal<G> {
    type Output = G;

    fn visit(self) -> G
    where
        G: Stochastic,
    {
        deal(self.state.rules(), self.seed, 0)
    }
}

fn play<G: Registered>(args: &PlayArgs) -> CliResult {
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let start: G = initial_state(args.position.as_deref(), rules)?;
    let start = match start.status() {
        Status::Chance => G::with_chance(Deal {
            state: start,
            seed: args.seed,
        })
        .ok_or("the game reached a chance event it cannot resolve")?,
        _ => start,
    };
    let specs = assign_specs(&start, args)?;
    // Outside engines run in process groups of their own, which the
    // terminal's Ctrl-C does not reach (with none running, Ctrl-C only ends
    // the game, as it would without the handler).
    let _ = ctrlc::set_handler(|| {
        stop_all_engines();
        std::process::exit(130);
    });
    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::new();
    for (player, spec) in specs.iter().enumerate() {
        agents.push(if spec == "human" {
            if Capabilities::of::<G>().hidden_information {
                return Err(format!(
                    "a person cannot play {} at this terminal: it would show every player's hidden information",
                    G::NAME
                ));
            }
            Box::new(HumanAgent::<G>::new(
                Box::new(BufReader::new(std::io::stdin())),
                Box::new(std::io::stderr()),
            ))
        } else {
            registry::build_agent::<G>(spec, derive_seed(args.seed, player as u64))
                .map_err(|error| error.to_string())?
        });
    }
    let memory = agents.iter().map(|agent| agent.memory_bytes()).sum();
    check_memory("the agents' tables and trees", memory)?;
    if start.status().is_over() {
        return Err("the game is already over in that position".into());
    }
    let options = PlayOptions {
        chance_seed: derive_seed(args.seed, u64::MAX),
        clock: args.tc,
        record_search: args.tc.is_some(),
        ..PlayOptions::default()
    };
    let game = play_game(&start, &mut agents, &options).map_err(|error| error.to_string())?;
    // One replay gives the final state, each ply's text and side, and the
    // time each player's decisions took (at a simultaneous choice every
    // player decided, player 0 first).
    let mut moves = Vec::with_capacity(game.plies.len());
    let mut sides = Vec::with_capacity(game.plies.len());
    let mut seconds = vec![0.0; start.num_players()];
    let mut decisions = game.decisions.iter();
    let state = replay_plies(&start, &game.plies, game.chance_seed, |before, ply| {
        moves.push(before.ply_text(ply));
        let deciders = decisions.next().map_or(&[][..], Vec::as_slice);
        let mover = match before.status() {
            Status::ToMove(player) => Some(player),
            _ => None,
        };
        for (index, decision) in deciders.iter().enumerate() {
            seconds[mover.unwrap_or(index)] += decision.seconds;
        }
        sides.push(match mover {
            Some(player) => before.player_name(player),
            None => "together".to_string(),
        });
    })?;
    let report = PlayReport {
        game: G::NAME,
        seed: args.seed,
        time_control: args.tc,
        players: specs
            .iter()
            .zip(&agents)
            .enumerate()
            .map(|(player, (spec, agent))| PlayerReport {
                name: start.player_name(player),
                spec: spec.clone(),
                sees_hidden_information: agent.sees_hidden_information(),
                seconds: args.tc.map(|_| seconds[player]),
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
            let label = if player.sees_hidden_information {
                " (sees hidden information)"
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
    for (number, (side, text)) in sides.iter().zip(&report.moves).enumerate() {
        println!("{:>4}. {side} {}", number + 1, text.one_line());
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
    if let Some(control) = report.time_control {
        let used: Vec<String> = report
            .players
            .iter()
            .map(|player| format!("{} {:.3} s", player.name, player.seconds.unwrap_or(0.0)))
            .collect();
        println!("clock {control}: used {}", used.join(", "));
    }
    Ok(())
}

/// One spec per player, from the side flags, `--agentN` and `--player NAME=SPEC`.
fn assign_specs<G: Game>(start: &G, args: &PlayArgs) -> Result<Vec<String>, String> {
    let players = start.num_players();
    let names: Vec<String> = (0..players).map(|p| start.player_name(p)).collect();
    let mut given: Vec<(String, String)> = args.side_flags.clone();
    for (name, spec) in [("0", &args.agent0), ("1", &args.agent1)] {
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
