//! Errors. Messages name a secret by its index and name, never by its value
//! or placeholder.

use std::fmt;

use crate::form::Form;

/// Why a compile failed. Every variant that concerns one secret carries its
/// index in the list and its name, shown escaped (an invalid name may hold
/// any bytes). The name is `None` where it holds a match of some pattern of
/// some secret (SPEC §1): a message then names the secret by index alone,
/// so that it never shows a value.
///
/// A later version may add variants: match with a wildcard arm.
///
/// ```
/// use slicc_scrub::{compile, CompileError, Options, Secret, RULES_VERSION};
///
/// let secrets = [
///     Secret::new("DB_PASS", "hunter2hunter2"),
///     Secret::new("hunter2hunter2", "unrelated-value-1"),
/// ];
/// let error = compile(&secrets, &Options::new(RULES_VERSION)).unwrap_err();
/// assert!(matches!(error, CompileError::RedactionLeaks { index: 1, name: None, .. }));
/// assert!(!error.to_string().contains("hunter2"));
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
        /// Its name, unless that holds a match of some secret, a
        /// placeholder or a piece of a value (then `None`).
        name: Option<String>,
    },
    /// Another secret earlier in the list has the same name.
    DuplicateName {
        /// The secret's index in the list.
        index: usize,
        /// Its name, unless that holds a match of some secret, a
        /// placeholder or a piece of a value (then `None`).
        name: Option<String>,
        /// The index of the earlier secret with that name.
        first: usize,
    },
    /// The value, once trimmed of leading and trailing CR and LF, is
    /// shorter than [`crate::MIN_VALUE`].
    ValueTooShort {
        /// The secret's index in the list.
        index: usize,
        /// Its name, unless that holds a match of some secret, a
        /// placeholder or a piece of a value (then `None`).
        name: Option<String>,
        /// The trimmed value's length.
        len: usize,
    },
    /// The value, as given, is longer than [`crate::MAX_VALUE`].
    ValueTooLong {
        /// The secret's index in the list.
        index: usize,
        /// Its name, unless that holds a match of some secret, a
        /// placeholder or a piece of a value (then `None`).
        name: Option<String>,
        /// The value's length as given.
        len: usize,
    },
    /// The placeholder is longer than [`crate::MAX_PLACEHOLDER`].
    PlaceholderTooLong {
        /// The secret's index in the list.
        index: usize,
        /// Its name, unless that holds a match of some secret, a
        /// placeholder or a piece of a value (then `None`).
        name: Option<String>,
        /// The placeholder's length.
        len: usize,
    },
    /// The placeholder of secret `index` contains a match of secret `other`
    /// in `form`: replacing with it could leak a value.
    PlaceholderLeaks {
        /// The secret's index in the list.
        index: usize,
        /// Its name, unless that holds a match of some secret, a
        /// placeholder or a piece of a value (then `None`).
        name: Option<String>,
        /// The index of the secret whose match it contains.
        other: usize,
        /// That secret's name, unless that holds a match of some secret,
        /// a placeholder or a piece of a value (then `None`).
        other_name: Option<String>,
        /// The form of the match.
        form: Form,
    },
    /// The text `[redacted:<name>]` of secret `index` contains a match of
    /// secret `other` in `form`.
    RedactionLeaks {
        /// The secret's index in the list.
        index: usize,
        /// Its name, unless that holds a match (as it does whenever the
        /// match lies inside the name).
        name: Option<String>,
        /// The index of the secret whose match it contains.
        other: usize,
        /// That secret's name, unless that holds a match of some secret,
        /// a placeholder or a piece of a value (then `None`).
        other_name: Option<String>,
        /// The form of the match.
        form: Form,
    },
    /// The secrets up to `index` are more than one scrubber holds: their
    /// values, trimmed, take more than [`crate::MAX_TOTAL_VALUES`] bytes in
    /// all, or their patterns more than 4 GiB. A limit of this library,
    /// not of SPEC: far beyond what a machine's memory holds compiled.
    TooLarge {
        /// The index of the secret with which the limit was passed.
        index: usize,
        /// Its name, unless that holds a match of some secret, a
        /// placeholder or a piece of a value (then `None`).
        name: Option<String>,
    },
}

impl CompileError {
    /// The index of the secret the error is about, if it is about one.
    pub fn index(&self) -> Option<usize> {
        self.about().map(|(index, _)| index)
    }

    /// The name of the secret the error is about, where the error shows it:
    /// `None` where that name holds a match of some secret, a placeholder or
    /// a piece of a value (the message names the secret by index alone), or
    /// where the error is about no secret.
    ///
    /// ```
    /// use slicc_scrub::{compile, Options, Secret, RULES_VERSION};
    ///
    /// let secrets = [
    ///     Secret::new("DB_PASS", "hunter2hunter2"),
    ///     Secret::new("hunter2hunter2", "unrelated-value-1"),
    /// ];
    /// let error = compile(&secrets, &Options::new(RULES_VERSION)).unwrap_err();
    /// assert_eq!((error.index(), error.name()), (Some(1), None));
    /// ```
    pub fn name(&self) -> Option<&str> {
        self.about().and_then(|(_, name)| name)
    }

    /// The index and shown name of the secret the error is about.
    fn about(&self) -> Option<(usize, Option<&str>)> {
        use CompileError::*;
        match self {
            UnsupportedVersion { .. } => None,
            InvalidName { index, name }
            | DuplicateName { index, name, .. }
            | ValueTooShort { index, name, .. }
            | ValueTooLong { index, name, .. }
            | PlaceholderTooLong { index, name, .. }
            | PlaceholderLeaks { index, name, .. }
            | RedactionLeaks { index, name, .. }
            | TooLarge { index, name } => Some((*index, name.as_deref())),
        }
    }

    /// The same error with every name for which `holds_match(index)` is true
    /// left out.
    pub(crate) fn hide_names(mut self, holds_match: impl Fn(usize) -> bool) -> CompileError {
        use CompileError::*;
        let hide = |index: usize, name: &mut Option<String>| {
            if holds_match(index) {
                *name = None;
            }
        };
        match &mut self {
            UnsupportedVersion { .. } => {}
            InvalidName { index, name }
            | DuplicateName { index, name, .. }
            | ValueTooShort { index, name, .. }
            | ValueTooLong { index, name, .. }
            | PlaceholderTooLong { index, name, .. }
            | TooLarge { index, name } => hide(*index, name),
            PlaceholderLeaks {
                index,
                name,
                other,
                other_name,
                ..
            }
            | RedactionLeaks {
                index,
                name,
                other,
                other_name,
                ..
            } => {
                hide(*index, name);
                hide(*other, other_name);
            }
        }
        self
    }
}

/// `secret 3 ("NAME")`, or `secret 3` where the name is not to be shown.
struct Who<'a>(usize, &'a Option<String>);

impl fmt::Display for Who<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Some(name) => write!(f, "secret {} ({name:?})", self.0),
            None => write!(f, "secret {}", self.0),
        }
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CompileError::*;
        match self {
            // SPEC §1 gives this message whole; the version this library
            // implements is `RULES_VERSION`.
            UnsupportedVersion { version } => write!(f, "unsupported rules version {version}"),
            InvalidName { index, name } => write!(
                f,
                "{}: invalid name: it must be 1 to {} bytes of A-Z a-z 0-9 _ - .",
                Who(*index, name),
                crate::MAX_NAME
            ),
            DuplicateName { index, name, first } => write!(
                f,
                "{}: duplicate name: secret {first} has it already",
                Who(*index, name)
            ),
            ValueTooShort { index, name, len } => write!(
                f,
                "{}: value too short: {len} bytes once leading and trailing CR and LF are trimmed, at least {} needed",
                Who(*index, name),
                crate::MIN_VALUE
            ),
            ValueTooLong { index, name, len } => write!(
                f,
                "{}: value too long: {len} bytes, at most {} allowed",
                Who(*index, name),
                crate::MAX_VALUE
            ),
            PlaceholderTooLong { index, name, len } => write!(
                f,
                "{}: placeholder too long: {len} bytes, at most {} allowed",
                Who(*index, name),
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
                "{}: placeholder contains a {form} match of {}",
                Who(*index, name),
                Who(*other, other_name)
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
                "{}: its redaction text contains a {form} match of {}",
                Who(*index, name),
                Who(*other, other_name)
            ),
            TooLarge { index, name } => write!(
                f,
                "{}: the secrets up to this one are too large for one scrubber: more than {} value bytes, or more than 4 GiB of patterns",
                Who(*index, name),
                crate::MAX_TOTAL_VALUES
            ),
        }
    }
}

impl std::error::Error for CompileError {}

/// A stream was used after [`crate::Stream::end`].
///
/// ```
/// use slicc_scrub::{compile, Options, Secret, StreamError, RULES_VERSION};
///
/// let scrubber = compile(&[Secret::new("DB", "correct horse battery staple")], &Options::new(RULES_VERSION))?;
/// let mut stream = scrubber.stream();
/// stream.end()?;
/// assert_eq!(stream.push(b"more"), Err(StreamError::Ended));
/// assert!(stream.hits().is_empty()); // hits stay readable
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
