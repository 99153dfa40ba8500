//! The CR and LF bytes among the last 64 bytes of a push's input, a bit
//! each: what every filtered push asks of its end (where its tail of view
//! bytes starts, and the line breaks in it that the stepper's start steps
//! around), answered by a few word operations (about 150 instructions).
//! Three searches of `memchr` over those few bytes cost about 320 (a tenth
//! of a push of 64 bytes) and a mispredicted branch or two each.

use super::seeds::{is_break, line_break_bytes};

/// Bytes covered: a push's tail is 39 view bytes, so this covers it unless
/// more than 25 of the last 64 bytes are CR or LF.
const COVERED: usize = 64;

/// The line breaks among the last [`COVERED`] bytes of an input.
pub(super) struct EndBreaks {
    /// Where the covered bytes start.
    from: usize,
    /// Bit `i` is set where `input[from + i]` is CR or LF.
    bits: u64,
    /// The input's length.
    len: usize,
}

impl EndBreaks {
    pub(super) fn of(input: &[u8]) -> EndBreaks {
        let from = input.len().saturating_sub(COVERED);
        let bits = match input[from..].first_chunk::<COVERED>() {
            Some(covered) => break_bits(covered),
            None => breaks_of(&input[from..]),
        };
        EndBreaks {
            from,
            bits,
            len: input.len(),
        }
    }

    /// Where the last `view` view bytes (bytes that are no CR or LF) of
    /// the input start: the first of them. 0 when the input has fewer;
    /// `None` when they reach before the covered bytes (then the caller
    /// searches).
    pub(super) fn view_start(&self, view: usize) -> Option<usize> {
        if self.len < view {
            return (self.from == 0).then_some(0);
        }
        // The largest start whose bytes to the end hold `view` view bytes:
        // from `len - view` back by the line breaks met, until no more.
        let mut start = self.len - view;
        loop {
            if start < self.from {
                return (self.from == 0).then_some(0);
            }
            let breaks = (self.bits >> (start - self.from)).count_ones() as usize;
            let earlier = (self.len - view).checked_sub(breaks);
            match earlier {
                Some(earlier) if earlier == start => return Some(start),
                Some(earlier) => start = earlier,
                None => return (self.from == 0).then_some(0),
            }
        }
    }

    /// The first CR or LF at or after `at` (at or after the covered bytes'
    /// start), or the input's length.
    pub(super) fn next(&self, at: usize) -> usize {
        debug_assert!(at >= self.from);
        match self.bits.checked_shr((at - self.from) as u32) {
            Some(rest) if rest != 0 => at + rest.trailing_zeros() as usize,
            _ => self.len,
        }
    }

    /// The last CR or LF at or after `at` (at or after the covered bytes'
    /// start), if any.
    pub(super) fn last_from(&self, at: usize) -> Option<usize> {
        debug_assert!(at >= self.from);
        let rest = self.bits.checked_shr((at - self.from) as u32).unwrap_or(0);
        (rest != 0).then(|| at + 63 - rest.leading_zeros() as usize)
    }

    /// Whether `at` is among the covered bytes.
    pub(super) fn covers(&self, at: usize) -> bool {
        at >= self.from
    }
}

/// A bit for each of `bytes` (at most 64) that is CR or LF, the first
/// byte's lowest: a byte at a time, for a few bytes.
#[inline(always)]
pub(super) fn breaks_of(bytes: &[u8]) -> u64 {
    debug_assert!(bytes.len() <= COVERED);
    (bytes.iter().enumerate()).fold(0, |bits, (i, &b)| bits | u64::from(is_break(b)) << i)
}

/// A bit for each of the 64 bytes that is CR or LF, the first byte's
/// lowest: a word at a time.
#[inline(always)]
fn break_bits(bytes: &[u8; COVERED]) -> u64 {
    let mut bits = 0;
    for (i, word) in bytes.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        bits |= word_break_bits(word) << (8 * i);
    }
    bits
}

/// A bit for each byte of `word` (the first byte's lowest) that is CR or
/// LF.
#[inline(always)]
fn word_break_bits(word: u64) -> u64 {
    // Byte i's high bit to bit i: each lands in the top byte alone.
    (line_break_bytes(word) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs of every length up to 100 with line breaks now and then,
    /// in runs too (more than 25 in 64 bytes, beyond what is covered).
    fn inputs() -> impl Iterator<Item = Vec<u8>> {
        let mut next = crate::engine::xorshift(0x00b4_eac5);
        (0..4000).map(move |i| {
            let len = i % 101;
            let dense = next().is_multiple_of(4);
            (0..len)
                .map(|_| match next() % if dense { 3 } else { 12 } {
                    0 => b'\n',
                    1 => b'\r',
                    _ => b'0' + (next() % 75) as u8,
                })
                .collect()
        })
    }

    #[test]
    fn word_break_bits_are_exact() {
        let mut next = crate::engine::xorshift(0x1f);
        for _ in 0..20_000 {
            let bytes: [u8; 8] = std::array::from_fn(|_| match next() % 5 {
                0 => b'\n',
                1 => b'\r',
                2 => [0, 1, 0x0B, 0x0C, 0x0E, 0x8A, 0x8D, 0xFF][(next() % 8) as usize],
                _ => next() as u8,
            });
            let expected = (0..8).fold(0, |bits, i| bits | u64::from(is_break(bytes[i])) << i);
            let bits = word_break_bits(u64::from_le_bytes(bytes));
            assert_eq!(bits, expected, "{bytes:?}");
        }
    }

    #[test]
    fn answers_as_a_search_does() {
        for input in inputs() {
            let breaks = EndBreaks::of(&input);
            let len = input.len();
            for view in [1, 8, 16, 39, 64] {
                // The first of the last `view` view bytes, 0 with fewer.
                let mut seen = 0;
                let plain = (0..len)
                    .rev()
                    .find(|&at| {
                        seen += usize::from(!is_break(input[at]));
                        seen == view
                    })
                    .unwrap_or(0);
                match breaks.view_start(view) {
                    Some(start) => assert_eq!(start, plain, "{view} of {input:?}"),
                    // Only where they reach before the covered bytes.
                    None => assert!(len > COVERED && plain < len - COVERED, "{input:?}"),
                }
            }
            for at in len.saturating_sub(COVERED)..=len {
                assert!(breaks.covers(at));
                let next = (at..len).find(|&i| is_break(input[i])).unwrap_or(len);
                assert_eq!(breaks.next(at), next, "next from {at} in {input:?}");
                let last = (at..len).rev().find(|&i| is_break(input[i]));
                assert_eq!(breaks.last_from(at), last, "last from {at} in {input:?}");
            }
            if len > COVERED {
                assert!(!breaks.covers(len - COVERED - 1));
            }
        }
    }
}
