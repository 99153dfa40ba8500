//! The strings of one length (2 to 5 bytes) that begin a pattern or a
//! window, two bits each at their hash: a clear one says that a string
//! begins nothing, both set only that it may. The bits are in cache lines,
//! one by the hash of all but a string's last byte, so that what a string
//! and any byte more read is known ahead (see `ExactStarts`).

use super::prefetch::prefetch;
use super::wipe::{self, Wiped};

/// Bits for each string put in, at least (rounded up to a power of two).
const BITS_PER_STRING: usize = 8;

/// The bits a string sets, in one word: at 8 bits a string, a string that
/// begins nothing has both set about one time in twenty, where one bit was
/// set one time in eight. Each such string is stepped: pushes of one byte
/// 1.08 to 1.12 x at 10 to 1,000 tokens (as fast as 32 bits a string and
/// one, which would take 4 times the memory).
const HASHES: usize = 2;

/// The words of a line: 64 bytes, a cache line.
const LINE_WORDS: usize = 8;

/// Wiped: which strings begin something can be tested against guesses.
pub(crate) struct HashedStarts {
    bits: Wiped<u64>,
    /// How far a hash is shifted down to index the lines.
    shift: u32,
}

impl HashedStarts {
    /// The bytes that room for `strings` strings takes.
    pub(crate) fn memory_for(strings: usize) -> usize {
        bits_for(strings) / 8
    }

    /// Room for `strings` strings, none put in.
    pub(crate) fn with_room(strings: usize) -> HashedStarts {
        let bits = bits_for(strings);
        HashedStarts {
            bits: wipe::zeroed(bits / 64),
            shift: 64 - (bits / (64 * LINE_WORDS)).trailing_zeros(),
        }
    }

    /// None held.
    pub(crate) fn none() -> HashedStarts {
        HashedStarts {
            bits: zeroize::Zeroizing::new(Vec::new()),
            shift: 0,
        }
    }

    /// [`HashedStarts::add_number`] of the string of `bytes` (2 to 5 of
    /// them): the tests' form.
    #[cfg(test)]
    pub(crate) fn add(&mut self, bytes: &[u8]) {
        self.add_number(number(bytes));
    }

    /// Puts in the string whose bytes (2 to 5 of them), the last lowest,
    /// make `string`.
    pub(crate) fn add_number(&mut self, string: u64) {
        let (word, bits) = self.bits_of(string);
        self.bits[word] |= bits;
    }

    /// Starts loading the word of `string` (as for
    /// [`HashedStarts::add_number`]).
    pub(crate) fn prefetch_number(&self, string: u64) {
        prefetch(&self.bits[self.bits_of(string).0]);
    }

    /// [`HashedStarts::may_begin_number`] of the string of `bytes` (2 to 5,
    /// as put in).
    pub(crate) fn may_begin(&self, bytes: &[u8]) -> bool {
        self.may_begin_number(number(bytes))
    }

    /// Whether the string whose bytes, the last lowest, make `string` (of
    /// the length put in) may begin a pattern or a window: false says it
    /// begins none.
    #[inline(always)]
    pub(crate) fn may_begin_number(&self, string: u64) -> bool {
        let (word, bits) = self.bits_of(string);
        self.bits[word] & bits == bits
    }

    /// Starts loading what [`HashedStarts::may_begin_number`] reads of the
    /// strings of `first` and a byte more.
    #[inline(always)]
    pub(crate) fn prefetch(&self, first: &[u8]) {
        self.prefetch_line(number(first));
    }

    /// [`HashedStarts::prefetch`] of the bytes whose number is `first`.
    #[inline(always)]
    pub(crate) fn prefetch_line(&self, first: u64) {
        prefetch(&self.bits[self.line_of(first) * LINE_WORDS]);
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.bits.capacity() * 8
    }

    /// The word and bits of a string (its number): in the line of all but
    /// its last byte, at a hash of them all (Fibonacci hashing, whose top
    /// bits mix every byte): its top bits the word, the next ones each
    /// bit's place.
    #[inline(always)]
    fn bits_of(&self, string: u64) -> (usize, u64) {
        let line = self.line_of(string >> 8);
        let all = string.wrapping_mul(0xd6e8_feb8_6659_fd93);
        let word_bits = LINE_WORDS.trailing_zeros();
        let word = (all >> (64 - word_bits)) as usize;
        let mut bits = 0u64;
        for k in 1..=HASHES as u32 {
            bits |= 1 << (all >> (64 - word_bits - 6 * k) & 63);
        }
        (line * LINE_WORDS + word, bits)
    }

    /// The line of the strings whose bytes but the last make `first` (1 to
    /// 4 of them, the last lowest).
    #[inline(always)]
    fn line_of(&self, first: u64) -> usize {
        (line_hash(first) >> self.shift) as usize
    }
}

/// The hash whose top bits pick the line of a string by its bytes but the
/// last (`first`, the last lowest), here and in `ExactFours` (Fibonacci
/// hashing, whose top bits mix every byte): `ExactStarts` puts its
/// strings in grouped by it.
#[inline(always)]
pub(super) fn line_hash(first: u64) -> u64 {
    first.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The bits for `strings` strings: at least two lines (a shift of 64
/// would overflow).
fn bits_for(strings: usize) -> usize {
    (strings * BITS_PER_STRING)
        .next_power_of_two()
        .max(2 * 64 * LINE_WORDS)
}

/// `bytes` (at most 8) as a number, the last lowest: how the exact and
/// hashed starts name a string.
#[inline(always)]
pub(super) fn number(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |n, &b| n << 8 | u64::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_put_in_may_begin_and_most_others_do_not() {
        let mut next = crate::engine::xorshift(0x4a5);
        for len in 2..=5 {
            let string = |n: u64| n.to_be_bytes()[8 - len..].to_vec();
            let strings: Vec<Vec<u8>> = (0..3_000).map(|_| string(next())).collect();
            let mut hashed = HashedStarts::with_room(strings.len());
            strings.iter().for_each(|s| hashed.add(s));
            assert!(strings.iter().all(|s| hashed.may_begin(s)));
            // Of strings not put in, at least 95% told (about 91% with
            // one bit a string).
            let put_in: std::collections::HashSet<&Vec<u8>> = strings.iter().collect();
            let others: Vec<Vec<u8>> = (0..20_000)
                .map(|_| string(next()))
                .filter(|s| !put_in.contains(s))
                .collect();
            let told = others.iter().filter(|s| !hashed.may_begin(s)).count();
            assert!(
                told * 100 >= others.len() * 95,
                "{told} of {} told, strings of {len}",
                others.len()
            );
            assert_eq!(hashed.memory_usage(), 4096);
            assert_eq!(HashedStarts::memory_for(strings.len()), 4096);
        }
    }
}
