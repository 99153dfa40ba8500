//! Errors. Messages name a secret by its index and name, never by its value
//! or placeholder.

use std::fmt;

use crate::form::Form;

/// Why a compile failed. Every variant that concerns one secret carries its
/// index in the list and its name (shown escaped, since an invalid name may
/// hold any bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompileError {
    /// `Options::version` is not [`crate::RULES_VERSION`].
    UnsupportedVersion { version: u32 },
    /// The name is empty, longer than 128 bytes, or has a byte outside
    /// `A-Z a-z 0-9 _ - .`.
    InvalidName { index: usize, name: String },
    /// Another secret earlier in the list has the same name.
    DuplicateName {
        index: usize,
        name: String,
        first: usize,
    },
    /// The value is shorter than [`crate::MIN_VALUE`].
    ValueTooShort {
        index: usize,
        name: String,
        len: usize,
    },
    /// The value is longer than [`crate::MAX_VALUE`].
    ValueTooLong {
        index: usize,
        name: String,
        len: usize,
    },
    /// The placeholder is longer than [`crate::MAX_PLACEHOLDER`].
    PlaceholderTooLong {
        index: usize,
        name: String,
        len: usize,
    },
    /// The placeholder of secret `index` contains a match of secret `other`
    /// in `form`: replacing with it could leak a value.
    PlaceholderLeaks {
        index: usize,
        name: String,
        other: usize,
        other_name: String,
        form: Form,
    },
    /// The text `[redacted:<name>]` of secret `index` contains a match of
    /// secret `other` in `form`.
    RedactionLeaks {
        index: usize,
        name: String,
        other: usize,
        other_name: String,
        form: Form,
    },
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CompileError::*;
        match self {
            UnsupportedVersion { version } => write!(
                f,
                "unsupported rules version {version} (this library implements version {})",
                crate::RULES_VERSION
            ),
            InvalidName { index, name } => write!(
                f,
                "secret {index} ({name:?}): invalid name: it must be 1 to {} bytes of A-Z a-z 0-9 _ - .",
                crate::MAX_NAME
            ),
            DuplicateName { index, name, first } => write!(
                f,
                "secret {index} ({name:?}): duplicate name: secret {first} has it already"
            ),
            ValueTooShort { index, name, len } => write!(
                f,
                "secret {index} ({name:?}): value too short: {len} bytes once leading and trailing CR and LF are trimmed, at least {} needed",
                crate::MIN_VALUE
            ),
            ValueTooLong { index, name, len } => write!(
                f,
                "secret {index} ({name:?}): value too long: {len} bytes, at most {} allowed",
                crate::MAX_VALUE
            ),
            PlaceholderTooLong { index, name, len } => write!(
                f,
                "secret {index} ({name:?}): placeholder too long: {len} bytes, at most {} allowed",
                crate::MAX_PLACEHOLDER
            ),
            PlaceholderLeaks {
                index,
                name,
                other,
                other_name,
                form,
            } => write!(
                f,
                "secret {index} ({name:?}): placeholder contains a {form} match of secret {other} ({other_name:?})"
            ),
            RedactionLeaks {
                index,
                name,
                other,
                other_name,
                form,
            } => write!(
                f,
                // Not spelled out: that text holds the other secret's value.
                "secret {index} ({name:?}): its redaction text contains a {form} match of secret {other} ({other_name:?})"
            ),
        }
    }
}

impl std::error::Error for CompileError {}

/// A stream was used after [`crate::Stream::end`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamError {
    Ended,
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Ended => {
                f.write_str("the stream has ended: push, idle and end are no longer allowed")
            }
        }
    }
}

impl std::error::Error for StreamError {}
