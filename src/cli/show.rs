use super::{CliResult, initial_state, parse_rules, with_game};
use crate::core::{Notation, Viewer};
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
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// Print the position as an SVG picture instead of a diagram
    #[arg(long)]
    svg: bool,
    /// With --svg: draw what this player (numbered from 0) sees, hiding
    /// what the others hold; everything is drawn if left out
    #[arg(long, requires = "svg")]
    seen_by: Option<usize>,
}

pub fn run<L: GameList>(args: ShowArgs) -> CliResult {
    with_game!(L, args: ShowArgs, G => show::<G>(args))
}

fn show<G: Notation>(args: &ShowArgs) -> CliResult {
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let state: G = initial_state(args.position.as_deref(), rules)?;
    if args.svg {
        let viewer = match args.seen_by {
            None => Viewer::All,
            Some(player) if player < state.num_players() => Viewer::Player(player),
            Some(player) => {
                return Err(format!(
                    "--seen-by {player}: the game has players 0 to {}",
                    state.num_players() - 1
                ));
            }
        };
        print!("{}", state.picture().svg(viewer));
        return Ok(());
    }
    print!("{}", state.diagram());
    println!("{}", state.position_text());
    Ok(())
}
