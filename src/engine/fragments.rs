//! Fragments (SPEC §2.2, §3): a 16-byte window of a value found in the
//! input, extended byte by byte along the value at every offset where the
//! window occurs. The candidate at position p is the longest prefix of the
//! input from p that is a substring of the value, when that is 16 bytes or
//! more. A [`Run`] follows the input through the value's suffix automaton,
//! so each byte costs the same however often the value repeats itself.

use super::suffix::{ROOT, SuffixAutomaton};
use crate::FRAGMENT;

/// The fragments of one secret in progress: the longest suffix of the input
/// that is a substring of the value, while it is at least 16 bytes long.
/// Every start before that suffix has its final length already reported.
pub(crate) struct Run {
    pub(crate) secret: u32,
    state: u32,
    len: u32,
}

impl Run {
    /// A run whose first window `window` is the input just read.
    pub(crate) fn new(sam: &SuffixAutomaton, secret: u32, window: &[u8]) -> Run {
        let mut run = Run {
            secret,
            state: ROOT,
            len: 0,
        };
        for &byte in window {
            (run.state, run.len) = sam.step(run.state, run.len, byte);
        }
        debug_assert_eq!(run.len as usize, window.len(), "a window is a substring");
        run
    }

    /// A run from scratch, for a walk that starts at a given position.
    pub(crate) fn empty(secret: u32) -> Run {
        Run {
            secret,
            state: ROOT,
            len: 0,
        }
    }

    pub(crate) fn len(&self) -> u64 {
        u64::from(self.len)
    }

    /// Reads the byte at position `at`. Every start whose fragment cannot
    /// take this byte is final: `found(start, length)` for those of 16 bytes
    /// or more.
    #[inline]
    pub(crate) fn step(
        &mut self,
        sam: &SuffixAutomaton,
        at: u64,
        byte: u8,
        mut found: impl FnMut(u64, u64),
    ) {
        let old_start = at - u64::from(self.len);
        (self.state, self.len) = sam.step(self.state, self.len, byte);
        let new_start = at + 1 - u64::from(self.len);
        // Starts up to `at - 16` had a fragment of 16 bytes or more.
        for start in old_start..new_start.min((at + 1).saturating_sub(FRAGMENT as u64)) {
            found(start, at - start);
        }
    }

    /// With the input ending at `end`: the earliest start whose fragment
    /// (16 bytes or more) could still grow, if any; every start before it
    /// is final and reported through `found`.
    pub(crate) fn settle(
        &self,
        sam: &SuffixAutomaton,
        end: u64,
        mut found: impl FnMut(u64, u64),
    ) -> Option<u64> {
        let growable = u64::from(sam.growable(self.state, self.len));
        let start = end - u64::from(self.len);
        let last = end.saturating_sub(FRAGMENT as u64); // last start of a fragment
        let first_growing = end - growable;
        for p in start..first_growing.min(last + 1) {
            found(p, end - p);
        }
        (growable >= FRAGMENT as u64).then_some(first_growing)
    }

    /// The input ended at `end`: every start of 16 bytes or more is final.
    pub(crate) fn finish(&self, end: u64, mut found: impl FnMut(u64, u64)) {
        let start = end - u64::from(self.len);
        for p in start..(end + 1).saturating_sub(FRAGMENT as u64) {
            found(p, end - p);
        }
    }
}
