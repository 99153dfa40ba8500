//! The tail of a filtered push: its last [`TAIL`] view bytes, which the
//! stepper steps over after the seed filter (`filter.rs`), so that what is
//! held is exactly what stepping every byte would hold, and where on it
//! the stepper starts: the first position from which something could
//! still be open at the end and not be handed over by the filter.

use std::cell::Cell;

use super::Engine;
use super::end_breaks::EndBreaks;
use super::seeds::{GRAM, MAX_STRIDE, gram, gram_at, is_break, view_gram};
use super::short::SHORTEST;
use super::table::PREFIX;
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
        Some(last) if engine.may_be_value_gram(last) => len.saturating_sub(FRAGMENT - 1),
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
    if engine.value_grams.is_large() && window_prefixes != usize::MAX {
        let from = len.saturating_sub(FRAGMENT - 1).max(tail);
        for w in input[from.min(len)..].windows(GRAM) {
            engine.prefetch_value_gram(gram(w));
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
            _ => may_start_end(engine, input, at),
        })
        .unwrap_or(len)
}

/// The first position of `tail` (at most 9 bytes, holding a CR or LF,
/// from where the automata start afresh and the run is empty) from which
/// stepping it would hold it, or `None` where that cannot be told without
/// a step: the first from which its bytes, the CR and LF passed over,
/// begin a direct pattern or a window, as the exact starts tell (see
/// `ExactStarts::first_begun_passing_breaks`), or its view bytes a view
/// pattern, as the view's automaton stepped over them tells (its longest
/// pending suffix; no view pattern is whole in 8 view bytes). The exact
/// starts hold the view's strings among the others, so of the view bytes
/// before a CR or LF they cannot tell whether what they begin is a view
/// pattern; the view's automaton, a few states from its start, is most
/// often in the cache. At 10 x 64 KiB, of 16 MiB pushed 4 KiB at a time,
/// 134 tails that held a CR or LF were stepped where the exact starts
/// alone were asked (73 they could not tell, 44 of 9 bytes), 65 now: 4
/// KiB pushes 1.005 to 1.05 x, 64 B pushes 1.06 to 1.10 x there and at
/// 100 x 4 KiB (switched in one binary, rounds alternated). `breaks` has
/// bit `i` set where `tail[i]` is a CR or LF (see `end_breaks::breaks_of`):
/// both tellings pass them.
pub(super) fn first_held_across_breaks(engine: &Engine, tail: &[u8], breaks: u32) -> Option<usize> {
    const MOST: usize = 9;
    debug_assert!(tail.len() <= MOST && breaks != 0);
    let direct = engine
        .exact_starts
        .first_begun_passing_breaks(tail, breaks)?;
    let view = &engine.view;
    let (mut state, mut positions, mut count) = (view.start(), [0u8; MOST], 0);
    for (at, &byte) in tail.iter().enumerate() {
        if breaks >> at & 1 == 0 {
            state = view.next(state, byte);
            positions[count] = at as u8;
            count += 1;
        }
    }
    let pending = view
        .pending(state, count as u64)
        .expect("a suffix of what the automaton read");
    Some(match pending {
        0 => direct,
        pending => direct.min(usize::from(positions[count - pending as usize])),
    })
}

/// Where the fragment run starts on a tail that the stepper steps from
/// `from` (an index in `input`), on an input where the filter handed over
/// no run (none reaches the end): the first position at or after `from`
/// from which the bytes to the end may begin a window (their first 8 a
/// value's gram, or, of the last 7, what [`may_start_end`] lets through:
/// the short starts, or the exact starts where they hold the shorter
/// strings), `input.len()` where there is none. Started empty there, the run is
/// what stepping from `from` would leave wherever it is read: a value's
/// substring that reaches the end from before it begins no window (one
/// that did, from 15 bytes or more before the end, would be a fragment the
/// filter hands over), so no fragment can start there and nothing is held
/// for it, and every fragment of 16 bytes or more in the tail holds a
/// sampled gram, which the filter walked. In a large set each byte the run
/// steps is a cache miss or two, where the automata stay in the cache: at
/// 10 x 64 KiB, of 16 MiB pushed 4 KiB at a time, 155 tails of 8.8 bytes
/// were stepped, the run 5.4 bytes of each at 790 to 880 cycles a byte,
/// 2.6 from here at 440.
pub(super) fn run_start(engine: &Engine, input: &[u8], from: usize) -> usize {
    let len = input.len();
    // Any earlier start that reaches the end is 16 bytes or more.
    let mut at = from.max(len.saturating_sub(FRAGMENT - 1));
    while at + GRAM <= len {
        if engine.may_be_value_gram(gram(&input[at..])) {
            return at;
        }
        at += 1;
    }
    (at..len)
        .find(|&at| may_start_end(engine, input, at))
        .unwrap_or(len)
}

/// Whether the last bytes of `input`, from `at` (1 to 7 of them), may
/// begin a pattern or a window: the short starts tell those they hold, the
/// exact starts the shorter ones of 3 bytes or more that they leave to
/// them (see `ShortStarts`).
#[inline(always)]
fn may_start_end(engine: &Engine, input: &[u8], at: usize) -> bool {
    let short = &engine.short_starts;
    let rest = input.len() - at;
    match rest >= short.shortest() || rest < SHORTEST {
        true => short.may_start_end(input, at),
        false => engine.exact_starts.may_begin(&input[at..]),
    }
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
/// the last 15 bytes of a tail, anywhere with 0) a window or its proper
/// prefix, may start at `at`, where `word` starts. A function, not only a
/// closure, so that it is inlined wherever it is called.
#[inline(always)]
pub(super) fn may_start_at(engine: &Engine, window_prefixes: usize, at: usize, word: u64) -> bool {
    engine.starts.may_hold(word) || (at >= window_prefixes && engine.may_be_value_gram(word))
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

/// Asks, in large sets, for what [`stepper_start`] reads first of an input
/// that ends with `end`: the probes of its last gram and of the strings of
/// its last 7 bytes, each a cache miss there. A push that is copied asks
/// before its copy (see `Stream::push_copied`), so that they arrive while
/// it is made: 4 KiB pushes 1.03 x at 10,000 tokens and at 10 x 64 KiB,
/// 1.01 x at 100 x 4 KiB, where they were asked for as the stepper's start
/// was looked for. Input read in place asks between the filters, once the
/// direct one has read its end (see `Matcher::scan_filtered`).
pub(crate) fn prefetch_end_probes(engine: &Engine, end: &[u8]) {
    let large = [
        engine.tail_grams.is_large(),
        engine.value_grams.is_large(),
        engine.short_starts.is_large(),
        // The exact starts tell ends of 3 to 5 bytes: their strings of 4
        // bytes are held, 4 MiB or more.
        engine.short_starts.shortest() > SHORTEST,
    ];
    // In a small engine nothing is asked for, and the end, which a push
    // read in place may not have in the cache yet, is not read here (see
    // `StepperStart`).
    if large == [false; 4] {
        return;
    }
    let Some(last) = gram_at(end, end.len().wrapping_sub(GRAM)) else {
        return;
    };
    if large[0] {
        engine.tail_grams.prefetch(last);
    }
    if large[1] {
        engine.prefetch_value_gram(last);
    }
    if large[2] {
        for at in end.len() + 1 - GRAM..end.len() {
            engine.short_starts.prefetch_end(end, at);
        }
    }
    engine.exact_starts.prefetch_end(end);
    if large[3] {
        engine.exact_starts.prefetch_ends(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Secret;
    use crate::engine::end_breaks::breaks_of;
    use crate::engine::{Engine, every_exact, exact_starts, text_of};

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
            return rest.iter().any(|&b| is_break(b)) || may_start_end(engine, input, at);
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

    /// Every end of 1 to 7 bytes that begins a pattern or a window may
    /// start one, and most others do not, each way the exact starts are
    /// held: where they hold the strings of 4 bytes, the short starts hold
    /// those of 6 and 7 only and leave 3 to 5 to them.
    #[test]
    fn ends_that_begin_something_may_start_and_most_others_do_not() {
        let mut secrets = vec![
            Secret::new("A", "correct horse battery staple"),
            Secret::new("B", "tok_0123456789abcdef\nline two"),
        ];
        secrets.extend(crate::engine::short::tests::many_tokens(100));
        let mut shortened = 0;
        for way in crate::engine::every_exact() {
            let engine = Engine::build_with(&secrets, false, way);
            let fours = engine.exact_starts.longest() == crate::engine::EXACT;
            let shortest = engine.short_starts.shortest();
            assert_eq!(shortest, if fours { 6 } else { SHORTEST }, "{way:?}");
            shortened += usize::from(fours);
            let patterns = [&engine.direct_table, &engine.view_table]
                .into_iter()
                .flat_map(|table| (0..table.len() as u32).map(|id| table.pattern(id)));
            let windows = secrets
                .iter()
                .map(Secret::trimmed_value)
                .filter(|v| v.len() > FRAGMENT)
                .flat_map(|v| (0..=v.len() - FRAGMENT).map(move |at| &v[at..]));
            for start in patterns.chain(windows) {
                for len in 1..GRAM {
                    let end = &start[..len];
                    assert!(may_start_end(&engine, end, 0), "{way:?}, {len} bytes");
                }
            }
            let mut next = crate::engine::xorshift(0x5109);
            let mut passed = [0; GRAM];
            for _ in 0..20_000 {
                let bytes = next().to_le_bytes();
                let len = SHORTEST + (bytes[7] % 5) as usize;
                passed[len] += usize::from(may_start_end(&engine, &bytes[..len], 0));
            }
            assert!(passed.iter().sum::<usize>() < 2_000, "{way:?}: {passed:?}");
        }
        assert_eq!(shortened, 1, "one way holds the strings of 4 bytes");
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

    /// The run starts on a tail at the first position from which the bytes
    /// to the end may be a window's proper prefix, each way the exact
    /// starts are held: never after one that is (a value's substring of 16
    /// bytes or more is no proper prefix), and most often after positions
    /// that are not.
    #[test]
    fn the_run_starts_where_a_window_may_begin() {
        let secrets = exact_starts::tests::secrets_with_line_breaks();
        let windows = exact_starts::tests::windows_of(&secrets);
        let begins_window =
            |bytes: &[u8]| bytes.len() < FRAGMENT && windows.iter().any(|w| w.starts_with(bytes));
        let pieces: [&[u8]; 4] = [b"\n", b"\r\n", b"correct ", b"tok_0123"];
        let mut next = crate::engine::xorshift(0x2a11);
        for way in every_exact() {
            let engine = Engine::build_with(&secrets, false, way);
            let (mut skipped, mut at_window) = (0, 0);
            for _ in 0..3_000 {
                // Text, then most often a window's first 1 to 15 bytes.
                let noise = (next() % 40) as usize;
                let mut input = text_of(&mut next, noise, &pieces, 8);
                if !next().is_multiple_of(4) {
                    let window = windows[(next() % windows.len() as u64) as usize];
                    input.extend_from_slice(&window[..1 + (next() % 15) as usize]);
                }
                for from in 0..=input.len() {
                    let start = run_start(&engine, &input, from);
                    assert!((from..=input.len()).contains(&start), "{way:?} {input:?}");
                    for at in from..start {
                        assert!(!begins_window(&input[at..]), "{way:?} {input:?} {at}");
                    }
                    skipped += start - from;
                    at_window += usize::from(start < input.len() && begins_window(&input[start..]));
                }
            }
            assert!(
                skipped > 500_000 && at_window > 40_000,
                "{way:?}: {skipped} positions skipped, {at_window} starts at a window's prefix"
            );
        }
    }

    /// A tail that holds a CR or LF (2 to 9 bytes) is told where stepping
    /// would hold it from, plainly: its first byte, no CR or LF, from
    /// which its bytes begin a direct pattern or a window, or its view's
    /// bytes a view pattern; or not told (`None`), where only a step can
    /// (where the hashed strings one longer than those held may begin
    /// one).
    #[test]
    fn tails_across_line_breaks_are_told_as_stepping_would_hold_them() {
        let secrets = exact_starts::tests::secrets_with_line_breaks();
        let mut next = crate::engine::xorshift(0xb4ea);
        for way in every_exact() {
            let engine = Engine::build_with(&secrets, false, way);
            let windows = exact_starts::tests::windows_of(&secrets);
            let direct: Vec<&[u8]> = engine.direct_table.patterns().chain(windows).collect();
            let view: Vec<&[u8]> = engine.view_table.patterns().collect();
            let with_breaks: Vec<&[u8]> = direct
                .iter()
                .copied()
                .filter(|p| p.iter().any(|&b| is_break(b)))
                .collect();
            let begins = |from: &[&[u8]], s: &[u8]| from.iter().any(|p| p.starts_with(s));
            let plainly = |tail: &[u8]| {
                (0..tail.len())
                    .find(|&at| {
                        let bytes = &tail[at..];
                        let view_bytes: Vec<u8> =
                            bytes.iter().copied().filter(|&b| !is_break(b)).collect();
                        !is_break(tail[at])
                            && (begins(&direct, bytes) || begins(&view, &view_bytes))
                    })
                    .unwrap_or(tail.len())
            };
            let (mut told, mut held_after_break, mut not_told) = (0, 0, 0);
            // Told where the exact starts alone could not: of 9 bytes, and
            // where the view's bytes from before the last CR or LF (and
            // before what is held) begin a direct pattern or a window, not
            // a view pattern; and not told, of 9 bytes that begin one from
            // the first (longer than the strings held).
            let (mut nine, mut view_not_view, mut nine_begun) = (0, 0, 0);
            for _ in 0..20_000 {
                let len = 2 + (next() % 8) as usize;
                // The start of a pattern or a window, or noise, with a CR or
                // LF or two put in.
                let mode = next() % 4;
                let mut tail: Vec<u8> = match mode {
                    0 => (0..len).map(|_| b'0' + (next() % 75) as u8).collect(),
                    // A direct pattern or a window that holds a line break,
                    // from a byte up to `len - 1` before its first: the
                    // whole tail begins it.
                    1 => {
                        let start = with_breaks[(next() % with_breaks.len() as u64) as usize];
                        let first_break = start.iter().position(|&b| is_break(b));
                        let first_break = first_break.expect("a line break");
                        let from = first_break.saturating_sub((next() % len as u64) as usize);
                        start[from..start.len().min(from + len)].to_vec()
                    }
                    _ => {
                        let from = if next().is_multiple_of(2) {
                            &direct
                        } else {
                            &view
                        };
                        let start = from[(next() % from.len() as u64) as usize];
                        let cut = (next() as usize % len).min(start.len());
                        let noise = (0..len - cut).map(|_| b'0' + (next() % 75) as u8);
                        noise.chain(start[..cut].iter().copied()).collect()
                    }
                };
                for _ in 0..(1 + next() % 2) * u64::from(mode != 1) {
                    let at = (next() % len as u64) as usize;
                    tail[at] = if next().is_multiple_of(4) {
                        b'\r'
                    } else {
                        b'\n'
                    };
                }
                let len = tail.len();
                let breaks = breaks_of(&tail) as u32;
                match first_held_across_breaks(&engine, &tail, breaks) {
                    Some(at) => {
                        assert_eq!(at, plainly(&tail), "{way:?} {tail:?}");
                        told += 1;
                        let last_break = tail.iter().rposition(|&b| is_break(b));
                        held_after_break += usize::from(at < len && last_break < Some(at));
                        nine += usize::from(len == 9);
                        let before = at.min(last_break.unwrap_or(0));
                        view_not_view += usize::from((0..before).any(|from| {
                            let view_bytes: Vec<u8> = tail[from..]
                                .iter()
                                .copied()
                                .filter(|&b| !is_break(b))
                                .collect();
                            !is_break(tail[from]) && begins(&direct, &view_bytes)
                        }));
                    }
                    None => {
                        not_told += 1;
                        nine_begun += usize::from(len == 9 && plainly(&tail) == 0);
                    }
                }
            }
            assert!(
                told > 8_000 && held_after_break > 4_000 && not_told > 500,
                "{way:?}: {told} told, {held_after_break} held after a break, {not_told} not"
            );
            assert!(
                nine > 400 && view_not_view > 1_000 && nine_begun > 100,
                "{way:?}: {nine} of 9 bytes told, {view_not_view} whose view begins no view \
                 pattern, {nine_begun} of 9 bytes that begin one from the first"
            );
        }
    }
}
