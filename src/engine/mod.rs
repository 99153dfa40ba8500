//! The compiled form of a list of secrets: two automata over the bounded
//! prefixes of the patterns (the direct one on the input, the other on its
//! CR/LF-free view), the patterns themselves to verify what follows a
//! prefix, the suffix automaton of every value for fragments, and the seed
//! filters for large pushes. [`matcher::Matcher`] runs them.

pub(crate) mod append;
mod automaton;
mod candidates;
mod end_breaks;
pub(crate) mod exact_fours;
mod exact_rows;
pub(crate) mod exact_starts;
mod filter;
mod following;
mod fragments;
mod hash;
pub(crate) mod hashed_starts;
mod ids_by_hash;
mod inert;
mod layout;
pub(crate) mod matcher;
mod opens;
mod output_room;
mod prefetch;
mod seeds;
mod short;
mod starts;
mod suffix;
mod table;
mod tail;
mod verify;
mod wipe;

use zeroize::Zeroize;

use crate::FRAGMENT;
use crate::form::Form;
use crate::patterns::Pattern;
use crate::patterns_but_fragments;
use crate::secret::Secret;
pub(crate) use automaton::{Automaton, LONGEST};
use exact_rows::ExactRows;
use exact_starts::{EXACT, ExactStarts};
use inert::InertBytes;
use seeds::{Fold, GRAM, GramIndex, GramSet, MAX_STRIDE, Probe, VALUE_BITS_PER_GRAM, gram};
use short::{SHORTEST, ShortStarts};
use starts::Starts;
use suffix::SuffixAutomaton;
use table::{Full, Table, TableBuilder};
use tail::TAIL;

/// What the scrubber knows of one secret after compile: its redaction
/// (which holds its name) and its placeholder, in one allocation each.
pub(crate) struct CompiledSecret {
    /// `[redacted:<name>]`, the replacement of every match but a raw one
    /// with a placeholder.
    redaction: Box<[u8]>,
    /// The replacement of a raw match, when it is not the redaction.
    placeholder: Option<Box<[u8]>>,
}

const REDACTED: &str = "[redacted:";

/// Bits of room a gram in `Engine::direct_first`: with its pattern of five
/// bits in one word (see `Probe::Pattern`), about one sampled gram in 50
/// of the benchmark's text at 10,000 tokens passes (with two bits, as
/// before, one in 24: the pattern read 1.04 to 1.09 x `bytes` there), and
/// the set (420 KB at 10,000 tokens, 660 KB at 10 x 64 KiB) stays in the
/// second-level cache beside what else a scan reads. The pattern at 6 or
/// 12 bits read as 8. Before it, two bits a gram at 8 bits of room
/// against 4 (where one in 6 passed; with second pairs, which a set of
/// 512 KiB or more set, at 10 x 64 KiB from 7 bits a gram, about as many
/// pass its first pairs): 4 KiB pushes 1.01 to 1.07 x at 10 x 64 KiB and
/// 100 x 4 KiB; `bytes` 1.03 to 1.06 at 10 x 64 KiB, 0.94 to 1.05 at 100
/// x 4 KiB, 0.985 to 1.03 at 10,000 tokens (both sets in one engine,
/// switched, rounds alternated; two sets the same read 0.99 to 1.05 x so:
/// at 10,000 tokens no gain beyond that); at 5 or 6 bits about as much. A
/// first set for the view's index (whose bitmap every view sample reads
/// at 10,000 tokens) was slower, 0.80 to 0.89 x.
const FIRST_BITS_PER_GRAM: usize = 8;

/// Offsets at which a pattern's gram is in `Engine::tail_grams`: a
/// candidate open at the end from a position of the tail (the last
/// [`TAIL`] view bytes) after its last CR or LF holds the input's last gram
/// at one of them.
const TAIL_OFFSETS: usize = TAIL - GRAM + 1;

/// Bits of room a gram in `Engine::tail_grams`: about 3 in 100 grams that
/// are none of them pass. 40-byte values have 4.8 such grams a byte, so the
/// set costs 4.8 bytes a byte of value (a long value almost none).
const TAIL_BITS_PER_GRAM: usize = 8;

impl CompiledSecret {
    fn new(secret: &Secret) -> CompiledSecret {
        CompiledSecret {
            redaction: format!("{REDACTED}{}]", secret.name)
                .into_bytes()
                .into_boxed_slice(),
            placeholder: match &secret.placeholder {
                Some(p) if !p.is_empty() => Some(p.clone().into_boxed_slice()),
                _ => None,
            },
        }
    }

    /// The secret's name, as given.
    pub(crate) fn name(&self) -> &str {
        let name = &self.redaction[REDACTED.len()..self.redaction.len() - 1];
        std::str::from_utf8(name).expect("made from a String")
    }

    /// `[redacted:<name>]`.
    pub(crate) fn redaction(&self) -> &[u8] {
        &self.redaction
    }

    /// What a raw match is replaced by: the placeholder, or the redaction.
    pub(crate) fn raw_replacement(&self) -> &[u8] {
        self.placeholder.as_deref().unwrap_or(&self.redaction)
    }

    fn memory_usage(&self) -> usize {
        std::mem::size_of::<CompiledSecret>()
            + self.redaction.len()
            + self.placeholder.as_ref().map_or(0, |p| p.len())
    }
}

pub(crate) struct Engine {
    pub(crate) secrets: Vec<CompiledSecret>,
    pub(crate) same_length: bool,
    /// Raw, json, percent and html patterns, on the input.
    pub(crate) direct: Automaton,
    pub(crate) direct_table: Table,
    /// Base64 and hex patterns, on the input with CR and LF removed.
    pub(crate) view: Automaton,
    pub(crate) view_table: Table,
    /// Every value longer than a fragment: fragments, and raw matches of
    /// such values.
    pub(crate) values: SuffixAutomaton,
    /// Seed filters over the input and over the CR/LF-free view.
    pub(crate) direct_seeds: GramIndex,
    pub(crate) view_seeds: GramIndex,
    /// The grams of the values longer than a fragment.
    pub(crate) value_grams: GramSet,
    /// The union of `direct_seeds` and `value_grams`: one probe rejects
    /// almost every sampled gram of the input.
    pub(crate) direct_any: GramSet,
    /// Where `direct_any` is too large for the second-level cache (10,000
    /// tokens: 1.7 MB, beside the view's index), the same grams in a set a
    /// quarter its size that the samples are tested against first (see
    /// `filter::for_each_passing_twice`): most fail there, in the cache,
    /// and only the few that pass wait on `direct_any`'s memory.
    pub(crate) direct_first: Option<GramSet>,
    /// The first gram of every pattern (direct and view): where none
    /// starts, no candidate of a pattern can be open at the end of the
    /// input.
    pub(crate) starts: Starts,
    /// The grams of every pattern at each offset up to [`TAIL_OFFSETS`]:
    /// where the last gram of the input is none of them, no candidate of a
    /// pattern that starts after the last CR or LF of a push's tail can be
    /// open at its end, and the stepper's start is not looked for there
    /// position by position.
    pub(crate) tail_grams: GramSet,
    /// The first 3 to 7 bytes of every pattern and window (in a large
    /// set): where the stepper need not start in the last 7 bytes of a
    /// push.
    pub(crate) short_starts: ShortStarts,
    /// The first 1 to 4 bytes of every pattern and window, exactly, and
    /// the strings one byte longer, hashed: a push of one byte, and a
    /// push's tail of up to 7 bytes (9 with a CR or LF), is decided, and
    /// what of it begins one held, without a step.
    pub(crate) exact_starts: ExactStarts,
    /// The bytes that begin nothing: pushed one at a time to a stream at
    /// rest, they are emitted without a step; and those that end
    /// everything, which the stepper does not step through the automata.
    pub(crate) inert: InertBytes,
    /// Whether a direct pattern holds a CR or LF (a value with one, in a
    /// form that keeps it): where none does, a direct pattern open at the
    /// end of a push starts after its last CR or LF.
    pub(crate) direct_breaks: bool,
    /// Whether the engine is small enough to stay in a second-level cache
    /// (see [`Engine::steps_quickly`]).
    small: bool,
}

/// An engine of at most this many bytes stays in a second-level cache
/// beside what a scan reads: stepping a byte there takes some 20
/// nanoseconds, not the 60 of an engine that waits on memory.
const SMALL_ENGINE: usize = 512 * 1024;

/// From this many bytes of values on, [`Engine::exact_starts`] holds the
/// strings of 3 bytes too (2 MiB, 8 bytes a value byte at most): at 10 x
/// 64 KiB almost every string of 3 bytes of base64 text begins a window,
/// and about half of the tails stepped were 3 bytes long.
const EXACT_THREE_FROM: usize = 256 * 1024;

/// From short starts of every length of this many bytes on (beyond half the
/// last-level cache; about 3 million starts of patterns and windows),
/// where the exact starts hold the strings of 4 bytes, they tell the ends
/// of 3 to 5 bytes and the short starts hold those of 6 and 7 only:
/// 100 x 64 KiB's short starts take 13 MB against 33 MB and 0.12 to 0.15 s
/// against 0.51 to 0.52 s to make. Not below: at 100 x 4 KiB, 64 B pushes
/// ran 0.89 to 0.94 x so (the exact starts' lines asked for there cost
/// more than those of the short starts, then in the cache).
const SHORTENED_FROM: usize = 16 << 20;

/// Where the strings of 4 bytes keep the engine's memory within this many
/// bytes a byte of value, [`Engine::exact_starts`] holds them too (from
/// [`EXACT_THREE_FROM`] bytes of values: at 10 x 64 KiB a string of 3
/// bytes of text most often begins a window, and one of 4 one time in
/// twenty-five); 16 short of the bound of 128, for the hashed strings of 5
/// bytes and the rest.
const FOURS_WITHIN: usize = 112;

/// From an engine of this many bytes on, [`Engine::exact_starts`] holds
/// the strings of 2 bytes in a bitmap (8 KiB: a sixteenth of it at most),
/// and those of 3 in rows (see `ExactRows`: 128 KiB and about a byte a
/// string) where [`ROWS_WITHIN`] allows; in a smaller one, those of 2
/// bytes in rows (514 bytes and a word for each first byte's 8 strings or
/// fewer) where [`SMALL_ROWS_WITHIN`] allows, so that the memory a value
/// byte stays in bound.
const EXACT_TWO_FROM: usize = 128 * 1024;

/// Where the strings of 3 bytes in rows keep the engine's memory within
/// this many bytes a byte of value, [`Engine::exact_starts`] holds them
/// (below [`EXACT_THREE_FROM`] bytes of values: at 1,000 tokens of 40
/// bytes, where one push of one byte in six was stepped without them,
/// not at 100, where the rows' table of prefixes alone is a quarter of the
/// engine).
const ROWS_WITHIN: usize = 120;

/// Where the strings of 2 bytes in rows keep a small engine within this
/// many bytes a byte of value (the bound itself: nothing is added after
/// them), [`Engine::exact_starts`] holds them, else those of 1 byte: 10
/// tokens of 40 bytes take 125 bytes a byte with them (about 122
/// without), 8 tokens of 40 bytes 127.2 without them; where they are
/// held, one push of one byte in fifty-five is stepped, one in ten
/// without them.
const SMALL_ROWS_WITHIN: usize = 128;

/// How long the strings [`Engine::exact_starts`] holds are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Exact {
    /// Set by the engine's size: 2 bytes, in rows (in an engine smaller
    /// than [`EXACT_TWO_FROM`]); 3, in rows, where [`ROWS_WITHIN`] allows,
    /// else 2; 3 from [`EXACT_THREE_FROM`] bytes of values, 4 where
    /// [`FOURS_WITHIN`] allows.
    BySize,
    /// This long (the tests: so that small engines hold strings as long
    /// as large ones; 0: nothing held, the one-byte push and a push's tail
    /// stepped).
    #[cfg_attr(not(any(test, fuzzing)), allow(dead_code))]
    Longest(usize),
    /// [`Exact::Longest`] (2 or 3), the longest strings in rows.
    #[cfg_attr(not(any(test, fuzzing)), allow(dead_code))]
    LongestInRows(usize),
}

/// A placeholder is secret too: wiped when the scrubber goes. (What is made
/// of the values lives in wiped buffers of its own: README, "Secrets in
/// memory".)
impl Drop for CompiledSecret {
    fn drop(&mut self) {
        if let Some(placeholder) = &mut self.placeholder {
            placeholder.zeroize();
        }
    }
}

/// The secrets are more than one engine holds (see
/// [`crate::CompileError::TooLarge`]): the patterns of those up to `index`
/// would take a table past 4 GiB.
#[derive(Debug)]
pub(crate) struct PatternsTooLarge {
    pub(crate) index: usize,
}

impl Engine {
    /// Builds the automata. The secrets are already validated, their values
    /// within [`crate::MAX_TOTAL_VALUES`].
    ///
    /// # Errors
    /// [`PatternsTooLarge`] where their patterns are more than a table holds.
    pub(crate) fn compile(
        secrets: &[Secret],
        same_length: bool,
    ) -> Result<Engine, PatternsTooLarge> {
        // The fuzzer reaches the held tails in the small engines it builds,
        // of each length in turn.
        #[cfg(fuzzing)]
        let exact = match (1 + secrets.len() % EXACT, secrets.len() / EXACT % 2) {
            (longest @ (2 | 3), 1) => Exact::LongestInRows(longest),
            (longest, _) => Exact::Longest(longest),
        };
        #[cfg(not(fuzzing))]
        let exact = Exact::BySize;
        Engine::compile_within(secrets, same_length, exact, table::MAX_BYTES)
    }

    /// [`Engine::compile`] of a test's secrets, which fit.
    #[cfg(test)]
    pub(crate) fn build(secrets: &[Secret], same_length: bool) -> Engine {
        Engine::compile(secrets, same_length).expect("a test's secrets fit an engine")
    }

    /// [`Engine::compile`] of a test's secrets, which fit, its exact
    /// starts as `exact` says.
    #[cfg(test)]
    pub(crate) fn build_with(secrets: &[Secret], same_length: bool, exact: Exact) -> Engine {
        Engine::compile_within(secrets, same_length, exact, table::MAX_BYTES)
            .expect("a test's secrets fit an engine")
    }

    /// [`Engine::compile`], its exact starts as `exact` says and each table
    /// of patterns holding at most `table_bytes`.
    fn compile_within(
        secrets: &[Secret],
        same_length: bool,
        exact: Exact,
        table_bytes: usize,
    ) -> Result<Engine, PatternsTooLarge> {
        let mut direct = TableBuilder::with_limit(table_bytes);
        let mut view = TableBuilder::with_limit(table_bytes);
        let total: usize = secrets.iter().map(|s| s.trimmed_value().len()).sum();
        let (mut done, mut reserved) = (0, false);
        for (index, secret) in secrets.iter().enumerate() {
            // SPEC §1: the rules speak of the trimmed value only.
            let value = secret.trimmed_value();
            // An eighth of the values in, the rest's room at their rate.
            if !reserved && done >= total / 8 {
                direct.reserve_at_rate(done, total);
                view.reserve_at_rate(done, total);
                reserved = true;
            }
            done += value.len();
            // Added as they are made, then dropped (each pattern wipes its
            // bytes): one secret's patterns at a time, in the cache.
            let mut patterns = patterns_but_fragments(value);
            // SPEC §2: a candidate never starts at a CR or LF, so such a
            // pattern never matches (and is never worth holding for). A
            // value longer than a fragment is found whole by the suffix
            // automaton, as raw.
            patterns.retain(|p| {
                let whole_long_value =
                    p.form == Form::Raw && value.len() > FRAGMENT && p.bytes == value;
                !starts_with_line_break(&p.bytes) && !whole_long_value
            });
            let in_view = |p: &Pattern| matches!(p.form, Form::Base64 | Form::Hex);
            // What each add probes first, asked for before the first: at
            // 10,000 tokens the indexes are beyond the second-level cache
            // and each probe was a miss after the one before (this part of
            // compile took 0.96 to 0.98 of its time so, best of 40 and
            // median; its control 0.93 to 1.01).
            for p in &patterns {
                let table = if in_view(p) { &view } else { &direct };
                table.prefetch(&p.bytes);
            }
            for p in &patterns {
                let table = if in_view(p) { &mut view } else { &mut direct };
                table
                    .add(&p.bytes, p.form, index as u32)
                    .map_err(|Full| PatternsTooLarge { index })?;
            }
        }
        let direct_table = direct.finish();
        let view_table = view.finish();
        let long = || {
            secrets
                .iter()
                .enumerate()
                .map(|(i, s)| (i as u32, s.trimmed_value()))
                .filter(|(_, v)| v.len() > FRAGMENT)
        };
        let values = SuffixAutomaton::new(long());
        // Laid out once for the three sets that hold them, where many.
        let grouped = seeds::grams_by_word(long().map(|(_, v)| v));
        let grouped = grouped.as_ref().map(|grams| &grams[..]);
        let value_grams = GramSet::of_grams_grouped(
            std::iter::empty(),
            long().map(|(_, v)| v),
            grouped,
            VALUE_BITS_PER_GRAM,
            Probe::BySize,
        );
        let compiled = secrets.iter().map(CompiledSecret::new).collect();
        let has_windows = !value_grams.is_empty();
        let direct_seeds = seed_index(&direct_table, has_windows, Fold::None);
        let view_seeds = seed_index(&view_table, false, Fold::Case);
        let sampled = direct_seeds.stride + GRAM - 1;
        let prefixes = || {
            direct_table
                .patterns()
                .map(|pattern| &pattern[..sampled.min(pattern.len())])
        };
        let any_grams = |bits, pairs| {
            GramSet::of_grams_grouped(prefixes(), long().map(|(_, v)| v), grouped, bits, pairs)
        };
        let direct_any = any_grams(VALUE_BITS_PER_GRAM, Probe::BySize);
        let direct_first = direct_any
            .is_large()
            .then(|| any_grams(FIRST_BITS_PER_GRAM, Probe::Pattern));
        let firsts = [&direct_table, &view_table]
            .into_iter()
            .flat_map(|t| t.patterns().map(|pattern| &pattern[..GRAM]));
        let starts = Starts::new(firsts);
        let tail_grams = tail_grams(&direct_table, &view_table);
        let direct_automaton = automaton_of(&direct_table);
        let view_automaton = automaton_of(&view_table);
        let every = direct_table
            .patterns()
            .chain(view_table.patterns())
            .chain(long().map(|(_, v)| v));
        let inert = InertBytes::new(&direct_automaton, &view_automaton, &values, every);
        let direct_breaks = direct_table
            .patterns()
            .any(|p| memchr::memchr2(b'\r', b'\n', p).is_some());
        let mut engine = Engine {
            secrets: compiled,
            same_length,
            direct: direct_automaton,
            direct_table,
            view: view_automaton,
            view_table,
            values,
            direct_seeds,
            view_seeds,
            value_grams,
            direct_any,
            direct_first,
            starts,
            tail_grams,
            // Made below, once the engine's size is known.
            short_starts: ShortStarts::none(),
            exact_starts: ExactStarts::none(),
            inert,
            direct_breaks,
            small: false,
        };
        // Before the exact starts, which are sized by it, with short starts
        // of every length (which they may shorten).
        let tables = [&engine.direct_table, &engine.view_table];
        let every_length = ShortStarts::memory_for(tables, long().map(|(_, v)| v), SHORTEST);
        let size = engine.memory_usage() - engine.short_starts.memory_usage() + every_length;
        engine.small = size <= SMALL_ENGINE;
        let value_bytes: usize = long().map(|(_, v)| v.len()).sum();
        let (longest, in_rows) = match exact {
            Exact::Longest(longest) => (longest, false),
            Exact::LongestInRows(longest) => (longest, true),
            Exact::BySize if value_bytes >= EXACT_THREE_FROM => {
                let fours = ExactStarts::fours_memory(tables, long().map(|(_, v)| v));
                match size + fours <= FOURS_WITHIN * value_bytes {
                    true => (EXACT, false),
                    false => (EXACT - 1, false),
                }
            }
            // Where the rows' table of prefixes alone would exceed it, not
            // built to be dropped (100 tokens).
            Exact::BySize
                if size >= EXACT_TWO_FROM
                    && size + ExactRows::starts_memory(3) <= ROWS_WITHIN * value_bytes =>
            {
                (3, true)
            }
            Exact::BySize if size >= EXACT_TWO_FROM => (2, false),
            Exact::BySize => (2, true),
        };
        let exact_starts =
            |longest, in_rows| ExactStarts::new(tables, long().map(|(_, v)| v), longest, in_rows);
        let within = match longest {
            3 => ROWS_WITHIN,
            _ => SMALL_ROWS_WITHIN,
        };
        let fits = |starts: &ExactStarts| {
            exact != Exact::BySize || size + starts.memory_usage() <= within * value_bytes
        };
        // Where rows cannot hold the strings, or (by size) would break the
        // bound: those one byte shorter in their bitmap, and these hashed.
        engine.exact_starts = match exact_starts(longest, in_rows) {
            Some(starts) if !in_rows || fits(&starts) => starts,
            _ => exact_starts(longest - 1, false).expect("bitmaps hold any strings"),
        };
        // Where the exact starts hold the strings of 4 bytes, and (by size)
        // the short starts of every length would be beyond the last-level
        // cache, the exact starts tell those of 3 to 5.
        let shortened = exact != Exact::BySize || every_length >= SHORTENED_FROM;
        let shortest = match engine.exact_starts.longest() {
            EXACT if shortened => EXACT + 2,
            _ => SHORTEST,
        };
        engine.short_starts = ShortStarts::new(tables, long().map(|(_, v)| v), shortest);
        Ok(engine)
    }

    /// Whether `word` may be a gram of a value (see [`GramSet::may_hold`]):
    /// where there is a `direct_first`, which holds them all and stays in
    /// the second-level cache, it rules out most grams of text first, so
    /// that the probes of a push's tail (where the stepper starts, and
    /// whether the held bytes can be emitted) seldom wait on `value_grams`
    /// (1.6 MB at 10,000 tokens) in memory.
    #[inline(always)]
    pub(crate) fn may_be_value_gram(&self, word: u64) -> bool {
        self.passes_direct_first(word) && self.value_grams.may_hold(word)
    }

    /// Asks for what [`Engine::may_be_value_gram`] reads of `value_grams`
    /// for `word`, where it is large, unless `direct_first` rules it out.
    #[inline(always)]
    pub(crate) fn prefetch_value_gram(&self, word: u64) {
        if self.value_grams.is_large() && self.passes_direct_first(word) {
            self.value_grams.prefetch(word);
        }
    }

    /// Whether `word` passes `direct_first`, where there is one.
    #[inline(always)]
    fn passes_direct_first(&self, word: u64) -> bool {
        self.direct_first
            .as_ref()
            .is_none_or(|first| first.may_hold(word))
    }

    /// Whether a byte is stepped quickly (the engine stays in the cache):
    /// then what a push reads at its end is not asked for ahead (see
    /// `Matcher::prefetch_end`).
    pub(crate) fn steps_quickly(&self) -> bool {
        self.small
    }

    pub(crate) fn memory_usage(&self) -> usize {
        let secrets: usize = self.secrets.iter().map(CompiledSecret::memory_usage).sum();
        // The engine itself is on the heap too (in the scrubber's `Arc`).
        std::mem::size_of::<Engine>()
            + self.direct.memory_usage()
            + self.view.memory_usage()
            + self.direct_table.memory_usage()
            + self.view_table.memory_usage()
            + self.values.memory_usage()
            + self.direct_seeds.memory_usage()
            + self.view_seeds.memory_usage()
            + self.value_grams.memory_usage()
            + self.starts.memory_usage()
            + self.direct_any.memory_usage()
            + self.direct_first.as_ref().map_or(0, GramSet::memory_usage)
            + self.tail_grams.memory_usage()
            + self.short_starts.memory_usage()
            + self.exact_starts.memory_usage()
            + secrets
    }
}

/// The automaton over the table's prefixes.
fn automaton_of(table: &Table) -> Automaton {
    Automaton::new(&table.prefix_bytes())
}

/// Grams of every pattern of `table` at each offset a sampled position can
/// fall on (the stride that the shortest pattern, or a fragment window when
/// `windows`, allows), folded as `fold` says.
fn seed_index(table: &Table, windows: bool, fold: Fold) -> GramIndex {
    let shortest = (0..table.len() as u32)
        .map(|id| table.pattern_len(id))
        .chain(windows.then_some(FRAGMENT))
        .min()
        .unwrap_or(GRAM);
    let stride = (shortest + 1 - GRAM).clamp(1, MAX_STRIDE);
    // Where they are sampled, grams of a pattern kept in the same bytes as
    // the one before are not read again (at 10,000 tokens, 1.28 million of
    // the view's 2.88 million).
    let sampled = stride + GRAM - 1;
    let grams = first_bytes_once(table, sampled)
        .flat_map(move |pattern| (0..stride).map(move |offset| (gram(&pattern[offset..]), offset)));
    GramIndex::new(stride, grams.clone().count(), grams, fold)
}

/// The patterns of `table`, but those kept in the same bytes as the one
/// before for their first `span` bytes at least (a value's base64 core and
/// its tails are prefixes of one another): their first `span` bytes are
/// those of the one before.
fn first_bytes_once(table: &Table, span: usize) -> impl Iterator<Item = &[u8]> + Clone {
    table
        .patterns()
        .scan(None, move |before: &mut Option<&[u8]>, pattern| {
            let same = before.is_some_and(|b| {
                b.as_ptr() == pattern.as_ptr() && b.len().min(pattern.len()) >= span
            });
            *before = Some(pattern);
            Some((!same).then_some(pattern))
        })
        .flatten()
}

/// The grams of every pattern of both tables at each offset up to
/// [`TAIL_OFFSETS`] (see `Engine::tail_grams`), those of patterns kept in
/// the same bytes counted once.
fn tail_grams(direct: &Table, view: &Table) -> GramSet {
    let patterns = || first_bytes_once(direct, TAIL).chain(first_bytes_once(view, TAIL));
    let offsets = |pattern: &[u8]| (pattern.len() + 1 - GRAM).min(TAIL_OFFSETS);
    let count = patterns().map(offsets).sum();
    let grams = patterns()
        .flat_map(move |pattern| (0..offsets(pattern)).map(move |offset| gram(&pattern[offset..])));
    GramSet::of_keys(count, TAIL_BITS_PER_GRAM, Probe::BySize, grams)
}

fn starts_with_line_break(bytes: &[u8]) -> bool {
    matches!(bytes.first(), Some(b'\r' | b'\n'))
}

/// Every way the tests hold exact starts: strings of 1 to 4 bytes in
/// bitmaps, and of 2 or 3 with the longest in rows.
#[cfg(test)]
pub(crate) fn every_exact() -> impl Iterator<Item = Exact> {
    (1..=EXACT)
        .map(Exact::Longest)
        .chain((2..=3).map(Exact::LongestInRows))
}

/// A small deterministic generator for the engine's unit tests (xorshift).
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// At least `len` bytes of printable noise with one of `pieces` in two
/// of every `one_in` turns.
#[cfg(test)]
pub(crate) fn text_of(
    next: &mut impl FnMut() -> u64,
    len: usize,
    pieces: &[&[u8]],
    one_in: u64,
) -> Vec<u8> {
    let mut text = Vec::new();
    while text.len() < len {
        match next() % one_in {
            0 | 1 => text.extend_from_slice(pieces[(next() % pieces.len() as u64) as usize]),
            _ => text.push(b' ' + (next() % 90) as u8),
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` values of 3,400 random letters.
    fn long_values(count: usize) -> Vec<Secret> {
        let mut next = xorshift(0x2f1e);
        (0..count)
            .map(|i| {
                let value: Vec<u8> = (0..3400).map(|_| b'A' + (next() % 52) as u8).collect();
                Secret::new(format!("V{i}"), value)
            })
            .collect()
    }

    #[test]
    fn secrets_whose_patterns_pass_a_table_s_limit_are_too_large() {
        // A token's patterns take a few hundred bytes; the hex alone of
        // 4,096 bytes takes 8,192.
        let secrets = [
            Secret::new("TOKEN", "token-0123456789"),
            Secret::new("LONG", vec![b'x'; 4096]),
        ];
        let within = |limit| Engine::compile_within(&secrets, false, Exact::BySize, limit);
        assert!(within(1 << 20).is_ok());
        assert!(matches!(within(4096), Err(PatternsTooLarge { index: 1 })));
        assert!(matches!(within(8), Err(PatternsTooLarge { index: 0 })));
    }

    #[test]
    fn a_large_union_of_grams_is_tested_first_in_a_smaller_set_that_holds_them_all() {
        let secrets = long_values(96);
        let engine = Engine::build(&secrets, false);
        assert!(engine.direct_any.is_large());
        let first = engine.direct_first.as_ref().expect("a smaller set first");
        // A quarter of its room a gram (8 bits against 32).
        assert!(first.memory_usage() * 4 <= engine.direct_any.memory_usage());
        for secret in &secrets {
            for window in secret.trimmed_value().windows(GRAM) {
                assert!(first.may_pass_pattern(gram(window)));
            }
        }
        let sampled = engine.direct_seeds.stride + GRAM - 1;
        for pattern in engine.direct_table.patterns() {
            for window in pattern[..sampled.min(pattern.len())].windows(GRAM) {
                assert!(first.may_pass_pattern(gram(window)));
            }
        }
        // Most of what is not in it fails.
        let mut next = xorshift(0x77);
        let passed = (0..10_000)
            .filter(|_| first.may_pass_pattern(next()))
            .count();
        assert!(passed < 1_000, "{passed} of 10,000 passed");
    }

    #[test]
    fn tail_grams_hold_every_gram_a_tail_can_end_with() {
        // Short and long values, a multi-line one, and enough tokens that
        // patterns share their bytes with the one before.
        let mut secrets = long_values(3);
        secrets.push(Secret::new(
            "PEM",
            "-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\n",
        ));
        secrets.extend(short::tests::many_tokens(50));
        let engine = Engine::build(&secrets, false);
        let mut grams = 0;
        for table in [&engine.direct_table, &engine.view_table] {
            for pattern in table.patterns() {
                let offsets = (pattern.len() + 1 - GRAM).min(TAIL_OFFSETS);
                for offset in 0..offsets {
                    assert!(engine.tail_grams.may_hold(gram(&pattern[offset..])));
                    grams += 1;
                }
            }
        }
        assert!(grams > 5_000, "{grams} grams");
        // Most of what is not in it fails (8 bits of room a gram).
        let mut next = xorshift(0x7a11);
        let passed = (0..10_000)
            .filter(|_| engine.tail_grams.may_hold(next()))
            .count();
        assert!(passed < 1_000, "{passed} of 10,000 passed");
    }

    /// A union paired by size (512 KiB or more) but under 1 MiB has no
    /// smaller set first: the filter tests its first pairs, and finds what
    /// stepping every byte finds.
    #[test]
    fn a_paired_union_in_the_cache_is_tested_by_its_first_pairs() {
        let secrets = long_values(50);
        let engine = Engine::build(&secrets, false);
        assert!(!engine.direct_any.is_patterned() && !engine.direct_any.is_large());
        assert!(engine.direct_first.is_none());
        let scrubber = crate::compile(&secrets, &crate::Options::new(crate::RULES_VERSION))
            .expect("valid secrets");
        // Fragments of 20 to 26 bytes, one of each value.
        let pieces: Vec<&[u8]> = secrets
            .iter()
            .enumerate()
            .map(|(i, s)| &s.value[i * 50..i * 50 + 20 + i % 7])
            .collect();
        let input = text_of(&mut xorshift(0x9a17), 20_000, &pieces, 40);
        let whole = scrubber.bytes(&input).output;
        let mut stream = scrubber.stream();
        let mut stepped = Vec::new();
        for byte in input.chunks(1) {
            stream.push_into(byte, &mut stepped).expect("a live stream");
        }
        stream.end_into(&mut stepped).expect("a live stream");
        assert!(whole == stepped, "bytes and pushes of 1 byte differ");
        for piece in &pieces {
            assert!(!whole.windows(piece.len()).any(|w| w == *piece));
        }
    }

    #[test]
    fn a_small_union_of_grams_is_tested_alone() {
        let engine = Engine::build(&long_values(8), false);
        assert!(!engine.direct_any.is_large());
        assert!(engine.direct_first.is_none());
    }
}
