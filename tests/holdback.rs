//! SPEC §4 hold-back: after every push, `held()` and the output so far are
//! exactly what the reference says (minimal: no more, no less), at every
//! split of tricky inputs and one byte at a time; and the memory bound.
//! Each scenario also has a few hand-computed steps, so the reference itself
//! is checked against the spec by hand.

mod common;
mod reference;

use common::*;
use reference::{RefSecret, RefStream, Reference};
use slicc_scrub::{Scrubber, Stream};

struct Scenario {
    name: &'static str,
    secrets: Vec<RefSecret>,
    same_length: bool,
    input: Vec<u8>,
    /// Hand-computed `bytes(input)`, as `show()` writes it.
    whole: &'static str,
    /// Hand-computed: (op, expected output of the op, expected held after).
    steps: Vec<(Op, &'static [u8], usize)>,
}

fn s(name: &str, value: &[u8]) -> RefSecret {
    ref_secret(name, value, None)
}

fn push(bytes: &[u8]) -> Op {
    Op::Push(bytes.to_vec())
}

const V32: &[u8] = b"0123456789abcdefghijklmnopqrstuv";

fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "prefix of a pattern at the end",
            whole: "token: fnox_proxy_1\\n",
            secrets: vec![ref_secret(
                "GH",
                b"ghp_abcdefgh12345678",
                Some(b"fnox_proxy_1"),
            )],
            same_length: false,
            input: b"token: ghp_abcdefgh12345678\n".to_vec(),
            steps: vec![
                (push(b"token: ghp_abc"), b"token: ", 7),
                (push(b"defgh12345678"), b"fnox_proxy_1", 0),
                (push(b"\n"), b"\n", 0),
                (Op::End, b"", 0),
            ],
        },
        Scenario {
            name: "growing fragment, idle at 16 held",
            whole: "xx[redacted:F]!!",
            secrets: vec![s("F", V32)],
            same_length: false,
            input: [b"xx", &V32[5..25], b"!!"].concat(),
            steps: vec![
                (push(&[b"xx", &V32[5..21]].concat()), b"xx", 16),
                (Op::Idle, b"", 16),
                (push(&V32[21..25]), b"", 20),
                (Op::Idle, b"", 20),
                (push(b"!"), b"[redacted:F]!", 0),
                (push(b"!"), b"!", 0),
                (Op::End, b"", 0),
            ],
        },
        Scenario {
            name: "idle under 16 held flushes and restarts",
            whole: "..[redacted:F]",
            secrets: vec![s("F", V32)],
            same_length: false,
            input: [b"..", V32].concat(),
            steps: vec![
                (push(&[b"..", &V32[..10]].concat()), b"..", 10),
                (Op::Idle, b"0123456789", 0),
                // afresh: the rest is a fragment (window @10 to the end)
                (push(&V32[10..]), b"[redacted:F]", 0),
                (Op::End, b"", 0),
            ],
        },
        Scenario {
            name: "fragment at the end of the value is decided at once",
            whole: "[redacted:F]?",
            secrets: vec![s("F", V32)],
            same_length: false,
            input: [&V32[10..], b"?"].concat(),
            steps: vec![
                (push(&V32[10..]), b"[redacted:F]", 0),
                (push(b"?"), b"?", 0),
                (Op::End, b"", 0),
            ],
        },
        Scenario {
            name: "wrapped base64 prefix across CR LF",
            whole: "data: [redacted:B]\\r\\nend",
            secrets: vec![s("B", b"ghp_abcdefgh")],
            same_length: false,
            input: b"data: Z2hwX2Fi\r\nY2RlZmdo\r\nend".to_vec(),
            steps: vec![
                (push(b"data: Z2hwX2Fi\r\n"), b"data: ", 10),
                // "d" could start the shift-1 core "docF9hYmNkZWZna"
                (push(b"Y2RlZmdo\r\nend"), b"[redacted:B]\r\nen", 1),
                (Op::End, b"d", 0),
            ],
        },
        Scenario {
            name: "wrapped base64 with sameLength keeps CR LF",
            whole: "data: ********\\r\\n********\\r\\nend",
            secrets: vec![s("B", b"ghp_abcdefgh")],
            same_length: true,
            input: b"data: Z2hwX2Fi\r\nY2RlZmdo\r\nend".to_vec(),
            steps: vec![
                (push(b"data: Z2hwX2Fi\r"), b"data: ", 9),
                // "n" could start the shift-2 core "naHBfYWJjZGVmZ2", "d" the
                // shift-1 core
                (push(b"\nY2RlZmdo\r\nen"), b"********\r\n********\r\ne", 1),
                (push(b"d"), b"n", 1),
                (Op::End, b"d", 0),
            ],
        },
        Scenario {
            name: "wrapped hex dump, sameLength",
            whole: "**************\\n**********\\n",
            secrets: vec![s("H", b"secretvalue!")],
            same_length: true,
            input: b"73656372657476\n616c756521\n".to_vec(),
            steps: vec![
                (push(b"73656372657476\n616c7565"), b"", 23),
                (push(b"21\n"), b"**************\n**********\n", 0),
                (Op::End, b"", 0),
            ],
        },
        Scenario {
            name: "complete candidate that could still grow",
            whole: "[redacted:S]ijX",
            secrets: vec![s("S", b"abcdefgh"), s("L", b"abcdefghijkl")],
            same_length: false,
            input: b"abcdefghijX".to_vec(),
            steps: vec![
                (push(b"abcdefgh"), b"", 8),
                (push(b"ij"), b"", 10),
                (push(b"X"), b"[redacted:S]ijX", 0),
                (Op::End, b"", 0),
            ],
        },
        Scenario {
            name: "base64 core complete, the tail could still come",
            whole: "[redacted:N]",
            secrets: vec![s("N", b"ghp_abcdefgh1")],
            same_length: false,
            input: b"Z2hwX2FiY2RlZmdoMQ==".to_vec(),
            steps: vec![
                (push(b"Z2hwX2FiY2RlZmdoM"), b"", 17),
                (push(b"Q"), b"", 18),
                (push(b"="), b"", 19),
                (push(b"="), b"[redacted:N]", 0),
                (Op::End, b"", 0),
            ],
        },
        Scenario {
            name: "base64 core complete, then decided",
            whole: "[redacted:N]x",
            secrets: vec![s("N", b"ghp_abcdefgh1")],
            same_length: false,
            input: b"Z2hwX2FiY2RlZmdoMx".to_vec(),
            steps: vec![
                (push(b"Z2hwX2FiY2RlZmdoM"), b"", 17),
                (push(b"x"), b"[redacted:N]x", 0),
                (Op::End, b"", 0),
            ],
        },
        Scenario {
            name: "pending start inside an already decided match",
            whole: "[redacted:A]345678",
            secrets: vec![s("A", b"abcdefgh12"), s("B", b"12345678")],
            same_length: false,
            input: b"abcdefgh12345678".to_vec(),
            steps: vec![
                (push(b"abcdefgh12"), b"[redacted:A]", 0),
                (push(b"345678"), b"345678", 0),
                (Op::End, b"", 0),
            ],
        },
        Scenario {
            name: "shared window extended along each value",
            whole: "[redacted:V2]!",
            secrets: vec![
                s("V1", b"0123456789ABCDEFxyz1"),
                s("V2", b"0123456789ABCDEFqrstuvw"),
            ],
            same_length: false,
            input: b"0123456789ABCDEFq!".to_vec(),
            steps: vec![
                (push(b"0123456789ABCDEF"), b"", 16),
                (push(b"q"), b"", 17),
                (push(b"!"), b"[redacted:V2]!", 0),
                (Op::End, b"", 0),
            ],
        },
        Scenario {
            // SPEC §1 (rules version 4): a value stored with a leading LF is
            // trimmed, so it is found after any line break.
            name: "value stored with a leading LF is trimmed",
            whole: "x\\n[redacted:N] y\\r\\n[redacted:N]",
            secrets: vec![s("N", b"\nBEGIN-KEY")],
            same_length: false,
            input: b"x\nBEGIN-KEY y\r\nBEGIN-KEY".to_vec(),
            steps: vec![],
        },
        Scenario {
            name: "repetitive value: fragments at many offsets",
            whole: "x*******************abababababay",
            secrets: vec![s("R", b"abababababababababab")],
            same_length: true,
            input: b"xbababababababababababababababay".to_vec(),
            steps: vec![],
        },
        Scenario {
            name: "JSON, percent and HTML forms split anywhere",
            whole: "{\"a\":\"[redacted:Q]\",\"b\":\"[redacted:Q]\"} ?q=[redacted:Q]&x=[redacted:Q] [redacted:T]",
            secrets: vec![
                ref_secret("Q", "p\"a/s<s> w&'é".as_bytes(), Some(b"<ph>")),
                s("T", b"tok-0123456789-xyz"),
            ],
            same_length: false,
            input: "{\"a\":\"p\\\"a/s\\u003cs\\u003e w\\u0026'é\",\"b\":\"p\\\"a\\/s<s> w&'\\u00e9\"} ?q=p%22a%2Fs%3Cs%3E+w%26%27%C3%A9&x=p&quot;a/s&lt;s&gt; w&amp;&#x27;é tok-0123456789-xy"
                .as_bytes()
                .to_vec(),
            steps: vec![],
        },
        Scenario {
            name: "two secrets, adjacent and overlapping encodings",
            whole: "[redacted:A]cccc[redacted:A][redacted:B]\\n[redacted:A]",
            secrets: vec![s("A", b"aaaabbbb"), s("B", b"bbbbcccc")],
            same_length: false,
            input: b"aaaabbbbccccYWFhYWJiYmI=YmJiYmNjY2M=\n6161616162626262".to_vec(),
            steps: vec![],
        },
    ]
}

/// Runs `ops` on the engine and the reference: output, held and hits agree
/// after every step, and held stays within the bound of §4.
fn run(scrubber: &Scrubber, r: &Reference, ops: &[Op], what: &dyn Fn() -> String) -> Vec<u8> {
    let longest = r.longest_pattern();
    let mut stream: Stream = scrubber.stream();
    let mut model = RefStream::new(r);
    let mut all = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let (got, want) = match op {
            Op::Push(c) => (stream.push(c).unwrap(), model.push(c)),
            Op::Idle => (stream.idle().unwrap(), model.idle()),
            Op::End => (stream.end().unwrap(), model.end()),
        };
        let at = || format!("step {i} of {}: {}", ops_text(ops), what());
        assert_eq!(show(&got), show(&want), "output, {}", at());
        assert_eq!(
            stream.held(),
            model.held(),
            "held (reference holds \"{}\"), {}",
            show(model.held_bytes()),
            at()
        );
        assert_eq!(stream.hits(), model.hits(), "hits, {}", at());
        let crlf = model
            .held_bytes()
            .iter()
            .filter(|&&b| b == b'\r' || b == b'\n')
            .count();
        assert!(
            stream.held() <= longest + crlf,
            "held {} > longest pattern {longest} + {crlf} CR/LF, {}",
            stream.held(),
            at()
        );
        all.extend(got);
    }
    all
}

#[test]
fn hand_computed_steps() {
    for sc in scenarios() {
        let (scrubber, r) = both(&sc.secrets, sc.same_length);
        let mut stream = scrubber.stream();
        let mut model = RefStream::new(&r);
        for (i, (op, out, held)) in sc.steps.iter().enumerate() {
            let (got, want) = match op {
                Op::Push(c) => (stream.push(c).unwrap(), model.push(c)),
                Op::Idle => (stream.idle().unwrap(), model.idle()),
                Op::End => (stream.end().unwrap(), model.end()),
            };
            let at = format!("{}: step {i} {op:?}", sc.name);
            assert_eq!(show(&want), show(out), "reference vs hand, {at}");
            assert_eq!(model.held(), *held, "reference held vs hand, {at}");
            assert_eq!(show(&got), show(out), "engine output, {at}");
            assert_eq!(stream.held(), *held, "engine held, {at}");
        }
    }
}

#[test]
fn every_split_matches_the_reference() {
    for sc in scenarios() {
        let (scrubber, r) = both(&sc.secrets, sc.same_length);
        let whole = scrubber.bytes(&sc.input);
        assert_eq!(
            show(&r.scrub(&sc.input).0),
            sc.whole,
            "{}: reference",
            sc.name
        );
        assert_eq!(show(&whole.output), sc.whole, "{}: bytes()", sc.name);
        for i in 0..=sc.input.len() {
            let ops = [
                Op::Push(sc.input[..i].to_vec()),
                Op::Push(sc.input[i..].to_vec()),
                Op::End,
            ];
            let out = run(&scrubber, &r, &ops, &|| sc.name.to_string());
            assert_eq!(show(&out), show(&whole.output), "{}: split at {i}", sc.name);
        }
    }
}

#[test]
fn every_split_then_idle_matches_the_reference() {
    for sc in scenarios() {
        let (scrubber, r) = both(&sc.secrets, sc.same_length);
        for i in 0..=sc.input.len() {
            let ops = [
                Op::Push(sc.input[..i].to_vec()),
                Op::Idle,
                Op::Push(sc.input[i..].to_vec()),
                Op::Idle,
                Op::End,
            ];
            run(&scrubber, &r, &ops, &|| sc.name.to_string());
        }
    }
}

#[test]
fn one_byte_at_a_time_matches_the_reference() {
    for sc in scenarios() {
        let (scrubber, r) = both(&sc.secrets, sc.same_length);
        let mut ops: Vec<Op> = sc.input.iter().map(|&b| Op::Push(vec![b])).collect();
        ops.push(Op::End);
        let out = run(&scrubber, &r, &ops, &|| sc.name.to_string());
        assert_eq!(out, scrubber.bytes(&sc.input).output, "{}", sc.name);
    }
}

#[test]
fn held_is_bounded_on_long_inputs() {
    // A long run that keeps every position pending as long as possible:
    // the repeated prefix of a value, a wrapped blob with many line breaks.
    let v = b"abababababababababababababababababababX".to_vec();
    let secrets = vec![s("R", &v)];
    let (scrubber, r) = both(&secrets, false);
    let longest = r.longest_pattern();
    let mut stream = scrubber.stream();
    for _ in 0..2000 {
        stream.push(b"ab").unwrap();
        assert!(stream.held() <= longest, "held {}", stream.held());
    }
    let wrapped = reference::base64(&v, reference::STD, true);
    let mut blob = Vec::new();
    for &b in &wrapped {
        blob.push(b);
        blob.extend_from_slice(b"\r\n\r\n");
    }
    let mut stream = scrubber.stream();
    let mut out = Vec::new();
    for &b in &blob {
        out.extend(stream.push(&[b]).unwrap());
        let model_crlf = 4 * wrapped.len();
        assert!(stream.held() <= longest + model_crlf);
    }
    out.extend(stream.end().unwrap());
    assert_eq!(out, scrubber.bytes(&blob).output);
    assert_eq!(out, r.scrub(&blob).0);
    assert!(String::from_utf8_lossy(&out).starts_with("[redacted:R]"));
}

/// SPEC §3: no candidate of any form starts at a CR or LF: a value stored
/// with a leading LF is trimmed (§1) and found after the line break, a
/// fragment window that starts with LF is not a candidate at the LF, and
/// nothing is held from a CR or LF. Line breaks inside a value still match.
#[test]
fn no_candidate_starts_at_cr_or_lf() {
    struct Case {
        value: &'static [u8],
        input: &'static [u8],
        whole: &'static str,
        /// a push of a prefix of `input`: (length, output, held)
        first: (usize, &'static str, usize),
    }
    let cases = [
        Case {
            value: b"\nBEGIN-KEY",
            // SPEC §1: trimmed to "BEGIN-KEY"; the LF before it is never
            // held, and "BEG" is held as a proper prefix.
            input: b"x\nBEGIN-KEY y\r\nBEGIN-KEY",
            whole: "x\\n[redacted:N] y\\r\\n[redacted:N]",
            first: (5, "x\\n", 3),
        },
        Case {
            value: b"line-one-abcdefgh\nline-two-ijklmnop",
            input: b"x\r\nline-two-ijklmnop",
            whole: "x\\r\\n[redacted:N]",
            first: (10, "x\\r\\n", 7),
        },
        Case {
            // A push long enough to be filtered, ending in a LF and then the
            // start of a window that follows a LF inside the value: the
            // stepper starts after the LF, so the automata have not seen it;
            // the LF is still never held.
            // (44 bytes before the LF: the filter samples the value gram
            // after it, and walks the run from before the LF to the end.)
            value: b"key-part-one\n\nsecond-line-xyz0",
            input: b"0123456789 the quick brown fox jumps over ..\nsecond-line-xyz0 end",
            whole: "0123456789 the quick brown fox jumps over ..\\n[redacted:N] end",
            first: (54, "0123456789 the quick brown fox jumps over ..\\n", 9),
        },
        Case {
            // inside a value, line breaks match (raw and the CR LF variant)
            value: b"abc\ndefgh",
            input: b"abc\ndefgh abc\r\ndefgh",
            whole: "[redacted:N] [redacted:N]",
            first: (13, "[redacted:N] ", 3),
        },
    ];
    for c in cases {
        let secrets = vec![s("N", c.value)];
        let (scrubber, r) = both(&secrets, false);
        let what = format!("value \"{}\", input \"{}\"", show(c.value), show(c.input));
        assert_eq!(show(&r.scrub(c.input).0), c.whole, "reference: {what}");
        let mut model = RefStream::new(&r);
        let (n, out, held) = c.first;
        assert_eq!(show(&model.push(&c.input[..n])), out, "reference: {what}");
        assert_eq!(model.held(), held, "reference: {what}");

        assert_eq!(
            show(&scrubber.bytes(c.input).output),
            c.whole,
            "bytes(): {what}"
        );
        let mut st = scrubber.stream();
        assert_eq!(show(&st.push(&c.input[..n]).unwrap()), out, "push: {what}");
        assert_eq!(st.held(), held, "held: {what}");
        let mut ops: Vec<Op> = c.input.iter().map(|&b| Op::Push(vec![b])).collect();
        ops.push(Op::End);
        run(&scrubber, &r, &ops, &|| what.clone());
    }
}

/// The reference stream keeps only the held bytes as state; that is enough
/// because they start at a position no decided match covers. Check it: after
/// every byte, what it emitted so far equals §3 selection run on the whole
/// prefix with the pending positions as a barrier, and what it holds is the
/// rest of the prefix.
#[test]
fn reference_stream_state_is_the_held_bytes() {
    for sc in scenarios() {
        let r = Reference::new(&sc.secrets, sc.same_length);
        let mut model = RefStream::new(&r);
        let mut emitted = Vec::new();
        for i in 1..=sc.input.len() {
            emitted.extend(model.push(&sc.input[i - 1..i]));
            let mut direct = Vec::new();
            let stop = r.run(&sc.input[..i], true, &mut direct, &mut Default::default());
            assert_eq!(show(&emitted), show(&direct), "{} at {i}", sc.name);
            assert_eq!(model.held_bytes(), &sc.input[stop..i], "{} at {i}", sc.name);
        }
    }
}
