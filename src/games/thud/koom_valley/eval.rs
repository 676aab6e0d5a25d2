//! The heuristic evaluation of Koom Valley Thud for searchers that stop
//! before the end of the game.

use super::moves::{KoomValleyMove, KoomValleyMoveKind};
use super::rules::TROLLS_AROUND_ROCK;
use super::setup::{MAX_DWARFS, MAX_TROLLS};
use super::state::KoomValley;
use crate::bitboard::Square;
use crate::core::{Evaluate, Player};
use crate::games::thud::board::{ADJACENT, GRID, Side, column, row};
use crate::games::zero_sum_evaluation;

/// Points per square the Rock has come closer to the goal from the centre.
const ROCK_PROGRESS: f64 = 0.35;
/// The Rock's distance to the goal at the start.
const START_DISTANCE: f64 = 7.0;
/// Points against the dwarfs per troll next to the Rock and per troll two
/// squares from it.
const TROLL_NEXT_TO_ROCK: f64 = 0.5;
const TROLL_NEAR_ROCK: f64 = 0.15;
/// Points against the dwarfs when two trolls already stand next to the Rock
/// and the trolls are to move: a third may close the ring at once.
const RING_THREAT: f64 = 1.5;
/// Points for the dwarfs when a dwarf stands next to the Rock (it can move)
/// and per square it can be pushed to.
const ROCK_ESCORTED: f64 = 0.3;
const ROCK_MOBILITY: f64 = 0.1;
/// Points per dwarf and per troll gained or lost since the start.
const DWARF_VALUE: f64 = 0.25;
const TROLL_VALUE: f64 = 0.6;
/// The scale of the squashing into (-1, 1): a lead of this many points is
/// worth about three quarters of a win.
const SCALE: f64 = 2.5;

/// The Rock's king-step distance to the nearest goal square (rank 1, files F..K).
fn goal_distance(rock: Square) -> u8 {
    let off_file = match column(rock) {
        c if c < 5 => 5 - c,
        c if c > 9 => c - 9,
        _ => 0,
    };
    row(rock).max(off_file)
}

impl KoomValley {
    /// Whether a troll not yet next to the Rock can move next to it.
    fn can_close_ring(&self) -> bool {
        let occupied = self.occupied();
        let free_around = ADJACENT.targets(self.rock) & !occupied;
        (self.trolls & !ADJACENT.targets(self.rock))
            .squares()
            .any(|troll| {
                self.troll_destinations(troll, occupied)
                    .intersects(free_around)
            })
    }

    /// The position's value for the dwarfs in points (unbounded).
    fn heuristic_points(&self) -> f64 {
        let next_to_rock = self.trolls_around_rock().count();
        let near_rock = self
            .trolls
            .squares()
            .filter(|&troll| GRID.distance(troll, self.rock) == 2)
            .count();
        let ring_threat = self.to_move == Side::Trolls
            && next_to_rock + 1 >= TROLLS_AROUND_ROCK
            && self.can_close_ring();
        let escorted = ADJACENT.targets(self.rock).intersects(self.dwarfs);
        let progress = START_DISTANCE - f64::from(goal_distance(self.rock));
        let material = DWARF_VALUE * (f64::from(self.dwarfs.count()) - f64::from(MAX_DWARFS))
            - TROLL_VALUE * (f64::from(self.trolls.count()) - f64::from(MAX_TROLLS));
        ROCK_PROGRESS * progress
            - TROLL_NEXT_TO_ROCK * f64::from(next_to_rock)
            - TROLL_NEAR_ROCK * near_rock as f64
            - if ring_threat { RING_THREAT } else { 0.0 }
            + if escorted { ROCK_ESCORTED } else { 0.0 }
            + ROCK_MOBILITY * f64::from(self.rock_destinations().count())
            + material
    }
}

impl Evaluate for KoomValley {
    /// An estimate in (-1, 1) from the Rock's distance to the goal, the
    /// trolls around the Rock, whether the dwarfs can push it, and material;
    /// the exact payoff once the game is over.
    fn evaluate(&self, player: Player) -> f64 {
        zero_sum_evaluation(self, player, Side::Dwarfs.player(), || {
            (self.heuristic_points() / SCALE).tanh()
        })
    }

    /// Tramples, and dwarf moves that trap a troll.
    fn is_tactical(&self, mv: KoomValleyMove) -> bool {
        match mv.kind {
            KoomValleyMoveKind::Trample => true,
            KoomValleyMoveKind::DwarfMove => self.captures_of(mv).any(),
            KoomValleyMoveKind::RockMove | KoomValleyMoveKind::TrollMove => false,
        }
    }
}
