//! Compile from JSON, for languages where C structs are awkward.
//!
//! The secrets are a JSON array in the vectors' secret format (SPEC §5):
//! `[{"name": "...", "value": "..." | "valueHex": "...",
//!   "placeholder": "..." | "placeholderHex": "..."}]`.
//! Parsed by the crate's own [`slicc_scrub::secrets_from_json`], as every
//! interface does; its messages locate a problem by secret index and field,
//! never by a value or a placeholder.

use std::ffi::c_char;

use slicc_scrub::{MAX_SECRETS_JSON, compile, secrets_from_json};

use super::boundary::{Failure, boundary_with_error, set_if_writable, try_slice};
use super::scrubber::{compile_into, scrub_options, scrub_scrubber};
use super::status::{scrub_error, scrub_status};

/// The crate's parser ([`secrets_from_json`]), with its failures sorted into
/// "not JSON" and "JSON, but not secrets".
fn read_secrets(json: &[u8]) -> Result<Vec<slicc_scrub::Secret>, Failure> {
    // One parse; the error says whether the text was JSON at all. Its
    // message gives a position, never a piece of the input.
    secrets_from_json(json).map_err(|e| {
        let status = if e.is_syntax() {
            scrub_status::InvalidJson
        } else {
            scrub_status::InvalidSecretsJson
        };
        Failure::new(status, e.to_string())
    })
}

/// Compiles secrets given as JSON text: an array of objects
/// `{"name": ..., "value": ... or "valueHex": ..., "placeholder": ... or
/// "placeholderHex": ...}` (the vectors' format; `value` and `placeholder`
/// are strings taken as their UTF-8 bytes, the `Hex` forms any bytes; a
/// missing or empty placeholder means none; other fields are errors).
///
/// - `json`: `json_len` bytes of UTF-8 JSON, not NUL-terminated (a
///   terminating NUL, if counted in `json_len`, is a syntax error). Copied
///   during the call. At most 64 MiB: a longer `json_len` is refused with
///   `SCRUB_STATUS_INVALID_SECRETS_JSON` before any byte is read.
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
        // NULL before `error_out` is checked: so on every failure.
        set_if_writable(scrubber_out, std::ptr::null_mut());
        boundary_with_error(error_out, || {
            compile_into(scrubber_out, options, |options| {
                // The cap first: a length over it is refused unread.
                if json_len > MAX_SECRETS_JSON {
                    return Err(Failure::new(
                        scrub_status::InvalidSecretsJson,
                        format!(
                            "json_len is {json_len}: secrets JSON may be at most {MAX_SECRETS_JSON} bytes"
                        ),
                    ));
                }
                let secrets = read_secrets(try_slice(json.cast::<u8>(), json_len, "json")?)?;
                Ok(compile(&secrets, options)?)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_and_shape_have_their_own_status() {
        let cases: [(&str, scrub_status); 5] = [
            (
                "[{\"name\":\"A\",\"value\":\"hunter2hunter2\",",
                scrub_status::InvalidJson,
            ),
            ("[\"hunter2hunter2\"] x", scrub_status::InvalidJson),
            ("{\"name\":\"A\"}", scrub_status::InvalidSecretsJson),
            ("[\"hunter2hunter2\"]", scrub_status::InvalidSecretsJson),
            (
                "[{\"name\":\"A\",\"value\":7}]",
                scrub_status::InvalidSecretsJson,
            ),
        ];
        for (json, status) in cases {
            let failure = read_secrets(json.as_bytes()).expect_err(json);
            assert_eq!(failure.status, status, "{json}");
            assert!(!failure.message.contains("hunter2"), "{}", failure.message);
        }
    }
}
