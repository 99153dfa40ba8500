//! Every string of 4 bytes that begins a pattern or a window, exactly, for
//! an engine of long values (see `ExactStarts`): a bitmap of them would
//! take 512 MiB, so they are kept as they are, in a table of lines. The
//! line of a string is chosen by its first 3 bytes. A line holds up to
//! [`SLOTS`] strings; where more would fall in it, it says of the strings
//! not in it only that they may begin one. A line is two cache lines: the
//! strings of a value's windows come in clumps (a string of 3 bytes of
//! base64 text begins 2 or 3 of them at 10 x 64 KiB), and one line in a
//! hundred of 15 strings overflowed.

use super::hashed_starts::line_hash;
use super::prefetch::prefetch;
use super::wipe::{self, Wiped};

/// Strings a line holds: 31 of 4 bytes, and a word that counts them.
const SLOTS: usize = 31;

/// A line's words: a count, then the strings (their bytes, the last
/// lowest). 128 bytes, two cache lines, where it starts on a multiple of
/// 128 bytes.
const LINE_WORDS: usize = 1 + SLOTS;

/// Strings put in the table, at most, for each line (on average): few
/// enough that a line is seldom full.
const STRINGS_PER_LINE: usize = 12;

/// Set in a line's count where a string did not fit in it.
const FULL: u32 = 1 << 31;

/// Wiped: its strings are a value's bytes.
pub(crate) struct ExactFours {
    /// The lines, from `first` on; the words before it put the lines on
    /// multiples of 128 bytes. Zeroed pages from the allocator (see
    /// `wipe::zeroed`): a page is written first when a string is put in
    /// it, where an array of lines was written whole first (128 MiB at 100
    /// x 64 KiB, its lines then a power of two).
    words: Wiped<u32>,
    first: usize,
    /// How many lines: not a power of two, which took up to twice the
    /// room (a hash is mapped onto them by a multiply).
    lines: usize,
}

impl ExactFours {
    /// The bytes a table for `strings` strings takes.
    pub(crate) fn memory_for(strings: usize) -> usize {
        words_for(lines_for(strings)) * 4
    }

    /// A table for at most `strings` strings, empty.
    pub(crate) fn with_room(strings: usize) -> ExactFours {
        let lines = lines_for(strings);
        let words = wipe::zeroed(words_for(lines));
        // Words to skip to the first multiple of 128 bytes (a word is 4
        // bytes, and so aligned).
        let first = (words.as_ptr() as usize).wrapping_neg() % 128 / 4;
        ExactFours {
            words,
            first,
            lines,
        }
    }

    /// No string held.
    pub(crate) fn none() -> ExactFours {
        ExactFours {
            words: zeroize::Zeroizing::new(Vec::new()),
            first: 0,
            lines: 0,
        }
    }

    /// Where the line of `string` starts among the words.
    #[inline(always)]
    fn line_at(&self, string: u32) -> usize {
        self.first + line_of(string, self.lines) * LINE_WORDS
    }

    /// The words of the line of `string`.
    #[inline(always)]
    fn line(&self, string: u32) -> &[u32; LINE_WORDS] {
        let at = self.line_at(string);
        self.words[at..at + LINE_WORDS].try_into().expect("a line")
    }

    /// [`ExactFours::line`], to change.
    fn line_mut(&mut self, string: u32) -> &mut [u32; LINE_WORDS] {
        let at = self.line_at(string);
        (&mut self.words[at..at + LINE_WORDS])
            .try_into()
            .expect("a line")
    }

    /// Puts in the string of `bytes` (4 of them), once (the tests' form of
    /// [`ExactFours::add_number`]).
    #[cfg(test)]
    pub(crate) fn add(&mut self, bytes: &[u8; 4]) {
        self.add_number(u32::from_be_bytes(*bytes));
    }

    /// Puts in the string whose bytes, the last lowest, make `string`,
    /// once.
    pub(crate) fn add_number(&mut self, string: u32) {
        let line = self.line_mut(string);
        let count = (line[0] & !FULL) as usize;
        if line[1..=count].contains(&string) {
            return;
        }
        if count == SLOTS {
            line[0] |= FULL;
        } else {
            line[1 + count] = string;
            line[0] += 1;
        }
    }

    /// [`ExactFours::begins_number`] of the string of `bytes` (4 of them):
    /// the tests' form.
    #[cfg(test)]
    pub(crate) fn begins(&self, bytes: &[u8; 4]) -> Option<bool> {
        self.begins_number(u32::from_be_bytes(*bytes))
    }

    /// Whether the string whose bytes, the last lowest, make `string`
    /// begins a pattern or a window: `None` where its line is full and it
    /// is not in it.
    #[inline(always)]
    pub(crate) fn begins_number(&self, string: u32) -> Option<bool> {
        let line = self.line(string);
        let count = line[0] & !FULL;
        // Every slot compared, without a branch; those past the count are
        // not strings.
        let mut found = 0u32;
        for (i, &slot) in line[1..].iter().enumerate() {
            found |= u32::from(slot == string) << i;
        }
        if found & ((1 << count) - 1) != 0 {
            Some(true)
        } else if line[0] & FULL != 0 {
            None
        } else {
            Some(false)
        }
    }

    /// Starts loading the line of `string` (as for
    /// [`ExactFours::add_number`]).
    pub(crate) fn prefetch_number(&self, string: u32) {
        let line = self.line(string);
        prefetch(&line[0]);
        prefetch(&line[LINE_WORDS / 2]);
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.words.capacity() * 4
    }
}

/// Lines for `strings` strings: one at least.
fn lines_for(strings: usize) -> usize {
    strings.div_ceil(STRINGS_PER_LINE).max(1)
}

/// The words of `lines` lines, and those that may come before the first
/// to put it on a multiple of 128 bytes.
fn words_for(lines: usize) -> usize {
    lines * LINE_WORDS + LINE_WORDS - 1
}

/// The line of a string of 4 bytes among `lines`: by its first 3 (see
/// [`line_hash`]), its hash's top bits mapped onto them by a multiply.
#[inline(always)]
fn line_of(string: u32, lines: usize) -> usize {
    let hash = line_hash(u64::from(string >> 8));
    ((u128::from(hash) * lines as u128) >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_put_in_are_found_and_others_not() {
        let mut next = crate::engine::xorshift(0x4f0);
        let strings: Vec<[u8; 4]> = (0..5_000).map(|_| (next() as u32).to_be_bytes()).collect();
        let mut fours = ExactFours::with_room(strings.len());
        for s in &strings {
            fours.add(s);
            // Twice: held once.
            fours.add(s);
        }
        let mut unknown = 0;
        for s in &strings {
            assert_eq!(fours.begins(s), Some(true));
        }
        for _ in 0..20_000 {
            let s = (next() as u32).to_be_bytes();
            match fours.begins(&s) {
                Some(true) => assert!(strings.contains(&s)),
                Some(false) => assert!(!strings.contains(&s)),
                None => unknown += 1,
            }
        }
        assert!(unknown < 200, "{unknown} unknown");
        assert_eq!(fours.memory_usage(), ExactFours::memory_for(strings.len()));
        // 417 lines of 128 bytes, and the words that align them.
        assert_eq!(fours.memory_usage(), 417 * 128 + 124);
        let line = fours.line(0);
        assert_eq!(line.as_ptr() as usize % 128, 0, "lines on 128 bytes");
    }

    #[test]
    fn a_full_line_tells_only_what_it_holds() {
        // Strings of one first 3 bytes: one line.
        let mut fours = ExactFours::with_room(6_000);
        for last in 0..=SLOTS as u8 {
            fours.add(&[1, 2, 3, last]);
        }
        for last in 0..SLOTS as u8 {
            assert_eq!(fours.begins(&[1, 2, 3, last]), Some(true));
        }
        assert_eq!(fours.begins(&[1, 2, 3, SLOTS as u8]), None);
        assert_eq!(fours.begins(&[1, 2, 3, 200]), None);
        assert_eq!(fours.begins(&[1, 2, 4, 0]), Some(false));
    }
}
