//! slicc-scrub removes known secret values from bytes before they reach a
//! language model: raw, as fragments, and in every common encoding (JSON,
//! percent, HTML, base64 at any alignment, hex, and base64/hex wrapped across
//! line breaks), in one pass or as a stream in any chunking.
//!
//! The contract is `SPEC.md` (rules version 4). Compile the secrets once, then
//! scrub with [`Scrubber::bytes`], [`Scrubber::text`] or a [`Stream`]:
//!
//! ```
//! use slicc_scrub::{compile, Options, Secret};
//!
//! let scrubber = compile(
//!     &[Secret::new("GH_TOKEN", "ghp_abcdefgh12345678").with_placeholder("fnox_proxy_1")],
//!     &Options::new(slicc_scrub::RULES_VERSION),
//! )
//! .unwrap();
//! let out = scrubber.text("token: ghp_abcdefgh12345678");
//! assert_eq!(out.text, "token: fnox_proxy_1");
//!
//! let mut stream = scrubber.stream();
//! let mut shown = stream.push(b"token: ghp_abcd").unwrap();
//! shown.extend(stream.push(b"efgh12345678\n").unwrap());
//! shown.extend(stream.end().unwrap());
//! assert_eq!(shown, b"token: fnox_proxy_1\n");
//! ```

#![deny(unsafe_code)]
#![deny(missing_docs)]

mod constants;
mod engine;
mod error;
mod form;
#[cfg(test)]
mod freed_memory;
pub mod io;
mod patterns;
mod scrubber;
mod secret;
mod secrets_json;
mod stream;

pub use constants::{
    FRAGMENT, IDLE_MS, MAX_NAME, MAX_PLACEHOLDER, MAX_SECRETS_JSON, MAX_TOTAL_VALUES, MAX_VALUE,
    MIN_VALUE, RULES_VERSION,
};
pub use error::{CompileError, StreamError};
pub use form::{Form, Hit};
pub use io::{ScrubReader, ScrubWriter};
pub(crate) use patterns::patterns_but_fragments;
pub use patterns::{Pattern, patterns};
pub use scrubber::{Scrubbed, ScrubbedText, Scrubber, compile};
pub use secret::{Options, Secret, trim_line_breaks};
pub use secrets_json::{SecretsJsonError, secrets_from_json};
pub use stream::Stream;

// The README's Rust example is compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
