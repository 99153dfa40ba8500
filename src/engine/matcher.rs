//! The matching state of one stream, SPEC §3 and §4. Both automata are
//! stepped once per input byte, whatever the chunking; candidates are kept
//! by start position; a match is decided as soon as nothing that can still
//! arrive could change it, and only the bytes that could still become part
//! of a match are held.

use std::collections::{BTreeMap, VecDeque};

use aho_corasick::automaton::StateID;

use super::Engine;
use super::seeds::{GRAM, Seed, gram, has_line_break, view_gram};
use crate::FRAGMENT;
use crate::form::{Form, Hit};

/// The best candidate known at one start position.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Candidate {
    /// Span in original input bytes.
    len: u64,
    form: Form,
    secret: u32,
}

impl Candidate {
    /// SPEC §3: the longest, then the earlier form, then the earlier secret.
    fn beats(&self, other: &Candidate) -> bool {
        (other.len, self.form, self.secret) < (self.len, other.form, other.secret)
    }
}

/// A fragment window found at `start`, being extended along its value.
struct Extension {
    start: u64,
    secret: u32,
    /// Offset of the window in the value.
    offset: u32,
    /// Index in the value of the next byte to compare.
    next: u32,
}

/// Bytes scanned before candidates are decided and output is emitted, so a
/// large push holds little.
const BLOCK: usize = 256 * 1024;

/// The input as the matcher sees it: `bytes[0]` is at position `base`, at
/// or before the first undecided byte, and `bytes` runs to the end of the
/// input so far.
#[derive(Clone, Copy)]
struct Input<'a> {
    bytes: &'a [u8],
    base: u64,
}

impl Input<'_> {
    fn index(&self, position: u64) -> usize {
        (position - self.base) as usize
    }

    fn end(&self) -> u64 {
        self.base + self.bytes.len() as u64
    }
}

pub(crate) struct Matcher {
    /// Everything before this position is decided and emitted.
    decided: u64,
    /// Bytes consumed so far.
    end: u64,
    direct_state: StateID,
    view_state: StateID,
    /// Positions of the CR and LF bytes at or after `decided`.
    line_breaks: VecDeque<u64>,
    candidates: BTreeMap<u64, Candidate>,
    extensions: Vec<Extension>,
    /// Per secret, per form: matches replaced.
    counts: Vec<[u64; 8]>,
}

impl Matcher {
    pub(crate) fn new(engine: &Engine) -> Matcher {
        Matcher {
            decided: 0,
            end: 0,
            direct_state: engine.direct.start(),
            view_state: engine.view.start(),
            line_breaks: VecDeque::new(),
            candidates: BTreeMap::new(),
            extensions: Vec::new(),
            counts: vec![[0; 8]; engine.secrets.len()],
        }
    }

    /// Bytes held: input that could still become part of a match.
    pub(crate) fn held(&self) -> usize {
        (self.end - self.decided) as usize
    }

    /// Everything before this position is decided and emitted.
    pub(crate) fn decided(&self) -> u64 {
        self.decided
    }

    /// Scans the bytes of `data` not scanned before and appends to `out`
    /// every byte that is decided. `data[0]` is at position `base`, at or
    /// before [`Matcher::decided`]; `data` runs to the end of the input.
    pub(crate) fn feed(&mut self, engine: &Engine, data: &[u8], base: u64, out: &mut Vec<u8>) {
        // Below this, stepping the automata over every byte costs less than
        // filtering and then stepping over the last `longest` bytes anyway.
        let filter_from = 4 * engine.longest + 256;
        let mut done = (self.end - base) as usize;
        while done < data.len() {
            let stop = (done + BLOCK).min(data.len());
            let input = Input {
                bytes: &data[..stop],
                base,
            };
            if stop - done >= filter_from {
                self.scan_filtered(engine, input);
            } else {
                self.scan(engine, input, done);
            }
            self.decide(engine, input, out, false);
            done = stop;
        }
    }

    /// Decides everything held as if the input ended here, appends it to
    /// `out`, and starts afresh: no later match can begin before this point.
    /// `data` and `base` as for [`Matcher::feed`], with nothing new in it.
    pub(crate) fn finish(&mut self, engine: &Engine, data: &[u8], base: u64, out: &mut Vec<u8>) {
        let input = Input { bytes: data, base };
        debug_assert_eq!(input.end(), self.end);
        self.finish_extensions();
        self.decide(engine, input, out, true);
        self.direct_state = engine.direct.start();
        self.view_state = engine.view.start();
        self.line_breaks.clear();
    }

    /// Hits so far: by secret index, then form order.
    pub(crate) fn hits(&self, engine: &Engine) -> Vec<Hit> {
        let mut hits = Vec::new();
        for (secret, counts) in engine.secrets.iter().zip(&self.counts) {
            for form in Form::ALL {
                let count = counts[form as usize];
                if count > 0 {
                    hits.push(Hit {
                        name: secret.name.clone(),
                        form,
                        count,
                    });
                }
            }
        }
        hits
    }

    /// Steps both automata over `input.bytes[from..]`, collecting candidates.
    fn scan(&mut self, engine: &Engine, input: Input<'_>, from: usize) {
        for (i, &byte) in input.bytes.iter().enumerate().skip(from) {
            let at = input.base + i as u64;
            if !self.extensions.is_empty() {
                self.extend(engine, at, byte);
            }
            self.direct_state = engine.direct.next(self.direct_state, byte);
            if engine.direct.is_match(self.direct_state) {
                self.direct_matches(engine, at);
            }
            if byte == b'\r' || byte == b'\n' {
                self.line_breaks.push_back(at);
            } else {
                self.view_state = engine.view.next(self.view_state, byte);
                if engine.view.is_match(self.view_state) {
                    self.view_matches(engine, at);
                }
            }
        }
        self.end = input.end();
    }

    /// Finds the same candidates as [`Matcher::scan`] over everything held,
    /// without stepping the automata over every byte: the seed filters find
    /// every complete candidate, then the automata are stepped afresh over
    /// the last stretch, where a candidate could still be open, so that
    /// their states (and so what is held) are exactly those of `scan`.
    fn scan_filtered(&mut self, engine: &Engine, input: Input<'_>) {
        self.end = input.end();
        let first = input.index(self.decided);
        let open = &input.bytes[first..];
        self.filter_direct(engine, open);
        self.filter_view(engine, open);
        // A candidate still open at the end starts within the last
        // `longest` view bytes (which span at least `longest` bytes).
        let mut from = open.len();
        let mut view_bytes = 0;
        while from > 0 && view_bytes < engine.longest {
            from -= 1;
            if !matches!(open[from], b'\r' | b'\n') {
                view_bytes += 1;
            }
        }
        // Only where a pattern's first gram starts (or too few bytes remain
        // to tell) can a candidate still be open at the end.
        while from < open.len() && !could_start_open(engine, open, from) {
            from += 1;
        }
        // Stepped afresh from there, the automata find every candidate that
        // starts there or later, and none before: those are complete and the
        // filters found them.
        self.direct_state = engine.direct.start();
        self.view_state = engine.view.start();
        self.extensions.clear();
        self.line_breaks.clear();
        self.scan(engine, input, first + from);
    }

    /// Direct patterns and fragments, from grams at sampled positions.
    fn filter_direct(&mut self, engine: &Engine, input: &[u8]) {
        let index = &engine.direct_seeds;
        if index.is_empty() {
            return;
        }
        let Matcher {
            decided,
            candidates,
            ..
        } = self;
        let base = *decided;
        // Fragment runs already offered, as (secret, alignment, run end): the
        // next sampled gram of a run finds the same run.
        let mut runs: Vec<(u32, isize, usize)> = Vec::new();
        let mut at = 0;
        while at + GRAM <= input.len() {
            for &seed in index.get(gram(&input[at..])) {
                match seed {
                    Seed::Pattern { id, offset } => {
                        let pattern = &engine.direct_patterns[id as usize];
                        let Some(start) = at.checked_sub(offset as usize) else {
                            continue;
                        };
                        let end = start + pattern.len();
                        // One that runs past the input is found by the
                        // automaton if it completes.
                        let owner = engine.direct_entries[id as usize].owner;
                        if let Some((form, secret)) = owner
                            && end <= input.len()
                            && input[start..end] == pattern[..]
                        {
                            let (start, len) = (base + start as u64, pattern.len() as u64);
                            offer(candidates, start, len, form, secret);
                        }
                    }
                    Seed::Window { secret, offset } => {
                        let value = &engine.secrets[secret as usize].value;
                        let offset = offset as usize;
                        let alignment = at as isize - offset as isize;
                        if runs
                            .iter()
                            .any(|&(s, a, end)| s == secret && a == alignment && at < end)
                        {
                            continue;
                        }
                        let mut back = 0;
                        while back < at
                            && back < offset
                            && input[at - back - 1] == value[offset - back - 1]
                        {
                            back += 1;
                        }
                        let mut ahead = GRAM;
                        while at + ahead < input.len()
                            && offset + ahead < value.len()
                            && input[at + ahead] == value[offset + ahead]
                        {
                            ahead += 1;
                        }
                        let (run_start, run_end) = (at - back, at + ahead);
                        runs.retain(|&(_, _, end)| end > at);
                        runs.push((secret, alignment, run_end));
                        // A run that reached the input's end with value bytes
                        // left may grow: the automaton tracks it.
                        let open = run_end == input.len() && offset + ahead < value.len();
                        if open || run_end - run_start < FRAGMENT {
                            continue;
                        }
                        let value_start = offset - back;
                        let starts = &input[run_start..=run_end - FRAGMENT];
                        for (p, &first) in (run_start..).zip(starts) {
                            // No candidate starts at a line break.
                            if first == b'\r' || first == b'\n' {
                                continue;
                            }
                            let len = run_end - p;
                            let whole = value_start + (p - run_start) == 0 && len == value.len();
                            let form = if whole { Form::Raw } else { Form::Fragment };
                            offer(candidates, base + p as u64, len as u64, form, secret);
                        }
                    }
                }
            }
            at += index.stride;
        }
    }

    /// Base64 and hex patterns on the CR/LF-free view, from view grams at
    /// sampled positions.
    fn filter_view(&mut self, engine: &Engine, input: &[u8]) {
        let index = &engine.view_seeds;
        if index.is_empty() {
            return;
        }
        let Matcher {
            decided,
            candidates,
            ..
        } = self;
        let base = *decided;
        let is_break = |b: u8| b == b'\r' || b == b'\n';
        let mut at = 0;
        while at < input.len() {
            let Some((word, first)) = view_gram(input, at) else {
                break;
            };
            for &seed in index.get(word) {
                let Seed::Pattern { id, offset } = seed else {
                    continue;
                };
                // Back `offset` view bytes to the start.
                let mut start = first;
                let mut left = offset;
                while left > 0 && start > 0 {
                    start -= 1;
                    if !is_break(input[start]) {
                        left -= 1;
                    }
                }
                if left > 0 {
                    continue;
                }
                let pattern = &engine.view_patterns[id as usize];
                let mut pos = start;
                let mut matched = 0;
                while matched < pattern.len() && pos < input.len() {
                    let b = input[pos];
                    pos += 1;
                    if is_break(b) {
                        continue;
                    }
                    if b != pattern[matched] {
                        break;
                    }
                    matched += 1;
                }
                if matched < pattern.len() {
                    continue;
                }
                let span = (pos - start) as u64;
                let entry = &engine.view_entries[id as usize];
                if span > pattern.len() as u64 {
                    offer(
                        candidates,
                        base + start as u64,
                        span,
                        Form::Wrapped,
                        entry.wrapped_owner,
                    );
                } else if let Some((form, secret)) = entry.owner {
                    offer(candidates, base + start as u64, span, form, secret);
                }
            }
            at += index.stride;
        }
    }

    /// Patterns of the direct automaton ending at `at`.
    fn direct_matches(&mut self, engine: &Engine, at: u64) {
        for (id, len) in engine.direct.matches(self.direct_state) {
            let start = at + 1 - len as u64;
            if start < self.decided {
                continue;
            }
            let entry = &engine.direct_entries[id];
            if let Some((form, secret)) = entry.owner {
                self.offer(start, len as u64, form, secret);
            }
            for &(secret, offset) in &entry.windows {
                let next = offset + FRAGMENT as u32;
                if next as usize == engine.secrets[secret as usize].value.len() {
                    self.offer(start, FRAGMENT as u64, Form::Fragment, secret);
                } else {
                    self.extensions.push(Extension {
                        start,
                        secret,
                        offset,
                        next,
                    });
                }
            }
        }
    }

    /// Patterns of the view automaton whose last byte is at `at`.
    fn view_matches(&mut self, engine: &Engine, at: u64) {
        for (id, len) in engine.view.matches(self.view_state) {
            let Some(start) = self.view_start(at, len as u64) else {
                continue;
            };
            let span = at + 1 - start;
            let entry = &engine.view_entries[id];
            if span > len as u64 {
                self.offer(start, span, Form::Wrapped, entry.wrapped_owner);
            } else if let Some((form, secret)) = entry.owner {
                self.offer(start, span, form, secret);
            }
        }
    }

    /// The original position of the first of `len` view bytes ending with
    /// the (non line break) byte at `last`; `None` when it lies before
    /// `decided`.
    fn view_start(&self, last: u64, len: u64) -> Option<u64> {
        let mut start = (last + 1).checked_sub(len)?;
        for &line_break in self.line_breaks.iter().rev() {
            if line_break > last {
                continue;
            }
            if line_break < start {
                break;
            }
            start = start.checked_sub(1)?;
        }
        (start >= self.decided).then_some(start)
    }

    /// Extends every fragment in progress by the byte at `at`.
    fn extend(&mut self, engine: &Engine, at: u64, byte: u8) {
        let mut i = 0;
        while i < self.extensions.len() {
            let e = &mut self.extensions[i];
            let value = &engine.secrets[e.secret as usize].value;
            if value[e.next as usize] == byte {
                e.next += 1;
                if (e.next as usize) < value.len() {
                    i += 1;
                    continue;
                }
                // Reached the value's end: a window at offset 0 that got
                // here covers the whole value, a raw match.
                let form = if e.offset == 0 {
                    Form::Raw
                } else {
                    Form::Fragment
                };
                let (start, secret) = (e.start, e.secret);
                self.extensions.swap_remove(i);
                self.offer(start, at + 1 - start, form, secret);
            } else {
                let (start, secret) = (e.start, e.secret);
                self.extensions.swap_remove(i);
                self.offer(start, at - start, Form::Fragment, secret);
            }
        }
    }

    /// At the end of the input, fragments in progress stop where they are.
    fn finish_extensions(&mut self) {
        let end = self.end;
        for e in std::mem::take(&mut self.extensions) {
            self.offer(e.start, end - e.start, Form::Fragment, e.secret);
        }
    }

    fn offer(&mut self, start: u64, len: u64, form: Form, secret: u32) {
        offer(&mut self.candidates, start, len, form, secret);
    }

    /// The earliest position at or after `decided` where the input so far
    /// could still become a candidate longer than any complete one there.
    fn pending(&self, engine: &Engine) -> Option<u64> {
        let open = self.end - self.decided;
        let mut earliest = None::<u64>;
        let mut consider = |p: u64| {
            earliest = Some(earliest.map_or(p, |e| e.min(p)));
        };
        let direct = engine.direct.pending(self.direct_state, open);
        if direct > 0 {
            consider(self.end - direct);
        }
        let view_open = open - self.line_breaks.len() as u64;
        let view = engine.view.pending(self.view_state, view_open);
        if view > 0 {
            let mut last = self.end - 1;
            for &line_break in self.line_breaks.iter().rev() {
                if line_break != last {
                    break;
                }
                last -= 1;
            }
            if let Some(start) = self.view_start(last, view) {
                consider(start);
            }
        }
        for e in &self.extensions {
            consider(e.start);
        }
        earliest
    }

    /// Replaces, leftmost first, every candidate that nothing still to come
    /// could change, and emits everything before the earliest pending
    /// position (everything, when `all`).
    fn decide(&mut self, engine: &Engine, input: Input<'_>, out: &mut Vec<u8>, all: bool) {
        let mut emitted = input.index(self.decided);
        let mut pending = if all { None } else { self.pending(engine) };
        while let Some((&start, &best)) = self.candidates.first_key_value() {
            if pending.is_some_and(|p| start >= p) {
                break;
            }
            let from = input.index(start);
            let to = from + best.len as usize;
            out.extend_from_slice(&input.bytes[emitted..from]);
            self.replace(engine, &best, &input.bytes[from..to], out);
            emitted = to;
            let end = start + best.len;
            while self
                .candidates
                .first_key_value()
                .is_some_and(|(&s, _)| s < end)
            {
                self.candidates.pop_first();
            }
            self.advance_to(end);
            if pending.is_some_and(|p| p < end) {
                // The pending start lies inside this match: look again from
                // its end.
                pending = self.pending(engine);
            }
        }
        let stop = match pending {
            Some(p) => input.index(p),
            None => input.bytes.len(),
        };
        if stop > emitted {
            out.extend_from_slice(&input.bytes[emitted..stop]);
            self.advance_to(input.base + stop as u64);
        }
    }

    /// Everything before `position` is decided and emitted.
    fn advance_to(&mut self, position: u64) {
        self.decided = position;
        let decided = self.decided;
        while self.line_breaks.front().is_some_and(|&p| p < decided) {
            self.line_breaks.pop_front();
        }
        self.extensions.retain(|e| e.start >= decided);
    }

    fn replace(&mut self, engine: &Engine, best: &Candidate, span: &[u8], out: &mut Vec<u8>) {
        self.counts[best.secret as usize][best.form as usize] += 1;
        if engine.same_length {
            out.extend(span.iter().map(|&b| match b {
                b'\r' | b'\n' => b,
                _ => b'*',
            }));
            return;
        }
        let secret = &engine.secrets[best.secret as usize];
        out.extend_from_slice(if best.form == Form::Raw {
            &secret.raw_replacement
        } else {
            &secret.redaction
        });
    }
}

/// Records a candidate, keeping the best one per start position.
fn offer(candidates: &mut BTreeMap<u64, Candidate>, start: u64, len: u64, form: Form, secret: u32) {
    let candidate = Candidate { len, form, secret };
    candidates
        .entry(start)
        .and_modify(|best| {
            if candidate.beats(best) {
                *best = candidate;
            }
        })
        .or_insert(candidate);
}

/// Whether a candidate starting at `at` could still be open at the end of
/// `input`: fewer than 8 bytes (or view bytes) remain, or a pattern's first
/// 8 bytes start here.
fn could_start_open(engine: &Engine, input: &[u8], at: usize) -> bool {
    if input[at] == b'\r' || input[at] == b'\n' {
        return false;
    }
    if at + GRAM > input.len() {
        return true;
    }
    let word = gram(&input[at..]);
    let starts = |word: u64| !engine.starts.get(word).is_empty();
    if !has_line_break(word) {
        // The direct gram and the view gram are the same bytes.
        return starts(word);
    }
    starts(word) || view_gram(input, at).is_none_or(|(view, _)| starts(view))
}
