//! `norn net`: fresh networks written to a file, and a file's network
//! described.

use super::{CliResult, parse_rules, print_json, with_game};
use crate::core::sha256_hex;
use crate::learning::load_game_in;
use crate::net::{GameShape, NetDescription, NetOptions, Network, read_network_file};
use crate::registry::{GameList, Registered};
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct NetArgs {
    #[command(subcommand)]
    command: NetCommand,
}

#[derive(Subcommand, Debug)]
enum NetCommand {
    /// Write a freshly initialised network for a game
    Init(InitArgs),
    /// Describe a network file: game, rules, shapes, layers, parameters, digest
    Info(InfoArgs),
}

#[derive(Args, Debug)]
pub struct InitArgs {
    /// The game
    game: String,
    /// The file to write (safetensors)
    #[arg(long)]
    out: PathBuf,
    /// The seed the weights are drawn from
    #[arg(long)]
    seed: u64,
    /// Rules options as key=value pairs
    #[arg(long)]
    rules: Option<String>,
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// The architecture as key=value pairs, e.g. "blocks=6,channels=64"
    /// (kind=auto|residual|mlp, blocks, channels, hidden-layers,
    /// hidden-size, policy-channels, value-channels, value-hidden); default:
    /// 4 blocks of 32 channels for boards, 2 layers of 256 otherwise
    #[arg(long)]
    arch: Option<String>,
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The network file
    file: PathBuf,
    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,
}

pub fn run<L: GameList>(args: NetArgs) -> CliResult {
    match args.command {
        NetCommand::Init(args) => with_game!(L, args: InitArgs, G => init::<G>(args)),
        NetCommand::Info(args) => info::<L>(&args),
    }
}

fn init<G: Registered>(args: &InitArgs) -> CliResult {
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let options: NetOptions = match &args.arch {
        Some(text) => text.parse().map_err(|error| format!("--arch: {error}"))?,
        None => NetOptions::default(),
    };
    let shape = GameShape::of_game::<G>(&rules);
    let description = NetDescription::new(&shape, &options).map_err(|error| error.to_string())?;
    let network = Network::init(description, args.seed).map_err(|error| error.to_string())?;
    network.save(&args.out).map_err(|error| error.to_string())?;
    println!(
        "wrote {}: a {} network of {} parameters for {}",
        args.out.display(),
        architecture_line(network.description()),
        network.parameters().len(),
        G::NAME
    );
    Ok(())
}

/// The architecture in a few words.
fn architecture_line(description: &NetDescription) -> String {
    match &description.architecture {
        crate::net::Architecture::Residual {
            blocks, channels, ..
        } => format!("residual ({blocks} blocks of {channels} channels)"),
        crate::net::Architecture::Mlp { hidden, .. } => {
            let sizes: Vec<String> = hidden.iter().map(usize::to_string).collect();
            format!("perceptron (hidden layers {})", sizes.join("x"))
        }
    }
}

/// What `norn net info` reports.
#[derive(serde::Serialize)]
struct Info {
    file: String,
    bytes: u64,
    sha256: String,
    parameters: usize,
    description: NetDescription,
    tensors: Vec<(String, Vec<usize>)>,
    /// Whether this build's game of that name and rules has the
    /// network's shapes.
    plays: bool,
    /// Why not, where it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    mismatch: Option<String>,
}

fn info<L: GameList>(args: &InfoArgs) -> CliResult {
    let bytes = read_network_file(&args.file).map_err(|error| error.to_string())?;
    let network =
        Network::from_bytes(&bytes).map_err(|error| format!("{}: {error}", args.file.display()))?;
    let description = network.description().clone();
    let plays = load_game_in::<L>(&description.game, &description.rules)
        .map_err(|error| error.to_string())
        .and_then(|game| {
            description
                .check_game(&GameShape::of(game.as_ref()))
                .map_err(|error| error.to_string())
        });
    let info = Info {
        file: args.file.display().to_string(),
        bytes: bytes.len() as u64,
        sha256: sha256_hex(&bytes),
        parameters: network.parameters().len(),
        tensors: network
            .tensor_specs()
            .iter()
            .map(|spec| (spec.name.clone(), spec.shape.clone()))
            .collect(),
        description,
        plays: plays.is_ok(),
        mismatch: plays.err(),
    };
    if args.json {
        return print_json(&info);
    }
    let description = &info.description;
    println!("file         {} ({} bytes)", info.file, info.bytes);
    println!("sha256       {}", info.sha256);
    println!("game         {}", description.game);
    println!("rules        {}", description.rules);
    match &info.mismatch {
        None => println!("plays        yes: this build's game has these shapes"),
        Some(why) => println!("plays        no: {why}"),
    }
    println!("input        {:?}", description.input_shape);
    println!("actions      {}", description.num_actions);
    println!(
        "values       {} ({:?}, payoffs {} to {})",
        description.num_values,
        description.value_layout,
        description.payoff_range.0,
        description.payoff_range.1
    );
    println!("network      {}", architecture_line(description));
    println!("parameters   {}", info.parameters);
    for (name, shape) in &info.tensors {
        println!("  {name:<24} {shape:?}");
    }
    Ok(())
}
