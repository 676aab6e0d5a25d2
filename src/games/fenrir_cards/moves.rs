//! A move of Fetters of Fenrir.

use super::cards::Card;

/// A move: an ask, or the discard that follows a failed ask or a turn
/// without a legal ask. The asker is always the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenrirCardsMove {
    /// Ask player `target` for `card`.
    Ask {
        /// The player asked, by index from 0: another player who holds at
        /// least one card.
        target: u8,
        /// The card named, of a suit the asker holds.
        card: Card,
    },
    /// Discard `card` from the mover's hand.
    Discard(Card),
}
