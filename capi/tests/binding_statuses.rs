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

/// The text of `path` between the first `open` and the first `close`
/// after it.
fn between(path: &str, open: &str, close: &str) -> String {
    let text = read(path);
    let body = text.split_once(open).map(|(_, rest)| rest);
    let body = body.and_then(|rest| rest.split(close).next());
    body.unwrap_or_else(|| panic!("{path}: no {open:?}"))
        .to_string()
}

#[test]
fn swift_lists_every_status_of_the_header() {
    let path = "bindings/swift/Sources/SliccScrub/SliccScrub.swift";
    let body = between(path, "public enum Status {", "\n}");
    assert_eq!(listed(&body, "public static let ", upper_snake), header());
}

#[test]
fn kotlin_lists_every_status_of_the_header() {
    let path = "bindings/kotlin/src/slicc/scrub/ScrubException.kt";
    let body = between(path, "enum class Status(val code: Int) {", ";");
    assert_eq!(listed(&body, "", same), header());
}

#[test]
fn node_lists_every_status_of_the_header() {
    let body = between(
        "bindings/node/lib/errors.js",
        "const Status = Object.freeze({",
        "});",
    );
    assert_eq!(listed(&body, "", same), header());
}

#[test]
fn names_become_upper_snake_case() {
    assert_eq!(upper_snake("ok"), "OK");
    assert_eq!(upper_snake("invalidSecretsJSON"), "INVALID_SECRETS_JSON");
    assert_eq!(upper_snake("indexOutOfRange"), "INDEX_OUT_OF_RANGE");
}
