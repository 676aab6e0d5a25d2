//! A proof search for a forced king escape: whether the defenders win with
//! king moves alone whatever the attackers do, within a few king moves.
//!
//! It answers a narrower question than a full search, so a `true` is a
//! proof (the defenders' other pieces only add ways to win) and a `false`
//! says only that the king alone cannot force it so quickly. Tools that
//! pick positions where the attackers are ahead use it to leave out those
//! that the defenders have already won.

use super::board::Side;
use super::state::Tafl;
use crate::core::{Game, MoveList};

impl Tafl {
    /// Whether the defenders win within `king_moves` moves of the king
    /// against every answer of the attackers, whichever side is to move:
    /// with the attackers to move, every move of theirs leaves such a win.
    /// A berserk continuation ends a line as not won.
    pub fn king_escapes_by_force(&self, king_moves: u32) -> bool {
        if let Some(outcome) = self.status().outcome() {
            return outcome.winner() == Some(Side::Defenders.player());
        }
        if king_moves == 0 {
            return false;
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        match self.side_to_move() {
            Side::Defenders => {
                let king = self.king();
                moves
                    .iter()
                    .filter(|mv| usize::from(mv.from) == king)
                    .any(|&mv| {
                        let mut next = self.clone();
                        next.play(mv);
                        match next.side_to_move() {
                            Side::Attackers => next.king_escapes_by_force(king_moves - 1),
                            Side::Defenders => next.status().outcome().is_some_and(|outcome| {
                                outcome.winner() == Some(Side::Defenders.player())
                            }),
                        }
                    })
            }
            Side::Attackers => moves.iter().all(|&mv| {
                let mut next = self.clone();
                next.play(mv);
                next.side_to_move() == Side::Defenders && next.king_escapes_by_force(king_moves)
                    || next
                        .status()
                        .outcome()
                        .is_some_and(|outcome| outcome.winner() == Some(Side::Defenders.player()))
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::core::Notation;
    use crate::games::tafl::{Tafl, TaflRules};

    fn position(variant: &str, text: &str) -> Tafl {
        Tafl::from_position_text(text, TaflRules::variant(variant).unwrap()).unwrap()
    }

    #[test]
    fn an_open_line_is_an_escape_in_one_and_a_fork_one_the_attackers_cannot_stop() {
        // The king on a4 sees the corners a1 and a7 down an empty file,
        // and the attacker on b2 can close only one end of it.
        let fork = position("brandub", "/7/7/7/K6/7/1t5/7/ attackers");
        assert!(fork.king_escapes_by_force(1));
        // With a7 already closed by an attacker on a6, b2 to a2 shuts a1.
        let single = position("brandub", "/7/t6/7/K6/7/1t5/7/ attackers");
        assert!(!single.king_escapes_by_force(1));
        // The defenders to move with an open line take it.
        let open = position("brandub", "/7/t6/7/K6/7/7/1t5/ defenders");
        assert!(open.king_escapes_by_force(1));
        assert!(!open.king_escapes_by_force(0));
    }

    #[test]
    fn two_king_moves_find_a_fork_one_move_does_not() {
        // The king on the throne of a board with one attacker, on b2: no
        // corner in one move, but the king's move to g4 or d7 opens two
        // corners at once.
        let centre = position("brandub", "/7/7/7/3K3/7/1t5/7/ defenders");
        assert!(!centre.king_escapes_by_force(1));
        assert!(centre.king_escapes_by_force(2));
    }
}
