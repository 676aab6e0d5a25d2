//! Playing the game: the reveal, the characters' moves in sequence order,
//! the winning conditions and the end of a round.

use super::board::{CASTLES, MURDER_TRIANGLES, bit};
use super::moves::{Character, Pair};
use super::options::WinCheck;
use super::state::{EndReason, Nibelungen};

impl Nibelungen {
    /// Reveals the two chosen pairs (Tod's first) and starts the movement
    /// phase; a round in which nothing moves ends at once.
    pub(crate) fn reveal(&mut self, pairs: [Pair; 2]) {
        self.ply += 1;
        self.set_screens(pairs.map(Some));
        let (movers, _) = self.movers();
        self.set_next(Self::first_mover(movers, 0));
        if self.next.is_none() {
            self.finish_round();
        }
    }

    /// Moves the character to move to `point`, checks the winning
    /// conditions, and passes the move to the next character in sequence
    /// order or ends the round.
    pub(crate) fn move_character(&mut self, point: u8) {
        let character = self.next.expect("a character is to move");
        self.ply += 1;
        self.place(character, point);
        if self.rules.win_check == WinCheck::EveryMove
            && let Some(reason) = self.condition_met()
        {
            self.end(reason);
            return;
        }
        let (movers, _) = self.movers();
        self.set_next(Self::first_mover(movers, character.index() + 1));
        if self.next.is_none() {
            self.finish_round();
        }
    }

    /// The first character of `movers` (as bits) from index `from` on.
    fn first_mover(movers: u8, from: usize) -> Option<Character> {
        Character::ALL[from.min(5)..]
            .iter()
            .copied()
            .find(|character| movers & character.bit() != 0)
    }

    /// Ends the round: a win checked at the end of the round, or the draw
    /// once the round limit is played out, or the next round's choices.
    fn finish_round(&mut self) {
        if self.rules.win_check == WinCheck::EndOfRound
            && let Some(reason) = self.condition_met()
        {
            self.end(reason);
            return;
        }
        self.set_round(self.round.saturating_add(1));
        if self.rounds_exhausted() {
            self.end(EndReason::RoundLimit);
        }
    }

    /// The winning condition the board meets, if any.
    pub fn condition_met(&self) -> Option<EndReason> {
        condition_of(&self.points)
    }
}

/// The winning condition met with the characters on `points` (in sequence
/// order), if any (the two sides' conditions never hold together, and NO's
/// two exclude each other: Siegfried is alone with one partner).
pub fn condition_of(points: &[u8; 5]) -> Option<EndReason> {
    let at = |character: Character| bit(points[character.index()]);
    let occupied = points.iter().fold(0, |set, &point| set | bit(point));
    let siegfried = at(Character::Siegfried);
    for castle in CASTLES {
        let inside = castle.points & occupied;
        if inside == siegfried | at(Character::Brunhild) {
            return Some(EndReason::SiegfriedWithBrunhild);
        }
        if inside == siegfried | at(Character::Kriemhild) {
            return Some(EndReason::SiegfriedWithKriemhild);
        }
        if castle.points == siegfried | at(Character::Gunther) | at(Character::Brunhild) {
            return Some(EndReason::Marriage);
        }
    }
    let murderers = siegfried | at(Character::Gunther) | at(Character::Hagen);
    MURDER_TRIANGLES
        .contains(&murderers)
        .then_some(EndReason::Murder)
}
