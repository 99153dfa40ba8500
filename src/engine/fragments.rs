//! Fragments (SPEC §2.2, §3): a 16-byte window of a value found in the
//! input, extended byte by byte along the value at every offset where the
//! window occurs. The candidate at position p is the longest prefix of the
//! input from p that is a substring of a value, when that is 16 bytes or
//! more. A [`Run`] follows the input through the suffix automaton of every
//! value, so each byte costs the same however many values there are and
//! however often a value repeats itself.

use super::suffix::{FOLLOW, ROOT, SuffixAutomaton};
use crate::FRAGMENT;

/// Fragments whose lengths are final: every start in `from..to` has one
/// that runs to `end`; the longest (from `from`) is in suffix automaton
/// state `state`, and each shorter one in a state on its suffix links.
/// Reported as one stretch, not start by start: the decision takes at most
/// one start of it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Stretch {
    pub(crate) from: u64,
    pub(crate) to: u64,
    pub(crate) end: u64,
    pub(crate) state: u32,
}

/// The longest suffix of the input that is a substring of a value. Every
/// start before that suffix has its final length already reported.
#[derive(Clone, Copy)]
pub(crate) struct Run {
    state: u32,
    len: u32,
}

impl Default for Run {
    fn default() -> Run {
        Run::empty()
    }
}

impl Run {
    /// Nothing read yet.
    pub(crate) fn empty() -> Run {
        Run {
            state: ROOT,
            len: 0,
        }
    }

    pub(crate) fn len(&self) -> u64 {
        u64::from(self.len)
    }

    /// Reports the starts of this run (which ends at `end`) up to (not
    /// including) `to`, each with length `end - start`.
    fn report(&self, end: u64, to: u64, found: &mut impl FnMut(Stretch)) {
        let from = end - u64::from(self.len);
        if from < to {
            found(Stretch {
                from,
                to,
                end,
                state: self.state,
            });
        }
    }

    /// Reads the byte at position `at`. Every start whose fragment cannot
    /// take this byte is final: `found` for those of 16 bytes or more.
    #[inline]
    pub(crate) fn step(
        &mut self,
        sam: &SuffixAutomaton,
        at: u64,
        byte: u8,
        found: impl FnMut(Stretch),
    ) {
        let before = *self;
        (self.state, self.len) = sam.step(self.state, self.len, byte);
        self.stepped_from(before, at, found);
    }

    /// Reads the byte at position `at`, which no value holds: the run ends
    /// there, as [`Run::step`] would end it, without the walk down the
    /// suffix automaton's links.
    #[inline]
    pub(crate) fn end_at(&mut self, at: u64, found: impl FnMut(Stretch)) {
        let before = *self;
        *self = Run::empty();
        self.stepped_from(before, at, found);
    }

    /// Reports what the step from `before` over the byte at `at` made final.
    #[inline(always)]
    fn stepped_from(&self, before: Run, at: u64, mut found: impl FnMut(Stretch)) {
        let new_start = at + 1 - u64::from(self.len);
        // Starts up to `at - 16` had a fragment of 16 bytes or more.
        let last = (at + 1).saturating_sub(FRAGMENT as u64);
        if before.len as u64 >= FRAGMENT as u64 && at - before.len() < new_start.min(last) {
            before.report(at, new_start.min(last), &mut found);
        }
    }

    /// Keeps no more than the last `len` bytes of the run (the suffix of
    /// that length, in its state): where no start before them can still be
    /// a candidate. Each link walked makes the run shorter for good, and
    /// a byte makes it at most one longer: a link a byte, amortised.
    pub(crate) fn keep_last(&mut self, sam: &SuffixAutomaton, len: u64) {
        if u64::from(self.len) > len {
            self.len = len as u32;
            self.state = sam.shorten(self.state, self.len);
        }
    }

    /// Takes the first bytes of `input`, as many as go on along the first
    /// occurrence of a match of [`FOLLOW`] bytes or more (see
    /// [`SuffixAutomaton::follow`]); returns how many. Each makes the match
    /// one byte longer, so no start becomes final: the same as stepping
    /// them, without a read of the automaton a byte. `None` where the
    /// match is shorter (not tried).
    #[inline]
    pub(crate) fn follow(&mut self, sam: &SuffixAutomaton, input: &[u8]) -> Option<usize> {
        if (self.len as usize) < FOLLOW {
            return None;
        }
        let taken;
        (self.state, self.len, taken) = sam.follow(self.state, self.len, input);
        Some(taken)
    }

    /// With the input ending at `end`: the earliest start whose fragment
    /// (16 bytes or more) could still grow, if any; every start before it
    /// is final and reported through `found`.
    pub(crate) fn settle(
        &self,
        sam: &SuffixAutomaton,
        end: u64,
        mut found: impl FnMut(Stretch),
    ) -> Option<u64> {
        let growable = u64::from(sam.growable(self.state, self.len));
        let last = end.saturating_sub(FRAGMENT as u64); // last start of a fragment
        let first_growing = end - growable;
        if self.len() >= FRAGMENT as u64 {
            self.report(end, first_growing.min(last + 1), &mut found);
        }
        (growable >= FRAGMENT as u64).then_some(first_growing)
    }

    /// The input ended at `end`: every start of 16 bytes or more is final.
    pub(crate) fn finish(&self, end: u64, mut found: impl FnMut(Stretch)) {
        if self.len() >= FRAGMENT as u64 {
            self.report(end, end + 1 - FRAGMENT as u64, &mut found);
        }
    }

    /// The length of the longest suffix of the input, shorter than a
    /// window, ending at `end` and starting at `floor` or later, that is a
    /// proper prefix of some window (0: none), wherever it starts.
    #[inline]
    pub(crate) fn window_prefix_len(&self, sam: &SuffixAutomaton, end: u64, floor: u64) -> u32 {
        let longest = self
            .len
            .min(FRAGMENT as u32 - 1)
            .min(end.saturating_sub(floor).min(FRAGMENT as u64) as u32);
        sam.window_prefix_len(self.state, self.len, longest)
    }

    /// The longest suffix of the input, shorter than a window and ending at
    /// `end`, that is a proper prefix of some window and whose first byte
    /// `starts_at(start)` accepts: its start. `floor` is the earliest start
    /// to consider.
    pub(crate) fn window_prefix(
        &self,
        sam: &SuffixAutomaton,
        end: u64,
        floor: u64,
        starts_at: impl Fn(u64) -> bool,
    ) -> Option<u64> {
        let mut len = self.window_prefix_len(sam, end, floor);
        // The longest starts where a candidate may, unless a line break
        // is there (rare): then the next shorter one.
        while len > 0 {
            let start = end - u64::from(len);
            if starts_at(start) {
                return Some(start);
            }
            len = sam.window_prefix_len(self.state, self.len, len - 1);
        }
        None
    }
}
