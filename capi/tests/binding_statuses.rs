//! The bindings that spell the status codes out (Swift, Kotlin, Node.js)
//! list every `SCRUB_STATUS_*` of the committed header, with its number,
//! and nothing else: a status added to the C ABI fails here until each
//! binding names it. (Python checks its own list against the header in its
//! tests; Go uses the header's constants.) Swift is not built on this
//! machine, so this is also what checks its list.

use std::collections::BTreeMap;
use std::path::Path;

type Statuses = BTreeMap<String, u32>;

fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `NAME = number` (or `NAME: number`, `NAME(number)`) on each line where
/// `prefix` starts the trimmed line, NAME in upper snake case.
fn listed(text: &str, prefix: &str, name_of: impl Fn(&str) -> String) -> Statuses {
    let mut statuses = Statuses::new();
    for line in text.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix(prefix) else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        // After the last `=`, `:` or `(` (Swift's `: UInt32 = 7`).
        let after = rest[name.len()..].rsplit(['=', ':', '(']).next();
        let number: String = after
            .unwrap_or("")
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if name.is_empty() || number.is_empty() {
            continue;
        }
        let number = number.parse().expect("a status number");
        assert!(
            statuses.insert(name_of(&name), number).is_none(),
            "{name} listed twice"
        );
    }
    statuses
}

fn same(name: &str) -> String {
    name.to_string()
}

/// `invalidSecretsJSON` → `INVALID_SECRETS_JSON`.
fn upper_snake(name: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() && previous_lower {
            out.push('_');
        }
        previous_lower = c.is_ascii_lowercase();
        out.push(c.to_ascii_uppercase());
    }
    out
}

fn header() -> Statuses {
    let statuses = listed(&read("include/slicc_scrub.h"), "SCRUB_STATUS_", same);
    assert!(statuses.len() >= 19, "the header's statuses: {statuses:?}");
    statuses
}

#[test]
fn swift_lists_every_status_of_the_header() {
    let swift = read("bindings/swift/Sources/SliccScrub/SliccScrub.swift");
    let enum_body = swift
        .split("public enum Status {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("Swift's Status enum");
    let listed = listed(enum_body, "public static let ", upper_snake);
    assert_eq!(listed, header());
}

#[test]
fn kotlin_lists_every_status_of_the_header() {
    let kotlin = read("bindings/kotlin/src/slicc/scrub/ScrubException.kt");
    let enum_body = kotlin
        .split("enum class Status(val code: Int) {")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .expect("Kotlin's Status enum");
    assert_eq!(listed(enum_body, "", same), header());
}

#[test]
fn node_lists_every_status_of_the_header() {
    let node = read("bindings/node/lib/errors.js");
    let object = node
        .split("const Status = Object.freeze({")
        .nth(1)
        .and_then(|rest| rest.split("});").next())
        .expect("Node.js's Status object");
    assert_eq!(listed(object, "", same), header());
}

#[test]
fn names_become_upper_snake_case() {
    assert_eq!(upper_snake("ok"), "OK");
    assert_eq!(upper_snake("invalidSecretsJSON"), "INVALID_SECRETS_JSON");
    assert_eq!(upper_snake("indexOutOfRange"), "INDEX_OUT_OF_RANGE");
}
