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
//! registry picks the game and a new game is fuzzed without a change here.

use super::{counted_legal_moves, random_successor};
use crate::arena::{GameLine, TournamentConfig, replay_line, replay_log};
use crate::core::{
    Game, MoveList, Notation, ParseError, RulesOptions, Status, parse_key_values, rng_from_seed,
};
use crate::games::{fenrir_cards, fenrir_path};
use crate::registry::{self, GameVisitor, Registered};
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

/// `GAME\nPOSITION`: a position under the default rules. One that reads
/// prints back to the same text and hash, and its listed moves are legal.
pub fn position_text(data: &[u8]) {
    per_game::<PositionText>(data);
}

/// `GAME\nPOSITION\nMOVE`: a move in a position. One that reads is legal
/// there and its printed text reads as the same move.
pub fn move_text(data: &[u8]) {
    per_game::<MoveText>(data);
}

/// `GAME\nRULES`: a `key=value` list of rules options. Rules that read are
/// valid, print back to the same rules and start a game.
pub fn rules_text(data: &[u8]) {
    per_game::<RulesText>(data);
}

/// `GAME\nRULES\nDEAL`: a deal of Fenrir's Path or Fetters of Fenrir under
/// the rules read first. A deal that reads prints back to the same deal, and
/// one that fits the rules starts a game.
pub fn deal_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.splitn(3, '\n');
    let (Some(name), Some(rules), Some(deal)) = (lines.next(), lines.next(), lines.next()) else {
        return;
    };
    match name {
        fenrir_path::FenrirPath::NAME => fenrir_path_deal(rules, deal),
        fenrir_cards::FenrirCards::NAME => fenrir_cards_deal(rules, deal),
        _ => {}
    }
}

/// `GAME\nSPEC`: an agent spec, built by the game's registry entry. The spec
/// of an agent built reads back into an agent.
pub fn agent_spec(data: &[u8]) {
    per_game::<AgentSpec>(data);
}

/// `GAME\nRECORDS`: a file in the game's own record format, replayed.
pub fn game_records(data: &[u8]) {
    per_game::<GameRecords>(data);
}

/// `GAME\nLINES`: a session of the game's engine protocol, one command per
/// line, with a random agent answering. Every command gets a framed reply
/// in which no control character but the line break reaches the terminal.
pub fn htp_session(data: &[u8]) {
    per_game::<EngineCommands>(data);
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

/// `GAME\nLINES`: lines of a tournament's `games.jsonl`, replayed from the
/// game's start. A line that reads writes back to the same line.
pub fn games_line(data: &[u8]) {
    per_game::<GamesLines>(data);
}

/// `GAME\nBYTES`: a game played from its start, each byte choosing a legal
/// move (or seeding a chance event or a joint move). Every listed move is
/// legal in every state reached.
pub fn listed_moves_are_legal(data: &[u8]) {
    per_game::<ListedMovesAreLegal>(data);
}

/// `GAME\nBYTES`: a game played as in [`listed_moves_are_legal`]. In every
/// state reached the incremental hash equals the hash computed from scratch
/// for the position read from its text.
pub fn incremental_hash(data: &[u8]) {
    per_game::<IncrementalHash>(data);
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

/// Reads a position under the default rules and checks that its text reads
/// back to the same text and hash.
fn read_position<G: Registered>(text: &str) -> Result<G, ParseError> {
    let rules = G::Rules::default();
    let state = G::from_position_text(text, rules.clone())?;
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
    Ok(state)
}

struct PositionText;

impl PerGame for PositionText {
    fn check<G: Registered>(input: &[u8]) {
        if let Ok(state) = read_position::<G>(&String::from_utf8_lossy(input)) {
            state.diagram();
            check_listed_moves(&state);
        }
    }
}

struct MoveText;

impl PerGame for MoveText {
    fn check<G: Registered>(input: &[u8]) {
        let text = String::from_utf8_lossy(input);
        let Some((position, move_text)) = text.split_once('\n') else {
            return;
        };
        let Ok(state) = read_position::<G>(position) else {
            return;
        };
        let Ok(mv) = state.parse_move(move_text) else {
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
        check_rules_read_back(&rules);
        check_listed_moves(&G::new(rules));
    }
}

/// Rules that were read are valid and their text reads as the same rules.
fn check_rules_read_back<R: RulesOptions>(rules: &R) {
    if let Err(problem) = rules.validate() {
        panic!("rules {rules} were read but are not valid: {problem}");
    }
    let printed = rules.to_string();
    let reread: R = printed
        .parse()
        .unwrap_or_else(|error| panic!("rules {printed:?} do not read back: {error}"));
    assert_eq!(&reread, rules, "rules {printed:?} read back otherwise");
}

fn fenrir_path_deal(rules: &str, deal: &str) {
    let (Ok(rules), Ok(deal)) = (
        rules.parse::<fenrir_path::FenrirPathRules>(),
        deal.parse::<fenrir_path::Deal>(),
    ) else {
        return;
    };
    let printed = deal.to_string();
    let reread: fenrir_path::Deal = printed
        .parse()
        .unwrap_or_else(|error| panic!("deal {printed:?} does not read back: {error}"));
    assert_eq!(reread, deal, "deal {printed:?} reads back otherwise");
    if deal.validate(&rules).is_ok() {
        let start = fenrir_path::FenrirPath::from_deal(&deal, rules)
            .unwrap_or_else(|error| panic!("valid deal {printed:?} starts no game: {error}"));
        check_listed_moves(&start);
    }
}

fn fenrir_cards_deal(rules: &str, deal: &str) {
    let Ok(rules) = rules.parse::<fenrir_cards::FenrirCardsRules>() else {
        return;
    };
    let Ok(deal) = fenrir_cards::Deal::parse(deal, &rules) else {
        return;
    };
    let printed = deal.text(&rules);
    let reread = fenrir_cards::Deal::parse(&printed, &rules)
        .unwrap_or_else(|error| panic!("deal {printed:?} does not read back: {error}"));
    assert_eq!(reread, deal, "deal {printed:?} reads back otherwise");
    check_listed_moves(&fenrir_cards::FenrirCards::from_deal(deal, rules));
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
        G::replay_records(&String::from_utf8_lossy(input), &G::Rules::default());
    }
}

struct EngineCommands;

impl PerGame for EngineCommands {
    fn check<G: Registered>(input: &[u8]) {
        let agent = G::build_agent("random", 0).expect("every game has a random agent");
        let Some(mut session) = G::engine_session(G::Rules::default(), agent) else {
            return;
        };
        for line in String::from_utf8_lossy(input).lines() {
            let Some(reply) = session.answer(line) else {
                continue;
            };
            assert!(
                (reply.starts_with("= ") || reply.starts_with("? ")) && reply.ends_with("\n\n"),
                "reply {reply:?} to {line:?} is not framed"
            );
            assert!(
                !reply.chars().any(|c| c.is_control() && c != '\n'),
                "reply {reply:?} to {line:?} passes a control character on"
            );
            if session.finished() {
                break;
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
            read_position::<G>(&state.position_text()).unwrap_or_else(|error| {
                panic!(
                    "{} position reached in play does not read: {error}",
                    G::NAME
                )
            });
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
fn check_listed_moves<G: Registered>(state: &G) {
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
/// positions reached in random play with one legal move each, the default
/// rules, agent specs, and move choices, with the name of the entry point
/// each is for. The corpus starts from these; files in `fuzz/corpus/` add
/// the formats made outside the registry (records, sessions, logs).
pub fn registry_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let mut seeds: Vec<(&'static str, Vec<u8>)> = registry::visit_all(&mut Seeds)
        .into_iter()
        .flatten()
        .collect();
    let path_rules = fenrir_path::FenrirPathRules::default();
    let path_deal = fenrir_path::Deal::random(&path_rules, &mut rng_from_seed(1));
    seeds.push((
        "deal_text",
        format!(
            "{}\n{path_rules}\n{path_deal}",
            fenrir_path::FenrirPath::NAME
        )
        .into_bytes(),
    ));
    let cards_rules = fenrir_cards::FenrirCardsRules::default();
    let undealt = fenrir_cards::FenrirCards::new(cards_rules);
    let dealt = random_successor(&undealt, &mut rng_from_seed(1)).expect("a deal follows");
    seeds.push((
        "deal_text",
        format!(
            "{}\n{cards_rules}\n{}",
            fenrir_cards::FenrirCards::NAME,
            dealt.position_text()
        )
        .into_bytes(),
    ));
    seeds
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
            seeds.push(seed("position_text", position));
        }
        let choices: Vec<u8> = (0..64u8).map(|index| index.wrapping_mul(37)).collect();
        for target in ["listed_moves_are_legal", "incremental_hash"] {
            let mut input = format!("{name}\n").into_bytes();
            input.extend(&choices);
            seeds.push((target, input));
        }
        seeds
    }
}
