//! SPEC §1: no error message and no `Debug` output ever contains a value or a
//! placeholder — neither as text nor as a list of byte numbers, nor in hex or
//! base64.

mod common;
mod reference;

use slicc_scrub::{CompileError, Options, RULES_VERSION, Secret, compile, patterns};

const VALUE: &str = "SECRETVALUE-9f8e7d";
const VALUE2: &str = "ANOTHERSECRET-55x4w";
const PLACEHOLDER: &str = "PLACEHOLDER-1a2b3c";

/// Every way a secret could show up in text: as is, as Rust prints a byte
/// slice (`[83, 69, ...`), in hex and in base64.
fn forbidden(secret: &[u8]) -> Vec<String> {
    let mut list = vec![String::from_utf8_lossy(secret).into_owned()];
    let numbers: Vec<String> = secret[..8].iter().map(|b| b.to_string()).collect();
    list.push(numbers.join(", "));
    list.push(String::from_utf8(reference::hex(&secret[..8], false)).unwrap());
    list.push(String::from_utf8(reference::hex(&secret[..8], true)).unwrap());
    list.push(String::from_utf8(reference::base64(&secret[..9], reference::STD, false)).unwrap());
    list
}

fn assert_clean(what: &str, text: &str) {
    assert_clean_of(what, text, &[VALUE, VALUE2, PLACEHOLDER]);
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn assert_clean_of(what: &str, text: &str, secrets: &[&str]) {
    for &secret in secrets {
        for bad in forbidden(secret.as_bytes()) {
            assert!(
                !text.contains(&bad),
                "{what} shows {bad:?} (from {secret:?}): {text}"
            );
        }
    }
}

fn opts() -> Options {
    Options::new(RULES_VERSION)
}

#[test]
fn debug_of_secrets_scrubbers_streams_patterns_and_results() {
    let secrets = vec![
        Secret::new("ONE", VALUE).with_placeholder(PLACEHOLDER),
        Secret::new("TWO", VALUE2),
        Secret::new("THREE", "third-value-123").with_placeholder(""),
    ];
    for s in &secrets {
        assert_clean("Secret Debug", &format!("{s:?}"));
        assert_clean("Secret Debug (pretty)", &format!("{s:#?}"));
    }
    assert_clean("Vec<Secret> Debug", &format!("{secrets:?}"));
    for same_length in [false, true] {
        let options = opts().same_length(same_length);
        assert_clean("Options Debug", &format!("{options:?}"));
        let scrubber = compile(&secrets, &options).unwrap();
        assert_clean("Scrubber Debug", &format!("{scrubber:?} {scrubber:#?}"));
        let input = format!("a {VALUE} b {VALUE2} c");
        let scrubbed = scrubber.bytes(input.as_bytes());
        assert!(!scrubbed.hits.is_empty());
        // The output holds the placeholder by design (where not
        // same-length), never a value; its Debug shows neither.
        assert!(same_length || contains(&scrubbed.output, PLACEHOLDER.as_bytes()));
        assert_clean("Scrubbed Debug", &format!("{scrubbed:?} {scrubbed:#?}"));
        assert_clean("hits Debug", &format!("{:?}", scrubbed.hits));
        let text = scrubber.text(&input);
        assert!(same_length || text.text.contains(PLACEHOLDER));
        assert_clean("ScrubbedText Debug", &format!("{text:?} {text:#?}"));
        let mut stream = scrubber.stream();
        // hold a prefix of a value, then look at the stream
        let out = stream.push(&VALUE.as_bytes()[..15]).unwrap();
        assert!(out.is_empty() && stream.held() == 15);
        assert_clean("Stream Debug", &format!("{stream:?} {stream:#?}"));
        // and at the io adapters holding one, the writer's inner writer
        // holding the placeholder
        let mut writer = slicc_scrub::ScrubWriter::new(&scrubber, Vec::new());
        std::io::Write::write_all(&mut writer, input.as_bytes()).unwrap();
        std::io::Write::write_all(&mut writer, &VALUE.as_bytes()[..15]).unwrap();
        assert_clean("ScrubWriter Debug", &format!("{writer:?} {writer:#?}"));
        let mut reader = slicc_scrub::ScrubReader::new(&scrubber, input.as_bytes());
        let mut first = [0u8; 4];
        std::io::Read::read_exact(&mut reader, &mut first).unwrap();
        assert_clean("ScrubReader Debug", &format!("{reader:?} {reader:#?}"));
        stream.end().unwrap();
        let e = stream.push(b"x").unwrap_err();
        assert_clean("StreamError", &format!("{e} {e:?}"));
    }
    for value in [VALUE, VALUE2, PLACEHOLDER] {
        for p in patterns(value.as_bytes()) {
            assert_clean("Pattern Debug", &format!("{p:?} {p:#?}"));
        }
        assert_clean(
            "patterns Debug",
            &format!("{:?}", patterns(value.as_bytes())),
        );
    }
}

#[test]
fn every_compile_error_is_clean() {
    let good = || Secret::new("ONE", VALUE).with_placeholder(PLACEHOLDER);
    let long_value = VALUE.repeat(65_536 / VALUE.len() + 1);
    let long_placeholder = PLACEHOLDER.repeat(1024 / PLACEHOLDER.len() + 1);
    let cases: Vec<(Vec<Secret>, Options)> = vec![
        (vec![good()], Options::new(2)),
        (vec![good(), Secret::new("bad name", VALUE2)], opts()),
        (
            vec![
                good(),
                Secret::new("", VALUE2).with_placeholder(PLACEHOLDER),
            ],
            opts(),
        ),
        (vec![good(), Secret::new("ONE", VALUE2)], opts()),
        (
            vec![
                good(),
                Secret::new("SHORT", &VALUE2[..7]).with_placeholder(PLACEHOLDER),
            ],
            opts(),
        ),
        (vec![good(), Secret::new("LONG", long_value)], opts()),
        (
            vec![Secret::new("ONE", VALUE).with_placeholder(long_placeholder)],
            opts(),
        ),
        (
            vec![
                good(),
                Secret::new("TWO", VALUE2).with_placeholder(format!("<{VALUE}>")),
            ],
            opts(),
        ),
        (
            vec![
                Secret::new("TWO", VALUE2).with_placeholder(format!("{PLACEHOLDER}{VALUE2}")),
                good(),
            ],
            opts(),
        ),
        (
            // "[redacted:X-ANOTHERSE...]" holds a fragment of VALUE2's window
            vec![
                Secret::new("TWO", VALUE2),
                Secret::new("X-ANOTHERSECRET-55x4", "other-value-1234")
                    .with_placeholder(PLACEHOLDER),
            ],
            opts(),
        ),
    ];
    let mut seen = Vec::new();
    for (secrets, options) in cases {
        let e = compile(&secrets, &options).expect_err("must fail");
        seen.push(std::mem::discriminant(&e));
        let text = format!("{e} | {e:?} | {e:#?}");
        // A name is always shown; the last case's name holds part of VALUE2
        // by construction, so only check what is not in a name.
        if let CompileError::RedactionLeaks { .. } = e {
            assert!(
                !text.contains(VALUE2) && !text.contains(PLACEHOLDER),
                "{text}"
            );
            assert!(!text.contains(VALUE), "{text}");
        } else {
            assert_clean("CompileError", &text);
        }
    }
    seen.dedup();
    assert_eq!(seen.len(), 8, "every variant is covered");
}

#[test]
fn the_checker_catches_every_spelling() {
    for text in [
        format!("{:?}", VALUE.as_bytes()),
        format!("{:?}", PLACEHOLDER.as_bytes().to_vec()),
        String::from_utf8(reference::hex(VALUE2.as_bytes(), true)).unwrap(),
        String::from_utf8(reference::base64(VALUE.as_bytes(), reference::STD, true)).unwrap(),
        format!("x{VALUE2}x"),
    ] {
        let caught = std::panic::catch_unwind(|| assert_clean("self-check", &text)).is_err();
        assert!(caught, "not caught: {text}");
    }
}

/// A name may hold a placeholder and still compile (placeholders are never
/// matched), and a secret on its own cannot tell that its name holds another
/// secret's value: neither `Debug` shows a name (a fuzz finding: the
/// scrubber's `Debug` listed a name holding its own placeholder).
#[test]
fn debug_never_shows_a_name_that_holds_a_placeholder_or_a_value() {
    let secrets = vec![
        Secret::new(format!("X{PLACEHOLDER}"), VALUE).with_placeholder(PLACEHOLDER),
        Secret::new("TWO", VALUE2),
    ];
    let scrubber = compile(&secrets, &opts()).unwrap();
    assert_clean("Scrubber Debug", &format!("{scrubber:?} {scrubber:#?}"));
    assert!(format!("{scrubber:?}").contains("secrets: 2"));
    // Its hit carries that name (the caller's to show), and its Debug
    // does not.
    let scrubbed = scrubber.bytes(format!("a {VALUE} b").as_bytes());
    assert_eq!(scrubbed.hits[0].name, format!("X{PLACEHOLDER}"));
    let hit = &scrubbed.hits[0];
    assert_clean("Hit Debug", &format!("{hit:?} {hit:#?} {scrubbed:?}"));
    let mut stream = scrubber.stream();
    stream.push(format!("a {VALUE} b").as_bytes()).unwrap();
    stream.end().unwrap();
    assert_clean("Stream hits Debug", &format!("{:?}", stream.hits()));
    // Two secrets whose names are each other's value: each Secret's Debug
    // is clean, though the compile would refuse them.
    let crossed = vec![Secret::new(VALUE2, VALUE), Secret::new(VALUE, VALUE2)];
    for s in &crossed {
        assert_clean("Secret Debug", &format!("{s:?} {s:#?}"));
    }
    assert_clean("Vec<Secret> Debug", &format!("{crossed:?}"));
    assert!(compile(&crossed, &opts()).is_err());
}
