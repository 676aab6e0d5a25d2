//! The fuzz entry points on the stable toolchain: each runs over its corpus
//! (`fuzz/corpus/NAME/`, including the inputs that once made it panic, and
//! the seeds made from the registry), then over a fixed number of seeded
//! mutations of that corpus, so every run tries the same inputs.

use crate::common::goofspiel::Goofspiel;
use norn::core::{Game, GameRng, Notation, rng_from_seed};
use norn::registry::{self, GameVisitor, Registered};
use norn::testing::fuzz::{EntryPoint, TARGETS, fuzz_setup, registry_seeds};
use norn::testing::random_successor;
use rand::RngExt;
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// Mutated inputs per entry point: enough to reach past the seeds, few
/// enough for the whole file to run in seconds in release builds. The two
/// that play games get fewer: each of their inputs plays up to hundreds of
/// plies, and `listed_moves_are_legal` checks every move listed on the way
/// (Thud checks a move against its whole move list).
fn mutations(name: &str) -> usize {
    match name {
        "listed_moves_are_legal" => 300,
        "incremental_hash" => 3_000,
        _ => 20_000,
    }
}

/// The corpus of entry point `name`: its folder's files in name order, then
/// the registry's seeds for it.
fn corpus(name: &str) -> Vec<(String, Vec<u8>)> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(name);
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("a readable corpus folder").path())
        .collect();
    files.sort();
    let mut inputs: Vec<(String, Vec<u8>)> = files
        .into_iter()
        .map(|path| {
            let input = std::fs::read(&path).expect("a readable corpus file");
            (path.display().to_string(), input)
        })
        .collect();
    inputs.extend(
        registry_seeds()
            .into_iter()
            .filter(|&(target, _)| target == name)
            .map(|(_, input)| ("a registry seed".to_string(), input)),
    );
    inputs
}

/// Runs an entry point on one input, failing with the input written so
/// that it can be saved to the corpus.
fn run(name: &str, target: EntryPoint, origin: &str, input: &[u8]) {
    if catch_unwind(AssertUnwindSafe(|| target(input))).is_err() {
        panic!("{name} panics on {origin}: b\"{}\"", input.escape_ascii());
    }
}

#[test]
fn every_entry_point_accepts_its_corpus() {
    for (name, target) in TARGETS {
        let inputs = corpus(name);
        assert!(
            inputs.len() >= 2,
            "{name} has too small a corpus to fuzz from"
        );
        for (origin, input) in &inputs {
            run(name, target, origin, input);
        }
    }
}

#[test]
fn every_entry_point_survives_mutations_of_its_corpus() {
    for (index, (name, target)) in TARGETS.into_iter().enumerate() {
        let inputs: Vec<Vec<u8>> = corpus(name).into_iter().map(|(_, input)| input).collect();
        let mut rng = rng_from_seed(index as u64);
        for round in 0..mutations(name) {
            let input = mutate(&inputs, &mut rng);
            run(name, target, &format!("mutation {round}"), &input);
        }
    }
}

/// Mutated positions per game read through the game's `Setup`.
const SETUP_MUTATIONS: usize = 3_000;

/// Feeds mutations of positions of `G` reached in random play to
/// [`fuzz_setup`], which reads them through the game's `Setup` and checks
/// what reads: no game may panic on any of them.
fn mutated_positions_read_through_the_setup<G: Notation + Debug>(start: G, seed: u64) {
    let mut rng = rng_from_seed(seed);
    let mut positions = vec![start.position_text().into_bytes()];
    let mut state = start;
    while let Some(next) = random_successor(&state, &mut rng) {
        positions.push(next.position_text().into_bytes());
        state = next;
        if positions.len() == 60 {
            break;
        }
    }
    for round in 0..SETUP_MUTATIONS {
        let input = mutate(&positions, &mut rng);
        run(
            G::NAME,
            fuzz_setup::<G>,
            &format!("setup mutation {round}"),
            &input,
        );
    }
}

struct MutatedPositions;

impl GameVisitor for MutatedPositions {
    type Output = ();

    fn visit<G: Registered>(&mut self) {
        mutated_positions_read_through_the_setup(G::new(G::Rules::default()), 7);
    }
}

#[test]
fn every_game_reads_mutated_positions_through_its_setup() {
    registry::visit_all(&mut MutatedPositions);
    // A game from outside the registry is read the same way.
    mutated_positions_read_through_the_setup(Goofspiel::new(Default::default()), 7);
}

/// Characters that the formats give meaning to, and some they do not.
const INTERESTING: &[char] = &[
    '0',
    '1',
    '9',
    '-',
    '+',
    ',',
    ':',
    ';',
    '=',
    '/',
    ' ',
    '\n',
    '\r',
    '\t',
    '&',
    'x',
    '#',
    '"',
    '{',
    '}',
    '[',
    ']',
    '.',
    'e',
    'é',
    'ß',
    '∞',
    '\u{1b}',
    '\0',
    '\u{7f}',
    '\u{85}',
    '\u{200b}',
    '\u{10ffff}',
];

/// A corpus input changed by one to four random edits: a bit flipped, a
/// byte or an interesting character inserted, a range deleted or repeated,
/// a splice with another input, a truncation.
fn mutate(inputs: &[Vec<u8>], rng: &mut GameRng) -> Vec<u8> {
    let mut input = inputs[rng.random_range(0..inputs.len())].clone();
    for _ in 0..rng.random_range(1..=4) {
        let at = rng.random_range(0..=input.len());
        match rng.random_range(0..7) {
            0 if at < input.len() => input[at] ^= 1 << rng.random_range(0..8),
            1 => input.insert(at, rng.random()),
            2 => {
                let end = (at + rng.random_range(1..=8)).min(input.len());
                input.drain(at..end);
            }
            3 => {
                let end = (at + rng.random_range(1..=16)).min(input.len());
                let repeated = input[at..end].to_vec();
                input.splice(at..at, repeated);
            }
            4 => {
                let other = &inputs[rng.random_range(0..inputs.len())];
                let from = rng.random_range(0..=other.len());
                input.truncate(at);
                input.extend_from_slice(&other[from..]);
            }
            5 => input.truncate(at),
            _ => {
                let character = INTERESTING[rng.random_range(0..INTERESTING.len())];
                let mut buffer = [0; 4];
                let encoded = character.encode_utf8(&mut buffer).as_bytes();
                input.splice(at..at, encoded.iter().copied());
            }
        }
    }
    input
}

/// Writes the registry's seeds to the corpus folders, where libFuzzer starts
/// from them: `cargo test --release --test fuzz -- --ignored`.
#[test]
#[ignore = "writes files: run it to refresh the corpus after adding a game"]
fn write_the_registry_seeds_to_the_corpus() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut written = std::collections::HashMap::new();
    for (target, input) in registry_seeds() {
        let count: &mut usize = written.entry(target).or_default();
        *count += 1;
        let folder = corpus.join(target);
        std::fs::create_dir_all(&folder).expect("a corpus folder");
        std::fs::write(folder.join(format!("registry-seed-{count}")), input)
            .expect("a corpus file");
    }
}
