//! Seeds and random number generators.
//!
//! Every random choice in norn comes from a [`GameRng`] built from a seed. Work
//! that runs in parallel derives each item's seed from a master seed and the
//! item's index, never from the thread that runs it, so results do not depend
//! on the number of threads.

use rand::SeedableRng;

/// The generator used everywhere: ChaCha8 is fast, portable and reproducible
/// across platforms and versions.
pub type GameRng = rand_chacha::ChaCha8Rng;

/// A generator seeded with `seed`.
pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// The seed of item `index` of a run with master seed `master`. Nearby masters
/// and indices give unrelated seeds.
pub fn derive_seed(master: u64, index: u64) -> u64 {
    let (_, mixed_master) = super::zobrist::splitmix64(master);
    let (_, seed) =
        super::zobrist::splitmix64(mixed_master ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    seed
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn same_seed_same_stream() {
        let a: Vec<u32> = (0..8)
            .map(|_| 0)
            .scan(rng_from_seed(3), |rng, _: u32| Some(rng.random()))
            .collect();
        let b: Vec<u32> = (0..8)
            .map(|_| 0)
            .scan(rng_from_seed(3), |rng, _: u32| Some(rng.random()))
            .collect();
        assert_eq!(a, b);
    }

    #[test]
    fn derived_seeds_differ_across_indices_and_masters() {
        let mut seeds: Vec<u64> = (0..100)
            .flat_map(|master| (0..100).map(move |index| derive_seed(master, index)))
            .collect();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), 10_000);
    }
}
