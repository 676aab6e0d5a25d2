//! Nibelungen's moves as action ids and positions as tensors.
//!
//! Ids 0 to 9 are the ten pairs a player may choose behind its screen, in
//! the order of their text (`GK GH GS GB KH KS KB HS HB SB`); ids 10 to 24
//! are the fifteen points where the character to move may end its move.
//! Each move is one decision.
//!
//! The observation is a flat vector of 111 values: where each character
//! stands (5 blocks of 15 points, one-hot, in sequence order), the pair in
//! front of each screen (2 blocks of 10, Tod's first, zero with nothing
//! there), the character to move next (5), which characters move this
//! round and by whom (Tod's 5 then NO's 5), and half the steps each mover
//! may take (1 or 2 steps, 0 between rounds).

use super::board::{POINTS, point_name};
use super::state::Side;
use super::{Character, Nibelungen, NibelungenMove, NibelungenRules, Pair};
use crate::core::{ActionPath, Encoding, Player, length_within};

/// The number of pairs, the first ids.
const PAIRS: u32 = 10;

/// The length of the observation vector.
const OBSERVATION_LEN: usize = 5 * POINTS + 2 * PAIRS as usize + 5 + 2 * 5 + 1;

fn pair_of(id: u32) -> Option<Pair> {
    Pair::all().nth(id as usize)
}

fn pair_id(pair: Pair) -> u32 {
    Pair::all()
        .position(|other| other == pair)
        .expect("every pair is one of the ten") as u32
}

impl Encoding for Nibelungen {
    fn max_game_length(rules: &NibelungenRules) -> Option<usize> {
        // A round is the two players' choices of pairs and at most one
        // move of each of the four characters chosen.
        length_within(rules.round_limit, 6)
    }

    fn num_actions(_: &NibelungenRules) -> usize {
        PAIRS as usize + POINTS
    }

    fn action_path(&self, mv: NibelungenMove, path: &mut ActionPath) {
        path.push(match mv {
            NibelungenMove::Choose(pair) => pair_id(pair),
            NibelungenMove::MoveTo(point) => PAIRS + u32::from(point),
        });
    }

    fn action_name(_: &NibelungenRules, id: u32) -> String {
        match pair_of(id) {
            Some(pair) => pair.to_string(),
            None => point_name((id - PAIRS) as u8),
        }
    }

    fn observation_shape(_: &NibelungenRules) -> Vec<usize> {
        vec![OBSERVATION_LEN]
    }

    fn write_observation(&self, _: Player, _: &[u32], out: &mut [f32]) {
        let (characters, rest) = out.split_at_mut(5 * POINTS);
        let (screens, rest) = rest.split_at_mut(2 * PAIRS as usize);
        let (next, rest) = rest.split_at_mut(5);
        let (movers, steps) = rest.split_at_mut(2 * 5);
        for character in Character::ALL {
            characters[character.index() * POINTS + self.point_of(character) as usize] = 1.0;
        }
        for side in [Side::Tod, Side::No] {
            if let Some(pair) = self.screen(side) {
                screens[side.player() * PAIRS as usize + pair_id(pair) as usize] = 1.0;
            }
        }
        if let Some(character) = self.next_to_move() {
            next[character.index()] = 1.0;
        }
        let (moving, step_count) = self.movers();
        for character in Character::ALL {
            if moving & character.bit() != 0 {
                movers[self.chooser(character).player() * 5 + character.index()] = 1.0;
            }
        }
        // Halved, so that every value is from 0 to 1.
        steps[0] = f32::from(step_count) / 2.0;
    }
}
