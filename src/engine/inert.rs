//! The bytes that begin nothing: no pattern (on the input or on the view)
//! and no value starts with them. A stream at rest (nothing held, nothing
//! open, both automata at their start, no fragment run) that is pushed
//! such a byte stays at rest and emits it: the push of one byte then skips
//! the stepper (see `Matcher::pass_inert`). A CR or LF can be one: where
//! the view's automaton is at its start, no view pattern's prefix reaches
//! across it, and no candidate starts at it.

use super::automaton::Automaton;
use super::suffix::{ROOT, SuffixAutomaton};

pub(crate) struct InertBytes {
    /// 1 where byte `b` begins nothing, else 0.
    inert: [u8; 256],
}

impl InertBytes {
    /// The bytes on which both automata stay at their start and the suffix
    /// automaton of the values has no transition from its root.
    pub(crate) fn new(direct: &Automaton, view: &Automaton, values: &SuffixAutomaton) -> Self {
        let mut inert = [0u8; 256];
        for (b, inert) in (0..=255u8).zip(&mut inert) {
            let stays = |automaton: &Automaton| {
                let next = automaton.next(automaton.start(), b);
                next == automaton.start() && !automaton.is_match(next)
            };
            let begins_nothing = stays(direct) && stays(view) && values.next(ROOT, b).is_none();
            *inert = u8::from(begins_nothing);
        }
        InertBytes { inert }
    }

    /// Whether `byte` begins nothing.
    #[inline(always)]
    pub(crate) fn holds(&self, byte: u8) -> bool {
        self.inert[usize::from(byte)] != 0
    }
}

/// Which bytes begin nothing says which bytes the values' encodings hold:
/// wiped.
impl Drop for InertBytes {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.inert);
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
        let inert = InertBytes::new(&direct, &view, &values);
        for b in 0..=255u8 {
            let begins = b"axY".contains(&b) || value.contains(&b);
            assert_eq!(inert.holds(b), !begins, "byte {b}");
        }
        // A byte inside a pattern but at the start of none still begins a
        // value here ('b'); ' ' and a line break begin nothing.
        assert!(inert.holds(b' ') && inert.holds(b'\n'));
        assert!(!inert.holds(b'b'));
        // A line break inside a value begins one of its fragments.
        let lines = b"0123456789\nabcdefghij";
        let values = SuffixAutomaton::new([(0u32, &lines[..])].into_iter());
        let inert = InertBytes::new(&direct, &view, &values);
        assert!(!inert.holds(b'\n') && inert.holds(b'\r'));
    }
}
