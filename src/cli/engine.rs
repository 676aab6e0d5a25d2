//! `norn engine`: a game's engine protocol on standard input and output.

use super::{CliResult, parse_rules, with_game};
use crate::engine;
use crate::registry::{self, GameList, GameVisitor, Registered};
use clap::Args;

#[derive(Args, Debug)]
pub struct EngineArgs {
    /// The game (one with an engine protocol); without it, the one game
    /// whose protocol `--protocol` names
    game: Option<String>,
    /// The protocol, e.g. `htp` or `otep`; without it, the game's first
    #[arg(long)]
    protocol: Option<String>,
    /// The agent that chooses the engine's moves
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

/// The arguments with the game named.
struct GameEngineArgs {
    game: String,
    protocol: Option<String>,
    agent: String,
    seed: u64,
    rules: Option<String>,
    otn: Option<String>,
}

pub fn run<L: GameList>(args: EngineArgs) -> CliResult {
    let game = match args.game {
        Some(game) => game,
        None => game_of_protocol::<L>(args.protocol.as_deref())?,
    };
    let args = GameEngineArgs {
        game,
        protocol: args.protocol,
        agent: args.agent,
        seed: args.seed,
        rules: args.rules,
        otn: args.otn,
    };
    with_game!(L, args: GameEngineArgs, G => serve::<G>(args))
}

/// The game of list `L` that speaks the protocol named `protocol`, when
/// exactly one does.
fn game_of_protocol<L: GameList>(protocol: Option<&str>) -> Result<String, String> {
    struct Speakers<'a>(&'a str);

    impl GameVisitor for Speakers<'_> {
        type Output = Option<&'static str>;

        fn visit<G: Registered>(&mut self) -> Self::Output {
            G::engine_protocols()
                .iter()
                .any(|protocol| protocol.name == self.0)
                .then_some(G::NAME)
        }
    }

    let protocol =
        protocol.ok_or("name the game, or the protocol with --protocol (e.g. --protocol otep)")?;
    let games: Vec<&str> = L::visit_all(&mut Speakers(protocol))
        .into_iter()
        .flatten()
        .collect();
    match games[..] {
        [game] => Ok(game.to_string()),
        [] => Err(format!(
            "no game speaks the engine protocol `{}`",
            crate::core::escape_control(protocol)
        )),
        _ => Err(format!(
            "several games speak `{protocol}` ({}): name one",
            games.join(", ")
        )),
    }
}

fn serve<G: Registered>(args: &GameEngineArgs) -> CliResult {
    let rules = parse_rules::<G>(args.rules.as_deref())?;
    let protocols = G::engine_protocols();
    let protocol = match &args.protocol {
        None => protocols
            .first()
            .ok_or_else(|| format!("no engine protocol is defined for {}", G::NAME))?,
        Some(name) => protocols
            .iter()
            .find(|protocol| protocol.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = protocols.iter().map(|protocol| protocol.name).collect();
                format!(
                    "{} speaks no engine protocol `{}` (it speaks: {})",
                    G::NAME,
                    crate::core::escape_control(name),
                    names.join(", ")
                )
            })?,
    };
    let agent =
        registry::build_agent::<G>(&args.agent, args.seed).map_err(|error| error.to_string())?;
    let mut session = (protocol.session)(rules, agent);
    engine::serve(
        session.as_mut(),
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout().lock(),
    )
    .map_err(|error| error.to_string())
}
