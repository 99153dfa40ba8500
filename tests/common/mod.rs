//! Shared helpers of the integration tests: a tiny deterministic PRNG,
//! conversions between the reference's secrets and the crate's, and a
//! step-by-step comparison of a stream against the reference stream.
#![allow(dead_code)]

pub mod names_with_matches;

use std::fmt::Write as _;

use slicc_scrub::{Hit, Options, RULES_VERSION, Scrubber, Secret, Stream, compile};

use crate::reference::{RefSecret, RefStream, Reference};

/// splitmix64: small, fast, deterministic on every platform.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

pub fn options(same_length: bool) -> Options {
    Options::new(RULES_VERSION).same_length(same_length)
}

pub fn to_secrets(secrets: &[RefSecret]) -> Vec<Secret> {
    secrets
        .iter()
        .map(|s| Secret {
            name: s.name.clone(),
            value: s.value.clone(),
            placeholder: s.placeholder.clone(),
        })
        .collect()
}

pub fn ref_secret(name: &str, value: impl Into<Vec<u8>>, placeholder: Option<&[u8]>) -> RefSecret {
    RefSecret {
        name: name.into(),
        value: value.into(),
        placeholder: placeholder.map(|p| p.to_vec()),
    }
}

/// The engine and the reference for the same secrets and options.
pub fn both(secrets: &[RefSecret], same_length: bool) -> (Scrubber, Reference) {
    let scrubber = compile(&to_secrets(secrets), &options(same_length))
        .unwrap_or_else(|e| panic!("compile failed: {e}"));
    (scrubber, Reference::new(secrets, same_length))
}

/// Hits as a sorted multiset, for comparisons in any order.
pub fn sorted_hits(hits: &[Hit]) -> Vec<(String, &'static str, u64)> {
    let mut v: Vec<_> = hits
        .iter()
        .map(|h| (h.name.clone(), h.form.as_str(), h.count))
        .collect();
    v.sort();
    v
}

/// Bytes shown readably in assertion messages: printable ASCII as is,
/// everything else as `\xNN`.
pub fn show(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        match b {
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(b as char),
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            _ => write!(s, "\\x{b:02x}").unwrap(),
        }
    }
    s
}

pub fn hex_decode(hex: &str) -> Vec<u8> {
    assert!(hex.len().is_multiple_of(2), "odd hex length");
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("bad hex"))
        .collect()
}

pub fn describe(secrets: &[RefSecret], same_length: bool) -> String {
    let mut s = format!("sameLength={same_length}");
    for (i, x) in secrets.iter().enumerate() {
        write!(
            s,
            "\n  secret {i} {:?} value=\"{}\" placeholder={}",
            x.name,
            show(&x.value),
            match &x.placeholder {
                Some(p) => format!("\"{}\"", show(p)),
                None => "none".into(),
            }
        )
        .unwrap();
    }
    s
}

/// One step of a stream script.
#[derive(Clone, Debug)]
pub enum Op {
    Push(Vec<u8>),
    Idle,
    End,
}

/// Runs `ops` on a fresh engine stream and on the reference stream; after
/// every step, the returned bytes, `held()` and hits must agree. Returns the
/// whole output. Panics with the first difference.
pub fn check_stream(
    scrubber: &Scrubber,
    reference: &Reference,
    ops: &[Op],
    context: &dyn Fn() -> String,
) -> Vec<u8> {
    try_stream(scrubber, reference, ops).unwrap_or_else(|e| panic!("{e}\n{}", context()))
}

/// As [`check_stream`], returning the first difference as an error.
pub fn try_stream(
    scrubber: &Scrubber,
    reference: &Reference,
    ops: &[Op],
) -> Result<Vec<u8>, String> {
    let mut stream: Stream = scrubber.stream();
    let mut model = RefStream::new(reference);
    let mut all = Vec::new();
    for (step, op) in ops.iter().enumerate() {
        let (got, want) = match op {
            Op::Push(chunk) => (stream.push(chunk).unwrap(), model.push(chunk)),
            Op::Idle => (stream.idle().unwrap(), model.idle()),
            Op::End => (stream.end().unwrap(), model.end()),
        };
        let label = |what: &str| {
            format!(
                "{what} differs from the reference at step {step} ({}) of {}",
                match op {
                    Op::Push(c) => format!("push \"{}\"", show(c)),
                    Op::Idle => "idle".into(),
                    Op::End => "end".into(),
                },
                ops_text(ops),
            )
        };
        if got != want {
            return Err(format!(
                "{}\n   got \"{}\"\n  want \"{}\"",
                label("output"),
                show(&got),
                show(&want)
            ));
        }
        if stream.held() != model.held() {
            return Err(format!(
                "{}: got {}, want {} (\"{}\")",
                label("held()"),
                stream.held(),
                model.held(),
                show(model.held_bytes())
            ));
        }
        // §4 memory: the longest pattern plus the CR/LF of a pending match
        let crlf = model
            .held_bytes()
            .iter()
            .filter(|&&b| b == b'\r' || b == b'\n')
            .count();
        if stream.held() > reference.longest_pattern() + crlf {
            return Err(format!(
                "{}: {} held, more than the longest pattern {} + {crlf} CR/LF",
                label("memory bound"),
                stream.held(),
                reference.longest_pattern()
            ));
        }
        if sorted_hits(&stream.hits()) != sorted_hits(&model.hits()) {
            return Err(format!(
                "{}: got {:?}, want {:?}",
                label("hits"),
                stream.hits(),
                model.hits()
            ));
        }
        all.extend(got);
    }
    Ok(all)
}

/// A script, short: one byte at a time is written as such.
pub fn ops_text(ops: &[Op]) -> String {
    let bytewise = ops.len() > 2
        && ops[..ops.len() - 1]
            .iter()
            .all(|op| matches!(op, Op::Push(c) if c.len() == 1))
        && matches!(ops.last(), Some(Op::End));
    if bytewise {
        let input: Vec<u8> = ops
            .iter()
            .filter_map(|op| match op {
                Op::Push(c) => Some(c[0]),
                _ => None,
            })
            .collect();
        return format!("one byte at a time of \"{}\", then end", show(&input));
    }
    ops.iter()
        .map(|op| match op {
            Op::Push(c) => format!("push(\"{}\")", show(c)),
            Op::Idle => "idle".into(),
            Op::End => "end".into(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Pushes `input` one byte at a time, then ends; returns output and hits.
pub fn byte_at_a_time(scrubber: &Scrubber, input: &[u8]) -> (Vec<u8>, Vec<Hit>) {
    let mut stream = scrubber.stream();
    let mut out = Vec::new();
    for &b in input {
        stream.push_into(&[b], &mut out).unwrap();
    }
    stream.end_into(&mut out).unwrap();
    (out, stream.hits())
}

// ---------------------------------------------------------------------------
// Random secrets and inputs
// ---------------------------------------------------------------------------

const TEXT_PIECES: &[&str] = &[
    "a", "b", "\"", "\\", "<", ">", "&", "'", "%", " ", "+", "/", "~", "*", "(", "=", "é",
    "\u{2028}", "😀", "\u{7f}", "\u{1}", "\t", "\n", "\r", "Z",
];

/// A random value of `lo..=hi` bytes, from one of several small alphabets so
/// that values and noise collide: letters, line breaks, bytes that are not
/// UTF-8, JSON/percent/HTML specials, base64 and hex digits.
pub fn random_value(rng: &mut Rng, lo: usize, hi: usize) -> Vec<u8> {
    let len = rng.range(lo, hi);
    let alphabet: &[u8] = match rng.below(9) {
        0 => b"ab",
        1 => b"abc",
        2 => b"ab\n",
        3 => b"xy\r\n",
        4 => &[0xff, 0x80, b'a', 0xc3, 0xa9],
        5 => return random_text_value(rng, len),
        6 => b"ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
        7 => b"QUJDZGVm+/=-_09",
        _ => b"0123456789abcdefABCDEF",
    };
    (0..len).map(|_| *rng.pick(alphabet)).collect()
}

fn random_text_value(rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let piece = rng.pick(TEXT_PIECES).as_bytes();
        if out.len() + piece.len() > len {
            break;
        }
        out.extend_from_slice(piece);
    }
    while out.len() < len {
        out.push(b'a');
    }
    out
}

/// The size of random cases.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// whether values may hold CR and LF
    pub line_breaks: bool,
    /// at most this many secrets (at least 3)
    pub secrets: usize,
    /// values of 8 to this many bytes (at least 40)
    pub value: usize,
    /// inputs of up to this many pieces
    pub pieces: usize,
}

impl Shape {
    /// Small cases: fast in debug builds.
    pub fn small(line_breaks: bool) -> Shape {
        Shape {
            line_breaks,
            secrets: 3,
            value: 40,
            pieces: 6,
        }
    }

    /// More secrets, longer values and inputs: for the long run.
    pub fn large(line_breaks: bool) -> Shape {
        Shape {
            line_breaks,
            secrets: 6,
            value: 120,
            pieces: 14,
        }
    }
}

/// 0 to `shape.secrets` secrets (rarely 0, mostly 1 to 3), some sharing
/// values, windows, prefixes or suffixes with an earlier one; names unique;
/// placeholders or not. Without `shape.line_breaks`, every CR and LF of a
/// value becomes `-`.
pub fn random_secrets(rng: &mut Rng, shape: Shape) -> Vec<RefSecret> {
    let line_breaks = shape.line_breaks;
    let count = match rng.below(20) {
        0 => 0,
        1..=7 => 1,
        8..=14 => 2,
        15..=17 => 3,
        _ => rng.range(3, shape.secrets),
    };
    let bases = ["s", "TOKEN_", "a.b-", "K"];
    let mut secrets: Vec<RefSecret> = Vec::new();
    for i in 0..count {
        let value = if i > 0 && rng.chance(1, 3) {
            let other = secrets[rng.below(i)].value.clone();
            let extra = random_value(rng, 8, 16);
            let mut v = match rng.below(5) {
                0 => other,
                // another secret's encoding as a value: same-length ties
                // between forms of different secrets
                4 => {
                    let pats = crate::reference::patterns_of(&other);
                    pats[rng.below(pats.len())].bytes.clone()
                }
                1 => [&other[..], &extra[..rng.below(extra.len())]].concat(),
                2 => [&extra[..rng.below(extra.len())], &other[..]].concat(),
                _ => {
                    let k = rng.below(other.len());
                    [&other[k..], &extra[..]].concat()
                }
            };
            v.truncate(shape.value);
            while v.len() < 8 {
                v.push(b'q');
            }
            v
        } else {
            let hi = if rng.chance(1, 4) { shape.value } else { 40 };
            random_value(rng, 8, hi)
        };
        let value = if line_breaks {
            with_line_breaks_around(rng, value)
        } else {
            value
                .into_iter()
                .map(|b| if b == b'\r' || b == b'\n' { b'-' } else { b })
                .collect()
        };
        let placeholder = match rng.below(10) {
            0..=3 => None,
            4 => Some(Vec::new()),
            5..=7 => Some(format!("<P{i}>").into_bytes()),
            8 => Some(b"{{secret}}".to_vec()),
            // may contain a pattern: then the compile must fail
            _ => Some(random_value(rng, 1, 12)),
        };
        secrets.push(RefSecret {
            name: format!("{}{i}", rng.pick(&bases)),
            value,
            placeholder,
        });
    }
    secrets
}

/// SPEC §1 (rules version 4): values are trimmed of leading and trailing CR
/// and LF. Sometimes adds such line breaks around `value`; then, as a value
/// may also begin or end with its own, pads it inside its line breaks until
/// it trims to at least `MIN_VALUE` bytes, so that it still compiles.
fn with_line_breaks_around(rng: &mut Rng, mut value: Vec<u8>) -> Vec<u8> {
    let breaks: [&[u8]; 4] = [b"\n", b"\r\n", b"\r", b"\n\n"];
    if rng.chance(1, 4) {
        value.splice(0..0, rng.pick(&breaks).iter().copied());
    }
    if rng.chance(1, 3) {
        let tail: &&[u8] = rng.pick(&breaks);
        value.extend_from_slice(tail);
    }
    while crate::reference::trim_line_breaks(&value).len() < slicc_scrub::MIN_VALUE {
        let lead = value
            .iter()
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        value.insert(lead, b'q');
    }
    value
}

/// Random bytes that collide with values: bytes of the values themselves,
/// base64/hex digits, line breaks.
pub fn noise(rng: &mut Rng, secrets: &[RefSecret], len: usize) -> Vec<u8> {
    (0..len)
        .map(|_| {
            if !secrets.is_empty() && rng.chance(1, 2) {
                let v = &rng.pick(secrets).value;
                v[rng.below(v.len())]
            } else {
                *rng.pick(b"ab\nxQ=+/0f%&\\\r")
            }
        })
        .collect()
}

/// Inserts `\n` or `\r\n` at random places of `blob` (never none when the
/// blob has at least two bytes).
pub fn wrap(rng: &mut Rng, blob: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let crlf = rng.chance(1, 2);
    let width = rng.range(1, 8);
    let mut wrapped = false;
    for (i, &b) in blob.iter().enumerate() {
        if i > 0 && (i.is_multiple_of(width) || rng.chance(1, 10)) {
            if crlf {
                out.push(b'\r');
            }
            out.push(b'\n');
            wrapped = true;
        }
        out.push(b);
    }
    if !wrapped && blob.len() > 1 {
        out.insert(1, b'\n');
    }
    out
}

/// One real encoding of `v`, as a caller might print it.
pub fn encoding(rng: &mut Rng, v: &[u8]) -> Vec<u8> {
    use crate::reference as r;
    let surround = |rng: &mut Rng| -> (Vec<u8>, Vec<u8>) {
        let pre = (0..rng.below(4)).map(|_| rng.next_u64() as u8).collect();
        let post = (0..rng.below(4)).map(|_| rng.next_u64() as u8).collect();
        (pre, post)
    };
    match rng.below(11) {
        0 => v.to_vec(),
        1 => r::crlf_variant(v).unwrap_or_else(|| v.to_vec()),
        2 => {
            let l = rng.range(v.len().min(10), v.len());
            let k = rng.below(v.len() - l + 1);
            v[k..k + l].to_vec()
        }
        3 => match std::str::from_utf8(v) {
            Ok(t) => r::json(t, *rng.pick(&['a', 'b', 'c', 'd'])),
            Err(_) => v.to_vec(),
        },
        4 => r::percent(v, *rng.pick(&['a', 'b', 'c', 'd']), rng.chance(1, 2)),
        5 => r::html(v, *rng.pick(&['a', 'b', 'c'])),
        6 => {
            let (pre, post) = surround(rng);
            let alphabet = if rng.chance(1, 2) { r::STD } else { r::URL };
            r::base64(
                &[&pre[..], v, &post[..]].concat(),
                alphabet,
                rng.chance(1, 2),
            )
        }
        7 => {
            let (pre, post) = surround(rng);
            r::hex(&[&pre[..], v, &post[..]].concat(), rng.chance(1, 2))
        }
        8 => {
            let blob = if rng.chance(1, 2) {
                let (pre, post) = surround(rng);
                r::base64(&[&pre[..], v, &post[..]].concat(), r::STD, true)
            } else {
                r::hex(v, rng.chance(1, 2))
            };
            wrap(rng, &blob)
        }
        9 => {
            let pats = r::patterns_of(v);
            pats[rng.below(pats.len())].bytes.clone()
        }
        _ => {
            let full = encoding(rng, v);
            full[..rng.below(full.len() + 1)].to_vec()
        }
    }
}

/// An input of noise and real encodings of the values, up to a few hundred
/// bytes.
pub fn random_input(rng: &mut Rng, secrets: &[RefSecret], shape: Shape) -> Vec<u8> {
    let mut input = Vec::new();
    for _ in 0..rng.range(0, shape.pieces) {
        if secrets.is_empty() || rng.chance(1, 3) {
            let len = rng.range(0, 10);
            input.extend(noise(rng, secrets, len));
        } else {
            let v = rng.pick(secrets).value.clone();
            let piece = encoding(rng, &v);
            input.extend_from_slice(&piece);
            if rng.chance(1, 6) {
                input.extend_from_slice(&piece);
            }
        }
    }
    input
}

/// A random script: the input cut into chunks (some empty), `idle` mixed in
/// when `with_idle`, then `end`.
pub fn random_ops(rng: &mut Rng, input: &[u8], with_idle: bool) -> Vec<Op> {
    let mut ops = Vec::new();
    let mut pos = 0;
    let max = *rng.pick(&[1usize, 3, 8, 24, 64]);
    while pos < input.len() {
        let len = rng.range(0, max).min(input.len() - pos);
        ops.push(Op::Push(input[pos..pos + len].to_vec()));
        pos += len;
        if with_idle && rng.chance(1, 3) {
            ops.push(Op::Idle);
            if rng.chance(1, 4) {
                ops.push(Op::Idle);
            }
        }
    }
    ops.push(Op::End);
    ops
}
