//! Secrets as JSON, the format of the vectors and of every interface that
//! takes secrets as text (the C ABI's `scrub_compile_json`, the command
//! line's `--secrets FILE`):
//!
//! ```json
//! [{"name": "GH_TOKEN", "value": "ghp_...", "placeholder": "fnox_..."},
//!  {"name": "KEY", "valueHex": "00ff...", "placeholderHex": "..."}]
//! ```
//!
//! Error messages locate the problem by secret index and field only: a name
//! or an unknown key is never echoed, since it may hold another secret's
//! value (SPEC §1).

use std::fmt;

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::value::RawValue;
use zeroize::Zeroizing;

use crate::secret::Secret;

/// Why a secrets JSON document was rejected: a message that locates the
/// fault (a line and column, or a secret's index and field) and never
/// shows a value or placeholder.
///
/// ```
/// use slicc_scrub::secrets_from_json;
///
/// let error = secrets_from_json(b"[{").unwrap_err();
/// assert!(error.is_syntax());
/// let error = secrets_from_json(br#"[{"name": "A"}]"#).unwrap_err();
/// assert!(!error.is_syntax());
/// assert_eq!(error.to_string(), r#"invalid secrets JSON: secret 0: "value" or "valueHex" is missing"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecretsJsonError {
    message: String,
    syntax: bool,
}

impl SecretsJsonError {
    /// The text is not JSON at all (rather than JSON that is not a list of
    /// secrets).
    pub fn is_syntax(&self) -> bool {
        self.syntax
    }
}

impl fmt::Display for SecretsJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid secrets JSON: {}", self.message)
    }
}

impl std::error::Error for SecretsJsonError {}

fn error(message: impl Into<String>) -> SecretsJsonError {
    SecretsJsonError {
        message: message.into(),
        syntax: false,
    }
}

/// Parses a JSON array of secrets. Unknown fields are rejected, so a typo
/// such as `"palceholder"` does not silently leave a secret without one.
///
/// Nothing of a value or placeholder is left behind in freed memory: the
/// document is read in place, and each string is unescaped into a buffer of
/// its final size that the [`Secret`] owns (and wipes).
///
/// # Errors
///
/// A [`SecretsJsonError`] when the text is longer than
/// [`crate::MAX_SECRETS_JSON`] (refused before it is parsed), is not JSON
/// ([`SecretsJsonError::is_syntax`]), or is not an array of secrets.
///
/// ```
/// let secrets = slicc_scrub::secrets_from_json(
///     br#"[{"name": "GH_TOKEN", "value": "ghp_abcdefgh12345678"}]"#,
/// )?;
/// assert_eq!(secrets[0].name, "GH_TOKEN");
/// # Ok::<(), slicc_scrub::SecretsJsonError>(())
/// ```
pub fn secrets_from_json(json: &[u8]) -> Result<Vec<Secret>, SecretsJsonError> {
    if json.len() > crate::MAX_SECRETS_JSON {
        return Err(error(format!(
            "{} bytes, at most {} allowed",
            json.len(),
            crate::MAX_SECRETS_JSON
        )));
    }
    // The whole text first, for syntax: serde_json's errors give a line and
    // a column, never the text. Borrowed, so nothing is copied.
    let document: &RawValue = serde_json::from_slice(json).map_err(|e| SecretsJsonError {
        message: format!("not valid JSON (line {}, column {})", e.line(), e.column()),
        syntax: true,
    })?;
    let items: Vec<&RawValue> = serde_json::from_str(document.get())
        .map_err(|_| error("the document must be an array of secrets"))?;
    items
        .iter()
        .enumerate()
        .map(|(index, item)| secret(index, item))
        .collect()
}

const FIELDS: [&str; 5] = ["name", "value", "valueHex", "placeholder", "placeholderHex"];

fn secret(index: usize, item: &RawValue) -> Result<Secret, SecretsJsonError> {
    // Values stay raw text.
    let Entries(entries) = serde_json::from_str(item.get())
        .map_err(|_| error(format!("secret {index}: must be an object")))?;
    if entries
        .iter()
        .any(|(key, _)| !FIELDS.contains(&key.as_ref()))
    {
        // Not echoed: a key may be anything, another secret's value too.
        return Err(error(format!(
            "secret {index}: unknown field (the fields are name, value, valueHex, placeholder and placeholderHex)"
        )));
    }
    let mut fields: BTreeMap<Cow<'_, str>, &RawValue> = BTreeMap::new();
    for (key, raw) in entries {
        if fields.contains_key(&key) {
            // One of FIELDS: safe to echo.
            return Err(error(format!("secret {index}: \"{key}\" is given twice")));
        }
        fields.insert(key, raw);
    }
    let name = match fields.get("name") {
        Some(raw) => string(raw)
            .map(|bytes| String::from_utf8(bytes).expect("a JSON string is UTF-8"))
            .ok_or_else(|| error(format!("secret {index}: \"name\" must be a string")))?,
        None => return Err(error(format!("secret {index}: \"name\" is missing"))),
    };
    let value = bytes_field(index, &fields, "value", "valueHex")?.ok_or_else(|| {
        error(format!(
            "secret {index}: \"value\" or \"valueHex\" is missing"
        ))
    })?;
    // Wiped if the placeholder's field is bad; else moved, not copied,
    // into the secret, which wipes it.
    let mut value = Zeroizing::new(value);
    let placeholder = bytes_field(index, &fields, "placeholder", "placeholderHex")?;
    Ok(Secret {
        name,
        value: std::mem::take(&mut *value),
        placeholder,
    })
}

/// A secret's fields in the order given, a repeated one twice: a map keeps
/// the last of a repeated key without a word, and `{"value": "a", "value":
/// "b"}` is more likely a mistake than a choice.
struct Entries<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> serde::Deserialize<'de> for Entries<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Entries<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// The bytes of a field given as text (`key`) or as hex (`hex_key`).
fn bytes_field(
    index: usize,
    fields: &BTreeMap<Cow<'_, str>, &RawValue>,
    key: &str,
    hex_key: &str,
) -> Result<Option<Vec<u8>>, SecretsJsonError> {
    let at = |what: &str| error(format!("secret {index}: {what}"));
    match (fields.get(key), fields.get(hex_key)) {
        (Some(_), Some(_)) => Err(at(&format!("give \"{key}\" or \"{hex_key}\", not both"))),
        (Some(raw), None) => string(raw)
            .map(Some)
            .ok_or_else(|| at(&format!("\"{key}\" must be a string"))),
        (None, Some(raw)) => {
            let hex = Zeroizing::new(
                string(raw).ok_or_else(|| at(&format!("\"{hex_key}\" must be a string")))?,
            );
            decode_hex(&hex).map(Some).ok_or_else(|| {
                at(&format!(
                    "\"{hex_key}\" must be an even number of hex digits"
                ))
            })
        }
        (None, None) => Ok(None),
    }
}

/// The bytes of a JSON string given as its raw text (quotes included), or
/// `None` when it is not a string. Unescaped into a buffer of exactly the
/// result's size, so no partial copy is ever freed unwiped. The text is
/// valid JSON already (checked by serde_json).
fn string(raw: &RawValue) -> Option<Vec<u8>> {
    let text = raw.get().as_bytes();
    let body = text.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    let mut out = Vec::with_capacity(unescaped_len(body)?);
    unescape(body, |bytes| out.extend_from_slice(bytes))?;
    debug_assert_eq!(out.len(), out.capacity());
    Some(out)
}

fn unescaped_len(body: &[u8]) -> Option<usize> {
    let mut len = 0;
    unescape(body, |bytes| len += bytes.len())?;
    Some(len)
}

/// Calls `out` with the unescaped pieces of a JSON string body.
fn unescape(body: &[u8], mut out: impl FnMut(&[u8])) -> Option<()> {
    let mut i = 0;
    while i < body.len() {
        let plain = body[i..]
            .iter()
            .position(|&b| b == b'\\')
            .unwrap_or(body.len() - i);
        out(&body[i..i + plain]);
        i += plain;
        if i == body.len() {
            break;
        }
        let escape = *body.get(i + 1)?;
        i += 2;
        match escape {
            b'"' => out(b"\""),
            b'\\' => out(b"\\"),
            b'/' => out(b"/"),
            b'b' => out(b"\x08"),
            b'f' => out(b"\x0c"),
            b'n' => out(b"\n"),
            b'r' => out(b"\r"),
            b't' => out(b"\t"),
            b'u' => {
                let unit = |at: usize| -> Option<u32> {
                    let digits = std::str::from_utf8(body.get(at..at + 4)?).ok()?;
                    u32::from_str_radix(digits, 16).ok()
                };
                let first = unit(i)?;
                i += 4;
                let scalar = if (0xD800..0xDC00).contains(&first) {
                    // A surrogate pair: `\uD83D\uDE00`.
                    if body.get(i..i + 2)? != b"\\u" {
                        return None;
                    }
                    let second = unit(i + 2)?;
                    if !(0xDC00..0xE000).contains(&second) {
                        return None;
                    }
                    i += 6;
                    0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                } else {
                    first
                };
                out(char::from_u32(scalar)?.encode_utf8(&mut [0; 4]).as_bytes());
            }
            _ => return None,
        }
    }
    Some(())
}

/// The bytes of an even number of hex digits, in a buffer of exactly their
/// size (wiped if a digit turns out bad).
fn decode_hex(digits: &[u8]) -> Option<Vec<u8>> {
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let digit = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Zeroizing::new(Vec::with_capacity(digits.len() / 2));
    for pair in digits.chunks(2) {
        out.push(digit(pair[0])? << 4 | digit(pair[1])?);
    }
    Some(std::mem::take(&mut *out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value decoded before the document turns out bad (its placeholder
    /// field, or a later secret) is wiped when it is dropped, as text or
    /// as hex; so is a placeholder before a bad later secret.
    #[test]
    fn what_was_decoded_before_an_error_is_wiped() {
        let value = b"correct-horse-battery-staple".to_vec();
        let placeholder = b"placeholder-of-the-first-one".to_vec();
        let hex: String = value.iter().map(|b| format!("{b:02x}")).collect();
        let documents = [
            r#"[{"name":"A","value":"correct-horse-battery-staple","placeholder":5}]"#.to_string(),
            r#"[{"name":"A","value":"correct-horse-battery-staple","placeholder":"x","placeholderHex":"00"}]"#.to_string(),
            r#"[{"name":"A","value":"correct-horse-battery-staple","placeholderHex":"0"}]"#.to_string(),
            format!(r#"[{{"name":"A","valueHex":"{hex}","placeholder":[]}}]"#),
            // Hex that breaks off after most of the value.
            format!(r#"[{{"name":"A","valueHex":"{}zz"}}]"#, &hex[..hex.len() - 2]),
            r#"[{"name":"A","value":"correct-horse-battery-staple","placeholder":"placeholder-of-the-first-one"},{"name":5}]"#.to_string(),
        ];
        for document in documents {
            let needles = vec![value[..20].to_vec(), placeholder.clone()];
            let found = crate::freed_memory::scanned(needles, || {
                assert!(secrets_from_json(document.as_bytes()).is_err());
            });
            assert!(
                found.is_empty(),
                "{found:?} left in freed memory by {document}"
            );
        }
    }

    #[test]
    fn text_and_hex_fields() {
        let secrets = secrets_from_json(
            br#"[{"name":"A","value":"abcdefgh","placeholder":"P"},
                 {"name":"B","valueHex":"00ff10203040506070"}]"#,
        )
        .unwrap();
        assert_eq!(
            secrets[0],
            Secret::new("A", "abcdefgh").with_placeholder("P")
        );
        assert_eq!(
            secrets[1].value,
            [0x00, 0xff, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70]
        );
        assert_eq!(secrets[1].placeholder, None);
    }

    #[test]
    fn errors_locate_without_showing_values() {
        let cases: [(&[u8], &str); 10] = [
            (
                b"[{\"name\":\"A\",\"value\":\"supersecret1\"",
                "not valid JSON",
            ),
            (b"{}", "must be an array"),
            (b"[1]", "secret 0: must be an object"),
            (br#"[{"value":"supersecret1"}]"#, "\"name\" is missing"),
            (br#"[{"name":"A"}]"#, "\"value\" or \"valueHex\" is missing"),
            (
                br#"[{"name":"A","value":"supersecret1","valueHex":"00"}]"#,
                "not both",
            ),
            (br#"[{"name":"A","valueHex":"supersecret1"}]"#, "hex digits"),
            (
                br#"[{"name":"A","value":"supersecret1","palceholder":"x"}]"#,
                "unknown field",
            ),
            // A repeated field is refused, not read as its last one.
            (
                br#"[{"name":"A","value":"supersecret1","value":"supersecret2"}]"#,
                "secret 0: \"value\" is given twice",
            ),
            (
                br#"[{"name":"A","value":"supersecret1"},{"name":"B","name":"C","valueHex":"00"}]"#,
                "secret 1: \"name\" is given twice",
            ),
        ];
        for (json, expected) in cases {
            let message = secrets_from_json(json).unwrap_err().to_string();
            assert!(message.contains(expected), "{message:?} lacks {expected:?}");
            assert!(
                !message.contains("supersecret1"),
                "{message:?} shows a value"
            );
        }
    }

    #[test]
    fn names_and_unknown_keys_are_not_echoed() {
        // Either may hold another secret's value (SPEC §1).
        let json = br#"[{"name":"A","value":"supersecret1"},
                        {"name":"supersecret1","valueHex":"zz"},
                        {"name":"B","value":"abcdefgh","supersecret1":1}]"#;
        let message = secrets_from_json(json).unwrap_err().to_string();
        assert!(message.contains("secret 1"), "{message}");
        assert!(!message.contains("supersecret1"), "{message}");
        let json = br#"[{"name":"A","value":"supersecret1"},
                        {"name":"B","value":"abcdefgh","supersecret1":1}]"#;
        let message = secrets_from_json(json).unwrap_err().to_string();
        assert!(message.contains("secret 1: unknown field"), "{message}");
        assert!(!message.contains("supersecret1"), "{message}");
    }

    #[test]
    fn strings_unescape_as_serde_json_does() {
        for text in [
            r#""""#,
            r#""plain""#,
            r#""a\"b\\c\/d\b\f\n\r\t""#,
            r#""\u0000\u001f\u00e9\u2028 \ud83d\ude00 é 😀""#,
            r#""-----BEGIN KEY-----\nMIIB\r\n-----END KEY-----\n""#,
        ] {
            let raw: &RawValue = serde_json::from_str(text).unwrap();
            let want: String = serde_json::from_str(text).unwrap();
            assert_eq!(string(raw).unwrap(), want.as_bytes(), "{text}");
        }
        let not_a_string: &RawValue = serde_json::from_str("17").unwrap();
        assert_eq!(string(not_a_string), None);
    }

    #[test]
    fn text_over_the_cap_is_refused_unparsed() {
        // Valid JSON up to the cap would parse: the length alone decides.
        let mut json = b"[".to_vec();
        json.resize(crate::MAX_SECRETS_JSON + 1, b' ');
        let error = secrets_from_json(&json).unwrap_err();
        assert!(!error.is_syntax());
        assert!(error.to_string().contains("at most 67108864"), "{error}");
    }
}
