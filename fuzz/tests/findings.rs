//! The fuzzer's findings in the library, each as a plain test (the same
//! inputs are in `corpus/compile/finding-*`). See FINDINGS.md.

use slicc_scrub::secrets_from_json;

/// The message of the error that `json` is rejected with, `Display` and
/// `Debug`.
fn messages(json: &[u8]) -> [String; 2] {
    let e = secrets_from_json(json).unwrap_err();
    [e.to_string(), format!("{e:?}")]
}

/// SPEC §1: no message contains a value. An unknown field's key is echoed
/// as it is, and here it is the secret's value.
#[test]
fn an_unknown_key_that_is_a_value_is_not_shown() {
    for m in messages(br#"[{"hp_R/3cW":"","value":"hp_R/3cW"}]"#) {
        assert!(!m.contains("hp_R/3cW"), "{m}");
    }
}

/// SPEC §1: a message names a secret by index alone where its name holds a
/// match. Secret 0 has no value, and its name is secret 1's value.
#[test]
fn a_name_that_is_another_value_is_not_shown() {
    for m in messages(br#"[{"name":"R/9x2Kq9"},{"value":"R/9x2Kq9"}]"#) {
        assert!(!m.contains("R/9x2Kq9"), "{m}");
    }
}

/// `patterns` took a value too short for a base64 character of its own
/// (empty, or empty once trimmed) and panicked on a slice range.
#[test]
fn patterns_of_an_empty_value_do_not_panic() {
    for value in [&b""[..], b"\r\n", b"\n"] {
        let raw = slicc_scrub::patterns(value).into_iter().next();
        assert!(raw.is_none_or(|p| p.bytes.is_empty()));
    }
}
