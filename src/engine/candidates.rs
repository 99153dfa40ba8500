//! The candidate sink (SPEC §3): every strategy that finds candidates offers
//! them here, and only the best one per start position is kept.

use std::collections::BTreeMap;

use crate::form::Form;

/// The best candidate known at one start position.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// Span in original input bytes.
    pub(crate) len: u64,
    pub(crate) form: Form,
    pub(crate) secret: u32,
}

impl Candidate {
    /// SPEC §3: the longest, then the earlier form, then the earlier secret.
    fn beats(&self, other: &Candidate) -> bool {
        (other.len, self.form, self.secret) < (self.len, other.form, other.secret)
    }
}

/// Candidates by start position, none before `floor` (the decided input).
#[derive(Default)]
pub(crate) struct Candidates {
    by_start: BTreeMap<u64, Candidate>,
    floor: u64,
}

impl Candidates {
    /// Records a candidate, keeping the best one per start position; one
    /// that starts in the decided input is ignored.
    #[inline]
    pub(crate) fn offer(&mut self, start: u64, len: u64, form: Form, secret: u32) {
        if start < self.floor {
            return;
        }
        let candidate = Candidate { len, form, secret };
        self.by_start
            .entry(start)
            .and_modify(|best| {
                if candidate.beats(best) {
                    *best = candidate;
                }
            })
            .or_insert(candidate);
    }

    /// The leftmost candidate.
    pub(crate) fn first(&self) -> Option<(u64, Candidate)> {
        self.by_start.first_key_value().map(|(&s, &c)| (s, c))
    }

    /// Everything before `position` is decided: candidates that start there
    /// are dropped, and none is taken any more.
    pub(crate) fn decided_to(&mut self, position: u64) {
        self.floor = self.floor.max(position);
        while self
            .by_start
            .first_key_value()
            .is_some_and(|(&s, _)| s < position)
        {
            self.by_start.pop_first();
        }
    }
}
