//! The matching state of one stream, SPEC §3 and §4. Small pushes step both
//! automata over every byte; large ones go through the seed filter
//! (`filter.rs`), which finds the same candidates. Candidates are kept by
//! start position; a match is decided as soon as nothing that can still
//! arrive could change it, and only the bytes that could still become part
//! of a match are held.

use std::collections::{BTreeMap, VecDeque};

use aho_corasick::automaton::StateID;

use super::Engine;
use super::fragments::Run;
use crate::FRAGMENT;
use crate::form::{Form, Hit};

/// The best candidate known at one start position.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Candidate {
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

/// Bytes scanned before candidates are decided and output is emitted, so a
/// large push holds little.
const BLOCK: usize = 256 * 1024;

/// The input as the matcher sees it: `bytes[0]` is at position `base`, at
/// or before the first undecided byte, and `bytes` runs to the end of the
/// input so far.
#[derive(Clone, Copy)]
pub(super) struct Input<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) base: u64,
}

impl Input<'_> {
    pub(super) fn index(&self, position: u64) -> usize {
        (position - self.base) as usize
    }

    pub(super) fn end(&self) -> u64 {
        self.base + self.bytes.len() as u64
    }
}

pub(crate) struct Matcher {
    /// Everything before this position is decided and emitted.
    pub(super) decided: u64,
    /// Bytes consumed so far.
    pub(super) end: u64,
    pub(super) direct_state: StateID,
    pub(super) view_state: StateID,
    /// Positions of the CR and LF bytes at or after `decided`.
    pub(super) line_breaks: VecDeque<u64>,
    pub(super) candidates: BTreeMap<u64, Candidate>,
    /// Fragment runs in progress, at most one per secret.
    pub(super) runs: Vec<Run>,
    /// Per secret, per form: matches replaced.
    pub(super) counts: Vec<[u64; 8]>,
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
            runs: Vec::new(),
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
        self.finish_runs(engine, input);
        self.decide(engine, input, out, true);
        self.reset_automata(engine);
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

    /// The first hit by secret index, then form order: (secret, form).
    pub(crate) fn first_hit(&self) -> Option<(usize, Form)> {
        self.counts.iter().enumerate().find_map(|(secret, counts)| {
            let form = Form::ALL.into_iter().find(|&f| counts[f as usize] > 0)?;
            Some((secret, form))
        })
    }

    /// Steps both automata over `input.bytes[from..]`, collecting candidates.
    pub(super) fn scan(&mut self, engine: &Engine, input: Input<'_>, from: usize) {
        for (i, &byte) in input.bytes.iter().enumerate().skip(from) {
            let at = input.base + i as u64;
            if !self.runs.is_empty() {
                self.step_runs(engine, input, at, byte);
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
            for &secret in &entry.windows {
                if self.runs.iter().any(|r| r.secret == secret) {
                    continue; // the run already covers this window
                }
                let sam = engine.secrets[secret as usize].sam();
                self.runs
                    .push(Run::new(sam, secret, &engine.direct_patterns[id]));
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

    /// Every fragment run in progress reads the byte at `at`; a run that
    /// falls below 16 bytes ends (a new window starts it again).
    fn step_runs(&mut self, engine: &Engine, input: Input<'_>, at: u64, byte: u8) {
        let Matcher {
            runs,
            candidates,
            decided,
            ..
        } = self;
        runs.retain_mut(|run| {
            let secret = run.secret;
            let sam = engine.secrets[secret as usize].sam();
            run.step(sam, at, byte, |p, len| {
                offer_fragment(engine, candidates, input, *decided, secret, p, len);
            });
            run.len() >= FRAGMENT as u64
        });
    }

    /// The input ends here: every fragment run stops where it is.
    fn finish_runs(&mut self, engine: &Engine, input: Input<'_>) {
        let Matcher {
            runs,
            candidates,
            decided,
            end,
            ..
        } = self;
        for run in runs.drain(..) {
            let secret = run.secret;
            run.finish(*end, |p, len| {
                offer_fragment(engine, candidates, input, *decided, secret, p, len);
            });
        }
    }

    /// Offers the fragments of the runs in progress that cannot grow any
    /// more, and returns the earliest start of one that can.
    fn settle_runs(&mut self, engine: &Engine, input: Input<'_>) -> Option<u64> {
        let Matcher {
            runs,
            candidates,
            decided,
            end,
            ..
        } = self;
        let mut earliest: Option<u64> = None;
        for run in runs.iter() {
            let secret = run.secret;
            let sam = engine.secrets[secret as usize].sam();
            let growing = run.settle(sam, *end, |p, len| {
                offer_fragment(engine, candidates, input, *decided, secret, p, len);
            });
            // The first start from there that can begin a candidate.
            let Some(mut p) = growing.map(|p| p.max(*decided)) else {
                continue;
            };
            while p + FRAGMENT as u64 <= *end
                && matches!(input.bytes[input.index(p)], b'\r' | b'\n')
            {
                p += 1;
            }
            if p + FRAGMENT as u64 <= *end {
                earliest = Some(earliest.map_or(p, |e| e.min(p)));
            }
        }
        earliest
    }

    fn offer(&mut self, start: u64, len: u64, form: Form, secret: u32) {
        offer(&mut self.candidates, start, len, form, secret);
    }

    /// The earliest position at or after `decided` where the input so far
    /// could still become a candidate longer than any complete one there.
    fn pending(
        &mut self,
        engine: &Engine,
        input: Input<'_>,
        fragments: Option<u64>,
    ) -> Option<u64> {
        let open = self.end - self.decided;
        let view_open = open - self.line_breaks.len() as u64;
        let (direct, view) = match (
            engine.direct.pending(self.direct_state, open),
            engine.view.pending(self.view_state, view_open),
        ) {
            (Some(direct), Some(view)) => (direct, view),
            _ => {
                // A state stands for input from before `decided`: step the
                // automata afresh over what is held (then they cannot).
                self.restart_automata(engine, input);
                let view_open = open - self.line_breaks.len() as u64;
                let direct = engine.direct.pending(self.direct_state, open);
                let view = engine.view.pending(self.view_state, view_open);
                (
                    direct.expect("states from decided on"),
                    view.expect("states from decided on"),
                )
            }
        };
        let mut earliest = fragments;
        let mut consider = |p: u64| {
            earliest = Some(earliest.map_or(p, |e| e.min(p)));
        };
        if direct > 0 {
            consider(self.end - direct);
        }
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
        earliest
    }

    /// Replaces, leftmost first, every candidate that nothing still to come
    /// could change, and emits everything before the earliest pending
    /// position (everything, when `all`).
    fn decide(&mut self, engine: &Engine, input: Input<'_>, out: &mut Vec<u8>, all: bool) {
        let mut emitted = input.index(self.decided);
        let mut pending = if all {
            None
        } else {
            let fragments = self.settle_runs(engine, input);
            self.pending(engine, input, fragments)
        };
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
                let fragments = self.settle_runs(engine, input);
                pending = self.pending(engine, input, fragments);
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

    /// Steps both automata afresh over the undecided input, finding nothing
    /// new (every candidate there is known) but forgetting what started
    /// before `decided`: a match just decided there.
    fn restart_automata(&mut self, engine: &Engine, input: Input<'_>) {
        self.reset_automata(engine);
        for (i, &byte) in input
            .bytes
            .iter()
            .enumerate()
            .skip(input.index(self.decided))
        {
            self.direct_state = engine.direct.next(self.direct_state, byte);
            if byte == b'\r' || byte == b'\n' {
                self.line_breaks.push_back(input.base + i as u64);
            } else {
                self.view_state = engine.view.next(self.view_state, byte);
            }
        }
    }

    /// Both automata back at their start: nothing read yet.
    pub(super) fn reset_automata(&mut self, engine: &Engine) {
        self.direct_state = engine.direct.start();
        self.view_state = engine.view.start();
        self.line_breaks.clear();
    }

    /// Everything before `position` is decided and emitted.
    fn advance_to(&mut self, position: u64) {
        self.decided = position;
        let decided = self.decided;
        while self.line_breaks.front().is_some_and(|&p| p < decided) {
            self.line_breaks.pop_front();
        }
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
pub(super) fn offer(
    candidates: &mut BTreeMap<u64, Candidate>,
    start: u64,
    len: u64,
    form: Form,
    secret: u32,
) {
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

/// Offers the fragment of `secret` of `len` bytes at position `start`:
/// raw when it is the whole value. Nothing before `decided` is offered, and
/// no candidate starts at a CR or LF.
pub(super) fn offer_fragment(
    engine: &Engine,
    candidates: &mut BTreeMap<u64, Candidate>,
    input: Input<'_>,
    decided: u64,
    secret: u32,
    start: u64,
    len: u64,
) {
    if start < decided || matches!(input.bytes[input.index(start)], b'\r' | b'\n') {
        return;
    }
    let whole = len as usize == engine.secrets[secret as usize].value.len();
    let form = if whole { Form::Raw } else { Form::Fragment };
    offer(candidates, start, len, form, secret);
}
