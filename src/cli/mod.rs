//! The `norn` command line: thin wrappers over the library.
//!
//! The games come from [`crate::registry`]: every command
//! takes a game's name, runs generic code for it through a
//! [`GameVisitor`](crate::registry::GameVisitor), and refuses a game by
//! the capability it lacks. The side flags of `norn play` (`--attackers`,
//! `--dwarfs`, ...) are made from the registry's side names.

mod engine;
mod net;
mod perft;
mod play;
mod progress;
mod replay;
mod selfplay;
mod show;
mod solve;
mod tournament;
mod train;
mod train_worker;
mod view;
mod winrate;

use crate::core::{Game, Notation, ParseError, shorten_quoted};
use crate::registry::{BuiltIn, GameList};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, CommandFactory, FromArgMatches, Parser, Subcommand};
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
    /// Replay game records or game logs and check every move against the engine
    Replay(replay::ReplayArgs),
    /// Round-robin tournament between agents, with statistics and ratings
    Tournament(tournament::TournamentArgs),
    /// Combine the shards of a tournament or a win-rate run into the whole run's results
    Merge(tournament::MergeArgs),
    /// Head-to-head match that stops when a sequential test (SPRT) decides
    Match(tournament::MatchArgs),
    /// Play one game between agents (or a person at the terminal)
    Play(play::PlayArgs),
    /// Answer a game's engine protocol on standard input and output
    Engine(engine::EngineArgs),
    /// Solve a deal of a cooperative game exactly: a winning line, or proof there is none
    Solve(solve::SolveArgs),
    /// Estimate policies' win rates over many seeded deals of a cooperative game
    Winrate(winrate::WinrateArgs),
    /// Write a run (tournament, match, win-rate run or game log) as one HTML page to read offline
    View(view::ViewArgs),
    /// Policy-value networks: write a fresh one for a game, describe a file
    Net(net::NetArgs),
    /// Play games by a guided search against itself and write every decision as a training sample
    SelfPlay(selfplay::SelfPlayArgs),
    /// Train a network by self-play, generation after generation, in a run directory that resumes
    Train(train::TrainArgs),
}

/// The value parser of a game argument: the names of list `L`'s games,
/// each with its title in the help.
fn game_names<L: GameList>() -> PossibleValuesParser {
    PossibleValuesParser::new(
        L::games()
            .into_iter()
            .map(|game| PossibleValue::new(game.name).help(game.title)),
    )
}

/// Every side name of list `L`'s games, once, in the list's order.
fn side_names<L: GameList>() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for game in L::games() {
        for &side in game.sides {
            if !names.contains(&side) {
                names.push(side);
            }
        }
    }
    names
}

/// `norn play` with one flag per side name, an alias of `--player NAME=SPEC`.
fn with_side_flags<L: GameList>(play: clap::Command) -> clap::Command {
    let games = L::games();
    side_names::<L>().into_iter().fold(play, |play, side| {
        let owners: Vec<&str> = games
            .iter()
            .filter(|game| game.sides.contains(&side))
            .map(|game| game.name)
            .collect();
        play.arg(Arg::new(side).long(side).value_name("SPEC").help(format!(
            "Agent for the {side} ({}): --player {side}=SPEC",
            owners.join(", ")
        )))
    })
}

/// The command line over list `L`'s games: every command's game argument
/// takes their names, and `norn tournament` defaults to the first.
fn command_over<L: GameList>() -> clap::Command {
    let first_game = L::games().first().map(|game| game.name);
    Cli::command()
        .mut_subcommand("play", with_side_flags::<L>)
        .mut_subcommands(|command| {
            let defaulted = command.get_name() == "tournament";
            // `mut_args` changes the argument in place: `mut_arg` would move
            // it after the other positional arguments.
            command.mut_args(|arg| {
                if arg.get_id() != "game" {
                    return arg;
                }
                let arg = arg.value_parser(game_names::<L>());
                match first_game {
                    Some(first) if defaulted => arg.required(false).default_value(first),
                    _ => arg,
                }
            })
        })
}

/// Parses the command line, runs the command and returns the exit code:
/// the command line over the built-in games.
pub fn run() -> ExitCode {
    run_with::<BuiltIn>()
}

/// Parses the command line, runs the command over the games of list `L`
/// and returns the exit code; errors are reported on one line on standard
/// error. A program of a user's own games runs norn's command line over
/// them beside the built-in ones with `run_with::<(BuiltIn, MyGames)>()`
/// (see [`crate::game_list!`] and docs/layout.md).
pub fn run_with<L: GameList>() -> ExitCode {
    let parsed = command_over::<L>()
        .try_get_matches()
        .and_then(|matches| Ok((Cli::from_arg_matches(&matches)?, matches)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
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
            eprintln!("{} (see --help)", shorten_quoted(&clap_error_line(&error)));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Perft(args) => perft::run::<L>(args),
        Command::Show(args) => show::run::<L>(args),
        Command::Replay(args) => replay::run::<L>(args),
        Command::Tournament(args) => tournament::run::<L>(args),
        Command::Merge(args) => tournament::merge::<L>(args),
        Command::Match(args) => tournament::run_match_command::<L>(args),
        Command::Play(mut args) => {
            let play = matches
                .subcommand_matches("play")
                .expect("the play command was parsed");
            for side in side_names::<L>() {
                if let Some(spec) = play.get_one::<String>(side) {
                    args.side_flags.push((side.to_string(), spec.clone()));
                }
            }
            play::run::<L>(args)
        }
        Command::Engine(args) => engine::run::<L>(args),
        Command::Solve(args) => solve::run::<L>(args),
        Command::Winrate(args) => winrate::run::<L>(args),
        Command::View(args) => view::run::<L>(args),
        Command::Net(args) => net::run::<L>(args),
        Command::SelfPlay(args) => selfplay::run::<L>(args),
        Command::Train(args) => train::run::<L>(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {}", shorten_quoted(&message));
            ExitCode::FAILURE
        }
    }
}

/// A command-line error of clap on one line: its first line, and where that
/// line ends in a colon (the arguments missing), the indented lines that
/// follow it.
fn clap_error_line(error: &clap::Error) -> String {
    let rendered = error.to_string();
    let mut lines = rendered.lines();
    let mut line = lines
        .next()
        .unwrap_or("error: invalid arguments")
        .to_string();
    if line.ends_with(':') {
        let named: Vec<&str> = lines
            .take_while(|next| next.starts_with(' '))
            .map(str::trim)
            .collect();
        line.push(' ');
        line.push_str(&named.join(", "));
    }
    line
}

/// The result of a command: an error is one line of text for the user.
pub(crate) type CliResult = Result<(), String>;

/// Runs `$body` with the type `$game` bound to the game named by
/// `$args.game` and `$args` borrowed, through the registry: the command
/// line's one way from a game's name to its type.
macro_rules! with_game {
    ($list:ty, $args:ident: $args_type:ty, $game:ident => $body:expr) => {{
        let mut $args = $args;
        crate::cli::resolve_variant::<$list>(&mut $args.game, &mut $args.rules, $args.otn.take())?;
        struct Visit<'a>(&'a $args_type);

        impl crate::registry::GameVisitor for Visit<'_> {
            type Output = crate::cli::CliResult;

            fn visit<$game: crate::registry::Registered>(&mut self) -> Self::Output {
                let $args = self.0;
                $body
            }
        }

        crate::registry::visit_in::<$list, _>(&$args.game, &mut Visit(&$args))
            .map_err(|error| error.to_string())?
    }};
}
pub(crate) use with_game;

/// Reads a game's name and rules as the commands take them: `--otn TEXT`
/// becomes the rules option `otn=TEXT` (written last: its text runs to the
/// end), and a variant's name becomes its game's name with the variant's
/// rules, those given read onto them ([`registry::resolve_in`]), so that
/// a run records the game and the whole rules it was played under.
pub(crate) fn resolve_variant<L: GameList>(
    game: &mut String,
    rules: &mut Option<String>,
    otn: Option<String>,
) -> CliResult {
    if let Some(otn) = otn {
        let mut text = rules.take().unwrap_or_default();
        if !text.trim().is_empty() {
            text.push(',');
        }
        text.push_str("otn=");
        text.push_str(&otn);
        *rules = Some(text);
    }
    if let Some((base, text)) = crate::registry::resolve_in::<L>(game, rules.as_deref())? {
        *game = base.to_string();
        *rules = Some(text);
    }
    Ok(())
}

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

/// Prints a report: as one line of JSON with `--json`, else as the text
/// that `text` writes of it.
pub(crate) fn print_report<R: serde::Serialize>(
    json: bool,
    report: &R,
    text: impl FnOnce(&R) -> String,
) -> CliResult {
    if json {
        print_json(report)
    } else {
        print!("{}", text(report));
        Ok(())
    }
}

/// The number of threads to use by default: the machine's cores.
pub(crate) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Checks a `--threads` value against what the machine can use.
pub(crate) fn check_threads(threads: usize) -> CliResult {
    crate::core::check_threads("--threads", threads)
}
