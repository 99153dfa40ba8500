//! What a caller hands to [`crate::compile`]: the secrets and the options.

use std::fmt;

use zeroize::Zeroize;

/// A secret to remove: its name (used in `[redacted:<name>]` and in hits),
/// its value, and an optional placeholder that replaces raw matches.
///
/// `Debug` shows lengths only, the name's too (a name can hold another
/// secret's value or a placeholder): a value or placeholder never appears
/// in any output of this crate other than scrubbed bytes. The value and placeholder
/// are wiped from memory when the secret is dropped (a `Vec` that grows
/// before it is handed over may leave a copy behind: give it its final size
/// first).
///
/// ```
/// use slicc_scrub::Secret;
///
/// let secret = Secret::new("GH_TOKEN", "ghp_abcdefgh12345678").with_placeholder("fnox_proxy_1");
/// assert_eq!(secret.name, "GH_TOKEN");
/// assert!(!format!("{secret:?}").contains("ghp_"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Secret {
    /// 1 to [`MAX_NAME`](crate::MAX_NAME) bytes of `A-Z a-z 0-9 _ - .`,
    /// unique within one compile.
    pub name: String,
    /// The bytes to remove (need not be UTF-8), at most
    /// [`MAX_VALUE`](crate::MAX_VALUE) as given, at least
    /// [`MIN_VALUE`](crate::MIN_VALUE) once trimmed of CR and LF at both ends.
    pub value: Vec<u8>,
    /// `None` or empty: raw matches become `[redacted:<name>]` as well.
    pub placeholder: Option<Vec<u8>>,
}

impl Secret {
    /// A secret with no placeholder.
    pub fn new(name: impl Into<String>, value: impl Into<Vec<u8>>) -> Secret {
        Secret {
            name: name.into(),
            value: value.into(),
            placeholder: None,
        }
    }

    /// The value the rules speak of (SPEC §1): the value without the CR and
    /// LF bytes at its start and end. A line break around a value is never
    /// secret, and it is where a value read from a file differs from how it
    /// is printed.
    ///
    /// ```
    /// use slicc_scrub::Secret;
    ///
    /// let secret = Secret::new("TOKEN", "\r\ntoken12345\n");
    /// assert_eq!(secret.trimmed_value(), b"token12345");
    /// ```
    pub fn trimmed_value(&self) -> &[u8] {
        trim_line_breaks(&self.value)
    }

    /// The same secret with a placeholder for raw matches.
    pub fn with_placeholder(mut self, placeholder: impl Into<Vec<u8>>) -> Secret {
        self.placeholder = Some(placeholder.into());
        self
    }
}

/// The value and the placeholder are wiped when a secret is dropped.
impl Drop for Secret {
    fn drop(&mut self) {
        self.value.zeroize();
        if let Some(placeholder) = &mut self.placeholder {
            placeholder.zeroize();
        }
    }
}

/// Lengths only, the name's too: a name can hold another secret's value or a
/// placeholder (SPEC §1), which a secret on its own cannot tell.
impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Secret")
            .field("name", &format_args!("<{} bytes>", self.name.len()))
            .field(
                "value",
                &format_args!("<{} bytes, redacted>", self.value.len()),
            )
            .field(
                "placeholder",
                &format_args!(
                    "{}",
                    match &self.placeholder {
                        Some(p) if !p.is_empty() => "<redacted>",
                        _ => "<none>",
                    }
                ),
            )
            .finish()
    }
}

/// `value` without the CR and LF bytes at its start and end: the value the
/// rules speak of (SPEC §1), as [`Secret::trimmed_value`] gives it.
///
/// ```
/// assert_eq!(slicc_scrub::trim_line_breaks(b"\npassword\r\n"), b"password");
/// ```
pub fn trim_line_breaks(value: &[u8]) -> &[u8] {
    let is_break = |b: &u8| *b == b'\r' || *b == b'\n';
    let start = value
        .iter()
        .position(|b| !is_break(b))
        .unwrap_or(value.len());
    let end = value
        .iter()
        .rposition(|b| !is_break(b))
        .map_or(start, |i| i + 1);
    &value[start..end]
}

/// Compile options. `version` must be [`crate::RULES_VERSION`]: a consumer
/// written for other rules fails to compile instead of scrubbing differently.
///
/// Later versions may add options, so build it with [`Options::new`] and the
/// setters:
///
/// ```
/// use slicc_scrub::{Options, RULES_VERSION};
///
/// let options = Options::new(RULES_VERSION).same_length(true);
/// assert!(options.same_length);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The rules version the caller was written for.
    pub version: u32,
    /// Replace every match by as many `*` as it spans, keeping CR and LF.
    pub same_length: bool,
}

impl Options {
    /// Options for the given rules version, with `same_length` off.
    pub fn new(version: u32) -> Options {
        Options {
            version,
            same_length: false,
        }
    }

    /// The same options with `same_length` set.
    pub fn same_length(mut self, on: bool) -> Options {
        self.same_length = on;
        self
    }
}
