//! Patterns longer than the automaton's prefix: once the prefix is found, the
//! rest is verified byte by byte against the pattern as the input arrives.
//! An open verification is a candidate still in progress; the earliest one
//! is where the stream must hold back from.
//!
//! A periodic pattern (`aaaa…` in hex is `6161…`) in input that repeats it
//! has an open at every period: its opens are kept as one group that
//! expects one byte at a time, so a byte costs the same for one open as for
//! thousands (see [`Period`]). Many patterns that share their prefix (the
//! keys of a thousand service accounts share 50 bytes of JSON) are opened
//! together, as one [`Span`] of their order that narrows at each byte: a
//! byte costs two binary searches, not a step each.

use std::collections::VecDeque;

use super::table::{Period, Table};
use super::verify::{Outcome, compare};

/// A pattern whose first `matched` bytes (view bytes, on the view) are the
/// input from `start` to the end so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Open {
    pub(crate) id: u32,
    pub(crate) start: u64,
    pub(crate) matched: u32,
}

/// Opens of one pattern whose starts are `q` (view) bytes apart, `q` its
/// period: the oldest has matched `matched` bytes, each later one `q` fewer.
/// While the oldest has matched fewer than `r` bytes, all of them expect
/// the same next byte.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Group {
    id: u32,
    oldest: u64,
    matched: u32,
    /// The starts of the later members, oldest first.
    newer: VecDeque<u64>,
}

impl Group {
    /// The matched count of the newest member.
    fn newest_matched(&self, q: u32) -> u32 {
        self.matched - q * self.newer.len() as u32
    }

    fn newest_start(&self) -> u64 {
        self.newer.back().copied().unwrap_or(self.oldest)
    }

    /// Drops the oldest member; false when none is left.
    fn pop_oldest(&mut self, table: &Table) -> bool {
        match self.newer.pop_front() {
            Some(start) => {
                self.oldest = start;
                self.matched -= table.period(self.id).q;
                true
            }
            None => false,
        }
    }
}

/// What reads the input a byte at a time: a [`Group`] or a [`Span`].
trait ReadsBytes {
    /// Reads `byte`; false when nothing is left. `complete(id, start)` for
    /// a pattern matched whole.
    fn step(&mut self, table: &Table, byte: u8, complete: &mut impl FnMut(u32, u64)) -> bool;

    /// Where few patterns are left, compares each with `bytes` from `at`
    /// as slices (see [`step_over`]), as reading them one at a time would:
    /// whether anything is left. `None` where more are.
    fn compared(
        &mut self,
        table: &Table,
        view: bool,
        input: (&[u8], usize, u64),
        complete: &mut impl FnMut(u32, u64, u64),
    ) -> Option<bool>;
}

impl ReadsBytes for Group {
    /// Reads `byte`; false when no member is left. `complete(id, start)` for
    /// a member that matched the whole pattern.
    #[inline]
    fn step(&mut self, table: &Table, byte: u8, complete: &mut impl FnMut(u32, u64)) -> bool {
        let pattern = table.pattern(self.id);
        if !self.newer.is_empty() {
            let Period { q, r } = table.period(self.id);
            debug_assert!(self.matched <= r, "a group stays in its periodic part");
            if self.matched == r {
                // The oldest is at the end of the periodic part: it expects
                // pattern[r], the others pattern[r - q], which differs, so
                // one side goes on alone.
                debug_assert_ne!(pattern[r as usize], pattern[(r - q) as usize]);
                if byte == pattern[r as usize] {
                    self.newer.clear();
                } else {
                    self.pop_oldest(table);
                }
            }
            // Now every member expects pattern[matched]: they are multiples
            // of q apart inside the part of period q.
        }
        if pattern[self.matched as usize] != byte {
            return false;
        }
        self.matched += 1;
        if self.matched as usize == pattern.len() {
            complete(self.id, self.oldest);
            return self.pop_oldest(table);
        }
        true
    }

    /// One member left.
    #[inline]
    fn compared(
        &mut self,
        table: &Table,
        view: bool,
        input: (&[u8], usize, u64),
        complete: &mut impl FnMut(u32, u64, u64),
    ) -> Option<bool> {
        if !self.newer.is_empty() {
            return None;
        }
        let still = compare_open(
            table,
            view,
            self.id,
            (self.oldest, self.matched),
            input,
            complete,
        );
        Some(still.is_some_and(|matched| {
            self.matched = matched;
            true
        }))
    }
}

/// The longer patterns of one prefix that its match at `start` opens,
/// verified together (see `table::SPANNED`): `lo..hi` of their order in
/// the table, each longer than `matched` bytes, which all of them agree
/// with the input on. A byte narrows the range to those that go on with
/// it (they are together in that order), and the one it completes is the
/// first of them (the others go on past it).
#[derive(Clone, PartialEq, Eq, Debug)]
struct Span {
    lo: u32,
    hi: u32,
    start: u64,
    matched: u32,
}

/// Patterns a span may have left for them to be compared one by one (the
/// base64 of one value: its core, its tails with and without padding, in
/// two alphabets).
const FEW: u32 = 8;

impl ReadsBytes for Span {
    /// Reads `byte`; false when no pattern is left. `complete(id, start)`
    /// for the one that matched whole.
    #[inline]
    fn step(&mut self, table: &Table, byte: u8, complete: &mut impl FnMut(u32, u64)) -> bool {
        let (mut lo, hi) = table.narrowed((self.lo, self.hi), self.matched as usize, byte);
        if lo == hi {
            return false;
        }
        self.matched += 1;
        let first = table.longer_at(lo);
        if table.pattern_len(first) == self.matched as usize {
            complete(first, self.start);
            lo += 1;
        }
        (self.lo, self.hi) = (lo, hi);
        lo < hi
    }

    /// [`FEW`] patterns or fewer left. Those still open after `bytes` agree
    /// with all of them: they begin with the same bytes and are longer,
    /// so they are together in the order.
    #[inline]
    fn compared(
        &mut self,
        table: &Table,
        view: bool,
        input: (&[u8], usize, u64),
        complete: &mut impl FnMut(u32, u64, u64),
    ) -> Option<bool> {
        if self.hi - self.lo > FEW {
            return None;
        }
        let mut open: Option<(u32, u32, u32)> = None;
        for i in self.lo..self.hi {
            let id = table.longer_at(i);
            let begun = (self.start, self.matched);
            if let Some(matched) = compare_open(table, view, id, begun, input, complete) {
                debug_assert!(open.is_none_or(|(_, hi, _)| hi == i), "together");
                let lo = open.map_or(i, |(lo, _, _)| lo);
                open = Some((lo, i + 1, matched));
            }
        }
        Some(open.is_some_and(|(lo, hi, matched)| {
            (self.lo, self.hi, self.matched) = (lo, hi, matched);
            true
        }))
    }
}

/// Compares pattern `id`, which matched `matched` bytes from `start`, with
/// `bytes` from `at` (which start at position `base`): `complete`s it
/// where it matches whole; how many bytes it has matched where it is
/// still open at their end.
fn compare_open(
    table: &Table,
    view: bool,
    id: u32,
    (start, matched): (u64, u32),
    (bytes, at, base): (&[u8], usize, u64),
    complete: &mut impl FnMut(u32, u64, u64),
) -> Option<u32> {
    let reach = compare(view, table.pattern(id), bytes, matched as usize, at);
    match reach.outcome {
        Outcome::Full => {
            complete(id, start, base + reach.end as u64);
            None
        }
        Outcome::AtEnd => Some(reach.len as u32),
        Outcome::Mismatch => None,
    }
}

/// Steps `open` over `bytes`, which start at position `base` (with
/// `view`, only those that are no CR or LF): `complete(id, start, end)`
/// for a pattern matched whole, `end` after its last byte; false once
/// nothing is left. Once few patterns are left, the rest of each is
/// compared with the bytes as slices: inside a long value in a stream of
/// 4 KiB pushes, a step a byte was a tenth of the work (a span's two
/// binary searches a byte more).
fn step_over(
    open: &mut impl ReadsBytes,
    table: &Table,
    view: bool,
    bytes: &[u8],
    base: u64,
    complete: &mut impl FnMut(u32, u64, u64),
) -> bool {
    let mut at = 0;
    loop {
        if let Some(left) = open.compared(table, view, (bytes, at, base), complete) {
            return left;
        }
        let Some(&byte) = bytes.get(at) else {
            return true;
        };
        at += 1;
        if view && (byte == b'\r' || byte == b'\n') {
            continue;
        }
        let mut completed = |id, start| complete(id, start, base + at as u64);
        if !open.step(table, byte, &mut completed) {
            return false;
        }
    }
}

/// The open verifications of one automaton.
#[derive(Clone)]
pub(crate) struct Opens {
    list: Vec<Group>,
    spans: Vec<Span>,
}

impl Default for Opens {
    /// Room for a few, so a warm stream does not allocate per push.
    fn default() -> Opens {
        Opens {
            list: Vec::with_capacity(8),
            spans: Vec::new(),
        }
    }
}

impl Opens {
    /// Adds an open. It joins the latest group of its pattern when it
    /// starts one period after that group's newest member.
    pub(crate) fn push(&mut self, table: &Table, open: Open) {
        let period = table.period(open.id);
        let Period { q, r } = period;
        // A group's newest member has matched `open.matched + q` bytes, at
        // most `r`: a pattern without such a period (most) joins none, and
        // is not looked for among what is open (thousands of patterns that
        // share a prefix open at once).
        if period.groups_at(open.matched)
            && let Some(group) = self.list.iter_mut().rev().find(|g| g.id == open.id)
            && group.matched <= r
            && group.newest_matched(q) == open.matched + q
            && group.newest_start() < open.start
        {
            group.newer.push_back(open.start);
            return;
        }
        self.list.push(Group {
            id: open.id,
            oldest: open.start,
            matched: open.matched,
            newer: VecDeque::new(),
        });
    }

    /// Opens the longer patterns `longer[lo..hi]` of a prefix (see
    /// [`Table::spanned`]) that matched `matched` bytes from `start`.
    pub(crate) fn push_span(&mut self, (lo, hi): (u32, u32), start: u64, matched: u32) {
        self.spans.push(Span {
            lo,
            hi,
            start,
            matched,
        });
    }

    pub(crate) fn clear(&mut self) {
        self.list.clear();
        self.spans.clear();
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty() && self.spans.is_empty()
    }

    /// Reads the (view) byte at `at`: each open either takes it, completes
    /// (`complete(id, start)`) or fails. Not inlined: the stepper calls it
    /// only when something is open, and inlined it made the stepper load
    /// the tables' fields ahead of every scan, a byte long or not.
    #[inline(never)]
    pub(crate) fn step(&mut self, table: &Table, byte: u8, mut complete: impl FnMut(u32, u64)) {
        self.list
            .retain_mut(|group| group.step(table, byte, &mut complete));
        if !self.spans.is_empty() {
            self.spans
                .retain_mut(|span| span.step(table, byte, &mut complete));
        }
    }

    /// Reads `bytes`, which start at position `base` (with `view`, only
    /// those that are no CR or LF), as [`Opens::step`] would one at a time
    /// (`complete(id, start, end)` for each member that matches whole,
    /// `end` after its last byte); an open alone in its group or its span
    /// compares the rest of its pattern with them as slices (see
    /// [`step_over`]).
    pub(crate) fn advance(
        &mut self,
        table: &Table,
        view: bool,
        bytes: &[u8],
        base: u64,
        mut complete: impl FnMut(u32, u64, u64),
    ) {
        self.list
            .retain_mut(|group| step_over(group, table, view, bytes, base, &mut complete));
        self.spans
            .retain_mut(|span| step_over(span, table, view, bytes, base, &mut complete));
    }

    /// Forgets every open that starts before `position`: a match decided
    /// there covers its start.
    pub(crate) fn drop_before(&mut self, table: &Table, position: u64) {
        // Every push decides something: most find nothing open.
        if self.is_empty() {
            return;
        }
        self.spans.retain(|span| span.start >= position);
        self.list.retain_mut(|group| {
            while group.oldest < position {
                if !group.pop_oldest(table) {
                    return false;
                }
            }
            true
        });
    }

    /// Forgets every open that starts at or after `position`: the filter
    /// finds those again.
    pub(crate) fn drop_from(&mut self, position: u64) {
        self.spans.retain(|span| span.start < position);
        self.list.retain_mut(|group| {
            while group.newer.back().is_some_and(|&start| start >= position) {
                group.newer.pop_back();
            }
            group.oldest < position
        });
    }

    /// The earliest start of an open verification.
    pub(crate) fn earliest(&self) -> Option<u64> {
        let spans = self.spans.iter().map(|span| span.start);
        self.list.iter().map(|g| g.oldest).chain(spans).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::table::{PREFIX, TableBuilder};
    use crate::form::Form;

    fn table(patterns: &[&[u8]]) -> Table {
        let mut builder = TableBuilder::new();
        for (i, p) in patterns.iter().enumerate() {
            builder.add(p, Form::Hex, i as u32).unwrap();
        }
        builder.finish()
    }

    /// Every start of every pattern of `patterns` in `input` (whose prefix
    /// is matched at `prefix` bytes), through groups, against brute force.
    fn check(patterns: &[&[u8]], input: &[u8], prefix: usize) {
        let table = table(patterns);
        let mut opens = Opens::default();
        let mut found = Vec::new();
        for (at, &byte) in input.iter().enumerate() {
            opens.step(&table, byte, |id, start| found.push((id, start)));
            // A prefix that ends here opens.
            if at + 1 >= prefix {
                let start = at + 1 - prefix;
                for id in 0..table.len() as u32 {
                    let p = table.pattern(id);
                    if input[start..=at] == p[..prefix] {
                        let open = Open {
                            id,
                            start: start as u64,
                            matched: prefix as u32,
                        };
                        opens.push(&table, open);
                    }
                }
            }
        }
        found.sort();
        let mut expected = Vec::new();
        for id in 0..table.len() as u32 {
            let p = table.pattern(id);
            for start in 0..input.len() {
                if input[start..].starts_with(p) {
                    expected.push((id, start as u64));
                }
            }
        }
        expected.sort();
        assert_eq!(found, expected);
        // Still open at the end: every start whose rest is a prefix.
        let mut open_starts: Vec<u64> = Vec::new();
        let mut o = std::mem::take(&mut opens);
        while let Some(e) = o.earliest() {
            open_starts.push(e);
            o.drop_before(&table, e + 1);
        }
        let mut expected_open: Vec<u64> = (0..input.len())
            .filter(|&s| {
                (0..table.len() as u32).any(|id| {
                    let p = table.pattern(id);
                    input.len() - s >= prefix
                        && input.len() - s < p.len()
                        && p.starts_with(&input[s..])
                })
            })
            .map(|s| s as u64)
            .collect();
        expected_open.dedup();
        assert_eq!(open_starts, expected_open);
    }

    #[test]
    fn periodic_patterns_match_every_start() {
        let a64 = "61".repeat(64);
        let ab = format!("{}62", "61".repeat(40));
        let abc = format!("{}x{}", "abc".repeat(15), "abc".repeat(5));
        let patterns: [&[u8]; 3] = [a64.as_bytes(), ab.as_bytes(), abc.as_bytes()];
        let inputs = [
            "61".repeat(200),
            format!("{}62{}", "61".repeat(100), "61".repeat(70)),
            format!("{}6{}", "61".repeat(90), "61".repeat(90)),
            format!("{}x{}zz", "abc".repeat(40), "abc".repeat(12)),
            format!("{}x{}", "abc".repeat(40), "abc".repeat(3)),
        ];
        for input in &inputs {
            for prefix in [4, 8, 32] {
                check(&patterns, input.as_bytes(), prefix);
            }
        }
    }

    /// `advance` over a slice against `step` a byte at a time, from opens
    /// of periodic and plain patterns at every offset of random input
    /// (with line breaks, skipped on the view), cut at random.
    #[test]
    fn advancing_over_a_slice_is_stepping_each_byte() {
        let a = "61".repeat(30);
        let ab = format!("{}62", "61".repeat(12));
        let plain = "0123456789abcdefXYZ".to_string();
        let patterns: [&[u8]; 3] = [a.as_bytes(), ab.as_bytes(), plain.as_bytes()];
        let table = table(&patterns);
        let mut next = crate::engine::xorshift(3);
        let mut completions = 0;
        for round in 0..2000 {
            let view = round % 2 == 1;
            let pieces: [&[u8]; 5] = [b"61", b"6", b"62", b"0123456789abcdefXYZ", b"\r\n"];
            let mut input = Vec::new();
            while input.len() < 80 {
                let piece = pieces[(next() % pieces.len() as u64) as usize];
                if view || piece != b"\r\n" {
                    input.extend_from_slice(piece);
                }
            }
            let cut = (next() % input.len() as u64) as usize;
            let (before, after) = input.split_at(cut);
            // Opens from `before`: every start whose (view) bytes to the
            // end begin a pattern, with at least 4 of them.
            let mut opens = Opens::default();
            for start in 0..before.len() {
                let rest: Vec<u8> = before[start..]
                    .iter()
                    .copied()
                    .filter(|&b| !view || (b != b'\r' && b != b'\n'))
                    .collect();
                if rest.len() < 4 || (view && matches!(before[start], b'\r' | b'\n')) {
                    continue;
                }
                for (id, p) in patterns.iter().enumerate() {
                    if rest.len() < p.len() && p.starts_with(&rest) {
                        let matched = rest.len() as u32;
                        opens.push(
                            &table,
                            Open {
                                id: id as u32,
                                start: start as u64,
                                matched,
                            },
                        );
                    }
                }
            }
            let base = cut as u64;
            let mut stepped = opens.clone();
            let mut by_step = Vec::new();
            for (at, &byte) in (base..).zip(after) {
                if view && (byte == b'\r' || byte == b'\n') {
                    continue;
                }
                stepped.step(&table, byte, |id, start| by_step.push((id, start, at + 1)));
            }
            let mut by_slice = Vec::new();
            opens.advance(&table, view, after, base, |id, start, end| {
                by_slice.push((id, start, end))
            });
            by_step.sort_unstable();
            by_slice.sort_unstable();
            assert_eq!(by_slice, by_step, "{input:?} cut at {cut}");
            assert_eq!(opens.list, stepped.list, "{input:?} cut at {cut}");
            completions += by_step.len();
        }
        assert!(completions > 1000, "{completions}");
    }

    #[test]
    fn drop_from_keeps_what_starts_before() {
        let p = "61".repeat(100);
        let table = table(&[p.as_bytes(), b"0123456789abcdefXYZ"]);
        let mut opens = Opens::default();
        // One group of starts 0, 2, 4, 6 (each 2 bytes apart, one period),
        // and a lone open at 5.
        for (start, matched) in [(0, 40), (2, 38), (4, 36), (6, 34)] {
            opens.push(
                &table,
                Open {
                    id: 0,
                    start,
                    matched,
                },
            );
        }
        opens.push(
            &table,
            Open {
                id: 1,
                start: 5,
                matched: 16,
            },
        );
        assert_eq!(opens.list.len(), 2);
        opens.drop_from(4);
        assert_eq!(opens.list.len(), 1);
        assert_eq!(opens.list[0].oldest, 0);
        assert_eq!(opens.list[0].newer, [2]);
        opens.drop_from(0);
        assert!(opens.is_empty());
    }

    #[test]
    fn a_periodic_run_is_one_group() {
        let p = "61".repeat(500);
        let table = table(&[p.as_bytes()]);
        let mut opens = Opens::default();
        let input = "61".repeat(400);
        for (at, &byte) in input.as_bytes().iter().enumerate() {
            opens.step(&table, byte, |_, _| panic!("never complete"));
            if at + 1 >= 32 && (at + 1 - 32) % 2 == 0 {
                let start = (at + 1 - 32) as u64;
                opens.push(
                    &table,
                    Open {
                        id: 0,
                        start,
                        matched: 32,
                    },
                );
            }
        }
        assert_eq!(opens.list.len(), 1);
        assert_eq!(opens.earliest(), Some(0));
    }

    /// Spans (the longer patterns of one prefix verified together, as
    /// `Table::spanned` marks them) complete every pattern at every start
    /// and leave open what brute force does: many patterns that share a
    /// long head, some the beginning of others, in random input that holds
    /// them whole, cut short and changed, stepped a byte at a time and
    /// advanced over slices.
    #[test]
    fn spans_match_every_start() {
        let mut next = crate::engine::xorshift(17);
        let head = b"{\"type\": \"svc\", \"id\": \"";
        let mut patterns: Vec<Vec<u8>> = Vec::new();
        while patterns.len() < 60 {
            let mut p = head.to_vec();
            if !patterns.is_empty() && next().is_multiple_of(3) {
                p = patterns[(next() % patterns.len() as u64) as usize].clone();
            }
            for _ in 0..1 + next() % 6 {
                p.push(b"ab\"x"[(next() % 4) as usize]);
            }
            if !patterns.contains(&p) {
                patterns.push(p);
            }
        }
        let refs: Vec<&[u8]> = patterns.iter().map(|p| &p[..]).collect();
        let table = table(&refs);
        let prefix = &head[..PREFIX];
        let spanned = (0..table.len())
            .find_map(|id| table.spanned(id))
            .expect("60 patterns of one prefix, none periodic");
        assert_eq!(spanned.1 - spanned.0, 60);
        for round in 0..40 {
            let mut input = Vec::new();
            while input.len() < 400 {
                let p = &patterns[(next() % 60) as usize];
                let cut = if next().is_multiple_of(2) {
                    p.len()
                } else {
                    (next() as usize) % p.len()
                };
                input.extend_from_slice(&p[..cut]);
                if next().is_multiple_of(4) {
                    input.push(b"ab\"x{"[(next() % 5) as usize]);
                }
            }
            let slices = round % 2 == 1;
            let mut opens = Opens::default();
            let mut found = Vec::new();
            let mut at = 0;
            while at < input.len() {
                let to = if slices {
                    (at + 1 + (next() % 9) as usize).min(input.len())
                } else {
                    at + 1
                };
                if slices {
                    opens.advance(&table, false, &input[at..to], at as u64, |id, start, _| {
                        found.push((id, start))
                    });
                } else {
                    opens.step(&table, input[at], |id, start| found.push((id, start)));
                }
                // Prefixes that end in what was read open (a span each).
                for end in at + 1..=to {
                    if end >= PREFIX && &input[end - PREFIX..end] == prefix {
                        let start = (end - PREFIX) as u64;
                        let mut rest = Opens::default();
                        rest.push_span(spanned, start, PREFIX as u32);
                        rest.advance(
                            &table,
                            false,
                            &input[end..to],
                            end as u64,
                            |id, start, _| found.push((id, start)),
                        );
                        opens.spans.extend(rest.spans);
                    }
                }
                at = to;
            }
            found.sort_unstable();
            let mut expected = Vec::new();
            for (id, p) in (0..table.len() as u32).map(|id| (id, table.pattern(id))) {
                for start in 0..input.len() {
                    if p.len() > PREFIX && input[start..].starts_with(p) {
                        expected.push((id, start as u64));
                    }
                }
            }
            expected.sort_unstable();
            assert_eq!(found, expected, "round {round}");
            let open_starts: Vec<u64> = (0..=input.len() - PREFIX)
                .filter(|&s| {
                    refs.iter()
                        .any(|p| p.len() > input.len() - s && p.starts_with(&input[s..]))
                })
                .map(|s| s as u64)
                .collect();
            let mut left: Vec<u64> = opens.spans.iter().map(|span| span.start).collect();
            left.sort_unstable();
            assert_eq!(left, open_starts, "round {round}");
        }
    }
}
