//! `patterns()` against the reference's own pattern builder (SPEC §2), and
//! the spec's worked examples.

mod common;
mod reference;

use common::*;
use reference::{RefPattern, patterns_of, trim_line_breaks};
use slicc_scrub::{Form, patterns};

fn crate_list(v: &[u8]) -> Vec<RefPattern> {
    patterns(v)
        .into_iter()
        .map(|p| RefPattern {
            form: p.form,
            variant: p.variant.clone(),
            bytes: p.bytes.clone(),
        })
        .collect()
}

fn find(v: &[u8], form: Form, variant: &str) -> Option<Vec<u8>> {
    patterns(v)
        .into_iter()
        .find(|p| p.form == form && p.variant == variant)
        .map(|p| p.bytes.clone())
}

#[test]
fn random_values_match_the_reference_builder() {
    let mut rng = Rng::new(77);
    for case in 0..1500 {
        let v = random_value(&mut rng, 8, 60);
        // SPEC §1: the patterns are those of the trimmed value.
        let want = patterns_of(trim_line_breaks(&v));
        let got = crate_list(&v);
        assert_eq!(got, want, "case {case}, value \"{}\"", show(&v));
    }
}

#[test]
fn spec_base64_example() {
    let v = b"ghp_abcdefgh";
    let b = |variant: &str| find(v, Form::Base64, variant).map(|b| String::from_utf8(b).unwrap());
    // shift 0: core, padded tail and unpadded tail are one pattern
    assert_eq!(b("std/s0/core").as_deref(), Some("Z2hwX2FiY2RlZmdo"));
    assert_eq!(b("std/s0/tail-padded"), None, "deduped");
    assert_eq!(b("std/s1/core").as_deref(), Some("docF9hYmNkZWZna"));
    assert_eq!(
        b("std/s1/tail-padded").as_deref(),
        Some("docF9hYmNkZWZnaA==")
    );
    assert_eq!(
        b("std/s1/tail-unpadded").as_deref(),
        Some("docF9hYmNkZWZnaA")
    );
    assert_eq!(b("std/s2/core").as_deref(), Some("naHBfYWJjZGVmZ2"));
    assert_eq!(
        b("std/s2/tail-padded").as_deref(),
        Some("naHBfYWJjZGVmZ2g=")
    );
    assert_eq!(
        b("std/s2/tail-unpadded").as_deref(),
        Some("naHBfYWJjZGVmZ2g")
    );
    // no + or / in any of them: the URL-safe alphabet adds nothing
    assert!(patterns(v).iter().all(|p| !p.variant.starts_with("url/")));
}

#[test]
fn every_form_and_variant_of_a_rich_value() {
    let v = "a\"b\\c/d<e>f&g'h i\u{7f}j\u{e9}k\u{1F600}l\u{2028}m\n\t\u{1}~*!()".as_bytes();
    let s = |form: Form, variant: &str| {
        String::from_utf8(find(v, form, variant).unwrap_or_else(|| panic!("{form} {variant}")))
            .unwrap()
    };
    assert_eq!(s(Form::Raw, "lf").as_bytes(), v);
    assert!(s(Form::Raw, "crlf").contains("m\r\n\t"));
    assert_eq!(
        s(Form::Json, "a"),
        "a\\\"b\\\\c/d<e>f&g'h i\u{7f}j\u{e9}k\u{1F600}l\u{2028}m\\n\\t\\u0001~*!()"
    );
    assert_eq!(
        s(Form::Json, "b"),
        "a\\\"b\\\\c/d<e>f&g'h i\\u007fj\\u00e9k\\ud83d\\ude00l\\u2028m\\n\\t\\u0001~*!()"
    );
    assert_eq!(
        s(Form::Json, "c"),
        "a\\\"b\\\\c/d\\u003ce\\u003ef\\u0026g'h i\u{7f}j\u{e9}k\u{1F600}l\\u2028m\\n\\t\\u0001~*!()"
    );
    assert_eq!(
        s(Form::Json, "d"),
        "a\\\"b\\\\c\\/d<e>f&g'h i\u{7f}j\\u00e9k\\ud83d\\ude00l\\u2028m\\n\\t\\u0001~*!()"
    );
    assert!(s(Form::Percent, "a-upper").ends_with("%09%01~*!()"));
    assert!(s(Form::Percent, "a-upper").contains("h%20i%7Fj%C3%A9k%F0%9F%98%80"));
    assert!(s(Form::Percent, "b-upper").ends_with("%01~%2A%21%28%29"));
    assert!(s(Form::Percent, "c-upper").contains("h+i%7F"));
    assert!(s(Form::Percent, "d-upper").ends_with("%01%7E*%21%28%29"));
    assert!(s(Form::Percent, "d-lower").contains("h+i%7fj%c3%a9"));
    assert!(s(Form::Html, "a").starts_with("a&quot;b\\c/d&lt;e&gt;f&amp;g&#39;h"));
    assert!(s(Form::Html, "b").starts_with("a&quot;b\\c/d&lt;e&gt;f&amp;g&#x27;h"));
    assert!(s(Form::Html, "c").starts_with("a&#34;b\\c/d&lt;e&gt;f&amp;g&#39;h"));
    assert_eq!(
        s(Form::Hex, "lower"),
        reference::hex(v, false).escape_ascii().to_string()
    );
    assert_eq!(
        s(Form::Hex, "upper"),
        reference::hex(v, true).escape_ascii().to_string()
    );
    assert_eq!(crate_list(v), patterns_of(v));
}

#[test]
fn fragments_listed_once_per_distinct_window() {
    // 20 bytes, period 4: windows @0..@3 are distinct, @4 repeats @0.
    let v = b"abcdabcdabcdabcdabcd";
    let windows: Vec<String> = patterns(v)
        .into_iter()
        .filter(|p| p.form == Form::Fragment)
        .map(|p| {
            format!(
                "{} {}",
                p.variant,
                String::from_utf8(p.bytes.clone()).unwrap()
            )
        })
        .collect();
    assert_eq!(
        windows,
        [
            "@0 abcdabcdabcdabcd",
            "@1 bcdabcdabcdabcda",
            "@2 cdabcdabcdabcdab",
            "@3 dabcdabcdabcdabc"
        ]
    );
    // exactly 16 bytes: no fragments (a window would be the whole value)
    assert!(
        patterns(b"0123456789abcdef")
            .iter()
            .all(|p| p.form != Form::Fragment)
    );
    assert_eq!(
        patterns(b"0123456789abcdefg")
            .iter()
            .filter(|p| p.form == Form::Fragment)
            .count(),
        2
    );
}

#[test]
fn plain_values_dedupe_to_raw_and_encodings() {
    // alphanumeric: json, percent and html all equal the raw value
    let forms: Vec<Form> = patterns(b"abcdEFGH1234").iter().map(|p| p.form).collect();
    assert!(!forms.contains(&Form::Json));
    assert!(!forms.contains(&Form::Percent));
    assert!(!forms.contains(&Form::Html));
    assert_eq!(forms[0], Form::Raw);
    // digits only: hex upper equals hex lower
    let hex: Vec<String> = patterns(b"12345678")
        .into_iter()
        .filter(|p| p.form == Form::Hex)
        .map(|p| p.variant.clone())
        .collect();
    assert_eq!(hex, ["lower"]);
    // no line break: no crlf variant; CR LF already: none either
    assert!(
        patterns(b"abc\r\ndefgh")
            .iter()
            .all(|p| p.variant != "crlf")
    );
    // the line breaks at both ends are trimmed first (SPEC §1)
    assert_eq!(
        find(b"\nabc\nde\r\nf\n", Form::Raw, "crlf").unwrap(),
        b"abc\r\nde\r\nf"
    );
    assert!(
        patterns(b"\nabc\r\nde\n")
            .iter()
            .all(|p| p.variant != "crlf")
    );
    assert_eq!(
        find(b"\r\nabcdefgh\n", Form::Raw, "lf").unwrap(),
        b"abcdefgh"
    );
}

#[test]
fn no_json_for_values_that_are_not_utf8() {
    let v = [0xffu8, 0xfe, b'a', b'"', 0x80, 0x81, 0x82, 0x83, b'<'];
    let list = patterns(&v);
    assert!(list.iter().all(|p| p.form != Form::Json));
    assert!(list.iter().any(|p| p.form == Form::Html));
    assert_eq!(crate_list(&v), patterns_of(&v));
}

/// `patterns` takes any value, even one compile refuses (found by the
/// fuzzer: an empty value made a base64 slice panic).
#[test]
fn patterns_of_any_value_do_not_panic() {
    for value in [&b""[..], b"\r\n", b"\n\n\n", b"a", b"\nab\n", b"abc"] {
        let list = slicc_scrub::patterns(value);
        assert_eq!(list[0].bytes, slicc_scrub::trim_line_breaks(value));
    }
}
