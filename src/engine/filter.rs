//! The seed filter's pass over a large push (see `seeds.rs`): from grams at
//! sampled positions it finds every complete candidate, and everything that
//! reaches the end of the input from before the last [`TAIL`] view bytes
//! (open verifications, the fragment run); the stepper then starts afresh
//! on that tail, so that what is held is exactly what stepping every byte
//! would hold, and the cost of a push does not depend on how long the
//! patterns are.

use std::cell::Cell;
use std::ops::ControlFlow;

use super::Engine;
use super::candidates::Candidates;
use super::end_breaks::EndBreaks;
use super::fragments::Run;
use super::matcher::{Input, offer_direct, offer_view};
use super::opens::{Open, Opens};
use super::prefetch::prefetch;
use super::seeds::{
    GRAM, MAX_STRIDE, gram, gram_at, has_line_break, is_break, view_bytes, view_gram,
};
use super::table::{PREFIX, Table};
use super::verify::{Outcome, Verifier};
use crate::FRAGMENT;

/// View bytes at the end that the stepper steps over after the filter:
/// anything still open that starts before them is at least a prefix long,
/// so the anchored walk from its start finds it, and holds a sampled gram
/// (at an offset below the stride, 8 bytes), so the filter looks there.
pub(crate) const TAIL: usize = max(PREFIX, MAX_STRIDE + GRAM - 1);

const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// Where the tail of `input` starts: the last [`TAIL`] view bytes (all of
/// it when it has fewer). `breaks` are those of `input`.
pub(super) fn tail_start(input: &[u8], breaks: &EndBreaks) -> usize {
    breaks
        .view_start(TAIL)
        .unwrap_or_else(|| tail_start_searched(input))
}

/// [`tail_start`] where more than 25 of the last 64 bytes are CR or LF.
#[cold]
fn tail_start_searched(input: &[u8]) -> usize {
    // From line break to line break backwards, within the view bytes still
    // wanted.
    let (mut from, mut view) = (input.len(), 0);
    loop {
        let want = TAIL - view;
        let window = from.saturating_sub(want);
        match memchr::memrchr2(b'\r', b'\n', &input[window..from]) {
            None if from >= want => return from - want,
            None => return 0,
            Some(i) => {
                let line_break = window + i;
                view += from - line_break - 1;
                from = line_break;
            }
        }
    }
}

/// Where the stepper starts on a push's input (see [`stepper_start`]),
/// found when first asked for. The filter asks only where a verification
/// reaches the input's end (seldom), so a push read in place is read
/// front to back, as the processor fetches it ahead, and its end is read
/// last, in the cache by then: where the stepper's start was found first,
/// each push began waiting on memory for its last line. 4 KiB pushes in
/// place (10 and 100 tokens), against `bytes`, in three runs each of the
/// benchmark, alternated: 0.78-0.80 -> 0.81-0.83 x at 10 tokens,
/// 0.72-0.73 -> 0.75-0.78 x at 100; copied pushes (the end just written)
/// unchanged.
pub(super) struct StepperStart<'a> {
    engine: &'a Engine,
    input: &'a [u8],
    found: Cell<Option<usize>>,
}

impl<'a> StepperStart<'a> {
    /// The stepper's start on `input`, to be found when asked for.
    pub(super) fn of(engine: &'a Engine, input: &'a [u8]) -> StepperStart<'a> {
        StepperStart {
            engine,
            input,
            found: Cell::new(None),
        }
    }

    /// A start already found: `at` on `input`.
    pub(super) fn known(engine: &'a Engine, input: &'a [u8], at: usize) -> StepperStart<'a> {
        StepperStart {
            engine,
            input,
            found: Cell::new(Some(at)),
        }
    }

    /// The index in the input where the stepper starts.
    pub(super) fn get(&self) -> usize {
        if let Some(at) = self.found.get() {
            return at;
        }
        let breaks = EndBreaks::of(self.input);
        let tail = tail_start(self.input, &breaks);
        let at = stepper_start(self.engine, self.input, tail, &breaks);
        self.found.set(Some(at));
        at
    }
}

/// Where the stepper starts on the tail that begins at `tail`: the first
/// position from which something could still be open at the end and not be
/// handed over by the filter (before it, nothing that starts at or after
/// `tail` can be). A pattern's candidate could start at a position that is
/// no CR or LF where the pattern's first 8 bytes start, or where fewer
/// than 8 bytes (or view bytes) remain and they begin a pattern. A fragment
/// of 16 bytes or more holds a sampled value gram, so the filter walks it
/// (and hands over its run when it reaches the end); only a proper prefix
/// of a window can be open at the end unseen, and it starts within the
/// last 15 bytes, where a value gram starts it, and the last 8 bytes are a
/// value gram too (they are in it), or within the last 7, which begin a
/// window then. Every push runs this over its tail: two probes for the last
/// gram, which most often rule out every window prefix and every position
/// after the tail's last line break (see [`unopened`]), one a position
/// where the word holds no line break before that, in a tight loop, and one
/// for each of the last 7 bytes (`short.rs`): in a large set each probe is
/// a cache miss, so all are asked for first. `tail` is where [`tail_start`]
/// puts it.
pub(super) fn stepper_start(
    engine: &Engine,
    input: &[u8],
    tail: usize,
    breaks: &EndBreaks,
) -> usize {
    let len = input.len();
    // Positions before `words` have 8 bytes.
    let words = len.saturating_sub(GRAM - 1).max(tail);
    let last_gram = gram_at(input, len.wrapping_sub(GRAM));
    let window_prefixes = match last_gram {
        Some(last) if engine.value_grams.may_hold(last) => len.saturating_sub(FRAGMENT - 1),
        // No window's prefix of 8 bytes or more is open at the end.
        _ => usize::MAX,
    };
    let skipped = unopened(
        engine,
        input,
        tail,
        words,
        window_prefixes,
        last_gram,
        breaks,
    );
    // In a large set each probe below is a cache miss: all are asked for
    // at once, so that they overlap, where the loop's early exit let few
    // do.
    if engine.starts.is_large() && tail < words {
        // `words` is `len - 7` here: every position before it has 8 bytes.
        let probed = [tail..skipped.start, skipped.end..words];
        for w in probed
            .into_iter()
            .flat_map(|r| input[r.start..r.end + GRAM - 1].windows(GRAM))
        {
            engine.starts.prefetch(gram(w));
        }
    }
    if engine.value_grams.is_large() {
        let from = len.saturating_sub(FRAGMENT - 1).max(tail);
        for w in input[from.min(len)..].windows(GRAM) {
            engine.value_grams.prefetch(gram(w));
        }
    }
    let next_break = |from: usize| match breaks.covers(from) {
        true => breaks.next(from),
        false => memchr::memchr2(b'\r', b'\n', &input[from..]).map_or(len, |i| from + i),
    };
    let may_start = |at: usize, word: u64| may_start_at(engine, window_prefixes, at, word);
    // The first CR or LF at or after `at`.
    let mut line_break = next_break(tail);
    let mut at = tail;
    while at < words {
        if skipped.contains(&at) {
            at = skipped.end;
            // The skip may pass line breaks.
            if line_break < at {
                line_break = next_break(at.min(len));
            }
            continue;
        }
        // Up to `clean`, a word holds no line break: it is its own view.
        let clean = line_break.saturating_sub(GRAM - 1).clamp(at, words);
        if at < clean && engine.starts.is_selective() {
            let found = first_selective_start(engine, input, at..clean, window_prefixes, may_start);
            if let Some(found) = found {
                return found;
            }
            at = clean;
        } else if at < clean {
            // The words from `at` to `clean`, as windows: no bounds check
            // a position.
            let words = input[at..clean + GRAM - 1].windows(GRAM);
            if let Some(i) = words
                .enumerate()
                .position(|(i, w)| may_start(at + i, gram(w)))
            {
                return at + i;
            }
            at = clean;
        }
        // Words that hold the line break, then the break itself.
        while at < words && at < line_break {
            // On the view, the first 8 view bytes from here.
            let word = gram(&input[at..]);
            if may_start(at, word)
                || view_gram(input, at).is_none_or(|(view, _)| engine.starts.may_hold(view))
            {
                return at;
            }
            at += 1;
        }
        if at == line_break {
            at += 1;
            line_break = next_break(at.min(len));
        }
    }
    // Fewer than 8 bytes remain: a candidate starts there only where the
    // bytes to the end begin a pattern or a window. Before a CR or LF among
    // them the view's bytes are not the input's: there any byte that is no
    // CR or LF could start one.
    // `words` is at most 7 bytes before the end: among the covered bytes.
    let last_break = breaks.last_from(words);
    (words..len)
        .find(|&at| match last_break {
            Some(line_break) if at <= line_break => !is_break(input[at]),
            _ => engine.short_starts.may_start_end(input, at),
        })
        .unwrap_or(len)
}

/// The positions of the tail (from `tail` to `words`, each with 8 bytes)
/// where nothing can be open at the end, found at once, when the input's
/// last 8 view bytes are no pattern's gram at an offset a tail holds
/// (`Engine::tail_grams`): those up to where a window's prefix may be open
/// (`window_prefixes`) from which at least 8 view bytes remain, or where a
/// direct pattern holds a CR or LF, those after the tail's last CR or LF.
/// A pattern open at the end from such a position holds the view bytes
/// from there to the end (at most [`TAIL`], those from `tail`) as its
/// first bytes, or, a direct one, the bytes: the last view gram at an
/// offset below 32. Empty where that is not known. 4 KiB pushes 1.03 x at
/// 100 and 10,000 tokens (24 of the tail's 32 positions left out on
/// average); with the positions before a CR or LF, where no direct pattern
/// holds one (7.7 positions a push looked at -> 1.6 at 100 tokens), 1.02
/// to 1.08 x more at 100 tokens, 1.04 to 1.14 at 10,000, and 64 B pushes
/// 1.13 to 1.31 x at 10 to 10,000 tokens (one binary switched).
fn unopened(
    engine: &Engine,
    input: &[u8],
    tail: usize,
    words: usize,
    window_prefixes: usize,
    last_gram: Option<u64>,
    breaks: &EndBreaks,
) -> std::ops::Range<usize> {
    let end = window_prefixes.min(words);
    let Some(last) = last_gram.filter(|_| tail < end) else {
        return words..words;
    };
    let last_break = match breaks.covers(tail) {
        true => breaks.last_from(tail),
        false => memchr::memrchr2(b'\r', b'\n', &input[tail..]).map(|i| tail + i),
    };
    let (gram, range) = match last_break {
        None => (last, tail..end),
        // A direct pattern open at the end from before a CR or LF holds it.
        Some(line_break) if engine.direct_breaks => (last, line_break + 1..end),
        // The last 8 bytes are view bytes.
        Some(line_break) if line_break + GRAM < input.len() => (last, tail..end),
        Some(_) => match last_view_gram(input, tail) {
            Some((view, first)) => (view, tail..end.min(first + 1)),
            None => return words..words,
        },
    };
    if range.is_empty() || engine.tail_grams.may_hold(gram) {
        return words..words;
    }
    range
}

/// The last 8 view bytes of `input` as a gram, and where the first of them
/// is: `None` where fewer than 8 are at or after `from`.
fn last_view_gram(input: &[u8], from: usize) -> Option<(u64, usize)> {
    let mut bytes = [0; GRAM];
    let mut got = 0;
    let mut at = input.len();
    while got < GRAM {
        at = at.checked_sub(1).filter(|&at| at >= from)?;
        if !is_break(input[at]) {
            got += 1;
            bytes[GRAM - got] = input[at];
        }
    }
    Some((u64::from_le_bytes(bytes), at))
}

/// Whether a pattern's first gram, or (from `window_prefixes` on: within
/// the last 15 bytes) a window's proper prefix, may start at `at`, where
/// `word` starts. A function, not only a closure, so that it is inlined
/// wherever it is called.
#[inline(always)]
fn may_start_at(engine: &Engine, window_prefixes: usize, at: usize, word: u64) -> bool {
    engine.starts.may_hold(word) || (at >= window_prefixes && engine.value_grams.may_hold(word))
}

/// The first of the positions `range` of `input` (each with 8 bytes from
/// it, none holding a CR or LF) that `may_start` (see [`stepper_start`]),
/// where few bytes begin a pattern: the positions whose byte does (or,
/// from `window_prefixes` on, every one) are found first, without a
/// branch, and only they are probed, where a branch a position on its byte
/// was mispredicted at about one in three. Out of line: inlined, it made
/// `stepper_start`'s own loop, for sets where many bytes begin a pattern,
/// slower.
#[inline(never)]
fn first_selective_start(
    engine: &Engine,
    input: &[u8],
    range: std::ops::Range<usize>,
    window_prefixes: usize,
    may_start: impl Fn(usize, u64) -> bool,
) -> Option<usize> {
    let mut at = range.start;
    while at < range.end {
        let count = (range.end - at).min(64);
        let mut maybe = engine.starts.first_bytes(&input[at..at + count]);
        if window_prefixes < at + count {
            let all = u64::MAX >> (64 - count);
            maybe |= all & !0 << window_prefixes.saturating_sub(at);
        }
        while maybe != 0 {
            let i = maybe.trailing_zeros() as usize;
            maybe &= maybe - 1;
            if may_start(at + i, gram(&input[at + i..])) {
                return Some(at + i);
            }
        }
        at += count;
    }
    None
}

/// Asks for what the filters' first batch over `input` reads, in a large
/// set (the batches after it are asked for while one is tested), and,
/// unless `end_asked` (a copied push asks before its copy), what
/// [`stepper_start`] reads first (see [`prefetch_end_probes`]): done before
/// it, so that its probes overlap them and a push does not begin each
/// filter waiting on memory.
pub(super) fn prefetch_first_batches(engine: &Engine, input: &[u8], end_asked: bool) {
    let any = &engine.direct_any;
    // Where a smaller set is tested first, it is in the cache.
    if any.is_large() && engine.direct_first.is_none() {
        prefetch_batch(input, 0, engine.direct_seeds.stride, |w| any.prefetch(w));
    }
    let view = &engine.view_seeds;
    if view.is_large() {
        prefetch_batch(input, 0, view.stride, |w| view.prefetch(w));
    }
    if !end_asked {
        prefetch_end_probes(engine, input);
    }
}

/// Asks, in large sets, for what [`stepper_start`] reads first of an input
/// that ends with `end`: the probes of its last gram and of the strings of
/// its last 7 bytes, each a cache miss there. A push that is copied asks
/// before its copy (see `Stream::push_copied`), so that they arrive while
/// it is made: 4 KiB pushes 1.03 x at 10,000 tokens and at 10 x 64 KiB,
/// 1.01 x at 100 x 4 KiB, where they were asked for as the stepper's start
/// was looked for.
pub(crate) fn prefetch_end_probes(engine: &Engine, end: &[u8]) {
    let large = [
        engine.tail_grams.is_large(),
        engine.value_grams.is_large(),
        engine.short_starts.is_large(),
    ];
    // In a small engine nothing is asked for, and the end, which a push
    // read in place may not have in the cache yet, is not read here (see
    // `StepperStart`).
    if large == [false; 3] {
        return;
    }
    let Some(last) = gram_at(end, end.len().wrapping_sub(GRAM)) else {
        return;
    };
    if large[0] {
        engine.tail_grams.prefetch(last);
    }
    if large[1] {
        engine.value_grams.prefetch(last);
    }
    if large[2] {
        for at in end.len() + 1 - GRAM..end.len() {
            engine.short_starts.prefetch_end(end, at);
        }
    }
}

/// Every candidate that starts in `input` (which starts at position `base`,
/// at or after the first undecided byte) into `candidates`, and what
/// reaches its end from before `tail`: open verifications into
/// `direct_opens` and `view_opens` (after those there, which start before
/// `input`), and the fragment run when a walk reached the end. `carried` is
/// the stream's fragment run, which has read `input` up to that index:
/// every fragment that starts before it is already offered or in the run,
/// so the run goes on from there instead of the held bytes being walked
/// again (inside a long value, a walk would read them all at every push).
/// `scratch` is room for the opens as they are found (the stream's own, so
/// that a warm stream does not allocate).
#[allow(clippy::too_many_arguments)]
pub(super) fn find(
    engine: &Engine,
    input: &[u8],
    base: u64,
    tail: &StepperStart<'_>,
    carried: (Run, usize),
    candidates: &mut Candidates,
    direct_opens: &mut Opens,
    view_opens: &mut Opens,
    scratch: &mut Vec<Open>,
    read_ahead: bool,
) -> Option<Run> {
    scratch.clear();
    // The direct filter reads the input first (the view's then finds it in
    // the cache): it asks for it ahead where it is not there yet.
    let run = filter_direct(
        engine, input, base, tail, carried, candidates, scratch, read_ahead,
    );
    push_sorted(scratch, &engine.direct_table, direct_opens);
    filter_view(engine, input, base, tail, candidates, scratch);
    push_sorted(scratch, &engine.view_table, view_opens);
    run
}

/// Hands `found` to `opens` by start, so that the opens of a periodic
/// pattern join one group there.
fn push_sorted(found: &mut Vec<Open>, table: &Table, opens: &mut Opens) {
    found.sort_unstable_by_key(|o| (o.start, o.id));
    found.dedup();
    for &open in found.iter() {
        opens.push(table, open);
    }
    found.clear();
}

/// Direct patterns and fragments of `input`, from grams at sampled
/// positions, and the `carried` run on from where it has read; returns the
/// fragment run when a walk reached the end.
#[allow(clippy::too_many_arguments)]
fn filter_direct(
    engine: &Engine,
    input: &[u8],
    base: u64,
    tail: &StepperStart<'_>,
    carried: (Run, usize),
    candidates: &mut Candidates,
    opens: &mut Vec<Open>,
    read_ahead: bool,
) -> Option<Run> {
    let index = &engine.direct_seeds;
    let grams = &engine.value_grams;
    if index.is_empty() && grams.is_empty() {
        return None;
    }
    // Where fragments are known up to: the next sampled gram of a run
    // finds the same run.
    let mut walked = 0;
    let mut at_end = None;
    let (run, read) = carried;
    if run.len() == 0 {
        // Nothing in progress: the samples from `read` on find the rest.
        walked = read;
    } else if !grams.is_empty() && read > 0 {
        let open = Input { bytes: input, base };
        match walk_fragments(engine, open, run, read, read - 1, candidates) {
            Walk::Stopped(to) => walked = to,
            Walk::End(run) => {
                walked = input.len();
                at_end = Some(run);
            }
        }
    }
    let mut verifier = Verifier::new(false);
    let any = &engine.direct_any;
    let look = |at: usize| {
        let word = gram(&input[at..]);
        if !any.may_hold(word) {
            return ControlFlow::Continue(());
        }
        // Highest offset first: the starts of successive samples lie in
        // disjoint windows, so every start comes in ascending order.
        for offset in high_first(index.get(word)) {
            if let Some(start) = at.checked_sub(offset) {
                let verify = &mut verifier;
                direct_at(engine, input, base, start, tail, candidates, opens, verify);
            }
        }
        if at >= walked
            && !grams.is_empty()
            && grams.may_hold(word)
            && window_may_hold(engine, input, at)
        {
            // Windows that hold this gram start from 8 bytes back; walk
            // from there until the run dies.
            let from = at.saturating_sub(GRAM).max(walked);
            let open = Input { bytes: input, base };
            match walk_fragments(engine, open, Run::empty(), from, at, candidates) {
                Walk::Stopped(to) => walked = to,
                Walk::End(run) => {
                    walked = input.len();
                    at_end = Some(run);
                }
            }
        }
        ControlFlow::Continue(())
    };
    let stride = index.stride;
    if let Some(first) = &engine.direct_first {
        let test = |w| first.may_pass_first(w);
        for_each_passing_twice(input, stride, read_ahead, test, |w| any.prefetch(w), look);
    } else {
        let ask = Ahead {
            bitmap: any.is_large(),
            input: read_ahead,
        };
        let test = |w| any.may_pass_first(w);
        for_each_passing(input, stride, ask, |w| any.prefetch(w), test, look);
    }
    at_end
}

/// Whether a value's window may hold the sampled gram at `at` (a value's
/// gram), or a run from before it reach the end of `input`: where
/// neither, its walk would find nothing. Either starts within the 8 bytes
/// before `at` and runs 8 bytes past it at least: if it starts 4 bytes
/// before `at` or earlier, it holds the gram there; else, being a window
/// or running to the end, it holds the gram 4 bytes after `at` (where the
/// input has one). Text that shares a gram with a value (a certificate's
/// header with a key's, a token's prefix with another's) so costs a probe
/// or two, where it cost a walk of the suffix automaton (in a large set a
/// cache miss or two a byte).
fn window_may_hold(engine: &Engine, input: &[u8], at: usize) -> bool {
    const HALF: usize = (FRAGMENT - GRAM) / 2;
    let grams = &engine.value_grams;
    let Some(after) = gram_at(input, at + HALF) else {
        return true;
    };
    let before = at.checked_sub(HALF).map(|b| gram(&input[b..]));
    before.is_some_and(|b| grams.may_hold(b)) || grams.may_hold(after)
}

/// Samples a batch holds (a bit each of a `u32`).
const BATCH: usize = 32;

/// What a filter asks for ahead of its reads (see [`for_each_passing`]).
#[derive(Clone, Copy)]
struct Ahead {
    /// The next batch's bitmap words, with the filter's `prefetch`: where
    /// the bitmap is too large to stay in the cache.
    bitmap: bool,
    /// The input, [`INPUT_AHEAD`] bytes past the next batch: where it is
    /// read in place (see [`Source::InPlace`]).
    ///
    /// [`Source::InPlace`]: super::matcher::Source::InPlace
    input: bool,
}

/// How far past the next batch the input is asked for, where it is read
/// in place: its first read, by the sampling, is sparse (a gram every 9
/// bytes) among the bitmaps' random reads, and the processor's own
/// prefetching left it waiting on memory. 1 or 4 KiB ahead did as well.
const INPUT_AHEAD: usize = 2048;

/// Calls `look` with each sampled position of `input` (every `stride`
/// bytes from 0, while 8 bytes remain) whose gram passes `test`, in
/// ascending order, until it breaks. The samples go in batches of
/// [`BATCH`], whose tests (a bitmap's first bits) are read in a row without
/// a branch, so that the processor has many loads in flight at once: in a
/// large set each is a cache miss, and a branch a sample would wait on
/// each in turn (or be mispredicted when one passes). What `ask` says is
/// asked for ahead while one batch is tested.
#[inline(always)]
fn for_each_passing(
    input: &[u8],
    stride: usize,
    ask: Ahead,
    prefetch: impl Fn(u64),
    test: impl Fn(u64) -> bool,
    mut look: impl FnMut(usize) -> ControlFlow<()>,
) {
    let mut batch = 0;
    loop {
        if ask.input {
            prefetch_input(input, batch + BATCH * stride + INPUT_AHEAD, BATCH * stride);
        }
        if ask.bitmap {
            prefetch_batch(input, batch + BATCH * stride, stride, &prefetch);
        }
        let samples = batch_len(input, batch, stride);
        if samples == 0 {
            return;
        }
        let passed = first_bits(&input[batch..], samples, stride, &test);
        if look_at_each(passed, batch, stride, &mut look).is_break() {
            return;
        }
        if samples < BATCH {
            return;
        }
        batch += BATCH * stride;
    }
}

/// [`for_each_passing`] where the samples are tested against a smaller
/// set first (one in the cache) and `look` tests the larger: what `look`
/// reads there for the samples of a batch that pass is asked for with
/// `prefetch` as soon as they are known, and they are looked at after the
/// next batch's test, so that those reads overlap it, where each waited
/// on memory in turn.
#[inline(always)]
fn for_each_passing_twice(
    input: &[u8],
    stride: usize,
    read_ahead: bool,
    test: impl Fn(u64) -> bool,
    prefetch: impl Fn(u64),
    mut look: impl FnMut(usize) -> ControlFlow<()>,
) {
    let mut batch = 0;
    // The samples of the batch before that passed, and where it starts.
    let mut waiting = (0, 0);
    loop {
        if read_ahead {
            prefetch_input(input, batch + BATCH * stride + INPUT_AHEAD, BATCH * stride);
        }
        let samples = batch_len(input, batch, stride);
        let passed = match samples {
            0 => 0,
            _ => first_bits(&input[batch..], samples, stride, &test),
        };
        let mut asked = passed;
        while asked != 0 {
            prefetch(gram(
                &input[batch + asked.trailing_zeros() as usize * stride..],
            ));
            asked &= asked - 1;
        }
        let (before, from) = std::mem::replace(&mut waiting, (passed, batch));
        if look_at_each(before, from, stride, &mut look).is_break() {
            return;
        }
        if samples < BATCH {
            let _ = look_at_each(passed, batch, stride, &mut look);
            return;
        }
        batch += BATCH * stride;
    }
}

/// `look` at each sample whose bit is set in `passed` (of the batch at
/// `from`), in order, until it says to stop.
#[inline(always)]
fn look_at_each(
    mut passed: u32,
    from: usize,
    stride: usize,
    look: &mut impl FnMut(usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    while passed != 0 {
        let at = from + passed.trailing_zeros() as usize * stride;
        passed &= passed - 1;
        look(at)?;
    }
    ControlFlow::Continue(())
}

/// A bit for each of the first `samples` samples of `input`, every
/// `stride` bytes, whose gram passes `test`. Out of line: its loop stays in
/// registers.
#[inline(never)]
fn first_bits(input: &[u8], samples: usize, stride: usize, test: impl Fn(u64) -> bool) -> u32 {
    // A whole batch at the filters' usual strides (9 on the input, where
    // the windows of fragments set it, and 32 on the view) is read from an
    // array of its bytes, where the compiler leaves out every sample's
    // bounds checks and multiplies by a constant: 9% fewer instructions
    // for `bytes` at 100 tokens.
    if samples == BATCH {
        match stride {
            9 => {
                if let Some(span) = input.first_chunk::<{ batch_span(9) }>() {
                    return whole_batch::<9, { batch_span(9) }>(span, test);
                }
            }
            32 => {
                if let Some(span) = input.first_chunk::<{ batch_span(32) }>() {
                    return whole_batch::<32, { batch_span(32) }>(span, test);
                }
            }
            _ => {}
        }
    }
    let mut passed = 0;
    for i in 0..samples {
        passed |= u32::from(test(gram(&input[i * stride..]))) << i;
    }
    passed
}

/// The bytes a whole batch of samples `stride` apart reads.
const fn batch_span(stride: usize) -> usize {
    (BATCH - 1) * stride + GRAM
}

/// [`first_bits`] of a whole batch at `STRIDE`, whose bytes are `span`
/// (`SPAN` is [`batch_span`] of `STRIDE`). Eight samples' tests are
/// written as one expression, their bits at constant places: the compiler
/// then lays out their loads and multiplies side by side, where a loop of
/// one sample at a time (its bit shifted by the loop's counter) ran them
/// in turn: `bytes` 1.2 to 1.3 x at 10 to 1,000 tokens with 8% fewer
/// instructions.
#[inline(always)]
fn whole_batch<const STRIDE: usize, const SPAN: usize>(
    span: &[u8; SPAN],
    test: impl Fn(u64) -> bool,
) -> u32 {
    let word = |i: usize| -> u64 {
        let word: [u8; GRAM] = span[i * STRIDE..][..GRAM]
            .try_into()
            .expect("a sample within its batch");
        u64::from_le_bytes(word)
    };
    let mut passed = 0;
    for i in (0..BATCH).step_by(8) {
        let eight = u32::from(test(word(i)))
            | u32::from(test(word(i + 1))) << 1
            | u32::from(test(word(i + 2))) << 2
            | u32::from(test(word(i + 3))) << 3
            | u32::from(test(word(i + 4))) << 4
            | u32::from(test(word(i + 5))) << 5
            | u32::from(test(word(i + 6))) << 6
            | u32::from(test(word(i + 7))) << 7;
        passed |= eight << i;
    }
    passed
}

/// Asks for the lines of `input` from `from` on, `len` bytes of it (as
/// far as it goes). Successive calls cover successive stretches, so a line
/// that one leaves out at its end is the next one's first.
#[inline(always)]
fn prefetch_input(input: &[u8], from: usize, len: usize) {
    for line in (from..input.len().min(from + len)).step_by(64) {
        prefetch(&input[line]);
    }
}

/// Asks, with `prefetch`, for what the tests of the batch of samples at
/// `from` read.
#[inline(always)]
fn prefetch_batch(input: &[u8], from: usize, stride: usize, prefetch: impl Fn(u64)) {
    for i in 0..batch_len(input, from, stride) {
        prefetch(gram(&input[from + i * stride..]));
    }
}

/// How many samples the batch at `from` has: [`BATCH`], or fewer where
/// `input` ends (none when no gram starts at `from`), without a division
/// but at the end.
#[inline(always)]
fn batch_len(input: &[u8], from: usize, stride: usize) -> usize {
    match input.len().checked_sub(from + GRAM) {
        None => 0,
        Some(room) if room >= (BATCH - 1) * stride => BATCH,
        Some(room) => room / stride + 1,
    }
}

/// The bits set in `bits`, highest first.
fn high_first(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let bit = 63_u32.checked_sub(bits.leading_zeros())? as usize;
        bits &= !(1 << bit);
        Some(bit)
    })
}

/// The direct patterns that start at `start`: an anchored walk of the
/// prefix automaton, then the rest of each longer pattern compared. One
/// still open at the end, from before the tail, goes to `opens`.
#[allow(clippy::too_many_arguments)]
fn direct_at(
    engine: &Engine,
    input: &[u8],
    base: u64,
    start: usize,
    tail: &StepperStart<'_>,
    candidates: &mut Candidates,
    opens: &mut Vec<Open>,
    verifier: &mut Verifier,
) {
    let automaton = &engine.direct;
    let table = &engine.direct_table;
    let mut state = automaton.anchored_start();
    for (walked, &byte) in input[start..].iter().take(PREFIX).enumerate() {
        let Some(next) = automaton.next_anchored(state, byte) else {
            return;
        };
        state = next;
        if !automaton.is_match(state) {
            continue;
        }
        for (id, len) in automaton.matches(state) {
            if len != walked + 1 {
                continue; // a match that started later
            }
            if let (Some(exact), _) = table.prefix(id) {
                offer_direct(engine, candidates, exact, base + start as u64, len as u64);
            }
            // Only those that go on with the next bytes can match or be
            // open.
            let after = input.get(start + len..).unwrap_or_default();
            for id in table.longer_going_on(id, &after[..after.len().min(GRAM)]) {
                let reach = verifier.verify(table, id, input, start as u64, len, start + len);
                match reach.outcome {
                    Outcome::Full => {
                        let len = reach.len as u64;
                        offer_direct(engine, candidates, id, base + start as u64, len);
                    }
                    // Still open: the stepper takes it on from its start.
                    Outcome::AtEnd if start < tail.get() => opens.push(Open {
                        id,
                        start: base + start as u64,
                        matched: (tail.get() - start) as u32,
                    }),
                    _ => {}
                }
            }
        }
    }
}

/// Base64 and hex patterns on the CR/LF-free view of `input`, from view
/// grams at sampled positions.
fn filter_view(
    engine: &Engine,
    input: &[u8],
    base: u64,
    tail: &StepperStart<'_>,
    candidates: &mut Candidates,
    opens: &mut Vec<Open>,
) {
    let index = &engine.view_seeds;
    if index.is_empty() {
        return;
    }
    let mut pass = ViewPass {
        engine,
        input,
        base,
        tail,
        after_tail: None,
        verifier: Verifier::new(true),
    };
    // View indexes, for the verifier, are counted only where a gram hits
    // (rarely): `counted` view bytes precede position `cursor`. Over a long
    // stretch without a hit they are not counted at all: the verifier
    // forgets what it knew (nothing it knew reaches that far in the usual
    // case), and the index goes on from an arbitrary larger number, since
    // only differences after that point are used.
    let (mut cursor, mut counted) = (0, 0u64);
    // The first view byte of the sample before.
    let mut previous: Option<usize> = None;
    // The sample whose first view byte `previous` is.
    let mut previous_sample = None;
    let stride = index.stride;
    let prefetch = |w| index.prefetch(w);
    // A sample whose 8 bytes hold a line break is looked at whole.
    let test = |w| has_line_break(w) | index.may_pass_first(w);
    let ask = Ahead {
        bitmap: index.is_large(),
        input: false,
    };
    for_each_passing(input, stride, ask, prefetch, test, |at| {
        // A sample not looked at had no line break: its first view byte is
        // its own.
        if at >= stride && previous_sample != Some(at - stride) {
            previous = Some(at - stride);
        }
        let Some((word, first)) = view_gram(input, at) else {
            return ControlFlow::Break(());
        };
        let offsets = index.get(word);
        if offsets != 0 {
            if first - cursor > UNCOUNTED {
                pass.verifier.forget();
                counted += (first - cursor) as u64;
            } else {
                counted += view_len(&input[cursor..first]);
            }
            cursor = first;
            // Highest offset first: ascending starts.
            for offset in high_first(offsets) {
                // Back `offset` view bytes to the start.
                let mut start = first;
                let mut left = offset;
                while left > 0 && start > 0 {
                    start -= 1;
                    if !is_break(input[start]) {
                        left -= 1;
                    }
                }
                // Every start up to the previous sample's was offered by
                // it: whatever starts there holds its gram at an offset
                // below the stride, so it was found then. Skipping them
                // keeps the starts in ascending order.
                if left > 0 || previous.is_some_and(|p| start <= p) {
                    continue;
                }
                let view_start = counted - offset as u64;
                pass.view_at(start, view_start, candidates, opens);
            }
        }
        previous = Some(first);
        previous_sample = Some(at);
        ControlFlow::Continue(())
    });
}

/// Input bytes between two gram hits beyond which the view filter does not
/// count view bytes (see [`filter_view`]).
const UNCOUNTED: usize = 4096;

/// How many view bytes `bytes` has.
fn view_len(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| !is_break(b)).count() as u64
}

/// One pass of the view filter over a push.
struct ViewPass<'a> {
    engine: &'a Engine,
    input: &'a [u8],
    base: u64,
    tail: &'a StepperStart<'a>,
    /// The view bytes from `tail` to the end, once needed.
    after_tail: Option<usize>,
    verifier: Verifier,
}

impl ViewPass<'_> {
    /// The view patterns whose first view byte, view index `view_start`,
    /// is at `start` (not a line break), as [`direct_at`] does on the input.
    fn view_at(
        &mut self,
        start: usize,
        view_start: u64,
        candidates: &mut Candidates,
        opens: &mut Vec<Open>,
    ) {
        let (engine, input) = (self.engine, self.input);
        let automaton = &engine.view;
        let table = &engine.view_table;
        let mut state = automaton.anchored_start();
        let mut walked = 0;
        let mut pos = start;
        while walked < PREFIX && pos < input.len() {
            let byte = input[pos];
            pos += 1;
            if is_break(byte) {
                continue;
            }
            let Some(next) = automaton.next_anchored(state, byte) else {
                return;
            };
            state = next;
            walked += 1;
            if !automaton.is_match(state) {
                continue;
            }
            for (id, len) in automaton.matches(state) {
                if len != walked {
                    continue; // a match that started later
                }
                if let (Some(exact), _) = table.prefix(id) {
                    let span = (pos - start) as u64;
                    offer_view(engine, candidates, exact, self.base + start as u64, span);
                }
                // Only those that go on with the next view bytes can match
                // or be open.
                let (after, count, _) = view_bytes(input, pos);
                for id in table.longer_going_on(id, &after[..count]) {
                    let reach = self
                        .verifier
                        .verify(table, id, input, view_start, PREFIX, pos);
                    match reach.outcome {
                        Outcome::Full => {
                            let span = (reach.end - start) as u64;
                            offer_view(engine, candidates, id, self.base + start as u64, span);
                        }
                        // The input ended inside the pattern: still open,
                        // and the stepper takes it on from the tail with
                        // the view bytes before it matched.
                        Outcome::AtEnd if start < self.tail.get() => {
                            // Every view byte from `start` to the end
                            // matched: those before the tail are its count.
                            let before_tail = reach.len - self.view_after_tail();
                            opens.push(Open {
                                id,
                                start: self.base + start as u64,
                                matched: before_tail as u32,
                            });
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    fn view_after_tail(&mut self) -> usize {
        let (input, tail) = (self.input, self.tail.get());
        *self
            .after_tail
            .get_or_insert_with(|| view_len(&input[tail..]) as usize)
    }
}

enum Walk {
    /// Fragments are known up to here: a later start has a run still
    /// shorter than 16 bytes.
    Stopped(usize),
    /// The walk reached the end of the input with this run.
    End(Run),
}

/// The fragments of `run`, which has read `input` up to `from`, and those
/// that start at `from` or later, walked until every start up to `past` is
/// final (or the input ends): each final one is offered.
fn walk_fragments(
    engine: &Engine,
    input: Input<'_>,
    mut run: Run,
    from: usize,
    past: usize,
    candidates: &mut Candidates,
) -> Walk {
    let sam = &engine.values;
    let mut at = from;
    // A follow that took fewer bytes than this is not tried again for as
    // many (a repetitive value's match goes on along other occurrences
    // than its first: each try would cost more than it saves).
    const RETRY: usize = GRAM;
    let mut follow_from = from;
    while at < input.bytes.len() {
        if at >= follow_from
            && let Some(taken) = run.follow(sam, &input.bytes[at..])
        {
            at += taken;
            if taken < RETRY {
                follow_from = at + RETRY;
            }
            if at == input.bytes.len() {
                break;
            }
        }
        let position = input.base + at as u64;
        // A carried run's stretches may start before `input`: the
        // candidates take what starts from the first undecided byte.
        run.step(sam, position, input.bytes[at], |f| {
            candidates.offer_stretch(f)
        });
        at += 1;
        // Stop once every start up to `past` is final and no fragment is in
        // progress (a run left in progress would be walked again by the
        // next sampled gram). A carried run may have started before the
        // input (before the first undecided byte): then not past `past`.
        let start = at.saturating_sub(run.len() as usize);
        if start > past && run.len() < FRAGMENT as u64 {
            return Walk::Stopped(start);
        }
    }
    Walk::End(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secret;

    /// The plain definitions that `tail_start` and `stepper_start` compute
    /// quickly.
    fn tail_plainly(input: &[u8]) -> usize {
        let mut view = 0;
        (0..input.len())
            .rev()
            .find(|&at| {
                view += usize::from(!is_break(input[at]));
                view == TAIL
            })
            .unwrap_or(0)
    }

    fn could_start_open(engine: &Engine, input: &[u8], at: usize) -> bool {
        if is_break(input[at]) {
            return false;
        }
        if at + GRAM > input.len() {
            let rest = &input[at..];
            return rest.iter().any(|&b| is_break(b)) || engine.short_starts.may_start(rest);
        }
        let word = gram(&input[at..]);
        // A proper prefix of a window at the end: shorter than 16 bytes, so
        // the last 8 bytes are in it.
        let last = gram(&input[input.len() - GRAM..]);
        let window_prefix = at + FRAGMENT > input.len()
            && engine.value_grams.may_hold(word)
            && engine.value_grams.may_hold(last);
        let view: Vec<u8> = input[at..]
            .iter()
            .copied()
            .filter(|&b| !is_break(b))
            .collect();
        // Where no CR or LF follows, what is open holds the bytes from here
        // to the end (at most a tail) as its first ones: the last gram at
        // one of the offsets of `tail_grams`. Where a window's prefix may
        // be open, each position is looked at.
        let windows_open = at + FRAGMENT > input.len() && engine.value_grams.may_hold(last);
        // Where no direct pattern holds a CR or LF, one that follows
        // leaves only view patterns to be open, and they hold the last 8
        // view bytes where there are as many from here.
        let last_view = view.last_chunk::<GRAM>().map(|w| u64::from_le_bytes(*w));
        let unopened = !windows_open
            && (view.len() == input.len() - at && !engine.tail_grams.may_hold(last)
                || !engine.direct_breaks
                    && last_view.is_some_and(|v| !engine.tail_grams.may_hold(v)));
        (engine.starts.may_hold(word) || view.len() < GRAM || engine.starts.may_hold(gram(&view)))
            && !unopened
            || window_prefix
    }

    /// At least `len` bytes of printable noise with one of `pieces` in
    /// two of every `one_in` turns.
    fn text_of(
        next: &mut impl FnMut() -> u64,
        len: usize,
        pieces: &[&[u8]],
        one_in: u64,
    ) -> Vec<u8> {
        let mut text = Vec::new();
        while text.len() < len {
            match next() % one_in {
                0 | 1 => text.extend_from_slice(pieces[(next() % pieces.len() as u64) as usize]),
                _ => text.push(b' ' + (next() % 90) as u8),
            }
        }
        text
    }

    #[test]
    fn a_walk_is_saved_only_where_no_window_holds_the_gram() {
        let values: [&[u8]; 3] = [
            b"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
            b"sk-proj-0123456789abcdefghijklmnopqrstuv",
            b"sk-proj-ZYXWVUTSRQPONMLKJIHGFEDCBA987654",
        ];
        let secrets: Vec<Secret> = (0..values.len())
            .map(|i| Secret::new(format!("V{i}"), values[i]))
            .collect();
        let engine = Engine::build(&secrets, false);
        let in_a_value = |bytes: &[u8]| {
            values
                .iter()
                .any(|v| v.windows(bytes.len()).any(|w| w == bytes))
        };
        let mut next = crate::engine::xorshift(0x3a1c);
        // Text that shares a few bytes with the values (a certificate's
        // header, another key of the same kind) and pieces of them.
        let pieces: [&[u8]; 5] = [
            b"-----BEGIN CERTIFICATE-----\n",
            b"sk-proj-",
            b"KEY-----\nMIIEvQIB",
            b"0123456789abcdefghij",
            b"ZYXWVUTSRQPONMLK",
        ];
        let (mut saved, mut kept) = (0, 0);
        for _ in 0..2000 {
            let len = (next() % 120) as usize;
            let input = text_of(&mut next, len, &pieces, 4);
            for at in 0..input.len().saturating_sub(GRAM - 1) {
                if !in_a_value(&input[at..at + GRAM]) {
                    continue;
                }
                // A window of a value that holds the gram, or a run from
                // before it that reaches the end shorter than a window.
                let held = (at.saturating_sub(FRAGMENT - GRAM)..=at).any(|start| {
                    let end = (start + FRAGMENT).min(input.len());
                    in_a_value(&input[start..end])
                });
                let may = window_may_hold(&engine, &input, at);
                assert!(may || !held, "{input:?} at {at}");
                if may {
                    kept += 1;
                } else {
                    saved += 1;
                }
            }
        }
        assert!(saved > 100 && kept > 100, "{saved} saved, {kept} kept");
    }

    #[test]
    fn tail_and_stepper_start_as_defined() {
        let secrets = [
            Secret::new("A", "correct horse battery staple"),
            Secret::new("B", "tok_0123456789abcdef"),
        ];
        // Two secrets, and with them enough that the last bytes' set of
        // short starts is kept.
        let small = Engine::build(&secrets, false);
        let mut more = secrets.to_vec();
        more.extend(crate::engine::short::tests::many_tokens(100));
        let large = Engine::build(&more, false);
        // The many tokens hold line breaks, which some direct patterns
        // keep: the same without them, and the two secrets with a raw value
        // that holds one.
        let unbroken: Vec<Secret> = more
            .iter()
            .map(|s| {
                let value = s.value.iter().map(|&b| if b == b'\n' { b'x' } else { b });
                Secret::new(s.name.clone(), value.collect::<Vec<u8>>())
            })
            .collect();
        let unbroken = Engine::build(&unbroken, false);
        let mut broken = secrets.to_vec();
        broken.push(Secret::new("C", "pass\nword12"));
        let broken = Engine::build(&broken, false);
        let direct_breaks = [&small, &large, &unbroken, &broken].map(|e| e.direct_breaks);
        assert_eq!(direct_breaks, [false, true, false, true]);
        for engine in [&small, &large, &unbroken, &broken] {
            starts_as_defined(engine);
        }
    }

    fn starts_as_defined(engine: &Engine) {
        let mut next = crate::engine::xorshift(0x5eed_u64);
        // Text with line breaks often (now and then many in a row), and now
        // and then the start of a pattern (raw, base64 and hex of a value)
        // so that some positions could start one.
        let pieces: [&[u8]; 8] = [
            b"\n",
            b"\r\n",
            b"pass\nwor",
            b"correct ",
            b"Y29ycmVjdCBo",
            b"746f6b5f",
            b"tok_0123",
            // More line breaks than the last 64 bytes' bits cover a tail in.
            b"\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n",
        ];
        for _ in 0..3000 {
            let len = (next() % 160) as usize;
            let input = text_of(&mut next, len, &pieces, 8);
            let breaks = EndBreaks::of(&input);
            let tail = tail_start(&input, &breaks);
            assert_eq!(tail, tail_plainly(&input), "tail of {input:?}");
            let expected = (tail..input.len())
                .find(|&at| could_start_open(engine, &input, at))
                .unwrap_or(input.len());
            let start = stepper_start(engine, &input, tail, &breaks);
            assert_eq!(start, expected, "{input:?}");
        }
    }
}
