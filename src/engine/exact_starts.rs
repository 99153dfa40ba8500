//! Every string of 1 to 3 bytes that begins a pattern or a window, held
//! exactly (a bit a string). Where a filtered push leaves a tail of that
//! many bytes for the stepper and nothing else open, these say without a
//! step what of it stepping would hold: from its first byte from which
//! the bytes begin one (see `Matcher::decide_tail_unstepped`). The automata and
//! the fragment run then step what is held only where something reads
//! their state. In a large engine each byte the stepper steps there is a
//! cache miss or three; a bit of these tables is one, asked for ahead.

use super::prefetch::prefetch;
use super::table::Table;
use super::wipe::Wiped;
use crate::FRAGMENT;

/// The longest string held.
pub(crate) const EXACT: usize = 3;

/// Strings of 1 to `longest` bytes, `longest` set by the engine's size
/// (none in an engine that stays in the cache, where a step is cheap).
/// Wiped: a string of a value's bytes that is held can be read back.
pub(crate) struct ExactStarts {
    /// A bitmap a length: bit `s` of `bits[len - 1]` for the string whose
    /// bytes, the first lowest, make the number `s`.
    bits: [Wiped<u64>; EXACT],
    longest: usize,
}

impl ExactStarts {
    /// The first 1 to `longest` bytes (at most [`EXACT`]) of every pattern
    /// of `tables`, and of every window of `values` (the values longer
    /// than a fragment). Every pattern is at least 8 bytes long, and a
    /// window 16: each string is a proper prefix.
    ///
    /// # Panics
    /// Where `longest` is more than [`EXACT`].
    pub(crate) fn new<'a>(
        tables: [&Table; 2],
        values: impl Iterator<Item = &'a [u8]>,
        longest: usize,
    ) -> ExactStarts {
        assert!(longest <= EXACT, "strings of at most {EXACT} bytes");
        // 32 bytes, 8 KiB and 2 MiB: zeroed pages from the allocator.
        let mut bits = std::array::from_fn(|i| {
            let len = i + 1;
            let words = if len <= longest {
                (1 << (8 * len)) / 64
            } else {
                0
            };
            zeroize::Zeroizing::new(vec![0u64; words])
        });
        let mut add = |bytes: &[u8]| {
            for len in 1..=longest.min(bytes.len()) {
                let s = number(&bytes[..len]);
                bits[len - 1][s / 64] |= 1 << (s % 64);
            }
        };
        for table in tables {
            table.patterns().for_each(&mut add);
        }
        for value in values {
            // Every start of a window: the value's first `len - 15` bytes.
            for at in 0..=value.len().saturating_sub(FRAGMENT) {
                add(&value[at..]);
            }
        }
        ExactStarts { bits, longest }
    }

    /// No string held.
    pub(crate) fn none() -> ExactStarts {
        ExactStarts {
            bits: std::array::from_fn(|_| zeroize::Zeroizing::new(Vec::new())),
            longest: 0,
        }
    }

    /// Whether `bytes` begin a pattern or a window: `None` where strings of
    /// their length are not held.
    #[inline(always)]
    pub(crate) fn begins(&self, bytes: &[u8]) -> Option<bool> {
        let len = bytes.len();
        if len == 0 || len > self.longest {
            return None;
        }
        let s = number(bytes);
        Some(self.bits[len - 1][s / 64] & 1 << (s % 64) != 0)
    }

    /// Starts loading what [`ExactStarts::begins`] reads of the last 3
    /// bytes of `input`, where strings of 3 bytes are held (2 MiB: a cache
    /// miss each).
    #[inline(always)]
    pub(crate) fn prefetch_end(&self, input: &[u8]) {
        if self.longest == EXACT && input.len() >= EXACT {
            let s = number(&input[input.len() - EXACT..]);
            prefetch(&self.bits[EXACT - 1][s / 64]);
        }
    }

    /// The longest string held (0: none).
    pub(crate) fn longest(&self) -> usize {
        self.longest
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.bits.iter().map(|b| b.capacity() * 8).sum()
    }
}

/// `bytes` (at most [`EXACT`]) as a number, the first lowest.
#[inline(always)]
fn number(bytes: &[u8]) -> usize {
    bytes.iter().rev().fold(0, |n, &b| n << 8 | usize::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secret;
    use crate::engine::{Engine, Exact};

    #[test]
    fn every_start_of_a_pattern_or_a_window_is_held_and_nothing_else() {
        let mut secrets = vec![
            Secret::new("A", "correct horse battery staple"),
            Secret::new("B", "tok_0123456789abcdef\nline two"),
            Secret::new("C", "short123"),
        ];
        secrets.extend(crate::engine::short::tests::many_tokens(20));
        let engine = Engine::build_with(&secrets, false, Exact::Longest(EXACT));
        let exact = &engine.exact_starts;
        // What begins something, plainly: a proper prefix of a pattern of
        // either table or of a window.
        let patterns: Vec<&[u8]> = [&engine.direct_table, &engine.view_table]
            .into_iter()
            .flat_map(Table::patterns)
            .collect();
        let windows: Vec<&[u8]> = secrets
            .iter()
            .map(Secret::trimmed_value)
            .filter(|v| v.len() > FRAGMENT)
            .flat_map(|v| (0..=v.len() - FRAGMENT).map(move |at| &v[at..at + FRAGMENT]))
            .collect();
        let begins = |s: &[u8]| {
            patterns
                .iter()
                .chain(&windows)
                .any(|p| p.len() > s.len() && p.starts_with(s))
        };
        let mut next = crate::engine::xorshift(0xe7ac);
        let mut held = 0;
        for round in 0..60_000 {
            let len = 1 + round % EXACT;
            // Half of them the start of a pattern or a window, cut short.
            let s: Vec<u8> = match next() % 2 {
                0 => {
                    let from = if next().is_multiple_of(2) {
                        &patterns
                    } else {
                        &windows
                    };
                    from[(next() % from.len() as u64) as usize][..len].to_vec()
                }
                _ => (0..len).map(|_| b'0' + (next() % 75) as u8).collect(),
            };
            let expected = begins(&s);
            held += usize::from(expected);
            assert_eq!(exact.begins(&s), Some(expected), "{s:?}");
        }
        assert!((25_000..55_000).contains(&held), "{held} held");
        assert_eq!(exact.begins(b""), None);
        assert_eq!(exact.begins(b"abcd"), None);
    }

    #[test]
    fn strings_longer_than_kept_are_not_known() {
        let secrets = [Secret::new("A", "correct horse battery staple")];
        let two = Engine::build_with(&secrets, false, Exact::Longest(2));
        assert_eq!(two.exact_starts.begins(b"co"), Some(true));
        assert_eq!(two.exact_starts.begins(b"cx"), Some(false));
        assert_eq!(two.exact_starts.begins(b"cor"), None);
        assert_eq!(two.exact_starts.memory_usage(), 32 + 8192);
        let none = Engine::build_with(&secrets, false, Exact::Longest(0));
        assert_eq!(none.exact_starts.begins(b"c"), None);
        assert_eq!(none.exact_starts.memory_usage(), 0);
    }

    #[test]
    fn a_number_is_its_bytes_first_lowest() {
        assert_eq!(number(b"\x01"), 1);
        assert_eq!(number(b"\x01\x02"), 0x0201);
        assert_eq!(number(b"\x01\x02\x03"), 0x03_0201);
    }
}
