//! Every string of one length (2 or 3 bytes) that begins a pattern or a
//! window, exactly, where a bitmap of them would not keep the engine within
//! its memory bound (see `ExactStarts`): of 2 bytes 8 KiB, where 10 tokens
//! of 40 bytes make an engine of about 50 KB, within 1.3 KB of its bound;
//! of 3 bytes 2 MiB, where 1,000 tokens are within 0.7 MB. Here the last
//! bytes of the strings of each prefix (their other bytes) fill words of 8,
//! behind a table of where each prefix's words begin: of 2 bytes 514
//! bytes and a word for every 8 strings (or fewer) of a first byte (1,090
//! bytes at 10 tokens), of 3 bytes 128 KiB and a word for every 8 of a
//! first 2 bytes (168 KB at 1,000 tokens). Without them a push of one byte
//! was stepped wherever its last bytes' hashed bits could not tell: one
//! push in ten at 10 tokens, one in six at 1,000 (one in fifty-five and
//! in forty with them).

use super::wipe::{self, Wiped};

/// Last bytes a word holds.
const WORD: usize = 8;

/// Wiped: its strings are a value's bytes.
pub(crate) struct ExactRows {
    /// Where the words of each prefix begin in `words`, and (the last)
    /// where the last prefix's end.
    starts: Wiped<u16>,
    /// The last bytes of each prefix's strings in turn, [`WORD`] to a
    /// word; a word that is not full repeats its first byte (which matches
    /// only what that byte matches), so that every byte of a word is
    /// compared.
    words: Wiped<u64>,
}

impl ExactRows {
    /// The strings of `len` bytes (2 or 3) whose bytes, the first highest,
    /// make `all` (any order, repeats allowed); `None` where their words
    /// are more than a `u16` counts.
    ///
    /// # Panics
    /// Where `len` is not 2 or 3.
    pub(crate) fn new(mut all: Wiped<u32>, len: usize) -> Option<ExactRows> {
        assert!(matches!(len, 2 | 3), "strings of 2 or 3 bytes");
        all.sort_unstable();
        all.dedup();
        let prefixes = 1 << (8 * (len - 1));
        // The strings of each prefix, in turn (`all` is sorted).
        let rows = || all.chunk_by(|a, b| a >> 8 == b >> 8);
        let count: usize = rows().map(|row| row.len().div_ceil(WORD)).sum();
        let count = u16::try_from(count).ok()?;
        let mut starts: Wiped<u16> = wipe::with_capacity(prefixes + 1);
        debug_assert_eq!(2 * (prefixes + 1), ExactRows::starts_memory(len));
        let mut words: Wiped<u64> = wipe::with_capacity(count.into());
        for row in rows() {
            let prefix = (row[0] >> 8) as usize;
            // The prefixes before it, with none.
            starts.resize(prefix + 1, words.len() as u16);
            for chunk in row.chunks(WORD) {
                let mut bytes = [chunk[0] as u8; WORD];
                for (byte, &string) in bytes.iter_mut().zip(chunk) {
                    *byte = string as u8;
                }
                words.push(u64::from_le_bytes(bytes));
            }
        }
        starts.resize(prefixes + 1, count);
        Some(ExactRows { starts, words })
    }

    /// The bytes of the table of where each row begins, for strings of
    /// `len` bytes (2 or 3): the least that rows of them take.
    pub(crate) fn starts_memory(len: usize) -> usize {
        2 * ((1 << (8 * (len - 1))) + 1)
    }

    /// No string held (asked nothing).
    pub(crate) fn none() -> ExactRows {
        ExactRows {
            starts: zeroize::Zeroizing::new(Vec::new()),
            words: zeroize::Zeroizing::new(Vec::new()),
        }
    }

    /// Whether the string whose bytes, the first highest, make `string` (of
    /// the length put in) begins a pattern or a window.
    #[inline(always)]
    pub(crate) fn begins_number(&self, string: u64) -> bool {
        const ONES: u64 = u64::from_le_bytes([1; WORD]);
        let prefix = (string >> 8) as usize;
        let (from, to) = (self.starts[prefix], self.starts[prefix + 1]);
        let wanted = ONES * (string & 0xff);
        // A byte of `word ^ wanted` is zero where the word holds the last
        // byte: the test sets the high bit of the lowest such byte (and
        // never one where there is none).
        self.words[usize::from(from)..usize::from(to)]
            .iter()
            .any(|&word| {
                let x = word ^ wanted;
                x.wrapping_sub(ONES) & !x & ONES << 7 != 0
            })
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.starts.capacity() * 2 + self.words.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows_of(strings: &[u32], len: usize) -> Option<ExactRows> {
        ExactRows::new(zeroize::Zeroizing::new(strings.to_vec()), len)
    }

    #[test]
    fn holds_exactly_the_strings_put_in() {
        let mut next = crate::engine::xorshift(0x2b17);
        for (len, room) in [(2, 6000), (3, 900_000)] {
            // Prefixes of every length from none to three words and more.
            let put: Vec<u32> = (0..2000)
                .map(|_| (next() % room) as u32)
                .chain((0..30).map(|i| 0x4100 + i * 3))
                .collect();
            let rows = rows_of(&put, len).expect("few strings");
            let mut distinct = put.clone();
            distinct.sort_unstable();
            distinct.dedup();
            for s in 0..1 << (8 * len) {
                let expected = distinct.binary_search(&(s as u32)).is_ok();
                assert_eq!(rows.begins_number(s), expected, "{s:#x}");
            }
            // A word for every 8 last bytes of a prefix.
            let words: usize = distinct
                .chunk_by(|a, b| a >> 8 == b >> 8)
                .map(|row| row.len().div_ceil(8))
                .sum();
            let starts = (1 << (8 * (len - 1))) + 1;
            assert_eq!(rows.memory_usage(), 2 * starts + 8 * words);
        }
        // More words than a `u16` counts.
        let every: Vec<u32> = (0..1 << 24).step_by(2).collect();
        assert!(rows_of(&every, 3).is_none());
        let none = rows_of(&[], 2).expect("no strings");
        assert!((0..=u64::from(u16::MAX)).all(|s| !none.begins_number(s)));
    }
}
