//! An evaluation by a shallow alpha-beta search, for searchers that score
//! positions with an evaluation (MCTS's leaves): the MCTS-minimax hybrid of
//! Baier and Winands ("MCTS-minimax hybrids", 2015), which lets the tree see
//! threats a static evaluation misses, such as a king one move from a
//! corner.

use crate::core::{Evaluator, Game, MoveList, Player, Status};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The value of a plain alpha-beta search `depth` plies deep with the
/// evaluation `inner` at its leaves, tactical moves tried first. For two
/// players whose payoffs sum to a constant (what one gains the other
/// loses); a state the search cannot go through (a chance event or a
/// simultaneous choice) is scored by `inner`.
///
/// Past the deadline of the search it serves ([`Evaluator::set_deadline`])
/// it searches no further: each node not yet searched is scored by `inner`,
/// so that a tree search on the clock is never held up by its leaves.
pub struct ShallowSearch<E> {
    /// The evaluation at the search's leaves.
    pub inner: E,
    /// The plies searched; 0 scores a position with `inner` alone.
    pub depth: u32,
    deadline: SharedDeadline,
}

impl<E> ShallowSearch<E> {
    /// A search `depth` plies deep with `inner` at its leaves, with no
    /// deadline until one is set.
    pub fn new(inner: E, depth: u32) -> Self {
        ShallowSearch {
            inner,
            depth,
            deadline: SharedDeadline::new(),
        }
    }
}

/// A deadline that the threads of a search read and the searcher sets,
/// without a lock: nanoseconds after a fixed instant, `u64::MAX` for none.
struct SharedDeadline {
    origin: Instant,
    nanos: AtomicU64,
}

impl SharedDeadline {
    const NONE: u64 = u64::MAX;

    fn new() -> Self {
        SharedDeadline {
            origin: Instant::now(),
            nanos: AtomicU64::new(Self::NONE),
        }
    }

    fn set(&self, deadline: Option<Instant>) {
        let nanos = deadline.map_or(Self::NONE, |deadline| {
            let since = deadline.saturating_duration_since(self.origin).as_nanos();
            u64::try_from(since).unwrap_or(Self::NONE)
        });
        self.nanos.store(nanos, Ordering::Relaxed);
    }

    fn get(&self) -> Option<Instant> {
        match self.nanos.load(Ordering::Relaxed) {
            Self::NONE => None,
            nanos => self
                .origin
                .checked_add(std::time::Duration::from_nanos(nanos)),
        }
    }
}

/// The deepest search a [`ShallowSearch`] is built for: every leaf of a
/// tree search pays for it, and a hundred moves a ply make depth 3 cost
/// tens of thousands of evaluations.
pub const MAX_SHALLOW_DEPTH: u32 = 3;

impl<E> ShallowSearch<E> {
    /// The value for `me`, the player to move in `state`, of a search
    /// `depth` plies deep within the window `(alpha, beta)`, cut to the
    /// evaluation at the nodes reached after `deadline`.
    fn value<G: Game>(
        &self,
        state: &G,
        me: Player,
        depth: u32,
        (mut alpha, beta): (f64, f64),
        deadline: Option<Instant>,
    ) -> f64
    where
        E: Evaluator<G>,
    {
        // The clock is read only where a node's moves are searched, which
        // costs an evaluation per move and more.
        if depth == 0 || deadline.is_some_and(|deadline| Instant::now() >= deadline) {
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
                    self.value(&child, me, depth - 1, (alpha, beta), deadline)
                }
                Status::ToMove(next) => other(self.value(
                    &child,
                    next,
                    depth - 1,
                    (other(beta), other(alpha)),
                    deadline,
                )),
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
                let window = (f64::NEG_INFINITY, f64::INFINITY);
                let value = self.value(state, mover, self.depth, window, self.deadline.get());
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

    fn set_deadline(&self, deadline: Option<Instant>) {
        self.deadline.set(deadline);
        self.inner.set_deadline(deadline);
    }
}
