//! The candidate sink (SPEC §3): every strategy that finds candidates offers
//! them here, and only the best one per start position is kept.

use std::collections::BTreeMap;

use crate::form::Form;

use super::fragments::Stretch;
use super::suffix::SuffixAutomaton;

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
#[derive(Default, Clone)]
pub(crate) struct Candidates {
    by_start: BTreeMap<u64, Candidate>,
    /// Stretches of fragments by first start. A start is in several only
    /// when it was found twice, with the same final length each time.
    stretches: BTreeMap<u64, Stretch>,
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

    /// Records a stretch of fragments (the part before `floor` is ignored).
    pub(crate) fn offer_stretch(&mut self, mut stretch: Stretch) {
        stretch.from = stretch.from.max(self.floor);
        if stretch.from >= stretch.to {
            return;
        }
        self.stretches
            .entry(stretch.from)
            .and_modify(|known| known.to = known.to.max(stretch.to))
            .or_insert(stretch);
    }

    /// No candidate and no stretch is held.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.by_start.is_empty() && self.stretches.is_empty()
    }

    /// Every candidate held, and every fragment of every stretch, ends at
    /// or before `position` (true where none is held).
    #[inline]
    pub(crate) fn end_by(&self, position: u64) -> bool {
        self.is_empty() || self.all_end_by(position)
    }

    /// [`Candidates::end_by`] where some are held.
    fn all_end_by(&self, position: u64) -> bool {
        self.by_start
            .iter()
            .all(|(&start, candidate)| start + candidate.len <= position)
            && self
                .stretches
                .values()
                .all(|stretch| stretch.end <= position)
    }

    /// The leftmost candidate. A fragment of a stretch is raw or a fragment
    /// by what `sam` says of it; none starts where `line_break` says the
    /// input has a CR or LF.
    #[inline]
    pub(crate) fn first(
        &mut self,
        sam: &SuffixAutomaton,
        line_break: impl Fn(u64) -> bool,
    ) -> Option<(u64, Candidate)> {
        // Every push asks: most hold no candidate.
        if self.is_empty() {
            return None;
        }
        self.leftmost(sam, line_break)
    }

    /// [`Candidates::first`] when some candidate is held.
    fn leftmost(
        &mut self,
        sam: &SuffixAutomaton,
        line_break: impl Fn(u64) -> bool,
    ) -> Option<(u64, Candidate)> {
        let single = self.by_start.first_key_value().map(|(&s, &c)| (s, c));
        let fragment = loop {
            let Some((&from, &stretch)) = self.stretches.first_key_value() else {
                break None;
            };
            if single.is_some_and(|(s, _)| s < from) {
                break None;
            }
            if !line_break(from) {
                let len = stretch.end - from;
                let (form, secret) = sam.candidate(stretch.state, len as u32);
                break Some((from, Candidate { len, form, secret }));
            }
            // No candidate starts at a CR or LF: the stretch starts later.
            self.stretches.pop_first();
            self.offer_stretch(Stretch {
                from: from + 1,
                ..stretch
            });
        };
        match (single, fragment) {
            (Some((s, a)), Some((f, b))) if s == f => Some((s, if b.beats(&a) { b } else { a })),
            (Some((s, a)), Some((f, b))) => Some(if s < f { (s, a) } else { (f, b) }),
            (a, b) => a.or(b),
        }
    }

    /// Everything before `position` is decided: candidates that start there
    /// are dropped, and none is taken any more.
    #[inline]
    pub(crate) fn decided_to(&mut self, position: u64) {
        self.floor = self.floor.max(position);
        // Every push decides something: most hold no candidate.
        if !self.is_empty() {
            self.drop_before(position);
        }
    }

    /// [`Candidates::decided_to`] where some are held (out of line: a push
    /// of a byte calls that at every byte).
    #[inline(never)]
    fn drop_before(&mut self, position: u64) {
        while self
            .by_start
            .first_key_value()
            .is_some_and(|(&s, _)| s < position)
        {
            self.by_start.pop_first();
        }
        while let Some((&from, &stretch)) = self.stretches.first_key_value() {
            if from >= position {
                break;
            }
            self.stretches.pop_first();
            self.offer_stretch(stretch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `end_by` asks where the last candidate or stretch ends, not where
    /// it starts: what a tail decided without a step relies on.
    #[test]
    fn candidates_end_by_where_the_last_one_ends() {
        let mut candidates = Candidates::default();
        assert!(candidates.end_by(0));
        candidates.offer(10, 8, Form::Raw, 0);
        assert!(candidates.end_by(18) && candidates.end_by(30));
        assert!(!candidates.end_by(17) && !candidates.end_by(11));
        candidates.offer_stretch(Stretch {
            from: 12,
            to: 14,
            end: 40,
            state: 0,
        });
        assert!(!candidates.end_by(39) && candidates.end_by(40));
        // Decided past both: none is held.
        candidates.decided_to(18);
        assert!(candidates.is_empty() && candidates.end_by(0));
    }
}
