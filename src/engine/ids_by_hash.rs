//! Ids `0, 1, 2, …` found again by a hash of what each stands for (a
//! pattern's bytes), while a table of patterns is built.
//!
//! A hash of a pattern is as good as the pattern to whoever can try
//! candidates (a short password's in a few guesses), so the table keeps its
//! slots in a wiped buffer and grows into a new one, the old wiped as it
//! goes: a `HashMap` frees its buckets, hashes and all, unwiped, at every
//! growth and at the end.

use super::prefetch::prefetch;
use super::wipe::{self, Wiped};

pub(crate) struct IdsByHash {
    /// Open addressing with linear probing. A slot holds the hash's high 32
    /// bits (which also pick the slot) above the id plus one; 0 is empty.
    slots: Wiped<u64>,
    len: u32,
}

/// Slots of an empty table's first growth.
const FIRST_SLOTS: usize = 16;

impl IdsByHash {
    /// Room for `ids` ids before the first growth.
    pub(crate) fn with_capacity(ids: usize) -> IdsByHash {
        let slots = if ids == 0 {
            0
        } else {
            (2 * ids).next_power_of_two().max(FIRST_SLOTS)
        };
        IdsByHash {
            slots: empty(slots),
            len: 0,
        }
    }

    /// The ids added with `hash` (and, rarely, some whose hash shares its
    /// high 32 bits: the caller compares what they stand for anyway).
    pub(crate) fn ids(&self, hash: u64) -> impl Iterator<Item = u32> + '_ {
        let tag = tag(hash);
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = home(self.slots.len(), tag);
        let mut done = self.slots.is_empty();
        std::iter::from_fn(move || {
            while !done {
                let slot = self.slots[at];
                at = (at + 1) & mask;
                if slot == 0 {
                    done = true;
                } else if (slot >> 32) as u32 == tag {
                    return Some(slot as u32 - 1);
                }
            }
            None
        })
    }

    /// Whether the slots are beyond the second-level cache (a MiB).
    pub(crate) fn is_large(&self) -> bool {
        self.slots.len() >= 1 << 17
    }

    /// Asks for the slot where [`IdsByHash::ids`] of `hash` starts (a hint:
    /// an add between may move it).
    pub(crate) fn prefetch(&self, hash: u64) {
        if let Some(slot) = self.slots.get(home(self.slots.len(), tag(hash))) {
            prefetch(slot);
        }
    }

    /// Adds the next id (the number of ids added so far) with `hash`.
    pub(crate) fn add(&mut self, hash: u64) -> u32 {
        // At most half the slots full: a miss probes 2.5 slots on average.
        if 2 * (self.len as usize + 1) > self.slots.len() {
            self.grow();
        }
        let id = self.len;
        put(&mut self.slots, slot(tag(hash), id));
        self.len += 1;
        id
    }

    fn grow(&mut self) {
        let mut bigger = empty((2 * self.slots.len()).max(FIRST_SLOTS));
        for &slot in self.slots.iter().filter(|&&slot| slot != 0) {
            put(&mut bigger, slot);
        }
        // The old slots are wiped as they are dropped.
        self.slots = bigger;
    }
}

fn tag(hash: u64) -> u32 {
    (hash >> 32) as u32
}

/// The slot where the probe for `tag` starts among `slots` (a power of
/// two; 0 where there are none).
fn home(slots: usize, tag: u32) -> usize {
    tag as usize & slots.wrapping_sub(1)
}

fn slot(tag: u32, id: u32) -> u64 {
    u64::from(tag) << 32 | u64::from(id + 1)
}

fn empty(slots: usize) -> Wiped<u64> {
    let mut buffer = wipe::with_capacity(slots);
    buffer.resize(slots, 0);
    buffer
}

/// Puts `slot` in the first free slot from the one its tag picks.
fn put(slots: &mut [u64], slot: u64) {
    let mask = slots.len() - 1;
    let mut at = home(slots.len(), (slot >> 32) as u32);
    while slots[at] != 0 {
        at = (at + 1) & mask;
    }
    slots[at] = slot;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::freed_memory::scanned;

    fn hashes(n: usize) -> Vec<u64> {
        let mut next = crate::engine::xorshift(0x1d5);
        (0..n).map(|_| next()).collect()
    }

    #[test]
    fn every_id_is_found_by_its_hash_through_growths() {
        for capacity in [0, 1, 1000] {
            let mut table = IdsByHash::with_capacity(capacity);
            let mut hashes = hashes(3000);
            // Same high bits, other low bits: one tag, several ids.
            hashes[7] = hashes[3] ^ 0xffff;
            hashes[8] = hashes[3];
            for (id, &hash) in hashes.iter().enumerate() {
                assert_eq!(table.add(hash), id as u32);
            }
            for (id, &hash) in hashes.iter().enumerate() {
                let found: Vec<u32> = table.ids(hash).collect();
                assert!(found.contains(&(id as u32)), "id {id}");
                let expected = hashes.iter().filter(|&&h| tag(h) == tag(hash)).count();
                assert_eq!(found.len(), expected, "id {id}");
            }
            assert_eq!(table.ids(hashes[3]).count(), 3);
        }
        assert_eq!(IdsByHash::with_capacity(0).ids(5).count(), 0);
    }

    #[test]
    fn no_freed_block_keeps_a_hash_or_a_slot() {
        let hashes = hashes(500);
        let mut needles: Vec<Vec<u8>> = hashes.iter().map(|h| h.to_le_bytes().to_vec()).collect();
        needles.extend(
            (0..hashes.len()).map(|id| slot(tag(hashes[id]), id as u32).to_le_bytes().to_vec()),
        );
        // The scan can fail: a plain copy of the slots, dropped, is found.
        let found = scanned(needles.clone(), || {
            let mut table = IdsByHash::with_capacity(0);
            for &hash in &hashes {
                table.add(hash);
            }
            drop(std::hint::black_box(table.slots.to_vec()));
        });
        assert!(!found.is_empty());
        // The table itself, grown six times from 16 slots, then dropped.
        let found = scanned(needles, || {
            let mut table = IdsByHash::with_capacity(0);
            for &hash in &hashes {
                table.add(hash);
            }
            drop(table);
        });
        assert_eq!(found, [], "(freed block size, needle index)");
    }
}
