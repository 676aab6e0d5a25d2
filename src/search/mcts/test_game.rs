//! A small game for the tests of the search's parts, whose results are
//! known without a search.

use crate::core::{Game, MoveList, NoRules, Outcome, Payoffs, Player, Scoring, Status};

/// Two players take one, two or three tokens from a pile in turn, and
/// whoever takes the last token wins. A pile that is a multiple of four is
/// lost for the player to move: whatever they take, the other can restore
/// a multiple of four, down to the empty pile.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Pile {
    pub(super) tokens: u32,
    pub(super) ply: u32,
}

impl Pile {
    pub(super) fn of(tokens: u32) -> Self {
        Pile { tokens, ply: 0 }
    }

    /// Whether the player to move wins with best play.
    pub(super) fn mover_wins(&self) -> bool {
        !self.tokens.is_multiple_of(4)
    }

    fn mover(&self) -> Player {
        (self.ply % 2) as Player
    }
}

impl Game for Pile {
    type Move = u32;
    type Rules = NoRules;
    const NAME: &'static str = "pile";
    const SCORING: Scoring = Scoring::WinLoss;

    fn new(_: NoRules) -> Self {
        Pile::of(10)
    }

    fn rules(&self) -> &NoRules {
        &NoRules
    }

    fn num_players(&self) -> usize {
        2
    }

    fn status(&self) -> Status {
        if self.tokens == 0 {
            // The player who took the last token moved last.
            Status::Over(Outcome {
                payoffs: Payoffs::win_for(1 - self.mover()),
                reason: "last token taken",
            })
        } else {
            Status::ToMove(self.mover())
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<u32>) {
        moves.clear();
        moves.extend(1..=self.tokens.min(3));
    }

    fn play(&mut self, mv: u32) {
        self.tokens -= mv;
        self.ply += 1;
    }

    fn hash(&self) -> u64 {
        u64::from(self.tokens) << 32 | u64::from(self.ply % 2)
    }

    fn payoff_range(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}

/// An evaluation that knows nothing: every unfinished position is even.
pub(super) fn even(_: &Pile, _: Player) -> f64 {
    0.0
}

/// The exact evaluation, a little short of the payoffs' ends: a win for
/// the player to move unless the pile is a multiple of four.
pub(super) fn exact(state: &Pile, player: Player) -> f64 {
    if let Status::Over(outcome) = state.status() {
        return outcome.payoffs.get(player);
    }
    if state.mover_wins() == (player == state.mover()) {
        0.9
    } else {
        -0.9
    }
}
