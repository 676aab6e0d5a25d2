//! The `norn` command line: thin wrappers over the library.

mod engine;
mod perft;
mod play;
mod replay;
mod show;
mod solve;
mod tournament;
mod winrate;

use crate::core::{Game, Notation, ParseError};
use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "norn",
    version,
    about = "Engines, searchers and experiments for Norse games",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count move sequences of a given length (a move-generator check and benchmark)
    Perft(perft::PerftArgs),
    /// Print a position as a board diagram
    Show(show::ShowArgs),
    /// Replay game records and check every move and capture against the engine
    Replay(replay::ReplayArgs),
    /// Round-robin tournament between agents, with statistics and ratings
    Tournament(tournament::TournamentArgs),
    /// Combine the logs of tournament shards into one summary
    Merge(tournament::MergeArgs),
    /// Head-to-head match that stops when a sequential test (SPRT) decides
    Match(tournament::MatchArgs),
    /// Play one game between agents (or a person at the terminal)
    Play(play::PlayArgs),
    /// Answer the Hnefatafl Text Protocol on standard input and output
    Engine(engine::EngineArgs),
    /// Solve a deal of a cooperative game exactly: a winning line, or proof there is none
    Solve(solve::SolveArgs),
    /// Estimate policies' win rates over many seeded deals of a cooperative game
    Winrate(winrate::WinrateArgs),
}

/// The games the command line knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// Copenhagen Hnefatafl 11x11
    Hnefatafl,
    /// Classic Thud: one battle, scored by its margin
    Thud,
    /// Koom Valley Thud
    KoomValley,
    /// Fenrir's Path, the cooperative tile game
    FenrirPath,
    /// Fetters of Fenrir, the cooperative card game of hidden hands
    FenrirCards,
}

/// Runs `$body` with `$game` bound to the type of the named game.
macro_rules! with_game {
    ($name:expr, $game:ident => $body:expr) => {
        match $name {
            GameName::Hnefatafl => {
                type $game = crate::games::hnefatafl::Hnefatafl;
                $body
            }
            GameName::Thud => {
                type $game = crate::games::thud::Thud;
                $body
            }
            GameName::KoomValley => {
                type $game = crate::games::thud::KoomValley;
                $body
            }
            GameName::FenrirPath => {
                type $game = crate::games::fenrir_path::FenrirPath;
                $body
            }
            GameName::FenrirCards => {
                type $game = crate::games::fenrir_cards::FenrirCards;
                $body
            }
        }
    };
}
pub(crate) use with_game;

/// Parses the command line, runs the command and returns the exit code.
/// Errors are reported on one line on standard error.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            use clap::error::ErrorKind;
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                print!("{error}");
                return ExitCode::SUCCESS;
            }
            if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                eprint!("{}", error.render());
                return ExitCode::from(2);
            }
            let rendered = error.to_string();
            let first_line = rendered
                .lines()
                .next()
                .unwrap_or("error: invalid arguments");
            eprintln!("{first_line} (see --help)");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Show(args) => show::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Merge(args) => tournament::merge(args),
        Command::Match(args) => tournament::run_match_command(args),
        Command::Play(args) => play::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Winrate(args) => winrate::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The result of a command: an error is one line of text for the user.
pub(crate) type CliResult = Result<(), String>;

/// The rules from `--rules` text (defaults when absent).
pub(crate) fn parse_rules<G: Game>(text: Option<&str>) -> Result<G::Rules, String> {
    match text {
        None => Ok(G::Rules::default()),
        Some(text) => text.parse().map_err(|error: ParseError| error.to_string()),
    }
}

/// The state from `--position` text, or the starting position.
pub(crate) fn initial_state<G: Notation>(
    position: Option<&str>,
    rules: G::Rules,
) -> Result<G, String> {
    match position {
        None => Ok(G::new(rules)),
        Some(text) => G::from_position_text(text, rules).map_err(|error| error.to_string()),
    }
}

/// Prints a value as one line of JSON.
pub(crate) fn print_json<T: serde::Serialize>(value: &T) -> CliResult {
    let text = serde_json::to_string(value).map_err(|error| error.to_string())?;
    println!("{text}");
    Ok(())
}
