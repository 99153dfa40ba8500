//! Compile from JSON, for languages where C structs are awkward.
//!
//! The secrets are a JSON array in the vectors' secret format (SPEC §5):
//! `[{"name": "...", "value": "..." | "valueHex": "...",
//!   "placeholder": "..." | "placeholderHex": "..."}]`.
//! Messages name a secret by index (and name once known) and a field by
//! its known name, never by a value, a placeholder or an unknown key.

use std::ffi::c_char;

use serde_json::{Map, Value};

use crate::{Secret, compile};

use super::boundary::{Failure, FfiResult, Out, boundary_with_error, into_handle, try_slice};
use super::scrubber::{read_options, scrub_options, scrub_scrubber};
use super::status::{scrub_error, scrub_status};

fn invalid(message: String) -> Failure {
    Failure::new(scrub_status::InvalidSecretsJson, message)
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    let digit = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let hex = hex.as_bytes();
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    hex.chunks_exact(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

/// The bytes of a field given as text (`plain`) or as hex (`hex`): at most
/// one of the two; `None` when neither is there (or null).
fn bytes_field(
    object: &Map<String, Value>,
    at: &str,
    plain: &str,
    hex: &str,
) -> FfiResult<Option<Vec<u8>>> {
    let get = |key: &str| object.get(key).filter(|v| !v.is_null());
    match (get(plain), get(hex)) {
        (Some(_), Some(_)) => Err(invalid(format!(
            "{at}: \"{plain}\" and \"{hex}\" are both given; give one"
        ))),
        (Some(Value::String(s)), None) => Ok(Some(s.as_bytes().to_vec())),
        (Some(_), None) => Err(invalid(format!("{at}: \"{plain}\" must be a string"))),
        (None, Some(Value::String(s))) => decode_hex(s).map(Some).ok_or_else(|| {
            invalid(format!(
                "{at}: \"{hex}\" must be an even number of hex digits"
            ))
        }),
        (None, Some(_)) => Err(invalid(format!("{at}: \"{hex}\" must be a string"))),
        (None, None) => Ok(None),
    }
}

fn read_secret(index: usize, value: &Value) -> FfiResult<Secret> {
    let Value::Object(object) = value else {
        return Err(invalid(format!("secret {index}: must be an object")));
    };
    const KNOWN: [&str; 5] = ["name", "value", "valueHex", "placeholder", "placeholderHex"];
    if object.keys().any(|k| !KNOWN.contains(&k.as_str())) {
        return Err(invalid(format!(
            "secret {index}: unknown field (the fields are name, value or valueHex, placeholder or placeholderHex)"
        )));
    }
    let name = match object.get("name") {
        Some(Value::String(name)) => name.clone(),
        Some(_) => {
            return Err(invalid(format!(
                "secret {index}: \"name\" must be a string"
            )));
        }
        None => return Err(invalid(format!("secret {index}: \"name\" is missing"))),
    };
    // The name is checked by compile; until then show only the index.
    let at = format!("secret {index}");
    let value = bytes_field(object, &at, "value", "valueHex")?
        .ok_or_else(|| invalid(format!("{at}: \"value\" or \"valueHex\" is missing")))?;
    let mut secret = Secret::new(name, value);
    if let Some(placeholder) = bytes_field(object, &at, "placeholder", "placeholderHex")?
        && !placeholder.is_empty()
    {
        secret = secret.with_placeholder(placeholder);
    }
    Ok(secret)
}

/// Parses the secrets array. Syntax errors keep serde_json's message (a
/// position, never a piece of the input).
fn read_secrets(json: &[u8]) -> FfiResult<Vec<Secret>> {
    let parsed: Value = serde_json::from_slice(json).map_err(|e| {
        Failure::new(
            scrub_status::InvalidJson,
            format!("secrets JSON: {}", syntax_message(&e)),
        )
    })?;
    let Value::Array(items) = parsed else {
        return Err(invalid(
            "secrets JSON: the top level must be an array of secrets".to_owned(),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| read_secret(index, item))
        .collect()
}

/// serde_json's message for an error of an untyped parse: for syntax
/// errors its fixed text ("expected value", "EOF while parsing a string")
/// and the position, never a piece of the input.
fn syntax_message(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match error.classify() {
        Category::Syntax | Category::Eof => error.to_string(),
        Category::Io | Category::Data => {
            format!("invalid at line {} column {}", error.line(), error.column())
        }
    }
}

/// Compiles secrets given as JSON text: an array of objects
/// `{"name": ..., "value": ... or "valueHex": ..., "placeholder": ... or
/// "placeholderHex": ...}` (the vectors' format; `value` and `placeholder`
/// are strings taken as their UTF-8 bytes, the `Hex` forms any bytes; a
/// missing, null or empty placeholder means none; other fields are errors).
///
/// - `json`: `json_len` bytes of UTF-8 JSON, not NUL-terminated (a
///   terminating NUL, if counted in `json_len`, is a syntax error). Copied
///   during the call.
/// - `options`, `scrubber_out`, `error_out`: as for `scrub_compile`.
///
/// Errors: `SCRUB_STATUS_INVALID_JSON` (not JSON; the message gives the
/// line and column), `SCRUB_STATUS_INVALID_SECRETS_JSON` (JSON, but not a
/// list of secrets; the message gives the secret's index and the field),
/// and every error of `scrub_compile`. Thread-safe.
///
/// # Safety
/// Each pointer is NULL or valid as described above.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_compile_json(
    json: *const c_char,
    json_len: usize,
    options: *const scrub_options,
    scrubber_out: *mut *mut scrub_scrubber,
    error_out: *mut *mut scrub_error,
) -> scrub_status {
    // SAFETY: the caller's contract for every pointer.
    unsafe {
        boundary_with_error(error_out, || {
            let scrubber_out = Out::new(scrubber_out, "scrubber_out")?;
            scrubber_out.set(std::ptr::null_mut());
            let options = read_options(options)?;
            let json = try_slice(json.cast::<u8>(), json_len, "json")?;
            let secrets = read_secrets(json)?;
            let inner = compile(&secrets, &options)?;
            scrubber_out.set(into_handle(scrub_scrubber { inner }));
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_never_show_values() {
        let cases: [(&str, scrub_status); 9] = [
            (
                "[{\"name\":\"A\",\"value\":\"hunter2hunter2\",",
                scrub_status::InvalidJson,
            ),
            ("{\"name\":\"A\"}", scrub_status::InvalidSecretsJson),
            ("[\"hunter2hunter2\"]", scrub_status::InvalidSecretsJson),
            (
                "[{\"name\":\"A\",\"value\":7}]",
                scrub_status::InvalidSecretsJson,
            ),
            (
                "[{\"name\":\"A\",\"hunter2hunter2\":\"x\"}]",
                scrub_status::InvalidSecretsJson,
            ),
            (
                "[{\"name\":\"A\",\"valueHex\":\"hunter2hunter2\"}]",
                scrub_status::InvalidSecretsJson,
            ),
            (
                "[{\"name\":\"A\",\"value\":\"hunter2hunter2\",\"valueHex\":\"00\"}]",
                scrub_status::InvalidSecretsJson,
            ),
            ("[{\"name\":\"A\"}]", scrub_status::InvalidSecretsJson),
            (
                "[{\"value\":\"hunter2hunter2\"}]",
                scrub_status::InvalidSecretsJson,
            ),
        ];
        for (json, status) in cases {
            let failure = read_secrets(json.as_bytes()).expect_err(json);
            assert_eq!(failure.status, status, "{json}");
            assert!(!failure.message.contains("hunter2"), "{}", failure.message);
        }
    }

    #[test]
    fn reads_text_and_hex() {
        let secrets = read_secrets(
            br#"[{"name":"A","value":"abcdefgh","placeholder":"P"},
                 {"name":"B","valueHex":"00ff00ff00ff00ff","placeholderHex":""},
                 {"name":"C","value":"12345678","placeholder":null}]"#,
        )
        .unwrap();
        assert_eq!(secrets[0].value, b"abcdefgh");
        assert_eq!(secrets[0].placeholder.as_deref(), Some(&b"P"[..]));
        assert_eq!(secrets[1].value, [0, 255, 0, 255, 0, 255, 0, 255]);
        assert_eq!(secrets[1].placeholder, None);
        assert_eq!(secrets[2].placeholder, None);
    }
}
