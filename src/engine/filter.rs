//! The seed filter's pass over a large push (see `seeds.rs`): it finds
//! every complete candidate from sampled grams, then steps the automata only
//! over the tail where a candidate could still be open, so that what is held
//! is exactly what stepping every byte would hold.

use std::collections::BTreeMap;

use super::Engine;
use super::fragments::Run;
use super::matcher::{Candidate, Input, Matcher, offer, offer_fragment};
use super::seeds::{GRAM, Seed, gram, has_line_break, view_gram};
use crate::FRAGMENT;
use crate::form::Form;

impl Matcher {
    /// Finds the same candidates as [`Matcher::scan`] over everything held,
    /// without stepping the automata over every byte: the seed filters find
    /// every complete candidate, then the automata are stepped afresh over
    /// the last stretch, where a candidate could still be open, so that
    /// their states (and so what is held) are exactly those of `scan`.
    pub(super) fn scan_filtered(&mut self, engine: &Engine, input: Input<'_>) {
        self.end = input.end();
        let first = input.index(self.decided);
        let open = &input.bytes[first..];
        filter_direct(engine, open, self.decided, &mut self.candidates);
        filter_view(engine, open, self.decided, &mut self.candidates);
        // A candidate still open at the end starts within the last
        // `longest` view bytes (which span at least `longest` bytes).
        let mut from = open.len().saturating_sub(engine.longest);
        // One more view byte to take in for each line break in there.
        let mut missing = open[from..]
            .iter()
            .filter(|&&b| b == b'\r' || b == b'\n')
            .count();
        while from > 0 && missing > 0 {
            from -= 1;
            if !matches!(open[from], b'\r' | b'\n') {
                missing -= 1;
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
        self.reset_automata(engine);
        self.runs.clear();
        self.scan(engine, input, first + from);
    }
}

/// Direct patterns and fragments of `input` (which starts at position
/// `base`), from grams at sampled positions.
fn filter_direct(
    engine: &Engine,
    input: &[u8],
    base: u64,
    candidates: &mut BTreeMap<u64, Candidate>,
) {
    let index = &engine.direct_seeds;
    if index.is_empty() {
        return;
    }
    // Per secret, where its fragments are known up to: the next sampled
    // gram of a run finds the same run.
    let mut walked: Vec<(u32, usize)> = Vec::new();
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
                Seed::Window { secret } => {
                    let done = walked.iter().find(|w| w.0 == secret).map_or(0, |w| w.1);
                    if at < done {
                        continue;
                    }
                    // Windows that hold this gram start from 8 bytes
                    // back; walk from there until the run dies.
                    let from = at.saturating_sub(GRAM).max(done);
                    let to = walk_fragments(engine, secret, input, from, at, |p, len| {
                        let open = Input { bytes: input, base };
                        let (p, len) = (base + p as u64, len as u64);
                        offer_fragment(engine, candidates, open, base, secret, p, len);
                    });
                    match walked.iter_mut().find(|w| w.0 == secret) {
                        Some(w) => w.1 = to,
                        None => walked.push((secret, to)),
                    }
                }
            }
        }
        at += index.stride;
    }
}

/// Base64 and hex patterns on the CR/LF-free view of `input` (which starts
/// at position `base`), from view grams at sampled positions.
fn filter_view(
    engine: &Engine,
    input: &[u8],
    base: u64,
    candidates: &mut BTreeMap<u64, Candidate>,
) {
    let index = &engine.view_seeds;
    if index.is_empty() {
        return;
    }
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

/// The fragments of `secret` that start at `from` or later in `input`,
/// walked until every start up to `past` is final (or the input ends): each
/// final one goes to `found(index, length)`. Returns where the fragments are
/// known up to: a later start has a run still shorter than 16 bytes, or one
/// that reached the end of the input and could grow (left to the automata).
fn walk_fragments(
    engine: &Engine,
    secret: u32,
    input: &[u8],
    from: usize,
    past: usize,
    mut found: impl FnMut(usize, usize),
) -> usize {
    let sam = engine.secrets[secret as usize].sam();
    let mut run = Run::empty(secret);
    let mut at = from;
    while at < input.len() {
        run.step(sam, at as u64, input[at], |p, len| {
            found(p as usize, len as usize)
        });
        at += 1;
        // Stop once every start up to `past` is final and no fragment is in
        // progress (a run left in progress would be walked again by the
        // next sampled gram).
        let start = at - run.len() as usize;
        if start > past && run.len() < FRAGMENT as u64 {
            return start;
        }
    }
    run.settle(sam, at as u64, |p, len| found(p as usize, len as usize));
    at
}
