//! Zobrist keys, generated at compile time from a fixed seed so that hashes
//! are the same in every build and on every machine.

/// One step of SplitMix64: a fast, well-mixed 64-bit generator that is easy
/// to evaluate in a `const fn`.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

/// `N` pseudo-random keys derived from `seed`. Games use a distinct seed per
/// table so that their keys never coincide.
pub const fn zobrist_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, key) = splitmix64(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        const KEYS: [u64; 512] = zobrist_keys(7);
        let mut sorted = KEYS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), KEYS.len());
        assert!(!sorted.contains(&0));
    }
}
