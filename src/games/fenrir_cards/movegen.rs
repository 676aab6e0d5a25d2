//! Legal asks: which players may be asked, and for which cards.

use super::cards::CardSet;
use super::moves::FenrirCardsMove;
use super::state::FenrirCards;
use crate::core::MoveList;

impl FenrirCards {
    /// The cards `player` may name: those of the suits it holds, less the
    /// cards it holds and (unless the rules allow them) the discarded ones.
    pub(crate) fn askable_cards(&self, player: usize) -> CardSet {
        let ranks = self.rules.ranks();
        let hand = self.hands[player];
        let suits = hand.suits(ranks);
        let mut cards = (0..3)
            .filter(|&suit| suits >> suit & 1 != 0)
            .fold(CardSet::EMPTY, |all, suit| all | CardSet::suit(suit, ranks));
        if !self.rules.ask_held() {
            cards = cards & !hand;
        }
        if !self.rules.ask_discarded() {
            cards = cards & !self.discarded;
        }
        cards
    }

    /// The players `player` may ask: every other player who holds a card.
    pub(crate) fn targets(&self, player: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.rules.players())
            .filter(move |&other| other != player && !self.hands[other].is_empty())
    }

    /// Whether `player` has at least one legal ask.
    pub(crate) fn has_legal_ask(&self, player: usize) -> bool {
        !self.askable_cards(player).is_empty() && self.targets(player).next().is_some()
    }

    /// Every legal ask of the player to move, by target, then by card.
    pub(crate) fn legal_asks(&self, moves: &mut MoveList<FenrirCardsMove>) {
        let asker = self.to_move as usize;
        let cards = self.askable_cards(asker);
        for target in self.targets(asker) {
            moves.extend(cards.iter().map(|card| FenrirCardsMove::Ask {
                target: target as u8,
                card,
            }));
        }
    }
}
