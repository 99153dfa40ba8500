//! What can begin in the last 7 bytes of a push. There no 8-byte gram
//! fits, so the stepper (see `tail::stepper_start`) would start at the
//! first of them that is no CR or LF, and every byte it steps costs a
//! cache miss or three in the automata of a large set. A candidate can
//! start there only where the bytes to the end begin a pattern, or a
//! window of a value: this set holds every such string of 3 to 7 bytes (as
//! a Bloom filter: a string that is not in it begins nothing), so that the
//! stepper starts at the first that may, and most pushes step two bytes or
//! three, where the root's transitions are in the cache. (Of one or two
//! bytes almost every string begins something in a large set: they are not
//! worth their room.) Where this set would take 16 MiB or more and the
//! exact starts hold the strings of 4 bytes, they tell those of 3 to 5
//! (see `SHORTENED_FROM` and `ExactStarts::may_begin`), and this set
//! holds those of 6 and 7 only.

use super::seeds::{GRAM, GramSet, Probe, gram};
use super::table::Table;
use crate::FRAGMENT;

/// Longest string the set holds: one byte short of a gram.
pub(crate) const SHORT: usize = GRAM - 1;
/// Shortest string the set holds, at most: any shorter may begin
/// something.
pub(crate) const SHORTEST: usize = 3;

/// Kept at every size: at 10 tokens it takes 4 bytes a value byte, which
/// the memory bound has had room for since the prefix automata left their
/// table of pending lengths (64 B pushes 1.11 x there, 4 KiB pushes 1.02).
pub(crate) struct ShortStarts {
    set: GramSet,
    /// The shortest strings held: [`SHORTEST`], or longer where the exact
    /// starts tell the shorter ones.
    shortest: usize,
}

/// Bits of room a string: a string of a large set is a cache miss, but
/// the five of a push are probed at once; 8 bits let through about one
/// string in 20 that is not in the set, and cost a byte a string.
const BITS_PER_STRING: usize = 8;

impl ShortStarts {
    /// The first `shortest` (3 to 7) to 7 bytes of every pattern of
    /// `tables`, and of every window of `values` (the values longer than a
    /// fragment). Every pattern is at least 8 bytes long, and a window 16.
    ///
    /// # Panics
    /// Where `shortest` is not 3 to 7.
    pub(crate) fn new<'a>(
        tables: [&Table; 2],
        values: impl Iterator<Item = &'a [u8]> + Clone,
        shortest: usize,
    ) -> ShortStarts {
        assert!(
            (SHORTEST..=SHORT).contains(&shortest),
            "strings of 3 to 7 bytes"
        );
        let lengths = shortest..=SHORT;
        let count = strings(tables, values.clone(), shortest);
        // Every start of a window: the value's first `len - 15` bytes.
        let windows = values.flat_map(|v| (0..=v.len() - FRAGMENT).map(move |i| &v[i..]));
        let patterns = tables.into_iter().flat_map(Table::patterns);
        // From one load of the first 8 bytes, each length's key by a mask.
        let keys = patterns.chain(windows).flat_map(|bytes| {
            let word = gram(bytes);
            lengths.clone().map(move |len| key_of_word(word, len))
        });
        ShortStarts {
            set: GramSet::of_keys(count, BITS_PER_STRING, Probe::BySize, keys),
            shortest,
        }
    }

    /// A set of none, in the least room: the engine's until it knows its
    /// size, never asked (it would say that nothing begins anything).
    pub(crate) fn none() -> ShortStarts {
        ShortStarts {
            set: GramSet::of_keys(0, BITS_PER_STRING, Probe::BySize, std::iter::empty()),
            shortest: SHORTEST,
        }
    }

    /// The bytes [`ShortStarts::new`] would take.
    pub(crate) fn memory_for<'a>(
        tables: [&Table; 2],
        values: impl Iterator<Item = &'a [u8]>,
        shortest: usize,
    ) -> usize {
        GramSet::memory_for(strings(tables, values, shortest), BITS_PER_STRING)
    }

    /// The shortest strings held: those of `at` to the end of a push that
    /// are shorter, from [`SHORTEST`] bytes on, are told by the exact
    /// starts.
    #[inline(always)]
    pub(crate) fn shortest(&self) -> usize {
        self.shortest
    }

    /// Whether the last bytes of `input`, from `at` (1 to 7 of them), may
    /// begin a pattern or a window, as far as this set tells: those
    /// shorter than the strings it holds may.
    #[inline(always)]
    pub(crate) fn may_start_end(&self, input: &[u8], at: usize) -> bool {
        input.len() - at < self.shortest || self.set.may_hold(key_of_end(input, at))
    }

    /// Starts loading what [`ShortStarts::may_start_end`] reads first.
    #[inline(always)]
    pub(crate) fn prefetch_end(&self, input: &[u8], at: usize) {
        if input.len() - at >= self.shortest {
            self.set.prefetch(key_of_end(input, at));
        }
    }

    /// Whether `bytes` (1 to 7 of them) may begin a pattern or a window, as
    /// far as this set tells.
    #[cfg(test)]
    pub(crate) fn may_start(&self, bytes: &[u8]) -> bool {
        bytes.len() < self.shortest || self.set.may_hold(key(bytes))
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.set.memory_usage()
    }

    /// Whether the set is too large to stay in the cache (see
    /// [`GramSet::is_large`]): only then are its probes asked for ahead.
    pub(crate) fn is_large(&self) -> bool {
        self.set.is_large()
    }
}

/// How many strings the first `shortest` to 7 bytes of the patterns of
/// `tables` and the windows of `values` make, at most.
fn strings<'a>(
    tables: [&Table; 2],
    values: impl Iterator<Item = &'a [u8]>,
    shortest: usize,
) -> usize {
    let windows = |value: &[u8]| value.len() - FRAGMENT + 1;
    let starts = tables.iter().map(|t| t.len()).sum::<usize>() + values.map(windows).sum::<usize>();
    (SHORT + 1 - shortest) * starts
}

/// [`key_of_word`] of `bytes` (fewer than 8).
#[cfg(test)]
fn key(bytes: &[u8]) -> u64 {
    let mut word = [0u8; GRAM];
    word[..bytes.len()].copy_from_slice(bytes);
    key_of_word(u64::from_le_bytes(word), bytes.len())
}

/// The first `len` bytes (fewer than 8) of `word` (8 bytes, the first
/// lowest) as one number: those bytes from the lowest, and `len` in the
/// top byte (so that no two strings share one).
#[inline(always)]
fn key_of_word(word: u64, len: usize) -> u64 {
    debug_assert!((1..=SHORT).contains(&len));
    word & ((1 << (8 * len)) - 1) | (len as u64) << 56
}

/// [`key_of_word`] of `input[at..]` (fewer than 8 bytes), from one load of
/// the last 8 bytes where there are that many.
#[inline(always)]
fn key_of_end(input: &[u8], at: usize) -> u64 {
    let len = input.len() - at;
    match input.last_chunk::<GRAM>() {
        Some(last) => key_of_word(u64::from_le_bytes(*last) >> (8 * (GRAM - len)), len),
        None => {
            let mut word = [0u8; GRAM];
            word[..len].copy_from_slice(&input[at..]);
            key_of_word(u64::from_le_bytes(word), len)
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::Secret;
    use crate::engine::Engine;

    #[test]
    fn strings_of_different_lengths_have_different_keys() {
        assert_ne!(key(b"a"), key(b"a\0"));
        assert_ne!(key(b"abc"), key(b"abcd"));
        assert_eq!(key(b"abcdefg") >> 56, 7);
    }

    #[test]
    fn every_start_of_a_pattern_or_a_window_is_in_and_few_others() {
        // Enough secrets that the set is kept.
        let mut secrets = vec![
            Secret::new("A", "correct horse battery staple"),
            Secret::new("B", "tok_0123456789abcdef\nline two"),
            Secret::new("C", "short123"),
        ];
        secrets.extend(many_tokens(100));
        let engine = Engine::build(&secrets, false);
        let set = &engine.short_starts;
        let tables = [&engine.direct_table, &engine.view_table];
        for table in tables {
            for id in 0..table.len() as u32 {
                let pattern = table.pattern(id);
                for len in 1..=SHORT {
                    assert!(set.may_start(&pattern[..len]), "pattern {id}, {len} bytes");
                }
            }
        }
        for secret in &secrets {
            let value = secret.trimmed_value();
            for at in 0..=value.len().saturating_sub(FRAGMENT) {
                for len in 1..=SHORT.min(value.len() - at) {
                    if value.len() > FRAGMENT {
                        assert!(set.may_start(&value[at..at + len]), "window at {at}");
                    }
                }
            }
        }
        let mut next = crate::engine::xorshift(0x5107);
        let others = (0..10_000)
            .filter(|_| {
                let bytes = next().to_le_bytes();
                set.may_start(&bytes[..SHORTEST + (bytes[7] % 5) as usize])
            })
            .count();
        assert!(others < 1_500, "{others} of 10,000 random strings pass");
    }

    #[test]
    fn a_small_set_rules_out_strings_too() {
        // Three tokens: their starts pass, and most other strings do not.
        let engine = Engine::build(&many_tokens(3), false);
        let set = &engine.short_starts;
        for secret in many_tokens(3) {
            let value = secret.trimmed_value();
            assert!(set.may_start(&value[..SHORT]));
        }
        assert!(set.may_start(b"\0\0"), "two bytes may always start");
        let mut next = crate::engine::xorshift(0x5108);
        let others = (0..10_000)
            .filter(|_| set.may_start(&next().to_le_bytes()[..SHORTEST]))
            .count();
        assert!(others < 500, "{others} of 10,000 random strings pass");
    }

    #[test]
    fn the_key_of_an_end_is_that_of_its_bytes() {
        for input in [&b"0123456789abcdef"[..], b"0123456", b"xy"] {
            for at in input.len().saturating_sub(SHORT)..input.len() {
                assert_eq!(
                    key_of_end(input, at),
                    key(&input[at..]),
                    "{input:?} from {at}"
                );
            }
        }
    }

    /// `count` tokens of 20 to 59 bytes, some with a line break.
    pub(crate) fn many_tokens(count: usize) -> Vec<Secret> {
        let mut next = crate::engine::xorshift(0x70c3);
        (0..count)
            .map(|i| {
                let len = 20 + (next() % 40) as usize;
                let value: Vec<u8> = (0..len)
                    .map(|j| match next() % 64 {
                        0 if j > 0 && j + 1 < len => b'\n',
                        r => b'0' + (r % 75) as u8,
                    })
                    .collect();
                Secret::new(format!("T{i}"), value)
            })
            .collect()
    }
}
