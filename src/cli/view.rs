//! `norn view`: a run as one HTML page, written to a file or served while
//! the run goes on.

use super::{CliResult, parse_rules};
use crate::arena::view::{
    ReplayedDeals, ViewOptions, check_loopback, serve_page, view_page, win_rate_page,
};
use crate::arena::winrate::is_win_rate_run;
use crate::core::{ChanceVisitor, Stochastic};
use crate::registry::{self, GameList, GameVisitor, Registered, visit_in};
use clap::Args;
use std::marker::PhantomData;
use std::net::{IpAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Args, Debug)]
pub struct ViewArgs {
    /// A run directory (a tournament, a match or a win-rate run) or a game
    /// log (games.jsonl)
    path: PathBuf,
    /// Write the page to this file [default: view.html in the run's
    /// directory; for a log, the log's name with .html]
    #[arg(long, value_name = "FILE", conflicts_with = "watch")]
    out: Option<PathBuf>,
    /// Serve the page on this machine instead, writing it again whenever
    /// the run's game log grows (the page reloads itself); Ctrl-C stops
    #[arg(long)]
    watch: bool,
    /// The port to serve on (0: any free port)
    #[arg(long, requires = "watch", default_value_t = 0)]
    port: u16,
    /// The address to serve on: a loopback address only
    #[arg(long, requires = "watch", default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The game of a log without a config.json beside it [default: the
    /// game whose sides the log's first game names]
    #[arg(long)]
    game: Option<String>,
    /// Rules options of a log without a config.json beside it
    #[arg(long)]
    rules: Option<String>,
    /// An OpenTafl rules string, for the `tafl` game: `--rules otn=...`,
    /// e.g. "dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    #[arg(long)]
    otn: Option<String>,
    /// For a win-rate run: how many of its first deals each policy plays
    /// again for the page's list of games (0: none)
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=MAX_REPLAYED_DEALS))]
    deals: u64,
}

/// The most deals a win-rate run's page plays again per policy: each is a
/// whole game to play and store.
const MAX_REPLAYED_DEALS: u64 = 100_000;

pub fn run<L: GameList>(mut args: ViewArgs) -> CliResult {
    if args.watch {
        check_loopback(args.bind)?;
    }
    let metadata = std::fs::metadata(&args.path)
        .map_err(|error| format!("cannot read {}: {error}", args.path.display()))?;
    let dir = match metadata.is_dir() {
        true => args.path.clone(),
        false => args.path.parent().unwrap_or(Path::new(".")).to_path_buf(),
    };
    let game = match run_game(&dir)? {
        Some(game) => game,
        None => {
            let mut game = match &args.game {
                Some(game) => game.clone(),
                None => log_game::<L>(&args.path)?,
            };
            super::resolve_variant::<L>(&mut game, &mut args.rules, args.otn.take())?;
            game
        }
    };
    visit_in::<L, _>(
        &game,
        &mut View {
            args: &args,
            dir: &dir,
        },
    )
    .map_err(|error| error.to_string())?
}

/// The game a run directory's `config.json` names, if it has one.
fn run_game(dir: &Path) -> Result<Option<String>, String> {
    let path = dir.join("config.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("cannot read {}: {error}", path.display())),
    };
    let config: serde_json::Value = serde_json::from_str(&text)
        .map_err(|error| format!("{} is not a run's configuration: {error}", path.display()))?;
    match config.get("game").and_then(serde_json::Value::as_str) {
        Some(game) => Ok(Some(game.to_string())),
        None => Err(format!("{} names no game", path.display())),
    }
}

/// The game of a log without a run directory: the one game of list `L`
/// whose sides its first game names.
fn log_game<L: GameList>(log: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(log)
        .map_err(|error| format!("cannot read {}: {error}", log.display()))?;
    let (number, first) = text
        .lines()
        .enumerate()
        .find(|(_, line)| !line.trim().is_empty())
        .ok_or_else(|| format!("{} holds no games; give --game to view it", log.display()))?;
    #[derive(serde::Deserialize)]
    struct Sides {
        sides: Vec<String>,
    }
    let sides = serde_json::from_str::<Sides>(first)
        .map_err(|error| {
            format!(
                "{}: line {}: not a logged game: {error}",
                log.display(),
                number + 1
            )
        })?
        .sides;
    let games: Vec<&'static str> = L::games()
        .into_iter()
        .filter(|game| {
            game.sides
                .iter()
                .copied()
                .eq(sides.iter().map(String::as_str))
        })
        .map(|game| game.name)
        .collect();
    match games.as_slice() {
        [game] => Ok(game.to_string()),
        [] => Err(format!("no game has the sides {sides:?}; give --game")),
        several => Err(format!(
            "the sides {sides:?} are those of {}; give --game",
            several.join(", ")
        )),
    }
}

/// Whether `dir` holds a sweep of win-rate runs, as its `config.json`
/// says.
fn is_sweep(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("config.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .is_some_and(|config| config.get("run") == Some(&serde_json::Value::from("sweep")))
}

struct View<'a> {
    args: &'a ViewArgs,
    dir: &'a Path,
}

impl GameVisitor for View<'_> {
    type Output = CliResult;

    fn visit<G: Registered>(&mut self) -> CliResult {
        if is_win_rate_run(self.dir) || is_sweep(self.dir) {
            return G::with_chance(WinRateView::<G> {
                view: self,
                game: PhantomData,
            })
            .unwrap_or_else(|| Err(format!("{} has no win-rate runs", G::NAME)));
        }
        let rules = parse_rules::<G>(self.args.rules.as_deref())?;
        let make = |options| view_page::<G>(&self.args.path, &rules, options);
        let log = match self.args.path.is_dir() {
            true => self.dir.join("games.jsonl"),
            false => self.args.path.clone(),
        };
        write_or_serve(self.args, &log, &make)
    }
}

struct WinRateView<'a, 'b, G> {
    view: &'a View<'b>,
    game: PhantomData<G>,
}

impl<G: Registered> ChanceVisitor<G> for WinRateView<'_, '_, G> {
    type Output = CliResult;

    fn visit(self) -> CliResult
    where
        G: Stochastic,
    {
        let dir = self.view.dir;
        let replay = ReplayedDeals {
            count: self.view.args.deals,
            build: Arc::new(registry::build_agent::<G>),
        };
        let make = |options| win_rate_page::<G>(dir, options, &replay);
        write_or_serve(self.view.args, &dir.join("deals.jsonl"), &make)
    }
}

/// Writes the page `make` makes, or serves it while `log` grows.
fn write_or_serve(
    args: &ViewArgs,
    log: &Path,
    make: &dyn Fn(ViewOptions) -> Result<String, String>,
) -> CliResult {
    if !args.watch {
        let page = make(ViewOptions::default())?;
        let out = match &args.out {
            Some(out) => out.clone(),
            None if args.path.is_dir() => args.path.join("view.html"),
            None => args.path.with_extension("html"),
        };
        std::fs::write(&out, &page)
            .map_err(|error| format!("cannot write {}: {error}", out.display()))?;
        eprintln!("wrote {} ({} bytes)", out.display(), page.len());
        return Ok(());
    }
    let listener = TcpListener::bind((args.bind, args.port))
        .map_err(|error| format!("cannot listen on {}:{}: {error}", args.bind, args.port))?;
    let address = listener.local_addr().map_err(|error| error.to_string())?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // Without a handler Ctrl-C still ends the server, only less tidily.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    println!("serving http://{address}/ (Ctrl-C stops)");
    let make_version = |version| {
        make(ViewOptions {
            version: Some(version),
        })
    };
    serve_page(&listener, log, &make_version, &stop, &|news| {
        eprintln!("{news}")
    })?;
    eprintln!("stopped");
    Ok(())
}
