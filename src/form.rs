//! The forms a secret is found in, and the hit counts reported per form.

use std::fmt;

/// The form in which a secret was found. The order of the variants is the
/// tie-break order of SPEC §3: an earlier form wins a tie.
///
/// A later rules version may add forms: match with a wildcard arm.
///
/// ```
/// use slicc_scrub::Form;
///
/// assert_eq!(Form::from_name("base64"), Some(Form::Base64));
/// assert_eq!(Form::Wrapped.to_string(), "wrapped");
/// assert!(Form::Raw < Form::Fragment); // the earlier form wins a tie
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Form {
    /// The value itself (and, for a value with bare LFs, with CRLF line
    /// ends).
    Raw = 0,
    /// A piece of at least [`FRAGMENT`](crate::FRAGMENT) bytes of the value,
    /// extended along it as far as the input goes on matching.
    Fragment = 1,
    /// The value as the inside of a JSON string.
    Json = 2,
    /// The value percent-encoded (URL encoding).
    Percent = 3,
    /// The value with HTML's character references.
    Html = 4,
    /// The value in base64 (standard or URL-safe), at any alignment.
    Base64 = 5,
    /// The value in hexadecimal, either case.
    Hex = 6,
    /// Base64 or hex of the value wrapped across line breaks.
    Wrapped = 7,
}

impl Form {
    /// Every form, in tie-break order. A slice, not an array: a later rules
    /// version may add forms without changing its type.
    pub const ALL: &'static [Form] = &[
        Form::Raw,
        Form::Fragment,
        Form::Json,
        Form::Percent,
        Form::Html,
        Form::Base64,
        Form::Hex,
        Form::Wrapped,
    ];

    /// The form's name as it appears in hits and vectors.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Raw => "raw",
            Form::Fragment => "fragment",
            Form::Json => "json",
            Form::Percent => "percent",
            Form::Html => "html",
            Form::Base64 => "base64",
            Form::Hex => "hex",
            Form::Wrapped => "wrapped",
        }
    }

    /// The form named `name`, if any.
    pub fn from_name(name: &str) -> Option<Form> {
        Form::ALL.iter().copied().find(|f| f.as_str() == name)
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How many matches of one secret in one form were replaced. Never a value.
///
/// ```
/// use slicc_scrub::{compile, Form, Options, Secret, RULES_VERSION};
///
/// let scrubber = compile(
///     &[Secret::new("DB", "correct horse battery staple")],
///     &Options::new(RULES_VERSION),
/// )?;
/// let out = scrubber.text("password: correct horse battery staple");
/// assert_eq!(out.hits.len(), 1);
/// assert_eq!((out.hits[0].name.as_str(), out.hits[0].form, out.hits[0].count), ("DB", Form::Raw, 1));
/// # Ok::<(), slicc_scrub::CompileError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Hit {
    /// The secret's name.
    pub name: String,
    /// The form its matches were in.
    pub form: Form,
    /// How many matches were replaced.
    pub count: u64,
}

/// The name's length, not the name: a compiled name holds no match of any
/// pattern, but it can hold a placeholder (SPEC §1: no `Debug` output shows
/// one), which a hit cannot tell. `name` itself is the caller's to show.
impl fmt::Debug for Hit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hit")
            .field("name", &format_args!("<{} bytes>", self.name.len()))
            .field("form", &self.form)
            .field("count", &self.count)
            .finish()
    }
}
