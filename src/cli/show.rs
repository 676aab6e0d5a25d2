use super::{CliResult, initial_state, parse_rules, with_game};
use crate::core::Notation;
use crate::registry::GameList;
use clap::Args;

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The game
    game: String,
    /// The position to show (the initial one if left out)
    #[arg(long)]
    position: Option<String>,
    /// Rules options as key=value pairs
    #[arg(long)]
    rules: Option<String>,
}

pub fn run<L: GameList>(args: ShowArgs) -> CliResult {
    with_game!(L, args: ShowArgs, G => show::<G>(args))
}

fn show<G: Notation>(args: &ShowArgs) -> CliResult {
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let state: G = initial_state(args.position.as_deref(), rules)?;
    print!("{}", state.diagram());
    println!("{}", state.position_text());
    Ok(())
}
