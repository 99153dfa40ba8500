//! The seed filter's pass over a large push (see `seeds.rs`): from grams at
//! sampled positions it finds every complete candidate, and everything that
//! reaches the end of the input from before its tail (see `tail.rs`: the
//! last 39 view bytes), open verifications and the fragment run; the
//! stepper then starts afresh on that tail, so that what is held is exactly
//! what stepping every byte would hold, and the cost of a push does not
//! depend on how long the patterns are.

use std::ops::ControlFlow;

use super::Engine;
use super::candidates::Candidates;
use super::following::ViewFollowing;
use super::fragments::Run;
use super::matcher::{Input, offer_direct, offer_view};
use super::opens::{Open, Opens};
use super::output_room::OutputRoom;
use super::prefetch::{prefetch, prefetch_lines};
use super::seeds::{GRAM, GramIndex, gram, gram_at, has_line_break, is_break, view_gram};
use super::table::{PREFIX, Table};
use super::tail::{StepperStart, prefetch_end_probes};
use super::verify::{Outcome, Verifier};
use crate::FRAGMENT;

/// Asks for what the filters' first batch over `input` reads, in a large
/// set (the batches after it are asked for while one is tested), and,
/// unless `end_asked` (already asked for, or asked for by [`find`]), what
/// `tail::stepper_start` reads first (see [`prefetch_end_probes`]): done
/// before it, so that its probes overlap them and a push does not begin
/// each filter waiting on memory. Where the direct filter is to spread
/// the view filter's first batch over its own batches instead (see
/// [`view_first_spread`]), returns the view's set, for [`find`].
pub(super) fn prefetch_first_batches<'a>(
    engine: &'a Engine,
    input: &[u8],
    end_asked: bool,
) -> Option<&'a GramIndex> {
    let any = &engine.direct_any;
    // Where a smaller set is tested first, it is in the cache.
    if any.is_large() && engine.direct_first.is_none() {
        prefetch_batch(input, 0, engine.direct_seeds.stride, |w| any.prefetch(w));
    }
    let view = &engine.view_seeds;
    let view_first = view_first_spread(engine, input);
    if view.is_large() && view_first.is_none() {
        prefetch_batch(input, 0, view.stride, |w| view.prefetch(w));
    }
    if !end_asked {
        prefetch_end_probes(engine, input);
    }
    view_first
}

/// Every candidate that starts in `input` (which starts at position `base`,
/// at or after the first undecided byte) into `candidates`, and what
/// reaches its end from before the stepper's start (`stepper`, in
/// `input`): open verifications into
/// `direct_opens` and `view_opens` (after those there, which start before
/// `input`), and the fragment run when a walk reached the end. `carried` is
/// the stream's fragment run, which has read `input` up to that index:
/// every fragment that starts before it is already offered or in the run,
/// so the run goes on from there instead of the held bytes being walked
/// again (inside a long value, a walk would read them all at every push).
/// `scratch` is room for the opens as they are found (the stream's own, so
/// that a warm stream does not allocate). `ask_end`: what
/// `tail::stepper_start` reads of the end is asked for between the two
/// filters (the direct one has read the end by then). `room`: where what
/// `input` lets be decided is written, its first byte about where
/// `input`'s is, asked for as the direct filter reads (see
/// [`OutputRoom`]). `view_first`: what [`prefetch_first_batches`]
/// returned, the view filter's first batch to be asked for by the direct
/// filter.
#[allow(clippy::too_many_arguments)]
pub(super) fn find(
    engine: &Engine,
    input: &[u8],
    base: u64,
    stepper: &StepperStart<'_>,
    carried: (Run, usize),
    candidates: &mut Candidates,
    direct_opens: &mut Opens,
    view_opens: &mut Opens,
    scratch: &mut Vec<Open>,
    read_ahead: bool,
    ask_end: bool,
    room: OutputRoom<'_>,
    view_first: Option<&GramIndex>,
) -> Option<Run> {
    scratch.clear();
    // The direct filter reads the input first (the view's then finds it in
    // the cache): it asks for it ahead where it is not there yet.
    let run = filter_direct(
        engine,
        input,
        base,
        stepper,
        carried,
        candidates,
        (scratch, direct_opens),
        read_ahead,
        room,
        view_first,
    );
    push_sorted(scratch, &engine.direct_table, direct_opens);
    if ask_end {
        prefetch_end_probes(engine, input);
    }
    filter_view(
        engine,
        input,
        base,
        stepper,
        candidates,
        (scratch, view_opens),
    );
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
    stepper: &StepperStart<'_>,
    carried: (Run, usize),
    candidates: &mut Candidates,
    (opens, spans): (&mut Vec<Open>, &mut Opens),
    read_ahead: bool,
    room: OutputRoom<'_>,
    view_first: Option<&GramIndex>,
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
                let open = (&mut *opens, &mut *spans);
                direct_at(
                    engine, input, base, start, stepper, candidates, open, verify,
                );
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
    let prefetch = |w| any.prefetch(w);
    if let Some(first) = &engine.direct_first {
        // The first set is in the cache: only what passes it is asked for.
        let ask = Ahead {
            bitmap: false,
            input: read_ahead,
            room,
            view_first,
        };
        let test = |w| first.may_pass_pattern(w);
        for_each_passing_twice(input, stride, ask, test, prefetch, look);
    } else {
        let ask = Ahead {
            bitmap: any.is_large(),
            input: read_ahead,
            room,
            view_first: None,
        };
        // Each way of testing a loop of its own, without a branch.
        if any.is_patterned() {
            let test = |w| any.may_pass_pattern(w);
            for_each_passing(input, stride, ask, prefetch, test, look);
        } else {
            let test = |w| any.may_pass_first_pair(w);
            for_each_passing(input, stride, ask, prefetch, test, look);
        }
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
struct Ahead<'a> {
    /// The next batch's bitmap words, with the filter's `prefetch`: where
    /// the bitmap is too large to stay in the cache.
    bitmap: bool,
    /// The input, [`INPUT_AHEAD`] bytes past the next batch: where it is
    /// read in place (see [`Source::InPlace`]).
    ///
    /// [`Source::InPlace`]: super::matcher::Source::InPlace
    input: bool,
    /// The room of the batch's output (see [`OutputRoom`]).
    room: OutputRoom<'a>,
    /// The view filter's set, whose first batch over the input is asked
    /// for a few samples at a time (see [`VIEW_FIRST_PER_BATCH`]).
    view_first: Option<&'a GramIndex>,
}

impl Ahead<'_> {
    /// Asks for what this says before the batch of samples of `input` at
    /// `batch` is tested: the input past the next batch, the batch's
    /// output room, the next batch's bitmap words with `prefetch`, and the
    /// view filter's first batch's share.
    #[inline(always)]
    fn ask(&self, input: &[u8], batch: usize, stride: usize, prefetch: impl Fn(u64)) {
        if self.input {
            prefetch_lines(input, batch + BATCH * stride + INPUT_AHEAD, BATCH * stride);
        }
        self.room.prefetch(batch, BATCH * stride);
        if self.bitmap {
            prefetch_batch(input, batch + BATCH * stride, stride, prefetch);
        }
        // The view's batch and the direct filter's batches that ask for it
        // are whole (see `view_first_spread`).
        if let Some(view) = self.view_first {
            let from = batch / (BATCH * stride) * VIEW_FIRST_PER_BATCH;
            for i in from..(from + VIEW_FIRST_PER_BATCH).min(BATCH) {
                view.prefetch(gram(&input[i * view.stride..]));
            }
        }
    }
}

/// Samples of the view filter's first batch that the direct filter asks
/// for with each of its batches, where it spreads them (see
/// [`view_first_spread`]).
const VIEW_FIRST_PER_BATCH: usize = 4;

/// The view filter's set where the direct filter asks for the view
/// filter's first batch over `input`, [`VIEW_FIRST_PER_BATCH`] samples
/// with each of its batches: where the view's set is large and the direct
/// filter tests a smaller set first (its larger set's lines are then asked
/// for only as samples pass), over input that gives it the whole batches
/// to spread them over and holds the view's whole batch. All 32 asked for at a push's start, with what its
/// end reads, stalled the push while the misses queued (345 cycles of a 4
/// KiB push at 10,000 tokens, time-stamp counter). 4 KiB pushes there
/// about 1.02 x: the paired medians of 19 runs of 16 to 30 rounds, one
/// binary switched, 0.99 to 1.04 (8 samples a batch 1.01 to 1.05, 2 0.98
/// to 1.03, three runs each), over 16 MiB of input (over 4 MiB, 1.00).
/// Pushes of 64 B, whose view filter follows at once, read 0.93 to 0.98 x
/// so: they ask at the start. At 100 x 4 KiB and 10 x 64 KiB the view's
/// set is in the cache.
fn view_first_spread<'a>(engine: &'a Engine, input: &[u8]) -> Option<&'a GramIndex> {
    let view = &engine.view_seeds;
    let batches = BATCH.div_ceil(VIEW_FIRST_PER_BATCH);
    let spread = engine.direct_first.is_some()
        && view.is_large()
        && input.len() >= batches * BATCH * engine.direct_seeds.stride
        && batch_len(input, 0, view.stride) == BATCH;
    spread.then_some(view)
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
        ask.ask(input, batch, stride, &prefetch);
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
/// next [`LOOK_BEHIND`] batches' tests, so that those reads overlap them,
/// where each waited on memory in turn. What `ask` says is asked for
/// ahead as in [`for_each_passing`].
#[inline(always)]
fn for_each_passing_twice(
    input: &[u8],
    stride: usize,
    ask: Ahead,
    test: impl Fn(u64) -> bool,
    prefetch: impl Fn(u64),
    mut look: impl FnMut(usize) -> ControlFlow<()>,
) {
    let mut batch = 0;
    // The samples that passed of the batches before, oldest first, and
    // where each starts.
    let mut waiting = [(0, 0); LOOK_BEHIND];
    loop {
        ask.ask(input, batch, stride, &prefetch);
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
        let (before, from) = waiting[0];
        waiting.rotate_left(1);
        waiting[LOOK_BEHIND - 1] = (passed, batch);
        if look_at_each(before, from, stride, &mut look).is_break() {
            return;
        }
        if samples < BATCH {
            for (passed, from) in waiting {
                if look_at_each(passed, from, stride, &mut look).is_break() {
                    return;
                }
            }
            return;
        }
        batch += BATCH * stride;
    }
}

/// How many batches [`for_each_passing_twice`] tests before it looks at
/// the samples of one that passed: at 10,000 tokens on an AMD EPYC host of
/// 1 MiB of second-level cache a core, 2 read `bytes` 1.03 to 1.06 x and 4
/// KiB pushes 1.00 to 1.04 x against 1 (3 no faster than 2), where the
/// larger set's lines, asked for a batch ahead, had not all come.
const LOOK_BEHIND: usize = 2;

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

/// Asks for the first line of each page of memory that `input` runs into
/// after its first (pages of 4 KiB). The processor's own prefetching
/// follows reads in a row within a page only: where input read in place
/// and not asked for ahead (a push of 4 KiB from a larger buffer not in the
/// cache) crosses into another page, the filter waited on memory there.
/// At 100 tokens, the last batch of samples of such a push took 6% of the
/// time of 4 KiB pushes (perf), where it reads the 16 bytes past a page's
/// end; 0.8% with this.
#[inline(always)]
pub(super) fn prefetch_page_starts(input: &[u8]) {
    page_starts(input).for_each(|at| prefetch(&input[at]));
}

/// The indexes in `input` at which a page of 4 KiB begins, but its first.
#[inline(always)]
fn page_starts(input: &[u8]) -> impl Iterator<Item = usize> {
    const PAGE: usize = 4096;
    // The first page's first line is the filter's first read.
    let next_page = match input.as_ptr().align_offset(PAGE) {
        0 => PAGE,
        at => at,
    };
    (next_page..input.len()).step_by(PAGE)
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
/// still open at the end, from before the stepper's start, goes to
/// `opens`, or, where its prefix's patterns are verified together (see
/// `Table::spanned`), to `spans` with the others still open.
#[allow(clippy::too_many_arguments)]
fn direct_at(
    engine: &Engine,
    input: &[u8],
    base: u64,
    start: usize,
    stepper: &StepperStart<'_>,
    candidates: &mut Candidates,
    (opens, spans): (&mut Vec<Open>, &mut Opens),
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
            let (longer, open) = table.longer_agreeing(id, after);
            if let Some(range) = open.filter(|_| start < stepper.get()) {
                // Each agrees with the input to its end, which it passes.
                let matched = (stepper.get() - start) as u32;
                spans.push_span(range, base + start as u64, matched);
            }
            for id in longer {
                let reach = verifier.verify(table, id, input, start as u64, len, start + len);
                match reach.outcome {
                    Outcome::Full => {
                        let len = reach.len as u64;
                        offer_direct(engine, candidates, id, base + start as u64, len);
                    }
                    // Still open: the stepper takes it on from its start.
                    Outcome::AtEnd if start < stepper.get() => opens.push(Open {
                        id,
                        start: base + start as u64,
                        matched: (stepper.get() - start) as u32,
                    }),
                    _ => {}
                }
            }
        }
    }
}

/// Base64 and hex patterns on the CR/LF-free view of `input`, from view
/// grams at sampled positions; what is open at the end, as [`direct_at`]
/// gives it, to `opens` and `spans`.
fn filter_view(
    engine: &Engine,
    input: &[u8],
    base: u64,
    stepper: &StepperStart<'_>,
    candidates: &mut Candidates,
    (opens, spans): (&mut Vec<Open>, &mut Opens),
) {
    let index = &engine.view_seeds;
    if index.is_empty() {
        return;
    }
    let mut pass = ViewPass {
        engine,
        input,
        base,
        stepper,
        after_stepper: None,
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
    // The direct filter asked for the output's room.
    let ask = Ahead {
        bitmap: index.is_large(),
        input: false,
        room: OutputRoom::NONE,
        view_first: None,
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
                pass.view_at(start, view_start, candidates, (opens, spans));
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
    stepper: &'a StepperStart<'a>,
    /// The view bytes from the stepper's start to the end, once needed.
    after_stepper: Option<usize>,
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
        (opens, spans): (&mut Vec<Open>, &mut Opens),
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
                let after = ViewFollowing { input, from: pos };
                let (longer, open) = table.longer_agreeing(id, &after);
                if let Some(range) = open.filter(|_| start < self.stepper.get()) {
                    // Each agrees with the view to its end, which it passes:
                    // those view bytes before the stepper's start matched.
                    let to_end = PREFIX + view_len(&input[pos..]) as usize;
                    let matched = to_end - self.view_after_stepper();
                    spans.push_span(range, self.base + start as u64, matched as u32);
                }
                for id in longer {
                    let reach = self
                        .verifier
                        .verify(table, id, input, view_start, PREFIX, pos);
                    match reach.outcome {
                        Outcome::Full => {
                            let span = (reach.end - start) as u64;
                            offer_view(engine, candidates, id, self.base + start as u64, span);
                        }
                        // The input ended inside the pattern: still open,
                        // and the stepper takes it on from its start with
                        // the view bytes before it matched.
                        Outcome::AtEnd if start < self.stepper.get() => {
                            // Every view byte from `start` to the end
                            // matched: those before the stepper's start are
                            // its count.
                            let before = reach.len - self.view_after_stepper();
                            opens.push(Open {
                                id,
                                start: self.base + start as u64,
                                matched: before as u32,
                            });
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    fn view_after_stepper(&mut self) -> usize {
        let (input, from) = (self.input, self.stepper.get());
        *self
            .after_stepper
            .get_or_insert_with(|| view_len(&input[from..]) as usize)
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
    use crate::engine::text_of;

    #[test]
    fn the_pages_input_runs_into_are_found_where_they_begin() {
        let buffer = vec![0u8; 5 * 4096];
        // The index in `buffer` of its first page start.
        let page = buffer.as_ptr().align_offset(4096);
        let starts = |from: usize, len: usize| -> Vec<usize> {
            page_starts(&buffer[page + from..page + from + len]).collect()
        };
        // A push of 4 KiB 16 bytes into a page: its last 16 bytes are on
        // the next one.
        assert_eq!(starts(16, 4096), [4080]);
        assert_eq!(starts(16, 4081), [4080]);
        assert!(starts(16, 4080).is_empty());
        // From a page's start: the next pages' starts, not its own.
        assert!(starts(0, 4096).is_empty());
        assert_eq!(starts(0, 4097), [4096]);
        assert_eq!(starts(0, 3 * 4096), [4096, 8192]);
        assert_eq!(starts(4095, 2), [1]);
        assert!(starts(4095, 1).is_empty());
        assert!(starts(100, 0).is_empty());
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
}
