//! Large pushes go through the seed filter instead of stepping the automata
//! over every byte (see `src/engine/filter.rs`). Long random inputs, so that
//! path runs, against the reference matcher and against one byte at a time
//! (which never uses the filter).

mod common;
mod reference;

use common::{
    Op, Rng, Shape, both, byte_at_a_time, check_stream, describe, encoding, noise, random_input,
    random_secrets, random_value, ref_secret, show, sorted_hits,
};
use reference::{RefSecret, Reference, trim_line_breaks};
use slicc_scrub::Scrubber;

/// Several kilobytes: well past where a push is filtered.
fn long_input(rng: &mut Rng, secrets: &[reference::RefSecret]) -> Vec<u8> {
    let mut input = Vec::new();
    while input.len() < 4096 {
        input.extend(random_input(rng, secrets, Shape::small(true)));
    }
    input
}

/// Random secrets (of the small shape, with line breaks), whether
/// replacements keep the length, and their reference and scrubber: `None`
/// where the compile refuses them (`random_chunking` checks that).
fn random_case(rng: &mut Rng) -> Option<(Vec<RefSecret>, bool, Reference, Scrubber)> {
    let secrets = random_secrets(rng, Shape::small(true));
    let same_length = rng.chance(1, 3);
    let reference = Reference::new(&secrets, same_length);
    if reference.replacement_leak().is_some() {
        return None;
    }
    let (scrubber, _) = both(&secrets, same_length);
    Some((secrets, same_length, reference, scrubber))
}

fn run(seed: u64, cases: usize) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for case in 0..cases {
        let Some((secrets, same_length, reference, scrubber)) = random_case(&mut rng) else {
            continue;
        };
        let input = long_input(&mut rng, &secrets);
        let ctx = || {
            format!(
                "seed {seed} case {case}: {}",
                describe(&secrets, same_length)
            )
        };

        let (want, want_hits) = reference.scrub(&input);
        let got = scrubber.bytes(&input);
        assert_eq!(
            show(&got.output),
            show(&want),
            "bytes vs reference: {}",
            ctx()
        );
        assert_eq!(
            sorted_hits(&got.hits),
            sorted_hits(&want_hits),
            "hits: {}",
            ctx()
        );

        let (one, one_hits) = byte_at_a_time(&scrubber, &input);
        assert_eq!(show(&one), show(&want), "one byte at a time: {}", ctx());
        assert_eq!(
            sorted_hits(&one_hits),
            sorted_hits(&want_hits),
            "hits: {}",
            ctx()
        );

        // Random large and small pushes mixed, so the filter starts with
        // bytes held from a small push, and the other way round.
        let mut stream = scrubber.stream();
        let mut out = Vec::new();
        let mut pos = 0;
        while pos < input.len() {
            let len = if rng.chance(1, 2) {
                rng.range(1, 12)
            } else {
                rng.range(600, 3000)
            };
            let end = (pos + len).min(input.len());
            stream.push_into(&input[pos..end], &mut out).unwrap();
            pos = end;
        }
        stream.end_into(&mut out).unwrap();
        assert_eq!(show(&out), show(&want), "mixed pushes: {}", ctx());
        assert_eq!(
            sorted_hits(&stream.hits()),
            sorted_hits(&want_hits),
            "hits: {}",
            ctx()
        );
        checked += 1;
    }
    checked
}

#[test]
fn long_inputs_seed_1() {
    assert!(run(101, 60) > 40);
}

#[test]
fn long_inputs_seed_2() {
    assert!(run(202, 60) > 40);
}

/// The stream drops decided bytes from the front of its buffer only now and
/// then (from 4 KiB of them on, or when the buffer is full): encodings
/// planted across 4,096 and 8,192 bytes of input, pushed a byte at a time
/// and in small and large pieces, against the reference stream after every
/// push (output, `held()` and hits).
#[test]
fn matches_across_the_point_where_decided_bytes_are_dropped() {
    let mut rng = Rng::new(303);
    let mut checked = 0;
    for case in 0..12 {
        let secrets = random_secrets(&mut rng, Shape::small(true));
        let reference = Reference::new(&secrets, false);
        if secrets.is_empty() || reference.replacement_leak().is_some() {
            continue;
        }
        let (scrubber, _) = both(&secrets, false);
        let mut input = Vec::new();
        for around in [4096usize, 8192] {
            let value = rng.pick(&secrets).value.clone();
            let planted = encoding(&mut rng, &value);
            let before = around
                .saturating_sub(rng.below(planted.len() + 8))
                .saturating_sub(input.len());
            input.extend(noise(&mut rng, &secrets, before));
            input.extend(planted);
        }
        input.extend(noise(&mut rng, &secrets, 64));
        let ctx = || format!("case {case}: {}", describe(&secrets, false));
        let (want, _) = reference.scrub(&input);
        for (shortest, longest) in [(1, 1), (1, 12), (1, 5000)] {
            let mut ops = Vec::new();
            let mut pos = 0;
            while pos < input.len() {
                let end = (pos + rng.range(shortest, longest)).min(input.len());
                ops.push(Op::Push(input[pos..end].to_vec()));
                pos = end;
            }
            ops.push(Op::End);
            let got = check_stream(&scrubber, &reference, &ops, &ctx);
            assert_eq!(
                show(&got),
                show(&want),
                "pushes of {shortest} to {longest}: {}",
                ctx()
            );
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked} cases checked");
}

/// A large push that ends 1 to 24 bytes into a piece of a value (a
/// fragment, or the whole value), the rest in the next large push, after
/// noise made of the values' own bytes, so that the fragment run at the end
/// of a push is seldom empty: one shorter than a window is not handed to
/// the next push's filter, which finds again what starts there. Against
/// the reference stream after each push (output, `held()` and hits).
#[test]
fn fragments_begun_at_the_end_of_a_large_push() {
    let mut rng = Rng::new(404);
    let mut checked = 0;
    for case in 0..40 {
        let secrets = vec![
            ref_secret("A", random_value(&mut rng, 17, 80), None),
            ref_secret("B", random_value(&mut rng, 17, 80), None),
        ];
        let reference = Reference::new(&secrets, false);
        let value = trim_line_breaks(&secrets[0].value).to_vec();
        if value.len() <= 16 || reference.replacement_leak().is_some() {
            continue;
        }
        let (scrubber, _) = both(&secrets, false);
        for begun in 1..=24 {
            let len = rng.range(16, value.len());
            let from = rng.below(value.len() - len + 1);
            let piece = &value[from..from + len];
            let lead = rng.range(60, 300);
            let mut input = noise(&mut rng, &secrets, lead);
            let cut = input.len() + begun.min(len - 1);
            input.extend_from_slice(piece);
            let trail = rng.range(60, 300);
            input.extend(noise(&mut rng, &secrets, trail));
            let ops = [
                Op::Push(input[..cut].to_vec()),
                Op::Push(input[cut..].to_vec()),
                Op::End,
            ];
            let ctx = || format!("case {case}, begun {begun}: {}", describe(&secrets, false));
            let got = check_stream(&scrubber, &reference, &ops, &ctx);
            let (want, _) = reference.scrub(&input);
            assert_eq!(show(&got), show(&want), "{}", ctx());
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked} cases checked");
}

/// A push of 60 bytes or more (filtered) that ends 1 to 40 bytes into an
/// encoding of a value (the tail the stepper looks at is 39 view bytes: a
/// pattern open at the end from there holds the push's last 8 bytes at an
/// offset up to 31), the rest in the next push, against the reference
/// stream after each push (output, `held()` and hits).
#[test]
fn encodings_begun_at_the_end_of_a_push() {
    let mut rng = Rng::new(606);
    let (mut checked, mut deep) = (0, 0);
    for case in 0..40 {
        let Some((secrets, same_length, reference, scrubber)) = random_case(&mut rng) else {
            continue;
        };
        if secrets.is_empty() {
            continue;
        }
        for begun in 1..=40 {
            let value = trim_line_breaks(&rng.pick(&secrets).value).to_vec();
            let planted = encoding(&mut rng, &value);
            if planted.len() < 2 {
                continue;
            }
            let lead = rng.range(60, 300);
            let mut input = noise(&mut rng, &secrets, lead);
            let into = begun.min(planted.len() - 1);
            let cut = input.len() + into;
            input.extend_from_slice(&planted);
            let trail = rng.range(1, 100);
            input.extend(noise(&mut rng, &secrets, trail));
            let ops = [
                Op::Push(input[..cut].to_vec()),
                Op::Push(input[cut..].to_vec()),
                Op::End,
            ];
            let ctx = || {
                format!(
                    "case {case}, {into} bytes in: {}",
                    describe(&secrets, same_length)
                )
            };
            let got = check_stream(&scrubber, &reference, &ops, &ctx);
            let (want, _) = reference.scrub(&input);
            assert_eq!(show(&got), show(&want), "{}", ctx());
            deep += usize::from(into > 24);
        }
        checked += 1;
    }
    assert!(
        checked >= 20 && deep >= 200,
        "{checked} cases, {deep} cut past 24 bytes"
    );
}

/// Pushes of 4 KiB or more are fed where they are, once what was held
/// before them is decided (at once where their first 8 bytes show that
/// nothing can start in it, else pushed a byte at a time for up to 8
/// bytes; more held, or still undecided after 8, and the push is copied as
/// any other): such pushes, of 4 to 20 KiB, each cut 0 to 24 bytes into a
/// planted encoding or a piece of a value, after 0 to 3 single bytes,
/// against the reference stream after every push (output, `held()` and
/// hits). Both sides of the limit are reached: pushes that begin with more
/// than 8 bytes held and with 1 to 8.
#[test]
fn large_pushes_fed_in_place() {
    const LARGE: usize = 4 * 1024;
    let mut rng = Rng::new(505);
    let (mut checked, mut few_held, mut many_held) = (0, 0, 0);
    for case in 0..16 {
        let Some((secrets, same_length, reference, scrubber)) = random_case(&mut rng) else {
            continue;
        };
        if secrets.is_empty() {
            continue;
        }
        let mut input = Vec::new();
        let mut cuts = Vec::new();
        for _ in 0..3 {
            let value = trim_line_breaks(&rng.pick(&secrets).value).to_vec();
            let planted = if rng.chance(1, 3) && value.len() > 16 {
                let len = rng.range(16, value.len());
                let from = rng.below(value.len() - len + 1);
                value[from..from + len].to_vec()
            } else {
                encoding(&mut rng, &value)
            };
            let into = rng.below(planted.len().min(24) + 1);
            let cut = input.len() + LARGE + 16 + rng.below(16 * 1024);
            input.extend(noise(&mut rng, &secrets, cut - into - input.len()));
            input.extend(planted);
            cuts.push(cut);
        }
        let end = input.len() + LARGE + 16 + rng.below(16 * 1024);
        input.extend(noise(&mut rng, &secrets, end - input.len()));
        cuts.push(input.len());

        // Each stretch between cuts: a few single bytes, then the rest (more
        // than 4 KiB) in one push.
        let mut ops = Vec::new();
        let mut pos = 0;
        let mut large_at = Vec::new();
        for &cut in &cuts {
            for _ in 0..rng.below(4) {
                ops.push(Op::Push(input[pos..=pos].to_vec()));
                pos += 1;
            }
            assert!(cut - pos >= LARGE);
            large_at.push(ops.len());
            ops.push(Op::Push(input[pos..cut].to_vec()));
            pos = cut;
        }
        ops.push(Op::End);
        let ctx = || format!("case {case}: {}", describe(&secrets, same_length));
        let got = check_stream(&scrubber, &reference, &ops, &ctx);
        let (want, _) = reference.scrub(&input);
        assert_eq!(show(&got), show(&want), "{}", ctx());

        // What was held as each large push began.
        let mut stream = scrubber.stream();
        for (i, op) in ops.iter().enumerate() {
            if let Op::Push(chunk) = op {
                if large_at.contains(&i) {
                    match stream.held() {
                        0 => {}
                        1..=8 => few_held += 1,
                        _ => many_held += 1,
                    }
                }
                stream.push(chunk).unwrap();
            }
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked} cases checked");
    assert!(
        few_held >= 4 && many_held >= 4,
        "{few_held} and {many_held}"
    );
}
