//! The first gram of every pattern, where the stepper may start (see
//! `tail::stepper_start`, which probes it at each position of a push's
//! tail). Patterns begin with few distinct bytes (a header, or the first
//! characters of a value's encodings: `LS0t`, `2d2d` and `-----` for a PEM
//! key), so a table of their first bytes rules out most positions of text
//! before the gram's hash is taken and its bitmap read.

use super::seeds::GramSet;

pub(crate) struct Starts {
    grams: GramSet,
    /// 1 where some pattern begins with byte `b`, else 0: a byte each, so
    /// that a position's bit is one load (a bit each took four operations
    /// more a byte, over the 40 bytes of every push's tail).
    first_bytes: [u8; 256],
    /// Whether few bytes begin a pattern: the table is looked at only then
    /// (where many tokens begin with any letter or digit, it rules out
    /// little of the text and cost 1.7% more instructions a 64 B push).
    selective: bool,
}

/// Distinct first bytes up to which the table is looked at.
const SELECTIVE_UP_TO: u32 = 48;

impl Starts {
    /// The first 8 bytes of each pattern.
    pub(crate) fn new<'a>(firsts: impl Iterator<Item = &'a [u8]> + Clone) -> Starts {
        let mut first_bytes = [0u8; 256];
        for gram in firsts.clone() {
            let b = gram[0];
            first_bytes[usize::from(b)] = 1;
        }
        let distinct: u32 = first_bytes.iter().map(|&b| u32::from(b)).sum();
        Starts {
            grams: GramSet::new(firsts),
            first_bytes,
            selective: distinct <= SELECTIVE_UP_TO,
        }
    }

    /// Whether `word` (8 bytes, the first lowest) may be a pattern's first
    /// gram.
    #[inline(always)]
    pub(crate) fn may_hold(&self, word: u64) -> bool {
        (!self.selective || self.begins(word as u8) != 0) && self.grams.may_hold(word)
    }

    /// 1 where some pattern begins with `b`, else 0 (from the table).
    #[inline(always)]
    fn begins(&self, b: u8) -> u64 {
        u64::from(self.first_bytes[usize::from(b)])
    }

    /// Whether few bytes begin a pattern (see [`Starts::first_bytes`]).
    #[inline(always)]
    pub(crate) fn is_selective(&self) -> bool {
        self.selective
    }

    /// A bit for each of `bytes` (1 to 64 of them), bit `i` set where a pattern
    /// may begin with `bytes[i]`: all of them where the table is not
    /// looked at.
    #[inline(always)]
    pub(crate) fn first_bytes(&self, bytes: &[u8]) -> u64 {
        debug_assert!((1..=64).contains(&bytes.len()));
        if !self.selective {
            return u64::MAX >> (64 - bytes.len());
        }
        // Eight bytes at a time, their bits at constant places: no shift
        // by a counter, and the loads side by side.
        let mut bits = 0;
        let mut eights = bytes.chunks_exact(8);
        for (i, eight) in (&mut eights).enumerate() {
            let mut byte_bits = 0;
            for (j, &b) in eight.iter().enumerate() {
                byte_bits |= self.begins(b) << j;
            }
            bits |= byte_bits << (8 * i);
        }
        let done = bytes.len() - eights.remainder().len();
        for (i, &b) in eights.remainder().iter().enumerate() {
            bits |= self.begins(b) << (done + i);
        }
        bits
    }

    /// Starts loading what [`Starts::may_hold`] of `word` reads in the
    /// bitmap.
    #[inline(always)]
    pub(crate) fn prefetch(&self, word: u64) {
        self.grams.prefetch(word);
    }

    /// Whether the bitmap is too large to stay in the cache.
    pub(crate) fn is_large(&self) -> bool {
        self.grams.is_large()
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.grams.memory_usage()
    }
}

/// Which bytes begin the patterns says something of each value's first
/// byte: wiped.
impl Drop for Starts {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.first_bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::seeds::gram;

    #[test]
    fn no_freed_block_keeps_the_first_bytes() {
        let firsts: [&[u8]; 3] = [b"LS0tLS1C", b"2d2d2d2d", b"-----BEG"];
        let starts = Box::new(Starts::new(firsts.into_iter()));
        let table: Vec<u8> = starts
            .first_bytes
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        // The scan can fail: a copy of the table, dropped, is found.
        let found = crate::freed_memory::scanned(vec![table.clone()], || drop(table.clone()));
        assert!(!found.is_empty());
        let found = crate::freed_memory::scanned(vec![table], || drop(starts));
        assert_eq!(found, [], "(freed block size, needle index)");
    }

    #[test]
    fn holds_every_first_gram_and_rules_out_other_first_bytes() {
        let firsts: [&[u8]; 3] = [b"LS0tLS1C", b"2d2d2d2d", b"-----BEG"];
        let starts = Starts::new(firsts.into_iter());
        for first in firsts {
            assert!(starts.may_hold(gram(first)));
        }
        assert!(!starts.may_hold(gram(b"MS0tLS1C")));
        assert!(!starts.may_hold(gram(b"\0\0\0\0\0\0\0\0")));
    }

    #[test]
    fn first_bytes_has_a_bit_where_a_pattern_may_begin() {
        let firsts: [&[u8]; 3] = [b"LS0tLS1C", b"2d2d2d2d", b"-----BEG"];
        let starts = Starts::new(firsts.into_iter());
        assert!(starts.is_selective());
        let text = b"a-2L\n2LS\x00-";
        let bits = starts.first_bytes(text);
        for (i, &b) in text.iter().enumerate() {
            assert_eq!(bits >> i & 1 == 1, b"L2-".contains(&b), "byte {i}");
        }
        assert_eq!(bits >> text.len(), 0);
        let long = [b'L'; 64];
        assert_eq!(starts.first_bytes(&long), u64::MAX);
    }

    #[test]
    fn many_first_bytes_are_not_looked_at() {
        let firsts: Vec<[u8; 8]> = (0..=255u8).map(|b| [b; 8]).collect();
        let starts = Starts::new(firsts.iter().map(|f| &f[..]));
        assert!(!starts.selective);
        assert_eq!(starts.first_bytes(b"abc"), 0b111);
        for first in &firsts {
            assert!(starts.may_hold(gram(first)));
        }
    }
}
