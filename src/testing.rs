//! The conformance suite every game passes, after OpenSpiel's basic tests:
//! random playouts from a start, resolving chance and playing joint moves,
//! with every state reached checked against the game model.
//!
//! `tests/suite/all_games.rs` runs [`check_conformance`] on every game of the
//! [registry](crate::registry), so a game cannot opt out; a game's own
//! tests call it on other starts and rules. Failures panic with a message
//! naming the state and the check, as test assertions do.
//!
//! The rules are valid and their text reads back into them. Per state:
//! - a clone equals its original and has its hash; the status agrees with
//!   the game's [capabilities](crate::core::Capabilities);
//! - a state with a player to move has legal moves, counted in bulk as
//!   listed; a simultaneous state has choices for every player; a finished
//!   state has no moves, and its payoffs fit the range and the scoring;
//! - [`Game::try_play_ply`] accepts sampled legal plies and gives the state
//!   [`Game::play_ply`] gives, and refuses moves listed in other states
//!   but not here with an error, leaving the state unchanged;
//! - the position text reads back to the same text and hash (which also
//!   checks the incremental hash against one computed from scratch), sampled
//!   plies' texts read back to the same plies, and corrupted texts give errors
//!   or valid results, never panics;
//! - with hidden information: every player's observation of a sampled
//!   determinization equals the observation it came from, and the
//!   observer's moves are the legal moves.
//!
//! Over the positions reached (turn-based games with perfect information):
//! alpha-beta agrees with plain minimax at depth 2; and where a position's
//! value is decided within one ply, MCTS-Solver proves it and alpha-beta
//! finds it. Perft of the start counts every ply (joint moves included).

pub mod encoding;
pub mod fuzz;

use crate::core::{
    Capabilities, Content, Evaluate, Game, GameRng, HIDDEN_SYMBOL, HiddenInformationVisitor,
    ImperfectInformation, MAX_PLAYERS, MoveList, Notation, Picture, Ply, RulesOptions, Scoring,
    Status, joint_choices, normalised_payoffs, resolve_chance, rng_from_seed,
};
use crate::search::{AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig, perft, perft_divide};
use rand::RngExt;
use std::collections::HashSet;
use std::fmt::Debug;

/// How much a conformance run checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Random playouts from the start.
    pub playouts: usize,
    /// Plies per playout at most.
    pub max_plies: usize,
    /// Plies per state tried through the checked API and the notation:
    /// every legal move when there are no more, else a random sample.
    pub plies_per_state: usize,
    /// Positions on which the searchers are compared with plain minimax.
    pub searched_positions: usize,
    /// The seed of the random playouts and samples: a failure repeats with
    /// the same seed.
    pub seed: u64,
}

impl Budget {
    /// The budget of the conformance suite, the same for every game.
    pub const SUITE: Budget = Budget {
        playouts: 4,
        max_plies: 160,
        plies_per_state: 6,
        searched_positions: 3,
        seed: 1,
    };
}

/// A game the conformance suite can check: notation (for the text checks)
/// and an evaluation (for the searchers), with equality and debug output
/// for the messages.
pub trait Checkable: Notation + Evaluate + PartialEq + Debug {}

impl<G: Notation + Evaluate + PartialEq + Debug> Checkable for G {}

/// What a conformance run got to check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// States checked.
    pub states: usize,
    /// Positions on which alpha-beta was compared with minimax.
    pub searched: usize,
    /// Decided positions on which MCTS-Solver and alpha-beta were checked.
    pub decided: usize,
}

/// The longest playout to the end that [`check_conformance`] plays to find
/// decided positions.
const PLAYOUT_LIMIT: usize = 5000;

/// Runs the whole conformance suite from `start` within `budget`, and says
/// how much it checked.
///
/// # Panics
/// On the first check that fails, naming it and the state.
pub fn check_conformance<G: Checkable>(start: &G, budget: &Budget) -> Coverage {
    let capabilities = Capabilities::of::<G>();
    let mut rng = rng_from_seed(budget.seed ^ 0x5eed);
    let mut pool: Vec<G::Move> = Vec::new();
    let mut searched: Vec<G> = Vec::new();
    let mut coverage = Coverage::default();
    check_rules(start.rules());
    check_perft(start);
    let searchable = !capabilities.hidden_information && !capabilities.simultaneous_moves;
    let start_picture = start.picture();
    for_each_playout(start, budget, |state, _| {
        check_state(state, &capabilities, budget, &mut pool, &mut rng);
        check_picture(&start_picture, state);
        coverage.states += 1;
        if searchable
            && matches!(state.status(), Status::ToMove(_))
            && searched.len() < budget.searched_positions
            && rng.random_bool(0.05)
        {
            searched.push(state.clone());
        }
    });
    for state in &searched {
        check_alpha_beta_is_minimax(state);
    }
    coverage.searched = searched.len();
    if searchable {
        // The last position of a game is often decided within one ply: the
        // mover has a winning move, or every move ends the game.
        let whole_games = Budget {
            max_plies: PLAYOUT_LIMIT,
            playouts: 4 * budget.searched_positions,
            ..*budget
        };
        let mut decided = Vec::new();
        for_each_playout(start, &whole_games, |state, next| {
            if decided.len() < budget.searched_positions
                && matches!(state.status(), Status::ToMove(_))
                && next.is_some_and(|next| next.status().is_over())
                && exact_value(state, 1).is_some()
            {
                decided.push(state.clone());
            }
        });
        for state in &decided {
            check_decided_value(state);
        }
        coverage.decided = decided.len();
    }
    coverage
}

/// Every state of `playouts` random games from `start` (seeded by
/// `seed`), each to its end or to `max_plies` plies.
pub fn playout_states<G: Game>(start: &G, playouts: usize, max_plies: usize, seed: u64) -> Vec<G> {
    let budget = Budget {
        playouts,
        max_plies,
        seed,
        ..Budget::SUITE
    };
    let mut states = Vec::new();
    for_each_playout(start, &budget, |state, _| states.push(state.clone()));
    states
}

/// Plays `budget.playouts` random games from `start` (at most
/// `budget.max_plies` plies each), resolving chance events and choosing
/// joint moves at random, and calls `visit` on every state reached with
/// the state that follows it (`None` at the end of a playout).
pub fn for_each_playout<G: Game>(
    start: &G,
    budget: &Budget,
    mut visit: impl FnMut(&G, Option<&G>),
) {
    let mut rng = rng_from_seed(budget.seed);
    for _ in 0..budget.playouts {
        let mut state = start.clone();
        for _ in 0..budget.max_plies {
            let Some(next) = random_successor(&state, &mut rng) else {
                break;
            };
            visit(&state, Some(&next));
            state = next;
        }
        visit(&state, None);
    }
}

/// The state after a random ply, or after the pending chance event;
/// `None` at the end of the game.
///
/// # Panics
/// If the game reaches a chance event or a simultaneous choice without the
/// trait to resolve it, or a player to move without moves.
pub fn random_successor<G: Game>(state: &G, rng: &mut GameRng) -> Option<G> {
    let mut next = state.clone();
    match state.status() {
        Status::Over(_) => return None,
        Status::Chance => assert!(
            resolve_chance(&mut next, rng),
            "{} reached a chance event without Stochastic",
            G::NAME
        ),
        _ => {
            let ply = random_ply(state, rng)
                .unwrap_or_else(|| panic!("a player to move has no move in {}", G::NAME));
            next.play_ply(&ply);
        }
    }
    Some(next)
}

/// Reads each case's position text under `rules` and checks the answer:
/// a case that expects `""` must read, any other must be refused with an
/// error that contains the expected words.
///
/// # Panics
/// On the first case that is read or refused otherwise, naming its text.
pub fn check_position_texts<G: Notation>(rules: &G::Rules, cases: &[(&str, &str)]) {
    for &(text, expected) in cases {
        match G::from_position_text(text, rules.clone()) {
            Ok(_) => assert!(expected.is_empty(), "{text} should be refused"),
            Err(error) => assert!(
                !expected.is_empty() && error.to_string().contains(expected),
                "{text}: {error}"
            ),
        }
    }
}

/// Reads each case's move text in `state` and checks that it is refused
/// with an error that contains the expected words.
///
/// # Panics
/// On the first case that reads as a move or is refused otherwise, naming
/// its text.
pub fn check_move_texts_refused<G: Notation>(state: &G, cases: &[(&str, &str)]) {
    for &(text, expected) in cases {
        match state.parse_move(text) {
            Ok(mv) => panic!("{text} should be refused, not read as {mv:?}"),
            Err(error) => assert!(error.to_string().contains(expected), "{text}: {error}"),
        }
    }
}

/// A uniformly random ply of `state`: a legal move, or at a simultaneous
/// choice one random choice per player. `None` if there is none.
fn random_ply<G: Game>(state: &G, rng: &mut GameRng) -> Option<Ply<G::Move>> {
    match state.status() {
        Status::ToMove(_) => {
            let mut moves = MoveList::new();
            state.legal_moves(&mut moves);
            (!moves.is_empty()).then(|| Ply::Move(moves[rng.random_range(0..moves.len())]))
        }
        Status::Simultaneous => {
            let choices = joint_choices(state).unwrap_or_else(|| {
                panic!("{} has a simultaneous state without Simultaneous", G::NAME)
            });
            if choices.iter().any(|moves| moves.is_empty()) {
                return None;
            }
            Some(Ply::Joint(
                choices
                    .iter()
                    .map(|moves| moves[rng.random_range(0..moves.len())])
                    .collect(),
            ))
        }
        Status::Chance | Status::Over(_) => None,
    }
}

fn check_state<G: Checkable>(
    state: &G,
    capabilities: &Capabilities,
    budget: &Budget,
    pool: &mut Vec<G::Move>,
    rng: &mut GameRng,
) {
    let clone = state.clone();
    assert_eq!(&clone, state, "a clone differs from its original");
    assert_eq!(clone.hash(), state.hash(), "a clone hashes differently");
    let moves = counted_legal_moves(state);
    match state.status() {
        Status::Over(outcome) => {
            assert!(moves.is_empty(), "a finished game lists moves: {state:?}");
            check_payoffs(state, outcome.payoffs.as_slice(), capabilities.scoring);
        }
        Status::ToMove(player) => {
            assert!(player < state.num_players(), "player {player} to move");
            assert!(
                !moves.is_empty(),
                "a player to move has no moves: {state:?}"
            );
        }
        Status::Simultaneous => {
            assert!(
                capabilities.simultaneous_moves,
                "a simultaneous state in a game without simultaneous moves: {state:?}"
            );
            assert!(
                moves.is_empty(),
                "a simultaneous state lists moves: {state:?}"
            );
        }
        Status::Chance => {
            assert!(
                capabilities.chance,
                "a chance state in a game without chance: {state:?}"
            );
            assert!(moves.is_empty(), "a chance state lists moves: {state:?}");
        }
    }
    let plies: Vec<Ply<G::Move>> = if moves.len() <= budget.plies_per_state {
        moves.iter().map(|&mv| Ply::Move(mv)).collect()
    } else {
        (0..budget.plies_per_state)
            .filter_map(|_| random_ply(state, rng))
            .collect()
    };
    for ply in &plies {
        let mut played = state.clone();
        played.play_ply(ply);
        let mut tried = state.clone();
        tried
            .try_play_ply(ply)
            .unwrap_or_else(|error| panic!("legal ply {ply:?} refused: {error}"));
        assert_eq!(
            played, tried,
            "try_play_ply and play_ply disagree on {ply:?}"
        );
    }
    check_unlisted_moves_are_refused(state, &moves, pool);
    pool.extend(moves.iter().take(4).copied());
    check_notation(state, &plies, rng);
    G::with_hidden_information(CheckObservations { state, rng });
}

/// The state's legal moves, checked against their bulk count.
fn counted_legal_moves<G: Game + Debug>(state: &G) -> MoveList<G::Move> {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    let mut scratch = MoveList::new();
    assert_eq!(
        state.count_legal_moves(&mut scratch),
        moves.len(),
        "bulk count differs from the move list in {state:?}"
    );
    moves
}

/// Payoffs have one entry per player, lie within the range, and fit the
/// scoring: zero-sum for two sides, equal for a team.
fn check_payoffs<G: Game + Debug>(state: &G, payoffs: &[f64], scoring: Scoring) {
    assert_eq!(payoffs.len(), state.num_players(), "one payoff per player");
    let (low, high) = state.payoff_range();
    assert!(
        payoffs.iter().all(|&payoff| (low..=high).contains(&payoff)),
        "payoffs {payoffs:?} outside {low}..={high}"
    );
    match scoring {
        Scoring::WinLoss => {
            assert!(
                payoffs.iter().all(|p| [-1.0, 0.0, 1.0].contains(p)),
                "win-loss payoffs {payoffs:?}"
            );
            assert_eq!(
                payoffs.iter().sum::<f64>(),
                0.0,
                "not zero-sum: {payoffs:?}"
            );
        }
        Scoring::Margin => {
            assert_eq!(
                payoffs.iter().sum::<f64>(),
                0.0,
                "not zero-sum: {payoffs:?}"
            );
        }
        Scoring::Team => assert!(
            payoffs.iter().all(|&payoff| payoff == payoffs[0]),
            "a team's payoffs differ: {payoffs:?} in {state:?}"
        ),
    }
}

/// Moves listed elsewhere and not here are refused with an error, and the
/// state is left as it was.
fn check_unlisted_moves_are_refused<G: Checkable>(
    state: &G,
    moves: &MoveList<G::Move>,
    pool: &[G::Move],
) {
    let legal: HashSet<G::Move> = moves.iter().copied().collect();
    for &mv in pool.iter().rev().take(16) {
        if legal.contains(&mv) || state.status() == Status::Simultaneous {
            continue;
        }
        let mut tried = state.clone();
        assert!(
            tried.try_play(mv).is_err(),
            "{mv:?} is not listed but try_play accepted it in {state:?}"
        );
        assert_eq!(&tried, state, "a refused move changed the state");
    }
}

/// Position and ply texts round-trip; corrupted ones never panic.
fn check_notation<G: Checkable>(state: &G, plies: &[Ply<G::Move>], rng: &mut GameRng) {
    let text = state.position_text();
    let reparsed = G::from_position_text(&text, state.rules().clone())
        .unwrap_or_else(|error| panic!("printed position does not parse: {error}"));
    assert_eq!(
        reparsed.position_text(),
        text,
        "position text does not round-trip"
    );
    assert_eq!(
        reparsed.hash(),
        state.hash(),
        "incremental hash differs from the hash of the parsed position {text}"
    );
    for ply in plies {
        let ply_text = state.ply_text(ply);
        let parsed = state
            .parse_ply(&ply_text)
            .unwrap_or_else(|error| panic!("printed ply {ply_text:?} does not parse: {error}"));
        assert_eq!(&parsed, ply, "ply text {ply_text:?} does not round-trip");
    }
    for corrupted in corruptions(&text, rng) {
        // Either outcome is fine; a panic fails the test.
        let _ = G::from_position_text(&corrupted, state.rules().clone());
    }
    if let Some(ply) = plies.first() {
        for corrupted in corruptions(&state.ply_text(ply).one_line(), rng) {
            let _ = state.parse_move(&corrupted);
        }
    }
}

/// The state's picture has the layout of the start's (so that a replay
/// changes slot contents only), every piece it draws is a symbol of its
/// frame, and only players of the game are said to see hidden slots.
fn check_picture<G: Notation + Debug>(start_picture: &Picture, state: &G) {
    let picture = state.picture();
    assert!(
        picture.same_layout(start_picture),
        "the picture's layout differs from the start's: {state:?}"
    );
    for slot in &picture.slots {
        if let Content::Piece(symbol) = &slot.content {
            assert!(
                picture.frame.contains(&format!("id=\"{symbol}\"")),
                "slot {} holds the piece `{symbol}` that the frame does not define",
                slot.name
            );
        }
        if let Some(player) = slot.seen_by {
            assert!(
                player < state.num_players(),
                "slot {} is seen by player {player} of {}",
                slot.name,
                state.num_players()
            );
            assert!(
                picture.frame.contains(&format!("id=\"{HIDDEN_SYMBOL}\"")),
                "slot {} is hidden but the frame has no `{HIDDEN_SYMBOL}` symbol",
                slot.name
            );
        }
    }
}

/// Variants of `text`: truncations, a dropped character, a duplicated one and
/// random replacements, to test that parsers never panic.
fn corruptions(text: &str, rng: &mut GameRng) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Vec::new();
    }
    const NOISE: &[char] = &['/', '-', 'x', ' ', '0', '9', 'Z', 'é', ',', ':', '1', '='];
    let mut out = Vec::new();
    for _ in 0..4 {
        let at = rng.random_range(0..chars.len());
        out.push(chars[..at].iter().collect());
        let mut dropped = chars.clone();
        dropped.remove(at);
        out.push(dropped.into_iter().collect());
        let mut doubled = chars.clone();
        doubled.insert(at, chars[at]);
        out.push(doubled.into_iter().collect());
        let mut replaced = chars.clone();
        replaced[at] = NOISE[rng.random_range(0..NOISE.len())];
        out.push(replaced.into_iter().collect());
    }
    out
}

/// The observation checks of a hidden-information game.
struct CheckObservations<'a, G> {
    state: &'a G,
    rng: &'a mut GameRng,
}

impl<G: Checkable> HiddenInformationVisitor<G> for CheckObservations<'_, G> {
    type Output = ();

    fn visit(self)
    where
        G: ImperfectInformation,
    {
        let state = self.state;
        if state.status() == Status::Chance {
            return;
        }
        for player in 0..state.num_players() {
            let observation = state.observation(player);
            let sampled = G::determinize(&observation, self.rng);
            assert!(
                sampled.observation(player) == observation,
                "player {player} would observe otherwise in a determinization of {state:?}"
            );
            if state.status() == Status::ToMove(player) {
                let mut legal = MoveList::new();
                state.legal_moves(&mut legal);
                let mut observed = MoveList::new();
                G::observer_moves(&observation, &mut observed);
                let legal: HashSet<G::Move> = legal.iter().copied().collect();
                let observed: HashSet<G::Move> = observed.iter().copied().collect();
                assert_eq!(observed, legal, "observer moves differ from legal moves");
            }
        }
    }
}

/// The rules are valid and their text reads back into the same rules.
fn check_rules<R: RulesOptions>(rules: &R) {
    rules
        .validate()
        .unwrap_or_else(|problem| panic!("the rules {rules} are not valid: {problem}"));
    check_reads_back(rules, "rules");
}

/// `value` prints as text that reads as the same value (`what` names it in
/// the message of a failure).
fn check_reads_back<T>(value: &T, what: &str)
where
    T: std::str::FromStr + std::fmt::Display + PartialEq + Debug,
    T::Err: std::fmt::Display,
{
    let text = value.to_string();
    let reread: T = text
        .parse()
        .unwrap_or_else(|error| panic!("{what} {text:?} do not read back: {error}"));
    assert_eq!(&reread, value, "{what} {text:?} read back otherwise");
}

/// Perft of the start counts each first ply's continuations once.
fn check_perft<G: Game>(start: &G) {
    if start.status() == Status::Chance {
        return;
    }
    let divided = perft_divide(start, 2, 1).expect("one thread is enough");
    assert_eq!(
        divided.iter().map(|&(_, nodes)| nodes).sum::<u64>(),
        perft(start, 2),
        "perft(2) differs from the sum over the first plies"
    );
    assert_eq!(
        divided.len() as u64,
        perft(start, 1),
        "perft(1) is not the number of first plies"
    );
}

/// A state's value for every player, normalised to `[0, 1]`, if it is
/// decided within `depth` plies: by the end of the game on every line, or
/// by a move that gives the player to move the best payoff there is. This
/// is what MCTS-Solver proves.
fn exact_value<G: Game>(state: &G, depth: u32) -> Option<[f64; MAX_PLAYERS]> {
    match state.status() {
        Status::Over(outcome) => Some(normalised_payoffs(state, outcome.payoffs.as_slice())),
        Status::ToMove(mover) if depth > 0 => {
            let mut moves = MoveList::new();
            state.legal_moves(&mut moves);
            let mut best: Option<[f64; MAX_PLAYERS]> = None;
            let mut all_decided = true;
            for &mv in moves.iter() {
                let mut child = state.clone();
                child.play(mv);
                match exact_value(&child, depth - 1) {
                    Some(value) if value[mover] >= 1.0 => return Some(value),
                    Some(value) => {
                        if best.is_none_or(|best| value[mover] > best[mover]) {
                            best = Some(value);
                        }
                    }
                    None => all_decided = false,
                }
            }
            best.filter(|_| all_decided)
        }
        _ => None,
    }
}

/// Plain minimax to `depth` plies with the evaluation at the leaves: the
/// normalised value for `me`, the player to move at the root.
fn minimax<G: Evaluate>(state: &G, me: usize, depth: u32) -> f64 {
    let normalise = |payoff: f64| {
        let (low, high) = state.payoff_range();
        ((payoff - low) / (high - low)).clamp(0.0, 1.0)
    };
    match state.status() {
        Status::Over(outcome) => normalise(outcome.payoffs.get(me)),
        Status::ToMove(mover) if depth > 0 => {
            let mut moves = MoveList::new();
            state.legal_moves(&mut moves);
            let values = moves.iter().map(|&mv| {
                let mut child = state.clone();
                child.play(mv);
                minimax(&child, me, depth - 1)
            });
            if mover == me {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                // Two sides, zero-sum: the opponent minimises `me`'s value.
                values.fold(f64::INFINITY, f64::min)
            }
        }
        _ => normalise(state.evaluate(me)),
    }
}

/// Alpha-beta (principal variation search with a transposition table) at
/// depth 2 scores `state` as plain minimax does.
fn check_alpha_beta_is_minimax<G: Checkable>(state: &G) {
    let me = state.status().player_to_move().expect("a player to move");
    let mut search = AlphaBeta::new(AlphaBetaConfig {
        depth: Some(2),
        table_megabytes: 1,
        ..AlphaBetaConfig::default()
    });
    let result = search.search(state).expect("a turn-based state");
    let searched = (result.value() + 1.0) / 2.0;
    let expected = minimax(state, me, 2);
    assert!(
        (searched - expected).abs() < 1e-4,
        "alpha-beta scores {searched}, minimax {expected} at depth 2 in {state:?}"
    );
}

/// A position decided within one ply: MCTS-Solver proves its value and
/// alpha-beta at depth 1 finds it.
fn check_decided_value<G: Checkable>(state: &G) {
    let me = state.status().player_to_move().expect("a player to move");
    let exact = exact_value(state, 1).expect("a decided position")[me];
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    let config = MctsConfig {
        iterations: Some(2 * moves.len() as u64 + 16),
        solver: true,
        ..MctsConfig::default()
    };
    let result = Mcts::new(config, 7)
        .expect("one thread")
        .search(state)
        .expect("a turn-based state");
    let chosen = result
        .moves
        .iter()
        .find(|stats| Some(stats.mv) == result.best_move)
        .expect("the chosen move has statistics");
    let proven = chosen
        .proven
        .unwrap_or_else(|| panic!("MCTS-Solver did not prove a decided position: {state:?}"));
    assert!(
        (proven[me] - exact).abs() < 1e-9,
        "MCTS-Solver proves {}, the exact value is {exact} in {state:?}",
        proven[me]
    );
    let mut search = AlphaBeta::new(AlphaBetaConfig {
        depth: Some(1),
        table_megabytes: 0,
        ..AlphaBetaConfig::default()
    });
    let searched = (search.search(state).expect("a turn-based state").value() + 1.0) / 2.0;
    assert!(
        (searched - exact).abs() < 1e-4,
        "alpha-beta finds {searched}, the exact value is {exact} in {state:?}"
    );
}
