//! The course of a turn: answers, discards, the pawn, draws, skipped players
//! and the end of the game.

use super::cards::{Card, CardSet};
use super::options::{EmptyHandRule, StuckRule};
use super::state::{
    EndReason, Event, FenrirCards, Phase, hand_key, mover_key, pawn_key, phase_key, stock_key,
};

impl FenrirCards {
    /// The player to move asks `target` for `card`.
    pub(crate) fn ask(&mut self, target: u8, card: Card) {
        let asker = self.to_move;
        let held = self.hands[target as usize].contains(card);
        self.history.push(Event::Ask {
            asker,
            target,
            card,
            held,
        });
        if held {
            self.hash ^= hand_key(target as usize, card);
            self.hands[target as usize].remove(card);
            self.discarded.insert(card);
            self.move_pawn(self.pawn.saturating_sub(self.rules.value(card)));
            if self.all_discarded() {
                self.set_phase(Phase::Over(EndReason::Bound));
            } else {
                // The asker's hand is unchanged, so it still holds cards.
                self.set_phase(self.phase_for_holder(asker as usize));
            }
        } else {
            let suit = card.suit(self.rules.ranks()) as u8;
            self.set_phase(Phase::FailedAsk { suit, target });
        }
    }

    /// The player to move discards `card`, after a failed ask or when stuck.
    pub(crate) fn discard(&mut self, card: Card) {
        let player = self.to_move;
        let failed_ask_of = match self.phase {
            Phase::FailedAsk { target, .. } => Some(target),
            _ => None,
        };
        self.history.push(Event::Discard {
            player,
            card,
            stuck: failed_ask_of.is_none(),
        });
        self.hash ^= hand_key(player as usize, card);
        self.hands[player as usize].remove(card);
        self.discarded.insert(card);
        self.move_pawn(self.pawn + self.rules.value(card));
        if self.pawn >= self.rules.track() {
            self.set_phase(Phase::Over(EndReason::ReachedOdin));
            return;
        }
        if self.all_discarded() {
            self.set_phase(Phase::Over(EndReason::Bound));
            return;
        }
        if let Some(target) = failed_ask_of
            && !self.stock().is_empty()
        {
            self.draw(target as usize);
        }
        self.begin_turn((player as usize + 1) % self.rules.players());
    }

    /// Gives the turn to `player`, or to the next player who can take it:
    /// a player with no cards draws from the stock if it can (and then plays
    /// or passes, as the rules say) and is skipped if it cannot.
    pub(crate) fn begin_turn(&mut self, mut player: usize) {
        loop {
            if self.hands[player].is_empty() {
                if self.stock().is_empty() {
                    player = (player + 1) % self.rules.players();
                    continue;
                }
                self.draw(player);
                if self.rules.empty_hand() == EmptyHandRule::DrawAndPass {
                    player = (player + 1) % self.rules.players();
                    continue;
                }
            }
            self.set_mover(player);
            self.set_phase(self.phase_for_holder(player));
            return;
        }
    }

    /// The decision a player who holds cards faces at its turn.
    fn phase_for_holder(&self, player: usize) -> Phase {
        if self.has_legal_ask(player) {
            Phase::Ask
        } else if self.rules.stuck() == StuckRule::Lose && self.targets(player).next().is_some() {
            // `lose` is for a player who could ask someone but may name no
            // card. A player whose partners are all empty always discards:
            // every game ends with one player holding the last cards, so
            // losing there would make every deal a loss.
            Phase::Over(EndReason::Stuck)
        } else {
            Phase::Stuck
        }
    }

    /// `player` draws the top card of the stock.
    fn draw(&mut self, player: usize) {
        let position = self.drawn as usize;
        let card = self.deal.stock()[position];
        self.hash ^= stock_key(position, card) ^ hand_key(player, card);
        self.hands[player].insert(card);
        self.drawn += 1;
        self.history.push(Event::Draw {
            player: player as u8,
        });
    }

    fn all_discarded(&self) -> bool {
        self.discarded == CardSet::deck(self.rules.ranks())
    }

    fn move_pawn(&mut self, to: u32) {
        self.hash ^= pawn_key(self.pawn) ^ pawn_key(to);
        self.pawn = to;
    }

    fn set_phase(&mut self, phase: Phase) {
        self.hash ^= phase_key(self.phase) ^ phase_key(phase);
        self.phase = phase;
    }

    fn set_mover(&mut self, player: usize) {
        self.hash ^= mover_key(self.to_move as usize) ^ mover_key(player);
        self.to_move = player as u8;
    }
}
