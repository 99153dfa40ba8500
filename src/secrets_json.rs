//! Secrets as JSON, the format of the vectors and of every interface that
//! takes secrets as text (the C ABI's `scrub_compile_json`, the command
//! line's `--secrets FILE`):
//!
//! ```json
//! [{"name": "GH_TOKEN", "value": "ghp_...", "placeholder": "fnox_..."},
//!  {"name": "KEY", "valueHex": "00ff...", "placeholderHex": "..."}]
//! ```
//!
//! Error messages locate the problem (secret index, field) and never show a
//! value or a placeholder.

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
/// ```
/// use slicc_scrub::secrets_from_json;
///
/// let secrets = secrets_from_json(br#"[
///     {"name": "GH_TOKEN", "value": "ghp_abcdefgh12345678", "placeholder": "fnox_proxy_1"},
///     {"name": "BIN", "valueHex": "00ff00ff00ff00ff"}
/// ]"#)?;
/// assert_eq!(secrets[1].value, [0, 255, 0, 255, 0, 255, 0, 255]);
/// assert!(secrets_from_json(b"[{\"name\": \"X\", \"palceholder\": \"y\"}]").is_err());
/// # Ok::<(), slicc_scrub::SecretsJsonError>(())
/// ```
///
/// # Errors
/// A [`SecretsJsonError`] when the text is not JSON, not an array, or an
/// entry is not `{"name", "value" or "valueHex", "placeholder" or
/// "placeholderHex"}` (missing, unknown or mistyped field, bad hex); its
/// message never holds a value or a placeholder. The secrets themselves are
/// checked by [`compile`](crate::compile).
pub fn secrets_from_json(json: &[u8]) -> Result<Vec<Secret>, SecretsJsonError> {
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
            return Err(error(format!("secret {index}: unknown field {key:?}")));
        }
    }
    let name = match fields.get("name") {
        Some(Value::String(name)) => name.clone(),
        Some(_) => return Err(error(format!("secret {index}: \"name\" must be a string"))),
        None => return Err(error(format!("secret {index}: \"name\" is missing"))),
    };
    let value = bytes_field(index, &name, fields, "value", "valueHex")?.ok_or_else(|| {
        error(format!(
            "secret {index} ({name:?}): \"value\" or \"valueHex\" is missing"
        ))
    })?;
    let placeholder = bytes_field(index, &name, fields, "placeholder", "placeholderHex")?;
    Ok(Secret {
        name,
        value,
        placeholder,
    })
}

/// The bytes of a field given as text (`key`) or as hex (`hex_key`).
fn bytes_field(
    index: usize,
    name: &str,
    fields: &serde_json::Map<String, Value>,
    key: &str,
    hex_key: &str,
) -> Result<Option<Vec<u8>>, SecretsJsonError> {
    let at = |what: &str| error(format!("secret {index} ({name:?}): {what}"));
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
}
