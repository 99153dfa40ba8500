//! The distinct patterns of one automaton (the direct one or the CR/LF-free
//! view's), each with the secret that owns it, and the bounded prefixes that
//! the automaton holds: a pattern longer than [`PREFIX`] bytes is found by
//! its prefix and then verified byte by byte against its bytes here, so the
//! automaton's size does not grow with the values' length.

use std::hash::Hasher;

use crate::form::Form;

use super::following::{Agreement, Following};
use super::hash::IntHasher;
use super::ids_by_hash::IdsByHash;
use super::layout;
use super::wipe::{self, Wiped};

/// Bytes of a pattern the automaton holds.
pub(crate) const PREFIX: usize = 16;

/// Patterns of one prefix from which [`Table::longer_agreeing`] searches
/// their order; fewer are looked at one by one.
const SEARCHED_FROM: usize = 16;
/// Searches that [`Table::longer_agreeing`] makes, down from where the
/// input sorts among the patterns, for the longest it begins with.
const SEARCHES: usize = 16;
/// The mark, in `Table::longer_from`, of a prefix whose longer patterns
/// (at least [`SEARCHED_FROM`], none periodic past the prefix) the stepper
/// verifies together, as one range of their order that narrows at each
/// byte (`opens.rs`), where one verification each stepped them all: with
/// a thousand documents of one head, a thousand steps a byte. A periodic
/// one is verified alone, in the group of its starts.
const SPANNED: u32 = 1 << 31;

/// Who a candidate of one distinct pattern belongs to. Identical patterns of
/// several secrets are one entry: the tie rule (form, then secret index)
/// picks the owner once, at compile time.
#[derive(Clone, Copy)]
pub(crate) struct Owner {
    /// The owner as a whole pattern: (form, secret).
    pub(crate) plain: (Form, u32),
    /// For the CR/LF-free view: the owner when the match spans a line break
    /// (every such match is `wrapped`, so only the secret index decides).
    pub(crate) wrapped: u32,
}

/// No pattern: in [`Table::exact`].
const NONE: u32 = u32::MAX;

/// How a pattern repeats itself near its start, for verifying many starts
/// of one periodic pattern (`aaaa…`, its hex `6161…`) in linear time: `q`
/// is the smallest period of its first [`PREFIX`] bytes, and its first `r`
/// bytes (`r` ≥ the prefix) have period `q`. For a shift `d`, a multiple of
/// `q` below `r`, the pattern agrees with itself shifted by `d` on exactly
/// its first `r - d` bytes (all `m - d` when `r` is the whole pattern).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Period {
    pub(crate) q: u32,
    pub(crate) r: u32,
}

impl Period {
    /// Whether an open of a pattern of this period that has matched
    /// `matched` bytes can join the group of an earlier start (see
    /// `Opens::push`): one period further on is still periodic.
    #[inline]
    pub(crate) fn groups_at(self, matched: u32) -> bool {
        matched + self.q <= self.r
    }

    /// In one word, as a table keeps it (`q` is at most 32).
    fn packed(self) -> u32 {
        (self.r << 5) | (self.q - 1)
    }

    /// A period [`Period::packed`].
    #[inline]
    fn unpacked(packed: u32) -> Period {
        Period {
            q: (packed & 31) + 1,
            r: packed >> 5,
        }
    }

    /// How many bytes `pattern` (of this period) agrees with itself shifted
    /// by `d`, when the period says (`d` a multiple of `q`, below `r`).
    #[inline]
    pub(crate) fn self_overlap(self, len: usize, d: usize) -> Option<usize> {
        let (q, r) = (self.q as usize, self.r as usize);
        (d > 0 && d.is_multiple_of(q) && d < r).then(|| if r == len { len - d } else { r - d })
    }

    /// The period of `pattern`, in time linear in `r` (and in the square of
    /// the prefix, at most 256 comparisons).
    pub(crate) fn of(pattern: &[u8]) -> Period {
        let head = &pattern[..pattern.len().min(PREFIX)];
        let q = (1..=head.len())
            .find(|&q| head[q..] == head[..head.len() - q])
            .unwrap_or(head.len());
        let r = (head.len()..pattern.len())
            .find(|&i| pattern[i] != pattern[i - q])
            .unwrap_or(pattern.len());
        Period {
            q: q as u32,
            r: r as u32,
        }
    }
}

pub(crate) struct Table {
    /// Every pattern's bytes, one after another.
    bytes: Wiped<u8>,
    /// Pattern `id` is `bytes[spans[id].0..spans[id].1]`.
    spans: Vec<(u32, u32)>,
    /// Pattern `id`'s period, packed (`r << 5 | (q - 1)`, `q` ≤ 32): only
    /// patterns longer than the prefix are verified past it.
    periods: Vec<u32>,
    pub(crate) owners: Vec<Owner>,
    /// By prefix (automaton pattern) id, prefixes in the order of their
    /// bytes: the pattern that is the prefix whole ([`NONE`] if none;
    /// wiped, since it tells that order), and the patterns that continue
    /// past it, `longer[longer_from[id]..longer_from[id + 1]]`. Flat, so
    /// that a prefix takes 8 bytes and 4 a pattern, not a list of its own.
    exact: Wiped<u32>,
    longer_from: Vec<u32>,
    /// Within a prefix, in the order of the bytes that follow it: wiped,
    /// since that order says something of the patterns.
    longer: Wiped<u32>,
    /// That byte of each of `longer` (wiped: pattern bytes).
    longer_next: Wiped<u8>,
    /// And the 7 bytes after it (fewer where the pattern ends, the rest
    /// zero), with in the top byte how many bytes past the prefix they and
    /// `longer_next` describe (1 to 8): see the tests' form,
    /// `Table::longer_going_on`.
    longer_rest: Wiped<u64>,
}

impl Table {
    pub(crate) fn pattern(&self, id: u32) -> &[u8] {
        let (from, to) = self.spans[id as usize];
        &self.bytes[from as usize..to as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    /// Every pattern, by id.
    pub(crate) fn patterns(&self) -> impl Iterator<Item = &[u8]> + Clone {
        (0..self.len() as u32).map(|id| self.pattern(id))
    }

    #[inline]
    pub(crate) fn period(&self, id: u32) -> Period {
        Period::unpacked(self.periods[id as usize])
    }

    pub(crate) fn pattern_len(&self, id: u32) -> usize {
        let (from, to) = self.spans[id as usize];
        (to - from) as usize
    }

    /// What a match of prefix `id` means: the pattern that is the prefix
    /// whole, if any, and the patterns that continue past it, to verify.
    #[inline]
    pub(crate) fn prefix(&self, id: usize) -> (Option<u32>, &[u32]) {
        let exact = self.exact[id];
        let (from, to) = self.longer_range(id);
        ((exact != NONE).then_some(exact), &self.longer[from..to])
    }

    /// Where the longer patterns of prefix `id` are in `longer`.
    #[inline]
    fn longer_range(&self, id: usize) -> (usize, usize) {
        let from = self.longer_from[id] & !SPANNED;
        let to = self.longer_from[id + 1] & !SPANNED;
        (from as usize, to as usize)
    }

    /// The longer patterns of prefix `id` as a range of `longer`, where
    /// they are verified together (see [`SPANNED`]).
    #[inline]
    pub(crate) fn spanned(&self, id: usize) -> Option<(u32, u32)> {
        let (from, to) = self.longer_range(id);
        (self.longer_from[id] & SPANNED != 0).then_some((from as u32, to as u32))
    }

    /// The pattern at `at` in `longer`.
    #[inline]
    pub(crate) fn longer_at(&self, at: u32) -> u32 {
        self.longer[at as usize]
    }

    /// Of `longer[lo..hi]`, patterns longer than `matched` bytes that agree
    /// on their first `matched`, those whose next byte is `byte`: a range
    /// too, in their order.
    #[inline]
    pub(crate) fn narrowed(&self, (lo, hi): (u32, u32), matched: usize, byte: u8) -> (u32, u32) {
        let range = &self.longer[lo as usize..hi as usize];
        let at = |id: u32| self.pattern(id)[matched];
        let low = range.partition_point(|&id| at(id) < byte);
        let high = low + range[low..].partition_point(|&id| at(id) == byte);
        (lo + low as u32, lo + high as u32)
    }

    /// The longer patterns of prefix `id` that agree with `after`, the
    /// input's bytes after the prefix (up to 8 of them; fewer where the
    /// input ends, none when it ends after the prefix: then every one, each
    /// may be open), on as many bytes as both have. Where thousands of
    /// patterns share a prefix and its next byte (the hex of `sk-proj-`
    /// keys is 16 bytes, and the next hex digit is one of five), most are
    /// ruled out here, in one array read in order, where each cost a
    /// verification that waits on its pattern's bytes: `bytes` 1.07 to
    /// 1.17 x at 10,000 tokens, where only the next byte was compared.
    #[cfg(test)]
    pub(crate) fn longer_going_on<'a>(
        &'a self,
        id: usize,
        after: &[u8],
    ) -> impl Iterator<Item = u32> + 'a {
        self.going_on_in(self.longer_range(id), after.first_bytes())
    }

    /// The longer patterns of prefix `id` that can match where `after`
    /// follows it (the input's bytes for a direct pattern, the view's for
    /// a base64 or hex one): those that agree with its first 8 bytes (as
    /// the tests' `Table::longer_going_on` says). Where many patterns share
    /// the prefix and more (the JSON of a thousand service accounts' keys
    /// shares 50 bytes, their base64 66), their order finds at once those
    /// that could match: the longest one that `after` begins with (for the
    /// longest candidate wins, and a shorter one there never does) and
    /// those that begin with the whole of `after` (the input ends in them:
    /// they are open). Where that is not found within a few searches, all
    /// that agree with its first bytes.
    ///
    /// Where the prefix's patterns are verified together (see
    /// [`Table::spanned`]), those that go on past the input's end are
    /// given apart, as a range of `longer`, not verified: they all agree
    /// with the input to its end.
    #[inline]
    pub(crate) fn longer_agreeing<'a, F: Following + ?Sized>(
        &'a self,
        id: usize,
        after: &F,
    ) -> (impl Iterator<Item = u32> + 'a, Option<(u32, u32)>) {
        let (from, to) = self.longer_range(id);
        let agreement = |id: u32| after.agreement(&self.pattern(id)[PREFIX..]);
        let (range, longest, open) = if to - from < SEARCHED_FROM {
            ((from, to), None, None)
        } else {
            // Tails that `after` begins with sort before it, the longer
            // later; those that begin with all of it, from it on (first the
            // one that is all of it, if any).
            let longer = &self.longer;
            // Where it sorts, and how the tail just below it agrees (the
            // last one found below), which the search for the longest one
            // it begins with starts from: a tail that matches whole is
            // compared once here, not again there.
            let (mut at, mut hi, mut just_below) = (from, to, None);
            while at < hi {
                let mid = at + (hi - at) / 2;
                match agreement(longer[mid]) {
                    below if below.is_below() => (at, just_below) = (mid + 1, Some(below)),
                    _ => hi = mid,
                }
            }
            let goes_on = |id: u32| matches!(agreement(id), Agreement::GoesOn { .. });
            let end = at + longer[at..to].partition_point(|&id| goes_on(id));
            let whole = Agreement::GoesOn { whole: true };
            let past = at + usize::from(at < end && agreement(longer[at]) == whole);
            let (verified, open) = match self.spanned(id) {
                Some(_) if past < end => ((at, past), Some((past as u32, end as u32))),
                _ => ((at, end), None),
            };
            match self.longest_begun(from, at, just_below, after) {
                Some(Some(i)) => (verified, Some(self.longer[i]), open),
                Some(None) => (verified, None, open),
                None => ((from, end), None, None),
            }
        };
        (
            self.going_on_in(range, after.first_bytes()).chain(longest),
            open,
        )
    }

    /// Which of `longer[from..at]`, whose tails (past the prefix) sort
    /// before `after`, is the longest that `after` begins with: `Some(None)`
    /// where none is, `None` where that is not settled in [`SEARCHES`]
    /// searches. A tail that `after` begins with and that sorts before
    /// another one below `after` is a prefix of that one too, so each
    /// search goes to the tail that is `after`'s common part with the last
    /// one below it, or further down: with a thousand documents of one head
    /// that `after` leaves within their ids (the end of a push), a search
    /// or two, where a walk down the order met hundreds.
    ///
    /// `just_below`: how the tail at `at - 1` agrees, where known.
    fn longest_begun<F: Following + ?Sized>(
        &self,
        from: usize,
        mut at: usize,
        mut just_below: Option<Agreement>,
        after: &F,
    ) -> Option<Option<usize>> {
        let tail_of = |id: u32| &self.pattern(id)[PREFIX..];
        for _ in 0..SEARCHES {
            let Some(below) = at.checked_sub(1).filter(|&below| below >= from) else {
                return Some(None);
            };
            let tail = tail_of(self.longer[below]);
            let agreement = just_below.take().unwrap_or_else(|| after.agreement(tail));
            let common = match agreement {
                Agreement::Begun => return Some(Some(below)),
                Agreement::Below(common) => common,
                // Not below `after`: the order is not what it should be.
                Agreement::GoesOn { .. } | Agreement::Above => return None,
            };
            // Those `after` begins with are its first `common` bytes, which
            // it shares with `tail`, or shorter.
            let begun = &tail[..common];
            at = from + self.longer[from..below].partition_point(|&id| tail_of(id) < begun);
            if at < below && tail_of(self.longer[at]) == begun {
                return Some(Some(at));
            }
        }
        None
    }

    /// The patterns of `longer[range]` that agree on up to 8 bytes with
    /// the `count` first bytes of `after` (see the tests' form,
    /// `Table::longer_going_on`).
    #[inline]
    fn going_on_in<'a>(
        &'a self,
        (from, to): (usize, usize),
        (after, count): ([u8; 8], usize),
    ) -> impl Iterator<Item = u32> + 'a {
        let (from, to) = match count {
            0 => (from, to),
            _ => {
                let next = after[0];
                let nexts = &self.longer_next[from..to];
                let low = nexts.partition_point(|&b| b < next);
                let high = low + nexts[low..].partition_point(|&b| b == next);
                (from + low, from + high)
            }
        };
        // The bytes after the first, as the entries keep them.
        let after_rest = u64::from_le_bytes(after) >> 8;
        (from..to)
            .filter(move |&i| {
                let rest = self.longer_rest[i];
                let described = (rest >> 56) as usize;
                // Bytes past the first that both have (at most 7).
                let both = count.min(described).saturating_sub(1);
                let mask = (1u64 << (8 * both)) - 1;
                (after_rest ^ rest) & mask == 0
            })
            .map(|i| self.longer[i])
    }

    /// The prefixes for the automaton, by prefix id: slices of the table.
    pub(crate) fn prefix_bytes(&self) -> Vec<&[u8]> {
        (0..self.exact.len())
            .map(|prefix| {
                let (exact, longer) = self.prefix(prefix);
                let id = exact.or(longer.first().copied());
                let id = id.expect("a prefix stands for a pattern");
                let bytes = self.pattern(id);
                &bytes[..bytes.len().min(PREFIX)]
            })
            .collect()
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.bytes.capacity()
            + self.spans.capacity() * 8
            + self.periods.capacity() * 4
            + self.owners.capacity() * std::mem::size_of::<Owner>()
            + self.exact.capacity() * 4
            + self.longer_from.capacity() * 4
            + self.longer.capacity() * 4
            + self.longer_next.capacity()
            + self.longer_rest.capacity() * 8
    }
}

/// Most bytes a table's patterns take: their spans are kept in 32 bits.
pub(crate) const MAX_BYTES: usize = u32::MAX as usize;

/// From this many bytes of patterns on, a table keeps up to a sixteenth
/// of room unused rather than copy them (see [`TableBuilder::finish`]).
const KEPT_ROOM_FROM: usize = 1 << 20;

/// A pattern that would take a table's bytes past [`MAX_BYTES`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Full;

/// Builds a [`Table`]: patterns are added in compile order.
pub(crate) struct TableBuilder {
    bytes: Wiped<u8>,
    /// [`MAX_BYTES`], or less in a test.
    limit: usize,
    spans: Vec<(u32, u32)>,
    owners: Vec<Owner>,
    /// Pattern ids by a hash of their bytes.
    index: IdsByHash,
}

impl TableBuilder {
    /// [`TableBuilder::with_limit`] of [`MAX_BYTES`].
    #[cfg(test)]
    pub(crate) fn new() -> TableBuilder {
        TableBuilder::with_limit(MAX_BYTES)
    }

    /// An empty table that holds at most `limit` bytes of patterns
    /// ([`MAX_BYTES`] at most). Its byte buffer grows through
    /// [`wipe::reserve`], so that no growth leaves a copy behind: patterns
    /// are added as each secret's are made, not all made first to count
    /// them (10,000 tokens' 360,000 patterns, each an allocation or more,
    /// all held and then freed: allocating and freeing them was a tenth of
    /// compiling, most of it in `free`).
    pub(crate) fn with_limit(limit: usize) -> TableBuilder {
        assert!(limit <= MAX_BYTES, "spans in 32 bits");
        TableBuilder {
            bytes: wipe::with_capacity(0),
            limit,
            spans: Vec::new(),
            owners: Vec::new(),
            index: IdsByHash::with_capacity(0),
        }
    }

    /// Room for the patterns still to come at the rate of those so far,
    /// `done` of the values' `total` bytes having made those added (and a
    /// sixteenth more, within the limit). Asked once an eighth of them are
    /// in, so that the room is at most about eight times what is held, it
    /// spares the doublings after it, each a copy into fresh pages (at 100
    /// x 64 KiB a quarter of the compile's page faults were the tables').
    pub(crate) fn reserve_at_rate(&mut self, done: usize, total: usize) {
        if done == 0 {
            return;
        }
        let len = self.bytes.len();
        let expected = (len as u128 * total as u128 / done as u128) as usize;
        let wanted = expected.saturating_add(expected / 16).min(self.limit);
        if wanted > len {
            wipe::reserve(&mut self.bytes, wanted - len);
        }
    }

    /// Asks for what [`TableBuilder::add`] of `bytes` reads first at random
    /// (its index's slot), where the index is beyond the second-level
    /// cache, so that the adds of several patterns, asked for together
    /// first, wait on memory together. Below that it would only hash the
    /// bytes twice.
    pub(crate) fn prefetch(&self, bytes: &[u8]) {
        if self.index.is_large() {
            self.index.prefetch(hash_bytes(bytes));
        }
    }

    /// Adds `bytes` as a pattern of `form` for `secret`, or claims it when
    /// the same bytes are there already: the earlier form, then the earlier
    /// secret, owns it.
    ///
    /// # Errors
    /// [`Full`] where a new pattern could take the table's bytes past its
    /// limit (counted as if it shared none with the last): nothing added.
    pub(crate) fn add(&mut self, bytes: &[u8], form: Form, secret: u32) -> Result<(), Full> {
        let hash = hash_bytes(bytes);
        let found = self.index.ids(hash).find(|&id| {
            let (from, to) = self.spans[id as usize];
            &self.bytes[from as usize..to as usize] == bytes
        });
        let id = match found {
            Some(id) => id,
            None => {
                if bytes.len() > self.limit - self.bytes.len() {
                    return Err(Full);
                }
                let id = self.index.add(hash);
                let span = keep(&mut self.bytes, self.spans.last().copied(), bytes);
                self.spans.push(span);
                self.owners.push(Owner {
                    plain: (form, secret),
                    wrapped: secret,
                });
                id
            }
        };
        let owner = &mut self.owners[id as usize];
        if (form, secret) < owner.plain {
            owner.plain = (form, secret);
        }
        owner.wrapped = owner.wrapped.min(secret);
        Ok(())
    }

    pub(crate) fn finish(self) -> Table {
        let TableBuilder {
            bytes,
            mut spans,
            mut owners,
            ..
        } = self;
        // Grown by doubling: no more room kept than used.
        spans.shrink_to_fit();
        owners.shrink_to_fit();
        // Each pattern's prefix id, the first pattern of each prefix (to
        // compare prefixes by), and what the prefix is whole.
        let pattern = |id: u32| {
            let (from, to) = spans[id as usize];
            &bytes[from as usize..to as usize]
        };
        let prefix = |id: u32| {
            let p = pattern(id);
            &p[..p.len().min(PREFIX)]
        };
        let mut prefix_of: Wiped<u32> = wipe::with_capacity(spans.len());
        let mut first: Vec<u32> = Vec::new();
        let mut exact: Vec<u32> = Vec::new();
        let mut by_prefix = IdsByHash::with_capacity(spans.len());
        for id in 0..spans.len() as u32 {
            let hash = hash_bytes(prefix(id));
            let known = by_prefix
                .ids(hash)
                .find(|&p| prefix(first[p as usize]) == prefix(id));
            let p = known.unwrap_or_else(|| {
                first.push(id);
                exact.push(NONE);
                by_prefix.add(hash)
            });
            if pattern(id).len() <= PREFIX {
                exact[p as usize] = id;
            }
            prefix_of.push(p);
        }
        drop(by_prefix);
        // Prefix ids in the order of the prefixes' bytes: the automaton's
        // trie is then built, and walked, along shared paths (at 10,000
        // tokens its build took a fifth less time). That order says
        // something of the patterns: whatever holds it is wiped.
        let mut keyed: Wiped<(u64, u32)> = wipe::with_capacity(first.len());
        keyed.extend((0..first.len() as u32).map(|p| (order_key(prefix(first[p as usize])), p)));
        keyed.sort_unstable();
        let mut rank: Wiped<u32> = wipe::with_capacity(first.len());
        rank.resize(first.len(), 0);
        for (r, &(_, p)) in keyed.iter().enumerate() {
            rank[p as usize] = r as u32;
        }
        let mut exact_by_rank: Wiped<u32> = wipe::with_capacity(exact.len());
        exact_by_rank.extend(keyed.iter().map(|&(_, p)| exact[p as usize]));
        let exact = exact_by_rank;
        for p in prefix_of.iter_mut() {
            *p = rank[*p as usize];
        }
        // The longer patterns of each prefix, flat, in id order.
        let longer_of = prefix_of
            .iter()
            .enumerate()
            .filter(|&(id, _)| pattern(id as u32).len() > PREFIX)
            .map(|(id, &p)| (p as usize, id as u32));
        let mut longer = wipe::with_capacity(longer_of.clone().count());
        let mut longer_from = layout::by_group(first.len(), longer_of, &mut longer);
        let next = |id: u32| pattern(id)[PREFIX];
        for p in 0..first.len() {
            let (from, to) = (longer_from[p] as usize, longer_from[p + 1] as usize);
            longer[from..to]
                .sort_unstable_by(|&a, &b| pattern(a)[PREFIX..].cmp(&pattern(b)[PREFIX..]));
        }
        let periods: Vec<u32> = spans
            .iter()
            .map(|&(from, to)| Period::of(&bytes[from as usize..to as usize]).packed())
            .collect();
        // A periodic one joins the group of its starts (see `Opens::push`).
        let alone = |id: u32| !Period::unpacked(periods[id as usize]).groups_at(PREFIX as u32);
        assert!(
            longer.len() < SPANNED as usize,
            "ranges of longer within 31 bits"
        );
        for p in 0..first.len() {
            let (from, to) = (longer_from[p] as usize, longer_from[p + 1] as usize);
            if to - from >= SEARCHED_FROM && longer[from..to].iter().all(|&id| alone(id)) {
                longer_from[p] |= SPANNED;
            }
        }
        let mut longer_next = wipe::with_capacity(longer.len());
        longer_next.extend(longer.iter().map(|&id| next(id)));
        let mut longer_rest = wipe::with_capacity(longer.len());
        longer_rest.extend(longer.iter().map(|&id| rest_of(&pattern(id)[PREFIX..])));
        // Shared bytes, and room given at the rate so far, leave room
        // unused: copied into a buffer of their length, unless they are a
        // MiB or more and leave a sixteenth or less (that copy, into fresh
        // pages, took 75 ms at 100 x 64 KiB, where the rate's room came
        // within 1%; a small table's room counts more in the memory bound
        // of a few tokens).
        let kept =
            bytes.len() >= KEPT_ROOM_FROM && bytes.capacity() - bytes.len() <= bytes.len() / 16;
        let bytes = match kept {
            true => bytes,
            false => wipe::exact(bytes),
        };
        Table {
            bytes,
            spans,
            periods,
            owners,
            exact,
            longer_from,
            longer,
            longer_next,
            longer_rest,
        }
    }
}

/// The entry of [`Table::longer_rest`] of a pattern whose bytes past the
/// prefix are `tail` (at least one).
fn rest_of(tail: &[u8]) -> u64 {
    let described = tail.len().min(8);
    let mut rest = [0u8; 8];
    rest[..described - 1].copy_from_slice(&tail[1..described]);
    rest[7] = described as u8;
    u64::from_le_bytes(rest)
}

/// The first 8 bytes of `bytes` (zeros after its end) as a number that
/// sorts as they do.
fn order_key(bytes: &[u8]) -> u64 {
    let mut key = [0u8; 8];
    let n = bytes.len().min(8);
    key[..n].copy_from_slice(&bytes[..n]);
    u64::from_be_bytes(key)
}

/// Where the new pattern `bytes` is kept in `kept`, whose `last` pattern
/// was kept at that span. A value's base64 core, its padded tail and its
/// unpadded tail come one after another and are prefixes of one another: a
/// pattern that extends the last one kept, or is a prefix of it, shares its
/// bytes.
fn keep(kept: &mut Wiped<u8>, last: Option<(u32, u32)>, bytes: &[u8]) -> (u32, u32) {
    if let Some((from, to)) = last {
        let last = &kept[from as usize..to as usize];
        if last.starts_with(bytes) {
            return (from, from + bytes.len() as u32);
        }
        if to as usize == kept.len() && bytes.starts_with(last) {
            let shared = last.len();
            wipe::reserve(kept, bytes.len() - shared);
            kept.extend_from_slice(&bytes[shared..]);
            return (from, kept.len() as u32);
        }
    }
    let from = kept.len() as u32;
    wipe::reserve(kept, bytes.len());
    kept.extend_from_slice(bytes);
    (from, kept.len() as u32)
}

/// A hash of a byte string, 8 bytes at a time.
fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = IntHasher::default();
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h.write_u64(u64::from_le_bytes(c.try_into().expect("8 bytes")));
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h.write_u64(u64::from_le_bytes(last) ^ ((bytes.len() as u64) << 56));
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::following::ViewFollowing;

    /// Room for the rest at the rate so far, a sixteenth more, within the
    /// limit; the table made is the same, in a buffer of its length.
    #[test]
    fn room_is_reserved_at_the_rate_so_far() {
        let pattern = |i: u32| format!("pattern number {i:04}").into_bytes();
        let mut builder = TableBuilder::with_limit(10_000);
        for i in 0..10 {
            builder.add(&pattern(i), Form::Raw, i).expect("room");
        }
        let held = builder.bytes.len();
        assert_eq!(held, 190);
        // A tenth of the values' bytes made these: room for ten times.
        builder.reserve_at_rate(100, 1_000);
        let room = builder.bytes.capacity();
        assert!((1_900 + 118..4_000).contains(&room), "{room}");
        builder.reserve_at_rate(0, 1_000);
        assert_eq!(builder.bytes.capacity(), room, "nothing done: no rate");
        for i in 10..100 {
            builder.add(&pattern(i), Form::Raw, i).expect("room");
        }
        assert_eq!(builder.bytes.capacity(), room, "the rest fit");
        // Within the limit.
        let mut small = TableBuilder::with_limit(500);
        small.add(&pattern(0), Form::Raw, 0).expect("room");
        small.reserve_at_rate(1, 1_000);
        assert_eq!(small.bytes.capacity(), 500);
        let table = builder.finish();
        assert_eq!(table.len(), 100);
        // Small: in a buffer of its length.
        assert_eq!((table.bytes.len(), table.bytes.capacity()), (1_900, 1_900));
        // Of a MiB or more, within a sixteenth of its room: kept as it is.
        let big = |i: u32| [&pattern(i)[..], &[b'.'; 1_000]].concat();
        for copied in [false, true] {
            let mut builder = TableBuilder::with_limit(1 << 22);
            for i in 0..1_060 {
                builder.add(&big(i), Form::Raw, i).expect("room");
            }
            let len = builder.bytes.len();
            let more = len / 16 + usize::from(copied);
            let mut roomy = wipe::with_capacity(len + more);
            roomy.extend_from_slice(&builder.bytes);
            builder.bytes = roomy;
            let room = builder.bytes.capacity();
            assert!(len >= KEPT_ROOM_FROM && room >= len + more);
            let table = builder.finish();
            assert_eq!(table.bytes.len(), len);
            assert_eq!(table.bytes.capacity() == len, copied, "{len} in {room}");
            assert_eq!(table.pattern(7), &big(7)[..]);
        }
        assert_eq!(table.pattern(42), &pattern(42)[..]);
    }

    #[test]
    fn longer_going_on_gives_the_patterns_that_agree_with_the_input() {
        // Patterns that share a prefix (a header's hex), some of which
        // share the bytes after it too, of every length past it from 1 to
        // 12, one exact prefix, and others.
        let header = b"736b2d70726f6a2d";
        let mut next = crate::engine::xorshift(0x10e9);
        let mut tails: Vec<Vec<u8>> = vec![b"".to_vec(), b"41".to_vec(), b"41".to_vec()];
        for _ in 0..300 {
            let len = 1 + (next() % 12) as usize;
            tails.push((0..len).map(|_| b"0123"[(next() % 4) as usize]).collect());
        }
        let mut builder = TableBuilder::new();
        for (secret, tail) in tails.iter().enumerate() {
            let pattern = [&header[..], tail].concat();
            builder.add(&pattern, Form::Hex, secret as u32).unwrap();
        }
        builder
            .add(b"somethingelse_entirely", Form::Hex, 9999)
            .unwrap();
        let table = builder.finish();
        let prefix = (0..table.exact.len())
            .find(|&p| {
                table
                    .prefix(p)
                    .0
                    .is_some_and(|id| table.pattern(id) == header)
            })
            .expect("the header is a prefix");
        let (_, longer) = table.prefix(prefix);
        let distinct: std::collections::HashSet<&Vec<u8>> =
            tails.iter().filter(|t| !t.is_empty()).collect();
        assert_eq!(
            longer.len(),
            distinct.len(),
            "a repeated tail is one pattern"
        );
        // Inputs after the prefix of every length up to 10, of the same
        // digits (so that many agree), and the input's end right after it.
        for round in 0..3000 {
            let len = round % 11;
            let input: Vec<u8> = (0..len).map(|_| b"0123"[(next() % 4) as usize]).collect();
            let after = &input[..len.min(8)];
            let mut want: Vec<u32> = longer
                .iter()
                .copied()
                .filter(|&id| {
                    let tail = &table.pattern(id)[PREFIX..];
                    let both = tail.len().min(after.len());
                    tail[..both] == after[..both]
                })
                .collect();
            want.sort_unstable();
            let mut got: Vec<u32> = table.longer_going_on(prefix, after).collect();
            got.sort_unstable();
            assert_eq!(got, want, "after {after:?}");
        }
        let all: Vec<u32> = table.longer_going_on(prefix, b"").collect();
        assert_eq!(all, longer, "the input ends after the prefix");
    }

    /// What [`Table::longer_agreeing`] gives, the open range too, sorted.
    fn agreeing<F: Following + ?Sized>(table: &Table, prefix: usize, after: &F) -> Vec<u32> {
        let (ids, open) = table.longer_agreeing(prefix, after);
        let mut got: Vec<u32> = ids.collect();
        if let Some((lo, hi)) = open {
            got.extend((lo..hi).map(|at| table.longer_at(at)));
        }
        got.sort_unstable();
        got
    }

    #[test]
    fn the_longest_pattern_the_input_begins_with_takes_a_few_searches() {
        // A thousand documents of one head past the prefix, their ids of
        // three letters so that many begin others.
        let head = b"{\"type\": \"service_account\", \"project_id\": \"";
        let mut next = crate::engine::xorshift(0x10ea);
        let mut builder = TableBuilder::new();
        for secret in 0..1000 {
            let len = 1 + (next() % 12) as usize;
            let id: Vec<u8> = (0..len).map(|_| b"abc"[(next() % 3) as usize]).collect();
            builder
                .add(&[&head[..], &id].concat(), Form::Json, secret)
                .unwrap();
        }
        let table = builder.finish();
        let prefix = (0..table.exact.len())
            .find(|&p| table.prefix(p).1.len() > 100)
            .expect("the head's prefix");
        let longer = table.prefix(prefix).1;
        let tail = |id: u32| &table.pattern(id)[PREFIX..];
        for round in 0..5000 {
            // The input after the prefix: the head cut anywhere, or whole
            // and an id of the same letters, or of others too.
            let mut after = head[PREFIX..].to_vec();
            match round % 3 {
                0 => after.truncate((next() % after.len() as u64) as usize),
                letters => after
                    .extend((0..next() % 16).map(|_| b"abcd"[(next() % (2 + letters)) as usize])),
            }
            let begun = |id: &&u32| after.starts_with(tail(**id)) && tail(**id) != after;
            let longest = longer
                .iter()
                .filter(begun)
                .max_by_key(|&&id| tail(id).len());
            let going_on: Vec<u32> = longer
                .iter()
                .copied()
                .filter(|&id| tail(id).starts_with(&after))
                .collect();
            let mut want: Vec<u32> = going_on.into_iter().chain(longest.copied()).collect();
            want.sort_unstable();
            // The same bytes on the view, with line breaks between them.
            let mut wrapped = b"\r\n".to_vec();
            for &byte in &after {
                wrapped.push(byte);
                if next().is_multiple_of(8) {
                    wrapped.extend_from_slice(&b"\r\n"[(next() % 2) as usize..]);
                }
            }
            let view = ViewFollowing {
                input: &wrapped,
                from: 0,
            };
            // Not one more: each would be verified.
            let shown = String::from_utf8_lossy(&after);
            assert_eq!(
                agreeing(&table, prefix, &after[..]),
                want,
                "after {shown:?}"
            );
            assert_eq!(agreeing(&table, prefix, &view), want, "view {shown:?}");
        }
    }

    #[test]
    fn no_freed_block_keeps_a_hash_of_a_pattern() {
        // The hashes by which the builder finds patterns and prefixes again
        // (a hash is as good as a short pattern): none may be freed unwiped.
        let values: Vec<Vec<u8>> = (0..40)
            .map(|i| format!("pw-{i:05}-abcdefghijklmnopqrstuvwxyz").into_bytes())
            .collect();
        let patterns: Vec<(Vec<u8>, Form, u32)> = (0..values.len())
            .flat_map(|secret| {
                let patterns = crate::patterns_but_fragments(&values[secret]);
                patterns
                    .into_iter()
                    .map(move |p| (p.bytes.clone(), p.form, secret as u32))
            })
            .collect();
        let needles: Vec<Vec<u8>> = patterns
            .iter()
            .flat_map(|(p, _, _)| [hash_bytes(p), hash_bytes(&p[..p.len().min(PREFIX)])])
            .map(|h| h.to_le_bytes().to_vec())
            .collect();
        let found = crate::freed_memory::scanned(needles, || {
            let mut builder = TableBuilder::new();
            for (pattern, form, secret) in &patterns {
                builder.add(pattern, *form, *secret).unwrap();
            }
            drop(builder.finish());
        });
        assert_eq!(found, [], "(freed block size, needle index)");
    }

    #[test]
    fn a_full_table_refuses_a_new_pattern_and_keeps_the_others() {
        let mut builder = TableBuilder::with_limit(20);
        builder.add(b"0123456789", Form::Raw, 0).unwrap();
        assert_eq!(builder.add(b"abcdefghijk", Form::Raw, 1), Err(Full));
        // A pattern it holds is claimed again, whatever room is left.
        builder.add(b"0123456789", Form::Raw, 2).unwrap();
        builder.add(b"ABCDEFGHIJ", Form::Raw, 3).unwrap();
        assert_eq!(builder.add(b"k", Form::Raw, 4), Err(Full));
        let table = builder.finish();
        let patterns: Vec<&[u8]> = table.patterns().collect();
        assert_eq!(patterns, [&b"0123456789"[..], b"ABCDEFGHIJ"]);
    }

    /// How many bytes `p` agrees with itself shifted by `d`, by brute force.
    fn overlap(p: &[u8], d: usize) -> usize {
        p[d..].iter().zip(p).take_while(|(a, b)| a == b).count()
    }

    #[test]
    fn self_overlap_is_what_brute_force_says() {
        let mut patterns: Vec<Vec<u8>> = vec![
            b"6161616161616161616161616161616161616161616161616161616161616162".to_vec(),
            "ab".repeat(40).into_bytes(),
            format!("{}x{}", "abc".repeat(20), "abc".repeat(5)).into_bytes(),
            b"YWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFh".to_vec(),
            b"0123456789abcdef0123456789abcdef0123456789abcdef0123".to_vec(),
            b"short".to_vec(),
        ];
        // and some random ones over a small alphabet, periodic or not
        let mut seed = 7u64;
        for _ in 0..300 {
            let mut next = || {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 33) as usize
            };
            let unit: Vec<u8> = (0..1 + next() % 6).map(|_| b"ab"[next() % 2]).collect();
            let len = 1 + next() % 90;
            let mut p: Vec<u8> = unit.iter().copied().cycle().take(len).collect();
            if next() % 2 == 0 {
                let at = next() % len;
                p[at] = b'c';
            }
            patterns.push(p);
        }
        for p in &patterns {
            let period = Period::of(p);
            for d in 1..p.len() {
                if let Some(n) = period.self_overlap(p.len(), d) {
                    assert_eq!(
                        n,
                        overlap(p, d),
                        "{period:?} d={d} {:?}",
                        String::from_utf8_lossy(p)
                    );
                }
            }
            // q is the smallest period of the head
            let head = &p[..p.len().min(PREFIX)];
            let q = period.q as usize;
            assert!((1..q).all(|s| overlap(head, s) < head.len() - s));
            assert!(overlap(head, q) == head.len() - q || q == head.len());
        }
    }
}
