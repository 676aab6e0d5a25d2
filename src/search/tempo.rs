//! A bonus for the player to move, for searchers that compare evaluations
//! of positions reached at different depths.
//!
//! A static evaluation that ignores whose move it is misjudges both sides
//! of every position in the same way: the player to move can usually
//! improve on it by moving. Alpha-beta at a fixed depth compares leaves
//! with the same player to move, so the error cancels. A best-first tree
//! (MCTS with evaluated expansion) compares a child never expanded, where
//! the opponent is to move, with a sibling whose value comes from leaves
//! where the chooser is to move again, and the error between the two
//! decides: the unexpanded child looks better than it is. On Copenhagen
//! Hnefatafl, from positions of the recorded games, the best move's
//! evaluation is 0.08 to 0.10 above the position's own for the player to
//! move (in payoff units, on a range of −1 to 1), and a two-ply search
//! gives the same amount back (bench-results/strength.md).

use crate::core::{Evaluator, Game, Player, Status};

/// The evaluation `inner` with [`Tempo::bonus`] added for the player to
/// move in every position that is not over, and taken from the other
/// player, within the game's payoff range. For two players whose payoffs
/// sum to a constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tempo<E> {
    /// The evaluation the bonus is added to.
    pub inner: E,
    /// The bonus as a share of the payoff range (as a search's normalised
    /// payoffs in `[0, 1]` count it).
    pub bonus: f64,
}

/// The largest [`Tempo::bonus`] an agent spec takes: a quarter of the
/// payoff range is already far more than moving is worth in any game here.
pub const MAX_TEMPO: f64 = 0.25;

impl<G: Game, E: Evaluator<G>> Evaluator<G> for Tempo<E> {
    fn evaluate(&self, state: &G, player: Player) -> f64 {
        let value = self.inner.evaluate(state, player);
        let Status::ToMove(mover) = state.status() else {
            return value;
        };
        let (low, high) = state.payoff_range();
        let shift = self.bonus * (high - low);
        let shifted = if mover == player {
            value + shift
        } else {
            value - shift
        };
        shifted.clamp(low, high)
    }

    fn is_tactical(&self, state: &G, mv: G::Move) -> bool {
        self.inner.is_tactical(state, mv)
    }

    fn extends(&self, state: &G, mv: G::Move) -> bool {
        self.inner.extends(state, mv)
    }

    fn may_extend(&self) -> bool {
        self.inner.may_extend()
    }

    fn root_extension(&self, state: &G) -> u32 {
        self.inner.root_extension(state)
    }

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        self.inner.set_deadline(deadline);
    }
}
