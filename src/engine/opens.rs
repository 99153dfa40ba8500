//! Patterns longer than the automaton's prefix: once the prefix is found, the
//! rest is verified byte by byte against the pattern as the input arrives.
//! An open verification is a candidate still in progress; the earliest one
//! is where the stream must hold back from.

use super::table::Table;

/// A pattern whose first `matched` bytes (view bytes, on the view) are the
/// input from `start` to the end so far.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Open {
    pub(crate) id: u32,
    pub(crate) start: u64,
    pub(crate) matched: u32,
}

/// The open verifications of one automaton.
pub(crate) struct Opens {
    list: Vec<Open>,
}

impl Default for Opens {
    /// Room for a few, so a warm stream does not allocate per push.
    fn default() -> Opens {
        Opens {
            list: Vec::with_capacity(8),
        }
    }
}

impl Opens {
    pub(crate) fn push(&mut self, open: Open) {
        self.list.push(open);
    }

    pub(crate) fn clear(&mut self) {
        self.list.clear();
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Reads the (view) byte at `at`: each open either takes it, completes
    /// (`complete(id, start)`) or fails.
    #[inline]
    pub(crate) fn step(&mut self, table: &Table, byte: u8, mut complete: impl FnMut(u32, u64)) {
        self.list.retain_mut(|open| {
            let pattern = table.pattern(open.id);
            if pattern[open.matched as usize] != byte {
                return false;
            }
            open.matched += 1;
            if open.matched as usize == pattern.len() {
                complete(open.id, open.start);
                return false;
            }
            true
        });
    }

    /// Forgets every open that starts before `position`: a match decided
    /// there covers its start.
    pub(crate) fn drop_before(&mut self, position: u64) {
        self.list.retain(|o| o.start >= position);
    }

    /// The earliest start of an open verification.
    pub(crate) fn earliest(&self) -> Option<u64> {
        self.list.iter().map(|o| o.start).min()
    }
}
