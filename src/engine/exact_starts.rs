//! Every string of 1 to 4 bytes that begins a pattern or a window, held
//! exactly (a bit a string up to 3 bytes, or the longest, of 2 or 3
//! bytes, in rows where their bitmap would take too much memory; the
//! strings themselves of 4),
//! and the strings one byte longer, hashed. Where a push of one byte, or
//! a filtered push's tail, leaves that many bytes for the stepper and
//! nothing else open, these say without a step what of it stepping would
//! hold: from its first byte from which the bytes begin one (see
//! `Matcher::decide_byte_unstepped` and `Matcher::decide_tail_unstepped`).
//! The automata and the fragment run then step what is held only where
//! something reads their state. In a large engine each byte the stepper
//! steps there is a cache miss or three; a bit of these tables is one,
//! asked for ahead. In a small one a step is in the cache but still the
//! three automata's and the run's work: tails held so there too, 64 B
//! pushes 1.12 x at 10 tokens and 1.19 x at 100, 4 KiB pushes 1.02 x.

use super::exact_fours::ExactFours;
use super::exact_rows::ExactRows;
use super::hashed_starts::{HashedStarts, line_hash, number};
use super::layout;
use super::prefetch::prefetch;
use super::table::Table;
use super::wipe::{self, Wiped};
use crate::FRAGMENT;

/// The longest string held.
pub(crate) const EXACT: usize = 4;

/// The longest string held in a bitmap (2 MiB); longer ones are held in
/// [`ExactFours`].
const BITMAPS: usize = 3;

/// Strings put in at a time, their words and lines asked for first.
const BATCH: usize = 16;

/// Strings of 1 to `longest` bytes, `longest` set by the engine's size,
/// and the strings one byte longer, hashed. Wiped: a string of a value's
/// bytes that is held can be read back.
pub(crate) struct ExactStarts {
    /// A bitmap a length: bit `s` of `bits[len - 1]` for the string whose
    /// bytes, the last lowest, make the number `s`: the strings that one
    /// string and a byte more make lie in one cache line.
    bits: [Wiped<u64>; BITMAPS],
    /// The strings of `longest` bytes (2 or 3), where they are held in
    /// rows instead of their bitmap (see [`ExactRows`]).
    rows: ExactRows,
    /// `longest` where `rows` holds those strings, else 0.
    rows_len: usize,
    /// The strings of 4 bytes, where they are held, and the same hashed:
    /// most strings of text begin none, which the hashed bits (an eighth
    /// of the memory, a line of them asked for ahead) tell.
    fours: ExactFours,
    fours_hashed: HashedStarts,
    /// The strings of `longest + 1` bytes, hashed: of a longer string they
    /// tell only that it begins nothing (see [`ExactStarts::first_begun`]).
    longer: HashedStarts,
    longest: usize,
}

impl ExactStarts {
    /// The first 1 to `longest` bytes (at most [`EXACT`]) of every pattern
    /// of `tables`, and of every window of `values` (the values longer
    /// than a fragment). Every pattern is at least 8 bytes long, and a
    /// window 16: each string is a proper prefix.
    ///
    /// With `longest` 0 nothing is held, not even the strings of 1 byte
    /// hashed. With `in_rows`, the strings of `longest` bytes (2 or 3) are
    /// held in [`ExactRows`] (about a byte a string, where their bitmap
    /// takes 8 KiB or 2 MiB); `None` where there are too many for them
    /// (only then).
    ///
    /// # Panics
    /// Where `longest` is more than [`EXACT`], or `in_rows` and `longest`
    /// is not 2 or 3.
    pub(crate) fn new<'a>(
        tables: [&Table; 2],
        values: impl Iterator<Item = &'a [u8]> + Clone,
        longest: usize,
        in_rows: bool,
    ) -> Option<ExactStarts> {
        // From 2 million strings, a table of strings of 4 bytes of 21 MB
        // or more, beyond the last-level cache with the rest.
        ExactStarts::grouped_from(tables, values, longest, in_rows, layout::BY_HASH_FROM)
    }

    /// [`ExactStarts::new`], the strings put in grouped by their lines from
    /// `grouped_from` strings on (see [`by_line`]).
    fn grouped_from<'a>(
        tables: [&Table; 2],
        values: impl Iterator<Item = &'a [u8]> + Clone,
        longest: usize,
        in_rows: bool,
        grouped_from: usize,
    ) -> Option<ExactStarts> {
        assert!(longest <= EXACT, "strings of at most {EXACT} bytes");
        if longest == 0 {
            return Some(ExactStarts::none());
        }
        let strings = strings(tables, values.clone());
        // The first `longest + 1` bytes of every pattern (8 bytes or more)
        // and window (16) as numbers, put in in batches whose words and
        // lines are asked for first: in an engine of long values each is a
        // cache miss, and one after another they were a third of compiling
        // 10 x 64 KiB.
        let firsts = starts_of(tables, values, longest + 1, strings);
        let firsts = match longest == EXACT && strings >= grouped_from {
            true => by_line(&firsts),
            false => firsts,
        };
        // The first `len` bytes of a string's number.
        let first = |string: u64, len: usize| string >> (8 * (longest + 1 - len));
        let rows = match in_rows {
            true => {
                let mut rows: Wiped<u32> = wipe::with_capacity(strings);
                rows.extend(firsts.iter().map(|&s| first(s, longest) as u32));
                ExactRows::new(rows, longest)?
            }
            false => ExactRows::none(),
        };
        let mut longer = HashedStarts::with_room(strings);
        let (mut fours, mut fours_hashed) = match longest {
            EXACT => (
                ExactFours::with_room(strings),
                HashedStarts::with_room(strings),
            ),
            _ => (ExactFours::none(), HashedStarts::none()),
        };
        // 32 bytes, 8 KiB and 2 MiB (none for the strings in `rows`):
        // zeroed pages from the allocator.
        let bitmaps = match in_rows {
            true => longest - 1,
            false => longest.min(BITMAPS),
        };
        let mut bits = std::array::from_fn(|i| {
            let len = i + 1;
            let words = if len <= bitmaps {
                (1 << (8 * len)) / 64
            } else {
                0
            };
            wipe::zeroed(words)
        });
        for batch in firsts.chunks(BATCH) {
            for &string in batch {
                if bitmaps == BITMAPS {
                    let s = first(string, BITMAPS) as usize;
                    prefetch(&bits[BITMAPS - 1][s / 64]);
                }
                if longest == EXACT {
                    fours.prefetch_number(first(string, EXACT) as u32);
                    fours_hashed.prefetch_number(first(string, EXACT));
                }
                longer.prefetch_number(string);
            }
            for &string in batch {
                for len in 1..=bitmaps {
                    let s = first(string, len) as usize;
                    bits[len - 1][s / 64] |= 1 << (s % 64);
                }
                if longest == EXACT {
                    fours.add_number(first(string, EXACT) as u32);
                    fours_hashed.add_number(first(string, EXACT));
                }
                longer.add_number(string);
            }
        }
        Some(ExactStarts {
            bits,
            rows_len: if in_rows { longest } else { 0 },
            rows,
            fours,
            fours_hashed,
            longer,
            longest,
        })
    }

    /// No string held.
    pub(crate) fn none() -> ExactStarts {
        ExactStarts {
            bits: std::array::from_fn(|_| zeroize::Zeroizing::new(Vec::new())),
            rows: ExactRows::none(),
            rows_len: 0,
            fours: ExactFours::none(),
            fours_hashed: HashedStarts::none(),
            longer: HashedStarts::none(),
            longest: 0,
        }
    }

    /// Whether `bytes` begin a pattern or a window: `None` where strings of
    /// their length are not held, or (of 4 bytes) where their line is full
    /// and they are not in it. (The tests' plain form of what
    /// [`ExactStarts::first_begun`] tells.)
    #[cfg(test)]
    pub(crate) fn begins(&self, bytes: &[u8]) -> Option<bool> {
        let len = bytes.len();
        if len == 0 || len > self.longest {
            return None;
        }
        if let Ok(four) = bytes.try_into() {
            if !self.fours_hashed.may_begin(bytes) {
                return Some(false);
            }
            return self.fours.begins(four);
        }
        let s = number(bytes) as usize;
        if len == self.rows_len {
            return Some(self.rows.begins_number(s as u64));
        }
        Some(self.bits[len - 1][s / 64] & 1 << (s % 64) != 0)
    }

    /// Whether `bytes`, one longer than the longest string held exactly,
    /// may begin a pattern or a window: false says they begin none, true
    /// only that they may (a string put in the hashed bits, or another of
    /// the same hash). Only where some strings are held.
    pub(crate) fn may_begin_longer(&self, bytes: &[u8]) -> bool {
        debug_assert!(self.longest > 0 && bytes.len() == self.longest + 1);
        self.longer.may_begin(bytes)
    }

    /// Whether `bytes` (of any length) begin a pattern or a window, where
    /// these tell it: those longer than the strings held exactly begin
    /// none where their first bytes, one longer, are not in the hashed
    /// bits; `None` where they are, or where [`ExactStarts::begins`] cannot
    /// tell.
    #[cfg(test)]
    pub(crate) fn tells(&self, bytes: &[u8]) -> Option<bool> {
        match bytes.get(..=self.longest) {
            Some(longer) if self.longest > 0 => (!self.may_begin_longer(longer)).then_some(false),
            _ => self.begins(bytes),
        }
    }

    /// The first position from which a tail of `len` bytes (at most 8)
    /// whose number is `whole` (see [`number`]) begins a pattern or a
    /// window (`len` where it never does), each of its ends asked in turn,
    /// from the longest: one of at most `longest` bytes exactly, a longer
    /// one by its first `longest + 1` bytes in the hashed bits, which tell
    /// only that it begins none; `None` where it cannot tell of one before
    /// (a longer end that may begin one, a string of 4 bytes in a full
    /// line, or nothing held). Each end's number is the whole's lowest
    /// bytes: the push of one byte asks this of every one, with the number
    /// made from what it held (see `Matcher::decide_byte_unstepped`).
    #[inline(always)]
    pub(crate) fn first_begun(&self, len: usize, whole: u64) -> Option<usize> {
        self.first_begun_passing(len, whole, 0)
    }

    /// [`ExactStarts::first_begun`] of `tail` (at most 9 bytes), its CR and
    /// LF bytes passed over (nothing starts at one): the first other
    /// position from which its bytes begin a pattern or a window (a view
    /// pattern only where they hold no CR or LF, for none holds one), or
    /// `None` where that cannot be told. Of 9 bytes (7 view bytes and a CR
    /// LF), the whole is longer than the strings held: told by its first
    /// `longest + 1` bytes hashed, as an end of 8 is. Before a CR or LF
    /// the bytes are not the view's, so whether a view pattern begins
    /// there is not told here (see `tail::first_held_across_breaks`). Out
    /// of line: at 10 x 64 KiB one filtered push of 4 KiB in seventeen
    /// ends so.
    /// `breaks` has bit `i` set where `tail[i]` is a CR or LF.
    #[inline(never)]
    pub(crate) fn first_begun_passing_breaks(&self, tail: &[u8], breaks: u32) -> Option<usize> {
        debug_assert!(tail.len() <= 9);
        let Some(rest) = tail.get(1..).filter(|_| tail.len() > 8) else {
            return self.first_begun_passing(tail.len(), number(tail), breaks);
        };
        if self.longest == 0 || breaks & 1 == 0 && self.may_begin_longer(&tail[..=self.longest]) {
            return None;
        }
        Some(self.first_begun_passing(rest.len(), number(rest), breaks >> 1)? + 1)
    }

    /// [`ExactStarts::first_begun`], the positions whose bits are set in
    /// `passed` passed over (1 for the first byte).
    #[inline(always)]
    fn first_begun_passing(&self, len: usize, whole: u64, passed: u32) -> Option<usize> {
        // Whether the longest strings are in rows is asked once, not at
        // each end: each way has its copy of the loop (asked at each end,
        // pushes of one byte at 100 tokens, where none are, took 3% more
        // instructions and 5 to 9% more time).
        match self.rows_len {
            0 => self.first_begun_by(len, whole, passed, |_| None),
            _ => self.first_begun_by(len, whole, passed, |string| {
                Some(self.rows.begins_number(string))
            }),
        }
    }

    /// [`ExactStarts::first_begun_passing`], the strings of `rows_len` bytes
    /// told by `in_rows` where it tells them.
    #[inline(always)]
    fn first_begun_by(
        &self,
        len: usize,
        whole: u64,
        passed: u32,
        in_rows: impl Fn(u64) -> Option<bool>,
    ) -> Option<usize> {
        let longest = self.longest;
        debug_assert!(len <= 8);
        if longest == 0 {
            return None;
        }
        for i in 0..len {
            if passed >> i & 1 != 0 {
                continue;
            }
            let end = len - i;
            let string = whole & u64::MAX >> (64 - 8 * end);
            let begins = if end > longest {
                // Its first `longest + 1` bytes, hashed.
                if self
                    .longer
                    .may_begin_number(string >> (8 * (end - longest - 1)))
                {
                    return None;
                }
                false
            } else if end == self.rows_len
                && let Some(begins) = in_rows(string)
            {
                begins
            } else if end == EXACT {
                self.four_begins(string)?
            } else {
                let s = string as usize;
                self.bits[end - 1][s / 64] & 1 << (s % 64) != 0
            };
            if begins {
                return Some(i);
            }
        }
        Some(len)
    }

    /// Whether the string of 4 bytes whose number is `string` begins a
    /// pattern or a window (see [`ExactStarts::first_begun`]): `None` where
    /// its line is full and it is not in it. Out of line: inlined, its
    /// constants were loaded at every push of one byte, where most sets
    /// hold no strings of 4 bytes.
    #[inline(never)]
    fn four_begins(&self, string: u64) -> Option<bool> {
        Some(
            self.fours_hashed.may_begin_number(string)
                && self.fours.begins_number(string as u32)?,
        )
    }

    /// Starts loading what [`ExactStarts::first_begun`] reads of `held` and
    /// one byte more, and of its ends and one byte more, where it is
    /// beyond the cache
    /// (strings of 3 bytes held: 2 MiB, the strings of 4 and as many
    /// hashed bits as there are bytes of values): the next push of one
    /// byte finds them there.
    /// `held` is given as its length and number (see [`number`]).
    #[inline(always)]
    pub(crate) fn prefetch_after(&self, len: usize, held: u64) {
        // Held in rows, they are in a cache.
        if self.longest < BITMAPS || self.rows_len != 0 {
            return;
        }
        if len == self.longest {
            self.longer.prefetch_line(held);
        }
        if self.longest == EXACT && len >= 3 {
            self.fours_hashed.prefetch_line(held & 0xff_ffff);
        }
        if len >= 2 {
            let s = ((held & 0xffff) as usize) << 8;
            prefetch(&self.bits[BITMAPS - 1][s / 64]);
        }
    }

    /// Whether `bytes`, 1 to `longest + 1` of them, may begin a pattern or
    /// a window: false says they begin none (those of `longest + 1` bytes
    /// told by their hashed bits, a string of 4 bytes in a full line may).
    /// Where these hold the strings of 4 bytes, the short starts ask this of
    /// an end of a push of 3 to 5 bytes (see `ShortStarts`).
    #[inline(always)]
    pub(crate) fn may_begin(&self, bytes: &[u8]) -> bool {
        let len = bytes.len();
        debug_assert!(len > 0 && len <= self.longest + 1);
        let string = number(bytes);
        if len > self.longest {
            self.longer.may_begin_number(string)
        } else if len == self.rows_len {
            self.rows.begins_number(string)
        } else if len == EXACT {
            self.four_begins(string) != Some(false)
        } else {
            let s = string as usize;
            self.bits[len - 1][s / 64] & 1 << (s % 64) != 0
        }
    }

    /// Starts loading what [`ExactStarts::may_begin`] reads first of the
    /// last 4 and 5 bytes of `input`, where strings of 4 bytes are held
    /// (beyond the cache: a miss each), as [`ExactStarts::prefetch_end`]
    /// does of the last 3.
    #[inline(always)]
    pub(crate) fn prefetch_ends(&self, input: &[u8]) {
        if self.longest == EXACT
            && let Some(five) = input.last_chunk::<{ EXACT + 1 }>()
        {
            self.fours_hashed.prefetch(&five[1..EXACT]);
            self.longer.prefetch(&five[..EXACT]);
        }
    }

    /// Starts loading what [`ExactStarts::first_begun`] reads of the last 3
    /// bytes of `input`, where strings of 3 bytes are held (2 MiB: a cache
    /// miss each).
    #[inline(always)]
    pub(crate) fn prefetch_end(&self, input: &[u8]) {
        if self.longest >= BITMAPS
            && self.rows_len == 0
            && let Some(three) = input.last_chunk::<BITMAPS>()
        {
            let s = number(three) as usize;
            prefetch(&self.bits[BITMAPS - 1][s / 64]);
        }
    }

    /// The longest string held (0: none).
    pub(crate) fn longest(&self) -> usize {
        self.longest
    }

    pub(crate) fn memory_usage(&self) -> usize {
        let bits: usize = self.bits.iter().map(|b| b.capacity() * 8).sum();
        bits + self.rows.memory_usage()
            + self.fours.memory_usage()
            + self.fours_hashed.memory_usage()
            + self.longer.memory_usage()
    }

    /// The bytes that the strings of 4 bytes take (with their hashed bits)
    /// for the patterns of `tables` and the windows of `values`, as
    /// [`ExactStarts::new`] holds them.
    pub(crate) fn fours_memory<'a>(
        tables: [&Table; 2],
        values: impl Iterator<Item = &'a [u8]>,
    ) -> usize {
        let strings = strings(tables, values);
        ExactFours::memory_for(strings) + HashedStarts::memory_for(strings)
    }
}

/// The first `len` bytes (up to 8) of every pattern of `tables` (8 bytes or
/// more) and window of `values` (16), as numbers: `strings` of them.
fn starts_of<'a>(
    tables: [&Table; 2],
    values: impl Iterator<Item = &'a [u8]>,
    len: usize,
    strings: usize,
) -> Wiped<u64> {
    let mut firsts: Wiped<u64> = wipe::with_capacity(strings);
    for table in tables {
        firsts.extend(table.patterns().map(|p| number(&p[..len])));
    }
    for value in values {
        // Every start of a window: the value's first `len - 15` bytes.
        for at in 0..=value.len().saturating_sub(FRAGMENT) {
            firsts.push(number(&value[at..at + len]));
        }
    }
    debug_assert_eq!(firsts.len(), strings);
    firsts
}

/// `firsts` (strings of 5 bytes) laid out by the hash of their first 3
/// bytes, which picks their line of the strings of 4 bytes and of those
/// hashed (see [`line_hash`], [`layout::by_hash`]): 100 x 64 KiB's exact
/// starts 0.38 s so against 0.68 to 0.87 s.
fn by_line(firsts: &[u64]) -> Wiped<u64> {
    layout::by_hash(firsts.len(), firsts.iter().copied(), |string| {
        line_hash(string >> 16)
    })
}

/// How many strings of each length the starts of the patterns of `tables`
/// and the windows of `values` make, at most.
fn strings<'a>(tables: [&Table; 2], values: impl Iterator<Item = &'a [u8]>) -> usize {
    let windows = |value: &[u8]| value.len().saturating_sub(FRAGMENT) + 1;
    tables.iter().map(|t| t.len()).sum::<usize>() + values.map(windows).sum::<usize>()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::Secret;
    use crate::engine::{Engine, Exact, every_exact};

    /// Secrets whose values hold line breaks (a long one, and tokens),
    /// short and long ones.
    pub(crate) fn secrets_with_line_breaks() -> Vec<Secret> {
        let mut secrets = vec![
            Secret::new("A", "correct horse battery staple"),
            Secret::new("B", "tok_0123456789abcdef\nline two"),
            Secret::new("C", "short123"),
        ];
        secrets.extend(crate::engine::short::tests::many_tokens(20));
        secrets
    }

    /// Every window of the values of `secrets`: each 16 bytes of a value
    /// longer than that.
    pub(crate) fn windows_of(secrets: &[Secret]) -> Vec<&[u8]> {
        secrets
            .iter()
            .map(Secret::trimmed_value)
            .filter(|v| v.len() > FRAGMENT)
            .flat_map(|v| (0..=v.len() - FRAGMENT).map(move |at| &v[at..at + FRAGMENT]))
            .collect()
    }

    #[test]
    fn every_start_of_a_pattern_or_a_window_is_held_and_nothing_else() {
        let secrets = secrets_with_line_breaks();
        let engine = Engine::build_with(&secrets, false, Exact::Longest(EXACT));
        let exact = &engine.exact_starts;
        // What begins something, plainly: a proper prefix of a pattern of
        // either table or of a window.
        let patterns: Vec<&[u8]> = [&engine.direct_table, &engine.view_table]
            .into_iter()
            .flat_map(Table::patterns)
            .collect();
        let windows = windows_of(&secrets);
        let begins = |s: &[u8]| {
            patterns
                .iter()
                .chain(&windows)
                .any(|p| p.len() > s.len() && p.starts_with(s))
        };
        let mut next = crate::engine::xorshift(0xe7ac);
        // Half of them the start of a pattern or a window, cut short.
        let mut string = |len: usize| -> Vec<u8> {
            match next() % 2 {
                0 => {
                    let from = if next().is_multiple_of(2) {
                        &patterns
                    } else {
                        &windows
                    };
                    from[(next() % from.len() as u64) as usize][..len].to_vec()
                }
                _ => (0..len).map(|_| b'0' + (next() % 75) as u8).collect(),
            }
        };
        let in_rows = [2, 3].map(|longest| {
            let engine = Engine::build_with(&secrets, false, Exact::LongestInRows(longest));
            assert_eq!(engine.exact_starts.rows_len, longest);
            engine
        });
        assert_eq!(exact.rows_len, 0);
        let mut held = 0;
        for round in 0..60_000 {
            let s = string(1 + round % EXACT);
            let expected = begins(&s);
            held += usize::from(expected);
            assert_eq!(exact.begins(&s), Some(expected), "{s:?}");
            for engine in &in_rows {
                let told = (s.len() <= engine.exact_starts.longest()).then_some(expected);
                assert_eq!(engine.exact_starts.begins(&s), told, "{s:?}");
            }
        }
        assert!((25_000..55_000).contains(&held), "{held} held");
        // The strings one longer, hashed: each that begins something may,
        // and most that begin nothing do not.
        for way in every_exact() {
            let engine = Engine::build_with(&secrets, false, way);
            let exact = &engine.exact_starts;
            let longest = exact.longest();
            let (mut none, mut told) = (0, 0);
            for _ in 0..20_000 {
                let s = string(longest + 1);
                if begins(&s) {
                    assert!(exact.may_begin_longer(&s), "{s:?}");
                } else {
                    none += 1;
                    told += usize::from(!exact.may_begin_longer(&s));
                }
            }
            assert!(none > 5_000 && told * 4 > none * 3, "{told} of {none}");
            // What they tell of any length: never that a string that
            // begins one begins none, nor of a longer one that it begins.
            let mut told = [0; 3];
            for round in 0..20_000 {
                let s = string(1 + round % 7);
                let tells = exact.tells(&s);
                match tells {
                    Some(false) => assert!(!begins(&s), "{s:?}"),
                    Some(true) => assert!(s.len() <= longest && begins(&s), "{s:?}"),
                    None => assert!(s.len() > longest, "{s:?}"),
                }
                told[tells.map_or(2, usize::from)] += 1;
            }
            assert!(told.iter().all(|&n| n > 1_000), "{told:?}");
            // The first end that begins one, as each end tells it.
            for round in 0..20_000 {
                let len = 1 + round % 7;
                let mut tail = string(len);
                // A piece of text before it, now and then.
                tail.rotate_left(round % len);
                let mut expected = Some(len);
                for i in 0..len {
                    match exact.tells(&tail[i..]) {
                        Some(false) => continue,
                        Some(true) => expected = Some(i),
                        None => expected = None,
                    }
                    break;
                }
                assert_eq!(
                    exact.first_begun(tail.len(), number(&tail)),
                    expected,
                    "{tail:?}"
                );
            }
        }
        assert_eq!(exact.begins(b""), None);
        assert_eq!(exact.begins(b"abcde"), None);
    }

    #[test]
    fn strings_longer_than_kept_are_not_known() {
        let secrets = [Secret::new("A", "correct horse battery staple")];
        let two = Engine::build_with(&secrets, false, Exact::Longest(2));
        assert_eq!(two.exact_starts.begins(b"co"), Some(true));
        assert_eq!(two.exact_starts.begins(b"cx"), Some(false));
        assert_eq!(two.exact_starts.begins(b"cor"), None);
        // The strings of 3 bytes, hashed: a bit in 8 or more a string,
        // rounded to a power of two, two lines at least.
        let strings = two.direct_table.len() + two.view_table.len() + 13;
        let hashed = two.exact_starts.memory_usage() - (32 + 8192);
        assert!(hashed.is_power_of_two() && hashed >= strings.max(128));
        assert!(hashed < (2 * strings).max(129), "{hashed} for {strings}");
        // In rows: 257 starts and a word a first byte here (no first byte
        // begins 8 strings or more), where the bitmap takes 8 KiB.
        let small = Engine::build_with(&secrets, false, Exact::LongestInRows(2));
        assert_eq!(small.exact_starts.begins(b"co"), Some(true));
        assert_eq!(small.exact_starts.begins(b"cx"), Some(false));
        let firsts = [&small.direct_table, &small.view_table]
            .into_iter()
            .flat_map(Table::patterns)
            .map(|p| p[0])
            .chain(b"correct horse".iter().copied())
            .collect::<std::collections::BTreeSet<u8>>();
        let rows = small.exact_starts.memory_usage() - 32 - hashed;
        assert_eq!(rows, 2 * 257 + 8 * firsts.len());
        let none = Engine::build_with(&secrets, false, Exact::Longest(0));
        assert_eq!(none.exact_starts.begins(b"c"), None);
        assert_eq!(none.exact_starts.memory_usage(), 0);
    }

    /// Where the strings of 3 bytes take more words than rows count, there
    /// are no rows (the engine then holds those of 2 bytes in their
    /// bitmap, as where rows would break the memory bound).
    #[test]
    fn too_many_strings_for_rows_make_none() {
        let mut next = crate::engine::xorshift(0x70e);
        let bytes: Vec<u8> = (0..640 * 1024).map(|_| next() as u8).collect();
        let none = crate::engine::table::TableBuilder::new().finish();
        let starts = |values: &[u8]| {
            let values = values.chunks(64 * 1024);
            ExactStarts::new([&none, &none], values, 3, true)
        };
        // Every string of 2 bytes begins about ten of 3 here.
        assert!(starts(&bytes).is_none());
        let few = starts(&bytes[..64 * 1024]).expect("few enough for rows");
        assert_eq!((few.longest(), few.rows_len), (3, 3));
        assert_eq!(few.begins(&bytes[100..103]), Some(true));
    }

    /// By the engine's size: a small one holds the strings of 2 bytes in
    /// rows where they keep it within the memory bound; one of 1,000
    /// alphanumeric tokens those of 3, one of 100 those of 2 in their
    /// bitmap (rows of 3 would take a quarter of it).
    #[test]
    fn rows_are_held_by_size() {
        const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let tokens = |count, len| {
            let mut next = crate::engine::xorshift(0x5123 + count as u64);
            let secrets: Vec<Secret> = (0..count)
                .map(|i| {
                    let value: Vec<u8> = (0..len).map(|_| ALNUM[(next() % 62) as usize]).collect();
                    Secret::new(format!("T{i}"), value)
                })
                .collect();
            let engine = Engine::build(&secrets, false);
            let exact = &engine.exact_starts;
            assert!(engine.memory_usage() <= 128 * count * len);
            (exact.longest(), exact.rows_len)
        };
        // 10 of 40 bytes take 125 bytes a value byte with rows (about 122
        // without), 10 of 48 bytes 113 with them; 8 of 40 bytes 127.2
        // without them, and rows would break the bound.
        assert_eq!(tokens(10, 48), (2, 2));
        assert_eq!(tokens(10, 40), (2, 2));
        assert_eq!(tokens(8, 40), (1, 0));
        assert_eq!(tokens(100, 40), (2, 0));
        assert_eq!(tokens(1_000, 40), (3, 3));
    }

    /// Put in grouped by their lines or one after another, the strings
    /// tell the same of every string (where no line of strings of 4 bytes
    /// is full, the only place the order shows).
    #[test]
    fn grouped_and_one_after_another_alike() {
        let mut next = crate::engine::xorshift(0x9a0);
        let bytes: Vec<u8> = (0..128 * 1024).map(|_| next() as u8).collect();
        let none = crate::engine::table::TableBuilder::new().finish();
        let starts = |grouped_from| {
            let values = bytes.chunks(32 * 1024);
            ExactStarts::grouped_from([&none, &none], values, EXACT, false, grouped_from)
                .expect("bitmaps hold any strings")
        };
        let (grouped, in_order) = (starts(0), starts(usize::MAX));
        assert_eq!(grouped.memory_usage(), in_order.memory_usage());
        let mut begun = 0;
        for round in 0..200_000 {
            let len = 1 + round % 8;
            // Half of them a value's bytes.
            let tail: Vec<u8> = match next() % 2 {
                0 => {
                    let at = (next() % (bytes.len() - 8) as u64) as usize;
                    bytes[at..at + len].to_vec()
                }
                _ => (0..len).map(|_| next() as u8).collect(),
            };
            if len <= EXACT {
                let told = in_order.begins(&tail);
                assert!(told.is_some(), "no line full here");
                assert_eq!(grouped.begins(&tail), told, "{tail:?}");
            }
            let first = in_order.first_begun(tail.len(), number(&tail));
            assert_eq!(
                grouped.first_begun(tail.len(), number(&tail)),
                first,
                "{tail:?}"
            );
            begun += usize::from(first.is_some_and(|i| i < len));
        }
        assert!(begun > 50_000, "{begun} begun");
    }

    #[test]
    fn a_number_is_its_bytes_last_lowest() {
        assert_eq!(number(b"\x01"), 1);
        assert_eq!(number(b"\x01\x02"), 0x0102);
        assert_eq!(number(b"\x01\x02\x03"), 0x01_0203);
    }
}
