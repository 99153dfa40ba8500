//! Compile and the compiled scrubber.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::engine::Engine;
use crate::engine::matcher::Matcher;
use crate::error::CompileError;
use crate::form::Hit;
use crate::secret::{Options, Secret};
use crate::stream::Stream;
use crate::{MAX_NAME, MAX_PLACEHOLDER, MAX_VALUE, MIN_VALUE, RULES_VERSION};

/// A compiled list of secrets. Immutable, `Send + Sync`, and cheap to clone
/// (an `Arc`): share one across threads and streams.
#[derive(Clone)]
pub struct Scrubber {
    engine: Arc<Engine>,
}

/// The result of [`Scrubber::bytes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scrubbed {
    pub output: Vec<u8>,
    pub hits: Vec<Hit>,
}

/// The result of [`Scrubber::text`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScrubbedText {
    pub text: String,
    pub hits: Vec<Hit>,
}

/// Validates `secrets` (SPEC §1) and builds a scrubber for them.
pub fn compile(secrets: &[Secret], options: &Options) -> Result<Scrubber, CompileError> {
    if options.version != RULES_VERSION {
        return Err(CompileError::UnsupportedVersion {
            version: options.version,
        });
    }
    validate(secrets)?;
    let scrubber = Scrubber {
        engine: Arc::new(Engine::build(secrets, options.same_length)),
    };
    scrubber.check_replacements()?;
    Ok(scrubber)
}

fn validate(secrets: &[Secret]) -> Result<(), CompileError> {
    let mut names: HashMap<&str, usize> = HashMap::with_capacity(secrets.len());
    for (index, secret) in secrets.iter().enumerate() {
        let name = || secret.name.clone(); // only for an error
        let valid = (1..=MAX_NAME).contains(&secret.name.len())
            && secret
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b));
        if !valid {
            return Err(CompileError::InvalidName {
                index,
                name: name(),
            });
        }
        if let Some(&first) = names.get(secret.name.as_str()) {
            return Err(CompileError::DuplicateName {
                index,
                name: name(),
                first,
            });
        }
        names.insert(&secret.name, index);
        // SPEC §1: the limit is on the value as given, the minimum on the
        // value once trimmed.
        let len = secret.value.len();
        if len > MAX_VALUE {
            return Err(CompileError::ValueTooLong {
                index,
                name: name(),
                len,
            });
        }
        let len = secret.trimmed_value().len();
        if len < MIN_VALUE {
            return Err(CompileError::ValueTooShort {
                index,
                name: name(),
                len,
            });
        }
        if let Some(placeholder) = &secret.placeholder {
            let len = placeholder.len();
            if len > MAX_PLACEHOLDER {
                return Err(CompileError::PlaceholderTooLong {
                    index,
                    name: name(),
                    len,
                });
            }
        }
    }
    Ok(())
}

impl Scrubber {
    /// Scrubs `input` in one piece: SPEC §3.
    pub fn bytes(&self, input: &[u8]) -> Scrubbed {
        let mut output = Vec::with_capacity(input.len() + input.len() / 64);
        let matcher = self.scrub_into(input, &mut output);
        Scrubbed {
            output,
            hits: matcher.hits(&self.engine),
        }
    }

    /// Scrubs `input` in one piece into `output`; the matcher has the hits.
    fn scrub_into(&self, input: &[u8], output: &mut Vec<u8>) -> Matcher {
        let mut matcher = Matcher::new(&self.engine);
        // The matcher reads the input in place: nothing is copied in.
        matcher.feed(&self.engine, input, 0, output);
        matcher.finish(&self.engine, input, 0, output);
        matcher
    }

    /// Scrubs the UTF-8 bytes of `input`, then decodes the result with
    /// U+FFFD for any broken sequence (a fragment may cut a character).
    pub fn text(&self, input: &str) -> ScrubbedText {
        let Scrubbed { output, hits } = self.bytes(input.as_bytes());
        let text = match String::from_utf8(output) {
            Ok(text) => text,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        ScrubbedText { text, hits }
    }

    /// A new stream over this scrubber. The stream keeps the compiled
    /// secrets alive: the scrubber may be dropped first.
    pub fn stream(&self) -> Stream {
        Stream::new(Arc::clone(&self.engine))
    }

    /// Number of secrets compiled.
    pub fn len(&self) -> usize {
        self.engine.secrets.len()
    }

    /// Whether no secrets were compiled: every byte passes unchanged.
    pub fn is_empty(&self) -> bool {
        self.engine.secrets.is_empty()
    }

    /// Whether matches are replaced by `*` of the same length.
    pub fn same_length(&self) -> bool {
        self.engine.same_length
    }

    /// Approximate heap bytes used by the compiled automata and tables.
    pub fn memory_usage(&self) -> usize {
        self.engine.memory_usage()
    }

    /// SPEC §1: no placeholder and no `[redacted:<name>]` may contain a
    /// match, or a replacement could leak a value.
    fn check_replacements(&self) -> Result<(), CompileError> {
        for (index, secret) in self.engine.secrets.iter().enumerate() {
            let name = secret.name.clone();
            if secret.raw_replacement != secret.redaction
                && let Some((other, form)) = self.first_match(&secret.raw_replacement)
            {
                return Err(CompileError::PlaceholderLeaks {
                    index,
                    name,
                    other_name: self.engine.secrets[other].name.clone(),
                    other,
                    form,
                });
            }
            if let Some((other, form)) = self.first_match(&secret.redaction) {
                return Err(CompileError::RedactionLeaks {
                    index,
                    name,
                    other_name: self.engine.secrets[other].name.clone(),
                    other,
                    form,
                });
            }
        }
        Ok(())
    }

    /// The secret index and form of the first hit in `bytes`, if any.
    fn first_match(&self, bytes: &[u8]) -> Option<(usize, crate::Form)> {
        self.scrub_into(bytes, &mut Vec::new()).first_hit()
    }
}

impl fmt::Debug for Scrubber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scrubber")
            .field(
                "names",
                &self
                    .engine
                    .secrets
                    .iter()
                    .map(|s| &s.name)
                    .collect::<Vec<_>>(),
            )
            .field("same_length", &self.engine.same_length)
            .finish_non_exhaustive()
    }
}
