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
//! name the god whose turn the next follows ([`FenrirPath::turn_follows`]):
//! the god that moved last, or in fixed turn order, before any god has
//! moved, the last god of the rotation.
//!
//! The colours are interchangeable: relabelling them, tiles and gods
//! alike, turns a position into one that plays the same. Any relabelling
//! is a symmetry in free turn order; in fixed turn order, where the
//! rotation follows the colours' order, the rotations of that order are.

use super::board::Colour;
use super::setup::Deal;
use super::{FenrirPath, FenrirPathMove, FenrirPathRules, TurnOrder};
use crate::core::{ActionPath, DealModel, Encoding, Player, Symmetry};

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
        if let Some(god) = self.turn_follows() {
            out[tiles(&self.rules) as usize * row + god.index()] = 1.0;
        }
    }

    fn symmetries(rules: &FenrirPathRules) -> Vec<Symmetry> {
        let colours = rules.colours() as usize;
        let relabellings = match rules.turn_order() {
            TurnOrder::Free => orders(colours),
            TurnOrder::Fixed => (0..colours)
                .map(|shift| (0..colours).map(|c| (c + shift) % colours).collect())
                .collect(),
        };
        relabellings
            .iter()
            .skip(1)
            .map(|image| relabelled(rules, image))
            .collect()
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

/// Every order of `0..n`, in lexicographic order (so the identity first).
fn orders(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for first in 0..n {
        for rest in orders(n - 1) {
            let mut order = vec![first];
            order.extend(rest.into_iter().map(|c| c + usize::from(c >= first)));
            all.push(order);
        }
    }
    all
}

/// The symmetry that gives colour `image[c]` to whatever has colour `c`:
/// each row's colour and god entries move to their new colours, and a
/// god's moves become the moves of its image to the same tiles.
fn relabelled(rules: &FenrirPathRules, image: &[usize]) -> Symmetry {
    let colours = rules.colours() as usize;
    let (row, tiles) = (row_len(rules), tiles(rules) as usize);
    let mut observation: Vec<u32> = (0..((tiles + 1) * row) as u32).collect();
    for start in (0..=tiles).map(|row_index| row_index * row) {
        for (colour, &to) in image.iter().enumerate() {
            observation[start + to] = (start + colour) as u32;
            observation[start + colours + 1 + to] = (start + colours + 1 + colour) as u32;
        }
    }
    let actions = (0..colours * tiles)
        .map(|id| (image[id / tiles] * tiles + id % tiles) as u32)
        .collect();
    Symmetry {
        observation,
        actions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, MoveList, Notation};
    use crate::games::fenrir_path::setup::{DealtSetup, FenrirPathSetup};
    use crate::testing::playout_states;

    fn observation(state: &FenrirPath) -> Vec<f32> {
        let size: usize = FenrirPath::observation_shape(state.rules())
            .iter()
            .product();
        let mut out = vec![0.0; size];
        state.write_observation(0, &[], &mut out);
        out
    }

    /// The legal action ids, sorted, and the observation after each.
    fn successors(state: &FenrirPath) -> Vec<(u32, Vec<f32>)> {
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        let mut next: Vec<(u32, Vec<f32>)> = moves
            .iter()
            .map(|&mv| {
                let mut path = ActionPath::new();
                state.action_path(mv, &mut path);
                let mut after = state.clone();
                after.play(mv);
                (path.as_slice()[0], observation(&after))
            })
            .collect();
        next.sort_by_key(|(id, _)| *id);
        next
    }

    /// The position with colour `c` relabelled `image[c]`, built from its
    /// written setup with the god its next turn follows named as the last
    /// mover (in fixed turn order that names one before any god has moved).
    fn relabel(state: &FenrirPath, image: &[usize]) -> FenrirPath {
        let FenrirPathSetup::Dealt(setup) = state.setup() else {
            panic!("the state is dealt");
        };
        let colours = state.rules().colours() as usize;
        let recolour = |colour: &Colour| Colour::from_index(image[colour.index()]);
        let god_tiles = setup.gods.unwrap();
        let mut gods = god_tiles;
        for (colour, &tile) in god_tiles[..colours].iter().enumerate() {
            gods[image[colour]] = tile;
        }
        let image_setup = DealtSetup {
            deal: Deal {
                tiles: setup.deal.tiles.iter().map(recolour).collect(),
                gods: setup.deal.gods.iter().map(recolour).collect(),
            },
            gods: Some(gods),
            last_mover: state.turn_follows().map(|c| recolour(&c)),
            ..setup
        };
        FenrirPath::from_setup(&FenrirPathSetup::Dealt(image_setup), *state.rules()).unwrap()
    }

    #[test]
    fn relabelled_colours_play_as_the_position_they_come_from() {
        for (text, declared) in [
            ("", 23),
            ("turn-order=fixed", 3),
            ("turn-order=fixed,stuck-god=block,no-moves=pass", 3),
            (
                "colours=3,tiles-per-colour=4,spacing=3,repeat-mover=true",
                5,
            ),
            ("colours=3,tiles-per-colour=4,spacing=3,turn-order=fixed", 2),
        ] {
            let rules: FenrirPathRules = text.parse().unwrap();
            let symmetries = FenrirPath::symmetries(&rules);
            assert_eq!(symmetries.len(), declared, "{text}");
            let tiles = tiles(&rules) as usize;
            let colours = rules.colours() as usize;
            let states = playout_states(&FenrirPath::new(rules), 4, 1000, 5);
            let dealt: Vec<&FenrirPath> = states
                .iter()
                .filter(|state| state.is_dealt() && !state.status().is_over())
                .collect();
            assert!(dealt.len() > 40, "{text}: the random games are too short");
            for state in dealt {
                // The identity relabelling: naming the god the next turn
                // follows as the last mover changes nothing in play.
                let identity: Vec<usize> = (0..colours).collect();
                assert_eq!(successors(&relabel(state, &identity)), successors(state));
                let seen = observation(state);
                let next = successors(state);
                for symmetry in &symmetries {
                    let image: Vec<usize> = (0..colours)
                        .map(|colour| symmetry.actions[colour * tiles] as usize / tiles)
                        .collect();
                    let mapped = relabel(state, &image);
                    let moved: Vec<f32> = symmetry
                        .observation
                        .iter()
                        .map(|&from| seen[from as usize])
                        .collect();
                    assert_eq!(moved, observation(&mapped), "{text} {image:?}");
                    let mut expected: Vec<(u32, Vec<f32>)> = next
                        .iter()
                        .map(|(id, after)| {
                            let after = symmetry
                                .observation
                                .iter()
                                .map(|&from| after[from as usize]);
                            (symmetry.actions[*id as usize], after.collect())
                        })
                        .collect();
                    expected.sort_by_key(|(id, _)| *id);
                    assert_eq!(successors(&mapped), expected, "{text} {image:?}");
                }
            }
        }
    }
}
