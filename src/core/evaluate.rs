//! Heuristic evaluation, the per-game knowledge that searchers use where they
//! cannot search to the end of the game.

use super::{Game, Player};

/// A game that can judge a position without playing it out.
pub trait Evaluate: Game {
    /// An estimate of `player`'s payoff from this state, within
    /// [`Game::payoff_range`]. For a finished game it should equal the payoff.
    fn evaluate(&self, player: Player) -> f64;

    /// Whether `mv` changes the material balance (a capture), so that
    /// searchers can try it early. The default knows no such moves.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }
}
