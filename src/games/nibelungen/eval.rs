//! What searchers use: a heuristic evaluation of positions.

use super::board::DISTANCE;
use super::moves::Character;
use super::state::{Nibelungen, Side};
use crate::core::{Evaluate, Player};
use crate::games::zero_sum_evaluation;

impl Nibelungen {
    /// The number of steps between two characters, ignoring the others.
    fn distance(&self, from: Character, to: Character) -> u8 {
        DISTANCE[self.point_of(from) as usize][self.point_of(to) as usize]
    }
}

impl Evaluate for Nibelungen {
    /// A finished game's payoff; otherwise a value strictly between -0.5
    /// and 0.5 from Tod's view (negated for NO): how much closer Gunther
    /// and Hagen stand to Siegfried (the murder, and Gunther's half of the
    /// marriage) than Siegfried's partners Brunhild and Kriemhild do (NO's
    /// castle). Each distance is at most 4 steps, so the difference of the
    /// two sums lies within -8..=8.
    fn evaluate(&self, player: Player) -> f64 {
        zero_sum_evaluation(self, player, Side::Tod.player(), || {
            let murderers = self.distance(Character::Gunther, Character::Siegfried)
                + self.distance(Character::Hagen, Character::Siegfried);
            let partners = self.distance(Character::Brunhild, Character::Siegfried)
                + self.distance(Character::Kriemhild, Character::Siegfried);
            (f64::from(partners) - f64::from(murderers)) / 18.0
        })
    }
}
