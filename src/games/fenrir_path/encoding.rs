//! Fenrir's Path's moves as action ids, its deal as draws, and positions as
//! tensors.
//!
//! A move is the god that moves and the tile where it ends: id
//! `god * tiles + to`, with `tiles` the Odin tile and the fetter tiles
//! (25 in the standard game, so 100 ids). The deal is two urns: the tiles'
//! colours, drawn for tile 1 onwards (an urn of each colour's tiles), then
//! the gods' colours, drawn for the starting tiles nearest Odin first; a
//! chance outcome is a colour's index.
//!
//! The observation is one row per tile (Odin's first) of `2 * colours + 2`
//! values: the tile's colour (one-hot, zero for Odin's tile and before the
//! deal), whether it was collected, which god stands on it (one-hot), and
//! whether the wolf does; then one more row whose first `colours` values
//! name the god that moved last.

use super::board::Colour;
use super::setup::Deal;
use super::{FenrirPath, FenrirPathMove, FenrirPathRules};
use crate::core::{ActionPath, DealModel, Encoding, Player};

fn tiles(rules: &FenrirPathRules) -> u32 {
    u32::from(rules.last_tile()) + 1
}

fn row_len(rules: &FenrirPathRules) -> usize {
    2 * rules.colours() as usize + 2
}

fn dealt(rules: &FenrirPathRules, draws: &[u32]) -> FenrirPath {
    let tile_count = rules.last_tile() as usize;
    let colour = |&id: &u32| Colour::from_index(id as usize);
    let deal = Deal {
        tiles: draws[..tile_count].iter().map(colour).collect(),
        gods: draws[tile_count..].iter().map(colour).collect(),
    };
    FenrirPath::from_deal(&deal, *rules).expect("every order of the urns is a valid deal")
}

impl Encoding for FenrirPath {
    fn num_actions(rules: &FenrirPathRules) -> usize {
        (u32::from(rules.colours()) * tiles(rules)) as usize
    }

    fn action_path(&self, mv: FenrirPathMove, path: &mut ActionPath) {
        path.push(mv.god.index() as u32 * tiles(&self.rules) + u32::from(mv.to));
    }

    fn action_name(rules: &FenrirPathRules, id: u32) -> String {
        let god = Colour::from_index((id / tiles(rules)) as usize);
        format!("{}{}", god.letter(), id % tiles(rules))
    }

    fn observation_shape(rules: &FenrirPathRules) -> Vec<usize> {
        vec![tiles(rules) as usize + 1, row_len(rules)]
    }

    fn write_observation(&self, _: Player, _: &[u32], out: &mut [f32]) {
        let colours = self.rules.colours() as usize;
        let row = row_len(&self.rules);
        for tile in 0..tiles(&self.rules) as u8 {
            let values = &mut out[tile as usize * row..][..row];
            if let Some(colour) = self.tile_colour(tile) {
                values[colour.index()] = 1.0;
            }
            values[colours] = f32::from(u8::from(self.collected() & (1 << tile) != 0));
            for god in self.colours() {
                if self.is_dealt() && self.god_tile(god) == tile {
                    values[colours + 1 + god.index()] = 1.0;
                }
            }
            values[2 * colours + 1] = f32::from(u8::from(self.is_dealt() && self.wolf() == tile));
        }
        if let Some(god) = self.last_mover() {
            out[tiles(&self.rules) as usize * row + god.index()] = 1.0;
        }
    }

    fn deal_model(rules: &FenrirPathRules) -> Option<DealModel<Self>> {
        let colours = rules.colours() as usize;
        Some(DealModel {
            urns: vec![
                vec![u32::from(rules.tiles_per_colour()); colours],
                vec![1; colours],
            ],
            deal: dealt,
            outcome_name: |_, id| Colour::from_index(id as usize).letter().to_string(),
        })
    }
}
