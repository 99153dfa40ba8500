//! "No error message ... ever contains a value or a placeholder" (SPEC §1),
//! checked by substring search, with these exact rules:
//!
//! - What must not show: each secret's value trimmed of CR and LF at both
//!   ends (when 8 bytes or more remain: shorter ones are rejected anyway and
//!   are too common to search for), its lowercase and uppercase hex, its
//!   base64 (standard and URL-safe, padded and not), each of its 16-byte
//!   windows, and each placeholder of 8 bytes or more. (A shorter
//!   placeholder, such as `x`, is in any text by chance; the spec's rule
//!   for names is about pattern matches, which placeholders are not.)
//! - Where: the library shows user text (names, unknown keys) only as Rust
//!   `{:?}` strings, so a leak is one of the above held (unescaped) by a
//!   string of the document (a name, a key, any string value) whose `{:?}`
//!   echo is in the message: escaped once (as in `Display`) or twice (as in
//!   the `Debug` of an error that holds a message). Escapes such as
//!   `\u{7f}` can spell bytes of a value that no name holds: not a leak.
//!   This leaves out, on
//!   purpose, a value that only spans fixed message text and the edge of an
//!   echoed name (`secret 0 ("AB` for a value with a name `AB...`): the
//!   message shows no more of the value than the name does.
//! - A searched string that is part of a field name quoted by the fixed
//!   message text (`"valueHex"`, `"placeholder"`, ...) is skipped: those
//!   words are in the messages whatever the secrets are.

use serde_json::Value;
use slicc_scrub::Secret;

/// Field names that the fixed text of messages quotes.
const QUOTED_FIELDS: [&str; 5] = ["name", "value", "valueHex", "placeholder", "placeholderHex"];

#[derive(Default)]
pub struct Known {
    /// Every string of the document, keys included, and every parsed name.
    strings: Vec<String>,
    /// What must not show, as text (a value that is not UTF-8 cannot be
    /// inside an echo of a string).
    hidden: Vec<String>,
}

impl Known {
    /// Every string of the document, and the values and placeholders of
    /// every object in a top-level array, read as leniently as possible
    /// (the document may be rejected later for another reason).
    pub fn add_document(&mut self, document: &Value) {
        self.collect_strings(document);
        let Value::Array(items) = document else {
            return;
        };
        for item in items {
            let Value::Object(fields) = item else {
                continue;
            };
            for (text, hex, is_value) in [
                ("value", "valueHex", true),
                ("placeholder", "placeholderHex", false),
            ] {
                for bytes in [
                    fields
                        .get(text)
                        .and_then(Value::as_str)
                        .map(|s| s.as_bytes().to_vec()),
                    fields.get(hex).and_then(Value::as_str).and_then(decode_hex),
                ]
                .into_iter()
                .flatten()
                {
                    self.add_bytes(&bytes, is_value);
                }
            }
        }
    }

    pub fn add_secrets(&mut self, secrets: &[Secret]) {
        for s in secrets {
            self.strings.push(s.name.clone());
            self.add_bytes(&s.value, true);
            if let Some(p) = &s.placeholder {
                self.add_bytes(p, false);
            }
        }
    }

    fn collect_strings(&mut self, value: &Value) {
        match value {
            Value::String(s) => self.strings.push(s.clone()),
            Value::Array(items) => items.iter().for_each(|v| self.collect_strings(v)),
            Value::Object(fields) => {
                for (k, v) in fields {
                    self.strings.push(k.clone());
                    self.collect_strings(v);
                }
            }
            _ => {}
        }
    }

    fn add_bytes(&mut self, bytes: &[u8], is_value: bool) {
        let mut add = |b: &[u8]| {
            if let Ok(s) = std::str::from_utf8(b)
                && !QUOTED_FIELDS.iter().any(|f| f.contains(s))
            {
                self.hidden.push(s.to_owned());
            }
        };
        if !is_value {
            if bytes.len() >= 8 {
                add(bytes);
            }
            return;
        }
        let v = trim_crlf(bytes);
        if v.len() < 8 {
            return;
        }
        add(v);
        add(hex(v, false).as_bytes());
        add(hex(v, true).as_bytes());
        for alphabet in [STD, URL] {
            let encoded = base64(v, alphabet);
            add(encoded.as_bytes());
            add(encoded.trim_end_matches('=').as_bytes());
        }
        for window in v.windows(16) {
            add(window);
        }
    }
}

/// Fails when `message` shows anything of `known.hidden` inside an echo of
/// a string of the document.
pub fn assert_no_leak(known: &Known, what: &str, message: &str) {
    for level in 1..=2 {
        for echoed in &known.strings {
            let quoted = debug_n(echoed, level);
            if !message.contains(quoted.as_str()) {
                continue;
            }
            // Compared unescaped: an escape such as `\u{7f}` may spell
            // bytes of a value that the name itself does not hold.
            for hidden in &known.hidden {
                assert!(
                    !echoed.contains(hidden.as_str()),
                    "{what}: a value or placeholder ({} bytes) inside an echoed string: {message}",
                    hidden.len()
                );
            }
        }
    }
}

/// `{:?}` applied `n` times, with the outer quotes of all but the first
/// removed, as a string appears in a message shown `n - 1` times more
/// through `{:?}`.
fn debug_n(s: &str, n: usize) -> String {
    let mut out = format!("{s:?}");
    for _ in 1..n {
        let again = format!("{out:?}");
        out = again[1..again.len() - 1].to_owned();
    }
    out
}

fn trim_crlf(v: &[u8]) -> &[u8] {
    let crlf = |b: &u8| *b == b'\r' || *b == b'\n';
    let start = v.iter().position(|b| !crlf(b)).unwrap_or(v.len());
    let end = v.iter().rposition(|b| !crlf(b)).map_or(start, |i| i + 1);
    &v[start..end]
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    let digits = hex.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let digit = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    digits
        .chunks(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

fn hex(v: &[u8], upper: bool) -> String {
    v.iter()
        .map(|b| {
            if upper {
                format!("{b:02X}")
            } else {
                format!("{b:02x}")
            }
        })
        .collect()
}

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Padded base64.
fn base64(data: &[u8], alphabet: &[u8; 64]) -> String {
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let mut buf = [0u8; 3];
        buf[..chunk.len()].copy_from_slice(chunk);
        let n = u32::from(buf[0]) << 16 | u32::from(buf[1]) << 8 | u32::from(buf[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(alphabet[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
