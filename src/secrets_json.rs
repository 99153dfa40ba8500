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

use serde_json::Value;

use crate::secret::Secret;

/// Why a secrets JSON document was rejected.
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
    // serde_json's syntax errors give a line and column, never the text.
    let document: Value = serde_json::from_slice(json).map_err(|e| SecretsJsonError {
        message: format!("not valid JSON (line {}, column {})", e.line(), e.column()),
        syntax: true,
    })?;
    let Value::Array(items) = document else {
        return Err(error("the document must be an array of secrets"));
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| secret(index, item))
        .collect()
}

fn secret(index: usize, item: &Value) -> Result<Secret, SecretsJsonError> {
    let Value::Object(fields) = item else {
        return Err(error(format!("secret {index}: must be an object")));
    };
    for key in fields.keys() {
        if !["name", "value", "valueHex", "placeholder", "placeholderHex"].contains(&key.as_str()) {
            // Not echoed: a key may be anything, another secret's value too.
            return Err(error(format!(
                "secret {index}: unknown field (the fields are name, value, valueHex, placeholder and placeholderHex)"
            )));
        }
    }
    let name = match fields.get("name") {
        Some(Value::String(name)) => name.clone(),
        Some(_) => return Err(error(format!("secret {index}: \"name\" must be a string"))),
        None => return Err(error(format!("secret {index}: \"name\" is missing"))),
    };
    let value = bytes_field(index, fields, "value", "valueHex")?.ok_or_else(|| {
        error(format!(
            "secret {index}: \"value\" or \"valueHex\" is missing"
        ))
    })?;
    let placeholder = bytes_field(index, fields, "placeholder", "placeholderHex")?;
    Ok(Secret {
        name,
        value,
        placeholder,
    })
}

/// The bytes of a field given as text (`key`) or as hex (`hex_key`).
fn bytes_field(
    index: usize,
    fields: &serde_json::Map<String, Value>,
    key: &str,
    hex_key: &str,
) -> Result<Option<Vec<u8>>, SecretsJsonError> {
    let at = |what: &str| error(format!("secret {index}: {what}"));
    match (fields.get(key), fields.get(hex_key)) {
        (Some(_), Some(_)) => Err(at(&format!("give \"{key}\" or \"{hex_key}\", not both"))),
        (Some(Value::String(text)), None) => Ok(Some(text.as_bytes().to_vec())),
        (Some(_), None) => Err(at(&format!("\"{key}\" must be a string"))),
        (None, Some(Value::String(hex))) => decode_hex(hex).map(Some).ok_or_else(|| {
            at(&format!(
                "\"{hex_key}\" must be an even number of hex digits"
            ))
        }),
        (None, Some(_)) => Err(at(&format!("\"{hex_key}\" must be a string"))),
        (None, None) => Ok(None),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let cases: [(&[u8], &str); 8] = [
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
    fn text_over_the_cap_is_refused_unparsed() {
        // Valid JSON up to the cap would parse: the length alone decides.
        let mut json = b"[".to_vec();
        json.resize(crate::MAX_SECRETS_JSON + 1, b' ');
        let error = secrets_from_json(&json).unwrap_err();
        assert!(!error.is_syntax());
        assert!(error.to_string().contains("at most 67108864"), "{error}");
    }
}
