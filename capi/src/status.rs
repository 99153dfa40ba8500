//! Status codes and error messages.
//!
//! Every fallible function returns a [`scrub_status`]. Its fixed message
//! comes from [`scrub_status_message`]; the compile functions can also hand
//! back a [`scrub_error`] whose message names the secret at fault (by index
//! and name, never by value or placeholder).

use std::ffi::{CStr, CString, c_char};

use slicc_scrub::CompileError;

use super::boundary::{Failure, boundary_value, try_ref};

/// The result of a call. The values are part of the ABI: each is written
/// out explicitly and never reused for another meaning; new codes get new
/// numbers. `scrub_status_message` gives a fixed English message for each.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum scrub_status {
    /// Success.
    Ok = 0,
    /// A required pointer argument was NULL (or a pointer was NULL while its
    /// length was not zero). Nothing was done.
    NullArgument = 1,
    /// An argument is out of range: a misaligned pointer, a length too large
    /// for memory, an options `struct_size` too small or above 4096, a
    /// `same_length` other than 0 or 1. Nothing was done.
    InvalidArgument = 2,
    /// A Rust panic was caught at the boundary: a bug in slicc-scrub (please
    /// report it). A stream it happened on is poisoned; other handles stay
    /// usable.
    Panic = 3,
    /// `scrub_stream_push`, `scrub_stream_idle` or `scrub_stream_end` after
    /// `scrub_stream_end`. Nothing was done; hits stay readable.
    StreamEnded = 4,
    /// An earlier call on this stream panicked: the stream cannot be used
    /// any more (free it). Nothing was done.
    StreamPoisoned = 5,
    /// An index past the last entry (`scrub_hits_get`).
    IndexOutOfRange = 6,
    /// The options hold a non-zero byte past the fields this library knows:
    /// the caller was built against a newer header and asks for something
    /// this library cannot do.
    UnsupportedOptions = 7,
    /// `options->version` is not `SCRUB_RULES_VERSION` of this library.
    UnsupportedVersion = 100,
    /// A secret name is empty, longer than `SCRUB_MAX_NAME` bytes, or has a
    /// byte outside `A-Z a-z 0-9 _ - .`.
    InvalidName = 101,
    /// Two secrets have the same name.
    DuplicateName = 102,
    /// A value is shorter than `SCRUB_MIN_VALUE` bytes.
    ValueTooShort = 103,
    /// A value is longer than `SCRUB_MAX_VALUE` bytes.
    ValueTooLong = 104,
    /// A placeholder is longer than `SCRUB_MAX_PLACEHOLDER` bytes.
    PlaceholderTooLong = 105,
    /// A placeholder contains a match of some secret: replacing with it
    /// could leak a value.
    PlaceholderLeaks = 106,
    /// The text `[redacted:<name>]` of a secret contains a match of some
    /// secret.
    RedactionLeaks = 107,
    /// The secrets together are more than one scrubber holds: their
    /// values, trimmed, take more than `SCRUB_MAX_TOTAL_VALUES` bytes, or
    /// their patterns more than 4 GiB (a limit of this library, far beyond
    /// what memory holds compiled). The error names the secret with which
    /// the limit was passed.
    TooLarge = 108,
    /// `scrub_compile_json`: the text is not JSON (or not UTF-8).
    InvalidJson = 200,
    /// `scrub_compile_json`: the JSON is not an array of secrets of the
    /// form `{"name", "value" or "valueHex", "placeholder" or
    /// "placeholderHex"}` (missing or unknown field, wrong type, bad hex).
    InvalidSecretsJson = 201,
}

impl scrub_status {
    /// The fixed message of this status: never a value or placeholder.
    pub(crate) fn message(self) -> &'static CStr {
        use scrub_status::*;
        match self {
            Ok => c"ok",
            NullArgument => c"a required pointer argument is NULL",
            InvalidArgument => c"an argument is out of range",
            Panic => c"internal error: a panic was caught (a bug in slicc-scrub)",
            StreamEnded => c"the stream has ended: push, idle and end are no longer allowed",
            StreamPoisoned => c"the stream is unusable after an internal error in an earlier call",
            IndexOutOfRange => c"index out of range",
            UnsupportedOptions => c"the options ask for something this library does not know",
            UnsupportedVersion => c"unsupported rules version",
            InvalidName => c"invalid secret name",
            DuplicateName => c"duplicate secret name",
            ValueTooShort => c"secret value too short",
            ValueTooLong => c"secret value too long",
            PlaceholderTooLong => c"placeholder too long",
            PlaceholderLeaks => c"a placeholder contains a match of a secret",
            RedactionLeaks => c"a redaction text contains a match of a secret",
            TooLarge => c"the secrets are too large for one scrubber",
            InvalidJson => c"invalid JSON",
            InvalidSecretsJson => c"the JSON is not a list of secrets",
        }
    }

    /// The status for a raw value, if it is one.
    pub(crate) fn from_u32(value: u32) -> Option<scrub_status> {
        use scrub_status::*;
        const ALL: [scrub_status; 19] = [
            Ok,
            NullArgument,
            InvalidArgument,
            Panic,
            StreamEnded,
            StreamPoisoned,
            IndexOutOfRange,
            UnsupportedOptions,
            UnsupportedVersion,
            InvalidName,
            DuplicateName,
            ValueTooShort,
            ValueTooLong,
            PlaceholderTooLong,
            PlaceholderLeaks,
            RedactionLeaks,
            TooLarge,
            InvalidJson,
            InvalidSecretsJson,
        ];
        ALL.into_iter().find(|s| *s as u32 == value)
    }
}

impl From<&CompileError> for scrub_status {
    fn from(error: &CompileError) -> scrub_status {
        // The engine's errors are `#[non_exhaustive]`; it is pinned to this
        // crate's exact version, so a new error comes with a new status here.
        // Until then it is the caller's arguments that are at fault.
        match error {
            CompileError::UnsupportedVersion { .. } => scrub_status::UnsupportedVersion,
            CompileError::InvalidName { .. } => scrub_status::InvalidName,
            CompileError::DuplicateName { .. } => scrub_status::DuplicateName,
            CompileError::ValueTooShort { .. } => scrub_status::ValueTooShort,
            CompileError::ValueTooLong { .. } => scrub_status::ValueTooLong,
            CompileError::PlaceholderTooLong { .. } => scrub_status::PlaceholderTooLong,
            CompileError::PlaceholderLeaks { .. } => scrub_status::PlaceholderLeaks,
            CompileError::RedactionLeaks { .. } => scrub_status::RedactionLeaks,
            CompileError::TooLarge { .. } => scrub_status::TooLarge,
            _ => scrub_status::InvalidArgument,
        }
    }
}

impl From<CompileError> for Failure {
    fn from(error: CompileError) -> Failure {
        Failure::new(scrub_status::from(&error), error.to_string())
    }
}

/// The details of a failed compile: its status and a message that names the
/// secret at fault by index and name, by index alone where the name holds a
/// match of some secret or a placeholder (never a value or placeholder).
/// Owned by the caller once returned; free it with `scrub_error_free`.
pub struct scrub_error {
    pub(crate) status: scrub_status,
    pub(crate) message: CString,
}

impl scrub_error {
    pub(crate) fn from_failure(failure: Failure) -> scrub_error {
        let message = failure.message.into_owned().replace('\0', "\\0");
        scrub_error {
            status: failure.status,
            // No NUL is left in the message.
            message: CString::new(message).unwrap_or_default(),
        }
    }
}

/// The fixed message of a status, in English, without details.
///
/// The string is static: never free it. An unknown status gives
/// "unknown status". Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn scrub_status_message(status: u32) -> *const c_char {
    boundary_value(c"internal error".as_ptr(), || {
        Ok(match scrub_status::from_u32(status) {
            Some(status) => status.message().as_ptr(),
            None => c"unknown status".as_ptr(),
        })
    })
}

/// The message of `error`: a NUL-terminated string owned by `error`, valid
/// until `scrub_error_free(error)`. It names the secret at fault by index
/// and name (by index alone where the name holds a match or a
/// placeholder), never by value or placeholder. NULL when `error` is NULL
/// or misaligned. Thread-safe: an error is immutable.
///
/// # Safety
/// `error` is NULL or a live `scrub_error`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_error_message(error: *const scrub_error) -> *const c_char {
    boundary_value(std::ptr::null(), || {
        // SAFETY: the caller passes NULL or a live error; NULL and
        // alignment are checked.
        Ok(unsafe { try_ref(error, "error") }?.message.as_ptr())
    })
}

/// The status of `error`: the same value the failed call returned.
/// `SCRUB_STATUS_NULL_ARGUMENT` when `error` is NULL,
/// `SCRUB_STATUS_INVALID_ARGUMENT` when it is misaligned. Thread-safe.
///
/// # Safety
/// `error` is NULL or a live `scrub_error`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_error_status(error: *const scrub_error) -> scrub_status {
    boundary_value(scrub_status::Panic, || {
        // SAFETY: the caller passes NULL or a live error; NULL and
        // alignment are checked.
        Ok(match unsafe { try_ref(error, "error") } {
            Ok(error) => error.status,
            Err(failure) => failure.status,
        })
    })
}

/// Frees an error returned by a compile function. NULL is a no-op. The
/// message pointer is invalid afterwards. No other thread may be using it
/// at the time.
///
/// # Safety
/// `error` is NULL or a `scrub_error` not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scrub_error_free(error: *mut scrub_error) {
    // SAFETY: the caller passes NULL or an error this library allocated.
    unsafe { super::boundary::free_handle(error) }
}
