//! The distinct patterns of one automaton (the direct one or the CR/LF-free
//! view's), each with the secret that owns it, and the bounded prefixes that
//! the automaton holds: a pattern longer than [`PREFIX`] bytes is found by
//! its prefix and then verified byte by byte against its bytes here, so the
//! automaton's size does not grow with the values' length.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::form::Form;

use super::hash::IntHasher;
use super::wipe::{self, Wiped};

/// Bytes of a pattern the automaton holds.
pub(crate) const PREFIX: usize = 32;

/// Who a candidate of one distinct pattern belongs to. Identical patterns of
/// several secrets are one entry: the tie rule (form, then secret index)
/// picks the owner once, at compile time.
#[derive(Clone, Copy)]
pub(crate) struct Owner {
    /// The owner as a whole pattern: (form, secret).
    pub(crate) plain: (Form, u32),
    /// For the CR/LF-free view: the owner when the match spans a line break
    /// (every such match is `wrapped`, so only the secret index decides).
    pub(crate) wrapped: u32,
}

/// What an automaton match of one prefix means.
#[derive(Default)]
pub(crate) struct Prefix {
    /// The pattern that is this prefix, whole.
    pub(crate) exact: Option<u32>,
    /// The patterns that continue past it, to verify.
    pub(crate) longer: Vec<u32>,
}

pub(crate) struct Table {
    /// Every pattern's bytes, one after another.
    bytes: Wiped<u8>,
    /// Pattern `id` is `bytes[spans[id].0..spans[id].1]`.
    spans: Vec<(u32, u32)>,
    pub(crate) owners: Vec<Owner>,
    /// By automaton pattern id.
    pub(crate) prefixes: Vec<Prefix>,
}

impl Table {
    pub(crate) fn pattern(&self, id: u32) -> &[u8] {
        let (from, to) = self.spans[id as usize];
        &self.bytes[from as usize..to as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    pub(crate) fn pattern_len(&self, id: u32) -> usize {
        let (from, to) = self.spans[id as usize];
        (to - from) as usize
    }

    /// The prefixes for the automaton, by prefix id (wiped once built).
    pub(crate) fn prefix_bytes(&self) -> Vec<Wiped<u8>> {
        let mut out: Vec<Wiped<u8>> = Vec::with_capacity(self.prefixes.len());
        for prefix in &self.prefixes {
            let id = prefix.exact.or(prefix.longer.first().copied());
            let id = id.expect("a prefix stands for a pattern");
            let bytes = self.pattern(id);
            let bytes = &bytes[..bytes.len().min(PREFIX)];
            let mut copy = wipe::with_capacity(bytes.len());
            copy.extend_from_slice(bytes);
            out.push(copy);
        }
        out
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.bytes.capacity()
            + self.spans.capacity() * 8
            + self.owners.capacity() * std::mem::size_of::<Owner>()
            + self.prefixes.capacity() * std::mem::size_of::<Prefix>()
            + self
                .prefixes
                .iter()
                .map(|p| p.longer.capacity() * 4)
                .sum::<usize>()
    }
}

type BytesHasher = BuildHasherDefault<IntHasher>;

/// Builds a [`Table`]: patterns are added in compile order.
pub(crate) struct TableBuilder {
    bytes: Wiped<u8>,
    spans: Vec<(u32, u32)>,
    owners: Vec<Owner>,
    /// Hash of a pattern's bytes → ids with that hash.
    index: HashMap<u64, Vec<u32>, BytesHasher>,
}

impl TableBuilder {
    /// Room for `total` pattern bytes (so the buffer never grows and leaves
    /// a copy behind).
    pub(crate) fn new(total: usize) -> TableBuilder {
        TableBuilder {
            bytes: wipe::with_capacity(total),
            spans: Vec::new(),
            owners: Vec::new(),
            index: HashMap::default(),
        }
    }

    /// Adds `bytes` as a pattern of `form` for `secret`, or claims it when
    /// the same bytes are there already: the earlier form, then the earlier
    /// secret, owns it.
    pub(crate) fn add(&mut self, bytes: &[u8], form: Form, secret: u32) {
        let hash = hash_bytes(bytes);
        let ids = self.index.entry(hash).or_default();
        let found = ids.iter().copied().find(|&id| {
            let (from, to) = self.spans[id as usize];
            &self.bytes[from as usize..to as usize] == bytes
        });
        let id = match found {
            Some(id) => id,
            None => {
                let id = self.spans.len() as u32;
                let from = self.bytes.len() as u32;
                assert!(
                    self.bytes.len() + bytes.len() <= self.bytes.capacity(),
                    "pattern bytes counted ahead"
                );
                self.bytes.extend_from_slice(bytes);
                self.spans.push((from, self.bytes.len() as u32));
                self.owners.push(Owner {
                    plain: (form, secret),
                    wrapped: secret,
                });
                ids.push(id);
                id
            }
        };
        let owner = &mut self.owners[id as usize];
        if (form, secret) < owner.plain {
            owner.plain = (form, secret);
        }
        owner.wrapped = owner.wrapped.min(secret);
    }

    pub(crate) fn finish(self) -> Table {
        let TableBuilder {
            bytes,
            spans,
            owners,
            ..
        } = self;
        let mut prefixes: Vec<Prefix> = Vec::new();
        let mut by_prefix: HashMap<u64, Vec<u32>, BytesHasher> = HashMap::default();
        for (id, &(from, to)) in spans.iter().enumerate() {
            let pattern = &bytes[from as usize..to as usize];
            let prefix = &pattern[..pattern.len().min(PREFIX)];
            let slot = by_prefix.entry(hash_bytes(prefix)).or_default();
            let same = |&p: &u32| {
                let q = &prefixes[p as usize];
                let other = q.exact.or(q.longer.first().copied()).expect("non-empty");
                let (f, t) = spans[other as usize];
                let other = &bytes[f as usize..t as usize];
                &other[..other.len().min(PREFIX)] == prefix
            };
            let p = match slot.iter().copied().find(same) {
                Some(p) => p,
                None => {
                    prefixes.push(Prefix::default());
                    slot.push(prefixes.len() as u32 - 1);
                    prefixes.len() as u32 - 1
                }
            };
            let entry = &mut prefixes[p as usize];
            if pattern.len() <= PREFIX {
                entry.exact = Some(id as u32);
            } else {
                entry.longer.push(id as u32);
            }
        }
        Table {
            bytes,
            spans,
            owners,
            prefixes,
        }
    }
}

/// A hash of a byte string, 8 bytes at a time.
fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = IntHasher::default();
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h.write_u64(u64::from_le_bytes(c.try_into().expect("8 bytes")));
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h.write_u64(u64::from_le_bytes(last) ^ ((bytes.len() as u64) << 56));
    h.finish()
}
