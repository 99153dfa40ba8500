//! The bytes that begin nothing: no pattern (on the input or on the view)
//! and no value starts with them. A stream at rest (nothing held, nothing
//! open, both automata at their start, no fragment run) that is pushed
//! such a byte stays at rest and emits it: the push of one byte then skips
//! the stepper (see `Matcher::pass_inert`). A CR or LF can be one: where
//! the view's automaton is at its start, no view pattern's prefix reaches
//! across it, and no candidate starts at it.
//!
//! Among them, the bytes that end everything: no pattern and no value
//! holds them anywhere, and they are no CR or LF (which the view skips).
//! Whatever was open, such a byte leaves both automata at their start,
//! every open verification failed and the fragment run ended: the stepper
//! sets that (see `Matcher::step`), where stepping walked each automaton
//! down its links.

use zeroize::Zeroize;

use super::automaton::Automaton;
use super::suffix::{ROOT, SuffixAutomaton};

pub(crate) struct InertBytes {
    /// For each byte: [`BEGINS`], [`INERT`] or [`ENDS`].
    kind: [u8; 256],
}

/// The byte begins some pattern or value.
const BEGINS: u8 = 0;
/// The byte begins nothing.
const INERT: u8 = 1;
/// The byte begins nothing, and no pattern or value holds it.
const ENDS: u8 = 2;

/// Bytes of a pattern tested at once for any not yet seen.
const PIECE: usize = 16;

impl InertBytes {
    /// The bytes on which both automata stay at their start and the suffix
    /// automaton of the values has no transition from its root; among
    /// them, those that are no CR or LF and that none of `every` (every
    /// pattern, whole, and every value) holds.
    pub(crate) fn new<'a>(
        direct: &Automaton,
        view: &Automaton,
        values: &SuffixAutomaton,
        every: impl Iterator<Item = &'a [u8]>,
    ) -> Self {
        let mut held = [false; 256];
        let hold = |held: &mut [bool; 256], bytes: &[u8]| {
            bytes.iter().for_each(|&b| held[usize::from(b)] = true);
        };
        for bytes in every {
            // A store a byte ran at 2.2 to 2.6 ns a byte over patterns
            // beyond the cache (each load behind the stores before it; 0.39
            // s of compiling 100 x 64 KiB); most pieces hold only bytes
            // already seen, which loads alone tell at 0.5 ns a byte.
            let mut pieces = bytes.chunks_exact(PIECE);
            for piece in &mut pieces {
                if !piece.iter().all(|&b| held[usize::from(b)]) {
                    hold(&mut held, piece);
                }
            }
            hold(&mut held, pieces.remainder());
        }
        let mut kind = [BEGINS; 256];
        for (b, kind) in (0..=255u8).zip(&mut kind) {
            let stays = |automaton: &Automaton| {
                let next = automaton.next(automaton.start(), b);
                next == automaton.start() && !automaton.is_match(next)
            };
            let begins_nothing = stays(direct) && stays(view) && values.next(ROOT, b).is_none();
            let in_none = !held[usize::from(b)] && !matches!(b, b'\r' | b'\n');
            *kind = match (begins_nothing, in_none) {
                (false, _) => BEGINS,
                (true, false) => INERT,
                (true, true) => ENDS,
            };
        }
        held.zeroize();
        InertBytes { kind }
    }

    /// Whether `byte` begins nothing.
    #[inline(always)]
    pub(crate) fn holds(&self, byte: u8) -> bool {
        self.kind[usize::from(byte)] != BEGINS
    }

    /// Whether `byte` ends everything: no pattern or value holds it.
    #[inline(always)]
    pub(crate) fn ends(&self, byte: u8) -> bool {
        self.kind[usize::from(byte)] == ENDS
    }
}

/// Which bytes begin nothing says which bytes the values' encodings hold:
/// wiped.
impl Drop for InertBytes {
    fn drop(&mut self) {
        self.kind.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bytes_that_begin_nothing_are_inert() {
        let direct = Automaton::new(&[b"abc", b"xyz"]);
        let view = Automaton::new(&[b"YWJj"]);
        let value = b"0123456789abcdefghij";
        let values = SuffixAutomaton::new([(0u32, &value[..])].into_iter());
        let every = || [&b"abc=~"[..], b"xyz", b"YWJj", value].into_iter();
        let inert = InertBytes::new(&direct, &view, &values, every());
        for b in 0..=255u8 {
            let begins = b"axY".contains(&b) || value.contains(&b);
            assert_eq!(inert.holds(b), !begins, "byte {b}");
            let held = every().any(|p| p.contains(&b)) || b"\r\n".contains(&b);
            assert_eq!(inert.ends(b), !held, "byte {b}");
        }
        // A byte inside a pattern but at the start of none still begins a
        // value here ('b'); ' ' and a line break begin nothing, and ' '
        // ends everything, where '=' (inside a whole pattern) and a line
        // break (which the view skips) do not.
        assert!(inert.holds(b' ') && inert.holds(b'\n') && inert.holds(b'='));
        assert!(!inert.holds(b'b'));
        assert!(inert.ends(b' ') && !inert.ends(b'=') && !inert.ends(b'\n'));
        // A line break inside a value begins one of its fragments.
        let lines = b"0123456789\nabcdefghij";
        let values = SuffixAutomaton::new([(0u32, &lines[..])].into_iter());
        let inert = InertBytes::new(&direct, &view, &values, every());
        assert!(!inert.holds(b'\n') && inert.holds(b'\r'));
    }

    /// A byte held only inside a long pattern, among bytes seen before it
    /// (in a piece tested at once, or after the last), is held.
    #[test]
    fn a_byte_first_seen_inside_a_long_pattern_is_held() {
        let direct = Automaton::new(&[b"abc"]);
        let view = Automaton::new(&[b"abcab"]);
        let values = SuffixAutomaton::new(std::iter::empty());
        let long = b"abcabcabcabcab%cabcabcabcabcabcab^cab~";
        let every = [&b"abc"[..], long];
        let inert = InertBytes::new(&direct, &view, &values, every.into_iter());
        for b in 0..=255u8 {
            let held = b"abc%^~\r\n".contains(&b);
            assert_eq!(inert.ends(b), !held, "byte {b}");
        }
    }
}
