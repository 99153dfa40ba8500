//! Errors. Messages name a secret by its index and name, never by its value
//! or placeholder.

use std::fmt;

use crate::form::Form;

/// Why a compile failed. Every variant that concerns one secret carries its
/// index in the list and its name (shown escaped, since an invalid name may
/// hold any bytes).
///
/// A later version may add variants: match with a wildcard arm.
///
/// ```
/// use slicc_scrub::{compile, CompileError, Options, Secret, RULES_VERSION};
///
/// let secrets = [Secret::new("A", "correct horse battery staple"), Secret::new("A", "another value")];
/// match compile(&secrets, &Options::new(RULES_VERSION)) {
///     Err(CompileError::DuplicateName { index: 1, first: 0, .. }) => {}
///     other => panic!("unexpected {other:?}"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompileError {
    /// `Options::version` is not [`crate::RULES_VERSION`].
    UnsupportedVersion {
        /// The version asked for.
        version: u32,
    },
    /// The name is empty, longer than 128 bytes, or has a byte outside
    /// `A-Z a-z 0-9 _ - .`.
    InvalidName {
        /// The secret's index in the list.
        index: usize,
        /// The secret's name.
        name: String,
    },
    /// Another secret earlier in the list has the same name.
    DuplicateName {
        /// The secret's index in the list.
        index: usize,
        /// The secret's name.
        name: String,
        /// The index of the earlier secret with that name.
        first: usize,
    },
    /// The value is shorter than [`crate::MIN_VALUE`].
    ValueTooShort {
        /// The secret's index in the list.
        index: usize,
        /// The secret's name.
        name: String,
        /// The length in bytes.
        len: usize,
    },
    /// The value is longer than [`crate::MAX_VALUE`].
    ValueTooLong {
        /// The secret's index in the list.
        index: usize,
        /// The secret's name.
        name: String,
        /// The length in bytes.
        len: usize,
    },
    /// The placeholder is longer than [`crate::MAX_PLACEHOLDER`].
    PlaceholderTooLong {
        /// The secret's index in the list.
        index: usize,
        /// The secret's name.
        name: String,
        /// The length in bytes.
        len: usize,
    },
    /// The placeholder of secret `index` contains a match of secret `other`
    /// in `form`: replacing with it could leak a value.
    PlaceholderLeaks {
        /// The secret's index in the list.
        index: usize,
        /// The secret's name.
        name: String,
        /// The index of the secret matched.
        other: usize,
        /// That secret's name.
        other_name: String,
        /// The form of the match.
        form: Form,
    },
    /// The text `[redacted:<name>]` of secret `index` contains a match of
    /// secret `other` in `form`.
    RedactionLeaks {
        /// The secret's index in the list.
        index: usize,
        /// The secret's name.
        name: String,
        /// The index of the secret matched.
        other: usize,
        /// That secret's name.
        other_name: String,
        /// The form of the match.
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
    /// Push, idle or end after [`crate::Stream::end`].
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
