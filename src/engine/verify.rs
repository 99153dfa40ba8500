//! The seed filter's verification of a pattern past its prefix. One pattern
//! may start at many nearby positions: a periodic value (`aaaa…`, whose hex
//! is `6161…`) starts once a period all along a run that repeats it. Each
//! start is compared against the pattern's self-overlap and the furthest
//! match known so far instead of byte by byte (the Z-algorithm's idea, with
//! the pattern's [`Period`](super::table::Period) standing for its
//! Z-array), so every input byte is compared at most once per pattern and
//! the pass stays linear.

use super::seeds::gram;
use super::table::Table;

/// How a comparison of a pattern at one start ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Outcome {
    /// The whole pattern matched.
    Full,
    /// A byte differed.
    Mismatch,
    /// The input ended first: the pattern may still match.
    AtEnd,
}

/// The comparison of one pattern at one start: `len` (view) bytes agree,
/// and `end` is the original position after the last of them (for `Full`
/// and `AtEnd`; where a later comparison would go on otherwise).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Reach {
    pub(crate) len: usize,
    pub(crate) end: usize,
    pub(crate) outcome: Outcome,
}

/// The furthest-reaching comparison of one pattern, at view index `start`.
#[derive(Clone, Copy)]
struct Known {
    id: u32,
    start: u64,
    reach: Reach,
}

/// How many patterns' furthest matches are remembered: a run of nearby
/// starts is of one pattern or a few.
const REMEMBERED: usize = 8;

/// Comparisons of patterns at ascending starts in one input. `view`: CR and
/// LF are skipped (the CR/LF-free view), and starts are view indexes.
/// On the stack: a push allocates nothing.
pub(crate) struct Verifier {
    view: bool,
    known: [Known; REMEMBERED],
    len: usize,
    next: usize,
}

impl Verifier {
    pub(crate) fn new(view: bool) -> Verifier {
        let none = Known {
            id: u32::MAX,
            start: 0,
            reach: Reach {
                len: 0,
                end: 0,
                outcome: Outcome::Mismatch,
            },
        };
        Verifier {
            view,
            known: [none; REMEMBERED],
            len: 0,
            next: 0,
        }
    }

    /// Forgets every match known: the view indexes that follow are not
    /// comparable with those before.
    pub(crate) fn forget(&mut self) {
        self.len = 0;
        self.next = 0;
    }

    /// Compares pattern `id` of `table` at view index `start` of `input`,
    /// whose first `matched` (view) bytes are known to agree, the last of
    /// them before original position `pos`. The starts of one pattern come
    /// in ascending order (any order is correct, only slower).
    pub(crate) fn verify(
        &mut self,
        table: &Table,
        id: u32,
        input: &[u8],
        start: u64,
        mut matched: usize,
        mut pos: usize,
    ) -> Reach {
        let pattern = table.pattern(id);
        let slot = self.known[..self.len].iter().position(|k| k.id == id);
        if let Some(known) = slot.map(|i| self.known[i]) {
            let box_len = known.reach.len as u64;
            if start == known.start {
                return known.reach;
            }
            if known.start < start && start < known.start + box_len {
                // The input from `start` to the box's end is the pattern
                // shifted by `d`; the pattern agrees with itself shifted by
                // `d` on `overlap` bytes.
                let d = (start - known.start) as usize;
                let have = known.reach.len - d;
                if let Some(overlap) = table.period(id).self_overlap(pattern.len(), d) {
                    if overlap < have {
                        return Reach {
                            len: overlap,
                            end: known.reach.end,
                            outcome: Outcome::Mismatch,
                        };
                    }
                    if overlap > have {
                        // Where the box stopped, this one stops too.
                        return Reach {
                            len: have,
                            ..known.reach
                        };
                    }
                    if have > matched {
                        matched = have;
                        pos = known.reach.end;
                    }
                }
            }
        }
        let reach = compare(self.view, pattern, input, matched, pos);
        let known = Known { id, start, reach };
        let further = |k: &Known| start + reach.len as u64 > k.start + k.reach.len as u64;
        match slot {
            Some(i) if further(&self.known[i]) => self.known[i] = known,
            Some(_) => {}
            None if self.len < REMEMBERED => {
                self.known[self.len] = known;
                self.len += 1;
            }
            None => {
                self.known[self.next] = known;
                self.next = (self.next + 1) % REMEMBERED;
            }
        }
        reach
    }
}

/// Compares `pattern[matched..]` with the bytes of `input` from `pos` on
/// (with `view`, its view bytes: CR and LF skipped).
pub(crate) fn compare(
    view: bool,
    pattern: &[u8],
    input: &[u8],
    mut matched: usize,
    mut pos: usize,
) -> Reach {
    if !view {
        let same = common_prefix(&pattern[matched..], &input[pos..]);
        matched += same;
        pos += same;
        let outcome = if matched == pattern.len() {
            Outcome::Full
        } else if pos == input.len() {
            Outcome::AtEnd
        } else {
            Outcome::Mismatch
        };
        return Reach {
            len: matched,
            end: pos,
            outcome,
        };
    }
    // On the view: the stretches between line breaks compared as slices
    // (a base64 body wrapped at 76 columns is compared 76 bytes at a time).
    loop {
        if matched == pattern.len() {
            return Reach {
                len: matched,
                end: pos,
                outcome: Outcome::Full,
            };
        }
        while input.get(pos).is_some_and(|&b| b == b'\r' || b == b'\n') {
            pos += 1;
        }
        if pos == input.len() {
            return Reach {
                len: matched,
                end: pos,
                outcome: Outcome::AtEnd,
            };
        }
        // The stretch to the next line break, no longer than the rest of
        // the pattern.
        let rest = &pattern[matched..];
        let ahead = &input[pos..input.len().min(pos + rest.len())];
        let stretch = memchr::memchr2(b'\r', b'\n', ahead).unwrap_or(ahead.len());
        let same = common_prefix(rest, &ahead[..stretch]);
        matched += same;
        pos += same;
        if same < stretch {
            return Reach {
                len: matched,
                end: pos,
                outcome: Outcome::Mismatch,
            };
        }
    }
}

/// How many bytes `a` and `b` share from their start, a word at a time.
pub(crate) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let x = gram(&a[i..]) ^ gram(&b[i..]);
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `compare` a byte at a time, as defined.
    fn compare_plainly(
        view: bool,
        pattern: &[u8],
        input: &[u8],
        matched: usize,
        pos: usize,
    ) -> Reach {
        let (mut matched, mut pos) = (matched, pos);
        while matched < pattern.len() {
            let Some(&b) = input.get(pos) else {
                return Reach {
                    len: matched,
                    end: pos,
                    outcome: Outcome::AtEnd,
                };
            };
            if view && (b == b'\r' || b == b'\n') {
                pos += 1;
                continue;
            }
            if b != pattern[matched] {
                return Reach {
                    len: matched,
                    end: pos,
                    outcome: Outcome::Mismatch,
                };
            }
            pos += 1;
            matched += 1;
        }
        Reach {
            len: matched,
            end: pos,
            outcome: Outcome::Full,
        }
    }

    #[test]
    fn compare_is_a_comparison_byte_by_byte() {
        let mut next = crate::engine::xorshift(13);
        let mut outcomes = [0; 3];
        for _ in 0..20_000 {
            let pattern: Vec<u8> = (0..1 + next() % 40)
                .map(|_| b'a' + (next() % 2) as u8)
                .collect();
            // Input: the pattern with line breaks put in, cut short or
            // changed now and then.
            let mut input = Vec::new();
            for &b in &pattern {
                match next() % 8 {
                    0 => input.extend_from_slice(b"\r\n"),
                    1 => input.push(b'\n'),
                    _ => {}
                }
                input.push(if next().is_multiple_of(30) { b'c' } else { b });
            }
            if next().is_multiple_of(4) {
                input.truncate((next() % (input.len() as u64 + 1)) as usize);
            }
            if next().is_multiple_of(3) {
                input.extend_from_slice(b"\nab");
            }
            let matched = (next() % 3).min(pattern.len() as u64) as usize;
            // The input from `pos` holds the pattern's bytes from `matched`.
            let pos = input
                .iter()
                .enumerate()
                .filter(|&(_, &b)| b != b'\r' && b != b'\n')
                .nth(matched)
                .map_or(input.len(), |(i, _)| i);
            for view in [false, true] {
                let (m, p) = if view { (matched, pos) } else { (0, 0) };
                let got = compare(view, &pattern, &input, m, p);
                assert_eq!(
                    got,
                    compare_plainly(view, &pattern, &input, m, p),
                    "{pattern:?} {input:?}"
                );
                outcomes[got.outcome as usize] += 1;
            }
        }
        assert!(outcomes.iter().all(|&n| n > 1000), "{outcomes:?}");
    }
}
