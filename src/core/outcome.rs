//! Players, payoffs and the status of a game.

use serde::Serialize;
use std::fmt;

/// A player's index: `0` moves first in two-player games, and payoffs are
/// indexed by it.
pub type Player = usize;

/// The largest number of players any game in the crate has (Fetters of Fenrir).
pub const MAX_PLAYERS: usize = 4;

/// One payoff per player, stored inline so that reporting a result never allocates.
///
/// Zero-sum games use `+1 / -1` (and `0` for a draw), scored games their score
/// margin, and cooperative games one shared payoff for the whole team.
#[derive(Clone, Copy, PartialEq)]
pub struct Payoffs {
    values: [f64; MAX_PLAYERS],
    players: u8,
}

impl Payoffs {
    /// Payoffs taken from a slice with one value per player.
    ///
    /// # Panics
    /// If the slice is empty or longer than [`MAX_PLAYERS`]: that is a bug in the
    /// game, not bad input.
    pub fn from_slice(values: &[f64]) -> Self {
        assert!(
            !values.is_empty() && values.len() <= MAX_PLAYERS,
            "a game has between 1 and {MAX_PLAYERS} players"
        );
        let mut inline = [0.0; MAX_PLAYERS];
        inline[..values.len()].copy_from_slice(values);
        Payoffs {
            values: inline,
            players: values.len() as u8,
        }
    }

    /// A two-player zero-sum result: `winner` gets `+1`, the other player `-1`.
    pub fn win_for(winner: Player) -> Self {
        Self::zero_sum(winner, 1.0)
    }

    /// A two-player result: `winner` gets `+1` and the other player `-1`,
    /// or both `0` for a draw (`None`).
    pub fn win_or_draw(winner: Option<Player>) -> Self {
        match winner {
            Some(winner) => Self::win_for(winner),
            None => Self::shared(2, 0.0),
        }
    }

    /// A two-player zero-sum result in which `player` gets `value` and the
    /// opponent `-value` (scored games report their margin this way).
    pub fn zero_sum(player: Player, value: f64) -> Self {
        let mut values = [0.0; 2];
        values[player] = value;
        values[1 - player] = -value;
        Self::from_slice(&values)
    }

    /// Every player gets the same payoff: a draw (`0`) or a cooperative result.
    pub fn shared(players: usize, value: f64) -> Self {
        Self::from_slice(&[value; MAX_PLAYERS][..players])
    }

    /// The payoff of `player`.
    pub fn get(&self, player: Player) -> f64 {
        self.as_slice()[player]
    }

    /// One payoff per player.
    pub fn as_slice(&self) -> &[f64] {
        &self.values[..self.players as usize]
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players as usize
    }
}

impl fmt::Debug for Payoffs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for Payoffs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

/// How a finished game ended: the payoffs and a short name for the reason
/// (`"escape"`, `"king-captured"`, `"ply-limit"`, ...), which reports count.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// Every player's payoff, by player.
    pub payoffs: Payoffs,
    /// Why the game ended, a short kebab-case name.
    pub reason: &'static str,
}

impl Outcome {
    /// A two-player result ([`Payoffs::win_or_draw`]): `winner` gets `+1`
    /// and the other player `-1`, or both `0` for a draw (`None`), for the
    /// reason named `reason`.
    pub fn win_or_draw(winner: Option<Player>, reason: &'static str) -> Self {
        Outcome {
            payoffs: Payoffs::win_or_draw(winner),
            reason,
        }
    }

    /// The shared result of a team ([`Scoring::Team`](crate::core::Scoring::Team)):
    /// each of the `players` gets `1` if the team won and `0` if it lost,
    /// for the reason named `reason`.
    pub fn team(players: usize, won: bool, reason: &'static str) -> Self {
        Outcome {
            payoffs: Payoffs::shared(players, if won { 1.0 } else { 0.0 }),
            reason,
        }
    }

    /// The player with the strictly highest payoff, or `None` when the best
    /// payoff is shared (a draw, or any cooperative result) or there is a
    /// single player, who has no one to beat.
    pub fn winner(&self) -> Option<Player> {
        let values = self.payoffs.as_slice();
        if values.len() < 2 {
            return None;
        }
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut leaders = values
            .iter()
            .enumerate()
            .filter(|&(_, &value)| value == best);
        let (leader, _) = leaders.next()?;
        leaders.next().is_none().then_some(leader)
    }
}

/// Whose decision comes next, or how the game ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Status {
    /// One player chooses a move from [`Game::legal_moves`](crate::core::Game::legal_moves).
    ToMove(Player),
    /// Every player chooses at once and in secret
    /// (see [`Simultaneous`](crate::core::Simultaneous)).
    Simultaneous,
    /// Nature moves: a shuffle or a draw (see [`Stochastic`](crate::core::Stochastic)).
    Chance,
    /// The game is over.
    Over(Outcome),
}

impl Status {
    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        matches!(self, Status::Over(_))
    }

    /// The outcome, if the game has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Status::Over(outcome) => Some(*outcome),
            _ => None,
        }
    }

    /// The player to move, if one player is to move.
    pub fn player_to_move(&self) -> Option<Player> {
        match self {
            Status::ToMove(player) => Some(*player),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_sum_payoffs_sum_to_zero_and_name_the_winner() {
        let outcome = Outcome {
            payoffs: Payoffs::win_for(1),
            reason: "test",
        };
        assert_eq!(outcome.payoffs.as_slice(), &[-1.0, 1.0]);
        assert_eq!(outcome.winner(), Some(1));
    }

    #[test]
    fn shared_payoffs_have_no_winner() {
        let outcome = Outcome {
            payoffs: Payoffs::shared(3, 1.0),
            reason: "test",
        };
        assert_eq!(outcome.payoffs.players(), 3);
        assert_eq!(outcome.winner(), None);
        let alone = Outcome {
            payoffs: Payoffs::shared(1, 0.0),
            reason: "test",
        };
        assert_eq!(alone.winner(), None, "a lone player's loss is no win");
    }

    #[test]
    fn payoffs_serialize_as_a_list() {
        let json = serde_json::to_string(&Payoffs::zero_sum(0, 7.0)).unwrap();
        assert_eq!(json, "[7.0,-7.0]");
    }
}
