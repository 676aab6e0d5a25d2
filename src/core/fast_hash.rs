//! A small multiplicative hasher for keys of a few machine words (moves,
//! packed states). The searchers hash such keys in their inner loops, where
//! the standard library's SipHash, made to resist chosen keys, only costs
//! time. And the SHA-256 digest that names a file by its content (opening
//! sets, network files), which `sha256sum` reproduces outside norn.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Mixes each written word into the state with a rotate, a xor and a
/// multiplication by an odd constant. Deterministic: the same keys hash the
/// same way in every run.
#[derive(Default)]
pub(crate) struct FastHasher(u64);

/// A `HashMap` keyed through [`FastHasher`].
pub(crate) type FastHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

impl FastHasher {
    /// A hasher whose state starts at `seed`: different seeds order the same
    /// keys differently.
    pub(crate) fn with_seed(seed: u64) -> Self {
        FastHasher(seed)
    }
}

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.write_u64(u64::from(value));
    }

    fn write_u16(&mut self, value: u16) {
        self.write_u64(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, value: u128) {
        self.write_u64(value as u64);
        self.write_u64((value >> 64) as u64);
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

/// The SHA-256 digest of `bytes` in lower-case hex.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}
