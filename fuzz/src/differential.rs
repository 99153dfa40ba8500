//! The `differential` target. From a [`Case`] (format in `case.rs`):
//!
//! 1. Compile; a compile that fails because a placeholder or redaction text
//!    would leak, or a value trims below 8 bytes, is a valid outcome: done.
//! 2. `bytes(input)`; under sameLength its output keeps the input's length
//!    and its CR and LF bytes.
//! 3. One push then `end()`, and the plan's chunking (idle calls left out)
//!    then `end()`, each give exactly the output and hits of `bytes()`.
//!    After every push `held()` is within the SPEC §4 bound: the longest
//!    pattern of any secret plus the CR and LF bytes among the held ones.
//!    For one input length in 8, the input repeated past 16 KiB after its
//!    first copy, pushed as the plan's pushes over that copy, then the rest
//!    in one push (which a stream feeds in place, after the bytes held
//!    before it), gives `bytes()` of it.
//! 4. The plan with its idle calls: an idle with 16 or more bytes held
//!    returns nothing and keeps them; one with fewer returns them all. The
//!    stream then goes on afresh, so the whole output is `bytes()` of each
//!    piece between such idles, concatenated, and the hits are their sums.
//!    An input without any match comes out unchanged.
//! 5. On small cases (input <= 256 bytes, <= 2 secrets), the reference
//!    matcher gives the same `bytes()`, and, step by step with the idle
//!    calls, the same output and `held()` after every call, and the same
//!    hits.

use std::collections::BTreeMap;

use slicc_scrub::{CompileError, Form, Hit, Options, RULES_VERSION, Scrubber, Stream, compile};

use crate::case::{Case, is_crlf, rules_value};
use crate::reference::{RefSecret, RefStream, Reference};

/// Inputs up to this size (and this many secrets) are also checked
/// against the brute-force reference.
const SMALL_INPUT: usize = 256;
const SMALL_SECRETS: usize = 2;
const IDLE_LIMIT: usize = 16;

pub fn check(data: &[u8]) {
    let case = Case::decode(data);
    let options = Options::new(RULES_VERSION).same_length(case.same_length);
    let scrubber = match compile(&case.secrets, &options) {
        Ok(scrubber) => scrubber,
        Err(
            CompileError::PlaceholderLeaks { .. }
            | CompileError::RedactionLeaks { .. }
            | CompileError::ValueTooShort { .. },
        ) => return,
        Err(e) => panic!("unexpected compile error: {e}"),
    };
    let whole = scrubber.bytes(&case.input);
    if case.same_length {
        assert_eq!(whole.output.len(), case.input.len(), "sameLength length");
        for (i, (&a, &b)) in case.input.iter().zip(&whole.output).enumerate() {
            assert_eq!(
                is_crlf(a),
                is_crlf(b),
                "sameLength moved a line break at {i}"
            );
            if is_crlf(a) {
                assert_eq!(a, b, "sameLength changed a line break at {i}");
            }
        }
    }
    let bound = Bound::new(&case);

    // One push, then end.
    let mut stream = scrubber.stream();
    let mut out = stream.push(&case.input).unwrap();
    bound.check(&stream, &case.input);
    out.extend(stream.end().unwrap());
    assert_eq!(out, whole.output, "one push + end differs from bytes()");
    assert_eq!(stream.hits(), whole.hits, "hits of one push + end");

    // The plan's chunking, without idle calls.
    let steps = case.steps();
    let mut stream = scrubber.stream();
    let mut out = Vec::new();
    for (range, _) in &steps {
        out.extend(stream.push(&case.input[range.clone()]).unwrap());
        bound.check(&stream, &case.input[..range.end]);
    }
    out.extend(stream.end().unwrap());
    assert_eq!(stream.held(), 0, "held after end");
    assert_eq!(out, whole.output, "chunking + end differs from bytes()");
    assert_eq!(stream.hits(), whole.hits, "hits of chunking + end");

    in_large_pushes(&scrubber, &case);

    // The plan with its idle calls.
    let (out, hits, cuts) = with_idle(&scrubber, &case, &bound);
    let mut expected = Vec::new();
    let mut tally: BTreeMap<(usize, Form), u64> = BTreeMap::new();
    let mut from = 0;
    for &cut in cuts.iter().chain([&case.input.len()]) {
        let piece = scrubber.bytes(&case.input[from..cut]);
        expected.extend(piece.output);
        for hit in piece.hits {
            *tally.entry((secret_index(&hit), hit.form)).or_default() += hit.count;
        }
        from = cut;
    }
    let expected_hits: Vec<Hit> = tally
        .into_iter()
        .map(|((i, form), count)| Hit {
            name: format!("S{i}"),
            form,
            count,
        })
        .collect();
    assert_eq!(out, expected, "with idle: not bytes() of the pieces");
    assert_eq!(hits, expected_hits, "with idle: hits");
    if whole.hits.is_empty() {
        assert_eq!(
            out, case.input,
            "with idle: an input without a match changed"
        );
    }

    if case.input.len() <= SMALL_INPUT && case.secrets.len() <= SMALL_SECRETS {
        against_reference(&scrubber, &case, &whole);
    }
}

/// Pushes of this many bytes or more are fed in place (see
/// `Stream::push_in_place` in the crate).
const LARGE_PUSH: usize = 16 * 1024;

/// Step 3's second part: the input repeated past 16 KiB beyond its first
/// copy, the plan's pushes over the first copy, then the rest in one large
/// push. Only for one input length in 8: a 16 KiB scrub, with the debug
/// assertions, costs as much as all the rest of a case.
fn in_large_pushes(scrubber: &Scrubber, case: &Case) {
    if case.input.is_empty() || !case.input.len().is_multiple_of(8) {
        return;
    }
    let first = case.input.len();
    let long = case.input.repeat(LARGE_PUSH / first + 2);
    let whole = scrubber.bytes(&long);
    let mut stream = scrubber.stream();
    let mut out = Vec::new();
    for (range, _) in case.steps() {
        out.extend(stream.push(&long[range]).unwrap());
    }
    assert!(long.len() - first >= LARGE_PUSH);
    out.extend(stream.push(&long[first..]).unwrap());
    out.extend(stream.end().unwrap());
    assert_eq!(out, whole.output, "a large push + end differs from bytes()");
    assert_eq!(stream.hits(), whole.hits, "hits of a large push + end");
}

/// Pushes the plan with its idle calls; returns the output, the hits and
/// the input positions at which an idle released everything held.
fn with_idle(scrubber: &Scrubber, case: &Case, bound: &Bound) -> (Vec<u8>, Vec<Hit>, Vec<usize>) {
    let mut stream = scrubber.stream();
    let mut out = Vec::new();
    let mut cuts = Vec::new();
    for (range, idle) in case.steps() {
        out.extend(stream.push(&case.input[range.clone()]).unwrap());
        bound.check(&stream, &case.input[..range.end]);
        if idle {
            let held = stream.held();
            let released = stream.idle().unwrap();
            if held >= IDLE_LIMIT {
                assert!(released.is_empty(), "idle with {held} held returned bytes");
                assert_eq!(stream.held(), held, "idle with {held} held changed held");
            } else {
                assert_eq!(stream.held(), 0, "idle with {held} held kept some");
                cuts.push(range.end);
            }
            out.extend(released);
        }
    }
    out.extend(stream.end().unwrap());
    (out, stream.hits(), cuts)
}

/// SPEC §4: what a stream holds never exceeds the longest pattern (or
/// value) length plus the CR and LF bytes inside a pending wrapped match.
/// Counting every CR and LF held makes it a little looser, never wrong.
struct Bound {
    longest: usize,
}

impl Bound {
    fn new(case: &Case) -> Bound {
        let longest = case
            .secrets
            .iter()
            .flat_map(|s| slicc_scrub::patterns(&s.value))
            .map(|p| p.bytes.len())
            .max()
            .unwrap_or(0);
        Bound { longest }
    }

    /// `pushed` is all the input pushed so far: the held bytes are its end.
    fn check(&self, stream: &Stream, pushed: &[u8]) {
        let held = stream.held();
        assert!(
            held <= pushed.len(),
            "held {held} of {} pushed",
            pushed.len()
        );
        let breaks = pushed[pushed.len() - held..]
            .iter()
            .filter(|&&b| is_crlf(b))
            .count();
        assert!(
            held <= self.longest + breaks,
            "held {held} > longest pattern {} + {breaks} line breaks held",
            self.longest
        );
    }
}

fn against_reference(scrubber: &Scrubber, case: &Case, whole: &slicc_scrub::Scrubbed) {
    let secrets: Vec<RefSecret> = case
        .secrets
        .iter()
        .map(|s| RefSecret {
            name: s.name.clone(),
            // Trimming twice changes nothing, so this holds whether or
            // not the reference trims too.
            value: rules_value(&s.value),
            placeholder: s.placeholder.clone(),
        })
        .collect();
    let reference = Reference::new(&secrets, case.same_length);
    let (output, hits) = reference.scrub(&case.input);
    assert_eq!(whole.output, output, "bytes() differs from the reference");
    assert_eq!(whole.hits, hits, "bytes() hits differ from the reference");

    let mut stream = scrubber.stream();
    let mut model = RefStream::new(&reference);
    for (n, (range, idle)) in case.steps().into_iter().enumerate() {
        let chunk = &case.input[range];
        assert_eq!(
            stream.push(chunk).unwrap(),
            model.push(chunk),
            "push {n}: output differs from the reference"
        );
        assert_eq!(stream.held(), model.held(), "push {n}: held");
        if idle {
            assert_eq!(
                stream.idle().unwrap(),
                model.idle(),
                "idle after push {n}: output differs from the reference"
            );
            assert_eq!(stream.held(), model.held(), "idle after push {n}: held");
        }
    }
    assert_eq!(stream.end().unwrap(), model.end(), "end: output");
    assert_eq!(stream.hits(), model.hits(), "stream hits vs the reference");
}

fn secret_index(hit: &Hit) -> usize {
    hit.name[1..].parse().expect("names are S0, S1, ...")
}
