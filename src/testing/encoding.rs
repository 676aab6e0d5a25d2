//! The checks every game's [`Encoding`] passes: random games played
//! through [`ActionState`] by action ids alone, with every state reached
//! compared against the game's own moves.
//!
//! Per state where a player moves (and no move is half chosen):
//! - every legal move has a path of ids below the action count; different
//!   moves have different paths, and no path is a proper prefix of another;
//! - the legal actions are exactly the first ids of the moves' paths, and
//!   no other player has any;
//! - the paths of an even sample of the legal moves, applied id by id,
//!   give the states that playing the moves gives (with the two checks
//!   above, every move is reachable by its ids), and an id that is not
//!   legal is refused with the state unchanged;
//! - the legal ids' texts are distinct, and a sample reads back to the ids;
//! - the observation tensor has the game's shape and values from 0 to 1.
//!
//! At simultaneous nodes every player's choices are single ids, distinct;
//! at chance nodes the outcomes' probabilities sum to 1; at the end the
//! returns are the payoffs. Replaying the history from the start gives the
//! state reached.

use super::Budget;
use crate::core::{ActionPath, Encoding, MoveList, Notation, Player, Status, rng_from_seed};
use crate::learning::{ActionState, Turn};
use rand::RngExt;
use std::collections::HashSet;

/// Plays `budget.playouts` random games of at most `budget.max_plies`
/// decisions from `start` through [`ActionState`] and checks every state
/// reached (see the module docs); returns how many states it checked.
///
/// # Panics
/// On the first check that fails, naming it.
pub fn check_encoding<G: Encoding + Notation>(start: &G, budget: &Budget) -> usize {
    let mut rng = rng_from_seed(budget.seed ^ 0xac7);
    let mut checked = 0;
    for _ in 0..budget.playouts {
        let mut state = ActionState::from_state(start.clone());
        for _ in 0..budget.max_plies {
            check_action_state(&state, budget);
            checked += 1;
            if let Some(most) = G::max_game_length(start.rules()) {
                assert!(
                    usize::try_from(start.ply()).unwrap_or(usize::MAX) + state.history().len()
                        <= most,
                    "{}: a game ran past its most actions, {most}",
                    G::NAME
                );
            }
            match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let outcomes = state.chance_outcomes();
                    let pick = rng.random_range(0..outcomes.len());
                    state
                        .apply_action(outcomes[pick].0)
                        .expect("a listed outcome");
                }
                Turn::Simultaneous => {
                    let joint: Vec<u32> = (0..start.num_players())
                        .map(|player| {
                            let legal = state.legal_actions(player);
                            legal[rng.random_range(0..legal.len())]
                        })
                        .collect();
                    state.apply_actions(&joint).expect("listed choices");
                }
                Turn::Player(player) => {
                    let legal = state.legal_actions(player);
                    assert!(
                        !legal.is_empty(),
                        "{}: a player to move has actions",
                        G::NAME
                    );
                    let id = legal[rng.random_range(0..legal.len())];
                    state.apply_action(id).expect("a listed action");
                }
            }
        }
        check_replay(start, &state);
    }
    checked
}

fn check_action_state<G: Encoding + Notation>(state: &ActionState<G>, budget: &Budget) {
    let players = state.state().num_players();
    match state.turn() {
        Turn::Player(mover) => {
            for other in (0..players).filter(|&other| other != mover) {
                assert!(
                    state.legal_actions(other).is_empty(),
                    "{}: only the mover acts",
                    G::NAME
                );
            }
            if state.pending().is_empty() {
                check_paths(state, mover, budget.plies_per_state);
            }
            check_texts(state, mover, budget.plies_per_state);
        }
        Turn::Simultaneous => {
            for player in 0..players {
                let legal = state.legal_actions(player);
                assert!(!legal.is_empty(), "{}: every player has a choice", G::NAME);
                check_texts(state, player, budget.plies_per_state);
            }
        }
        Turn::Chance => {
            let outcomes = state.chance_outcomes();
            assert!(
                !outcomes.is_empty(),
                "{}: a chance node has outcomes",
                G::NAME
            );
            let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
            assert!(
                (total - 1.0).abs() < 1e-9,
                "{}: chance sums to {total}",
                G::NAME
            );
        }
        Turn::Terminal => {
            let Status::Over(outcome) = state.state().status() else {
                unreachable!("a terminal turn is a finished game")
            };
            assert_eq!(state.returns(), outcome.payoffs.as_slice(), "{}", G::NAME);
            for player in 0..players {
                assert!(
                    state.legal_actions(player).is_empty(),
                    "{}: no actions at the end",
                    G::NAME
                );
            }
        }
    }
    let size: usize = G::observation_shape(state.state().rules()).iter().product();
    for player in 0..players {
        let observation = state.observation(player);
        assert_eq!(
            observation.len(),
            size,
            "{}: the observation's shape",
            G::NAME
        );
        assert!(
            observation.iter().all(|value| (0.0..=1.0).contains(value)),
            "{}: observation values from 0 to 1",
            G::NAME
        );
    }
}

/// The paths of the mover's legal moves against the contract, and the
/// paths of an even sample of `plies_per_state` moves applied id by id
/// against the moves played.
fn check_paths<G: Encoding + Notation>(
    state: &ActionState<G>,
    mover: Player,
    plies_per_state: usize,
) {
    let game = state.state();
    let actions = G::num_actions(game.rules());
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let paths: Vec<ActionPath> = moves
        .iter()
        .map(|&mv| {
            let mut path = ActionPath::new();
            game.action_path(mv, &mut path);
            path
        })
        .collect();
    let mut distinct = HashSet::new();
    for (mv, path) in moves.iter().zip(&paths) {
        let ids = path.as_slice();
        assert!(!ids.is_empty(), "{}: {mv:?} has no action", G::NAME);
        assert!(
            ids.iter().all(|&id| (id as usize) < actions),
            "{}: {mv:?} has an id past {actions}: {ids:?}",
            G::NAME
        );
        assert!(
            distinct.insert(*path),
            "{}: two moves share {ids:?}",
            G::NAME
        );
    }
    for path in &paths {
        for other in &paths {
            let (short, long) = (path.as_slice(), other.as_slice());
            assert!(
                short.len() >= long.len() || !long.starts_with(short),
                "{}: {short:?} is a prefix of {long:?}",
                G::NAME
            );
        }
    }
    let mut first: Vec<u32> = paths.iter().map(|path| path.as_slice()[0]).collect();
    first.sort_unstable();
    first.dedup();
    assert_eq!(
        state.legal_actions(mover),
        first,
        "{}: the legal actions",
        G::NAME
    );
    let step = (moves.len() / plies_per_state.max(1)).max(1);
    for (&mv, path) in moves.iter().zip(&paths).step_by(step) {
        let mut by_ids = state.clone();
        for &id in path.as_slice() {
            by_ids.apply_action(id).unwrap_or_else(|illegal| {
                panic!("{}: {mv:?} by its ids {path:?}: {illegal}", G::NAME)
            });
        }
        let mut played = game.clone();
        played.play(mv);
        assert_eq!(
            by_ids.state().hash(),
            played.hash(),
            "{}: {mv:?} by its ids",
            G::NAME
        );
        assert!(by_ids.pending().is_empty(), "{}", G::NAME);
    }
    let illegal = (0..actions as u32).find(|id| first.binary_search(id).is_err());
    if let Some(id) = illegal {
        let mut refused = state.clone();
        assert!(
            refused.apply_action(id).is_err(),
            "{}: illegal {id} accepted",
            G::NAME
        );
        assert_eq!(refused.state().hash(), game.hash(), "{}", G::NAME);
        assert_eq!(refused.history(), state.history(), "{}", G::NAME);
    }
}

/// The texts of `player`'s legal ids are distinct, and a sample of them
/// reads back to their ids.
fn check_texts<G: Encoding + Notation>(state: &ActionState<G>, player: Player, sample: usize) {
    let texts = state.legal_action_texts(player);
    let ids: Vec<u32> = texts.iter().map(|&(id, _)| id).collect();
    assert_eq!(
        ids,
        state.legal_actions(player),
        "{}: the texts' ids",
        G::NAME
    );
    let distinct: HashSet<&str> = texts.iter().map(|(_, text)| text.as_str()).collect();
    assert_eq!(
        distinct.len(),
        texts.len(),
        "{}: two actions share a text",
        G::NAME
    );
    let step = (texts.len() / sample.max(1)).max(1);
    for (id, text) in texts.iter().step_by(step) {
        assert_eq!(
            state.string_to_action(player, text).ok(),
            Some(*id),
            "{}: the text {text:?} of action {id}",
            G::NAME
        );
    }
}

/// The history applied again from the start gives the same state.
fn check_replay<G: Encoding + Notation>(start: &G, end: &ActionState<G>) {
    let mut replayed = ActionState::from_state(start.clone());
    let mut ids = end.history().iter().copied();
    while let Some(id) = ids.next() {
        if replayed.turn() == Turn::Simultaneous {
            let mut joint = vec![id];
            joint.extend(ids.by_ref().take(start.num_players() - 1));
            replayed
                .apply_actions(&joint)
                .expect("a recorded joint action");
        } else {
            replayed.apply_action(id).expect("a recorded action");
        }
    }
    assert_eq!(
        replayed.state().hash(),
        end.state().hash(),
        "{}: the replay",
        G::NAME
    );
    assert_eq!(replayed.pending(), end.pending(), "{}", G::NAME);
}
