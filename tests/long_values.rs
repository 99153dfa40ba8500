//! The shapes of issue 8 through the brute-force reference and the chunking
//! checks, on inputs small enough for the reference: long values (hundreds
//! of bytes, multi-line, sharing prefixes, so that patterns run far past the
//! automata's bounded prefixes and stay open across pushes) and many
//! secrets. Large pushes go through the seed filter, which hands what is
//! still open at the end to the stepper; `held()` is checked against the
//! reference stream after every push.

mod common;
mod reference;

use common::{
    Op, Rng, Shape, both, byte_at_a_time, check_stream, describe, random_input, random_secrets,
    random_value, ref_secret, show, sorted_hits,
};
use reference::{RefSecret, Reference};
use slicc_scrub::Scrubber;

/// Values up to 700 bytes, some multi-line.
fn long_shape() -> Shape {
    Shape {
        line_breaks: true,
        secrets: 4,
        value: 700,
        pieces: 10,
    }
}

/// At least `len` bytes of encodings (whole, cut, wrapped) and noise.
fn input_of(rng: &mut Rng, secrets: &[RefSecret], shape: Shape, len: usize) -> Vec<u8> {
    let mut input = Vec::new();
    while input.len() < len {
        input.extend(random_input(rng, secrets, shape));
        if secrets.is_empty() {
            input.extend(b"noise ");
        }
    }
    input
}

/// Pushes of random sizes, large ones (filtered) and small ones (stepped)
/// mixed, so each path starts from what the other held; and pushes about
/// as long as the filter's tail, which may or may not hold it (then the
/// filter reads again all that is held, else only its last bytes).
fn mixed_ops(rng: &mut Rng, input: &[u8]) -> Vec<Op> {
    let mut ops = Vec::new();
    let mut pos = 0;
    while pos < input.len() {
        let len = match rng.below(5) {
            0 => rng.range(1, 12),
            1 => rng.range(13, 700),
            2 => rng.range(40, 130),
            _ => rng.range(700, 4000),
        };
        let end = (pos + len).min(input.len());
        ops.push(Op::Push(input[pos..end].to_vec()));
        pos = end;
    }
    ops.push(Op::End);
    ops
}

/// bytes, one byte at a time and fixed-size pushes against the reference;
/// then a mixed chunking, step by step against the reference stream.
fn check(
    scrubber: &Scrubber,
    reference: &Reference,
    rng: &mut Rng,
    input: &[u8],
    ctx: &dyn Fn() -> String,
) {
    let (want, want_hits) = reference.scrub(input);
    let got = scrubber.bytes(input);
    assert_eq!(show(&got.output), show(&want), "bytes: {}", ctx());
    assert_eq!(
        sorted_hits(&got.hits),
        sorted_hits(&want_hits),
        "hits: {}",
        ctx()
    );
    let (one, one_hits) = byte_at_a_time(scrubber, input);
    assert_eq!(show(&one), show(&want), "one byte at a time: {}", ctx());
    assert_eq!(sorted_hits(&one_hits), sorted_hits(&want_hits), "{}", ctx());
    for size in [700, 1500, 4096] {
        let mut stream = scrubber.stream();
        let mut out = Vec::new();
        for piece in input.chunks(size) {
            stream.push_into(piece, &mut out).unwrap();
        }
        stream.end_into(&mut out).unwrap();
        assert_eq!(show(&out), show(&want), "pushes of {size}: {}", ctx());
        assert_eq!(sorted_hits(&stream.hits()), sorted_hits(&want_hits));
    }
    let ops = mixed_ops(rng, input);
    let streamed = check_stream(scrubber, reference, &ops, ctx);
    assert_eq!(show(&streamed), show(&want), "mixed pushes: {}", ctx());
}

fn run_long(seed: u64, cases: usize) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for case in 0..cases {
        let shape = long_shape();
        let mut secrets = random_secrets(&mut rng, shape);
        if rng.chance(1, 3) {
            // PEM-like values that share a long header, as real keys do.
            for i in 0..rng.range(1, 3) {
                let mut v = b"-----BEGIN PRIVATE KEY-----\n".to_vec();
                let body = random_value(&mut rng, 100, 500);
                v.extend(body.iter().map(|b| b ^ 0x20 | 0x40));
                v.extend_from_slice(b"\n-----END PRIVATE KEY-----");
                secrets.push(ref_secret(&format!("PEM{i}"), v, None));
            }
        }
        let same_length = rng.chance(1, 3);
        let reference = Reference::new(&secrets, same_length);
        if reference.replacement_leak().is_some() {
            continue; // compile refuses these; random_chunking checks that
        }
        let (scrubber, _) = both(&secrets, same_length);
        let input = input_of(&mut rng, &secrets, shape, 6000);
        let ctx = || {
            format!(
                "seed {seed} case {case}: {}",
                describe(&secrets, same_length)
            )
        };
        check(&scrubber, &reference, &mut rng, &input, &ctx);
        checked += 1;
    }
    checked
}

#[test]
fn long_values_seed_1() {
    assert!(run_long(801, 25) > 15);
}

#[test]
fn long_values_seed_2() {
    assert!(run_long(802, 25) > 15);
}

#[test]
fn many_secrets() {
    let mut rng = Rng::new(803);
    let mut secrets: Vec<RefSecret> = Vec::new();
    for i in 0..300 {
        let value = if i > 0 && rng.chance(1, 4) {
            // sharing a prefix or a window with an earlier one
            let other = &secrets[rng.below(i)].value;
            let keep = rng.range(8, other.len());
            [&other[..keep], &random_value(&mut rng, 1, 20)[..]].concat()
        } else {
            random_value(&mut rng, 8, 40)
        };
        let value = without_line_breaks_at_ends(value);
        secrets.push(ref_secret(&format!("K{i}"), value, None));
    }
    check_set(&mut rng, &secrets, 40, "many secrets");
}

/// `value` with a CR or LF at either end made a `q`: at least 8 bytes once
/// trimmed (SPEC §1).
fn without_line_breaks_at_ends(mut value: Vec<u8>) -> Vec<u8> {
    for at in [0, value.len() - 1] {
        if matches!(value[at], b'\r' | b'\n') {
            value[at] = b'q';
        }
    }
    value
}

/// Many `secrets` (values of about `value` bytes) through the reference and
/// the chunking checks, on four inputs of their encodings, cut and wrapped.
fn check_set(rng: &mut Rng, secrets: &[RefSecret], value: usize, name: &str) {
    let reference = Reference::new(secrets, false);
    assert!(reference.replacement_leak().is_none());
    let (scrubber, _) = both(secrets, false);
    let shape = Shape {
        line_breaks: true,
        secrets: secrets.len(),
        value,
        pieces: 20,
    };
    for case in 0..4 {
        let input = input_of(rng, secrets, shape, 5000);
        let ctx = || format!("{name}, case {case}");
        check(&scrubber, &reference, rng, &input, &ctx);
    }
}

/// Keys of a few services, each a header and a random rest (as `ghp_…`,
/// `sk-proj-…`): their hex and base64 share the automata's whole bounded
/// prefix across hundreds of patterns, of which the filter verifies only
/// those that agree with the input's next bytes (up to 8).
#[test]
fn keys_sharing_a_header() {
    let mut rng = Rng::new(805);
    let headers: [&[u8]; 3] = [b"sk-proj-", b"ghp_", b"xoxb-1234-"];
    let secrets: Vec<RefSecret> = (0..240)
        .map(|i| {
            let header = headers[i % headers.len()];
            let value = [header, &random_value(&mut rng, 12, 32)[..]].concat();
            ref_secret(&format!("K{i}"), without_line_breaks_at_ends(value), None)
        })
        .collect();
    check_set(&mut rng, &secrets, 42, "keys sharing a header");
}

/// Documents that share a long head with characters that JSON, percent
/// and HTML escape (as the keys of service accounts do): their JSON,
/// percent and HTML forms share 50 bytes and more past the automata's
/// bounded prefix across hundreds of patterns, among which the filter
/// finds by their order the longest the input begins with. Some values
/// begin others, and some end in a byte or two past the head, so that the
/// input begins several patterns at once and only the longest may win.
#[test]
fn documents_sharing_a_long_head() {
    let mut rng = Rng::new(806);
    let head: &[u8] = b"{\"type\": \"service_account\", \"project_id\": \"<a&b> ";
    let mut secrets: Vec<RefSecret> = Vec::new();
    for i in 0..160 {
        let value = match i % 4 {
            // A value that begins the one before.
            3 => {
                let before = &secrets.last().expect("three made before").value;
                [&before[..], &random_value(&mut rng, 1, 6)[..]].concat()
            }
            2 => [head, &random_value(&mut rng, 1, 3)[..]].concat(),
            _ => [head, &random_value(&mut rng, 4, 40)[..]].concat(),
        };
        let value = without_line_breaks_at_ends(value);
        if secrets.iter().any(|s| s.value == value) {
            continue;
        }
        secrets.push(ref_secret(&format!("SA{i}"), value, None));
    }
    check_set(&mut rng, &secrets, 70, "documents sharing a long head");
}

/// Periodic values (`aaaa…`, `abab…`, a unit repeated, sometimes with the
/// last byte changed) in input that repeats them in every encoding, longer
/// and shorter runs included: every start of the periodic part is a
/// candidate in progress at once, which the stepper keeps as one group and
/// the filter verifies against the pattern's self-overlap.
#[test]
fn periodic_values() {
    let mut rng = Rng::new(804);
    let units: [&[u8]; 5] = [b"a", b"ab", b"abc", b"0f", b"passwordpassword"];
    let mut checked = 0;
    for case in 0..30 {
        let unit = *rng.pick(&units);
        let run = |len: usize| -> Vec<u8> { unit.iter().copied().cycle().take(len).collect() };
        let mut secrets = Vec::new();
        for i in 0..rng.range(1, 3) {
            let len = rng.range(20, 400);
            let mut value = run(len);
            if rng.chance(1, 3) {
                *value.last_mut().unwrap() = b'Z';
            }
            secrets.push(ref_secret(&format!("P{i}"), value, None));
        }
        let same_length = rng.chance(1, 4);
        let reference = Reference::new(&secrets, same_length);
        if reference.replacement_leak().is_some() {
            continue;
        }
        let (scrubber, _) = both(&secrets, same_length);
        let mut input = Vec::new();
        while input.len() < 9000 {
            let v = &rng.pick(&secrets).value.clone();
            let piece = if rng.chance(1, 2) {
                v.clone()
            } else {
                let len = rng.range(v.len() / 2, 3 * v.len());
                run(len)
            };
            input.extend(common::encoding(&mut rng, &piece));
            if rng.chance(1, 4) {
                input.extend(b" ");
            }
            if rng.chance(1, 8) {
                // A long stretch where no gram hits: the view filter stops
                // counting view bytes there (filter.rs, UNCOUNTED).
                input.extend(b"line\n".repeat(900));
            }
        }
        let ctx = || format!("periodic case {case}: {}", describe(&secrets, same_length));
        check(&scrubber, &reference, &mut rng, &input, &ctx);
        checked += 1;
    }
    assert!(checked > 20, "{checked}");
}

/// Many secrets (so that the set of what can begin in a push's last 7
/// bytes is kept), and a push that ends 1 to 7 bytes into a piece of a
/// value (a fragment, or the start of one of its patterns) after noise that
/// begins nothing: only those last bytes say that the piece must be held.
#[test]
fn pieces_begun_in_the_last_bytes_of_a_push_of_many_secrets() {
    let mut rng = Rng::new(806);
    const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let secrets: Vec<RefSecret> = (0..150)
        .map(|i| {
            let value: Vec<u8> = (0..40).map(|_| *rng.pick(ALNUM)).collect();
            ref_secret(&format!("K{i}"), value, None)
        })
        .collect();
    let (scrubber, reference) = both(&secrets, false);
    for case in 0..300 {
        let value = &secrets[rng.below(secrets.len())].value;
        // A fragment from anywhere in the value, or one of its patterns
        // whole (base64 and hex among them, found on the view).
        let patterns = slicc_scrub::patterns(value);
        let piece = if rng.chance(1, 2) {
            let from = rng.below(value.len() - 16);
            value[from..rng.range(from + 16, value.len())].to_vec()
        } else {
            patterns[rng.below(patterns.len())].bytes.clone()
        };
        let noise = b"~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ";
        let mut input = noise[..rng.range(48, noise.len())].to_vec();
        let cut = input.len() + rng.range(1, 7);
        input.extend_from_slice(&piece);
        // Now and then a line break inside the last bytes of the push.
        if rng.chance(1, 4) {
            input.insert(rng.range(cut - 7, cut - 1), b'\n');
        }
        input.extend_from_slice(&noise[..rng.range(0, 20)]);
        let ops = [
            Op::Push(input[..cut].to_vec()),
            Op::Push(input[cut..].to_vec()),
            Op::End,
        ];
        let ctx = || format!("case {case}: {}", show(&input));
        let streamed = check_stream(&scrubber, &reference, &ops, &ctx);
        assert_eq!(
            show(&streamed),
            show(&reference.scrub(&input).0),
            "{}",
            ctx()
        );
    }
}

/// Long values whose suffix automaton is large (over 65,536 states: its
/// states hold their few edge bytes themselves, see `LARGE_FROM` in
/// `engine/suffix.rs`), through the reference and every chunking check.
#[test]
fn values_of_a_large_suffix_automaton() {
    let mut rng = Rng::new(806);
    let secrets = pem_keys(&mut rng, 16);
    check_set(&mut rng, &secrets, 3400, "values of a large automaton");
}

/// Enough long values that the Bloom filters of their grams are large (4
/// bits a gram, the second pair beside the first: from 131,072 grams, see
/// `LARGE` in `engine/seeds.rs`), through the reference and every
/// chunking check.
#[test]
fn values_of_large_bloom_filters() {
    let mut rng = Rng::new(807);
    let secrets = pem_keys(&mut rng, 48);
    check_set(&mut rng, &secrets, 3400, "values of large Bloom filters");
}

/// Enough long values that the filter's union of grams is past the
/// second-level cache (1 MiB: from about 262,000 grams) and a smaller set
/// of the same grams is tested first (`direct_first` in `engine/mod.rs`),
/// through the reference and every chunking check.
#[test]
fn values_of_a_two_level_filter() {
    let mut rng = Rng::new(808);
    let secrets = pem_keys(&mut rng, 96);
    check_set(&mut rng, &secrets, 3400, "values of a two-level filter");
}

/// `count` PEM-sized keys sharing their header and footer, their bodies
/// random letters.
fn pem_keys(rng: &mut Rng, count: usize) -> Vec<RefSecret> {
    (0..count)
        .map(|i| {
            let mut v = b"-----BEGIN PRIVATE KEY-----\n".to_vec();
            let body = random_value(rng, 3200, 3600);
            v.extend(body.iter().map(|b| b ^ 0x20 | 0x40));
            v.extend_from_slice(b"\n-----END PRIVATE KEY-----");
            ref_secret(&format!("PEM{i}"), v, None)
        })
        .collect()
}
