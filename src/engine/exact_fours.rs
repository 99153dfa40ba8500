//! Every string of 4 bytes that begins a pattern or a window, exactly, for
//! an engine of long values (see `ExactStarts`): a bitmap of them would
//! take 512 MiB, so they are kept as they are, in a table of lines. The
//! line of a string is chosen by its first 3 bytes. A line holds up to
//! [`SLOTS`] strings; where more would fall in it, it says of the strings
//! not in it only that they may begin one. A line is two cache lines: the
//! strings of a value's windows come in clumps (a string of 3 bytes of
//! base64 text begins 2 or 3 of them at 10 x 64 KiB), and one line in a
//! hundred of 15 strings overflowed.

use zeroize::Zeroize;

use super::hashed_starts::line_hash;
use super::prefetch::prefetch;
use super::wipe::Wiped;

/// Strings a line holds: 31 of 4 bytes, and a word that counts them.
const SLOTS: usize = 31;

/// Strings put in the table, at most, for each line (on average, before
/// rounding the lines up to a power of two): few enough that a line is
/// seldom full.
const STRINGS_PER_LINE: usize = 12;

/// Set in a line's count where a string did not fit in it.
const FULL: u32 = 1 << 31;

/// Two cache lines: a count, then the strings (their bytes, the last
/// lowest).
#[derive(Clone, Copy)]
#[repr(C, align(128))]
struct Line([u32; 1 + SLOTS]);

impl Default for Line {
    fn default() -> Line {
        Line([0; 1 + SLOTS])
    }
}

impl Zeroize for Line {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// Wiped: its strings are a value's bytes.
pub(crate) struct ExactFours {
    lines: Wiped<Line>,
    /// How far a hash is shifted down to index `lines`.
    shift: u32,
}

impl ExactFours {
    /// The bytes a table for `strings` strings takes.
    pub(crate) fn memory_for(strings: usize) -> usize {
        lines_for(strings) * std::mem::size_of::<Line>()
    }

    /// A table for at most `strings` strings, empty.
    pub(crate) fn with_room(strings: usize) -> ExactFours {
        let lines = lines_for(strings);
        ExactFours {
            lines: zeroize::Zeroizing::new(vec![Line::default(); lines]),
            shift: 64 - lines.trailing_zeros(),
        }
    }

    /// No string held.
    pub(crate) fn none() -> ExactFours {
        ExactFours {
            lines: zeroize::Zeroizing::new(Vec::new()),
            shift: 0,
        }
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
        let Line(line) = &mut self.lines[line_of(string, self.shift)];
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
        let Line(line) = &self.lines[line_of(string, self.shift)];
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
        let Line(line) = &self.lines[line_of(string, self.shift)];
        prefetch(&line[0]);
        prefetch(&line[16]);
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.lines.capacity() * std::mem::size_of::<Line>()
    }
}

/// Lines for `strings` strings: a power of two, two at least (a shift of
/// 64 would overflow).
fn lines_for(strings: usize) -> usize {
    strings
        .div_ceil(STRINGS_PER_LINE)
        .next_power_of_two()
        .max(2)
}

/// The line of a string of 4 bytes: by its first 3 (see [`line_hash`]).
#[inline(always)]
fn line_of(string: u32, shift: u32) -> usize {
    (line_hash(u64::from(string >> 8)) >> shift) as usize
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
        assert_eq!(fours.memory_usage(), 512 * 128);
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
