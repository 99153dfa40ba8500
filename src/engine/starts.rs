//! The first gram of every pattern, where the stepper may start (see
//! `filter::stepper_start`, which probes it at each position of a push's
//! tail). Patterns begin with few distinct bytes (a header, or the first
//! characters of a value's encodings: `LS0t`, `2d2d` and `-----` for a PEM
//! key), so a table of their first bytes rules out most positions of text
//! before the gram's hash is taken and its bitmap read.

use super::seeds::GramSet;

pub(crate) struct Starts {
    grams: GramSet,
    /// Bit `b` is set where some pattern begins with byte `b`.
    first_bytes: [u64; 4],
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
        let mut first_bytes = [0u64; 4];
        for gram in firsts.clone() {
            let b = gram[0];
            first_bytes[usize::from(b >> 6)] |= 1 << (b & 63);
        }
        let distinct: u32 = first_bytes.iter().map(|w| w.count_ones()).sum();
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
        let b = word as u8;
        let first = || self.first_bytes[usize::from(b >> 6)] >> (b & 63) & 1 != 0;
        (!self.selective || first()) && self.grams.may_hold(word)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::seeds::gram;

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
    fn many_first_bytes_are_not_looked_at() {
        let firsts: Vec<[u8; 8]> = (0..=255u8).map(|b| [b; 8]).collect();
        let starts = Starts::new(firsts.iter().map(|f| &f[..]));
        assert!(!starts.selective);
        for first in &firsts {
            assert!(starts.may_hold(gram(first)));
        }
    }
}
