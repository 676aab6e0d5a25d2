//! Move generation: a walk to a neighbouring empty tile, or a chain of long
//! jumps in one direction (a leapfrog is a long jump over an adjacent piece).
//!
//! A jump from tile `q` goes over the nearest piece in its direction, `d`
//! tiles away, and lands `d` tiles beyond it; the tiles after the jumped piece
//! up to and including the landing tile must be empty. Because the nearest
//! piece decides each jump, the chain from a tile in one direction is unique,
//! and its landing tiles are the destinations: different routes to one tile
//! cannot arise, and one bit per destination is the whole move list.

use super::board::{Colour, ODIN, tile_bit, tile_range};
use super::state::FenrirPath;

impl FenrirPath {
    /// The tiles 1.. that hold a god or the wolf. The Odin tile, where several
    /// gods may stand, is not included: nothing can be jumped there (there is
    /// no tile beyond it) and whether a god may land there is a separate rule.
    #[inline]
    pub(crate) fn occupied(&self) -> u32 {
        let mut occupied = tile_bit(self.wolf);
        for god in 0..self.rules.colours() as usize {
            occupied |= tile_bit(self.gods[god]);
        }
        occupied & !tile_bit(ODIN)
    }

    /// Whether a god other than `god` stands on the Odin tile.
    #[inline]
    fn others_on_odin(&self, god: usize) -> bool {
        (0..self.rules.colours() as usize).any(|other| other != god && self.gods[other] == ODIN)
    }

    /// Every tile `god` can end its move on, as bits.
    #[inline]
    pub fn destinations(&self, god: Colour) -> u32 {
        let index = god.index();
        let from = self.gods[index];
        let last = self.rules.last_tile();
        let occupied = self.occupied() & !tile_bit(from);
        let odin_free = self.rules.odin_landing() || !self.others_on_odin(index);
        let mut destinations = 0;

        // Away from Odin.
        if from < last && occupied & tile_bit(from + 1) == 0 {
            destinations |= tile_bit(from + 1);
        }
        let mut at = from;
        loop {
            let ahead = occupied & !tile_range(0, at);
            if ahead == 0 {
                break;
            }
            let jumped = ahead.trailing_zeros() as u8;
            let landing = 2 * jumped - at;
            if landing > last || occupied & tile_range(jumped + 1, landing) != 0 {
                break;
            }
            destinations |= tile_bit(landing);
            at = landing;
        }

        // Towards Odin.
        if from > ODIN {
            let step = from - 1;
            let free = if step == ODIN {
                odin_free
            } else {
                occupied & tile_bit(step) == 0
            };
            if free {
                destinations |= tile_bit(step);
            }
        }
        let mut at = from;
        while at > ODIN {
            let behind = occupied & (tile_bit(at) - 1);
            if behind == 0 {
                break;
            }
            let jumped = 31 - behind.leading_zeros() as u8;
            let distance = at - jumped;
            if distance > jumped {
                break;
            }
            let landing = jumped - distance;
            // `occupied` never contains the Odin tile, so the range check covers
            // the tiles between; landing on Odin has its own rule.
            if occupied & tile_range(landing, jumped - 1) != 0 || (landing == ODIN && !odin_free) {
                break;
            }
            destinations |= tile_bit(landing);
            at = landing;
        }
        destinations
    }
}
