//! The seed filter's pass over a large push (see `seeds.rs`): from grams at
//! sampled positions it finds every complete candidate, and everything that
//! reaches the end of the input from before the last [`TAIL`] view bytes
//! (open verifications, the fragment run); the stepper then starts afresh
//! on that tail, so that what is held is exactly what stepping every byte
//! would hold, and the cost of a push does not depend on how long the
//! patterns are.

use super::Engine;
use super::candidates::Candidates;
use super::fragments::Run;
use super::matcher::{Input, offer_fragment, view_owner};
use super::opens::Open;
use super::seeds::{GRAM, MAX_STRIDE, gram, view_gram};
use super::table::PREFIX;
use crate::FRAGMENT;

/// View bytes at the end that the stepper steps over after the filter:
/// anything still open that starts before them is longer than a prefix and
/// holds a sampled gram, so the filter finds it.
pub(crate) const TAIL: usize = PREFIX + MAX_STRIDE + GRAM;

/// What reaches the end of the input from before the tail.
#[derive(Default)]
pub(super) struct Found {
    pub(super) direct_opens: Vec<Open>,
    pub(super) view_opens: Vec<Open>,
    /// The fragment run at the end, when a walk reached it.
    pub(super) run: Option<Run>,
}

/// Where the tail of `input` starts: the last [`TAIL`] view bytes (all of
/// it when it has fewer).
pub(super) fn tail_start(input: &[u8]) -> usize {
    let mut from = input.len();
    let mut view = 0;
    while from > 0 && view < TAIL {
        from -= 1;
        if !matches!(input[from], b'\r' | b'\n') {
            view += 1;
        }
    }
    from
}

/// Every candidate of `input` (which starts at position `base`, the first
/// undecided byte) into `candidates`, and what reaches its end from before
/// `tail`.
pub(super) fn find(
    engine: &Engine,
    input: &[u8],
    base: u64,
    tail: usize,
    candidates: &mut Candidates,
) -> Found {
    let mut found = Found::default();
    found.run = filter_direct(
        engine,
        input,
        base,
        tail,
        candidates,
        &mut found.direct_opens,
    );
    filter_view(engine, input, base, tail, candidates, &mut found.view_opens);
    found
}

/// Direct patterns and fragments of `input`, from grams at sampled
/// positions; returns the fragment run when a walk reached the end.
fn filter_direct(
    engine: &Engine,
    input: &[u8],
    base: u64,
    tail: usize,
    candidates: &mut Candidates,
    opens: &mut Vec<Open>,
) -> Option<Run> {
    let index = &engine.direct_seeds;
    let grams = &engine.value_grams;
    if index.is_empty() && grams.is_empty() {
        return None;
    }
    let table = &engine.direct_table;
    // Where fragments are known up to: the next sampled gram of a run
    // finds the same run.
    let mut walked = 0;
    let mut at_end = None;
    let mut at = 0;
    while at + GRAM <= input.len() {
        let word = gram(&input[at..]);
        for &seed in index.get(word) {
            let Some(start) = at.checked_sub(seed.offset as usize) else {
                continue;
            };
            let pattern = table.pattern(seed.id);
            let end = start + pattern.len();
            if end <= input.len() {
                if input[start..end] == *pattern {
                    let (form, secret) = table.owners[seed.id as usize].plain;
                    candidates.offer(base + start as u64, pattern.len() as u64, form, secret);
                }
            } else if start < tail && input[start..] == pattern[..input.len() - start] {
                // Still open: the stepper takes it on from the tail.
                opens.push(Open {
                    id: seed.id,
                    start: base + start as u64,
                    matched: (tail - start) as u32,
                });
            }
        }
        if at >= walked && !grams.is_empty() && grams.may_hold(word) {
            // Windows that hold this gram start from 8 bytes back; walk
            // from there until the run dies.
            let from = at.saturating_sub(GRAM).max(walked);
            let open = Input { bytes: input, base };
            match walk_fragments(engine, open, from, at, candidates) {
                Walk::Stopped(to) => walked = to,
                Walk::End(run) => {
                    walked = input.len();
                    at_end = Some(run);
                }
            }
        }
        at += index.stride;
    }
    at_end
}

/// Base64 and hex patterns on the CR/LF-free view of `input`, from view
/// grams at sampled positions.
fn filter_view(
    engine: &Engine,
    input: &[u8],
    base: u64,
    tail: usize,
    candidates: &mut Candidates,
    opens: &mut Vec<Open>,
) {
    let index = &engine.view_seeds;
    if index.is_empty() {
        return;
    }
    let table = &engine.view_table;
    let is_break = |b: u8| b == b'\r' || b == b'\n';
    let mut at = 0;
    while at < input.len() {
        let Some((word, first)) = view_gram(input, at) else {
            break;
        };
        for &seed in index.get(word) {
            // Back `offset` view bytes to the start.
            let mut start = first;
            let mut left = seed.offset;
            while left > 0 && start > 0 {
                start -= 1;
                if !is_break(input[start]) {
                    left -= 1;
                }
            }
            if left > 0 {
                continue;
            }
            let pattern = table.pattern(seed.id);
            let mut pos = start;
            let mut matched = 0;
            // View bytes matched before the tail, where the stepper starts.
            let mut before_tail = 0;
            while matched < pattern.len() && pos < input.len() {
                if pos == tail {
                    before_tail = matched;
                }
                let b = input[pos];
                pos += 1;
                if is_break(b) {
                    continue;
                }
                if b != pattern[matched] {
                    matched = usize::MAX;
                    break;
                }
                matched += 1;
            }
            if matched == pattern.len() {
                let span = (pos - start) as u64;
                let (form, secret) = view_owner(engine, seed.id, span);
                candidates.offer(base + start as u64, span, form, secret);
            } else if matched != usize::MAX && start < tail {
                // The input ended inside the pattern: still open, and the
                // stepper takes it on from the tail.
                opens.push(Open {
                    id: seed.id,
                    start: base + start as u64,
                    matched: before_tail as u32,
                });
            }
        }
        at += index.stride;
    }
}

enum Walk {
    /// Fragments are known up to here: a later start has a run still
    /// shorter than 16 bytes.
    Stopped(usize),
    /// The walk reached the end of the input with this run.
    End(Run),
}

/// The fragments that start at `from` or later in `input`, walked until
/// every start up to `past` is final (or the input ends): each final one is
/// offered.
fn walk_fragments(
    engine: &Engine,
    input: Input<'_>,
    from: usize,
    past: usize,
    candidates: &mut Candidates,
) -> Walk {
    let sam = &engine.values;
    let mut run = Run::empty();
    let mut at = from;
    let decided = input.base;
    while at < input.bytes.len() {
        let position = input.base + at as u64;
        run.step(sam, position, input.bytes[at], |f| {
            offer_fragment(engine, candidates, input, decided, f)
        });
        at += 1;
        // Stop once every start up to `past` is final and no fragment is in
        // progress (a run left in progress would be walked again by the
        // next sampled gram).
        let start = at - run.len() as usize;
        if start > past && run.len() < FRAGMENT as u64 {
            return Walk::Stopped(start);
        }
    }
    Walk::End(run)
}
