//! Every compile error of SPEC §1, with its limits, and what compiles.

mod common;
mod reference;

use common::*;
use slicc_scrub::{
    CompileError, FRAGMENT, Form, MAX_NAME, MAX_PLACEHOLDER, MAX_TOTAL_VALUES, MAX_VALUE,
    MIN_VALUE, Options, RULES_VERSION, Secret, compile,
};

const VALUE: &str = "VALUE-zq81-kx0p";
const OTHER: &str = "OTHERVAL-u7y2-mm3w";
const PH: &str = "PLACEHOLDER-w4w4";

fn opts() -> Options {
    Options::new(RULES_VERSION)
}

fn err(secrets: &[Secret]) -> CompileError {
    match compile(secrets, &opts()) {
        Ok(_) => panic!("compile should fail: {secrets:?}"),
        Err(e) => e,
    }
}

/// The message names the secret by index, and by name unless the name holds
/// something no message may show (SPEC §1); neither it nor `Debug` shows a
/// value, a 16-byte piece of a value, any other pattern of a value, or a
/// placeholder of any of `secrets`.
fn check_message(e: &CompileError, secrets: &[Secret], index: usize) {
    let msg = e.to_string();
    let debug = format!("{e:?}");
    let numbers: Vec<&str> = msg
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .collect();
    assert!(
        numbers.contains(&index.to_string().as_str()),
        "message does not give index {index}: {msg}"
    );
    // Everything no message may show, by the reference's patterns.
    let mut secret_bytes: Vec<Vec<u8>> = Vec::new();
    for s in secrets {
        let value = reference::trim_line_breaks(&s.value);
        if !value.is_empty() {
            secret_bytes.push(value.to_vec());
        }
        if (MIN_VALUE..=1024).contains(&value.len()) {
            secret_bytes.extend(reference::patterns_of(value).into_iter().map(|p| p.bytes));
        } else if value.len() > 1024 {
            // (the reference's dedupe is quadratic) every other pattern of a
            // long value is longer than any message
            secret_bytes.extend(value.windows(FRAGMENT).map(<[u8]>::to_vec));
        }
        if let Some(p) = s.placeholder.as_ref().filter(|p| !p.is_empty()) {
            secret_bytes.push(p.clone());
        }
    }
    let shows_secret = |text: &[u8]| secret_bytes.iter().any(|b| contains(text, b));
    let name = &secrets[index].name;
    if !name.is_empty() && !shows_secret(name.as_bytes()) {
        // shown as is, or escaped (an invalid name may hold any bytes)
        assert!(
            msg.contains(name.as_str()) || msg.contains(&format!("{name:?}")),
            "message lacks name {name:?}: {msg}"
        );
    }
    for text in [&msg, &debug] {
        assert!(
            !shows_secret(text.as_bytes()),
            "message shows a value, a pattern or a placeholder: {text}"
        );
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn unsupported_version() {
    // Version 3 (the rules before trimming) is refused like any other.
    for version in [0, 1, 2, 3, 5, 99, u32::MAX] {
        let secrets = [Secret::new("A", VALUE)];
        let e = compile(&secrets, &Options::new(version)).unwrap_err();
        assert_eq!(e, CompileError::UnsupportedVersion { version });
        // SPEC §1 gives the message whole.
        assert_eq!(
            e.to_string(),
            format!("unsupported rules version {version}")
        );
        // also with no secrets at all
        let e = compile(&[], &Options::new(version)).unwrap_err();
        assert_eq!(e, CompileError::UnsupportedVersion { version });
    }
    assert_eq!(RULES_VERSION, 4);
    assert!(compile(&[], &Options::new(4)).is_ok());
}

#[test]
fn invalid_names() {
    let long = "n".repeat(MAX_NAME + 1);
    for bad in [
        "", &long, "a b", "a/b", "é", "a\n", "[x]", "a:b", "a\"b", "a\0", "tab\t", "x+y", "k=v",
    ] {
        let secrets = [Secret::new("ok", OTHER), Secret::new(bad, VALUE)];
        let e = err(&secrets);
        match &e {
            CompileError::InvalidName { index, name } => {
                assert_eq!(*index, 1, "{bad:?}");
                assert_eq!(name.as_deref(), Some(bad));
            }
            _ => panic!("{bad:?}: {e:?}"),
        }
        check_message(&e, &secrets, 1);
    }
}

/// An invalid name of 255 bytes or more is checked against every
/// placeholder up to its length, through an automaton of them whose longest
/// string may be 255 bytes: one of exactly 255 panicked there (an overflow,
/// where overflows are checked), as the fuzzer found. The name is shown by
/// index alone where it holds the placeholder, and as is where not.
#[test]
fn a_long_name_is_checked_against_a_placeholder_of_255_bytes() {
    let placeholder: String = (0..255)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    for bad in [format!("{placeholder}!"), "n".repeat(300)] {
        let secrets = [
            Secret::new("ok", OTHER).with_placeholder(placeholder.clone()),
            Secret::new(bad.clone(), VALUE),
        ];
        let e = err(&secrets);
        match &e {
            CompileError::InvalidName { index, name } => {
                assert_eq!(*index, 1);
                let holds = bad.contains(&placeholder);
                assert_eq!(name.is_none(), holds, "{e}");
            }
            _ => panic!("{e:?}"),
        }
        check_message(&e, &secrets, 1);
    }
}

#[test]
fn valid_names() {
    let longest = "N".repeat(MAX_NAME);
    for good in ["a", "A-Z_a.z-0_9", longest.as_str(), "...", "-", "_", "0"] {
        let s = compile(&[Secret::new(good, VALUE)], &opts())
            .unwrap_or_else(|e| panic!("{good:?}: {e}"));
        let out = s.text(&format!("x {VALUE} y"));
        assert_eq!(out.text, format!("x [redacted:{good}] y"));
        assert_eq!(out.hits[0].name, good);
    }
}

#[test]
fn duplicate_name() {
    let secrets = [
        Secret::new("A", VALUE),
        Secret::new("B", OTHER),
        Secret::new("A", "third-value-77"),
    ];
    let e = err(&secrets);
    assert_eq!(
        e,
        CompileError::DuplicateName {
            index: 2,
            name: Some("A".into()),
            first: 0
        }
    );
    check_message(&e, &secrets, 2);
    // names are case-sensitive
    assert!(compile(&[Secret::new("a", VALUE), Secret::new("A", OTHER)], &opts()).is_ok());
}

#[test]
fn value_length_limits() {
    assert_eq!(MIN_VALUE, 8);
    assert_eq!(MAX_VALUE, 65_536);
    let short = Secret::new("S", "1234567");
    let secrets = [Secret::new("A", VALUE), short];
    let e = err(&secrets);
    assert_eq!(
        e,
        CompileError::ValueTooShort {
            index: 1,
            name: Some("S".into()),
            len: 7
        }
    );
    check_message(&e, &secrets, 1);
    for len in 0..MIN_VALUE {
        let e = err(&[Secret::new("S", vec![b'v'; len])]);
        assert!(
            matches!(e, CompileError::ValueTooShort { index: 0, .. }),
            "{len}"
        );
    }
    let s = compile(&[Secret::new("S", "12345678")], &opts()).unwrap();
    assert_eq!(s.text("a12345678b").text, "a[redacted:S]b");

    // a long value (period 26, so compiling stays quick in debug builds)
    let big: Vec<u8> = (0..MAX_VALUE + 1)
        .map(|i| b"QWERTYUIOPASDFGHJKLZXCVBNM"[i % 26])
        .collect();
    let secrets = [Secret::new("BIG", big.clone())];
    let e = err(&secrets);
    assert_eq!(
        e,
        CompileError::ValueTooLong {
            index: 0,
            name: Some("BIG".into()),
            len: MAX_VALUE + 1
        }
    );
    check_message(&e, &secrets, 0);

    let max = &big[..MAX_VALUE];
    let s = compile(&[Secret::new("BIG", max.to_vec())], &opts()).unwrap();
    let whole = [b"<<".as_slice(), max, b">>"].concat();
    let out = s.bytes(&whole);
    assert_eq!(out.output, b"<<[redacted:BIG]>>");
    assert_eq!(out.hits[0].form, Form::Raw);
    let frag = [b"<<".as_slice(), &max[1000..1040], b">>"].concat();
    let out = s.bytes(&frag);
    assert_eq!(out.output, b"<<[redacted:BIG]>>");
    assert_eq!(out.hits[0].form, Form::Fragment);
    let end = [b"<<".as_slice(), &max[MAX_VALUE - 20..]].concat();
    assert_eq!(s.bytes(&end).output, b"<<[redacted:BIG]");
}

#[test]
fn secrets_past_the_total_of_values_are_too_large() {
    // 16,384 values of 64 KiB are the 1 GiB allowed; the next is too many,
    // refused before anything is built of them.
    let count = MAX_TOTAL_VALUES / MAX_VALUE + 1;
    let value = vec![b'v'; MAX_VALUE];
    let mut secrets: Vec<Secret> = (0..count)
        .map(|i| Secret::new(format!("S{i}"), value.clone()))
        .collect();
    let last = count - 1;
    let e = err(&secrets);
    assert_eq!(
        e,
        CompileError::TooLarge {
            index: last,
            name: Some(format!("S{last}")),
        }
    );
    assert_eq!(e.index(), Some(last));
    let message = e.to_string();
    assert!(
        message.starts_with(&format!("secret {last} (\"S{last}\"): ")),
        "{message}"
    );
    assert!(!message.contains("vvvvvvvv") && !format!("{e:?}").contains("vvvvvvvv"));
    // The secret's own faults come first (as the C ABI reports them),
    // and a fault of an earlier secret.
    let oversized = vec![b'p'; MAX_PLACEHOLDER + 1];
    secrets[last] = Secret::new(format!("S{last}"), value.clone()).with_placeholder(oversized);
    assert!(
        matches!(err(&secrets), CompileError::PlaceholderTooLong { index, .. } if index == last)
    );
    secrets[1] = Secret::new("S1", "short");
    assert!(matches!(
        err(&secrets),
        CompileError::ValueTooShort { index: 1, .. }
    ));
}

#[test]
fn placeholder_length_limit() {
    assert_eq!(MAX_PLACEHOLDER, 1024);
    let mut too_long = PH.repeat(MAX_PLACEHOLDER / PH.len() + 1);
    too_long.truncate(MAX_PLACEHOLDER + 1);
    let secrets = [Secret::new("A", VALUE).with_placeholder(too_long.clone())];
    let e = err(&secrets);
    assert_eq!(
        e,
        CompileError::PlaceholderTooLong {
            index: 0,
            name: Some("A".into()),
            len: MAX_PLACEHOLDER + 1
        }
    );
    check_message(&e, &secrets, 0);
    assert!(!e.to_string().contains(PH) && !format!("{e:?}").contains(PH));
    let longest = "p".repeat(MAX_PLACEHOLDER);
    let s = compile(
        &[Secret::new("A", VALUE).with_placeholder(longest.clone())],
        &opts(),
    )
    .unwrap();
    assert_eq!(s.text(VALUE).text, longest);
}

#[test]
fn empty_placeholder_is_none() {
    let s = compile(&[Secret::new("A", VALUE).with_placeholder("")], &opts()).unwrap();
    let out = s.text(&format!("[{VALUE}]"));
    assert_eq!(out.text, "[[redacted:A]]");
    assert_eq!(out.hits[0].form, Form::Raw);
}

#[test]
fn placeholder_containing_a_value() {
    let frag_source = "0123456789abcdefghijklmnop"; // 26 bytes
    let cases: Vec<(String, Form)> = vec![
        (format!("<{OTHER}>"), Form::Raw),
        (
            String::from_utf8(reference::base64(OTHER.as_bytes(), reference::STD, true)).unwrap(),
            Form::Base64,
        ),
        (
            String::from_utf8(reference::hex(OTHER.as_bytes(), false)).unwrap(),
            Form::Hex,
        ),
        (format!("x{}x", &frag_source[3..20]), Form::Fragment),
        (
            // wrapped across a line break
            {
                let b64 =
                    String::from_utf8(reference::base64(OTHER.as_bytes(), reference::STD, true))
                        .unwrap();
                format!("{}\r\n{}", &b64[..10], &b64[10..])
            },
            Form::Wrapped,
        ),
        (
            String::from_utf8(reference::percent(OTHER.as_bytes(), 'a', false)).unwrap() + "%",
            Form::Raw, // "-" is kept: the percent form equals the raw value
        ),
    ];
    for (placeholder, form) in cases {
        let other_value = if form == Form::Fragment {
            frag_source
        } else {
            OTHER
        };
        let secrets = [
            Secret::new("first", VALUE),
            Secret::new("other", other_value),
            Secret::new("leaky", "leaky-value-55").with_placeholder(placeholder.clone()),
        ];
        let e = err(&secrets);
        assert_eq!(
            e,
            CompileError::PlaceholderLeaks {
                index: 2,
                name: Some("leaky".into()),
                other: 1,
                other_name: Some("other".into()),
                form
            },
            "{placeholder}"
        );
        check_message(&e, &secrets, 2);
        assert!(e.to_string().contains("other"), "{e}");
    }
    // a placeholder with its own value
    let secrets = [Secret::new("self", VALUE).with_placeholder(format!("{VALUE}!"))];
    let e = err(&secrets);
    assert!(
        matches!(
            &e,
            CompileError::PlaceholderLeaks {
                index: 0,
                other: 0,
                form: Form::Raw,
                ..
            }
        ),
        "{e:?}"
    );
    check_message(&e, &secrets, 0);
    // a placeholder with only part of a value (no pattern) is fine
    let partial = &OTHER[..FRAGMENT - 1];
    assert!(
        compile(
            &[
                Secret::new("other", OTHER),
                Secret::new("ok", VALUE).with_placeholder(partial)
            ],
            &opts()
        )
        .is_ok()
    );
}

#[test]
fn redaction_text_containing_a_value() {
    // "[redacted:my.api-key.1234]" contains the value of secret 1: the
    // name holds it, so the name is not shown (SPEC §1)
    let secrets = [
        Secret::new("my.api-key.1234", VALUE),
        Secret::new("k", "api-key.1234"),
    ];
    let e = err(&secrets);
    assert_eq!(
        e,
        CompileError::RedactionLeaks {
            index: 0,
            name: None,
            other: 1,
            other_name: Some("k".into()),
            form: Form::Raw
        }
    );
    check_message(&e, &secrets, 0);
    // the hex of a value inside a name
    let secrets = [
        Secret::new("k.6162636465666768", VALUE),
        Secret::new("abc", "abcdefgh"),
    ];
    let e = err(&secrets);
    assert!(
        matches!(
            &e,
            CompileError::RedactionLeaks {
                index: 0,
                other: 1,
                form: Form::Hex,
                ..
            }
        ),
        "{e:?}"
    );
    check_message(&e, &secrets, 0);
    // its own value in its own redaction text
    let secrets = [Secret::new("abcdefgh", "redacted:abcdefgh")];
    let e = err(&secrets);
    // the value is a substring of "[redacted:abcdefgh]"
    assert!(
        matches!(
            e,
            CompileError::RedactionLeaks {
                index: 0,
                other: 0,
                ..
            }
        ),
        "{e:?}"
    );
    // a value made of every redaction's common text (whether the message
    // may spell it out: see redaction_leak_message_does_not_spell_the_value)
    let secrets = [Secret::new("A", OTHER), Secret::new("B", "[redacted:")];
    let e = err(&secrets);
    assert!(
        matches!(
            e,
            CompileError::RedactionLeaks {
                index: 0,
                other: 1,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn empty_secret_list_passes_everything_through() {
    let s = compile(&[], &opts()).unwrap();
    assert_eq!(s.len(), 0);
    assert!(s.is_empty());
    let mut rng = Rng::new(5);
    for _ in 0..50 {
        let input: Vec<u8> = (0..rng.below(300)).map(|_| rng.next_u64() as u8).collect();
        let out = s.bytes(&input);
        assert_eq!(out.output, input);
        assert!(out.hits.is_empty());
        let mut st = s.stream();
        let mut got = Vec::new();
        for chunk in input.chunks(7) {
            got.extend(st.push(chunk).unwrap());
            assert_eq!(st.held(), 0, "nothing can be held with no secrets");
        }
        got.extend(st.end().unwrap());
        assert_eq!(got, input);
    }
    assert_eq!(s.text("héllo [redacted:x]").text, "héllo [redacted:x]");
}

#[test]
fn shared_value_earlier_secret_wins() {
    let secrets = [
        Secret::new("first", VALUE).with_placeholder("<1>"),
        Secret::new("second", VALUE).with_placeholder("<2>"),
    ];
    let s = compile(&secrets, &opts()).unwrap();
    let b64 = String::from_utf8(reference::base64(VALUE.as_bytes(), reference::STD, true)).unwrap();
    let out = s.text(&format!("{VALUE} {b64}"));
    assert_eq!(out.text, "<1> [redacted:first]");
    assert_eq!(
        sorted_hits(&out.hits),
        [
            ("first".to_string(), "base64", 1),
            ("first".to_string(), "raw", 1)
        ]
    );
    // reversed order: the other one wins
    let secrets = [secrets[1].clone(), secrets[0].clone()];
    let s = compile(&secrets, &opts()).unwrap();
    assert_eq!(s.text(VALUE).text, "<2>");
}

#[test]
fn redaction_leak_message_does_not_spell_the_value() {
    // "[redacted:my]" contains the value "acted:my" of secret 1; the name
    // "my" does not, so a message that names the secret need not show it.
    let secrets = [Secret::new("my", VALUE), Secret::new("k", "acted:my")];
    let e = err(&secrets);
    assert!(
        matches!(
            e,
            CompileError::RedactionLeaks {
                index: 0,
                other: 1,
                ..
            }
        ),
        "{e:?}"
    );
    check_message(&e, &secrets, 0);
}

#[test]
fn a_name_holding_a_match_is_never_shown() {
    use common::names_with_matches::{NAMES, secrets_json};
    for (form, name, text) in NAMES {
        let secrets = slicc_scrub::secrets_from_json(secrets_json(name).as_bytes()).unwrap();
        let e = err(&secrets);
        assert!(
            matches!(
                &e,
                CompileError::RedactionLeaks {
                    index: 1,
                    name: None,
                    other: 0,
                    other_name: Some(other),
                    ..
                } if other == "DB_PASS"
            ),
            "{form}: {e:?}"
        );
        for shown in [e.to_string(), format!("{e:?}")] {
            assert!(!shown.contains(text), "{form}: {shown}");
        }
        assert!(e.to_string().starts_with("secret 1: "), "{form}: {e}");
        check_message(&e, &secrets, 1);
    }
    // The example, word for word.
    let secrets =
        slicc_scrub::secrets_from_json(secrets_json("hunter2hunter2").as_bytes()).unwrap();
    assert_eq!(
        err(&secrets).to_string(),
        "secret 1: its redaction text contains a raw match of secret 0 (\"DB_PASS\")"
    );
}

#[test]
fn every_error_hides_a_name_that_holds_a_match() {
    let value = "hunter2hunter2xyzw";
    let with = |second: Secret| [Secret::new("DB_PASS", value), second];
    // invalid name: the space makes it so; the value inside stays unshown
    let cases = [
        with(Secret::new(format!("{value} x"), "a-good-value-1")),
        with(Secret::new(value, "zq9x")),
        with(Secret::new(value, "a-good-value-1").with_placeholder(PH.repeat(100))),
        // a name that holds a placeholder of another secret
        [
            Secret::new("A", OTHER).with_placeholder("pl4ceholder"),
            Secret::new("x.pl4ceholder", "zq9x"),
        ],
        // a name that holds a value too short to compile
        [
            Secret::new("A", "pw"),
            Secret::new("my-pw", "a-good-value-1"),
        ],
    ];
    // A 16-byte window of a value that starts at a line break inside it is
    // never a candidate (SPEC §3), but it is bytes of the value: a name
    // that holds one is not shown, even when the name is longer than the
    // value (a fuzzer finding).
    let multi_line = "pp\r\nqrstuvwxyz0123";
    for secrets in [
        [
            Secret::new("DB_PASS", multi_line),
            Secret::new(
                "x\r\nqrstuvwxyz0123 and a name longer than the value",
                "a-good-value-1",
            ),
        ],
        // and one of a value too long to compile
        [
            Secret::new("bad name QQqrstuvwxyz0123", "a-good-value-1"),
            Secret::new("LONG", format!("{}qrstuvwxyz0123", "Q".repeat(MAX_VALUE))),
        ],
    ] {
        let e = err(&secrets);
        assert!(
            matches!(e, CompileError::InvalidName { name: None, .. }),
            "{e:?}"
        );
        for shown in [e.to_string(), format!("{e:?}")] {
            assert!(!shown.contains("qrstuvwxyz0123"), "{shown}");
        }
    }
    for secrets in cases {
        let e = err(&secrets);
        assert_eq!(
            e.index(),
            Some(if secrets[0].name == "A" && secrets[0].value == b"pw" {
                0
            } else {
                1
            }),
            "{e:?}"
        );
        check_message(&e, &secrets, e.index().unwrap());
        for shown in [e.to_string(), format!("{e:?}")] {
            assert!(!shown.contains(value), "{shown}");
            assert!(!shown.contains("pl4ceholder"), "{shown}");
        }
    }
}

#[test]
fn a_name_is_checked_against_many_and_long_placeholders() {
    // 300 secrets share one placeholder, and the next one's name (invalid:
    // the space) holds it: the check that hides the name meets the same
    // placeholder 300 times.
    let shared = "shared-placeholder-01";
    let mut many: Vec<Secret> = (0..300)
        .map(|i| {
            Secret::new(format!("S{i}"), format!("value-number-{i:04}")).with_placeholder(shared)
        })
        .collect();
    many.push(Secret::new(format!("x {shared}"), "a-good-value-1"));
    // A placeholder of 1,000 bytes inside a name of 1,010 (invalid: too
    // long), longer than the engine's automaton takes a pattern.
    let long = "p".repeat(999) + "q";
    let long_case = vec![
        Secret::new("A", "a-good-value-1").with_placeholder(long.clone()),
        Secret::new(format!("{long}-too-long"), "a-good-value-2"),
    ];
    for (secrets, index, hidden) in [(many, 300, shared.to_string()), (long_case, 1, long)] {
        let e = err(&secrets);
        assert!(
            matches!(e, CompileError::InvalidName { name: None, .. }),
            "{e:?}"
        );
        assert_eq!(e.index(), Some(index));
        for shown in [e.to_string(), format!("{e:?}")] {
            assert!(!shown.contains(&hidden), "{shown}");
        }
    }
}
