//! A fixed-size transposition table shared between search threads without locks.
//!
//! Each slot is two 64-bit words: the packed entry and the position's hash
//! XORed with it. A reader accepts a slot only when the two agree with the
//! hash it looks for, so a slot torn by two threads writing at once is seen as
//! empty rather than as a wrong entry (the scheme of Hyatt and Mann's
//! "lockless transposition table").
//!
//! Moves are stored as their index in the position's legal move list, which
//! every game lists in a fixed order. That keeps the table independent of the
//! game's move type.

use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score relates to the true value of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is the value.
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

/// What the table remembers about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The score the search found, for the player to move.
    pub score: i32,
    /// The plies searched below the position for that score.
    pub depth: u8,
    /// Whether the score is the value or a bound on it.
    pub bound: Bound,
    /// The index of the best move found in the legal move list, if any.
    pub move_index: Option<u16>,
    generation: u8,
}

impl TtEntry {
    /// An entry to store; [`TranspositionTable::store`] stamps it with the
    /// search's generation.
    pub fn new(score: i32, depth: u8, bound: Bound, move_index: Option<u16>) -> Self {
        TtEntry {
            score,
            depth,
            bound,
            move_index,
            generation: 0,
        }
    }

    const NO_MOVE: u64 = 0xFFFF;

    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let index = self.move_index.map_or(Self::NO_MOVE, u64::from);
        (self.score as u32 as u64)
            | (self.depth as u64) << 32
            | bound << 40
            | index << 42
            | ((self.generation & 0x3F) as u64) << 58
    }

    /// `None` for an empty slot (whose bound bits are zero).
    fn unpack(data: u64) -> Option<Self> {
        let bound = match (data >> 40) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let index = (data >> 42) & 0xFFFF;
        Some(TtEntry {
            score: data as u32 as i32,
            depth: (data >> 32) as u8,
            bound,
            move_index: (index != Self::NO_MOVE).then_some(index as u16),
            generation: (data >> 58) as u8,
        })
    }
}

/// A table of `2^k` slots of 16 bytes, sized from a budget in megabytes.
///
/// Clearing it writes nothing: it starts a new *epoch*, and a slot written
/// in an earlier epoch reads as empty. The epoch is kept in the low bits of
/// each slot's check word, where the position's hash bits are not needed
/// since the slot's index is those bits; up to 16 bits, so that only every
/// 65,536th clear of a table of a megabyte or more (every clear of a
/// smaller one) writes zeros over the whole table. A large table thus
/// costs memory only for the pages searches wrote, not all its pages at
/// every game's start.
pub struct TranspositionTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: u64,
    /// The low bits of a check word that hold its epoch.
    epoch_mask: u64,
    epoch: AtomicU64,
}

/// The most bits of a check word given to the epoch.
const EPOCH_BITS: u32 = 16;

impl TranspositionTable {
    /// The largest power-of-two table that fits in `megabytes` (at least
    /// one slot). Aborts if the system has not the memory, as any
    /// allocation does: [`TranspositionTable::try_new`] returns an error
    /// instead.
    pub fn new(megabytes: usize) -> Self {
        let slots = Self::slots_within(megabytes);
        Self::with_slots(
            slots,
            zeroed_slots(slots).unwrap_or_else(|layout| handle_alloc_error(layout)),
        )
    }

    /// The table of [`TranspositionTable::new`], or an error if the system
    /// refuses the memory (e.g. under an address-space limit).
    ///
    /// # Errors
    /// A message naming the table's size.
    pub fn try_new(megabytes: usize) -> Result<Self, String> {
        let slots = Self::slots_within(megabytes);
        let allocated = zeroed_slots(slots).map_err(|_| {
            format!(
                "the system refused the {} MB of a transposition table of {megabytes} MB",
                (slots * size_of::<[AtomicU64; 2]>()) >> 20
            )
        })?;
        Ok(Self::with_slots(slots, allocated))
    }

    fn slots_within(megabytes: usize) -> usize {
        let fitting = (megabytes.saturating_mul(1 << 20) / 16).max(1);
        1usize << (usize::BITS - 1 - fitting.leading_zeros())
    }

    fn with_slots(count: usize, slots: Vec<[AtomicU64; 2]>) -> Self {
        let epoch_bits = count.trailing_zeros().min(EPOCH_BITS);
        TranspositionTable {
            slots,
            mask: count as u64 - 1,
            epoch_mask: (1 << epoch_bits) - 1,
            epoch: AtomicU64::new(0),
        }
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// The bytes of the slots.
    pub fn bytes(&self) -> u64 {
        (self.slots.len() * size_of::<[AtomicU64; 2]>()) as u64
    }

    /// Whether the table has no slots (never: it has at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The entry stored for `hash`, if the slot holds that position.
    pub fn probe(&self, hash: u64) -> Option<TtEntry> {
        let [check, data] = &self.slots[(hash & self.mask) as usize];
        let data = data.load(Ordering::Relaxed);
        let check = check.load(Ordering::Relaxed);
        if (check ^ data ^ hash) & !self.epoch_mask != 0 || !self.is_current(check) {
            return None;
        }
        TtEntry::unpack(data)
    }

    /// Whether a slot with this check word was written since the last clear.
    fn is_current(&self, check: u64) -> bool {
        check & self.epoch_mask == self.epoch.load(Ordering::Relaxed)
    }

    /// Stores `entry` for `hash`, written in search generation `generation`.
    /// The slot's old entry survives only if it is from the current
    /// generation, of the same position or not, and was searched deeper.
    pub fn store(&self, hash: u64, mut entry: TtEntry, generation: u8) {
        entry.generation = generation & 0x3F;
        let slot = &self.slots[(hash & self.mask) as usize];
        let old_data = slot[1].load(Ordering::Relaxed);
        if let Some(old) = TtEntry::unpack(old_data)
            && self.is_current(slot[0].load(Ordering::Relaxed))
            && old.generation == entry.generation
            && old.depth > entry.depth
        {
            return;
        }
        let data = entry.pack();
        let epoch = self.epoch.load(Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
        slot[0].store((hash ^ data) & !self.epoch_mask | epoch, Ordering::Relaxed);
    }

    /// Empties every slot: starts a new epoch, and when the epochs wrap
    /// around, writes zeros over the table. Not to be called while a
    /// search uses the table.
    pub fn clear(&self) {
        let next = (self.epoch.load(Ordering::Relaxed) + 1) & self.epoch_mask;
        if next == 0 {
            for slot in &self.slots {
                slot[0].store(0, Ordering::Relaxed);
                slot[1].store(0, Ordering::Relaxed);
            }
        }
        self.epoch.store(next, Ordering::Relaxed);
    }
}

/// `count` empty slots in one zeroed allocation, or the layout the system
/// refused. The system maps the pages of a zeroed allocation on first use,
/// so a large table costs memory only where a search writes: a shallow
/// search with a 1 GB table touches a few pages, where filling the slots
/// one by one would touch them all.
fn zeroed_slots(count: usize) -> Result<Vec<[AtomicU64; 2]>, Layout> {
    assert!(count > 0, "a table has at least one slot");
    let layout = Layout::array::<[AtomicU64; 2]>(count).expect("the size fits in memory");
    // SAFETY: the layout has a non-zero size (count > 0); all-zero bytes
    // are a valid `AtomicU64` (an empty slot); and the pointer comes from
    // the global allocator with the layout of exactly `count` elements,
    // which is what `Vec::from_raw_parts` requires of length and capacity.
    unsafe {
        let pointer = alloc_zeroed(layout);
        if pointer.is_null() {
            return Err(layout);
        }
        Ok(Vec::from_raw_parts(pointer.cast(), count, count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_packing() {
        for entry in [
            TtEntry::new(-100_000, 0, Bound::Upper, None),
            TtEntry::new(123, 63, Bound::Exact, Some(0)),
            TtEntry::new(i32::MAX, 255, Bound::Lower, Some(0xFFFE)),
        ] {
            assert_eq!(TtEntry::unpack(entry.pack()), Some(entry));
        }
        assert_eq!(TtEntry::unpack(0), None);
    }

    #[test]
    fn size_is_a_power_of_two_within_budget() {
        let table = TranspositionTable::new(1);
        assert_eq!(table.len(), (1 << 20) / 16);
        assert_eq!(TranspositionTable::new(3).len(), (2 << 20) / 16);
        assert_eq!(TranspositionTable::new(0).len(), 1);
    }

    /// The resident memory of this process in bytes (Linux only).
    #[cfg(target_os = "linux")]
    fn resident_bytes() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status
            .lines()
            .find(|line| line.starts_with("VmRSS:"))
            .unwrap();
        let kilobytes: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        kilobytes * 1024
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_large_table_costs_memory_only_where_it_is_written() {
        let before = resident_bytes();
        let table = TranspositionTable::new(1024);
        for hash in 0..1000u64 {
            let spread = hash.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            table.store(spread, TtEntry::new(1, 1, Bound::Exact, None), 1);
        }
        assert_eq!(table.len(), 1 << 26);
        // 1,000 writes touch at most 1,000 pages of 4 KB: about 4 MB of the
        // table's 1 GB. Other tests run in the same process, hence the margin.
        let grown = resident_bytes().saturating_sub(before);
        assert!(grown < 256 << 20, "the table made {grown} bytes resident");
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn clearing_a_large_table_touches_none_of_its_pages() {
        let table = TranspositionTable::new(256);
        let before = resident_bytes();
        for _ in 0..3 {
            table.clear();
        }
        let grown = resident_bytes().saturating_sub(before);
        assert!(grown < 64 << 20, "clearing made {grown} bytes resident");
    }

    #[test]
    fn entries_of_an_earlier_epoch_are_gone() {
        let table = TranspositionTable::new(1);
        let deep = TtEntry::new(1, 6, Bound::Exact, None);
        table.store(5, deep, 1);
        table.clear();
        assert_eq!(table.probe(5), None);
        // A deeper entry of the same generation from before the clear no
        // longer keeps its slot.
        table.store(5, TtEntry::new(2, 2, Bound::Exact, None), 1);
        assert_eq!(table.probe(5).unwrap().score, 2);
        // Around the whole cycle of epochs: the wrap writes zeros, so
        // that an entry of the first epoch does not come back.
        table.store(9, deep, 1);
        for _ in 0..=table.epoch_mask {
            table.clear();
            assert_eq!(table.probe(9), None);
        }
        assert_eq!(table.epoch.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_one_slot_table_is_cleared_at_once() {
        let table = TranspositionTable::new(0);
        table.store(3, TtEntry::new(7, 1, Bound::Lower, None), 1);
        assert_eq!(table.probe(3).unwrap().score, 7);
        table.clear();
        assert_eq!(table.probe(3), None);
    }

    #[test]
    fn probe_finds_only_the_stored_position() {
        let table = TranspositionTable::new(1);
        let entry = TtEntry::new(42, 3, Bound::Lower, Some(7));
        table.store(0xDEAD_BEEF, entry, 1);
        let found = table.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            (found.score, found.depth, found.move_index),
            (42, 3, Some(7))
        );
        let same_slot = 0xDEAD_BEEF + table.len() as u64;
        assert_eq!(table.probe(same_slot), None);
        table.clear();
        assert_eq!(table.probe(0xDEAD_BEEF), None);
    }

    #[test]
    fn deeper_entries_of_the_current_generation_are_kept() {
        let table = TranspositionTable::new(1);
        table.store(5, TtEntry::new(1, 6, Bound::Exact, None), 1);
        table.store(5, TtEntry::new(2, 2, Bound::Exact, None), 1);
        assert_eq!(table.probe(5).unwrap().score, 1);
        table.store(5, TtEntry::new(3, 2, Bound::Exact, None), 2);
        assert_eq!(table.probe(5).unwrap().score, 3);
    }
}
