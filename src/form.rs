//! The forms a secret is found in, and the hit counts reported per form.

use std::fmt;

/// The form in which a secret was found. The order of the variants is the
/// tie-break order of SPEC §3: an earlier form wins a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Form {
    Raw = 0,
    Fragment = 1,
    Json = 2,
    Percent = 3,
    Html = 4,
    Base64 = 5,
    Hex = 6,
    Wrapped = 7,
}

impl Form {
    /// Every form, in tie-break order.
    pub const ALL: [Form; 8] = [
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
        Form::ALL.into_iter().find(|f| f.as_str() == name)
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How many matches of one secret in one form were replaced. Never a value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hit {
    pub name: String,
    pub form: Form,
    pub count: u64,
}
