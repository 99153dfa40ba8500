//! The compiled form of a list of secrets: two automata and, for each of
//! their patterns, who owns it. [`matcher::Matcher`] runs them.

mod automaton;
mod filter;
mod fragments;
mod hash;
pub(crate) mod matcher;
mod seeds;
mod suffix;

use std::collections::HashMap;

use zeroize::Zeroize;

use crate::form::Form;
use crate::patterns_but_fragments;
use crate::secret::Secret;
use automaton::Automaton;
use seeds::{GRAM, GramIndex, Seed};
use suffix::SuffixAutomaton;

/// What the scrubber knows of one secret after compile.
pub(crate) struct CompiledSecret {
    pub(crate) name: String,
    pub(crate) value: Vec<u8>,
    /// The replacement of a raw match: the placeholder, or the redaction.
    pub(crate) raw_replacement: Vec<u8>,
    /// `[redacted:<name>]`, the replacement of every other match.
    pub(crate) redaction: Vec<u8>,
    /// For values longer than a fragment: how far a fragment extends.
    pub(crate) fragments: Option<SuffixAutomaton>,
}

impl CompiledSecret {
    /// The suffix automaton of a value that has fragment windows (longer
    /// than 16 bytes): only such a secret ever has a window or a run.
    pub(crate) fn sam(&self) -> &SuffixAutomaton {
        self.fragments
            .as_ref()
            .expect("a value with windows has a suffix automaton")
    }
}

/// Who a candidate of one distinct pattern belongs to. Identical patterns of
/// several secrets are one entry: the tie rule (form, then secret index)
/// picks the owner once, at compile time.
#[derive(Clone, Default)]
pub(crate) struct Entry {
    /// The owner as a whole pattern: (form, secret).
    pub(crate) owner: Option<(Form, u32)>,
    /// For the CR/LF-free view: the owner when the match spans a line break
    /// (every such match is `wrapped`, so only the secret index decides).
    pub(crate) wrapped_owner: u32,
    /// Fragment windows: the secrets whose value has this window (each
    /// extended along its own value).
    pub(crate) windows: Vec<u32>,
}

pub(crate) struct Engine {
    pub(crate) secrets: Vec<CompiledSecret>,
    pub(crate) same_length: bool,
    /// Raw, fragment, json, percent and html patterns, on the input.
    pub(crate) direct: Automaton,
    pub(crate) direct_entries: Vec<Entry>,
    /// Base64 and hex patterns, on the input with CR and LF removed.
    pub(crate) view: Automaton,
    pub(crate) view_entries: Vec<Entry>,
    /// The bytes of each pattern, by automaton pattern id.
    pub(crate) direct_patterns: Vec<Vec<u8>>,
    pub(crate) view_patterns: Vec<Vec<u8>>,
    /// Seed filters over the input and over the CR/LF-free view.
    pub(crate) direct_seeds: GramIndex,
    pub(crate) view_seeds: GramIndex,
    /// The first 8 bytes of every direct pattern and fragment window, and
    /// of every view pattern, in one set: where no such gram starts, no
    /// candidate can be open at the end of the input.
    pub(crate) starts: GramIndex,
    /// The longest pattern or value: no candidate still open at the end of
    /// the input can start further back than this many bytes (view bytes,
    /// for the wrapped form).
    pub(crate) longest: usize,
}

/// Everything made from the values is wiped when the scrubber goes.
impl Drop for Engine {
    fn drop(&mut self) {
        self.direct_patterns.zeroize();
        self.view_patterns.zeroize();
    }
}

impl Drop for CompiledSecret {
    fn drop(&mut self) {
        self.value.zeroize();
        self.raw_replacement.zeroize();
    }
}

impl Engine {
    /// Builds the automata. The secrets are already validated.
    pub(crate) fn build(secrets: &[Secret], same_length: bool) -> Engine {
        let mut direct = Table::default();
        let mut view = Table::default();
        let mut compiled = Vec::with_capacity(secrets.len());
        for (index, secret) in secrets.iter().enumerate() {
            let index = index as u32;
            // SPEC §1: the rules speak of the trimmed value only.
            let value = secret.trimmed_value();
            for mut pattern in patterns_but_fragments(value) {
                // SPEC §2: a candidate never starts at a CR or LF, so such a
                // pattern never matches (and is never worth holding for).
                if starts_with_line_break(&pattern.bytes) {
                    continue;
                }
                let bytes = std::mem::take(&mut pattern.bytes);
                match pattern.form {
                    Form::Base64 | Form::Hex => {
                        let entry = &mut view.entry(bytes).entry;
                        claim(&mut entry.owner, (pattern.form, index));
                        entry.wrapped_owner = entry.wrapped_owner.min(index);
                    }
                    form => {
                        let entry = &mut direct.entry(bytes).entry;
                        claim(&mut entry.owner, (form, index));
                    }
                }
            }
            // A window that repeats in the value is one pattern with a
            // candidate source per offset.
            if value.len() > crate::FRAGMENT {
                for k in 0..=value.len() - crate::FRAGMENT {
                    let window = value[k..k + crate::FRAGMENT].to_vec();
                    if starts_with_line_break(&window) {
                        continue;
                    }
                    let windows = &mut direct.entry(window).entry.windows;
                    if windows.last() != Some(&index) {
                        windows.push(index);
                    }
                }
            }
            let redaction = format!("[redacted:{}]", secret.name).into_bytes();
            let raw_replacement = match &secret.placeholder {
                Some(p) if !p.is_empty() => p.clone(),
                _ => redaction.clone(),
            };
            compiled.push(CompiledSecret {
                name: secret.name.clone(),
                value: value.to_vec(),
                raw_replacement,
                redaction,
                fragments: (value.len() > crate::FRAGMENT).then(|| SuffixAutomaton::new(value)),
            });
        }
        let (direct_patterns, direct_entries) = direct.finish();
        let (view_patterns, view_entries) = view.finish();
        let direct_seeds = direct_seeds(&direct_patterns, &direct_entries, &compiled);
        let view_seeds = view_seeds(&view_patterns);
        let starts = start_grams(&direct_patterns, &direct_entries, &view_patterns);
        let longest = direct_patterns
            .iter()
            .chain(&view_patterns)
            .map(Vec::len)
            .max()
            .unwrap_or(0);
        Engine {
            secrets: compiled,
            same_length,
            direct: Automaton::new(&direct_patterns),
            direct_entries,
            view: Automaton::new(&view_patterns),
            view_entries,
            direct_patterns,
            view_patterns,
            direct_seeds,
            view_seeds,
            starts,
            longest,
        }
    }

    pub(crate) fn memory_usage(&self) -> usize {
        let entries =
            (self.direct_entries.len() + self.view_entries.len()) * std::mem::size_of::<Entry>();
        let windows: usize = self
            .direct_entries
            .iter()
            .map(|e| e.windows.capacity() * 4)
            .sum();
        let secrets: usize = self
            .secrets
            .iter()
            .map(|s| {
                s.value.len()
                    + s.raw_replacement.len()
                    + s.redaction.len()
                    + s.name.len()
                    + s.fragments
                        .as_ref()
                        .map_or(0, SuffixAutomaton::memory_usage)
            })
            .sum();
        let patterns: usize = self
            .direct_patterns
            .iter()
            .chain(&self.view_patterns)
            .map(|p| p.capacity() + 24)
            .sum();
        self.direct.memory_usage()
            + self.view.memory_usage()
            + self.direct_seeds.memory_usage()
            + self.view_seeds.memory_usage()
            + self.starts.memory_usage()
            + entries
            + windows
            + secrets
            + patterns
    }
}

/// Grams of the direct patterns (each sampled position falls in the first
/// `stride` bytes of an occurrence) and of every value, for fragments.
fn direct_seeds(patterns: &[Vec<u8>], entries: &[Entry], secrets: &[CompiledSecret]) -> GramIndex {
    // A value longer than a fragment is found whole by its fragments (as
    // raw): its own pattern needs no seeds, which for a repetitive value
    // would each verify the whole value at every position.
    let seeded = |(pattern, entry): &(&Vec<u8>, &Entry)| match entry.owner {
        Some((Form::Raw, secret)) => {
            let value = &secrets[secret as usize].value;
            !(value.len() > crate::FRAGMENT && value == *pattern)
        }
        Some(_) => true,
        None => false,
    };
    let has_windows = secrets.iter().any(|s| s.value.len() > crate::FRAGMENT);
    let shortest = patterns
        .iter()
        .zip(entries)
        .filter(seeded)
        .map(|(p, _)| p.len())
        .chain(has_windows.then_some(crate::FRAGMENT))
        .min()
        .unwrap_or(GRAM);
    let mut index = GramIndex::new(shortest + 1 - GRAM);
    for (id, item) in patterns.iter().zip(entries).enumerate() {
        if !seeded(&item) {
            continue;
        }
        for offset in 0..index.stride {
            let seed = Seed::Pattern {
                id: id as u32,
                offset: offset as u32,
            };
            index.insert(&item.0[offset..], seed);
        }
    }
    for (secret, s) in secrets.iter().enumerate() {
        if s.value.len() > crate::FRAGMENT {
            let seed = Seed::Window {
                secret: secret as u32,
            };
            let mut seen = std::collections::HashSet::new();
            for offset in 0..=s.value.len() - GRAM {
                // A value that repeats a gram needs it once.
                if seen.insert(&s.value[offset..offset + GRAM]) {
                    index.insert(&s.value[offset..], seed);
                }
            }
        }
    }
    index.finish()
}

/// The first gram of every pattern that can start a candidate: direct
/// patterns with an owner, fragment windows (their entries list offsets),
/// and view patterns.
fn start_grams(
    direct_patterns: &[Vec<u8>],
    direct_entries: &[Entry],
    view_patterns: &[Vec<u8>],
) -> GramIndex {
    // Which pattern a gram starts does not matter here, only that it does.
    let seed = Seed::Pattern { id: 0, offset: 0 };
    let mut starts = GramIndex::new(1);
    for (pattern, entry) in direct_patterns.iter().zip(direct_entries) {
        if entry.owner.is_some() || !entry.windows.is_empty() {
            starts.insert(pattern, seed);
        }
    }
    for pattern in view_patterns {
        starts.insert(pattern, seed);
    }
    starts.finish()
}

/// Grams of the base64 and hex patterns, for the CR/LF-free view.
fn view_seeds(patterns: &[Vec<u8>]) -> GramIndex {
    let shortest = patterns.iter().map(Vec::len).min().unwrap_or(GRAM);
    let mut index = GramIndex::new(shortest + 1 - GRAM);
    for (id, pattern) in patterns.iter().enumerate() {
        for offset in 0..index.stride {
            let seed = Seed::Pattern {
                id: id as u32,
                offset: offset as u32,
            };
            index.insert(&pattern[offset..], seed);
        }
    }
    index.finish()
}

fn starts_with_line_break(bytes: &[u8]) -> bool {
    matches!(bytes.first(), Some(b'\r' | b'\n'))
}

/// Keeps the owner that wins a tie: the earlier form, then the earlier secret.
fn claim(owner: &mut Option<(Form, u32)>, candidate: (Form, u32)) {
    if owner.is_none_or(|current| candidate < current) {
        *owner = Some(candidate);
    }
}

/// Distinct patterns in the order first seen, with their entries. Every
/// byte of it is made from values: the bytes given for a pattern already
/// listed are wiped, and so is the index when the table is dropped.
#[derive(Default)]
struct Table {
    index: HashMap<Wiped, usize>,
    items: Vec<Item>,
}

/// A pattern's bytes as a key of [`Table::index`], wiped when dropped.
#[derive(PartialEq, Eq, Hash)]
struct Wiped(Vec<u8>);

impl std::borrow::Borrow<[u8]> for Wiped {
    fn borrow(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for Wiped {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

struct Item {
    bytes: Vec<u8>,
    entry: Entry,
}

impl Table {
    fn entry(&mut self, mut bytes: Vec<u8>) -> &mut Item {
        let i = match self.index.get(bytes.as_slice()) {
            Some(&i) => {
                bytes.zeroize();
                i
            }
            None => {
                let i = self.items.len();
                self.index.insert(Wiped(bytes.clone()), i);
                self.items.push(Item {
                    bytes,
                    entry: Entry {
                        wrapped_owner: u32::MAX,
                        ..Entry::default()
                    },
                });
                i
            }
        };
        &mut self.items[i]
    }

    fn finish(self) -> (Vec<Vec<u8>>, Vec<Entry>) {
        self.items.into_iter().map(|i| (i.bytes, i.entry)).unzip()
    }
}
