//! The compiled form of a list of secrets: two automata and, for each of
//! their patterns, who owns it. [`matcher::Matcher`] runs them.

mod automaton;
pub(crate) mod matcher;

use std::collections::HashMap;

use crate::form::Form;
use crate::patterns::patterns;
use crate::secret::Secret;
use automaton::Automaton;

/// What the scrubber knows of one secret after compile.
pub(crate) struct CompiledSecret {
    pub(crate) name: String,
    pub(crate) value: Vec<u8>,
    /// The replacement of a raw match: the placeholder, or the redaction.
    pub(crate) raw_replacement: Vec<u8>,
    /// `[redacted:<name>]`, the replacement of every other match.
    pub(crate) redaction: Vec<u8>,
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
    /// Fragment windows: (secret, offset in its value), each extended along
    /// its own value.
    pub(crate) windows: Vec<(u32, u32)>,
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
}

impl Engine {
    /// Builds the automata. The secrets are already validated.
    pub(crate) fn build(secrets: &[Secret], same_length: bool) -> Engine {
        let mut direct = Table::default();
        let mut view = Table::default();
        let mut compiled = Vec::with_capacity(secrets.len());
        for (index, secret) in secrets.iter().enumerate() {
            let index = index as u32;
            for pattern in patterns(&secret.value) {
                match pattern.form {
                    // Added below, one candidate source per offset.
                    Form::Fragment => {}
                    Form::Base64 | Form::Hex => {
                        let entry = &mut view.entry(pattern.bytes).entry;
                        claim(&mut entry.owner, (pattern.form, index));
                        entry.wrapped_owner = entry.wrapped_owner.min(index);
                    }
                    form => {
                        let entry = &mut direct.entry(pattern.bytes).entry;
                        claim(&mut entry.owner, (form, index));
                    }
                }
            }
            // A window that repeats in the value is one pattern with a
            // candidate source per offset.
            let value = &secret.value;
            if value.len() > crate::FRAGMENT {
                for k in 0..=value.len() - crate::FRAGMENT {
                    let window = value[k..k + crate::FRAGMENT].to_vec();
                    direct.entry(window).entry.windows.push((index, k as u32));
                }
            }
            let redaction = format!("[redacted:{}]", secret.name).into_bytes();
            let raw_replacement = match &secret.placeholder {
                Some(p) if !p.is_empty() => p.clone(),
                _ => redaction.clone(),
            };
            compiled.push(CompiledSecret {
                name: secret.name.clone(),
                value: secret.value.clone(),
                raw_replacement,
                redaction,
            });
        }
        let (direct, direct_entries) = direct.finish();
        let (view, view_entries) = view.finish();
        Engine {
            secrets: compiled,
            same_length,
            direct,
            direct_entries,
            view,
            view_entries,
        }
    }

    pub(crate) fn memory_usage(&self) -> usize {
        let entries =
            (self.direct_entries.len() + self.view_entries.len()) * std::mem::size_of::<Entry>();
        let windows: usize = self
            .direct_entries
            .iter()
            .map(|e| e.windows.capacity() * 8)
            .sum();
        let secrets: usize = self
            .secrets
            .iter()
            .map(|s| s.value.len() + s.raw_replacement.len() + s.redaction.len() + s.name.len())
            .sum();
        self.direct.memory_usage() + self.view.memory_usage() + entries + windows + secrets
    }
}

/// Keeps the owner that wins a tie: the earlier form, then the earlier secret.
fn claim(owner: &mut Option<(Form, u32)>, candidate: (Form, u32)) {
    if owner.is_none_or(|current| candidate < current) {
        *owner = Some(candidate);
    }
}

/// Distinct patterns in the order first seen, with their entries.
#[derive(Default)]
struct Table {
    index: HashMap<Vec<u8>, usize>,
    items: Vec<Item>,
}

struct Item {
    bytes: Vec<u8>,
    entry: Entry,
}

impl Table {
    fn entry(&mut self, bytes: Vec<u8>) -> &mut Item {
        let next = self.items.len();
        let i = *self.index.entry(bytes.clone()).or_insert(next);
        if i == next {
            self.items.push(Item {
                bytes,
                entry: Entry {
                    wrapped_owner: u32::MAX,
                    ..Entry::default()
                },
            });
        }
        &mut self.items[i]
    }

    fn finish(self) -> (Automaton, Vec<Entry>) {
        let (patterns, entries): (Vec<_>, Vec<_>) =
            self.items.into_iter().map(|i| (i.bytes, i.entry)).unzip();
        (Automaton::new(&patterns), entries)
    }
}
