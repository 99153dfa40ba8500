//! The matching state of one stream, SPEC §3 and §4. Small pushes step the
//! stepper (both prefix automata, the open verifications and the fragment
//! run) over every byte; large ones go through the seed filter
//! (`filter.rs`), which finds the same candidates and then steps only over
//! a short tail. Candidates go to one sink (`candidates.rs`); a match is
//! decided as soon as nothing that can still arrive could change it, and
//! only the bytes that could still become part of a match are held.

use std::collections::VecDeque;

use zeroize::Zeroize;

use super::Engine;
use super::append::append;
use super::automaton::StateId;
use super::candidates::{Candidate, Candidates};
use super::end_breaks::{self, EndBreaks};
use super::filter;
use super::fragments::{Run, Stretch};
use super::hashed_starts::number;
use super::opens::{Open, Opens};
use super::output_room::OutputRoom;
use super::seeds::{GRAM, gram, is_break, view_gram};
use super::tail::{self, StepperStart, TAIL};
use crate::form::{Form, Hit};
use crate::{FRAGMENT, MIN_VALUE};

/// Bytes scanned before candidates are decided and output is emitted, so a
/// large push holds little.
const BLOCK: usize = 256 * 1024;

/// Pushes shorter than this are stepped byte by byte.
const FILTER_FROM: usize = 48;

/// A push too short to hold the filter's whole tail reads what is held
/// again (see [`Matcher::scan_filtered`]): it is filtered only while what
/// is held is at most this many times its length. Filtering reads at about
/// a nanosecond a byte, where a step costs 20 to 50 with large automata: 16
/// keeps the cost of a push linear in its length and below that of
/// stepping it.
const HELD_PER_NEW: usize = 16;

/// Input read in place is asked for ahead of the filter's reads where at
/// least this many bytes are scanned: for fewer (a push of 4 KiB), the
/// asking costs more than it saves, the processor's own prefetching doing
/// about as well (4 KiB pushes 1.02 to 1.03 x at 10 and 100 tokens), but
/// for the first line of each page (see `filter::prefetch_page_starts`).
const READ_AHEAD_FROM: usize = 16 * 1024;

/// A copied push of so many bytes asks for the lines of the caller's
/// output that it will write (about as many as it brings) at once, before
/// its scan (see [`OutputRoom`]): 4 KiB pushes 1.02 to 1.11 x where that
/// room was not in the cache. For fewer the asking cost about what it
/// saved, and more are written long after they are asked for (64 KiB
/// pushes 0.95 x). Input read in place has its room asked for as the
/// filter reads it.
const PREFETCH_OUT: std::ops::Range<usize> = 1024..16 * 1024;

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

    fn is_line_break(&self, position: u64) -> bool {
        matches!(self.bytes[self.index(position)], b'\r' | b'\n')
    }

    /// Whether the byte `back` bytes before the end (1: the last) is a CR
    /// or LF: [`Input::is_line_break`] without the position's arithmetic,
    /// for the quick decision of every small push.
    fn is_line_break_back(&self, back: usize) -> bool {
        matches!(self.bytes[self.bytes.len() - back], b'\r' | b'\n')
    }
}

/// The line breaks a matcher has room for from the start (see
/// [`Matcher::new`]).
const LINE_BREAKS_ROOM: usize = 4;

/// The most bytes held unstepped (see [`Matcher::unstepped`]), and the
/// most that a push of one byte decides without a step with what it held:
/// their number is a word, and where their CR and LF bytes are a byte.
const UNSTEPPED_MOST: usize = 8;

/// The longest tail decided without a step: one byte shorter than the
/// shortest pattern, so that none is complete in it (a window is longer).
const DECIDED_UNSTEPPED: usize = MIN_VALUE - 1;

/// Where the bytes that a feed brings are: the filter asks for them ahead
/// of its first read only where they are not in the cache yet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Source {
    /// The caller's buffer, read in place ([`Scrubber::bytes`]): not read
    /// yet, most likely not in the cache.
    ///
    /// [`Scrubber::bytes`]: crate::Scrubber::bytes
    InPlace,
    /// As [`Source::InPlace`], a large push, whose first line of each page
    /// was asked for as it began (see [`Matcher::prefetch_pages`]).
    Pushed,
    /// Just copied into the stream's buffer: in the cache, what its end
    /// reads asked for before the copy.
    Copied,
}

#[derive(Clone)]
pub(crate) struct Matcher {
    /// Everything before this position is decided and emitted.
    decided: u64,
    /// Bytes consumed so far.
    end: u64,
    /// The last bytes consumed that the automata, the line breaks and the
    /// fragment run have not read: a tail held without a step (see
    /// [`Matcher::decide_tail_unstepped`]), 0 to [`UNSTEPPED_MOST`] bytes,
    /// a CR or LF among them only where a push of one byte held them
    /// ([`Matcher::decide_byte_across_breaks`]).
    /// Where there are any, they are all that is held, nothing is open, no
    /// candidate is known once the feed has replaced those found before
    /// them, the run is empty (`run_end` where they start)
    /// and the automata are at their start, as they would be there before
    /// stepping them. A count, not a position: `end` moves at every step
    /// without it.
    unstepped: u8,
    /// The bytes held unstepped, where there are any, as a number (see
    /// `hashed_starts::number`): the push of one byte makes that of what is
    /// held and the new byte from it, where it read them back from the
    /// stream's buffer, the new byte just written there. Pushes of one
    /// byte, paired medians of rounds alternated in one binary switched:
    /// 1.03 x at 10 tokens, 1.03 to 1.045 at 100, 1.05 at 1,000, 1.02 at
    /// 10,000 and at 10 x 64 KiB, 1.03 at 100 x 4 KiB. (Their number read
    /// as two words that overlap, not a byte at a time, took 2.5% fewer
    /// instructions but 0.85 to 0.93 x the time: a word that spans the
    /// byte just written waits for the store.) Value bytes: wiped when the
    /// matcher goes.
    unstepped_number: u64,
    /// A bit for each byte held unstepped that is a CR or LF, the first
    /// byte's lowest: the push of one byte after them tells them apart
    /// without reading them again.
    unstepped_breaks: u8,
    direct_state: StateId,
    view_state: StateId,
    /// Positions of the CR and LF bytes at or after `decided` (from where
    /// the automata were last started afresh).
    line_breaks: VecDeque<u64>,
    candidates: Candidates,
    direct_opens: Opens,
    view_opens: Opens,
    /// Room for the filter's opens before they are sorted.
    filter_opens: Vec<Open>,
    /// The fragment run, which has read every byte before `run_end`: or,
    /// where it was started empty at `run_end`, no fragment can start
    /// before it that is not final (a tail held without a step, and
    /// `tail::run_start`).
    run: Run,
    run_end: u64,
    /// Per secret, per form: matches replaced (empty before the first).
    counts: Vec<[u64; Form::ALL.len()]>,
}

impl Matcher {
    pub(crate) fn new(engine: &Engine) -> Matcher {
        Matcher {
            decided: 0,
            end: 0,
            unstepped: 0,
            unstepped_number: 0,
            unstepped_breaks: 0,
            direct_state: engine.direct.start(),
            view_state: engine.view.start(),
            // Room for the few a stream most often holds, taken now: a
            // push that decides its tail without a step steps no line
            // break, so a stream of such pushes would otherwise take it at
            // its first push of one byte that is one, while warm (the C
            // ABI's test that a warm push allocates nothing).
            line_breaks: VecDeque::with_capacity(LINE_BREAKS_ROOM),
            candidates: Candidates::default(),
            direct_opens: Opens::default(),
            view_opens: Opens::default(),
            filter_opens: Vec::new(),
            run: Run::empty(),
            run_end: 0,
            // Sized on the first match: most scrubs (the compile's own leak
            // check among them) find none.
            counts: Vec::new(),
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

    /// No candidate is known and no verification is open, of either
    /// automaton.
    #[inline(always)]
    fn nothing_open(&self) -> bool {
        self.candidates.is_empty() && self.direct_opens.is_empty() && self.view_opens.is_empty()
    }

    /// Scans the bytes of `data` not scanned before and appends to `out`
    /// every byte that is decided. `data[0]` is at position `base`, at or
    /// before [`Matcher::decided`]; `data` runs to the end of the input,
    /// and is where `source` says.
    pub(crate) fn feed(
        &mut self,
        engine: &Engine,
        data: &[u8],
        base: u64,
        out: &mut Vec<u8>,
        source: Source,
    ) {
        let mut done = (self.end - base) as usize;
        let fed = data.len() - done;
        if source == Source::Copied && PREFETCH_OUT.contains(&fed) {
            OutputRoom::of(out, fed).prefetch(0, fed);
        }
        while done < data.len() {
            let stop = (done + BLOCK).min(data.len());
            let input = Input {
                bytes: &data[..stop],
                base,
            };
            // Filtering is worth it for enough new bytes to outweigh its
            // fixed cost; it reads only the last bytes held again when the
            // new ones hold its tail, else all of them (see HELD_PER_NEW).
            let held = done - input.index(self.decided);
            let new = stop - done;
            let tail_in_new = || {
                let new_bytes = &input.bytes[done..];
                tail::tail_start(new_bytes, &EndBreaks::of(new_bytes)) > 0
            };
            if new >= FILTER_FROM && (held <= HELD_PER_NEW * new || tail_in_new()) {
                // A copied push asked for the probes of its end before its
                // copy (see `prefetch_end`), not of a block's before it.
                let end_asked = source == Source::Copied && stop == data.len();
                // What is decided of the block is written after `out`.
                let room = match source {
                    Source::InPlace | Source::Pushed => {
                        OutputRoom::of(out, stop - input.index(self.decided))
                    }
                    Source::Copied => OutputRoom::NONE,
                };
                self.scan_filtered(engine, input, source, end_asked, room);
            } else {
                self.step_unstepped(engine, &input.bytes[..done]);
                self.scan(engine, input, done);
            }
            if self.unstepped == 0 {
                self.decide(engine, input, out, false);
            } else {
                // Held without a step: everything before it is decided, the
                // candidates found before it replaced (each ends before the
                // tail: see `decide_tail_unstepped`).
                let held = self.end - u64::from(self.unstepped);
                self.replace_to(engine, input, out, Some(held));
                debug_assert!(self.candidates.is_empty() && self.decided == held);
            }
            done = stop;
        }
    }

    /// Asks for what the end of a feed whose input ends with `end` reads
    /// first, where it is filtered in a large engine (in a small one all is
    /// in the cache): called before `end` is copied.
    #[inline(always)]
    pub(crate) fn prefetch_end(engine: &Engine, end: &[u8]) {
        if end.len() >= FILTER_FROM && !engine.steps_quickly() {
            tail::prefetch_end_probes(engine, end);
        }
    }

    /// Asks for the first line of each page of `input` after its first,
    /// where a feed of it read in place would not read it ahead (see
    /// `filter::prefetch_page_starts`): by the scan for [`Source::InPlace`],
    /// and as a push read in place begins ([`Source::Pushed`]), before the
    /// probes of what it releases, whose waits on memory the misses (and
    /// the walks of the page tables) then overlap, where the filter asked
    /// once they were done. 4 KiB pushes, paired medians
    /// of five runs of 16 rounds a shape, one binary switched: 0.99 to 1.05
    /// x at 100 tokens, 0.99 to 1.07 at 1,000, 1.01 to 1.03 at 10,000, 1.01
    /// to 1.11 at 10 x 64 KiB, 1.00 to 1.06 at 100 x 4 KiB.
    #[inline(always)]
    pub(crate) fn prefetch_pages(input: &[u8]) {
        if input.len() < READ_AHEAD_FROM {
            filter::prefetch_page_starts(input);
        }
    }

    /// [`Matcher::feed`] where `data` holds one new byte (a keystroke, an
    /// echo), as the stream hands every push of one byte: stepped without
    /// the scan's loop, whose setting up cost a tenth of such a push, and
    /// inlined into the stream's push with the quick decision, where the
    /// calls of `feed` and `decide`, each saving and restoring the
    /// registers of its whole body, cost a sixth of it.
    #[inline(always)]
    pub(crate) fn feed_byte(&mut self, engine: &Engine, data: &[u8], base: u64, out: &mut Vec<u8>) {
        debug_assert_eq!(self.end + 1, base + data.len() as u64);
        debug_assert_eq!(base, self.decided);
        if !self.decide_byte_unstepped(engine, data, out) {
            self.step_byte(engine, data, base, out);
        }
    }

    /// [`Matcher::feed_byte`] by a step: the byte, and before it any tail
    /// held without one.
    #[inline(always)]
    fn step_byte(&mut self, engine: &Engine, data: &[u8], base: u64, out: &mut Vec<u8>) {
        // After a filtered push, a tail held without a step is stepped
        // first (a branch the processor predicts).
        let (&byte, consumed) = data.split_last().expect("a new byte");
        self.step_unstepped(engine, consumed);
        let input = Input { bytes: data, base };
        self.step(engine, self.end, byte);
        self.stepped_to(self.end + 1);
        self.decide(engine, input, out, false);
    }

    /// The push of one byte decided without a step, as a push's tail (see
    /// [`Matcher::decide_tail_unstepped`]): where what is held and the new
    /// byte (`data`, from `decided`) are at most one byte longer than the
    /// strings the exact starts hold, none a CR or LF (with one, see
    /// [`Matcher::decide_byte_across_breaks`]), and nothing is open
    /// or a candidate (the run shorter than a window), stepping would hold
    /// them from the first byte from which they begin a pattern or a
    /// window (none is so short that it is complete here) and decide
    /// everything before. The exact starts tell that (see
    /// `ExactStarts::first_begun`: of bytes longer than the strings held
    /// exactly, their hashed bits tell only that they begin none), and
    /// where they cannot, the byte is stepped. What is held stays
    /// unstepped (a tail of at most the exact strings' length); where the
    /// matcher had stepped what it holds, the automata and the run start
    /// afresh at `decided`, as after a release (no candidate before it can
    /// be taken, and what starts there is found again when they step what
    /// is held). In text whose short strings seldom begin a value's
    /// window, the push of one byte then reads a few bits instead of three
    /// automata.
    #[inline(always)]
    fn decide_byte_unstepped(&mut self, engine: &Engine, data: &[u8], out: &mut Vec<u8>) -> bool {
        let exact = &engine.exact_starts;
        let (len, longest) = (data.len(), exact.longest());
        // What is held and the byte, to be held unstepped at most.
        if longest == 0 || len > UNSTEPPED_MOST {
            return false;
        }
        // Held unstepped (or nothing held), nothing is open: see `unstepped`.
        let at_rest =
            self.unstepped != 0 || (self.nothing_open() && self.run.len() < FRAGMENT as u64);
        if !at_rest {
            return false;
        }
        debug_assert!(self.unstepped == 0 || usize::from(self.unstepped) + 1 == len);
        // What is held unstepped says where its CR and LF bytes are.
        let breaks = match self.unstepped {
            0 => data.iter().any(|&b| is_break(b)),
            _ => self.unstepped_breaks != 0 || data.last().is_some_and(|&b| is_break(b)),
        };
        if breaks {
            return self.decide_byte_across_breaks(engine, data, out);
        }
        // Longer where the matcher stepped what it holds: most often a
        // pattern's prefix that goes on (tried, 2 to 5% slower pushes).
        if len > longest + 1 {
            return false;
        }
        let byte = u64::from(data[len - 1]);
        let whole = match self.unstepped {
            0 if len == 1 => byte,
            0 => number(data),
            _ => self.unstepped_number << 8 | byte,
        };
        debug_assert_eq!(whole, number(data));
        let Some(held_from) = exact.first_begun(len, whole) else {
            return false;
        };
        let held = len - held_from;
        self.hold_unstepped(engine, data, held_from, lowest_bytes(whole, held), 0, out);
        exact.prefetch_after(held, self.unstepped_number);
        true
    }

    /// Decides the push of one byte without a step, as stepping would:
    /// emits what is before `held_from` (an index in `data`, what is held
    /// and the byte, from `decided`) and holds the rest unstepped, whose
    /// number and line breaks' bits are `number` and `breaks`. Where the
    /// matcher had stepped what it held, the automata and the run start
    /// afresh at what is decided (see [`Matcher::decide_byte_unstepped`]).
    #[inline(always)]
    fn hold_unstepped(
        &mut self,
        engine: &Engine,
        data: &[u8],
        held_from: usize,
        number: u64,
        breaks: u8,
        out: &mut Vec<u8>,
    ) {
        let decided = self.decided + held_from as u64;
        // Checked in the crate's tests and under the fuzzer only: the copy
        // allocates, and a caller's debug build must not (the C ABI's test
        // that a warm push allocates nothing).
        #[cfg(any(test, fuzzing))]
        {
            // Stepping decides all before `decided`, and holds the rest.
            let mut stepping = self.clone();
            let mut emitted = Vec::new();
            stepping.step_byte(engine, data, self.decided, &mut emitted);
            assert_eq!(stepping.decided, decided, "a byte decided without a step");
            assert_eq!(emitted, &data[..held_from]);
        }
        if self.unstepped == 0 {
            self.run = Run::empty();
            self.reset_automata(engine);
        }
        append(out, &data[..held_from]);
        self.end += 1;
        self.decided = decided;
        self.unstepped = (data.len() - held_from) as u8;
        self.unstepped_number = number;
        self.unstepped_breaks = breaks;
        self.run_end = decided;
        self.candidates.decided_to(decided);
    }

    /// [`Matcher::decide_byte_unstepped`] where what is held and the new
    /// byte (`data`, at most 8 bytes) hold a CR or LF: stepping would hold
    /// them from the first position from which their bytes, the CR and LF
    /// passed over, begin a direct pattern or a window, or their view bytes
    /// a view pattern, as `tail::first_held_across_breaks` tells (no
    /// pattern is complete here: a view one is longer than 8 view bytes,
    /// and one of 8 direct bytes is never told to begin nothing). What is
    /// held, CR and LF included, stays unstepped, with where they are.
    /// Where a value holds line breaks (a PEM key's), a short string and
    /// a line break most often begin one of its windows: at 10 x 64 KiB
    /// one push of one byte in fifty is a CR or LF, and stepping it and
    /// what it left held stepped 4% of the pushes there, a quarter of the
    /// matcher's time in them. Pushes of one byte, switched in one binary,
    /// rounds alternated: 1.14 to 1.27 x at 10 x 64 KiB, 1.05 to 1.10 x at 100 x 4 KiB, 0.99
    /// to 1.08 x at 10,000 tokens, 1.00 to 1.02 x at 10 to 1,000. (A
    /// push's tail held so too, where it holds a CR or LF: 4 KiB pushes
    /// 0.94 to 0.97 x at 10,000 tokens and 100 x 4 KiB; not done.)
    #[inline(never)]
    fn decide_byte_across_breaks(
        &mut self,
        engine: &Engine,
        data: &[u8],
        out: &mut Vec<u8>,
    ) -> bool {
        let breaks = end_breaks::breaks_of(data) as u32;
        let Some(held_from) = tail::first_held_across_breaks(engine, data, breaks) else {
            return false;
        };
        // Up to 8 bytes held: their number read from them.
        let held = &data[held_from..];
        self.hold_unstepped(
            engine,
            data,
            held_from,
            number(held),
            (breaks >> held_from) as u8,
            out,
        );
        true
    }

    /// The push of `byte` alone, where it begins nothing (see `inert.rs`)
    /// and nothing is held: stepping it would decide it and leave nothing
    /// open. Emits it and returns true; else changes nothing and returns
    /// false. A byte of punctuation or space after another (about one byte
    /// in twenty of text) is pushed so without the stepper: 3% fewer
    /// instructions for pushes of one byte.
    #[inline(always)]
    pub(crate) fn pass_inert(&mut self, engine: &Engine, byte: u8, out: &mut Vec<u8>) -> bool {
        // The byte first: most are no such byte.
        if !engine.inert.holds(byte) || self.end != self.decided {
            return false;
        }
        // Nothing held: no open, no candidate (each lies in what is held).
        debug_assert!(self.nothing_open());
        // Where stepping it would leave the matcher: the fragment run ends
        // (no value holds the byte), and the automata are at their start
        // or at a state that stands only for input before it, whose
        // prefixes are never taken (they start before what is decided).
        self.run = Run::empty();
        self.reset_automata(engine);
        out.push(byte);
        self.stepped_to(self.end + 1);
        self.decided = self.end;
        self.candidates.decided_to(self.end);
        true
    }

    /// Emits what is held without a step where the first bytes of the next
    /// push (`next`) show that no candidate can start at any of it:
    /// `held` is what is held (1 to 8 bytes, from `decided`), and each
    /// position there has its 8 bytes known and is no pattern's first
    /// gram nor a gram of a value (a window's first bytes); where they
    /// hold a CR or LF, see [`release_across_breaks`].
    /// Every candidate, open verification and fragment that could still
    /// matter starts at a held byte (a fragment starts with a value's
    /// gram), so none can: the matcher emits them and starts afresh at
    /// the push, as if the input began there, and returns true; else it
    /// changes nothing and returns false. A push read in place stepped its
    /// first 1.2 bytes on average at 100 tokens, 460 instructions, before
    /// it could start: 280 fewer a 4 KiB push, 1.01 to 1.03 x.
    #[inline]
    pub(crate) fn release_unopened(
        &mut self,
        engine: &Engine,
        held: &[u8],
        next: &[u8],
        out: &mut Vec<u8>,
    ) -> bool {
        let count = held.len();
        debug_assert_eq!(count as u64, self.end - self.decided);
        if count == 0 || count > GRAM || next.len() < GRAM {
            return false;
        }
        // The held bytes and the next 8: each held position's 8 bytes.
        let mut bytes = [0u8; 2 * GRAM];
        bytes[..count].copy_from_slice(held);
        bytes[count..count + GRAM].copy_from_slice(&next[..GRAM]);
        // With a CR or LF among them, the view's grams are other bytes.
        if bytes[..count + GRAM - 1].iter().any(|&b| is_break(b)) {
            if !release_across_breaks(engine, held, next) {
                return false;
            }
        } else if (0..count).any(|p| tail::may_start_at(engine, 0, p, gram(&bytes[p..]))) {
            // A window may start at each of them: all are before the end.
            return false;
        }
        // Each open verification and candidate starts at a held byte.
        debug_assert!(self.nothing_open());
        append(out, held);
        // The run may hold the last held bytes (a part of a value from
        // before what is held): no fragment starts there.
        self.run = Run::empty();
        self.reset_automata(engine);
        self.decided = self.end;
        // After a tail held without a step, the run had not read it.
        self.unstepped = 0;
        self.run_end = self.end;
        self.candidates.decided_to(self.end);
        true
    }

    /// Decides everything held as if the input ended here, appends it to
    /// `out`, and starts afresh: no later match can begin before this point.
    /// `data` and `base` as for [`Matcher::feed`], with nothing new in it.
    pub(crate) fn finish(&mut self, engine: &Engine, data: &[u8], base: u64, out: &mut Vec<u8>) {
        let input = Input { bytes: data, base };
        debug_assert_eq!(input.end(), self.end);
        self.step_unstepped(engine, data);
        let Matcher {
            run,
            candidates,
            decided,
            end,
            ..
        } = self;
        run.finish(*end, |f| offer_fragment(candidates, *decided, f));
        self.decide(engine, input, out, true);
        self.reset_automata(engine);
        self.direct_opens.clear();
        self.view_opens.clear();
        self.run = Run::empty();
        self.run_end = self.end;
    }

    /// Hits so far: by secret index, then form order.
    pub(crate) fn hits(&self, engine: &Engine) -> Vec<Hit> {
        let mut hits = Vec::new();
        for (secret, counts) in engine.secrets.iter().zip(&self.counts) {
            for &form in Form::ALL {
                let count = counts[form as usize];
                if count > 0 {
                    hits.push(Hit {
                        name: secret.name().to_owned(),
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
            let form = Form::ALL
                .iter()
                .copied()
                .find(|&f| counts[f as usize] > 0)?;
            Some((secret, form))
        })
    }

    /// Finds the same candidates as [`Matcher::scan`] over the new bytes,
    /// without stepping over every byte: the seed filters find every
    /// complete candidate, every open verification and the fragment run
    /// that reach the end from before the tail, then the stepper is started
    /// afresh on the tail, so that what is held is exactly what stepping
    /// every byte would hold. What the stepper knew where the input ended
    /// before is exact, so only the last bytes held are filtered again: the
    /// opens that started before them and the fragment run go on from
    /// there, and bytes held for a long candidate are not read again at
    /// every push. `end_asked`: what the stepper's start reads of the
    /// input's end is already asked for (else it is asked for here).
    /// `room`: where what this scan lets be decided is written. Not
    /// inlined: `feed` stays small for the pushes of a few bytes, which
    /// never come here.
    #[inline(never)]
    fn scan_filtered(
        &mut self,
        engine: &Engine,
        input: Input<'_>,
        source: Source,
        end_asked: bool,
        room: OutputRoom<'_>,
    ) {
        let held = (self.end - self.decided) as usize;
        // A tail held without a step is shorter than a tail: filtered
        // again whole, the automata started afresh.
        debug_assert!(self.unstepped == 0 || held <= TAIL);
        self.unstepped = 0;
        self.end = input.end();
        let first = input.index(self.decided);
        let open = &input.bytes[first..];
        let read_ahead = source != Source::Copied && open.len() >= READ_AHEAD_FROM;
        // A push asked for them as it began.
        if source == Source::InPlace {
            Self::prefetch_pages(open);
        }
        // What the stepper's start reads of the end, where it is found
        // after the filters (no more than a tail held): asked for between
        // them, once the direct filter has brought the end into the cache
        // (read in place, the end was most often not there, and the push
        // waited on memory to ask: 4 KiB pushes 1.04 to 1.06 x at 10 x 64
        // KiB, 1.03 to 1.05 x at 100 x 4 KiB, alternated binaries); else
        // before them.
        let end_between = !end_asked && held <= TAIL;
        // Most often the filters start at `open`.
        let view_first = filter::prefetch_first_batches(engine, open, end_asked || end_between);
        // The stepper starts where something could still be open at the end;
        // the filter hands it what started before. Filtered again from
        // where a prefix could have been in progress (fewer than 16 bytes
        // or view bytes before the end): whatever starts there is found
        // again, and nothing that starts before is unknown but the opens
        // and the run. When the tail reaches into what is held, the opens
        // are past it: all is filtered again. Where no more than a tail is
        // held, all is filtered again whatever the stepper's start, which
        // is then found after the filter (see `tail::StepperStart`).
        let (again, stepper) = if held <= TAIL {
            (0, StepperStart::of(engine, open))
        } else {
            let breaks = EndBreaks::of(open);
            let tail = tail::tail_start(open, &breaks);
            let from = tail::stepper_start(engine, open, tail, &breaks);
            let again = if from >= held {
                let before = &open[..held];
                tail::tail_start(before, &EndBreaks::of(before))
            } else {
                0
            };
            (
                again,
                StepperStart::known(engine, &open[again..], from - again),
            )
        };
        let restart = self.decided + again as u64;
        self.reset_automata(engine);
        self.direct_opens.drop_from(restart);
        self.view_opens.drop_from(restart);
        // The opens alone over the new bytes up to the stepper's start.
        if !(self.direct_opens.is_empty() && self.view_opens.is_empty()) {
            let start = self.decided + held as u64;
            let from = again + stepper.get();
            self.advance_opens(engine, start, open.get(held..from).unwrap_or_default());
        }
        // The run has read everything before `run_end` (the end of the
        // input before this push). One shorter than a window holds no
        // fragment yet: where it starts at or after `restart`, the filter
        // finds again whatever starts there, and is told only that every
        // start before it is final, where walking the run on cost a miss a
        // byte in a large automaton (in text whose short strings are all in
        // some value, the run is seldom empty).
        let run_start = self.run_end - self.run.len();
        let carried = if self.run.len() < FRAGMENT as u64 && run_start >= restart {
            (Run::empty(), (run_start - restart) as usize)
        } else {
            (self.run, (self.run_end - restart) as usize)
        };
        let run = filter::find(
            engine,
            &open[again..],
            restart,
            &stepper,
            carried,
            &mut self.candidates,
            &mut self.direct_opens,
            &mut self.view_opens,
            &mut self.filter_opens,
            read_ahead,
            end_between,
            room,
            view_first,
        );
        let from = again + stepper.get();
        match run {
            Some(run) => {
                self.run = run;
                self.run_end = self.end;
            }
            None => {
                self.run = Run::empty();
                self.run_end = self.decided + from as u64;
                if self.decide_tail_unstepped(engine, input, first + from) {
                    return;
                }
                // The run steps the tail from where a window may begin.
                self.run_end = self.decided + tail::run_start(engine, open, from) as u64;
            }
        }
        self.scan(engine, input, first + from);
    }

    /// Decides the tail from `from` (an index in `input`, where the stepper
    /// would start, the run empty there) without a step where it is 1 to
    /// [`DECIDED_UNSTEPPED`] bytes, or up to 9 that hold a CR or LF (no
    /// view pattern is whole in 8 view bytes, and a direct one of 8 is
    /// never told to begin nothing: see below), the exact starts tell it
    /// (see `ExactStarts::first_begun` and, where it holds a CR or LF,
    /// `tail::first_held_across_breaks`), what would be held holds no CR
    /// or LF, nothing found before it is open, and every candidate found
    /// before it ends there at the latest: then stepping would hold it from
    /// the first byte from which its bytes begin a pattern or a window (the
    /// automata, started at `from`, hold their longest pending suffix; the
    /// run, its longest window prefix; no candidate is complete in so few
    /// bytes), replace every candidate (each starts before that) and decide
    /// everything before, which the exact starts tell without a step, and
    /// the feed then replaces them so (a push of 4 KiB that holds a match,
    /// one in eight at the benchmark's token shapes, was stepped at its tail
    /// for it). What is held is held unstepped: the automata
    /// stay at their start as of its first byte, marked so
    /// ([`Matcher::unstepped`]), and step it only where something reads
    /// them (most often the next push filters it again, or releases it
    /// unstepped); where nothing is, all is decided as after a step that
    /// leaves nothing open. Returns whether the tail is decided so.
    #[inline]
    fn decide_tail_unstepped(&mut self, engine: &Engine, input: Input<'_>, from: usize) -> bool {
        let tail = &input.bytes[from..];
        // Where no strings are held, `first_begun` tells nothing. With a CR
        // or LF, a tail of 9 bytes holds 8 view bytes at most (7 where the
        // stepper starts: a CR LF ends them), and of a direct pattern of 8
        // there the exact starts ask the hashed bits of its first bytes
        // (one more than the exact strings), which cannot tell that it
        // begins none. The tail's bytes are looked at only where it is
        // that short.
        let decidable = (1..=DECIDED_UNSTEPPED + 2).contains(&tail.len())
            && self.direct_opens.is_empty()
            && self.view_opens.is_empty()
            && self.candidates.end_by(input.base + from as u64);
        if !decidable {
            return false;
        }
        // Its CR and LF bytes found once, for both tellings below.
        let breaks = end_breaks::breaks_of(tail) as u32;
        if breaks == 0 && tail.len() > DECIDED_UNSTEPPED {
            return false;
        }
        let last_break = breaks.checked_ilog2().map(|b| b as usize);
        // Made once: for the exact starts, and what is held of it for the
        // push of one byte after. Of its last 8 bytes: a tail of 9 holds a
        // CR or LF, and what is held comes after it.
        let whole = number(&tail[tail.len().saturating_sub(GRAM)..]);
        let held_from = match breaks {
            0 => engine.exact_starts.first_begun(tail.len(), whole),
            _ => tail::first_held_across_breaks(engine, tail, breaks),
        };
        // What a push's tail holds unstepped holds no CR or LF: where it
        // would, the tail is stepped (held so, 4 KiB pushes were slower:
        // see `decide_byte_across_breaks`). At 10 x 64 KiB, tails with a CR or
        // LF (one push of 4 KiB in seventeen) so decided, and the release
        // of what is held across line breaks (`release_across_breaks`):
        // 4 KiB pushes 1.013 to 1.034 x, switched in one binary, rounds
        // alternated; 1.01 to 1.02 x at 100 x 4 KiB.
        let Some(held_from) = held_from.filter(|&at| last_break.is_none_or(|b| at > b)) else {
            return false;
        };
        let at = input.base + (from + held_from) as u64;
        debug_assert_eq!(self.run_end, input.base + from as u64);
        // As in `decide_byte_unstepped`: in tests and under the fuzzer.
        #[cfg(any(test, fuzzing))]
        {
            // Stepping decides all before `at`, and holds the rest.
            let mut stepping = self.clone();
            stepping.scan(engine, input, from);
            stepping.decide(engine, input, &mut Vec::new(), false);
            assert_eq!(stepping.decided, at, "a tail decided without a step");
            // What a push's tail holds unstepped holds no CR or LF.
            let held = &tail[held_from..];
            assert!(
                !held.iter().any(|&b| is_break(b)),
                "a line break held unstepped"
            );
        }
        // The automata are at their start (the filter started them afresh,
        // and nothing stepped them), the run empty.
        let held = tail.len() - held_from;
        self.unstepped = held as u8;
        self.unstepped_number = lowest_bytes(whole, held);
        self.unstepped_breaks = 0;
        self.run_end = at;
        true
    }

    /// Steps the tail held without a step (see [`Matcher::unstepped`]), if
    /// any: the automata and the run then know it, as if the push had
    /// stepped it. `consumed` is the input up to `end`, which holds it
    /// last: a slice, passed in registers, where the input's `Input` made
    /// the push of one byte store it on the stack for the call it seldom
    /// makes (5 more instructions a push).
    #[inline(always)]
    fn step_unstepped(&mut self, engine: &Engine, consumed: &[u8]) {
        if self.unstepped != 0 {
            self.step_held_tail(engine, consumed);
        }
    }

    /// [`Matcher::step_unstepped`] where a tail is held so.
    #[cold]
    #[inline(never)]
    fn step_held_tail(&mut self, engine: &Engine, consumed: &[u8]) {
        let count = usize::from(self.unstepped);
        let from = self.end - count as u64;
        debug_assert_eq!(from, self.decided);
        for (i, &byte) in consumed[consumed.len() - count..].iter().enumerate() {
            self.step(engine, from + i as u64, byte);
        }
        self.unstepped = 0;
    }

    /// The open verifications read the byte at `at` (those of the view
    /// only a byte that is no CR or LF): each takes it, completes (a
    /// candidate) or fails.
    #[inline]
    fn step_opens(&mut self, engine: &Engine, at: u64, byte: u8) {
        let (direct_opens, view_opens, candidates) = self.opens_and_candidates();
        if !direct_opens.is_empty() {
            direct_opens.step(&engine.direct_table, byte, |id, start| {
                offer_direct(engine, candidates, id, start, at + 1 - start);
            });
        }
        if !view_opens.is_empty() && byte != b'\r' && byte != b'\n' {
            view_opens.step(&engine.view_table, byte, |id, start| {
                offer_view(engine, candidates, id, start, at + 1 - start);
            });
        }
    }

    /// The open verifications read `bytes`, which start at `base`, as
    /// [`Matcher::step_opens`] a byte at a time (the candidates they
    /// complete are the same whatever the order they are offered in).
    fn advance_opens(&mut self, engine: &Engine, base: u64, bytes: &[u8]) {
        let (direct_opens, view_opens, candidates) = self.opens_and_candidates();
        if !direct_opens.is_empty() {
            let table = &engine.direct_table;
            direct_opens.advance(table, false, bytes, base, |id, start, end| {
                offer_direct(engine, candidates, id, start, end - start);
            });
        }
        if !view_opens.is_empty() {
            view_opens.advance(&engine.view_table, true, bytes, base, |id, start, end| {
                offer_view(engine, candidates, id, start, end - start);
            });
        }
    }

    /// Both sets of opens and the candidates they complete into, borrowed
    /// at once.
    #[inline(always)]
    fn opens_and_candidates(&mut self) -> (&mut Opens, &mut Opens, &mut Candidates) {
        (
            &mut self.direct_opens,
            &mut self.view_opens,
            &mut self.candidates,
        )
    }

    /// Steps the stepper over `input.bytes[from..]`, collecting candidates.
    fn scan(&mut self, engine: &Engine, input: Input<'_>, from: usize) {
        for (i, &byte) in input.bytes.iter().enumerate().skip(from) {
            self.step(engine, input.base + i as u64, byte);
        }
        self.stepped_to(input.end());
    }

    /// The stepper has read everything before `end` (the run too).
    #[inline(always)]
    fn stepped_to(&mut self, end: u64) {
        self.end = end;
        self.run_end = self.run_end.max(end);
    }

    /// The stepper reads `byte`, at position `at`.
    #[inline(always)]
    fn step(&mut self, engine: &Engine, at: u64, byte: u8) {
        if engine.inert.ends(byte) {
            self.step_ending(engine, at);
            return;
        }
        if at >= self.run_end {
            self.step_run(engine, at, byte);
        }
        // Before the automata, which open what starts here.
        self.step_opens(engine, at, byte);
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

    /// [`Matcher::step`] over a byte that no pattern or value holds (see
    /// `inert.rs`; no CR or LF): the run ends, every open verification
    /// fails and each automaton falls back to its start, as stepping would
    /// leave them, without walking down their links (where text leaves the
    /// values' alphabet, about one byte in eleven of the benchmark's). The
    /// automata start afresh after it, so the line breaks before it are
    /// forgotten, as where the filter starts them (no view string that
    /// they could lie in reaches back across it).
    #[inline(always)]
    fn step_ending(&mut self, engine: &Engine, at: u64) {
        if at >= self.run_end {
            let Matcher {
                run,
                candidates,
                decided,
                ..
            } = self;
            run.end_at(at, |f| offer_fragment(candidates, *decided, f));
        }
        self.direct_opens.clear();
        self.view_opens.clear();
        self.reset_automata(engine);
    }

    /// Prefixes of the direct automaton ending at `at` (rare: out of the
    /// stepper's loop).
    #[inline(never)]
    fn direct_matches(&mut self, engine: &Engine, at: u64) {
        for (id, len) in engine.direct.matches(self.direct_state) {
            let start = at + 1 - len as u64;
            if start < self.decided {
                continue;
            }
            let (exact, longer) = engine.direct_table.prefix(id);
            if let Some(exact) = exact {
                offer_direct(engine, &mut self.candidates, exact, start, len as u64);
            }
            if let Some(range) = engine.direct_table.spanned(id) {
                self.direct_opens.push_span(range, start, len as u32);
                continue;
            }
            for &id in longer {
                let open = Open {
                    id,
                    start,
                    matched: len as u32,
                };
                self.direct_opens.push(&engine.direct_table, open);
            }
        }
    }

    /// Prefixes of the view automaton whose last byte is at `at` (rare: out
    /// of the stepper's loop).
    #[inline(never)]
    fn view_matches(&mut self, engine: &Engine, at: u64) {
        for (id, len) in engine.view.matches(self.view_state) {
            let Some(start) = self.view_start(at, len as u64) else {
                continue;
            };
            let (exact, longer) = engine.view_table.prefix(id);
            if let Some(exact) = exact {
                offer_view(engine, &mut self.candidates, exact, start, at + 1 - start);
            }
            if let Some(range) = engine.view_table.spanned(id) {
                self.view_opens.push_span(range, start, len as u32);
                continue;
            }
            for &id in longer {
                let open = Open {
                    id,
                    start,
                    matched: len as u32,
                };
                self.view_opens.push(&engine.view_table, open);
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

    /// The fragment run reads the byte at `at`.
    #[inline]
    fn step_run(&mut self, engine: &Engine, at: u64, byte: u8) {
        let Matcher {
            run,
            candidates,
            decided,
            ..
        } = self;
        run.step(&engine.values, at, byte, |f| {
            offer_fragment(candidates, *decided, f);
        });
    }

    /// Offers the fragments of the run that cannot grow any more, and
    /// returns the earliest start from which a fragment could still be
    /// open: a growing one, or a proper prefix of a window.
    #[inline]
    fn settle_run(&mut self, engine: &Engine, input: Input<'_>) -> Option<u64> {
        let Matcher {
            run,
            candidates,
            decided,
            end,
            ..
        } = self;
        let sam = &engine.values;
        // Only starts from `decided` on can still be candidates. In a value
        // that repeats itself, a run is as long as the input that matches
        // it, its state as many links above that of its last bytes, and
        // what reads its shorter suffixes walks them: kept to what is held,
        // no push walks more than it holds, and each link walked once.
        run.keep_last(sam, *end - *decided);
        let growing = run.settle(sam, *end, |f| {
            offer_fragment(candidates, *decided, f);
        });
        if let Some(mut p) = growing.map(|p| p.max(*decided)) {
            // The first start from there that can begin a candidate.
            while p + FRAGMENT as u64 <= *end && input.is_line_break(p) {
                p += 1;
            }
            if p + FRAGMENT as u64 <= *end {
                // Before any window's prefix, which starts in the last 15
                // bytes.
                return Some(p);
            }
        }
        run.window_prefix(sam, *end, *decided, |p| !input.is_line_break(p))
    }

    /// The earliest position at or after `decided` where the input so far
    /// could still become a candidate longer than any complete one there.
    #[inline]
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
        let mut consider = |p: Option<u64>| {
            if let Some(p) = p {
                earliest = Some(earliest.map_or(p, |e| e.min(p)));
            }
        };
        consider(self.direct_opens.earliest());
        consider(self.view_opens.earliest());
        if direct > 0 {
            consider(Some(self.end - direct));
        }
        if view > 0 {
            let mut last = self.end - 1;
            for &line_break in self.line_breaks.iter().rev() {
                if line_break != last {
                    break;
                }
                last -= 1;
            }
            consider(self.view_start(last, view));
        }
        earliest
    }

    /// Replaces, leftmost first, every candidate that nothing still to come
    /// could change, and emits everything before the earliest pending
    /// position (everything, when `all`). The quick decision inline, the
    /// rest (rare after a small push) out of line.
    #[inline(always)]
    fn decide(&mut self, engine: &Engine, input: Input<'_>, out: &mut Vec<u8>, all: bool) {
        if all || !self.decide_quickly(engine, input, out) {
            self.decide_fully(engine, input, out, all);
        }
    }

    /// [`Matcher::decide`] where the quick decision does not apply.
    #[inline(never)]
    fn decide_fully(&mut self, engine: &Engine, input: Input<'_>, out: &mut Vec<u8>, all: bool) {
        let pending = if all {
            None
        } else {
            let fragments = self.settle_run(engine, input);
            self.pending(engine, input, fragments)
        };
        self.replace_to(engine, input, out, pending);
    }

    /// Replaces each candidate that starts before `pending` (all where it
    /// is `None`), leftmost first, emits what is before `pending` (all
    /// where it is `None`) and decides it. Where a match takes in
    /// `pending`, what is pending is looked for again from its end. Out of
    /// line: the feed calls it for each tail held without a step, and
    /// stays small for the pushes of a few bytes.
    #[inline(never)]
    fn replace_to(
        &mut self,
        engine: &Engine,
        input: Input<'_>,
        out: &mut Vec<u8>,
        mut pending: Option<u64>,
    ) {
        let mut emitted = input.index(self.decided);
        while let Some((start, best)) = self
            .candidates
            .first(&engine.values, |p| input.is_line_break(p))
        {
            if pending.is_some_and(|p| start >= p) {
                break;
            }
            let from = input.index(start);
            let to = from + best.len as usize;
            append(out, &input.bytes[emitted..from]);
            self.replace(engine, &best, &input.bytes[from..to], out);
            emitted = to;
            let end = start + best.len;
            self.advance_to(engine, end);
            if pending.is_some_and(|p| p < end) {
                // The pending start lies inside this match: look again from
                // its end.
                let fragments = self.settle_run(engine, input);
                pending = self.pending(engine, input, fragments);
            }
        }
        let stop = match pending {
            Some(p) => input.index(p),
            None => input.bytes.len(),
        };
        if stop > emitted {
            append(out, &input.bytes[emitted..stop]);
            self.advance_to(engine, input.base + stop as u64);
        }
    }

    /// [`Matcher::decide`] where most pushes of a few bytes of text leave
    /// the matcher: no candidate, no open verification, no CR or LF since
    /// the automata last started (`line_breaks`; one may be held before
    /// that) and no fragment (the run is shorter than a window), so that
    /// what is held is the longest of the automata's pending prefixes and
    /// the run's window prefix, and nothing is replaced. Returns false,
    /// having changed nothing, when the matcher is not in that state.
    #[inline]
    fn decide_quickly(&mut self, engine: &Engine, input: Input<'_>, out: &mut Vec<u8>) -> bool {
        let simple =
            self.nothing_open() && self.line_breaks.is_empty() && self.run.len() < FRAGMENT as u64;
        if !simple {
            return false;
        }
        let open = self.end - self.decided;
        // With no CR or LF since the automata started, the view's pending
        // bytes are the input's.
        let (Some(direct), Some(view)) = (
            engine.direct.pending(self.direct_state, open),
            engine.view.pending(self.view_state, open),
        ) else {
            return false;
        };
        let window = self
            .run
            .window_prefix_len(&engine.values, self.end, self.decided);
        // A CR or LF may be held where the filter handed over (the automata
        // know only those from the stepper's start on), and the run may
        // reach back across it: a window's prefix does not start at one.
        debug_assert_eq!(input.end(), self.end);
        if window > 0 && input.is_line_break_back(window as usize) {
            return false;
        }
        let earliest = self.end - direct.max(view).max(u64::from(window));
        let emitted = input.index(self.decided);
        append(out, &input.bytes[emitted..input.index(earliest)]);
        // `advance_to`, with no line break and no open to drop.
        self.decided = earliest;
        self.candidates.decided_to(earliest);
        true
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
    fn reset_automata(&mut self, engine: &Engine) {
        self.direct_state = engine.direct.start();
        self.view_state = engine.view.start();
        self.line_breaks.clear();
    }

    /// Everything before `position` is decided and emitted.
    fn advance_to(&mut self, engine: &Engine, position: u64) {
        self.decided = position;
        while self.line_breaks.front().is_some_and(|&p| p < position) {
            self.line_breaks.pop_front();
        }
        self.candidates.decided_to(position);
        self.direct_opens
            .drop_before(&engine.direct_table, position);
        self.view_opens.drop_before(&engine.view_table, position);
    }

    fn replace(&mut self, engine: &Engine, best: &Candidate, span: &[u8], out: &mut Vec<u8>) {
        if self.counts.is_empty() {
            self.counts = vec![[0; Form::ALL.len()]; engine.secrets.len()];
        }
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
            secret.raw_replacement()
        } else {
            secret.redaction()
        });
    }
}

/// The last `count` bytes of those whose number is `number` (see
/// `hashed_starts::number`), as their number: what is held unstepped, at
/// most [`EXACT`](super::exact_starts::EXACT) bytes, of a tail or a push.
fn lowest_bytes(number: u64, count: usize) -> u64 {
    debug_assert!(count < 8);
    number & ((1 << (8 * count)) - 1)
}

/// What is held unstepped is input, maybe a value's bytes, as what the
/// stream holds is.
impl Drop for Matcher {
    fn drop(&mut self) {
        self.unstepped_number.zeroize();
    }
}

/// The owner of view pattern `id` matched over `span` original bytes:
/// `wrapped` when the span holds a line break.
fn view_owner(engine: &Engine, id: u32, span: u64) -> (Form, u32) {
    let owner = engine.view_table.owners[id as usize];
    if span > engine.view_table.pattern_len(id) as u64 {
        (Form::Wrapped, owner.wrapped)
    } else {
        owner.plain
    }
}

/// Offers direct pattern `id`, matched over `len` bytes from `start`.
#[inline]
pub(super) fn offer_direct(
    engine: &Engine,
    candidates: &mut Candidates,
    id: u32,
    start: u64,
    len: u64,
) {
    let (form, secret) = engine.direct_table.owners[id as usize].plain;
    candidates.offer(start, len, form, secret);
}

/// Offers view pattern `id`, matched over `span` original bytes (line
/// breaks among them) from `start`.
#[inline]
pub(super) fn offer_view(
    engine: &Engine,
    candidates: &mut Candidates,
    id: u32,
    start: u64,
    span: u64,
) {
    let (form, secret) = view_owner(engine, id, span);
    candidates.offer(start, span, form, secret);
}

/// Offers a stretch of final fragments; nothing before `decided`.
pub(super) fn offer_fragment(candidates: &mut Candidates, decided: u64, mut stretch: Stretch) {
    stretch.from = stretch.from.max(decided);
    candidates.offer_stretch(stretch);
}

/// Whether no candidate can start at any position of `held` (1 to 8 bytes,
/// all that is held) where it and the next push's first bytes (`next`, 8
/// or more) hold a CR or LF (see [`Matcher::release_unopened`]): nothing
/// starts at a CR or LF; at each other position, a direct pattern or a
/// window would begin with its 8 bytes, a view pattern with its 8 view
/// bytes (those of the 16 next bytes at most, else it cannot tell). At 10
/// x 64 KiB one push of 4 KiB in fifteen was refused its release for a
/// line break after what is held, and pushed its first bytes one at a
/// time. Out of line: that seldom.
#[inline(never)]
fn release_across_breaks(engine: &Engine, held: &[u8], next: &[u8]) -> bool {
    let mut room = [0u8; 3 * GRAM];
    let (count, more) = (held.len(), next.len().min(2 * GRAM));
    room[..count].copy_from_slice(held);
    room[count..count + more].copy_from_slice(&next[..more]);
    let bytes = &room[..count + more];
    (0..count).filter(|&p| !is_break(bytes[p])).all(|p| {
        !tail::may_start_at(engine, 0, p, gram(&bytes[p..]))
            && view_gram(bytes, p).is_some_and(|(view, _)| !engine.starts.may_hold(view))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secret;
    use crate::engine::exact_starts::EXACT;
    use crate::engine::table::Table;
    use crate::engine::{Exact, every_exact, text_of, xorshift};

    /// Base64's standard letters, of which some tests below make values
    /// and text.
    const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /// SPEC §4: "pushing one byte at a time must not rescan what is held".
    /// Where a value repeats itself, a run through it is as long as the
    /// input that matches, and its state lies as many suffix links above
    /// those of its last bytes: a push may not walk them. Pushes of 1 and
    /// of 7 bytes over values that repeat a byte, two bytes, or a byte and
    /// a line break (a window's prefix there may start at the break), and
    /// over inputs that are those values two or three times over, broken
    /// now and then: the suffix links read stay a few per byte (2 at
    /// most), where a walk a push read the whole run (3,386 a byte in the
    /// first case before: a push of one byte at 64 KiB held took 124 µs).
    #[test]
    fn pushes_over_repetitive_values_read_few_links_per_byte() {
        use crate::engine::suffix::LINKS_READ;
        let n = 2048;
        let cases: Vec<(Vec<u8>, Vec<u8>)> = vec![
            (vec![b'a'; n], vec![b'a'; 3 * n]),
            (
                vec![b'a'; n],
                [vec![b'a'; n - 1], b"b".to_vec()].concat().repeat(3),
            ),
            (b"ab".repeat(n / 2), b"ab".repeat(3 * n / 2)),
            (
                [b"x".to_vec(), b"\na".repeat(n / 2)].concat(),
                b"\na".repeat(3 * n / 2),
            ),
            (b"\r\na".repeat(n / 3), b"\r\na".repeat(n)),
            (
                [vec![b'a'; n], vec![b'b'; n]].concat(),
                [vec![b'a'; 2 * n], vec![b'b'; 2 * n]].concat(),
            ),
        ];
        for (value, input) in cases {
            let secrets = [Secret::new("A", value), Secret::new("B", "a short one")];
            let scrubber = crate::compile(&secrets, &crate::Options::new(crate::RULES_VERSION))
                .expect("valid secrets");
            let whole = scrubber.bytes(&input).output;
            for size in [1, 7] {
                let mut stream = scrubber.stream();
                let mut out = Vec::new();
                let before = LINKS_READ.with(|read| read.get());
                for piece in input.chunks(size) {
                    stream.push_into(piece, &mut out).expect("a live stream");
                }
                stream.end_into(&mut out).expect("a live stream");
                let read = LINKS_READ.with(|read| read.get()) - before;
                assert_eq!(out, whole, "pushes of {size}");
                let per_byte = read as f64 / input.len() as f64;
                assert!(
                    per_byte < 8.0,
                    "{per_byte:.1} links a byte, pushes of {size}"
                );
            }
        }
    }

    /// `data` scrubbed as two pushes, cut at `cut`, the held bytes released
    /// by [`Matcher::release_unopened`] at the second where it lets them
    /// be; and, where 1 to 8 bytes were held at the cut, whether it did.
    fn two_pushes(engine: &Engine, data: &[u8], cut: usize) -> (Vec<u8>, Vec<Hit>, Option<bool>) {
        let mut matcher = Matcher::new(engine);
        let mut out = Vec::new();
        matcher.feed(engine, &data[..cut], 0, &mut out, Source::Copied);
        let held = matcher.held();
        let released =
            matcher.release_unopened(engine, &data[cut - held..cut], &data[cut..], &mut out);
        let base = matcher.decided();
        let rest = &data[base as usize..];
        matcher.feed(engine, rest, base, &mut out, Source::Copied);
        let base = matcher.decided();
        matcher.finish(engine, &data[base as usize..], base, &mut out);
        let hits = matcher.hits(engine);
        (out, hits, (1..=GRAM).contains(&held).then_some(released))
    }

    /// What is held at a push's start is emitted without a step only where
    /// stepping would emit it too: the same output and hits as one scrub
    /// of the whole, cut anywhere, where held bytes are often the start of
    /// a pattern that the next bytes end, and where they go on.
    #[test]
    fn held_bytes_released_at_a_push_as_stepping_would() {
        let mut many = vec![
            Secret::new("A", "correct horse battery staple"),
            Secret::new("B", "tok_0123456789abcdef"),
        ];
        many.extend(crate::engine::short::tests::many_tokens(100));
        let mut next = xorshift(0xfeed);
        let long: Vec<Secret> = (0..3)
            .map(|i| {
                let value: Vec<u8> = (0..300).map(|_| b'A' + (next() % 52) as u8).collect();
                Secret::new(format!("L{i}"), value)
            })
            .collect();
        let few = many[..2].to_vec();
        let (mut released, mut refused) = (0, 0);
        for secrets in [&few, &many, &long] {
            let engine = Engine::build(secrets, false);
            // Patterns and values, whole and cut short (their starts, which
            // are held and then go on or not).
            let tables = [&engine.direct_table, &engine.view_table];
            let patterns = tables.into_iter().flat_map(Table::patterns);
            let values = secrets.iter().map(|s| s.trimmed_value());
            let mut pieces: Vec<&[u8]> = Vec::new();
            let mut broken: Vec<Vec<u8>> = Vec::new();
            for bytes in patterns.chain(values).step_by(7) {
                let cut = 1 + (next() as usize) % bytes.len();
                pieces.extend([bytes, &bytes[..cut], &bytes[cut / 2..cut]]);
                // Wrapped: a line break a few bytes in.
                let at = (next() as usize) % cut;
                let line_break: &[u8] = [&b"\n"[..], b"\r\n"][(next() % 2) as usize];
                broken.push([&bytes[..at], line_break, &bytes[at..]].concat());
            }
            pieces.extend(broken.iter().map(Vec::as_slice));
            for _ in 0..600 {
                let len = 1 + (next() % 300) as usize;
                let data = text_of(&mut next, len, &pieces, 5);
                let (want, want_hits) = {
                    let mut matcher = Matcher::new(&engine);
                    let mut out = Vec::new();
                    matcher.feed(&engine, &data, 0, &mut out, Source::InPlace);
                    matcher.finish(&engine, &data, 0, &mut out);
                    (out, matcher.hits(&engine))
                };
                let cut = 1 + (next() as usize) % data.len();
                let (got, hits, release) = two_pushes(&engine, &data, cut);
                assert!(got == want && hits == want_hits, "{data:?} cut at {cut}");
                match release {
                    Some(true) => released += 1,
                    Some(false) => refused += 1,
                    None => {}
                }
            }
        }
        assert!(
            released >= 100 && refused >= 100,
            "{released} released, {refused} not"
        );
    }

    /// `data` up to `to` pushed to `matcher`, whose input so far is
    /// `data[..matcher.end]`, as a stream pushes it: a byte alone through
    /// `feed_byte`, more through `feed`, what is held fed again.
    fn push_to(matcher: &mut Matcher, engine: &Engine, data: &[u8], to: usize, out: &mut Vec<u8>) {
        let base = matcher.decided();
        let held = &data[base as usize..to];
        if to as u64 == matcher.end + 1 {
            matcher.feed_byte(engine, held, base, out);
        } else {
            matcher.feed(engine, held, base, out, Source::Copied);
        }
    }

    /// [`push_to`] as a stream pushes a large piece in place: what is held
    /// released where it may be, else the piece's first bytes pushed alone
    /// until it is decided (at most 8), then the rest fed where it is.
    fn push_in_place_to(
        matcher: &mut Matcher,
        engine: &Engine,
        data: &[u8],
        to: usize,
        out: &mut Vec<u8>,
    ) {
        let at = matcher.end as usize;
        let held = &data[matcher.decided() as usize..at];
        if held.len() > GRAM {
            return push_to(matcher, engine, data, to, out);
        }
        matcher.release_unopened(engine, held, &data[at..to], out);
        let mut stepped = at;
        while (matcher.decided() as usize) < at && stepped < to && stepped < at + GRAM {
            stepped += 1;
            push_to(matcher, engine, data, stepped, out);
        }
        if stepped < to {
            let base = matcher.decided();
            let source = match base as usize >= at {
                true => Source::InPlace,
                false => Source::Copied,
            };
            matcher.feed(engine, &data[base as usize..to], base, out, source);
        }
    }

    /// Pushes `data` to a matcher of each of `engines` (the first one that
    /// steps every tail, the second one that may hold tails unstepped), to
    /// each of `ends` in turn, the larger pushes at random read in place
    /// and now and then an idle stream's flush: the output after each push,
    /// what is held and the hits at the end are the same. Counts the tails
    /// the second holds unstepped after a push into `held`.
    fn pushed_alike(
        engines: [&Engine; 2],
        data: &[u8],
        ends: &[usize],
        next: &mut impl FnMut() -> u64,
        held: &mut HeldUnstepped,
    ) {
        let replaced = |m: &Matcher| m.counts.iter().flatten().sum::<u64>();
        let [stepping, holding] = engines;
        let (mut a, mut b) = (Matcher::new(stepping), Matcher::new(holding));
        let (mut out_a, mut out_b) = (Vec::new(), Vec::new());
        let mut at = 0;
        for &to in ends {
            let before = replaced(&b);
            // Half of the larger pushes as if read in place.
            if to - at >= 2 * GRAM && next().is_multiple_of(2) {
                push_in_place_to(&mut a, stepping, data, to, &mut out_a);
                push_in_place_to(&mut b, holding, data, to, &mut out_b);
            } else {
                push_to(&mut a, stepping, data, to, &mut out_a);
                push_to(&mut b, holding, data, to, &mut out_b);
            }
            if b.unstepped != 0 {
                held.by_length[b.held() - 1] += 1;
                held.across_breaks += usize::from(b.unstepped_breaks != 0);
                held.after_match += usize::from(replaced(&b) > before);
            }
            assert!(out_a == out_b, "{data:?} pushed to {to}");
            assert_eq!(a.held(), b.held(), "{data:?} pushed to {to}");
            if next().is_multiple_of(16) && a.held() < FRAGMENT {
                // An idle stream's flush: decided as at the end.
                let base = a.decided() as usize;
                a.finish(stepping, &data[base..to], base as u64, &mut out_a);
                b.finish(holding, &data[base..to], base as u64, &mut out_b);
                assert!(out_a == out_b, "{data:?} flushed at {to}");
            }
            at = to;
        }
        let base = a.decided() as usize;
        a.finish(stepping, &data[base..], base as u64, &mut out_a);
        b.finish(holding, &data[base..], base as u64, &mut out_b);
        assert!(out_a == out_b, "{data:?} at its end");
        assert!(a.hits(stepping) == b.hits(holding), "{data:?} hits");
    }

    /// What [`pushed_alike`] counts of the tails held unstepped after a
    /// push.
    #[derive(Debug, Default)]
    struct HeldUnstepped {
        /// By their length, from 1 byte.
        by_length: [usize; UNSTEPPED_MOST],
        /// Those that hold a CR or LF.
        across_breaks: usize,
        /// Those held by a push that replaced a match.
        after_match: usize,
    }

    /// A filtered push whose tail holds a CR or LF is decided without a
    /// step where the exact starts tell it (what it holds unstepped then
    /// after the line break), and the next push read in place releases
    /// what is held where its first bytes hold a line break too: every
    /// push's output, what is held and the hits as an engine that steps
    /// every tail and a matcher that never releases leave them. Both happen
    /// often (neither did before); now and then a push ends with the first
    /// bytes of a view pattern whose rest, after a line break, begins the
    /// next (or its next bytes, after a second line break), which no
    /// release may emit, or is followed by a byte or two pushed alone.
    #[test]
    fn tails_and_releases_across_line_breaks_as_stepping_would() {
        let mut next = xorshift(0x1b7e);
        let mut secrets = vec![Secret::new("A", "correct horse battery staple")];
        secrets.extend(crate::engine::short::tests::many_tokens(40));
        let stepping = Engine::build_with(&secrets, false, Exact::Longest(0));
        let wrapped: Vec<Vec<u8>> = stepping.view_table.patterns().map(<[u8]>::to_vec).collect();
        let mut rest: &[u8] = &[];
        // A number below `count`.
        let mut roll = |count: usize| (next() % count as u64) as usize;
        let (mut across, mut released, mut alone, mut twice) = (0, 0, 0, 0);
        for exact in every_exact() {
            let holding = Engine::build_with(&secrets, false, exact);
            let mut data = Vec::new();
            let (mut a, mut b) = (Matcher::new(&stepping), Matcher::new(&holding));
            let (mut out_a, mut out_b) = (Vec::new(), Vec::new());
            for _ in 0..3_000 {
                let at = data.len();
                // A push of a line or two, a line break among its first
                // bytes now and then, ending with a byte, a line break and
                // up to 5 bytes.
                let breaks_at = match roll(3) {
                    0 => Some(roll(6)),
                    _ => None,
                };
                if !rest.is_empty() {
                    data.push(b'\n');
                    data.extend_from_slice(std::mem::take(&mut rest));
                }
                while data.len() < at + FILTER_FROM + roll(40) {
                    // Bytes below the tokens' alphabet, and in it.
                    let from = if roll(2) == 0 { b' ' } else { b'0' };
                    data.push(from + roll(16) as u8);
                    if breaks_at == Some(data.len() - at) {
                        data.push(b'\n');
                    }
                }
                data.push(b'\n');
                if roll(4) == 0 {
                    let pattern = &wrapped[roll(wrapped.len())];
                    let cut = 1 + roll(4);
                    data.extend_from_slice(&pattern[..cut]);
                    rest = &pattern[cut..];
                    // Now and then a byte or two more after a second line
                    // break: stepping holds the tail from before it, so
                    // it is stepped, never held unstepped.
                    if roll(3) == 0 && rest.len() > 2 {
                        let more = 1 + roll(2);
                        data.push(b'\n');
                        data.extend_from_slice(&rest[..more]);
                        rest = &rest[more..];
                        twice += 1;
                    }
                } else {
                    for _ in 0..roll(6) {
                        data.push(b'0' + roll(75) as u8);
                    }
                }
                let held = &data[b.decided() as usize..at];
                let first = &data[at..data.len().min(at + GRAM)];
                let with_break = held.iter().chain(first).any(|&byte| is_break(byte));
                if held.len() <= GRAM
                    && with_break
                    && b.release_unopened(&holding, held, &data[at..], &mut out_b)
                {
                    released += 1;
                }
                push_to(&mut a, &stepping, &data, data.len(), &mut out_a);
                let base = b.decided();
                let source = match base as usize >= at {
                    true => Source::InPlace,
                    false => Source::Copied,
                };
                b.feed(&holding, &data[base as usize..], base, &mut out_b, source);
                across += usize::from(b.unstepped != 0);
                assert!(out_a == out_b, "{exact:?}: {data:?}");
                assert_eq!(a.held(), b.held(), "{exact:?}: {data:?}");
                // Now and then a byte or two pushed alone (keystrokes):
                // what is held unstepped is then decided with the byte, or
                // stepped.
                if rest.is_empty() {
                    for _ in 0..roll(3) {
                        let byte = match roll(6) {
                            0 => b'\n',
                            _ => b'0' + roll(75) as u8,
                        };
                        alone += usize::from(b.unstepped != 0);
                        data.push(byte);
                        push_to(&mut a, &stepping, &data, data.len(), &mut out_a);
                        push_to(&mut b, &holding, &data, data.len(), &mut out_b);
                        assert!(out_a == out_b, "{exact:?}: {data:?}");
                        assert_eq!(a.held(), b.held(), "{exact:?}: {data:?}");
                    }
                }
            }
            a.finish(
                &stepping,
                &data[a.decided() as usize..],
                a.decided(),
                &mut out_a,
            );
            b.finish(
                &holding,
                &data[b.decided() as usize..],
                b.decided(),
                &mut out_b,
            );
            assert!(out_a == out_b && a.hits(&stepping) == b.hits(&holding));
        }
        assert!(
            across > 3_000 && released > 1_000 && alone > 1_000 && twice > 1_000,
            "{across} decided, {released} released, {alone} pushed alone after, \
             {twice} ending after two line breaks"
        );
    }

    /// A tail held without a step leaves every push's output, what is held
    /// and the hits as stepping it would: engines that hold tails of 1, 2
    /// and 3 bytes against one that never does, in the same chunks (pushes
    /// of one byte, of a few, and filtered ones) with now and then an idle
    /// stream's flush, over text of patterns and values whole and cut,
    /// tails held so after pushes that replace a match among them.
    #[test]
    fn tails_held_without_a_step_as_stepping_would() {
        let mut next = xorshift(0x7a1d);
        let mut many = vec![
            Secret::new("A", "correct horse battery staple"),
            Secret::new("B", "tok_0123456789abcdef"),
        ];
        many.extend(crate::engine::short::tests::many_tokens(40));
        let long: Vec<Secret> = (0..3)
            .map(|i| {
                let value: Vec<u8> = (0..300).map(|_| b'A' + (next() % 52) as u8).collect();
                Secret::new(format!("L{i}"), value)
            })
            .collect();
        let few = many[..2].to_vec();
        let mut held = HeldUnstepped::default();
        for secrets in [&few, &many, &long] {
            let stepping = Engine::build_with(secrets, false, Exact::Longest(0));
            let tables = [&stepping.direct_table, &stepping.view_table];
            let patterns = tables.into_iter().flat_map(Table::patterns);
            let values = secrets.iter().map(|s| s.trimmed_value());
            let mut pieces: Vec<&[u8]> = Vec::new();
            for bytes in patterns.chain(values).step_by(5) {
                let cut = 1 + (next() as usize) % bytes.len();
                pieces.extend([bytes, &bytes[..cut], &bytes[..cut.min(3)]]);
            }
            pieces.extend([&b"\r\n"[..], b"\n"]);
            // The first 1 to 4 bytes of patterns and windows, which pushes
            // end with: a tail that may be held (one byte only after
            // nothing but line breaks: the stepper starts at any byte with
            // fewer than 8 view bytes to the end).
            let windows = secrets
                .iter()
                .map(|s| s.trimmed_value())
                .filter(|v| v.len() > FRAGMENT)
                .flat_map(|v| (0..=v.len() - FRAGMENT).map(move |at| &v[at..]));
            let starts: Vec<&[u8]> = tables
                .into_iter()
                .flat_map(Table::patterns)
                .chain(windows)
                .collect();
            for exact in every_exact() {
                let holding = Engine::build_with(secrets, false, exact);
                for _ in 0..300 {
                    // The pushes' ends, and the input.
                    let (mut data, mut ends) = (Vec::new(), Vec::new());
                    while data.len() < 1500 {
                        match next() % 4 {
                            0 => data.push(b' ' + (next() % 90) as u8),
                            1 => {
                                let len = 2 + (next() % 46) as usize;
                                data.extend(text_of(&mut next, len, &pieces, 3));
                            }
                            _ => {
                                let len = 48 + (next() % 200) as usize;
                                match next() % 8 {
                                    0 => data.extend_from_slice(&[b'\n'; FILTER_FROM]),
                                    kind => {
                                        data.extend(text_of(&mut next, len, &pieces, 200));
                                        if kind == 1 {
                                            data.extend_from_slice(b"\r\n");
                                        }
                                    }
                                }
                                let start = starts[(next() % starts.len() as u64) as usize];
                                // Else noise: a tail that may begin nothing.
                                if !next().is_multiple_of(4) {
                                    data.extend_from_slice(
                                        &start[..1 + (next() % EXACT as u64) as usize],
                                    );
                                }
                            }
                        }
                        ends.push(data.len());
                    }
                    pushed_alike([&stepping, &holding], &data, &ends, &mut next, &mut held);
                }
            }
        }
        // Each length is held often, in the chunkings above.
        assert!(
            held.by_length[..EXACT].iter().all(|&n| n >= 200),
            "held unstepped: {held:?}"
        );
        // And after a push that replaced a match (none before such tails
        // were decided so: about a quarter of them now).
        assert!(held.after_match >= 2_000, "held unstepped: {held:?}");
    }

    /// Pushes of one byte, decided without a step where the exact starts
    /// tell them, leave every push's output, what is held and the hits as
    /// stepping every byte would: engines of strings of 1 to 4 bytes
    /// (and of one byte more, hashed) against one that steps each, over
    /// text of patterns and values whole and cut, line breaks among them,
    /// now and then an idle stream's flush. Holding what may begin
    /// something, unknown, as if it did fails it (without the check of
    /// each such push against a copy that steps it too).
    #[test]
    fn bytes_pushed_alone_are_decided_as_stepping_would() {
        let mut next = xorshift(0x1b7e);
        let mut secrets = vec![
            Secret::new("A", "correct horse battery staple"),
            Secret::new("B", "tok_0123456789abcdef\nline two"),
        ];
        secrets.extend(crate::engine::short::tests::many_tokens(40));
        let stepping = Engine::build_with(&secrets, false, Exact::Longest(0));
        let tables = [&stepping.direct_table, &stepping.view_table];
        let patterns = tables.into_iter().flat_map(Table::patterns);
        let values = secrets.iter().map(|s| s.trimmed_value());
        let mut pieces: Vec<&[u8]> = vec![b"\r\n", b"\n"];
        for bytes in patterns.chain(values).step_by(3) {
            let cut = 1 + (next() as usize) % bytes.len();
            pieces.extend([bytes, &bytes[..cut], &bytes[..cut.min(4)]]);
        }
        for exact in every_exact() {
            let holding = Engine::build_with(&secrets, false, exact);
            let longest = holding.exact_starts.longest();
            let mut held = HeldUnstepped::default();
            for _ in 0..30 {
                let data = text_of(&mut next, 1500, &pieces, 5);
                let ends: Vec<usize> = (1..=data.len()).collect();
                pushed_alike([&stepping, &holding], &data, &ends, &mut next, &mut held);
            }
            // Tails of each length the strings are held for, held often.
            assert!(
                held.by_length[..longest].iter().all(|&n| n >= 500),
                "{exact:?}: held unstepped {held:?}"
            );
        }
    }

    /// Pushes of one byte where values hold line breaks (keys in PEM's
    /// lines of 64), so that a short string and a line break most often
    /// begin a window: what is held with a CR or LF among it is held
    /// unstepped often (never before: such a push was stepped), and every
    /// push's output, what is held and the hits are as stepping every
    /// byte leaves them. Text of words of base64's letters, each followed
    /// by a LF, a CR LF or a space, and now and then a piece of a value
    /// (cut anywhere, across its line breaks too).
    #[test]
    fn line_breaks_pushed_alone_are_held_as_stepping_would() {
        let mut next = xorshift(0x9e4b);
        let secrets: Vec<Secret> = (0..6)
            .map(|i| {
                let value: Vec<u8> = (0..1300)
                    .map(|j| match j % 65 {
                        64 => b'\n',
                        _ => BASE64[(next() % 64) as usize],
                    })
                    .collect();
                Secret::new(format!("K{i}"), value)
            })
            .collect();
        let stepping = Engine::build_with(&secrets, false, Exact::Longest(0));
        let values: Vec<&[u8]> = secrets.iter().map(Secret::trimmed_value).collect();
        for exact in every_exact() {
            let holding = Engine::build_with(&secrets, false, exact);
            // Pushes of one byte; then most of one byte, a quarter of 2
            // to 100 (some filtered), after what a byte held too.
            for mixed in [false, true] {
                let mut held = HeldUnstepped::default();
                for _ in 0..60 {
                    let data = words_and_line_breaks(&mut next, &values);
                    let mut ends = Vec::new();
                    let mut at = 0;
                    while at < data.len() {
                        at += match mixed && next().is_multiple_of(4) {
                            true => 2 + (next() % 99) as usize,
                            false => 1,
                        };
                        ends.push(at.min(data.len()));
                    }
                    pushed_alike([&stepping, &holding], &data, &ends, &mut next, &mut held);
                }
                // 526 to 4,504 a byte at a time in these engines, 26 to
                // 260 mixed.
                let least = if mixed { 20 } else { 300 };
                assert!(
                    held.across_breaks >= least,
                    "{exact:?}, mixed {mixed}: held unstepped {held:?}"
                );
            }
        }
    }

    /// About 1,500 bytes of words of base64's letters, most of whose short
    /// strings begin a window of `values`, each followed by a LF, a CR LF
    /// or a space, and now and then a piece of a value.
    fn words_and_line_breaks(next: &mut impl FnMut() -> u64, values: &[&[u8]]) -> Vec<u8> {
        let mut data = Vec::new();
        while data.len() < 1500 {
            match next() % 16 {
                0 => {
                    let value = values[(next() % values.len() as u64) as usize];
                    let at = (next() as usize) % value.len();
                    let len = 1 + (next() % 80) as usize;
                    data.extend_from_slice(&value[at..(at + len).min(value.len())]);
                }
                _ => {
                    let len = 1 + next() % 8;
                    data.extend((0..len).map(|_| BASE64[(next() % 64) as usize]));
                }
            }
            let gap = match next() % 8 {
                0..=2 => &b"\n"[..],
                3 => b"\r\n",
                _ => b" ",
            };
            data.extend_from_slice(gap);
        }
        data
    }

    /// What the push of one byte holds unstepped is input, here a value's
    /// first bytes: no freed block keeps their number.
    #[test]
    fn no_freed_block_keeps_the_bytes_held_unstepped() {
        use crate::freed_memory::scanned;
        let secrets = [Secret::new("A", "Zq#Wv&Xk!correct horse")];
        let engine = Engine::build_with(&secrets, false, Exact::Longest(EXACT));
        let mut matcher = Box::new(Matcher::new(&engine));
        let data = b"text: Zq#W";
        let mut out = Vec::new();
        for to in 1..=data.len() {
            push_to(&mut matcher, &engine, data, to, &mut out);
        }
        assert_eq!(out, b"text: ");
        assert_eq!(matcher.unstepped, 4, "held unstepped");
        let needle = matcher.unstepped_number.to_ne_bytes()[..4].to_vec();
        // The scan can fail: a copy of the number, dropped, is found.
        let copy = Box::new(matcher.unstepped_number);
        let found = scanned(vec![needle.clone()], || drop(copy));
        assert!(!found.is_empty());
        let found = scanned(vec![needle], || drop(matcher));
        assert_eq!(found, [], "(freed block size, needle index)");
    }

    /// In an engine large enough that tails are held by its size (values
    /// of 256 KiB: strings of 3 bytes too), pushes of 4 KiB (in place or
    /// copied), of one byte and of a few end as stepping every tail would.
    #[test]
    fn a_large_engine_holds_tails_as_stepping_would() {
        let mut next = xorshift(0x1a76e);
        let secrets: Vec<Secret> = (0..4)
            .map(|i| {
                let value: Vec<u8> = (0..64 * 1024)
                    .map(|_| BASE64[(next() % 64) as usize])
                    .collect();
                Secret::new(format!("K{i}"), value)
            })
            .collect();
        let holding = Engine::build(&secrets, false);
        assert_eq!(holding.exact_starts.longest(), EXACT);
        let stepping = Engine::build_with(&secrets, false, Exact::Longest(0));
        let values: Vec<&[u8]> = secrets.iter().map(|s| s.trimmed_value()).collect();
        // Noise of punctuation, space and line breaks, which no window
        // holds, and now and then a letter or digit.
        fn noise(next: &mut impl FnMut() -> u64) -> u8 {
            match next() % 4 {
                0 => BASE64[(next() % 62) as usize],
                _ => b" !\"#$%&'()*,-.:;<=>?@[]^_`{|}~\n"[(next() % 31) as usize],
            }
        }
        let mut held = HeldUnstepped::default();
        for _ in 0..10 {
            let (mut data, mut ends) = (Vec::new(), Vec::new());
            while data.len() < 96 * 1024 {
                match next() % 8 {
                    0 => data.push(noise(&mut next)),
                    1 => data.extend((0..2 + next() % 46).map(|_| noise(&mut next))),
                    kind => {
                        // Text with a piece of a value now and then, and
                        // a window's first bytes at the end most often.
                        let len = 4096 - 4 + (next() % 8) as usize;
                        let mut push: Vec<u8> = Vec::new();
                        while push.len() < len {
                            let value = values[(next() % 4) as usize];
                            match next() % 4096 {
                                0 => {
                                    let at = (next() as usize) % (value.len() - 64);
                                    push.extend_from_slice(
                                        &value[at..at + 8 + (next() % 56) as usize],
                                    );
                                }
                                _ => push.push(noise(&mut next)),
                            }
                        }
                        push.truncate(len);
                        if kind != 2 {
                            let value = values[(next() % 4) as usize];
                            let at = (next() as usize) % (value.len() - FRAGMENT);
                            push.extend_from_slice(
                                &value[at..at + 1 + (next() % EXACT as u64) as usize],
                            );
                        }
                        data.extend(push);
                    }
                }
                ends.push(data.len());
            }
            pushed_alike([&stepping, &holding], &data, &ends, &mut next, &mut held);
        }
        assert!(
            held.by_length[1..EXACT].iter().all(|&n| n >= 15),
            "held unstepped: {held:?}"
        );
    }
}
