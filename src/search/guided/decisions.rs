//! A game state as the guided search steps through it: one action id at a
//! time, as `learning::ActionState` presents a game to learning code (a
//! move of several decisions is chosen id by id, a deal is drawn ball by
//! ball), without the history and texts an action state keeps: a search
//! replays its tree's edges on a copy of the root for every simulation,
//! and each edge remembers the move its id completes, so a replay plays
//! moves without listing any.

use crate::core::{ActionPath, Encoding, Game, MAX_PLAYERS, MoveList, Player, Status};

/// What one edge of the tree does to the state it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step<M> {
    /// The id completes this move: it is played.
    Play(M),
    /// The id is one more decision of a move under way.
    Decide(u32),
    /// A chance outcome drawn.
    Draw(u32),
}

/// Who acts in a state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Actor {
    /// This player decides.
    Player(Player),
    /// Nature draws.
    Chance,
    /// The game is over; each player's payoff scaled to `[-1, 1]`.
    Over([f64; MAX_PLAYERS]),
    /// The players choose at once, which the guided search does not do.
    Simultaneous,
}

/// A game state with the decisions taken so far of a move under way and
/// the draws so far of a deal under way.
#[derive(Clone, Debug)]
pub(super) struct Decisions<G: Encoding> {
    state: G,
    pending: ActionPath,
    draws: Vec<u32>,
}

impl<G: Encoding> Decisions<G> {
    /// `state` with `pending` the ids already chosen of its next move.
    pub(super) fn new(state: G, pending: &[u32]) -> Self {
        let mut path = ActionPath::new();
        pending.iter().for_each(|&id| path.push(id));
        Decisions {
            state,
            pending: path,
            draws: Vec::new(),
        }
    }

    /// The game state (before the move or deal under way).
    pub(super) fn state(&self) -> &G {
        &self.state
    }

    /// The ids chosen so far of the move under way.
    pub(super) fn pending(&self) -> &[u32] {
        self.pending.as_slice()
    }

    /// Who acts.
    pub(super) fn actor(&self) -> Actor {
        match self.state.status() {
            Status::ToMove(player) => Actor::Player(player),
            Status::Chance => Actor::Chance,
            Status::Simultaneous => Actor::Simultaneous,
            Status::Over(outcome) => {
                Actor::Over(scaled_payoffs(&self.state, outcome.payoffs.as_slice()))
            }
        }
    }

    /// The legal ids of the next decision of the player to move, in
    /// increasing order, each with what choosing it does; `scratch` holds
    /// the legal moves and their sort keys.
    pub(super) fn decisions(
        &self,
        scratch: &mut Listing<G::Move>,
        out: &mut Vec<(u32, Step<G::Move>)>,
    ) {
        out.clear();
        let Listing { moves, keys } = scratch;
        keys.clear();
        self.state.legal_moves(moves);
        let pending = self.pending.as_slice();
        let depth = pending.len();
        let mut path = ActionPath::new();
        for (index, &mv) in moves.iter().enumerate() {
            path.clear();
            self.state.action_path(mv, &mut path);
            let ids = path.as_slice();
            // Before a move (`depth` 0, most searches) every path continues
            // the empty one: no prefix to compare.
            if ids.len() > depth && (depth == 0 || ids[..depth] == *pending) {
                let completes = ids.len() == depth + 1;
                keys.push(listing_key(ids[depth], completes, index));
            }
        }
        // Sorted by id, an id that leaves the move open before one that
        // completes it: whole numbers sort faster than the pairs they
        // stand for, and a game lists a hundred moves at every node.
        keys.sort_unstable();
        // An id several moves share leaves the move open, whatever their
        // paths (a complete path is no other's prefix, so an id that
        // completes a move leads to that move alone).
        for &key in keys.iter() {
            let (id, completes, index) = listing_parts(key);
            if out.last().is_some_and(|&(last, _)| last == id) {
                if let Some(last) = out.last_mut() {
                    last.1 = Step::Decide(id);
                }
                continue;
            }
            let step = if completes {
                Step::Play(moves[index])
            } else {
                Step::Decide(id)
            };
            out.push((id, step));
        }
    }

    /// The outcomes of the pending chance event with their probabilities.
    pub(super) fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        G::deal_model(self.state.rules())
            .map(|model| model.next_draw(&self.draws))
            .unwrap_or_default()
    }

    /// Takes `step`, legal here.
    pub(super) fn take(&mut self, step: Step<G::Move>) {
        match step {
            Step::Play(mv) => {
                self.state.play(mv);
                self.pending.clear();
            }
            Step::Decide(id) => self.pending.push(id),
            Step::Draw(id) => {
                self.draws.push(id);
                let model = G::deal_model(self.state.rules())
                    .expect("a game with chance events describes its deal");
                if self.draws.len() == model.draw_count() {
                    self.state = (model.deal)(self.state.rules(), &self.draws);
                    self.draws.clear();
                }
            }
        }
    }

    /// Writes what `player` sees into `out` (zeroed here first).
    pub(super) fn write_observation(&self, player: Player, out: &mut [f32]) {
        out.fill(0.0);
        self.state
            .write_observation(player, self.pending.as_slice(), out);
    }
}

/// Room for listing a state's decisions ([`Decisions::decisions`]), kept
/// from one listing to the next: the legal moves, and a sort key for each
/// decision found.
pub(super) struct Listing<M> {
    moves: MoveList<M>,
    keys: Vec<u64>,
}

impl<M> Listing<M> {
    pub(super) fn new() -> Self {
        Listing {
            moves: MoveList::new(),
            keys: Vec::new(),
        }
    }
}

/// A decision as one number that sorts as `(id, completes)` does: the id in
/// the high bits, then whether it completes the move, then the index of
/// its move in the listing.
fn listing_key(id: u32, completes: bool, index: usize) -> u64 {
    (u64::from(id) << 33) | (u64::from(completes) << 32) | index as u64
}

/// The id, completion and move index of a [`listing_key`].
fn listing_parts(key: u64) -> (u32, bool, usize) {
    (
        (key >> 33) as u32,
        key & (1 << 32) != 0,
        (key & u64::from(u32::MAX)) as usize,
    )
}

/// Each player's payoff in `payoffs` scaled from the game's payoff range
/// to `[-1, 1]`.
pub(super) fn scaled_payoffs<G: Game>(state: &G, payoffs: &[f64]) -> [f64; MAX_PLAYERS] {
    let (low, high) = state.payoff_range();
    let mut scaled = [0.0; MAX_PLAYERS];
    for (value, &payoff) in scaled.iter_mut().zip(payoffs) {
        *value = (2.0 * (payoff - low) / (high - low) - 1.0).clamp(-1.0, 1.0);
    }
    scaled
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;
    use crate::learning::{ActionState, Turn};
    use crate::registry::{self, GameVisitor, Registered};
    use rand::RngExt;

    /// Walks random games of every registered game with an action state
    /// and the search's decisions in step: the same actor, legal ids (and
    /// chance outcomes) and observations at every step.
    struct SameAsActionState;

    impl GameVisitor for SameAsActionState {
        type Output = ();

        fn visit<G: Registered>(&mut self) {
            let mut rng = rng_from_seed(17);
            let (mut listing, mut choices) = (Listing::new(), Vec::new());
            for _ in 0..3 {
                let start = G::new(G::Rules::default());
                let mut action = ActionState::from_state(start.clone());
                let mut decisions = Decisions::new(start, &[]);
                for _ in 0..200 {
                    let id = match (action.turn(), decisions.actor()) {
                        (Turn::Player(player), Actor::Player(mover)) => {
                            assert_eq!(player, mover, "{}", G::NAME);
                            decisions.decisions(&mut listing, &mut choices);
                            let ids: Vec<u32> = choices.iter().map(|&(id, _)| id).collect();
                            assert_eq!(ids, action.legal_actions(player), "{}", G::NAME);
                            let mut seen = vec![0.0; action.observation(player).len()];
                            decisions.write_observation(player, &mut seen);
                            assert_eq!(seen, action.observation(player), "{}", G::NAME);
                            let (id, step) = choices[rng.random_range(0..choices.len())];
                            decisions.take(step);
                            id
                        }
                        (Turn::Chance, Actor::Chance) => {
                            let outcomes = decisions.chance_outcomes();
                            assert_eq!(outcomes, action.chance_outcomes(), "{}", G::NAME);
                            let (id, _) = outcomes[rng.random_range(0..outcomes.len())];
                            decisions.take(Step::Draw(id));
                            id
                        }
                        (Turn::Terminal, Actor::Over(_))
                        | (Turn::Simultaneous, Actor::Simultaneous) => break,
                        (turn, actor) => panic!("{}: {turn:?} against {actor:?}", G::NAME),
                    };
                    action.apply_action(id).unwrap();
                    assert_eq!(decisions.pending(), action.pending(), "{}", G::NAME);
                }
            }
        }
    }

    #[test]
    fn the_search_steps_through_every_game_as_its_action_state_does() {
        registry::visit_all(&mut SameAsActionState);
    }
}
