//! What follows a prefix's match, as the table's order of the prefix's
//! longer patterns compares it with their tails (see
//! `Table::longer_agreeing`): the input's bytes for direct patterns, the
//! view's (CR and LF left out) for base64 and hex ones. A comparison reads
//! no further than the tail or the first byte that differs, so the rest
//! of a long input is never read.

use super::seeds::{GRAM, has_line_break, is_break};
use super::verify::common_prefix;

/// How a pattern's tail compares with what follows: by their bytes, a
/// string sorting before every longer string that begins with it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Agreement {
    /// What follows begins with the whole tail and goes on past it.
    Begun,
    /// The tail sorts before what follows: they agree on this many bytes,
    /// then the tail's byte is the smaller.
    Below(usize),
    /// The tail begins with all that follows (`whole`: and is no longer).
    GoesOn { whole: bool },
    /// The tail sorts after what follows, by a larger byte.
    Above,
}

impl Agreement {
    /// Whether the tail sorts before what follows.
    #[inline]
    pub(crate) fn is_below(self) -> bool {
        matches!(self, Agreement::Begun | Agreement::Below(_))
    }
}

/// What follows a prefix's match.
pub(crate) trait Following {
    /// How `tail` compares with it.
    fn agreement(&self, tail: &[u8]) -> Agreement;

    /// Its first bytes, at most [`GRAM`] (the rest zero), and how many.
    fn first_bytes(&self) -> ([u8; GRAM], usize);
}

/// The input after a direct pattern's prefix.
impl Following for [u8] {
    #[inline]
    fn agreement(&self, tail: &[u8]) -> Agreement {
        // The whole tail, where it matches (a pattern of 4 KiB), compared
        // at once.
        if self.starts_with(tail) {
            return match self.len() == tail.len() {
                true => Agreement::GoesOn { whole: true },
                false => Agreement::Begun,
            };
        }
        let common = common_prefix(tail, self);
        match self.get(common) {
            None => Agreement::GoesOn { whole: false },
            Some(&a) if tail[common] < a => Agreement::Below(common),
            Some(_) => Agreement::Above,
        }
    }

    #[inline]
    fn first_bytes(&self) -> ([u8; GRAM], usize) {
        let count = self.len().min(GRAM);
        let mut bytes = [0; GRAM];
        bytes[..count].copy_from_slice(&self[..count]);
        (bytes, count)
    }
}

/// The view of `input` from `from` on: its bytes but CR and LF.
pub(crate) struct ViewFollowing<'a> {
    pub(crate) input: &'a [u8],
    pub(crate) from: usize,
}

impl Following for ViewFollowing<'_> {
    fn agreement(&self, tail: &[u8]) -> Agreement {
        let input = self.input;
        let (mut at, mut common) = (self.from, 0);
        loop {
            // Eight bytes at a time where none is a line break (most).
            while let (Some(bytes), Some(wanted)) =
                (input.get(at..at + GRAM), tail.get(common..common + GRAM))
            {
                let word = u64::from_le_bytes(bytes.try_into().expect("a gram"));
                if has_line_break(word) {
                    break;
                }
                let differ = word ^ u64::from_le_bytes(wanted.try_into().expect("a gram"));
                if differ != 0 {
                    let same = (differ.trailing_zeros() / 8) as usize;
                    return below_or_above(tail[common + same], bytes[same], common + same);
                }
                (at, common) = (at + GRAM, common + GRAM);
            }
            // Then a byte.
            while input.get(at).is_some_and(|&b| is_break(b)) {
                at += 1;
            }
            match (tail.get(common), input.get(at)) {
                (None, None) => return Agreement::GoesOn { whole: true },
                (None, Some(_)) => return Agreement::Begun,
                (Some(_), None) => return Agreement::GoesOn { whole: false },
                (Some(t), Some(a)) if t == a => (at, common) = (at + 1, common + 1),
                (Some(&t), Some(&a)) => return below_or_above(t, a, common),
            }
        }
    }

    fn first_bytes(&self) -> ([u8; GRAM], usize) {
        let (bytes, count, _) = super::seeds::view_bytes(self.input, self.from);
        (bytes, count)
    }
}

/// Where the tail's byte `t` differs from `a`, after `common` bytes.
#[inline]
fn below_or_above(t: u8, a: u8, common: usize) -> Agreement {
    if t < a {
        Agreement::Below(common)
    } else {
        Agreement::Above
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The agreement by its definition, on the view of `after`.
    fn agreement_of(tail: &[u8], after: &[u8]) -> Agreement {
        let view: Vec<u8> = after.iter().copied().filter(|&b| !is_break(b)).collect();
        let common = tail.iter().zip(&view).take_while(|(t, a)| t == a).count();
        if view.starts_with(tail) {
            if view.len() == tail.len() {
                Agreement::GoesOn { whole: true }
            } else {
                Agreement::Begun
            }
        } else if tail.starts_with(&view) {
            Agreement::GoesOn { whole: false }
        } else if tail < &view[..] {
            Agreement::Below(common)
        } else {
            Agreement::Above
        }
    }

    #[test]
    fn agreements_are_what_the_bytes_say() {
        let mut next = crate::engine::xorshift(0xa91e);
        let mut string = |len: u64, breaks: bool| -> Vec<u8> {
            let alphabet: &[u8] = if breaks { b"ab\nc\r" } else { b"abc" };
            let len = (next() % len) as usize;
            let mut s: Vec<u8> = Vec::with_capacity(len);
            for _ in 0..len {
                s.push(alphabet[(next() % alphabet.len() as u64) as usize]);
            }
            s
        };
        for round in 0..20_000 {
            let tail = string(if round % 3 == 0 { 48 } else { 24 }, false);
            let mut after = if round % 2 == 0 {
                [&tail[..], &string(6, false)].concat()
            } else {
                string(24, false)
            };
            after.truncate(after.len() - after.len().min(round % 3));
            let view = [&after[..], &string(4, false)].concat();
            assert_eq!(
                after.agreement(&tail),
                agreement_of(&tail, &after),
                "{tail:?} {after:?}"
            );
            assert_eq!(after.agreement(&tail).is_below(), tail < after);
            let with_breaks: Vec<u8> = view
                .iter()
                .flat_map(|&b| {
                    // In some rounds long runs without a line break.
                    let line = string(if round % 4 == 0 { 1 } else { 3 }, true);
                    let breaks = line.into_iter().filter(|&b| is_break(b));
                    std::iter::once(b).chain(breaks)
                })
                .collect();
            let following = ViewFollowing {
                input: &[b"\r\nxyz".as_slice(), &with_breaks].concat(),
                from: 5,
            };
            assert_eq!(
                following.agreement(&tail),
                agreement_of(&tail, &view),
                "{tail:?} {with_breaks:?}"
            );
            let (bytes, count) = following.first_bytes();
            assert_eq!(&bytes[..count], &view[..view.len().min(GRAM)]);
        }
    }
}
