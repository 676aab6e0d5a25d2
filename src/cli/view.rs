//! `norn view`: a run as one HTML page, written to a file or served while
//! the run goes on.

use super::{CliResult, parse_rules};
use crate::arena::LogReader;
use crate::arena::view::{
    DEFAULT_VIEWED_GAMES, ReplayedDeals, ViewOptions, check_loopback, serve_page, view_page,
    win_rate_page,
};
use crate::arena::winrate::is_win_rate_run;
use crate::core::{ChanceVisitor, Stochastic};
use crate::learning::train::store::LOSSES;
use crate::learning::train::view::train_page;
use crate::registry::{self, GameList, GameVisitor, Registered, visit_in};
use clap::Args;
use std::marker::PhantomData;
use std::net::{IpAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Args, Debug)]
pub struct ViewArgs {
    /// A run directory (a tournament, a match, a win-rate run or a
    /// training run) or a game log (games.jsonl)
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
    /// For a tournament or a match: the most games the page's list holds,
    /// the first by index (each is stored with its pictures; the report
    /// counts every game)
    #[arg(long, default_value_t = DEFAULT_VIEWED_GAMES as u64, value_parser = clap::value_parser!(u64).range(0..=MAX_VIEWED_GAMES))]
    games: u64,
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

/// The most games a tournament's page may hold: each is a game's pictures
/// in the page, and a browser opens a page of this many short games.
const MAX_VIEWED_GAMES: u64 = 1_000_000;

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
    // Only the first game is read: the log may hold millions of them.
    let unreadable = |error: std::io::Error| format!("cannot read {}: {error}", log.display());
    let mut reader = LogReader::open(log).map_err(unreadable)?;
    let first = loop {
        let line = reader
            .next_line()
            .map_err(unreadable)?
            .ok_or_else(|| format!("{} holds no games; give --game to view it", log.display()))?;
        if !line.raw.trim_ascii().is_empty() {
            break line;
        }
    };
    let number = first.number;
    let first = first
        .text()
        .map_err(|problem| format!("{}: line {number}: {problem}", log.display()))?;
    #[derive(serde::Deserialize)]
    struct Sides {
        sides: Vec<String>,
    }
    let sides = serde_json::from_str::<Sides>(first)
        .map_err(|error| {
            format!(
                "{}: line {number}: not a logged game: {error}",
                log.display()
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

/// Whether `dir` holds a run of the kind `kind` (`sweep`, `train`), as
/// its `config.json` says.
fn is_run_of(dir: &Path, kind: &str) -> bool {
    std::fs::read_to_string(dir.join("config.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .is_some_and(|config| config.get("run") == Some(&serde_json::Value::from(kind)))
}

struct View<'a> {
    args: &'a ViewArgs,
    dir: &'a Path,
}

impl GameVisitor for View<'_> {
    type Output = CliResult;

    fn visit<G: Registered>(&mut self) -> CliResult {
        if is_run_of(self.dir, "train") {
            let make = |options| train_page(self.dir, G::NAME, options);
            return write_or_serve(self.args, &self.dir.join(LOSSES), &make);
        }
        if is_win_rate_run(self.dir) || is_run_of(self.dir, "sweep") {
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

/// The files beside which a file is in a run directory.
const RUN_FILES: [&str; 5] = [
    "config.json",
    "run.lock",
    "games.jsonl",
    "deals.jsonl",
    LOSSES,
];

/// Refuses a page written over the log `log`, or over a file of a run
/// directory: there, the page must be an `.html` file, which no run
/// writes. (A run under way may be viewed: the page takes no lock, as it
/// writes none of the run's files.)
fn refuse_run_file(out: &Path, log: &Path) -> CliResult {
    // An output that is a link is written through it: the file it points
    // at, and that file's directory, are what is judged, so that a link
    // named as a page cannot carry the page onto a file of the run.
    let written = out.canonicalize().ok();
    if written.is_some() && written == log.canonicalize().ok() {
        return Err(format!(
            "the page would overwrite the log {} it shows; give --out another file",
            log.display()
        ));
    }
    let parent = match out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let directory = written.as_deref().and_then(Path::parent).unwrap_or(parent);
    let in_run = RUN_FILES.iter().any(|name| directory.join(name).exists());
    let is_page = written
        .as_deref()
        .unwrap_or(out)
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("html"));
    match in_run && !is_page {
        true => Err(format!(
            "{} is in the run directory {}: a page written there must be an .html file, so that no file of the run is overwritten",
            out.display(),
            directory.display()
        )),
        false => Ok(()),
    }
}

/// Writes `page` to `out` (through a link) whole or not at all: it is
/// written beside its target and renamed over it, so that a browser (or
/// another `norn view`) never reads half a page.
fn write_whole(out: &Path, page: &str) -> CliResult {
    let target = out.canonicalize().unwrap_or_else(|_| out.to_path_buf());
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let partial = target.with_file_name(format!(".{name}.{}.partial", std::process::id()));
    let written = std::fs::write(&partial, page).and_then(|()| std::fs::rename(&partial, &target));
    if let Err(error) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(format!("cannot write {}: {error}", out.display()));
    }
    Ok(())
}

/// Writes the page `make` makes, or serves it while `log` grows.
fn write_or_serve(
    args: &ViewArgs,
    log: &Path,
    make: &(dyn Fn(ViewOptions) -> Result<String, String> + Sync),
) -> CliResult {
    let games = usize::try_from(args.games).unwrap_or(usize::MAX);
    if !args.watch {
        let page = make(ViewOptions {
            games,
            ..ViewOptions::default()
        })?;
        let out = match &args.out {
            Some(out) => out.clone(),
            None if args.path.is_dir() => args.path.join("view.html"),
            None => args.path.with_extension("html"),
        };
        refuse_run_file(&out, log)?;
        write_whole(&out, &page)?;
        eprintln!("wrote {} ({} bytes)", out.display(), page.len());
        return Ok(());
    }
    let listener = TcpListener::bind((args.bind, args.port))
        .map_err(|error| format!("cannot listen on {}:{}: {error}", args.bind, args.port))?;
    let address = listener.local_addr().map_err(|error| error.to_string())?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // Without a handler Ctrl-C still ends the server, only less tidily. A
    // second Ctrl-C ends it at once, while a page is still being written.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    println!("serving http://{address}/ (Ctrl-C stops)");
    let make_version = |version| {
        make(ViewOptions {
            version: Some(version),
            games,
        })
    };
    serve_page(&listener, log, &make_version, &stop, &|news| {
        eprintln!("{news}")
    })?;
    eprintln!("stopped");
    Ok(())
}
