//! Fuzz entry points: one per text format the library reads, and two for
//! the invariants of play, in the style of shakmaty's fuzzers.
//!
//! Each entry point takes arbitrary bytes, feeds them to the real parser
//! and, when the text parses, checks that what was read prints back to text
//! that reads as the same thing. Bad input must give an error: a panic is a
//! bug, and the entry points panic themselves when a check fails.
//!
//! The `fuzz/` crate runs them under libFuzzer (`cargo +nightly fuzz run
//! NAME`); `tests/suite/fuzz.rs` runs them on the stable toolchain over the corpus
//! in `fuzz/corpus/NAME/` and seeded mutations of it. The formats of one
//! game start with the game's name on a line of its own, so that the
//! registry picks the game and a new game is fuzzed without a change here:
//! every game's positions and deals are read the same way, through its
//! [`Setup`](crate::core::Setup) ([`fuzz_setup`]).

use super::{check_reads_back, check_rules, counted_legal_moves, random_successor};
use crate::arena::{
    GameLine, RecordedGame, RecordedResult, TournamentConfig, replay_line, replay_log,
};
use crate::core::{Game, MoveList, Notation, Ply, Status, parse_key_values, rng_from_seed};
use crate::registry::{self, GameVisitor, Registered};
use std::fmt::Debug;
use std::marker::PhantomData;

/// A fuzz entry point: it takes any bytes and panics only on a bug.
pub type EntryPoint = fn(&[u8]);

/// Every entry point and its name, which is also the name of its libFuzzer
/// target and of its corpus folder.
pub const TARGETS: [(&str, EntryPoint); 11] = [
    ("position_text", position_text),
    ("move_text", move_text),
    ("rules_text", rules_text),
    ("deal_text", deal_text),
    ("agent_spec", agent_spec),
    ("game_records", game_records),
    ("htp_session", htp_session),
    ("tournament_config", tournament_config),
    ("games_line", games_line),
    ("listed_moves_are_legal", listed_moves_are_legal),
    ("incremental_hash", incremental_hash),
];

/// Entry points that hand the bytes after the game's name to the check
/// `$check` of that game: `/// doc  name => Check;`.
macro_rules! per_game_entry_points {
    ($( $(#[$doc:meta])* $name:ident => $check:ty; )*) => {
        $(
            $(#[$doc])*
            pub fn $name(data: &[u8]) {
                per_game::<$check>(data);
            }
        )*
    };
}

per_game_entry_points! {
    /// `GAME\nPOSITION`: a position under the default rules. One that reads
    /// prints back to the same text and hash, and its listed moves are legal.
    position_text => PositionText;

    /// `GAME\nPOSITION\nMOVE`: a move in a position. One that reads is legal
    /// there and its printed text reads as the same move.
    move_text => MoveText;

    /// `GAME\nRULES`: a `key=value` list of rules options. Rules that read are
    /// valid, print back to the same rules and start a game.
    rules_text => RulesText;

    /// `GAME\nRULES\nPOSITION`: a position under the rules read first. For a
    /// game dealt by chance, the position right after the deal is the deal
    /// alone, so this is also where deals are fuzzed.
    deal_text => PositionUnderRules;
}

/// Any bytes as a position of `G` under the default rules, read through
/// its [`Setup`](crate::core::Setup): a setup that reads prints back as text that reads as the
/// same setup; a state made from it prints back to the same position text
/// and hash, and its listed moves are legal. Works for any game, registered
/// or not.
pub fn fuzz_setup<G: Notation + Debug>(data: &[u8]) {
    check_setup::<G>(&String::from_utf8_lossy(data), G::Rules::default());
}

per_game_entry_points! {
    /// `GAME\nSPEC`: an agent spec, built by the game's registry entry. The spec
    /// of an agent built reads back into an agent.
    agent_spec => AgentSpec;

    /// `GAME\nRECORDS`: a file in the game's own record formats, replayed,
    /// and read in each format it imports and written again in each it
    /// exports.
    game_records => GameRecords;

    /// `GAME\nLINES`: a session of the game's engine protocol, one command per
    /// line, with a random agent answering. Every command gets a framed reply
    /// in which no control character but the line break reaches the terminal.
    htp_session => EngineCommands;
}

/// A tournament's `config.json`. One that reads writes back to the same
/// configuration, and a valid one names a game, rules and agents that the
/// library checks as a run would.
pub fn tournament_config(data: &[u8]) {
    let Ok(config) = serde_json::from_slice::<TournamentConfig>(data) else {
        return;
    };
    let written = serde_json::to_string(&config).expect("configurations serialise");
    let reread: TournamentConfig = serde_json::from_str(&written)
        .unwrap_or_else(|error| panic!("written configuration {written} does not read: {error}"));
    assert_eq!(
        reread, config,
        "configuration {written} reads back otherwise"
    );
    config.digest();
    if config.validate().is_err() {
        return;
    }
    assert!(config.anchor_index() < config.agents.len());
    config.total_games();
    let _ = registry::visit(&config.game, &mut TournamentEntrants { config: &config });
}

per_game_entry_points! {
    /// `GAME\nLINES`: lines of a tournament's `games.jsonl`, replayed from the
    /// game's start. A line that reads writes back to the same line.
    games_line => GamesLines;

    /// `GAME\nBYTES`: a game played from its start, each byte choosing a legal
    /// move (or seeding a chance event or a joint move). Every listed move is
    /// legal in every state reached.
    listed_moves_are_legal => ListedMovesAreLegal;

    /// `GAME\nBYTES`: a game played as in [`listed_moves_are_legal`]. In every
    /// state reached the incremental hash equals the hash computed from scratch
    /// for the position read from its text.
    incremental_hash => IncrementalHash;
}

/// The check of one entry point on game `G`, given the input after the
/// game's name.
trait PerGame {
    fn check<G: Registered>(input: &[u8]);
}

/// Runs `T` on the game named by the input's first line.
fn per_game<T: PerGame>(data: &[u8]) {
    let Some(end_of_name) = data.iter().position(|&byte| byte == b'\n') else {
        return;
    };
    let Ok(name) = std::str::from_utf8(&data[..end_of_name]) else {
        return;
    };
    // An unknown name is refused by the registry with an error; that is all
    // there is to check about it.
    let _ = registry::visit(
        name,
        &mut Dispatch::<T> {
            input: &data[end_of_name + 1..],
            target: PhantomData,
        },
    );
}

struct Dispatch<'a, T> {
    input: &'a [u8],
    target: PhantomData<T>,
}

impl<T: PerGame> GameVisitor for Dispatch<'_, T> {
    type Output = ();

    fn visit<G: Registered>(&mut self) {
        T::check::<G>(self.input);
    }
}

/// The checks of [`fuzz_setup`] under `rules`.
fn check_setup<G: Notation + Debug>(text: &str, rules: G::Rules) {
    if let Some(state) = read_position::<G>(text, rules) {
        state.diagram();
        check_listed_moves(&state);
    }
}

/// Reads a position through `G`'s [`Setup`](crate::core::Setup) and checks that the setup and
/// the state print back to text that reads as the same; `None` if the text
/// is not a position under `rules`.
fn read_position<G: Notation + Debug>(text: &str, rules: G::Rules) -> Option<G> {
    let setup: G::Setup = text.parse().ok()?;
    check_reads_back(&setup, &format!("{} setup", G::NAME));
    let state = G::from_setup(&setup, rules.clone()).ok()?;
    let printed = state.position_text();
    let reread = G::from_position_text(&printed, rules).unwrap_or_else(|error| {
        panic!(
            "{} position {printed:?}, read from {text:?}, does not read back: {error}",
            G::NAME
        )
    });
    assert_eq!(
        reread.position_text(),
        printed,
        "{} position text {text:?} does not round-trip",
        G::NAME
    );
    assert_eq!(
        reread.hash(),
        state.hash(),
        "{} incremental hash differs from the hash computed for {printed:?}",
        G::NAME
    );
    Some(state)
}

/// The two parts of an input that holds two texts: its first line and the
/// rest. `None` without a newline.
fn two_parts(input: &[u8]) -> Option<(String, String)> {
    let text = String::from_utf8_lossy(input);
    let (first, rest) = text.split_once('\n')?;
    Some((first.to_string(), rest.to_string()))
}

struct PositionText;

impl PerGame for PositionText {
    fn check<G: Registered>(input: &[u8]) {
        fuzz_setup::<G>(input);
    }
}

struct PositionUnderRules;

impl PerGame for PositionUnderRules {
    fn check<G: Registered>(input: &[u8]) {
        let Some((rules, position)) = two_parts(input) else {
            return;
        };
        if let Ok(rules) = rules.parse::<G::Rules>() {
            check_setup::<G>(&position, rules);
        }
    }
}

struct MoveText;

impl PerGame for MoveText {
    fn check<G: Registered>(input: &[u8]) {
        let Some((position, move_text)) = two_parts(input) else {
            return;
        };
        let Some(state) = read_position::<G>(&position, G::Rules::default()) else {
            return;
        };
        let Ok(mv) = state.parse_move(&move_text) else {
            return;
        };
        if matches!(state.status(), Status::ToMove(_)) {
            state.check_move(mv).unwrap_or_else(|illegal| {
                panic!("{move_text:?} reads as {mv:?}, which is illegal: {illegal}")
            });
        }
        let printed = state.move_text(mv);
        let reread = state.parse_move(&printed).unwrap_or_else(|error| {
            panic!("move {printed:?}, read from {move_text:?}, does not read back: {error}")
        });
        assert_eq!(reread, mv, "move text {printed:?} reads as another move");
    }
}

struct RulesText;

impl PerGame for RulesText {
    fn check<G: Registered>(input: &[u8]) {
        let Ok(rules) = String::from_utf8_lossy(input).parse::<G::Rules>() else {
            return;
        };
        check_rules(&rules);
        check_listed_moves(&G::new(rules));
    }
}

struct AgentSpec;

impl PerGame for AgentSpec {
    fn check<G: Registered>(input: &[u8]) {
        build_agent_within_budget::<G>(&String::from_utf8_lossy(input));
    }
}

/// Builds the agent of `spec` for `G` unless the spec asks for more than a
/// fuzzer can give (a spec may ask for a table of 64 GiB and 256 threads,
/// as a user may), and checks that the built agent's spec builds again.
fn build_agent_within_budget<G: Registered>(spec: &str) {
    if !within_fuzzing_budget(spec) {
        return;
    }
    let Ok(agent) = registry::build_agent::<G>(spec, 0) else {
        return;
    };
    if let Err(error) = G::build_agent(agent.spec(), 0) {
        panic!(
            "the spec {:?} of a built agent does not build: {error}",
            agent.spec()
        );
    }
}

/// Whether a spec's transposition table and thread count are small; a spec
/// whose options do not read is within the budget, since it builds nothing.
fn within_fuzzing_budget(spec: &str) -> bool {
    let options = spec
        .trim()
        .split_once(':')
        .map_or("", |(_, options)| options);
    let Ok(pairs) = parse_key_values(options, "agent spec") else {
        return true;
    };
    pairs.iter().all(|&(key, value)| {
        let limit = match key {
            "tt" => 16,
            "threads" => 2,
            _ => return true,
        };
        value.parse::<u64>().map_or(true, |asked| asked <= limit)
    })
}

struct GameRecords;

impl PerGame for GameRecords {
    fn check<G: Registered>(input: &[u8]) {
        let text = String::from_utf8_lossy(input);
        for format in G::record_formats() {
            let _ = (format.replay)(&text, &G::Rules::default());
        }
        // Records read in another program's format are written out again
        // in every format, as `norn replay --import --export` does.
        for format in G::import_formats() {
            let Ok(games) = (format.read)(&text, &G::Rules::default()) else {
                continue;
            };
            for game in &games {
                let _ = game.text();
                for export in G::export_formats() {
                    let _ = (export.write)(game);
                }
            }
        }
    }
}

struct EngineCommands;

impl PerGame for EngineCommands {
    fn check<G: Registered>(input: &[u8]) {
        for protocol in G::engine_protocols() {
            let agent = G::build_agent("random", 0).expect("every game has a random agent");
            let mut session = (protocol.session)(G::Rules::default(), agent);
            // A greeting is framed as any reply.
            let mut replies: Vec<String> = session.greeting().into_iter().collect();
            for line in String::from_utf8_lossy(input).lines() {
                replies.extend(session.answer(line));
                if session.finished() {
                    break;
                }
            }
            for reply in replies {
                assert!(reply.ends_with('\n'), "reply {reply:?} is not whole lines");
                // The Hnefatafl Text Protocol frames each reply as `= ...` or
                // `? ...` and an empty line.
                assert!(
                    protocol.name != "htp"
                        || ((reply.starts_with("= ") || reply.starts_with("? "))
                            && reply.ends_with("\n\n")),
                    "reply {reply:?} is not framed"
                );
                assert!(
                    !reply.chars().any(|c| c.is_control() && c != '\n'),
                    "reply {reply:?} passes a control character on"
                );
            }
        }
    }
}

/// Checks a valid configuration's game as a run does before it plays: its
/// rules and every agent's spec.
struct TournamentEntrants<'a> {
    config: &'a TournamentConfig,
}

impl GameVisitor for TournamentEntrants<'_> {
    type Output = ();

    fn visit<G: Registered>(&mut self) {
        if self.config.rules.parse::<G::Rules>().is_ok() {
            for spec in &self.config.agents {
                build_agent_within_budget::<G>(spec);
            }
        }
    }
}

struct GamesLines;

impl PerGame for GamesLines {
    fn check<G: Registered>(input: &[u8]) {
        let text = String::from_utf8_lossy(input);
        let start = G::new(G::Rules::default());
        for line in text.lines() {
            let Ok(game) = serde_json::from_str::<GameLine>(line) else {
                continue;
            };
            let written = serde_json::to_string(&game).expect("game lines serialise");
            let reread: GameLine = serde_json::from_str(&written)
                .unwrap_or_else(|error| panic!("written line {written} does not read: {error}"));
            assert_eq!(reread, game, "game line {written} reads back otherwise");
            let _ = replay_line(&start, &game);
        }
        let _ = replay_log(&start, &text);
    }
}

struct ListedMovesAreLegal;

impl PerGame for ListedMovesAreLegal {
    fn check<G: Registered>(input: &[u8]) {
        play_choices::<G>(input, check_listed_moves);
    }
}

struct IncrementalHash;

impl PerGame for IncrementalHash {
    fn check<G: Registered>(input: &[u8]) {
        play_choices::<G>(input, |state: &G| {
            let text = state.position_text();
            if read_position::<G>(&text, state.rules().clone()).is_none() {
                panic!(
                    "{} position {text:?} reached in play does not read",
                    G::NAME
                );
            }
        });
    }
}

/// The most steps [`play_choices`] takes: checking every listed move costs
/// Thud a move generation per move, and longer games would slow a fuzzer
/// to a few inputs a second.
const MAX_STEPS: usize = 160;

/// Plays `G` from its start under the default rules, one step per byte of
/// `choices` (at most [`MAX_STEPS`]): the byte picks a legal move by its
/// index, played through `try_play`, which must accept it and agree with
/// `play`, or seeds a chance event or a joint move. Calls `check` on every
/// state reached.
fn play_choices<G: Registered>(choices: &[u8], mut check: impl FnMut(&G)) {
    let mut state = G::new(G::Rules::default());
    let mut moves = MoveList::new();
    for (step, &choice) in choices.iter().take(MAX_STEPS).enumerate() {
        check(&state);
        if matches!(state.status(), Status::ToMove(_)) {
            state.legal_moves(&mut moves);
            let mv = moves[choice as usize % moves.len()];
            let mut played = state.clone();
            played.play(mv);
            if let Err(illegal) = state.try_play(mv) {
                panic!("listed move {mv:?} is refused ({illegal}) in {played:?}");
            }
            assert!(state == played, "try_play and play disagree on {mv:?}");
        } else {
            // The step enters the seed so that one byte repeated still gives
            // different deals along a game.
            let seed = (step as u64) << 8 | u64::from(choice);
            match random_successor(&state, &mut rng_from_seed(seed)) {
                Some(next) => state = next,
                None => return,
            }
        }
    }
    check(&state);
}

/// The state's listed moves agree with its status and its bulk count, and
/// each passes `check_move`.
fn check_listed_moves<G: Game + Debug>(state: &G) {
    let moves = counted_legal_moves(state);
    match state.status() {
        Status::ToMove(_) => assert!(!moves.is_empty(), "no moves to play in {state:?}"),
        _ => assert!(moves.is_empty(), "moves listed out of turn in {state:?}"),
    }
    for &mv in moves.iter() {
        if let Err(illegal) = state.check_move(mv) {
            panic!("listed move {mv:?} is refused ({illegal}) in {state:?}");
        }
    }
}

/// Valid inputs for the entry points, made from every registered game:
/// positions reached in random play (alone, under the default rules and
/// with one legal move each), the default rules, agent specs, and move
/// choices, with the name of the entry point each is for. The corpus starts
/// from these; files in `fuzz/corpus/` add the formats made outside the
/// registry (records, sessions, logs).
pub fn registry_seeds() -> Vec<(&'static str, Vec<u8>)> {
    registry::visit_all(&mut Seeds)
        .into_iter()
        .flatten()
        .collect()
}

/// A short game from `start` (the first listed move, a dozen times) in
/// every format the game writes.
fn written_records<G: Registered>(start: &G) -> Vec<String> {
    let mut state = start.clone();
    let mut moves = MoveList::new();
    let mut plies = Vec::new();
    while plies.len() < 12 && state.status().player_to_move().is_some() {
        state.legal_moves(&mut moves);
        let Some(&mv) = moves.first() else { break };
        state.play(mv);
        plies.push(Ply::Move(mv));
    }
    let game = RecordedGame {
        number: 1,
        start: start.clone(),
        plies,
        chance_seed: 0,
        opening_plies: 0,
        players: Vec::new(),
        seed: None,
        result: RecordedResult::Unfinished,
        reason: None,
        note: None,
    };
    G::export_formats()
        .iter()
        .filter_map(|format| (format.write)(&game).ok())
        .collect()
}

/// Agent specs of every kind, some of which a given game refuses.
const SEED_SPECS: [&str; 5] = [
    "random",
    "greedy",
    "alphabeta:depth=2,tt=1",
    "mcts:iters=20,c=0.5,playout=4",
    "ismcts:iters=10",
];

/// The states of a seed playout that become position and move seeds.
const SEED_POSITIONS: usize = 4;

struct Seeds;

impl GameVisitor for Seeds {
    type Output = Vec<(&'static str, Vec<u8>)>;

    fn visit<G: Registered>(&mut self) -> Self::Output {
        let name = G::NAME;
        let seed =
            |target: &'static str, text: String| (target, format!("{name}\n{text}").into_bytes());
        let start = G::new(G::Rules::default());
        let mut seeds = vec![seed("rules_text", start.rules().to_string())];
        seeds.extend(SEED_SPECS.map(|spec| seed("agent_spec", spec.to_string())));
        let mut reached = Vec::new();
        let playout = super::Budget {
            playouts: 1,
            max_plies: 40,
            ..super::Budget::SUITE
        };
        super::for_each_playout(&start, &playout, |state: &G, _| reached.push(state.clone()));
        let step = reached.len().div_ceil(SEED_POSITIONS);
        for state in reached.iter().step_by(step) {
            let position = state.position_text();
            let mut moves = MoveList::new();
            state.legal_moves(&mut moves);
            if let Some(&mv) = moves.first() {
                seeds.push(seed(
                    "move_text",
                    format!("{position}\n{}", state.move_text(mv)),
                ));
            }
            seeds.push(seed("deal_text", format!("{}\n{position}", start.rules())));
            seeds.push(seed("position_text", position));
        }
        seeds.extend(
            written_records(&start)
                .into_iter()
                .map(|text| seed("game_records", text)),
        );
        let choices: Vec<u8> = (0..64u8).map(|index| index.wrapping_mul(37)).collect();
        for target in ["listed_moves_are_legal", "incremental_hash"] {
            let mut input = format!("{name}\n").into_bytes();
            input.extend(&choices);
            seeds.push((target, input));
        }
        seeds
    }
}
