//! An evaluation by a shallow alpha-beta search, for searchers that score
//! positions with an evaluation (MCTS's leaves): the MCTS-minimax hybrid of
//! Baier and Winands ("MCTS-minimax hybrids", 2015), which lets the tree see
//! threats a static evaluation misses, such as a king one move from a
//! corner.

use crate::core::{Evaluator, Game, MoveList, Player, Status};

/// The value of a plain alpha-beta search `depth` plies deep with the
/// evaluation `inner` at its leaves, tactical moves tried first. For two
/// players whose payoffs sum to a constant (what one gains the other
/// loses); a state the search cannot go through (a chance event or a
/// simultaneous choice) is scored by `inner`.
pub struct ShallowSearch<E> {
    pub inner: E,
    pub depth: u32,
}

/// The deepest search a [`ShallowSearch`] is built for: every leaf of a
/// tree search pays for it, and a hundred moves a ply make depth 3 cost
/// tens of thousands of evaluations.
pub const MAX_SHALLOW_DEPTH: u32 = 3;

impl<E> ShallowSearch<E> {
    /// The value for `me`, the player to move in `state`, of a search
    /// `depth` plies deep within the window `(alpha, beta)`.
    fn value<G: Game>(&self, state: &G, me: Player, depth: u32, mut alpha: f64, beta: f64) -> f64
    where
        E: Evaluator<G>,
    {
        if depth == 0 {
            return self.inner.evaluate(state, me);
        }
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.inner.evaluate(state, me);
        }
        // Tactical moves first, without a list of their own on every node.
        let tactical = |mv: &&G::Move| self.inner.is_tactical(state, **mv);
        let ordered = moves
            .iter()
            .filter(tactical)
            .chain(moves.iter().filter(|mv| !tactical(mv)));
        let (low, high) = state.payoff_range();
        // The other player's value of a payoff of `value` for `me`.
        let other = |value: f64| low + high - value;
        let mut best = f64::NEG_INFINITY;
        for &mv in ordered {
            let mut child = state.clone();
            child.play(mv);
            let value = match child.status() {
                Status::Over(outcome) => outcome.payoffs.get(me),
                Status::ToMove(next) if next == me => {
                    self.value(&child, me, depth - 1, alpha, beta)
                }
                Status::ToMove(next) => {
                    other(self.value(&child, next, depth - 1, other(beta), other(alpha)))
                }
                Status::Chance | Status::Simultaneous => self.inner.evaluate(&child, me),
            };
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for ShallowSearch<E> {
    fn evaluate(&self, state: &G, player: Player) -> f64 {
        match state.status() {
            Status::Over(outcome) => outcome.payoffs.get(player),
            Status::ToMove(mover) => {
                let value = self.value(state, mover, self.depth, f64::NEG_INFINITY, f64::INFINITY);
                if mover == player {
                    value
                } else {
                    let (low, high) = state.payoff_range();
                    low + high - value
                }
            }
            Status::Chance | Status::Simultaneous => self.inner.evaluate(state, player),
        }
    }

    fn is_tactical(&self, state: &G, mv: G::Move) -> bool {
        self.inner.is_tactical(state, mv)
    }
}
