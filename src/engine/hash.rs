//! A fast hasher for the engine's integer keys (automaton state ids, grams):
//! they are not attacker-chosen in a way that matters (keys come from the
//! compiled secrets), and SipHash would dominate the lookups.

use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default, Clone, Copy)]
pub(crate) struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing; the high bits carry the mix, so fold them down.
        let h = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

pub(crate) type IntMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<IntHasher>>;

/// Ids `0, 1, 2, …` by a hash of what each stands for (its bytes): the ids
/// of one hash are chained through a flat list, where a list per hash was
/// an allocation per id and most of the time of adding 10,000 secrets'
/// patterns to their tables.
pub(crate) struct HashChains {
    latest: IntMap<u64, u32>,
    /// By id: the id before it with the same hash.
    before: Vec<u32>,
}

const NO_ID: u32 = u32::MAX;

impl HashChains {
    /// Room for `ids` ids.
    pub(crate) fn with_capacity(ids: usize) -> HashChains {
        HashChains {
            latest: IntMap::with_capacity_and_hasher(ids, Default::default()),
            before: Vec::with_capacity(ids),
        }
    }

    /// The ids added with `hash`, newest first.
    pub(crate) fn ids(&self, hash: u64) -> impl Iterator<Item = u32> + '_ {
        let mut id = self.latest.get(&hash).copied().unwrap_or(NO_ID);
        std::iter::from_fn(move || {
            let this = (id != NO_ID).then_some(id)?;
            id = self.before[this as usize];
            Some(this)
        })
    }

    /// Adds the next id (the number of ids added so far) with `hash`.
    pub(crate) fn add(&mut self, hash: u64) -> u32 {
        let id = self.before.len() as u32;
        self.before
            .push(self.latest.insert(hash, id).unwrap_or(NO_ID));
        id
    }
}
