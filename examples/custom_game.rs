//! A game of one's own, from outside the crate: Nim, written against norn's
//! public traits and then put through the generic machinery as any built-in
//! game is.
//!
//! Nim is played with heaps of counters; a move takes one or more counters
//! from one heap, and whoever takes the last counter wins. Bouton's theorem
//! (1901) solves it: the player to move wins exactly when the bitwise XOR of
//! the heap sizes (the nim-sum) is not zero. That is the independent fact
//! this example checks the searchers against.
//!
//! - `cargo run --release --example custom_game`: perft, alpha-beta against
//!   Bouton on every position up to heaps of 3, 4 and 5, MCTS's move at the
//!   start, and a small tournament, all through the library's generic API.
//! - `cargo run --release --example custom_game -- COMMAND ...`: norn's own
//!   command line over Nim beside the built-in games, e.g.
//!   `-- perft nim --depth 4` or `-- tournament nim --agents random
//!   alphabeta:depth=12 --games 4 --no-openings`.

use norn::agents::build_agent;
use norn::arena::{RunOptions, Shard, TournamentConfig, Unwatched, run_tournament, text_report};
use norn::core::zobrist::zobrist_keys;
use norn::core::{
    ActionPath, Encoding, Evaluate, Game, MoveList, NoRules, Notation, Outcome, ParseError,
    Payoffs, Player, Scoring, Setup, Status,
};
use norn::registry::{BuiltIn, Registered};
use norn::search::{AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig, perft};
use std::fmt;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

/// The most heaps, and the most counters in one heap.
const MAX_HEAPS: usize = 4;
const MAX_COUNTERS: u8 = 15;
/// The classic start: heaps of 3, 4 and 5.
const START: [u8; MAX_HEAPS] = [3, 4, 5, 0];

/// One Zobrist key per heap and size, and one for the player to move.
static KEYS: [u64; MAX_HEAPS * 16 + 1] = zobrist_keys(0x4e49_4d00);

/// A move: take `take` counters from heap `heap` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Take {
    heap: u8,
    take: u8,
}

/// A Nim position.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Nim {
    heaps: [u8; MAX_HEAPS],
    to_move: Player,
    ply: u32,
    hash: u64,
}

impl Nim {
    fn from_heaps(heaps: [u8; MAX_HEAPS], to_move: Player) -> Nim {
        let mut hash = if to_move == 1 {
            KEYS[MAX_HEAPS * 16]
        } else {
            0
        };
        for (heap, &size) in heaps.iter().enumerate() {
            hash ^= KEYS[heap * 16 + usize::from(size)];
        }
        Nim {
            heaps,
            to_move,
            ply: 0,
            hash,
        }
    }

    /// Bouton's nim-sum: the player to move wins exactly when it is not 0.
    fn nim_sum(&self) -> u8 {
        self.heaps.iter().fold(0, |sum, &size| sum ^ size)
    }
}

impl Game for Nim {
    type Move = Take;
    type Rules = NoRules;

    const NAME: &'static str = "nim";
    const SCORING: Scoring = Scoring::WinLoss;

    fn new(_rules: NoRules) -> Nim {
        Nim::from_heaps(START, 0)
    }

    fn rules(&self) -> &NoRules {
        &NoRules
    }

    fn num_players(&self) -> usize {
        2
    }

    fn status(&self) -> Status {
        if self.heaps.iter().all(|&size| size == 0) {
            // The player who took the last counter, the one not to move, won.
            return Status::Over(Outcome {
                payoffs: Payoffs::win_for(1 - self.to_move),
                reason: "last counter",
            });
        }
        Status::ToMove(self.to_move)
    }

    fn legal_moves(&self, moves: &mut MoveList<Take>) {
        moves.clear();
        for (heap, &size) in self.heaps.iter().enumerate() {
            moves.extend((1..=size).map(|take| Take {
                heap: heap as u8,
                take,
            }));
        }
    }

    fn play(&mut self, mv: Take) {
        let heap = usize::from(mv.heap);
        let size = self.heaps[heap];
        self.hash ^= KEYS[heap * 16 + usize::from(size)]
            ^ KEYS[heap * 16 + usize::from(size - mv.take)]
            ^ KEYS[MAX_HEAPS * 16];
        self.heaps[heap] = size - mv.take;
        self.to_move = 1 - self.to_move;
        self.ply += 1;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}

impl Evaluate for Nim {
    /// No knowledge at all beyond the end of the game: the searchers must
    /// find Bouton's rule themselves.
    fn evaluate(&self, player: Player) -> f64 {
        self.status()
            .outcome()
            .map_or(0.0, |outcome| outcome.payoffs.get(player))
    }
}

/// A position as text: the heaps separated by `/`, a space and the player
/// to move (`0` or `1`), e.g. `3/4/5 0`.
#[derive(Clone, Debug, PartialEq)]
struct NimSetup {
    heaps: Vec<u8>,
    to_move: Player,
}

impl FromStr for NimSetup {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<NimSetup, ParseError> {
        let bad = |problem: &str| ParseError::new("nim position", text, problem.to_string());
        let (heaps, to_move) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| bad("heaps and the player to move, e.g. `3/4/5 0`"))?;
        let heaps = heaps
            .split('/')
            .map(|size| size.parse::<u8>().map_err(|_| bad("a heap is a number")))
            .collect::<Result<Vec<u8>, ParseError>>()?;
        let to_move = match to_move.trim() {
            "0" => 0,
            "1" => 1,
            _ => return Err(bad("the player to move is 0 or 1")),
        };
        Ok(NimSetup { heaps, to_move })
    }
}

impl fmt::Display for NimSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let heaps: Vec<String> = self.heaps.iter().map(u8::to_string).collect();
        write!(f, "{} {}", heaps.join("/"), self.to_move)
    }
}

impl Setup for NimSetup {}

impl Notation for Nim {
    type Setup = NimSetup;

    fn from_setup(setup: &NimSetup, _rules: NoRules) -> Result<Nim, ParseError> {
        let bad = |problem: &str| ParseError::new("nim position", &setup.to_string(), problem);
        if setup.heaps.len() > MAX_HEAPS {
            return Err(bad("at most 4 heaps"));
        }
        if setup.heaps.iter().any(|&size| size > MAX_COUNTERS) {
            return Err(bad("at most 15 counters a heap"));
        }
        let mut heaps = [0; MAX_HEAPS];
        heaps[..setup.heaps.len()].copy_from_slice(&setup.heaps);
        Ok(Nim::from_heaps(heaps, setup.to_move))
    }

    fn setup(&self) -> NimSetup {
        let used = self
            .heaps
            .iter()
            .rposition(|&size| size > 0)
            .map_or(1, |last| last + 1);
        NimSetup {
            heaps: self.heaps[..used].to_vec(),
            to_move: self.to_move,
        }
    }

    /// `H:N`, take N counters from heap H (1-based).
    fn move_text(&self, mv: Take) -> String {
        format!("{}:{}", mv.heap + 1, mv.take)
    }

    fn parse_move(&self, text: &str) -> Result<Take, ParseError> {
        let bad = || ParseError::new("nim move", text, "a move is HEAP:COUNT, e.g. `3:2`");
        let (heap, take) = text.split_once(':').ok_or_else(bad)?;
        let heap: u8 = heap.trim().parse().map_err(|_| bad())?;
        let take: u8 = take.trim().parse().map_err(|_| bad())?;
        let mv = Take {
            heap: heap.wrapping_sub(1),
            take,
        };
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(ParseError::new("nim move", text, "not a legal move here"))
        }
    }

    fn diagram(&self) -> String {
        let mut text = String::new();
        for (heap, &size) in self.heaps.iter().enumerate() {
            text.push_str(&format!(
                "{}: {}\n",
                heap + 1,
                "|".repeat(usize::from(size))
            ));
        }
        text + &format!("player {} to move\n", self.to_move)
    }
}

/// Nim as learning code sees it (and the Python package): action
/// `heap * MAX_COUNTERS + take - 1`, and one plane per heap holding its size
/// as a fraction of the most counters, then whose turn it is.
impl Encoding for Nim {
    fn num_actions(_rules: &NoRules) -> usize {
        MAX_HEAPS * usize::from(MAX_COUNTERS)
    }

    fn action_path(&self, mv: Take, path: &mut ActionPath) {
        path.push(u32::from(mv.heap) * u32::from(MAX_COUNTERS) + u32::from(mv.take) - 1);
    }

    fn action_name(_rules: &NoRules, id: u32) -> String {
        let counters = u32::from(MAX_COUNTERS);
        format!("{}:{}", id / counters + 1, id % counters + 1)
    }

    fn observation_shape(_rules: &NoRules) -> Vec<usize> {
        vec![MAX_HEAPS + 1]
    }

    fn write_observation(&self, _player: Player, _pending: &[u32], out: &mut [f32]) {
        for (cell, &size) in out.iter_mut().zip(&self.heaps) {
            *cell = f32::from(size) / f32::from(MAX_COUNTERS);
        }
        out[MAX_HEAPS] = self.to_move as f32;
    }
}

/// What the command line needs beyond the traits: a title and the sides.
impl Registered for Nim {
    const TITLE: &'static str = "Nim: take the last counter to win";
    const SIDES: &'static [&'static str] = &[];
}

norn::game_list!(
    /// The games of this program, run beside the built-in ones.
    struct OwnGames: Nim
);

/// Every position with heaps of at most 3, 4 and 5 counters.
fn small_positions() -> impl Iterator<Item = Nim> {
    (0..=3u8).flat_map(|a| {
        (0..=4u8).flat_map(move |b| (0..=5u8).map(move |c| Nim::from_heaps([a, b, c, 0], 0)))
    })
}

fn tour() -> Result<(), String> {
    let start = Nim::new(NoRules);

    // Perft: from heaps of 3, 4 and 5 there are 3 + 4 + 5 first moves.
    for depth in 1..=3 {
        println!("perft({depth}) = {}", perft(&start, depth));
    }
    if perft(&start, 1) != 12 {
        return Err("perft(1) must count the 12 ways to take counters".into());
    }

    // Alpha-beta, searching to the end of every game, against Bouton.
    let mut searcher = AlphaBeta::try_new(AlphaBetaConfig {
        depth: Some(12),
        table_megabytes: 1,
        ..AlphaBetaConfig::default()
    })?;
    let mut agreed = 0;
    for position in small_positions().filter(|position| !position.status().is_over()) {
        let result = searcher
            .search(&position)
            .map_err(|error| error.to_string())?;
        let wins = result.value() > 0.0;
        if wins != (position.nim_sum() != 0) {
            return Err(format!(
                "alpha-beta says {} for {}, Bouton says otherwise",
                if wins { "a win" } else { "a loss" },
                position.position_text()
            ));
        }
        agreed += 1;
    }
    println!("alpha-beta agrees with Bouton on all {agreed} positions up to 3/4/5");

    // MCTS with its solver finds a winning move at the start: one after
    // which the nim-sum is 0.
    let mut mcts = Mcts::new(MctsConfig::default(), 1)?;
    let chosen = mcts
        .search(&start)
        .map_err(|error| error.to_string())?
        .best_move
        .ok_or("MCTS gave no move")?;
    let mut after = start.clone();
    after.play(chosen);
    println!(
        "MCTS plays {} at the start, leaving nim-sum {}",
        start.move_text(chosen),
        after.nim_sum()
    );
    if after.nim_sum() != 0 {
        return Err("MCTS missed the winning move".into());
    }

    // A tournament through the generic runner, agents built from specs.
    let config = TournamentConfig {
        game: Nim::NAME.into(),
        rules: String::new(),
        agents: vec!["random".into(), "alphabeta:depth=12".into()],
        games_per_pair: 10,
        seed: 1,
        max_plies: None,
        anchor: None,
        gauntlet: false,
        time_control: None,
        adjudication: None,
        openings: Default::default(),
    };
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        record_search: false,
        threads: 2,
        shard: Shard::ALL,
        out_dir: None,
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    let result = run_tournament(&config, &start, &build_agent::<Nim>, &options)
        .map_err(|error| error.to_string())?;
    print!("{}", text_report(&result.summary));
    Ok(())
}

fn main() -> ExitCode {
    if std::env::args().len() > 1 {
        return norn::cli::run_with::<(BuiltIn, OwnGames)>();
    }
    match tour() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
