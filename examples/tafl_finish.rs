//! Whether the tafl attackers convert a lead: builds the positions of
//! `tests/data/tafl-attack-positions.tsv` where the attackers are far ahead,
//! and plays them.
//!
//! `cargo run --release --example tafl_finish -- positions` plays seeded
//! games of each variant (a few random plies, then alpha-beta with the
//! hand-set evaluation, attackers at depth 2 against defenders at depth 1,
//! so that the attackers get ahead) and prints, per game, the first
//! position with the attackers to move and at least [`CONVERSION_LEAD`] ahead (their
//! share of their starting pieces minus the defenders' share of theirs)
//! where the king is not already through and cannot be taken at once, and
//! where the king alone cannot force his escape within [`ESCAPE_MOVES`]
//! moves ([`Tafl::king_escapes_by_force`]): a position the defenders have
//! already won is not one where the attackers are ahead.
//! Lines are `variant<TAB>position<TAB>where it came from`.
//! `positions FIRST_SEED` plays the games of seeds from FIRST_SEED on
//! instead of from 0: a second set, to check choices made on the first.
//!
//! `cargo run --release --example tafl_finish -- play ATTACKERS DEFENDERS FILE`
//! plays every position of FILE with the two agent specs, at most
//! [`MAX_PLIES`] plies each, and prints each result and the attackers' wins.

use norn::agents::Decision;
use norn::arena::{PlayOptions, play_game};
use norn::core::{Game, MoveList, Notation, derive_seed, rng_from_seed};
use norn::games::tafl::{CONVERSION_LEAD, Side, Tafl, TaflRules};
use norn::registry::build_agent;
use norn::testing::random_successor;
use std::time::Instant;

/// The king's moves within which a forced escape leaves a position out.
const ESCAPE_MOVES: u32 = 2;
/// The plies a game from a position of the set may last.
const MAX_PLIES: usize = 100;
/// The variants and how many positions of each are wanted.
const SOURCES: &[(&str, usize)] = &[
    ("brandub", 8),
    ("tablut", 8),
    ("sea-battle", 8),
    ("copenhagen", 8),
    ("tawlbwrdd", 8),
];
/// The most games of a variant played to find its positions.
const MAX_SOURCE_GAMES: u64 = 300;
/// Random plies before the agents take over: each seed a different game.
const RANDOM_PLIES: usize = 4;
/// Plies a source game may last before it is given up.
const SOURCE_PLIES: usize = 200;

/// Whether a move of the player to move captures the king: such a
/// position is over in one ply and tells nothing.
fn king_capturable(state: &Tafl) -> bool {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    moves.iter().any(|&mv| state.captures_of(mv).king)
}

/// The first position of a seeded game where the attackers lead enough.
fn source_position(variant: &str, seed: u64) -> Option<(String, usize)> {
    let rules = TaflRules::variant(variant).expect("a listed variant");
    let mut rng = rng_from_seed(derive_seed(seed, 0));
    let mut state = Tafl::new(rules);
    for _ in 0..RANDOM_PLIES {
        state = random_successor(&state, &mut rng)?;
    }
    let mut agents = [
        build_agent::<Tafl>("alphabeta:eval=hand,depth=2", seed).expect("a valid spec"),
        build_agent::<Tafl>("alphabeta:eval=hand,depth=1", seed).expect("a valid spec"),
    ];
    for ply in RANDOM_PLIES..SOURCE_PLIES {
        let side = state.side_to_move();
        if state.status().is_over() {
            return None;
        }
        if side == Side::Attackers
            && state.lead(Side::Attackers) >= CONVERSION_LEAD
            && state.evaluation_terms().is_some()
            && !king_capturable(&state)
            && !state.king_escapes_by_force(ESCAPE_MOVES)
        {
            return Some((state.position_text(), ply));
        }
        let agent = &mut agents[usize::from(side != Side::Attackers)];
        match agent
            .decide(&state, side.player())
            .expect("alpha-beta decides")
        {
            Decision::Play(mv) => state.play(mv),
            Decision::Resign => return None,
        }
    }
    None
}

/// Prints the positions of the games of seeds `first` on.
fn print_positions(first: u64) {
    for &(variant, wanted) in SOURCES {
        let found = (first..first + MAX_SOURCE_GAMES)
            .filter_map(|seed| source_position(variant, seed).map(|found| (seed, found)))
            .take(wanted);
        for (seed, (text, ply)) in found {
            println!("{variant}\t{text}\tself-play seed {seed} ply {ply}");
        }
    }
}

/// Prints the positions of `file` whose king forces his escape within
/// [`ESCAPE_MOVES`] moves.
fn print_forced(file: &str) {
    for (variant, state, source) in read_set(file) {
        if state.king_escapes_by_force(ESCAPE_MOVES) {
            println!("{variant}\t{source}");
        }
    }
}

/// The positions of a set: variant, position and where it came from.
fn read_set(file: &str) -> Vec<(String, Tafl, String)> {
    let text = std::fs::read_to_string(file).expect("a readable set");
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let rules = TaflRules::variant(fields[0]).expect("a listed variant");
            let state = Tafl::from_position_text(fields[1], rules).expect("a position");
            (fields[0].to_string(), state, fields[2].to_string())
        })
        .collect()
}

fn play_set(attackers: &str, defenders: &str, file: &str) {
    let began = Instant::now();
    let (mut played, mut wins) = (0, 0);
    for (variant, state, source) in read_set(file) {
        let mut agents = vec![
            build_agent::<Tafl>(attackers, 1).expect("a valid spec"),
            build_agent::<Tafl>(defenders, 2).expect("a valid spec"),
        ];
        if Side::Attackers.player() != 0 {
            agents.swap(0, 1);
        }
        let options = PlayOptions {
            max_plies: Some(MAX_PLIES),
            ..PlayOptions::default()
        };
        let game = play_game(&state, &mut agents, &options).expect("a game");
        let won = game.outcome.payoffs.get(Side::Attackers.player()) > 0.0;
        played += 1;
        wins += usize::from(won);
        println!(
            "{}\t{}\t{} plies\t{}",
            variant,
            source,
            game.plies.len(),
            game.outcome.reason
        );
    }
    println!(
        "attackers {attackers} against defenders {defenders}: {wins} of {played} won in {:.1} s",
        began.elapsed().as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["positions"] => print_positions(0),
        ["positions", first] => match first.parse() {
            Ok(first) => print_positions(first),
            Err(_) => eprintln!("the first seed is a whole number, not {first:?}"),
        },
        ["forced", file] => print_forced(file),
        ["play", attackers, defenders, file] => play_set(attackers, defenders, file),
        _ => eprintln!(
            "usage: tafl_finish positions [FIRST_SEED] | forced FILE | play ATTACKERS DEFENDERS FILE"
        ),
    }
}
