//! `norn engine`: a game's engine protocol on standard input and output.

use super::{CliResult, parse_rules, with_game};
use crate::engine;
use crate::registry::{self, GameList, Registered};
use clap::Args;

#[derive(Args, Debug)]
pub struct EngineArgs {
    /// The game (one with an engine protocol)
    game: String,
    /// The agent that answers generate_move
    #[arg(long, value_name = "SPEC", default_value = "alphabeta:ms=1000")]
    agent: String,
    /// Seed of the agent's random choices
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Rules options as key=value pairs
    #[arg(long)]
    rules: Option<String>,
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
}

pub fn run<L: GameList>(args: EngineArgs) -> CliResult {
    with_game!(L, args: EngineArgs, G => serve::<G>(args))
}

fn serve<G: Registered>(args: &EngineArgs) -> CliResult {
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let agent =
        registry::build_agent::<G>(&args.agent, args.seed).map_err(|error| error.to_string())?;
    let protocol = G::engine_protocols()
        .into_iter()
        .next()
        .ok_or_else(|| format!("no engine protocol is defined for {}", G::NAME))?;
    let mut session = (protocol.session)(rules, agent);
    engine::serve(
        session.as_mut(),
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    )
    .map_err(|error| error.to_string())
}
