//! Random secrets and inputs, checked against the brute-force reference:
//! `bytes()` and `text()`, random chunkings with `idle()` mixed in (every
//! step's output, `held()` and hits), and one byte at a time.

mod common;
mod reference;

use common::*;
use reference::Reference;
use std::collections::BTreeSet;

use slicc_scrub::{CompileError, Form, compile};

/// Runs `cases` random cases from `seed`; returns how many compiled and
/// which forms the expected outputs replaced (so the test proves it reached
/// every form).
fn run(seed: u64, cases: usize, shape: Shape) -> (usize, BTreeSet<Form>) {
    let mut rng = Rng::new(seed);
    let mut compiled = 0;
    let mut forms = BTreeSet::new();
    for case in 0..cases {
        let secrets = random_secrets(&mut rng, shape);
        let same_length = rng.chance(1, 3);
        let reference = Reference::new(&secrets, same_length);
        let ctx = || {
            format!(
                "seed {seed} case {case}: {}",
                describe(&secrets, same_length)
            )
        };

        // SPEC §1: a placeholder or [redacted:<name>] containing a match
        // fails the compile; nothing else does here.
        let result = compile(&to_secrets(&secrets), &options(same_length));
        match (reference.replacement_leak(), result) {
            (None, Ok(_)) => {}
            (Some((index, placeholder)), Err(e)) => {
                match (&e, placeholder) {
                    (CompileError::PlaceholderLeaks { index: i, .. }, true)
                    | (CompileError::RedactionLeaks { index: i, .. }, false) => {
                        assert_eq!(*i, index, "wrong index in {e}: {}", ctx())
                    }
                    _ => panic!(
                        "expected a leak of secret {index} (placeholder: {placeholder}), got {e:?}: {}",
                        ctx()
                    ),
                }
                continue;
            }
            (None, Err(e)) => panic!("compile failed: {e}: {}", ctx()),
            (Some(leak), Ok(_)) => panic!("compile should fail with {leak:?}: {}", ctx()),
        }
        compiled += 1;
        let (scrubber, _) = both(&secrets, same_length);
        let input = random_input(&mut rng, &secrets, shape);
        let ctx = || format!("{}\n  input \"{}\"", ctx(), show(&input));

        let (want, want_hits) = reference.scrub(&input);
        forms.extend(want_hits.iter().map(|h| h.form));
        let got = scrubber.bytes(&input);
        assert_eq!(show(&got.output), show(&want), "bytes(): {}", ctx());
        assert_eq!(got.hits, want_hits, "bytes() hits: {}", ctx());
        if same_length {
            assert_eq!(got.output.len(), input.len(), "sameLength: {}", ctx());
        }
        if let Ok(text) = std::str::from_utf8(&input) {
            let t = scrubber.text(text);
            assert_eq!(t.text, String::from_utf8_lossy(&want), "text(): {}", ctx());
            assert_eq!(t.hits, want_hits, "text() hits: {}", ctx());
        }

        // Any chunking without idle gives bytes(); with idle, the reference.
        let ops = random_ops(&mut rng, &input, false);
        let out = check_stream(&scrubber, &reference, &ops, &ctx);
        assert_eq!(show(&out), show(&want), "chunked != bytes(): {}", ctx());
        for _ in 0..2 {
            let ops = random_ops(&mut rng, &input, true);
            check_stream(&scrubber, &reference, &ops, &ctx);
        }

        let (out, hits) = byte_at_a_time(&scrubber, &input);
        assert_eq!(show(&out), show(&want), "one byte at a time: {}", ctx());
        assert_eq!(hits, want_hits, "one byte at a time, hits: {}", ctx());
    }
    (compiled, forms)
}

fn check(seed: u64, cases: usize, shape: Shape) {
    let (compiled, forms) = run(seed, cases, shape);
    assert!(compiled > cases * 2 / 3, "only {compiled} cases compiled");
    assert_eq!(forms.len(), Form::ALL.len(), "forms reached: {forms:?}");
}

// Values without CR or LF (inputs still have them: wrapped forms).

#[test]
fn random_cases_seed_1() {
    check(1, 600, Shape::small(false));
}

#[test]
fn random_cases_seed_2() {
    check(0x5eed_0002, 600, Shape::small(false));
}

#[test]
fn random_cases_seed_3() {
    check(0xdead_beef_0003, 600, Shape::small(false));
}

// Values with CR and LF: raw CR LF variants, fragments and HTML forms that
// hold line breaks, values with line breaks around them (trimmed, SPEC §1),
// and (SPEC §3) no candidate starting at a CR or LF.

#[test]
fn random_cases_with_line_breaks_in_values() {
    check(0x11_0004, 600, Shape::small(true));
}

/// A longer run for hunting bugs: `cargo test --release --test
/// random_chunking -- --ignored`; `SLICC_SCRUB_STRESS_CASES` sets the
/// number of cases per seed (default 20,000), `SLICC_SCRUB_STRESS_SEED` the
/// first seed.
#[test]
#[ignore]
fn random_cases_long() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let cases = env("SLICC_SCRUB_STRESS_CASES", 20_000) as usize;
    let seed = env("SLICC_SCRUB_STRESS_SEED", 1000);
    for line_breaks in [false, true] {
        check(seed, cases, Shape::small(line_breaks));
        check(seed + 1, cases / 10, Shape::large(line_breaks));
    }
}
