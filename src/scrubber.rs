//! Compile and the compiled scrubber.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use zeroize::Zeroizing;

use crate::engine::matcher::{Matcher, Source};
use crate::engine::{Automaton, CompiledSecret, Engine, LONGEST, PatternsTooLarge};
use crate::error::CompileError;
use crate::form::Hit;
use crate::secret::{Options, Secret};
use crate::stream::Stream;
use crate::{
    FRAGMENT, MAX_NAME, MAX_PLACEHOLDER, MAX_TOTAL_VALUES, MAX_VALUE, MIN_VALUE, RULES_VERSION,
};

/// A compiled list of secrets. Immutable, `Send + Sync`, and cheap to clone
/// (an `Arc`): share one across threads and streams.
///
/// ```
/// use slicc_scrub::{compile, Options, Secret, RULES_VERSION};
///
/// let scrubber = compile(&[Secret::new("DB", "correct horse battery staple")], &Options::new(RULES_VERSION))?;
/// let worker = scrubber.clone();
/// let out = std::thread::spawn(move || worker.text("pw=correct horse battery staple").text).join().unwrap();
/// assert_eq!(out, "pw=[redacted:DB]");
/// assert_eq!(scrubber.len(), 1);
/// # Ok::<(), slicc_scrub::CompileError>(())
/// ```
#[derive(Clone)]
pub struct Scrubber {
    engine: Arc<Engine>,
}

/// The result of [`Scrubber::bytes`]. A later version may add fields.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Scrubbed {
    /// The input with every match replaced.
    pub output: Vec<u8>,
    /// What was replaced, per secret and form.
    pub hits: Vec<Hit>,
}

/// The result of [`Scrubber::text`]. A later version may add fields.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ScrubbedText {
    /// The input with every match replaced.
    pub text: String,
    /// What was replaced, per secret and form.
    pub hits: Vec<Hit>,
}

/// Validates `secrets` (SPEC §1) and builds a scrubber for them.
///
/// # Errors
///
/// A [`CompileError`] when `options.version` is not [`RULES_VERSION`], or
/// when a secret breaks a rule of SPEC §1 (its name, its value's length:
/// at most [`crate::MAX_VALUE`] as given, at least [`crate::MIN_VALUE`]
/// once trimmed, its placeholder's length, or a replacement that would
/// contain a match), or when the secrets are more than one scrubber holds
/// ([`CompileError::TooLarge`], see [`crate::MAX_TOTAL_VALUES`]). The
/// error names the secret by index, and by name unless that holds a match
/// of some secret, a placeholder or a piece of a value.
///
/// ```
/// use slicc_scrub::{compile, Options, Secret, RULES_VERSION};
///
/// let scrubber = compile(
///     &[Secret::new("API_KEY", "sk-live-0123456789")],
///     &Options::new(RULES_VERSION),
/// )?;
/// assert_eq!(scrubber.text("key=sk-live-0123456789").text, "key=[redacted:API_KEY]");
/// # Ok::<(), slicc_scrub::CompileError>(())
/// ```
pub fn compile(secrets: &[Secret], options: &Options) -> Result<Scrubber, CompileError> {
    if options.version != RULES_VERSION {
        return Err(CompileError::UnsupportedVersion {
            version: options.version,
        });
    }
    build(secrets, options)
        .map_err(|error| error.hide_names(|index| name_holds_match(secrets, &secrets[index].name)))
}

fn build(secrets: &[Secret], options: &Options) -> Result<Scrubber, CompileError> {
    validate(secrets)?;
    let engine =
        Engine::compile(secrets, options.same_length).map_err(|PatternsTooLarge { index }| {
            CompileError::TooLarge {
                index,
                name: Some(secrets[index].name.clone()),
            }
        })?;
    let scrubber = Scrubber {
        engine: Arc::new(engine),
    };
    scrubber.check_replacements()?;
    Ok(scrubber)
}

/// For an error message: whether `name` must not be shown (SPEC §1): it
/// holds a match of some pattern of some secret, or a value that does not
/// compile, or a placeholder. Only called on the error path, for the one or
/// two names an error shows.
fn name_holds_match(secrets: &[Secret], name: &str) -> bool {
    let name = name.as_bytes();
    let compiles = |s: &&Secret| s.value.len() <= MAX_VALUE && s.trimmed_value().len() >= MIN_VALUE;
    // Every pattern but a fragment window is at least as long as its value,
    // so only values up to the name's length can match whole; names and
    // placeholders play no part in matching.
    let short: Vec<Secret> = secrets
        .iter()
        .filter(compiles)
        .filter(|s| s.trimmed_value().len() <= name.len())
        .map(|s| Secret::new("x", s.trimmed_value()))
        .collect();
    // Secrets too many for one engine: every name is hidden rather than
    // checked (this is only an error's message).
    let Ok(engine) = Engine::compile(&short, false) else {
        return true;
    };
    let short = Scrubber {
        engine: Arc::new(engine),
    };
    if short.first_match(name).is_some() {
        return true;
    }
    // A 16-byte piece of any value, as given: a fragment window of a longer
    // one, and also a window that starts at a line break (never a candidate,
    // SPEC §3, yet bytes of a value all the same) or one of a value that is
    // too long to compile.
    if name.len() >= FRAGMENT {
        let values = secrets
            .iter()
            .map(|s| &s.value[..])
            .filter(|v| v.len() >= FRAGMENT);
        if any_occurs(name.windows(FRAGMENT).collect(), values) {
            return true;
        }
    }
    // Whatever else no message may show.
    let others: Vec<&[u8]> = secrets
        .iter()
        .filter(|s| !compiles(s))
        .map(|s| s.trimmed_value())
        .chain(secrets.iter().filter_map(|s| s.placeholder.as_deref()))
        .filter(|bytes| !bytes.is_empty() && bytes.len() <= name.len())
        .collect();
    any_occurs(others, std::iter::once(name))
}

/// Whether one of `needles` occurs in one of `haystacks`: through the
/// engine's automaton, whose memory is wiped (the needles may be values);
/// a needle longer than it takes (on this error path only) by comparing.
fn any_occurs<'a>(mut needles: Vec<&[u8]>, mut haystacks: impl Iterator<Item = &'a [u8]>) -> bool {
    // Distinct, so that few end at one position.
    needles.sort_unstable();
    needles.dedup();
    let (short, long): (Vec<&[u8]>, Vec<&[u8]>) =
        needles.into_iter().partition(|n| n.len() <= LONGEST);
    let automaton = Automaton::new(&short);
    haystacks.any(|haystack| {
        automaton.occurs_in(haystack)
            || long
                .iter()
                .any(|n| haystack.windows(n.len()).any(|w| w == *n))
    })
}

fn validate(secrets: &[Secret]) -> Result<(), CompileError> {
    let mut names: HashMap<&str, usize> = HashMap::with_capacity(secrets.len());
    // The values' bytes so far, trimmed.
    let mut total = 0usize;
    for (index, secret) in secrets.iter().enumerate() {
        let name = || Some(secret.name.clone()); // only for an error
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
        // Of all the secrets so far, after this one's own rules (as the C
        // ABI, which stands in for an oversized field, reports them).
        total += len; // the trimmed value's
        if total > MAX_TOTAL_VALUES {
            return Err(CompileError::TooLarge {
                index,
                name: name(),
            });
        }
    }
    Ok(())
}

impl Scrubber {
    /// Scrubs `input` in one piece: SPEC §3.
    ///
    /// ```
    /// use slicc_scrub::{compile, Options, Secret, RULES_VERSION};
    ///
    /// let scrubber = compile(&[Secret::new("DB", "correct horse battery staple")], &Options::new(RULES_VERSION))?;
    /// // base64 of the value, cut at any alignment, is found too
    /// let out = scrubber.bytes(b"auth: Y29ycmVjdCBob3JzZSBiYXR0ZXJ5IHN0YXBsZQ==");
    /// assert_eq!(out.output, b"auth: [redacted:DB]");
    /// # Ok::<(), slicc_scrub::CompileError>(())
    /// ```
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
        // The matcher reads the input in place: nothing is copied in.
        let mut matcher = Matcher::new(&self.engine);
        matcher.feed(&self.engine, input, 0, output, Source::InPlace);
        matcher.finish(&self.engine, input, 0, output);
        matcher
    }

    /// Scrubs the UTF-8 bytes of `input`, then decodes the result with
    /// U+FFFD for any broken sequence (a fragment may cut a character).
    ///
    /// ```
    /// use slicc_scrub::{compile, Options, Secret, RULES_VERSION};
    ///
    /// let scrubber = compile(&[Secret::new("DB", "correct horse battery staple")], &Options::new(RULES_VERSION).same_length(true))?;
    /// assert_eq!(scrubber.text("pw=correct horse battery staple").text, "pw=****************************");
    /// # Ok::<(), slicc_scrub::CompileError>(())
    /// ```
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
    ///
    /// ```
    /// use slicc_scrub::{compile, Options, Secret, RULES_VERSION};
    ///
    /// let scrubber = compile(&[Secret::new("DB", "correct horse battery staple")], &Options::new(RULES_VERSION))?;
    /// let mut stream = scrubber.stream();
    /// let mut out = stream.push(b"pw=correct horse ")?;
    /// out.extend(stream.push(b"battery staple\n")?);
    /// out.extend(stream.end()?);
    /// assert_eq!(out, b"pw=[redacted:DB]\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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

    /// Heap bytes the scrubber holds: its automata, tables and filters,
    /// the compiled secrets and the engine that owns them (hash maps by
    /// their capacity, so a close estimate). Streams hold their own small
    /// buffers on top.
    ///
    /// ```
    /// use slicc_scrub::{compile, Options, Secret, RULES_VERSION};
    ///
    /// let secret = Secret::new("DB", "correct horse battery staple");
    /// let scrubber = compile(&[secret], &Options::new(RULES_VERSION))?;
    /// assert!(scrubber.memory_usage() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn memory_usage(&self) -> usize {
        self.engine.memory_usage()
    }

    /// SPEC §1: no placeholder and no `[redacted:<name>]` may contain a
    /// match, or a replacement could leak a value.
    fn check_replacements(&self) -> Result<(), CompileError> {
        let name = |index: usize| Some(self.engine.secrets[index].name().to_owned());
        // The scrubbed placeholders land here: one buffer, sized so that it
        // never grows (a grown one would free a copy unwiped), wiped at the
        // end. A match spans at least MIN_VALUE bytes.
        let secrets = &self.engine.secrets;
        let longest = |f: fn(&CompiledSecret) -> usize| secrets.iter().map(f).max().unwrap_or(0);
        let input = longest(|s| s.raw_replacement().len());
        let replacement = longest(|s| s.raw_replacement().len().max(s.redaction().len()));
        let bound = input + (input / MIN_VALUE + 1) * replacement;
        let mut out = Zeroizing::new(Vec::with_capacity(bound));
        for (index, secret) in self.engine.secrets.iter().enumerate() {
            if secret.raw_replacement() != secret.redaction()
                && let Some((other, form)) =
                    self.first_match_into(secret.raw_replacement(), &mut out)
            {
                return Err(CompileError::PlaceholderLeaks {
                    index,
                    name: name(index),
                    other,
                    other_name: name(other),
                    form,
                });
            }
            if let Some((other, form)) = self.first_match(secret.redaction()) {
                return Err(CompileError::RedactionLeaks {
                    index,
                    name: name(index),
                    other,
                    other_name: name(other),
                    form,
                });
            }
        }
        Ok(())
    }

    /// The secret index and form of the first hit in `bytes`, if any.
    fn first_match(&self, bytes: &[u8]) -> Option<(usize, crate::Form)> {
        self.first_match_into(bytes, &mut Vec::new())
    }

    /// As [`Scrubber::first_match`], scrubbing into `out` (cleared first).
    fn first_match_into(&self, bytes: &[u8], out: &mut Vec<u8>) -> Option<(usize, crate::Form)> {
        out.clear();
        self.scrub_into(bytes, out).first_hit()
    }
}

/// The output's length and the hits, not the output: it holds the
/// placeholders of what it replaced (SPEC §1: no `Debug` output shows one).
impl fmt::Debug for Scrubbed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_result(f, "Scrubbed", ("output", self.output.len()), &self.hits)
    }
}

/// As [`Scrubbed`]'s: the text's length and the hits.
impl fmt::Debug for ScrubbedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_result(f, "ScrubbedText", ("text", self.text.len()), &self.hits)
    }
}

/// The `Debug` of a result: its output field's length, and its hits.
fn debug_result(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    (field, len): (&str, usize),
    hits: &[Hit],
) -> fmt::Result {
    f.debug_struct(name)
        .field(field, &format_args!("<{len} bytes>"))
        .field("hits", &hits)
        .finish()
}

/// No names: a compiled name holds no match of any pattern (the compile
/// checks its redaction), but it can hold a placeholder (SPEC §1).
impl fmt::Debug for Scrubber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scrubber")
            .field("secrets", &self.engine.secrets.len())
            .field("same_length", &self.engine.same_length)
            .finish_non_exhaustive()
    }
}
