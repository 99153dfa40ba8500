//! One suffix automaton of every value longer than a fragment (a
//! generalised suffix automaton): it recognises every substring of every
//! value, so following the input through it gives, at each byte, the longest
//! suffix of the input that is a substring of some value. That is how far a
//! fragment extends (SPEC §3: a 16-byte window extended byte by byte along
//! the value, at every offset where it occurs; the longest candidate wins),
//! in constant amortised time per byte however many values there are and
//! however repetitive they are. All strings of one state occur in the same
//! values, so a state knows the first secret whose value holds them.

use crate::FRAGMENT;
use crate::form::Form;

use super::hash::IntMap;
use super::layout;
use super::prefetch::prefetch;
use super::seeds::{GRAM, gram};
use super::verify::common_prefix;
use super::wipe::{self, Wiped};

pub(crate) struct SuffixAutomaton {
    /// By state id, what a step reads (in a large automaton, the edge
    /// bytes of a state of 4 edges or fewer too, which spell the values:
    /// wiped). A sentinel at the end gives the last state's edge count.
    states: Wiped<State>,
    /// The transitions of state `s`: at `states[s].first..states[s + 1].first`
    /// of both, by byte: the bytes (in a small automaton: see `large`)
    /// apart from the targets, so that an edge takes 5 bytes, not 8.
    edge_bytes: Wiped<u8>,
    edge_targets: Vec<u32>,
    /// Whether the automaton is large (see [`LARGE_FROM`]): a state's
    /// `slot` holds its edge bytes (4 edges or fewer) or their index in
    /// `eight` (5 to 8) or its [`Wide`]'s (more), and where its strings
    /// first end is in `ends`. In a small one, `slot` holds where they
    /// end, the edge bytes are in `edge_bytes`, and a wide state's first
    /// 4 edge bytes hold its [`Wide`]'s index.
    large: bool,
    /// In a large automaton, the edge bytes of each state of 5 to 8 edges,
    /// zeros after them.
    eight: Wiped<u64>,
    /// In a large automaton, where each state's strings first end (see
    /// `State::slot`): read for a fragment's owner and to follow a match,
    /// not by a step.
    ends: Vec<u32>,
    /// The root's transitions by byte (`NONE` where there is none): the
    /// state the input falls back to most often.
    root: Wiped<u32>,
    /// The states of more than 8 edges, each as a [`Wide`].
    wide: Wiped<Wide>,
    /// Whole values: (state << 32 | length) → the first secret with it.
    whole: IntMap<u64, u32>,
    /// Where each value starts among the bytes of all of them, one after
    /// the other in secret order (the `end` of a state is such a
    /// position), and their length in all at the end.
    starts: Vec<u32>,
    /// The secret (by index) of each value.
    secrets: Vec<u32>,
    /// The values of [`FOLLOWED`] bytes or more (all of them, from
    /// [`FOLLOW_ALL_FROM`] bytes in all), one after the other, so that a
    /// long match is followed along its value by comparing bytes (see
    /// [`SuffixAutomaton::follow`]); in a small set of short ones it gains
    /// little and would cost 1.5 bytes a value byte where memory is
    /// tightest.
    text: Wiped<u8>,
    /// By value, where its bytes are in `text` ([`NONE`]: not there).
    text_at: Vec<u32>,
    /// The state of the value's prefix that ends at `text` position
    /// `8 * i + 7`: where a followed match takes up stepping again, from
    /// at most 7 bytes back (a state every position took 4 bytes a value
    /// byte; one every 8, half a byte).
    checkpoints: Vec<u32>,
}

#[derive(Clone, Copy, Default)]
struct State {
    first: u32,
    /// In one word, so that the window test reads one line where an array
    /// each was a cache miss a test in a large set (low bits first):
    /// - the length of the longest string the state stands for (at most a
    ///   value's, 65,536: 17 bits);
    /// - the room after its strings: the most value bytes that follow an
    ///   occurrence of them, capped at 16 (5 bits; a short suffix of the
    ///   input is a proper prefix of a window when this many bytes can
    ///   follow it);
    /// - the length of the strings of its link, capped at 15 (4 bits):
    ///   where its own strings begin;
    /// - the longest proper prefix of a window, of at most 15 bytes, among
    ///   the strings of the states down its link (4 bits; 0: none), so
    ///   that the window test, which every small push makes, is one read
    ///   and not a walk down the links for each length.
    len_room: u32,
    /// Suffix link: the state of the longest suffix in another class.
    link: u32,
    /// In a small automaton, where the state's strings first end among the
    /// bytes of all values, one after the other in secret order (see
    /// `starts`): in the first value (by secret) that holds them, whose
    /// secret is their owner. In a large one, its edge bytes where it has
    /// 4 edges or fewer (zeros after them), so that a step reads one line
    /// fewer (at random, a cache miss, in the states of short strings
    /// that text steps through); else the index of its bytes in `eight`
    /// (5 to 8 edges) or of its [`Wide`] (more).
    slot: u32,
}

// A state's edge bytes spell the values: wiped.
impl zeroize::DefaultIsZeroes for State {}

/// A state of more than 8 edges: a bit for each byte it has an edge on,
/// and how many edges come before each word of them, so that an edge's
/// place among the state's targets (in byte order) is a popcount. A binary
/// search over the sorted bytes was a chain of dependent loads: half the
/// time of a step at 100 tokens, where the states of one or two bytes
/// have dozens of edges. Few states have so many (those of one or two
/// bytes, in a large set): 40 bytes each is little beside the others.
#[derive(Clone, Copy, Default)]
struct Wide {
    bits: [u64; 4],
    before: [u16; 4],
}

// The bits spell which bytes follow a string of a value: wiped.
impl zeroize::DefaultIsZeroes for Wide {}

impl Wide {
    fn of(bytes: impl Iterator<Item = u8>) -> Wide {
        let mut wide = Wide::default();
        for b in bytes {
            wide.bits[usize::from(b >> 6)] |= 1 << (b & 63);
        }
        for i in 1..4 {
            wide.before[i] = wide.before[i - 1] + wide.bits[i - 1].count_ones() as u16;
        }
        wide
    }

    /// The place of `byte`'s edge among the state's edges, if it has one.
    #[inline(always)]
    fn place(&self, byte: u8) -> Option<usize> {
        let (word, bit) = (usize::from(byte >> 6), byte & 63);
        let bits = self.bits[word];
        if bits >> bit & 1 == 0 {
            return None;
        }
        let below = (bits & ((1 << bit) - 1)).count_ones();
        Some(usize::from(self.before[word]) + below as usize)
    }
}

/// Edges up to which a state's edge bytes are searched in one word; a
/// state of more is a [`Wide`].
const NARROW: usize = 8;
/// Edges up to which a state of a large automaton holds its edge bytes
/// itself.
const INLINE_EDGES: usize = 4;
/// States from which an automaton is large: its states (16 bytes each)
/// fill a megabyte, beyond what stays in the second-level cache beside the
/// rest, and a state keeps its few edge bytes itself, where a step read
/// them from a line of their own. In a small one, where that line is in
/// the cache, it cost 4 bytes a state for `ends` (the memory of 10 tokens
/// beyond its bound) and a mispredicted branch between states of up to 4
/// edges and of 5 to 8 (a 1 B push at 10 tokens 0.92 x).
const LARGE_FROM: usize = 1 << 16;

#[cfg(test)]
thread_local! {
    /// Suffix links read on this thread: what a walk down them costs, for
    /// the tests that hold a push's work bounded.
    pub(crate) static LINKS_READ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

pub(crate) const ROOT: u32 = 0;
const NONE: u32 = u32::MAX;

/// Where the fields of [`State::len_room`] start: the length at bit 0,
/// then the room, the link's length and the shorter window prefix.
const LEN_BITS: u32 = 17;
const LEN_MASK: u32 = (1 << LEN_BITS) - 1;
const ROOM_AT: u32 = LEN_BITS;
const BELOW_AT: u32 = ROOM_AT + 5;
const SHORTER_AT: u32 = BELOW_AT + 4;
/// The mask of the link's length and of the shorter window prefix: a
/// window's proper prefix is at most 15 bytes.
const SHORT: u32 = FRAGMENT as u32 - 1;
// A state's strings are at most a value long (SPEC §1: 65,536 bytes), the
// room at most a window, and the fields fit a word.
const _: () = assert!(crate::MAX_VALUE < LEN_MASK as usize);
const _: () = assert!(FRAGMENT < 1 << (BELOW_AT - ROOM_AT) && SHORT < 1 << 4);
const _: () = assert!(SHORTER_AT + 4 <= 32);

impl SuffixAutomaton {
    /// The online construction over several strings, then transitions
    /// packed by state. `values` are (secret index, value), in index order.
    pub(crate) fn new<'a>(values: impl Iterator<Item = (u32, &'a [u8])> + Clone) -> Self {
        let total: usize = values.clone().map(|(_, v)| v.len()).sum();
        // Every id (2 x total + 1 at most) and position fits in 32 bits.
        assert!(
            total <= crate::MAX_TOTAL_VALUES,
            "compile refuses values of more bytes than MAX_TOTAL_VALUES"
        );
        // The edge table's keys in 32 bits while every state id fits in
        // 24 (values of 8 MiB in all): slots of 8 bytes, not 16.
        if 2 * total + 1 < NARROW_STATES {
            Self::build::<u32>(
                values,
                total,
                total >= FOLLOW_ALL_FROM,
                LARGE_FROM,
                INTERLEAVE_FROM,
            )
        } else {
            Self::build::<u64>(
                values,
                total,
                total >= FOLLOW_ALL_FROM,
                LARGE_FROM,
                INTERLEAVE_FROM,
            )
        }
    }

    /// With `follow_all`, every value's bytes are kept for
    /// [`SuffixAutomaton::follow`], else those of [`FOLLOWED`] bytes or more.
    /// Large from `large_from` states, built interleaved from
    /// `interleave_from` value bytes (see [`Builder::extend_all`]).
    fn build<'a, K: EdgeKey>(
        values: impl Iterator<Item = (u32, &'a [u8])> + Clone,
        total: usize,
        follow_all: bool,
        large_from: usize,
        interleave_from: usize,
    ) -> Self {
        // At most n + 1 states that `extend` makes for a longer string (a
        // byte each at most, and the root), n clones (as many) and 3n
        // transitions: reserved, so no buffer that spells a value grows
        // and leaves a copy behind.
        let mut b = Builder::<K> {
            nodes: vec![Node::HOLE; total + 1],
            made: 0,
            clones: Vec::with_capacity(total),
            split: total as u32 + 1,
            more: Vec::with_capacity(3 * total),
            root: Vec::new(),
            find: EdgeTable::new(),
        };
        b.state(ROOT, 0, NONE);
        let count = values.clone().count();
        let is_followed = |len: usize| len >= FOLLOWED || follow_all;
        let followed: usize = values
            .clone()
            .map(|(_, v)| v.len())
            .filter(|&len| is_followed(len))
            .sum();
        let mut text: Wiped<u8> = wipe::with_capacity(followed);
        let mut text_at = Vec::with_capacity(count);
        let mut checkpoints = Vec::with_capacity(followed / CHECKPOINT);
        let mut starts = Vec::with_capacity(count + 1);
        let mut secrets = Vec::with_capacity(count);
        // Where the next value starts among the bytes of all of them.
        let mut at = 0u32;
        let list: Vec<&[u8]> = values.clone().map(|(_, v)| v).collect();
        for (secret, value) in values.clone() {
            starts.push(at);
            secrets.push(secret);
            let kept = is_followed(value.len());
            text_at.push(if kept { text.len() as u32 } else { NONE });
            if kept {
                text.extend_from_slice(value);
            }
            at += value.len() as u32;
        }
        checkpoints.resize(text.len() / CHECKPOINT, NONE);
        // Per state: where its strings first end among the values, and the most
        // value bytes that follow them (together: the pass up the links
        // below reads both of a state at random), the latter made into the
        // state's word below.
        let mut seen: Vec<(u32, u32)> = vec![(u32::MAX, 0); b.id_end()];
        let interleaved = total >= interleave_from;
        let lasts = b.extend_all(&list, &starts, interleaved, |b, v, i, last| {
            if seen.len() < b.id_end() {
                // Grown by half at a time, not a state at a time.
                seen.resize(b.id_end() + b.id_end() / 2, (u32::MAX, 0));
            }
            let (end, room) = &mut seen[last as usize];
            *end = (*end).min(starts[v] + i as u32);
            *room = (*room).max((list[v].len() - i - 1).min(FRAGMENT) as u32);
            if text_at[v] != NONE {
                let kept = text_at[v] as usize + i + 1;
                if kept.is_multiple_of(CHECKPOINT) {
                    checkpoints[kept / CHECKPOINT - 1] = last;
                }
            }
        });
        // The state a value's last byte left is the value's own.
        let wholes = lasts.iter().zip(values.clone());
        let wholes: Vec<(u32, u32, u32)> = wholes
            .map(|(&last, (secret, value))| (last, value.len() as u32, secret))
            .collect();
        starts.push(at);
        seen.truncate(b.id_end());
        // An occurrence of a string is one of each of its suffixes: push
        // first ends and room up the suffix links, longest states first.
        // By a counting sort on the length (at most a value's): linear,
        // where a comparison sort through the lengths was the slowest part
        // of compiling many secrets. The order holds each state's link, so
        // that the pass does not read the nodes again.
        let longest = b.states().map(|(_, n)| n.len).max().unwrap_or(0) as usize;
        let by_length = b.states();
        let mut order = Vec::with_capacity(b.count());
        layout::by_group(
            longest + 1,
            by_length.map(|(s, n)| (longest - n.len as usize, (s as u32, n.link))),
            &mut order,
        );
        for (i, &(s, parent)) in order.iter().enumerate() {
            // Read at random beyond the cache in a large automaton.
            if let Some(&(ahead, up)) = order.get(i + STATES_AHEAD) {
                prefetch(&seen[ahead as usize]);
                if up != NONE {
                    prefetch(&seen[up as usize]);
                }
            }
            if parent != NONE {
                let (end, room) = seen[s as usize];
                let up = &mut seen[parent as usize];
                *up = (up.0.min(end), up.1.max(room));
            }
        }
        // Each state's word (see `State::len_room`), in the place of its
        // room: its length and room, then its link's length and shorter
        // window prefix, shortest states first, down the order. In the
        // builder's ids: packing renumbers the states, and reads these
        // along with each node.
        for (s, node) in b.states() {
            assert!(node.len <= LEN_MASK, "a state within a value's length");
            let word = &mut seen[s].1;
            *word = node.len | *word << ROOM_AT;
        }
        let mut longest_prefix = vec![0u8; b.id_end()];
        for (i, &(s, link)) in order.iter().enumerate().rev() {
            if let Some(&(behind, down)) = i.checked_sub(STATES_AHEAD).map(|j| &order[j]) {
                prefetch(&seen[behind as usize]);
                prefetch(&longest_prefix[behind as usize]);
                if down != NONE {
                    prefetch(&seen[down as usize]);
                    prefetch(&longest_prefix[down as usize]);
                }
            }
            if link == NONE {
                continue; // the root: no string of a byte or more
            }
            let below = (seen[link as usize].1 & LEN_MASK).min(SHORT);
            let shorter = u32::from(longest_prefix[link as usize]);
            let word = &mut seen[s as usize].1;
            *word |= below << BELOW_AT | shorter << SHORTER_AT;
            // Where its own strings reach 15 bytes no longer, all of them
            // lie down the link: its shorter one, then.
            let own = (*word & LEN_MASK).min(SHORT);
            longest_prefix[s as usize] = window_prefix_in(*word, own).unwrap_or(shorter) as u8;
        }
        drop(order);
        drop(longest_prefix);
        let (mut sam, rank) = b.pack(
            Follow {
                starts,
                secrets,
                text,
                text_at,
                checkpoints,
            },
            &seen,
            large_from,
        );
        drop(seen);
        // The state a value's last byte left is the value's own: no walk
        // of each value again.
        for (state, len, secret) in wholes {
            let key = (u64::from(rank[state as usize]) << 32) | u64::from(len);
            sam.whole.entry(key).or_insert(secret);
        }
        sam
    }

    /// The state `byte` leads to from `state`, if any. Always inlined:
    /// called out of line (as the compiler chose), a step of text, which
    /// calls it about twice, spent a tenth of its instructions on the
    /// calls.
    #[inline(always)]
    pub(crate) fn next(&self, state: u32, byte: u8) -> Option<u32> {
        if state == ROOT {
            let to = self.root[byte as usize];
            return (to != NONE).then_some(to);
        }
        let s = state as usize;
        let this = self.states[s];
        let (from, to) = (this.first as usize, self.states[s + 1].first as usize);
        let count = to - from;
        // A small automaton's edge bytes, padded at the end for the word.
        let listed = || gram(&self.edge_bytes[from..from + GRAM]);
        let i = if count <= NARROW {
            // A few edges (most states have one), all compared at once, in
            // one word, where a loop over them was a mispredicted branch
            // at most bytes of text.
            let word = match (self.large, count <= INLINE_EDGES) {
                (true, true) => u64::from(this.slot),
                (true, false) => self.eight[this.slot as usize],
                (false, _) => listed(),
            };
            let i = first_equal(word, byte);
            if i >= count {
                return None;
            }
            i
        } else {
            let index = if self.large {
                this.slot
            } else {
                listed() as u32
            };
            self.wide[index as usize].place(byte)?
        };
        Some(self.edge_targets[from + i])
    }

    /// Some occurrence of the state's strings is followed by a byte: they
    /// can still grow along a value.
    #[inline]
    pub(crate) fn can_grow(&self, state: u32) -> bool {
        let s = state as usize;
        self.states[s].first != self.states[s + 1].first
    }

    #[inline]
    pub(crate) fn link(&self, state: u32) -> u32 {
        #[cfg(test)]
        LINKS_READ.with(|read| read.set(read.get() + 1));
        self.states[state as usize].link
    }

    #[inline]
    pub(crate) fn max_len(&self, state: u32) -> u32 {
        self.states[state as usize].len_room & LEN_MASK
    }

    /// The state of the suffix of `len` bytes of the strings of `state`
    /// (`len` at most the state's own length).
    #[inline]
    pub(crate) fn shorten(&self, mut state: u32, len: u32) -> u32 {
        while state != ROOT && self.max_len(self.link(state)) >= len {
            state = self.link(state);
        }
        state
    }

    /// Follows `byte` from `state`, which stands for a match of `len` bytes;
    /// returns the new state and match length (the longest suffix of the
    /// input so far that is a substring of a value).
    #[inline]
    pub(crate) fn step(&self, mut state: u32, mut len: u32, byte: u8) -> (u32, u32) {
        // The first edge and a fall back to the root (in text, most steps
        // end at one of them) before the loop: the compiler readies the
        // loop by loading the automaton's fields first, which a push of
        // one byte paid for at every other byte (3 to 8% fewer
        // instructions for such pushes at 10 to 10,000 tokens).
        if let Some(to) = self.next(state, byte) {
            return (to, len + 1);
        }
        if state == ROOT {
            return (ROOT, 0);
        }
        state = self.link(state);
        if state == ROOT {
            let to = self.root[byte as usize];
            return if to != NONE { (to, 1) } else { (ROOT, 0) };
        }
        len = self.max_len(state);
        loop {
            if let Some(to) = self.next(state, byte) {
                return (to, len + 1);
            }
            if state == ROOT {
                return (ROOT, 0);
            }
            state = self.link(state);
            len = self.max_len(state);
        }
    }

    /// Of the suffixes of a match of `len` bytes in `state`, the length of
    /// the longest that can still grow (0 when none can).
    pub(crate) fn growable(&self, mut state: u32, mut len: u32) -> u32 {
        while !self.can_grow(state) {
            if state == ROOT {
                return 0;
            }
            state = self.link(state);
            len = len.min(self.max_len(state));
        }
        len
    }

    /// Whether the suffix of `len` bytes (fewer than 16) of a match in
    /// `state` is a proper prefix of some window: enough value bytes follow
    /// one of its occurrences.
    pub(crate) fn starts_window(&self, state: u32, len: u32) -> bool {
        let state = self.shorten(state, len);
        (self.states[state as usize].len_room >> ROOM_AT & 31) + len >= FRAGMENT as u32
    }

    /// Of the suffixes of at most `longest` bytes (at most 15, and at most
    /// `len`) of a match of `len` bytes in `state`, the longest that is a
    /// proper prefix of some window: its length, 0 when none is. One read
    /// where `longest` is a length of the state's own strings (a match
    /// shorter than a window most often is): the lengths of its strings
    /// below it pass only if it does (they have the same room), and those
    /// of the states down the link are summed up in the state; one read too
    /// where all of them are down the link and that sum is no longer than
    /// `longest` (always where it is 15). Else a walk down the links, of
    /// at most `longest` states below the one that holds that length.
    #[inline]
    pub(crate) fn window_prefix_len(&self, state: u32, len: u32, longest: u32) -> u32 {
        debug_assert!(longest <= len.min(SHORT));
        let word = self.states[state as usize].len_room;
        window_prefix_in(word, longest).unwrap_or_else(|| self.window_prefix_walked(state, longest))
    }

    /// [`SuffixAutomaton::window_prefix_len`] length by length, where
    /// `longest` is a length of a state down the link (rare: out of line).
    #[inline(never)]
    fn window_prefix_walked(&self, state: u32, longest: u32) -> u32 {
        (1..=longest)
            .rev()
            .find(|&l| self.starts_window(state, l))
            .unwrap_or(0)
    }

    /// The candidate a fragment of `len` bytes in `state` is: raw for the
    /// first secret whose whole value it is, else a fragment of the first
    /// secret whose value holds it.
    pub(crate) fn candidate(&self, state: u32, len: u32) -> (Form, u32) {
        let state = self.shorten(state, len);
        let key = (u64::from(state) << 32) | u64::from(len);
        match self.whole.get(&key) {
            Some(&secret) => (Form::Raw, secret),
            None => (Form::Fragment, self.owner(state)),
        }
    }

    /// The first secret whose value holds the strings of `state`.
    fn owner(&self, state: u32) -> u32 {
        self.secrets[self.value_of(self.end(state))]
    }

    /// Where the strings of `state` first end among the bytes of all values.
    fn end(&self, state: u32) -> u32 {
        if self.large {
            self.ends[state as usize]
        } else {
            self.states[state as usize].slot
        }
    }

    /// The value (by its place in secret order) that holds position `at`
    /// among the bytes of all of them.
    fn value_of(&self, at: u32) -> usize {
        self.starts.partition_point(|&start| start <= at) - 1
    }

    /// Follows `input` from a match of `len` bytes ([`FOLLOW`] or more) in
    /// `state` for as far as it goes on along the first occurrence of the
    /// match in a value, where that value's bytes are kept (see `text`), by
    /// comparing bytes, where a step each read the automaton at random
    /// (inside a long value, the input is that value for kilobytes);
    /// returns the match after the `k` bytes it took, and `k` (0 where the
    /// first byte is not the one that follows there, or the value is
    /// shorter: the match may still go on, which the next step finds).
    /// Each of those bytes, stepped, would have made the match one byte
    /// longer, so the match is what stepping them gives.
    pub(crate) fn follow(&self, state: u32, len: u32, input: &[u8]) -> (u32, u32, usize) {
        debug_assert!(len as usize >= FOLLOW && len <= self.max_len(state));
        let end = self.end(state);
        let value = self.value_of(end);
        let from = self.text_at[value];
        if from == NONE {
            return (state, len, 0);
        }
        // The value's bytes in `text`, and where the match ends there.
        let value_len = (self.starts[value + 1] - self.starts[value]) as usize;
        let bytes = from as usize..from as usize + value_len;
        let end = bytes.start + (end - self.starts[value]) as usize;
        let k = common_prefix(&self.text[end + 1..bytes.end], input);
        if k == 0 {
            return (state, len, 0);
        }
        // The match now ends at `last` and starts at `first`: its state is
        // found from the last checkpoint in it (at most 7 bytes back), then
        // stepped to the end.
        let last = end + k;
        let len = len + k as u32;
        let first = last + 1 - len as usize;
        let checkpoint = ((last + 1) / CHECKPOINT).checked_sub(1);
        let at = checkpoint.map(|c| c * CHECKPOINT + CHECKPOINT - 1);
        let (mut state, from) = match (checkpoint, at) {
            (Some(c), Some(at)) if at >= first => (
                self.shorten(self.checkpoints[c], (at + 1 - first) as u32),
                at + 1,
            ),
            // A match of 8 bytes or fewer: stepped from the start.
            _ => (ROOT, first),
        };
        for &byte in &self.text[from..=last] {
            state = self.next(state, byte).expect("a substring of a value");
        }
        (state, len, k)
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.states.capacity() * std::mem::size_of::<State>()
            + self.text.capacity()
            + self.text_at.capacity() * 4
            + self.starts.capacity() * 4
            + self.secrets.capacity() * 4
            + self.checkpoints.capacity() * 4
            + self.edge_bytes.capacity()
            + self.edge_targets.capacity() * 4
            + self.eight.capacity() * 8
            + self.ends.capacity() * 4
            + self.root.capacity() * 4
            + self.wide.capacity() * std::mem::size_of::<Wide>()
            + self.whole.capacity() * 16
    }
}

/// [`SuffixAutomaton::window_prefix_len`] from a state's word alone, where
/// `longest` is a length of the state's own strings, or where it lies down
/// the link but is no shorter than the shorter window prefix there (`None`
/// where it is shorter: lengths down the link must be looked at one by
/// one).
#[inline(always)]
fn window_prefix_in(word: u32, longest: u32) -> Option<u32> {
    let shorter = word >> SHORTER_AT & SHORT;
    if longest <= (word >> BELOW_AT & SHORT) {
        // Every length up to `longest` lies down the link, and `shorter` is
        // the longest window prefix of them all (the walk down, link by
        // link, is as long as the run in a value that repeats itself).
        return (shorter <= longest).then_some(shorter);
    }
    if (word >> ROOM_AT & 31) + longest >= FRAGMENT as u32 {
        return Some(longest);
    }
    Some(shorter)
}

/// Text positions between two checkpoints of the prefix states.
const CHECKPOINT: usize = 8;
/// The shortest match [`SuffixAutomaton::follow`] takes on: 4 bytes of a
/// value of random text most often occur once in a large set (a walk of
/// the filter steps fewer bytes before it follows: 14% fewer steps at
/// 100 x 4 KiB than from 8).
pub(crate) const FOLLOW: usize = 4;
/// The shortest value a match is followed along (a PEM key, a service
/// account's JSON; not a token of 40 bytes, whose matches are short)...
const FOLLOWED: usize = 256;
/// ...but where the values are this many bytes in all (6,500 tokens of 40
/// bytes), every one: the automaton is beyond the second-level cache, and
/// a step of a token's match is a wait on memory.
const FOLLOW_ALL_FROM: usize = 1 << 18;

/// What [`SuffixAutomaton::follow`] reads, and the owners of the states'
/// first ends, made with the automaton.
struct Follow {
    starts: Vec<u32>,
    secrets: Vec<u32>,
    text: Wiped<u8>,
    text_at: Vec<u32>,
    checkpoints: Vec<u32>,
}

/// Bytes after the last edge of a small automaton, so that `next` reads
/// any state's first 8 edge bytes as one word.
const PAD: usize = GRAM;

/// The states of strings of up to this many bytes (at shortest) are packed
/// first (see [`Builder::hot_first`]).
const HOT: usize = 3;
const _: () = assert!(HOT < SHORT as usize);

/// The index of the first byte of `word` (little-endian) equal to `byte`,
/// 8 when none is: a zero byte of `word ^ byte…` sets its high bit in
/// `(x - 0x01…) & !x & 0x80…`, and only bytes above a zero one can do so
/// falsely, so the lowest bit set is exact.
#[inline(always)]
fn first_equal(word: u64, byte: u8) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let x = word ^ (u64::from(byte) * ONES);
    let zeros = x.wrapping_sub(ONES) & !x & (ONES << 7);
    (zeros.trailing_zeros() / 8) as usize
}

/// The automaton while it is built: each state with its first edges, the
/// others' targets in a table by (state, byte) and their bytes in a list
/// per state (an arena of linked entries), the root's in a table by byte.
struct Builder<K: EdgeKey> {
    /// The root and the states `extend` makes for a longer string, by id:
    /// a position's, one more than its place among the bytes of all values
    /// (see [`Builder::extend_all`]), so that they keep the order of the
    /// values, interleaved or not (where a string occurs more than once,
    /// which occurrence makes its state and which a clone can differ with
    /// the order). A [`Node::HOLE`] where a position made no state (its
    /// string occurred already).
    nodes: Vec<Node>,
    /// How many of `nodes` are states, not holes.
    made: usize,
    /// The clones, their ids from `split` (one more than the value bytes,
    /// past every id of `nodes`) on: the states of the strings that occur
    /// more than once, to which the construction's walks down the suffix
    /// links go at random, apart from the others, so that they share
    /// cache lines and pages (among those of every position of 100 x 64
    /// KiB they were a miss to memory each).
    clones: Vec<Node>,
    split: u32,
    /// The edges of a state after its first [`INLINE`], to list them:
    /// (byte, next edge of the same state).
    more: Vec<(u8, u32)>,
    root: Vec<u32>,
    /// (state, byte) → target of the edges in `more`: one probe, not a
    /// walk of a long list (the states of the shortest strings have most
    /// edges) and not a second read for the target.
    find: EdgeTable<K>,
}

/// Edges a state holds in its own node.
const INLINE: usize = 4;

/// The lines of a construction step's walk asked for ahead (see
/// [`Builder::extend_all`]), and how many steps apart their stages are:
/// the first line of the step 15 ahead, the second of the step 12 ahead,
/// ..., the fifth of the step 3 ahead (closer where fewer values run). At
/// 100 x 64 KiB the construction took 1.5 s so, against 2.2 to 2.4 one
/// value after another (with 4 stages 2 apart, 1.6 to 1.8; with 2, the
/// link's node and the target's, 2.4 to 2.5: no gain).
const WALK_STAGES: usize = 5;
const WALK_GAP: usize = 3;

/// Value bytes from which the construction goes through the values
/// interleaved (see [`Builder::extend_all`]). At 100 x 64 KiB the whole
/// compile took 4.6 to 4.8 s so against 5.3 to 5.8 one value after another
/// (the benchmark, alternated); at 10 x 64 KiB, where the builder is about
/// the size of the last-level cache, it took 0.41 to 0.42 µs a value byte
/// against 0.36 to 0.38, and at 10,000 tokens it lost too (each round
/// reads the state of every token's prefix, 10,000 of them, which one
/// value after another finds in the cache): from 1 MiB, between the two
/// long shapes measured. Any value (0 included) gives the same automaton
/// but for the numbering of some states (a string's state can be a clone
/// in one order and a position's in the other); the fuzzers use 0, so that
/// they go through the interleaved order, which the tests' smaller sets
/// do not.
#[cfg(not(fuzzing))]
const INTERLEAVE_FROM: usize = 1 << 20;
#[cfg(fuzzing)]
const INTERLEAVE_FROM: usize = 0;

/// How far ahead in their order the passes over the built states ask for
/// what they read at random (packing's ranks, see
/// [`Builder::prefetch_ranks`]; the passes up and down the links).
const STATES_AHEAD: usize = 16;

/// A state while the automaton is built, in half a cache line with its
/// first edges: a step of the construction visits states along suffix
/// links, old ones far apart, and reads one line for each (where an array
/// per field and a list of edges read up to seven, each a cache miss for
/// 10,000 tokens).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Node {
    /// Length of the longest string the state stands for.
    len: u32,
    link: u32,
    /// The head of the list of further edges in `more` (`NONE`: none).
    more: u32,
    /// The first edges, in the order they came: targets (`NONE` in a slot
    /// not used yet) and bytes.
    targets: [u32; INLINE],
    bytes: [u8; INLINE],
}

const _: () = assert!(std::mem::size_of::<Node>() == 32);

impl Node {
    /// A place in `nodes` that holds no state.
    const HOLE: Node = Node {
        len: NONE,
        link: NONE,
        more: NONE,
        targets: [NONE; INLINE],
        bytes: [0; INLINE],
    };

    fn is_hole(&self) -> bool {
        self.len == NONE
    }

    /// Where the edge on `byte` is among those held here.
    #[inline]
    fn slot_of(&self, byte: u8) -> Option<usize> {
        (0..INLINE)
            .take_while(|&i| self.targets[i] != NONE)
            .find(|&i| self.bytes[i] == byte)
    }

    /// The edges held here: (byte, target).
    fn inline(&self) -> impl Iterator<Item = (u8, u32)> + '_ {
        let used = self.targets.iter().take_while(|&&t| t != NONE).count();
        (0..used).map(|i| (self.bytes[i], self.targets[i]))
    }
}

/// State ids below this fit a key of 32 bits: (state << 8 | byte) + 1.
const NARROW_STATES: usize = (1 << 24) - 1;

/// The key of an edge table's slot: (state, byte), 0 for an empty slot.
trait EdgeKey: Copy + Eq + Default {
    fn of(state: u32, byte: u8) -> Self;
    /// The (state, byte) of a key made by [`EdgeKey::of`].
    fn parts(self) -> (u32, u8);
    fn hash(self) -> u64;
}

impl EdgeKey for u32 {
    #[inline]
    fn of(state: u32, byte: u8) -> u32 {
        debug_assert!((state as usize) < NARROW_STATES);
        ((state << 8) | u32::from(byte)) + 1
    }

    #[inline]
    fn parts(self) -> (u32, u8) {
        ((self - 1) >> 8, (self - 1) as u8)
    }

    #[inline]
    fn hash(self) -> u64 {
        u64::from(self)
    }
}

impl EdgeKey for u64 {
    #[inline]
    fn of(state: u32, byte: u8) -> u64 {
        ((u64::from(state) << 8) | u64::from(byte)) + 1
    }

    #[inline]
    fn parts(self) -> (u32, u8) {
        (((self - 1) >> 8) as u32, (self - 1) as u8)
    }

    #[inline]
    fn hash(self) -> u64 {
        self
    }
}

/// An open-addressing map from (state, byte) to a target, the key and
/// its target in one slot. It doubles past three quarters full, not half:
/// at 10,000 tokens 2 MB for its 183,000 edges, not 4, which the cache
/// holds better, and a probe's run of slots stays in a line or two.
struct EdgeTable<K: EdgeKey> {
    /// (key, target); key 0 is an empty slot.
    slots: Vec<(K, u32)>,
    len: usize,
}

impl<K: EdgeKey> EdgeTable<K> {
    fn new() -> EdgeTable<K> {
        EdgeTable {
            slots: vec![(K::default(), 0); 1024],
            len: 0,
        }
    }

    #[inline]
    fn slot(&self, key: K) -> usize {
        let mixed = key.hash().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20;
        mixed as usize & (self.slots.len() - 1)
    }

    /// The slot of `(state, byte)`: its own, or the empty one where it
    /// would go.
    #[inline]
    fn find(&self, state: u32, byte: u8) -> usize {
        let key = K::of(state, byte);
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        while self.slots[i].0 != key && self.slots[i].0 != K::default() {
            i = (i + 1) & mask;
        }
        i
    }

    #[inline]
    fn get(&self, state: u32, byte: u8) -> Option<u32> {
        let (key, target) = self.slots[self.find(state, byte)];
        (key != K::default()).then_some(target)
    }

    #[inline]
    fn get_mut(&mut self, state: u32, byte: u8) -> Option<&mut u32> {
        let i = self.find(state, byte);
        let (key, target) = &mut self.slots[i];
        (*key != K::default()).then_some(target)
    }

    /// Every edge: (state, (byte, target)), in the order of the slots.
    fn edges(&self) -> impl Iterator<Item = (usize, (u8, u32))> + Clone + '_ {
        let used = self.slots.iter().filter(|(key, _)| *key != K::default());
        used.map(|&(key, target)| {
            let (state, byte) = key.parts();
            (state as usize, (byte, target))
        })
    }

    /// Adds an edge the table does not hold.
    #[inline]
    fn insert(&mut self, state: u32, byte: u8, target: u32) {
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        self.put(K::of(state, byte), target);
        self.len += 1;
    }

    fn put(&mut self, key: K, target: u32) {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        while self.slots[i].0 != K::default() {
            i = (i + 1) & mask;
        }
        self.slots[i] = (key, target);
    }

    /// Twice the slots; the old ones (whose keys hold value bytes) wiped.
    fn grow(&mut self) {
        let bigger = vec![(K::default(), 0); 2 * self.slots.len()];
        let mut old = std::mem::replace(&mut self.slots, bigger);
        for &(key, target) in old.iter().filter(|(key, _)| *key != K::default()) {
            self.put(key, target);
        }
        wipe::zero(&mut old);
    }
}

/// The state of id `s` among a builder's `nodes` and `clones` (see
/// [`Builder::node`]): of the fields alone, so that a caller can use the
/// builder's others beside it.
#[inline(always)]
fn node_in<'a>(nodes: &'a mut [Node], clones: &'a mut [Node], split: u32, s: u32) -> &'a mut Node {
    if s < split {
        &mut nodes[s as usize]
    } else {
        &mut clones[(s - split) as usize]
    }
}

impl<K: EdgeKey> Drop for Builder<K> {
    fn drop(&mut self) {
        // The edges spell the values.
        for node in self.nodes.iter_mut().chain(&mut self.clones) {
            node.bytes = [0; INLINE];
        }
        std::hint::black_box(&mut self.nodes);
        std::hint::black_box(&mut self.clones);
        wipe::zero(&mut self.more);
        wipe::zero(&mut self.root);
        wipe::zero(&mut self.find.slots);
    }
}

impl<K: EdgeKey> Builder<K> {
    /// The state of id `s`, in `nodes` or in `clones`.
    #[inline(always)]
    fn node(&self, s: u32) -> &Node {
        if s < self.split {
            &self.nodes[s as usize]
        } else {
            &self.clones[(s - self.split) as usize]
        }
    }

    /// [`Builder::node`], to change.
    #[inline(always)]
    fn node_mut(&mut self, s: u32) -> &mut Node {
        node_in(&mut self.nodes, &mut self.clones, self.split, s)
    }

    /// One past the largest id: a table by id has a place for each state
    /// (and for the ids between `nodes` and `clones`, which none has).
    fn id_end(&self) -> usize {
        self.split as usize + self.clones.len()
    }

    /// The number of states.
    fn count(&self) -> usize {
        self.made + self.clones.len()
    }

    /// Every state with its id.
    fn states(&self) -> impl Iterator<Item = (usize, &Node)> + Clone + '_ {
        let split = self.split as usize;
        let clones = self.clones.iter().enumerate();
        let nodes = self.nodes.iter().enumerate();
        nodes
            .filter(|(_, n)| !n.is_hole())
            .chain(clones.map(move |(i, n)| (split + i, n)))
    }

    /// The state of id `id` (the root's, or a position's).
    fn state(&mut self, id: u32, len: u32, link: u32) -> u32 {
        let node = &mut self.nodes[id as usize];
        assert!(node.is_hole(), "a state a value byte at most");
        *node = Node {
            len,
            link,
            more: NONE,
            targets: [NONE; INLINE],
            bytes: [0; INLINE],
        };
        self.made += 1;
        if id == ROOT {
            self.root = vec![NONE; 256];
        }
        id
    }

    fn len(&self, state: u32) -> u32 {
        self.node(state).len
    }

    fn link(&self, state: u32) -> u32 {
        self.node(state).link
    }

    #[inline]
    fn get(&self, state: u32, byte: u8) -> Option<u32> {
        if state == ROOT {
            let to = self.root[byte as usize];
            return (to != NONE).then_some(to);
        }
        let node = self.node(state);
        match node.slot_of(byte) {
            Some(i) => Some(node.targets[i]),
            None if node.more == NONE => None,
            None => self.find.get(state, byte),
        }
    }

    /// Adds the edge of `state` on `byte`, which it does not have yet.
    fn add(&mut self, state: u32, byte: u8, target: u32) {
        if state == ROOT {
            self.root[byte as usize] = target;
            return;
        }
        let node = node_in(&mut self.nodes, &mut self.clones, self.split, state);
        if let Some(free) = node.targets.iter().position(|&t| t == NONE) {
            node.targets[free] = target;
            node.bytes[free] = byte;
            return;
        }
        let id = self.more.len() as u32;
        self.more.push((byte, node.more));
        node.more = id;
        self.find.insert(state, byte, target);
    }

    /// Sends the edge of `state` on `byte` to `to` if it goes to `from`;
    /// whether it did.
    fn redirect(&mut self, state: u32, byte: u8, from: u32, to: u32) -> bool {
        let target = if state == ROOT {
            &mut self.root[byte as usize]
        } else {
            let node = node_in(&mut self.nodes, &mut self.clones, self.split, state);
            match node.slot_of(byte) {
                Some(i) => &mut node.targets[i],
                None if node.more == NONE => return false,
                None => match self.find.get_mut(state, byte) {
                    Some(target) => target,
                    None => return false,
                },
            }
        };
        let redirected = *target == from;
        if redirected {
            *target = to;
        }
        redirected
    }

    /// A copy of `q` (its transitions too) of length `len`.
    fn clone_state(&mut self, q: u32, len: u32) -> u32 {
        let original = *self.node(q);
        let clone = self.split + self.clones.len() as u32;
        assert!(
            self.clones.len() < self.clones.capacity(),
            "a clone a value byte at most"
        );
        // Its inline edges copied; the others are added below.
        self.clones.push(Node {
            len,
            more: NONE,
            ..original
        });
        let mut e = original.more;
        while e != NONE {
            let (b, next) = self.more[e as usize];
            let to = self
                .find
                .get(q, b)
                .expect("every listed edge is in the table");
            self.add(clone, b, to);
            e = next;
        }
        clone
    }

    /// Appends every value: one after another, or `interleaved`, a byte
    /// of each value in turn (the first of each, then the second of each,
    /// ...: the order of a breadth-first walk of their trie, in which the
    /// generalised construction is as exact as one value after another).
    /// Each step's walk down the suffix links reads at random, each read
    /// waiting on the one before (in memory, at 100 x 64 KiB); the steps
    /// of different values do not wait on each other, so interleaved, the
    /// lines of the steps just ahead are asked for one stage at a time
    /// (see [`Builder::prefetch_walk`]) and their waits overlap. A new
    /// state's id is its position's (one more than `starts[value] + i`),
    /// either way. `each(builder, value, i, state)` follows each step.
    /// Returns the state of each value whole.
    fn extend_all(
        &mut self,
        values: &[&[u8]],
        starts: &[u32],
        interleaved: bool,
        mut each: impl FnMut(&Self, usize, usize, u32),
    ) -> Vec<u32> {
        let mut lasts = vec![ROOT; values.len()];
        if !interleaved {
            for (v, value) in values.iter().enumerate() {
                let mut last = ROOT;
                for (i, &byte) in value.iter().enumerate() {
                    last = self.extend(last, byte, starts[v] + i as u32 + 1);
                    each(self, v, i, last);
                }
                lasts[v] = last;
            }
            return lasts;
        }
        let mut active: Vec<u32> = (0..values.len() as u32).collect();
        let mut i = 0;
        loop {
            active.retain(|&v| values[v as usize].len() > i);
            let n = active.len();
            if n == 0 {
                return lasts;
            }
            // Closer stages where too few values run for them all.
            let gap = ((n - 1) / WALK_STAGES).clamp(1, WALK_GAP);
            for k in 0..n {
                for stage in 0..WALK_STAGES {
                    let ahead = (WALK_STAGES - stage) * gap;
                    // The step `ahead` of this one: in this round, or in
                    // the next where its value's step in this one is done.
                    let (w, j) = if k + ahead < n {
                        (active[k + ahead] as usize, i)
                    } else if ahead < n {
                        (active[k + ahead - n] as usize, i + 1)
                    } else {
                        continue;
                    };
                    if let Some(&byte) = values[w].get(j) {
                        self.prefetch_walk(lasts[w], byte, stage);
                    }
                }
                let v = active[k] as usize;
                let id = starts[v] + i as u32 + 1;
                let last = self.extend(lasts[v], values[v][i], id);
                lasts[v] = last;
                each(self, v, i, last);
            }
            i += 1;
        }
    }

    /// Asks for the `line`-th cache line (from 0) that `extend(last, byte,
    /// _)` will read at random, reading those before it (asked for at the
    /// stages before): the nodes down the suffix links from `last`'s, the
    /// edge table's slot where a node has more edges, and the target's
    /// node. A guess: the steps between may change what it reads.
    #[inline(always)]
    fn prefetch_walk(&self, last: u32, byte: u8, line: usize) {
        let node = self.node(last);
        if node.slot_of(byte).is_some() {
            return; // the transition is there: not the usual step
        }
        let mut p = node.link;
        let mut read = 0;
        while p != NONE && p != ROOT {
            let node = self.node(p);
            if read == line {
                prefetch(node);
                return;
            }
            read += 1;
            let target = match node.slot_of(byte) {
                Some(k) => Some(node.targets[k]),
                None if node.more != NONE => {
                    let key = K::of(p, byte);
                    let slot = &self.find.slots[self.find.slot(key)];
                    if read == line {
                        prefetch(slot);
                        return;
                    }
                    read += 1;
                    // The probe's first slot only: enough for a guess.
                    (slot.0 == key).then_some(slot.1)
                }
                None => None,
            };
            if let Some(q) = target {
                if read == line {
                    prefetch(self.node(q));
                }
                return;
            }
            p = node.link;
        }
    }

    /// Appends `byte` to the string whose state is `last`; returns the
    /// state of the longer string (the generalised construction: the
    /// transition may exist already, from another value), `id` if it is
    /// a new one.
    fn extend(&mut self, last: u32, byte: u8, id: u32) -> u32 {
        if let Some(q) = self.get(last, byte) {
            if self.len(last) + 1 == self.len(q) {
                return q;
            }
            let clone = self.clone_state(q, self.len(last) + 1);
            let mut p = last;
            while p != NONE && self.redirect(p, byte, q, clone) {
                p = self.link(p);
            }
            self.node_mut(q).link = clone;
            return clone;
        }
        let cur = self.state(id, self.len(last) + 1, ROOT);
        let mut p = last;
        let mut found = None;
        while p != NONE {
            found = self.get(p, byte);
            if found.is_some() {
                break;
            }
            self.add(p, byte, cur);
            p = self.link(p);
        }
        if let Some(q) = found {
            if self.len(p) + 1 == self.len(q) {
                self.node_mut(cur).link = q;
            } else {
                let clone = self.clone_state(q, self.len(p) + 1);
                while p != NONE && self.redirect(p, byte, q, clone) {
                    p = self.link(p);
                }
                self.node_mut(q).link = clone;
                self.node_mut(cur).link = clone;
            }
        }
        cur
    }

    /// The automaton, its states renumbered (see [`Builder::hot_first`]),
    /// and each builder state's id in it. `seen` holds each builder
    /// state's first end and word (see [`State`]).
    fn pack(
        self,
        follow: Follow,
        seen: &[(u32, u32)],
        large_from: usize,
    ) -> (SuffixAutomaton, Vec<u32>) {
        let Follow {
            starts,
            secrets,
            text,
            text_at,
            mut checkpoints,
        } = follow;
        let count = self.count();
        let id_end = self.id_end();
        let (perm, rank) = self.hot_first(seen);
        // A builder state's id once packed (`NONE` stays).
        let renumber = |s: u32| if s == NONE { NONE } else { rank[s as usize] };
        let large = count >= large_from;
        let mut states: Wiped<State> = wipe::with_capacity(count + 1);
        let mut ends = Vec::with_capacity(if large { count } else { 0 });
        // The edges past each state's inline ones, by state, from one pass
        // over the table: at 10,000 tokens a lookup of each down the
        // state's list missed the cache, and so did the lists.
        let mut listed: Wiped<(u8, u32)> = wipe::with_capacity(self.find.len);
        listed.resize(self.find.len, (0, 0));
        let listed_from = layout::by_group_in(id_end, self.find.edges(), &mut listed);
        let listed_of = |s: usize| &listed[listed_from[s] as usize..listed_from[s + 1] as usize];
        // The root's transitions are in its table, the others in their
        // nodes and listed (an edge never leaves its state): all counted,
        // so that the buffer that spells the values never grows (a grown
        // buffer leaves its old block, unwiped, behind).
        let counts = self.count_edges(|s| listed_of(s).len());
        let roots = self.root.iter().filter(|&&to| to != NONE).count();
        let total = counts.inline + listed.len() + roots;
        let mut edge_bytes: Wiped<u8> = wipe::with_capacity(if large { 0 } else { total + PAD });
        let mut edge_targets: Vec<u32> = Vec::with_capacity(total);
        let (many, wides) = (counts.over_inline, counts.over_narrow);
        let mut wide = wipe::with_capacity(wides);
        let mut eight = wipe::with_capacity(if large { many - wides } else { 0 });
        // (byte, target) of one state.
        let mut row: Vec<(u8, u32)> = Vec::with_capacity(256);
        for (i, &s) in perm.iter().enumerate() {
            if let Some(&ahead) = perm.get(i + STATES_AHEAD) {
                self.prefetch_ranks(ahead, &rank, listed_of(ahead as usize));
            }
            let s = s as usize;
            let node = self.node(s as u32);
            let (end, len_room) = seen[s];
            row.clear();
            if s as u32 == ROOT {
                for (b, &to) in self.root.iter().enumerate() {
                    if to != NONE {
                        row.push((b as u8, to));
                    }
                }
            } else {
                row.extend(node.inline());
                row.extend_from_slice(listed_of(s));
                row.sort_unstable_by_key(|&(byte, _)| byte);
            }
            // The bytes in a word, low byte first, zeros after them.
            let word = || {
                let bytes = row.iter().rev().map(|&(byte, _)| u64::from(byte));
                bytes.fold(0, |word, byte| word << 8 | byte)
            };
            let is_wide = row.len() > NARROW && s as u32 != ROOT;
            let wide_index = is_wide.then(|| {
                assert!(wide.len() < wide.capacity(), "wide states counted ahead");
                wide.push(Wide::of(row.iter().map(|&(byte, _)| byte)));
                wide.len() as u32 - 1
            });
            let slot = if !large {
                // Its `Wide`'s index in place of its first 4 bytes (which
                // `next` reads as a word, in either case).
                match wide_index {
                    Some(index) => {
                        edge_bytes.extend(index.to_le_bytes());
                        edge_bytes.extend(std::iter::repeat_n(0, row.len() - 4));
                    }
                    None => edge_bytes.extend(row.iter().map(|&(byte, _)| byte)),
                }
                end
            } else {
                ends.push(end);
                match wide_index {
                    Some(index) => index,
                    // The root's edges are in its table.
                    None if s as u32 == ROOT => 0,
                    None if row.len() <= INLINE_EDGES => word() as u32,
                    None => {
                        assert!(eight.len() < eight.capacity(), "states counted ahead");
                        eight.push(word());
                        eight.len() as u32 - 1
                    }
                }
            };
            states.push(State {
                first: edge_targets.len() as u32,
                len_room,
                link: renumber(node.link),
                slot,
            });
            edge_targets.extend(row.iter().map(|&(_, to)| renumber(to)));
        }
        debug_assert_eq!(edge_targets.len(), total, "edges counted ahead");
        states.push(State {
            first: edge_targets.len() as u32,
            ..State::default()
        });
        if !large {
            // Room for the last state's word in `next`.
            edge_bytes.extend([0; PAD]);
        }
        wipe::zero(&mut row);
        let mut root = wipe::with_capacity(256);
        root.extend(self.root.iter().map(|&to| renumber(to)));
        for state in &mut checkpoints {
            *state = renumber(*state);
        }
        let sam = SuffixAutomaton {
            states,
            edge_bytes,
            edge_targets,
            large,
            eight,
            ends,
            root,
            wide,
            whole: IntMap::default(),
            starts,
            secrets,
            text,
            text_at,
            checkpoints,
        };
        (sam, rank)
    }

    /// Starts loading the ranks that packing state `s` reads (those of its
    /// link and of its edges' targets, `listed` those past its inline
    /// ones): at random in a table of 4 bytes a state, beyond the cache in
    /// a large automaton (100 x 64 KiB: its loop 0.39 to 0.46 s against
    /// 0.73 to 0.75 s, where each waited on the one before).
    fn prefetch_ranks(&self, s: u32, rank: &[u32], listed: &[(u8, u32)]) {
        if s == ROOT {
            return;
        }
        let node = self.node(s);
        if node.link != NONE {
            prefetch(&rank[node.link as usize]);
        }
        let inline = node.inline().map(|(_, to)| to);
        for to in inline.chain(listed.iter().map(|&(_, to)| to)) {
            prefetch(&rank[to as usize]);
        }
    }

    /// The states in the order they are packed, and each state's place in
    /// it (its id once packed): by the length of their shortest string, up
    /// to [`HOT`] bytes, then the others, each group by builder id (the
    /// states of `nodes` in the order they were made, then the clones in
    /// theirs). Text steps through the states of short strings, a few of
    /// a large automaton's, at random: together, they take fewer cache
    /// lines and pages. The deep ones keep the order of the values, which
    /// a walk along a value follows.
    fn hot_first(&self, seen: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
        // The shortest string is a byte longer than the link's longest,
        // which the word holds up to 15 bytes.
        let depth = |(s, &(_, word)): (usize, &(u32, u32))| {
            let below = (word >> BELOW_AT & SHORT) as usize;
            let depth = if s as u32 == ROOT { 0 } else { below + 1 };
            (depth.min(HOT + 1), s as u32)
        };
        let mut perm = Vec::with_capacity(self.count());
        let states = self.states().map(|(s, _)| (s, &seen[s]));
        layout::by_group(HOT + 2, states.map(depth), &mut perm);
        let mut rank = vec![0u32; self.id_end()];
        for (new, &old) in perm.iter().enumerate() {
            rank[old as usize] = new as u32;
        }
        (perm, rank)
    }

    /// The edges the nodes hold inline, and the states other than the
    /// root with more than [`INLINE_EDGES`] edges and with more than
    /// [`NARROW`], given how many each lists past its inline ones: one
    /// pass over the nodes.
    fn count_edges(&self, listed: impl Fn(usize) -> usize) -> EdgeCounts {
        let mut counts = EdgeCounts::default();
        for (s, node) in self.states() {
            let inline = node.inline().count();
            counts.inline += inline;
            // The root's edges are in its table.
            let edges = if s as u32 == ROOT {
                0
            } else {
                inline + listed(s)
            };
            counts.over_inline += usize::from(edges > INLINE_EDGES);
            counts.over_narrow += usize::from(edges > NARROW);
        }
        counts
    }
}

/// What [`Builder::count_edges`] counts.
#[derive(Default)]
struct EdgeCounts {
    inline: usize,
    over_inline: usize,
    over_narrow: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(value: &[u8]) -> SuffixAutomaton {
        SuffixAutomaton::new([(0u32, value)].into_iter())
    }

    /// The longest prefix of `s` that is a substring of the values.
    fn walk(sam: &SuffixAutomaton, s: &[u8]) -> usize {
        let mut state = ROOT;
        for (i, &b) in s.iter().enumerate() {
            match sam.next(state, b) {
                Some(to) => state = to,
                None => return i,
            }
        }
        s.len()
    }

    #[test]
    fn first_equal_finds_the_first_equal_byte_of_a_word() {
        let mut next = crate::engine::xorshift(7);
        for _ in 0..10_000 {
            // Bytes from a small alphabet, so that repeats and bytes one
            // apart (where a borrow could mislead) are common.
            let bytes: [u8; 8] = std::array::from_fn(|_| (next() % 4) as u8 + 0x7f);
            let word = u64::from_le_bytes(bytes);
            for byte in 0x7e..0x84 {
                let expected = bytes.iter().position(|&b| b == byte).unwrap_or(8);
                assert_eq!(first_equal(word, byte), expected, "{bytes:?} {byte}");
            }
        }
        assert_eq!(first_equal(0, 0), 0);
        assert_eq!(first_equal(u64::MAX, 0xff), 0);
        assert_eq!(first_equal(u64::MAX, 0), 8);
    }

    /// A state of many edges is searched by halves, one of few in a word:
    /// every byte of a value whose first state has 1 to 40 edges.
    #[test]
    fn states_of_few_and_many_edges_step_alike() {
        for edges in 1..=40u8 {
            let value: Vec<u8> = (0..edges).flat_map(|b| [b'!', b'0' + b]).collect();
            let sam = one(&value);
            for b in 0..=255u8 {
                let after = sam.next(ROOT, b'!').expect("in the value");
                let expected = (b'0'..b'0' + edges).contains(&b);
                assert_eq!(sam.next(after, b).is_some(), expected, "{edges} edges, {b}");
            }
        }
    }

    /// A state whose edges are spread over the whole byte range (each
    /// word of a [`Wide`]'s bits, its first and last bits among them): every
    /// byte steps as a search of the edges would.
    #[test]
    fn wide_states_over_every_word_of_bytes() {
        let mut next = crate::engine::xorshift(11);
        for round in 0..200 {
            let count = 9 + (next() % 120) as usize;
            let mut followers: Vec<u8> = if round == 0 {
                vec![0, 1, 63, 64, 65, 127, 128, 191, 192, 254, 255]
            } else {
                (0..count).map(|_| next() as u8).collect()
            };
            followers.sort_unstable();
            followers.dedup();
            // `\x21 b` for each follower `b`, with a distinct byte pair
            // after it so the targets differ.
            let value: Vec<u8> = followers
                .iter()
                .enumerate()
                .flat_map(|(i, &b)| [0x21, b, (i % 251) as u8, (i / 251) as u8])
                .collect();
            let sam = one(&value);
            assert!(followers.len() <= NARROW || !sam.wide.is_empty());
            let after = sam.next(ROOT, 0x21).expect("in the value");
            for b in 0..=255u8 {
                let stepped = sam.next(after, b);
                let held = value.windows(2).any(|w| w == [0x21, b]);
                assert!(held || !followers.contains(&b));
                assert_eq!(stepped.is_some(), held, "{b}");
                if let Some(to) = stepped {
                    // The target is the state of "\x21 b": the 3-byte
                    // strings that follow it exactly where the value has them.
                    for c in 0..=255u8 {
                        let held = value.windows(3).any(|w| w == [0x21, b, c]);
                        assert_eq!(sam.next(to, c).is_some(), held, "{b} {c}");
                    }
                }
            }
        }
    }

    #[test]
    fn recognises_exactly_the_substrings() {
        for value in [&b"abracadabra"[..], b"aaaaaaaa", b"abababab", b"x"] {
            let sam = one(value);
            for i in 0..value.len() {
                for j in i..=value.len() {
                    assert_eq!(walk(&sam, &value[i..j]), j - i);
                }
            }
            assert!(walk(&sam, b"zz") == 0);
            assert_eq!(walk(&sam, &[value, b"!"].concat()), value.len());
        }
    }

    #[test]
    fn several_values_and_their_owners() {
        let values: [&[u8]; 3] = [b"abcabxyz", b"xyzqq", b"bcab"];
        let sam = SuffixAutomaton::new(values.iter().enumerate().map(|(i, v)| (i as u32, *v)));
        for (i, v) in values.iter().enumerate() {
            for a in 0..v.len() {
                for b in a + 1..=v.len() {
                    let sub = &v[a..b];
                    assert_eq!(walk(&sam, sub), sub.len());
                    let mut state = ROOT;
                    for &x in sub {
                        state = sam.next(state, x).unwrap();
                    }
                    let first = values
                        .iter()
                        .position(|w| w.windows(sub.len()).any(|x| x == sub));
                    let (form, owner) = sam.candidate(state, sub.len() as u32);
                    let whole = values.iter().position(|w| *w == sub);
                    match whole {
                        Some(w) => assert_eq!((form, owner as usize), (Form::Raw, w)),
                        None => {
                            assert_eq!((form, owner as usize), (Form::Fragment, first.unwrap()))
                        }
                    }
                    let _ = i;
                }
            }
        }
        assert_eq!(walk(&sam, b"abxyzqq"), 5);
    }

    /// A large automaton's layout (edge bytes in the states, first ends
    /// apart) against a small one's, built from the same values: the same
    /// states, each with the same transitions on every byte, link, length,
    /// window word and first end. Values of small and of large alphabets,
    /// so that states of 1 to 4, 5 to 8 and more edges all occur.
    #[test]
    fn both_layouts_alike() {
        let mut next = crate::engine::xorshift(17);
        // States of up to 4 edges, of 5 to 8, of more.
        let mut counts = [0; 3];
        // Built one value after another, then interleaved.
        for (alphabet, interleave_from) in [2u64, 6, 20, 90, 256]
            .into_iter()
            .zip([0, usize::MAX].into_iter().cycle())
        {
            let values: Vec<Vec<u8>> = (0..6)
                .map(|_| (0..300).map(|_| (next() % alphabet) as u8 ^ 0x41).collect())
                .collect();
            let total = values.iter().map(|v| v.len()).sum();
            let each = || values.iter().enumerate().map(|(i, v)| (i as u32, &v[..]));
            let build = |large_from| {
                SuffixAutomaton::build::<u32>(each(), total, false, large_from, interleave_from)
            };
            let (small, large) = (build(LARGE_FROM), build(0));
            assert!(!small.large && large.large);
            assert_eq!(small.states.len(), large.states.len());
            for s in 0..small.states.len() as u32 - 1 {
                let (a, b) = (small.states[s as usize], large.states[s as usize]);
                assert_eq!((a.first, a.len_room, a.link), (b.first, b.len_room, b.link));
                assert_eq!(small.end(s), large.end(s));
                for byte in 0..=255 {
                    assert_eq!(small.next(s, byte), large.next(s, byte), "{s} {byte}");
                }
                let edges = (small.states[s as usize + 1].first - a.first) as usize;
                counts[usize::from(edges > INLINE_EDGES) + usize::from(edges > NARROW)] += 1;
            }
        }
        assert!(counts.iter().all(|&c| c > 100), "{counts:?}");
    }

    /// Built interleaved (a byte of each value in turn), the automaton is
    /// the one built one value after another: as many states, and along
    /// any text the same match at every byte, with the same length of its
    /// state, candidate, room, window prefixes and growth, and each value
    /// whole the same. Sets with shared heads, repeated values, values
    /// inside others, of small and large alphabets and of mixed lengths.
    #[test]
    fn interleaved_and_one_after_another_alike() {
        let mut next = crate::engine::xorshift(23);
        for round in 0..60u64 {
            let alphabet = [2u64, 3, 8, 64, 256][round as usize % 5];
            let mut pick = || (next() % alphabet) as u8 ^ 0x30;
            let head: Vec<u8> = (0..round % 30).map(|_| pick()).collect();
            let mut values: Vec<Vec<u8>> = (0..1 + round % 9)
                .map(|i| {
                    let len = [3, 20, 90, 300][(round + i) as usize % 4];
                    let mut v = if i % 2 == 0 { head.clone() } else { Vec::new() };
                    v.extend((0..len).map(|_| pick()));
                    v
                })
                .collect();
            if round % 3 == 0 {
                values.push(values[0].clone());
            }
            if round % 4 == 1 {
                let inner = values[values.len() - 1][1..].to_vec();
                values.push(inner);
            }
            let total = values.iter().map(|v| v.len()).sum();
            let each = || {
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (2 * i as u32, &v[..]))
            };
            let large_from = if round % 2 == 0 { 0 } else { LARGE_FROM };
            let build = |interleave_from| {
                SuffixAutomaton::build::<u32>(each(), total, true, large_from, interleave_from)
            };
            let (one, mixed) = (build(usize::MAX), build(0));
            assert_eq!(one.states.len(), mixed.states.len(), "round {round}");
            assert_eq!(one.whole.len(), mixed.whole.len(), "round {round}");
            let mut text = Vec::new();
            while text.len() < 3000 {
                if next().is_multiple_of(4) {
                    text.push((next() % alphabet) as u8 ^ 0x30);
                } else {
                    let v = &values[(next() % values.len() as u64) as usize];
                    let from = (next() % v.len() as u64) as usize;
                    let to = from + (next() % (v.len() - from) as u64) as usize + 1;
                    text.extend_from_slice(&v[from..to]);
                }
            }
            let (mut a, mut b) = ((ROOT, 0), (ROOT, 0));
            for (at, &byte) in text.iter().enumerate() {
                a = one.step(a.0, a.1, byte);
                b = mixed.step(b.0, b.1, byte);
                let len = a.1;
                assert_eq!(len, b.1, "round {round}, byte {at}");
                if len == 0 {
                    assert_eq!((a.0, b.0), (ROOT, ROOT));
                    continue;
                }
                let about = |sam: &SuffixAutomaton, (s, len): (u32, u32)| {
                    (
                        sam.max_len(s),
                        sam.max_len(sam.link(s)),
                        sam.candidate(s, len),
                        sam.can_grow(s),
                        sam.growable(s, len),
                        sam.window_prefix_len(s, len, len.min(SHORT)),
                        len < FRAGMENT as u32 && sam.starts_window(s, len),
                        sam.whole
                            .get(&(u64::from(s) << 32 | u64::from(len)))
                            .copied(),
                    )
                };
                assert_eq!(about(&one, a), about(&mixed, b), "round {round}, byte {at}");
            }
        }
    }

    /// Packed, the states of the shortest strings come first, by length up
    /// to [`HOT`] bytes, and every state's strings are still the
    /// substrings they were: each state's shortest string is as long as
    /// its link's longest and a byte, and every substring walks to a state
    /// whose lengths hold it.
    #[test]
    fn states_of_short_strings_first() {
        let mut next = crate::engine::xorshift(13);
        let values: Vec<Vec<u8>> = (0..4)
            .map(|_| (0..700).map(|_| b'a' + (next() % 6) as u8).collect())
            .collect();
        let sam = SuffixAutomaton::new(values.iter().enumerate().map(|(i, v)| (i as u32, &v[..])));
        let count = sam.states.len() - 1;
        let depth = |s: u32| (sam.max_len(sam.link(s)) as usize + 1).min(HOT + 1);
        let depths: Vec<usize> = (1..count as u32).map(depth).collect();
        assert!(depths.is_sorted(), "shortest strings first");
        assert!(depths.contains(&HOT) && depths.contains(&(HOT + 1)));
        for v in &values {
            for a in (0..v.len()).step_by(37) {
                let mut state = ROOT;
                for (len, &b) in v[a..].iter().take(40).enumerate() {
                    state = sam.next(state, b).expect("a substring");
                    let len = len as u32 + 1;
                    assert!(sam.max_len(sam.link(state)) < len && len <= sam.max_len(state));
                }
            }
        }
    }

    /// States with more edges than a node holds, and clones of them (the
    /// generalised construction over many values of a small alphabet),
    /// with keys of both widths.
    #[test]
    fn states_of_many_edges_and_their_clones() {
        let mut next = crate::engine::xorshift(7);
        // `count` strings of `len` bytes drawn from `alphabet`.
        let mut strings = |count: usize, len: usize, alphabet: &[u8]| -> Vec<Vec<u8>> {
            let mut pick = || alphabet[(next() % alphabet.len() as u64) as usize];
            (0..count)
                .map(|_| (0..len).map(|_| pick()).collect())
                .collect()
        };
        let values = strings(40, 30, b"abcdefgh");
        let total = values.iter().map(|v| v.len()).sum();
        let each = || values.iter().enumerate().map(|(i, v)| (i as u32, &v[..]));
        // Both widths of key, and both layouts of the states.
        // And built one value after another and interleaved.
        let narrow = SuffixAutomaton::build::<u32>(each(), total, false, LARGE_FROM, usize::MAX);
        let wide = SuffixAutomaton::build::<u64>(each(), total, false, 0, 0);
        let holds =
            |s: &[u8]| s.is_empty() || values.iter().any(|v| v.windows(s.len()).any(|w| w == s));
        let probes = strings(2000, 12, b"abcdefghi");
        for sam in [&narrow, &wide] {
            for v in &values {
                for a in 0..v.len() {
                    for b in a + 1..=v.len() {
                        assert_eq!(walk(sam, &v[a..b]), b - a);
                    }
                }
            }
            // Random strings: recognised exactly as far as they are substrings.
            for s in &probes {
                let longest = (0..=s.len()).rev().find(|&n| holds(&s[..n])).unwrap();
                assert_eq!(walk(sam, s), longest);
            }
            let many = (0..sam.states.len() - 1)
                .filter(|&s| sam.states[s + 1].first - sam.states[s].first > INLINE as u32)
                .count();
            assert!(many > 8, "states with more edges than a node holds");
        }
    }

    /// The window test against its definition, for every suffix of every
    /// match met along random text over values of a small alphabet (so
    /// that states of every kind, and long links, are met).
    #[test]
    fn window_prefixes_as_defined() {
        let mut next = crate::engine::xorshift(5);
        for round in 0..60 {
            let alphabet: &[u8] = if round % 2 == 0 { b"ab" } else { b"abcd\n" };
            let mut pick = || alphabet[(next() % alphabet.len() as u64) as usize];
            let values: Vec<Vec<u8>> = (0..1 + round % 5)
                .map(|i| (0..8 + (i * 7 + round) % 40).map(|_| pick()).collect())
                .collect();
            let text: Vec<u8> = (0..300).map(|_| pick()).collect();
            let sam =
                SuffixAutomaton::new(values.iter().enumerate().map(|(i, v)| (i as u32, &v[..])));
            // A proper prefix of a window: some occurrence is followed by
            // enough value bytes to make 16.
            let starts_window = |s: &[u8]| {
                values.iter().any(|v| {
                    (0..v.len()).any(|i| {
                        v[i..].starts_with(s) && v.len() - i >= FRAGMENT && s.len() < FRAGMENT
                    })
                })
            };
            let (mut state, mut len) = (ROOT, 0);
            for end in 1..=text.len() {
                (state, len) = sam.step(state, len, text[end - 1]);
                for longest in 0..=len.min(SHORT) {
                    let expected = (1..=longest)
                        .rev()
                        .find(|&l| starts_window(&text[end - l as usize..end]))
                        .unwrap_or(0);
                    assert_eq!(sam.window_prefix_len(state, len, longest), expected);
                    if longest > 0 {
                        let suffix = &text[end - longest as usize..end];
                        assert_eq!(sam.starts_window(state, longest), starts_window(suffix));
                    }
                }
            }
        }
    }

    /// `follow` against stepping, at every position of random text made
    /// of pieces of values and noise, over repetitive values of a small
    /// alphabet (matches that go on along other occurrences than their
    /// first, clones, long links), with the owners of the matches.
    #[test]
    fn following_a_match_is_stepping_it() {
        let mut next = crate::engine::xorshift(11);
        // Bytes taken by a follow, and follows that took none: both met.
        let (mut taken_in_all, mut none_taken) = (0, 0);
        for round in 0..200 {
            let alphabet: &[u8] = [&b"ab"[..], b"abc\n", b"abcdefghijklmnop"][round % 3];
            let pick =
                |next: &mut dyn FnMut() -> u64| alphabet[(next() % alphabet.len() as u64) as usize];
            // Values long enough to be followed, and shorter ones.
            let values: Vec<Vec<u8>> = (0..1 + round % 4)
                .map(|i| {
                    let len = if (round + i) % 3 == 0 {
                        9 + (next() % 120) as usize
                    } else {
                        FOLLOWED + (next() % 200) as usize
                    };
                    (0..len).map(|_| pick(&mut next)).collect()
                })
                .collect();
            // Secrets by index with gaps, as the engine's long values are.
            let secret = |i: usize| (3 * i + 1) as u32;
            let each = || values.iter().enumerate().map(|(i, v)| (secret(i), &v[..]));
            let total = values.iter().map(|v| v.len()).sum();
            // Every value followed (as in a large set), or the long ones.
            // In both layouts of the states.
            let large_from = if round % 3 == 0 { 0 } else { LARGE_FROM };
            let interleave_from = if round % 4 < 2 { 0 } else { usize::MAX };
            let sam = SuffixAutomaton::build::<u32>(
                each(),
                total,
                round % 2 == 0,
                large_from,
                interleave_from,
            );
            let mut text = Vec::new();
            while text.len() < 1000 {
                if next().is_multiple_of(3) {
                    text.push(pick(&mut next));
                } else {
                    let v = &values[(next() % values.len() as u64) as usize];
                    let from = (next() % v.len() as u64) as usize;
                    let to = from + (next() % (v.len() - from) as u64) as usize + 1;
                    text.extend_from_slice(&v[from..to]);
                }
            }
            let (mut state, mut len) = (ROOT, 0);
            for at in 0..text.len() {
                if len as usize >= FOLLOW {
                    let (to, to_len, taken) = sam.follow(state, len, &text[at..]);
                    taken_in_all += taken;
                    none_taken += usize::from(taken == 0);
                    let (mut s, mut l) = (state, len);
                    for &byte in &text[at..at + taken] {
                        let stepped = sam.step(s, l, byte);
                        assert_eq!(stepped.1, l + 1, "only longer");
                        (s, l) = stepped;
                    }
                    assert_eq!((to, to_len), (s, l), "round {round} at {at}");
                    // The match's owner: the first secret holding it (a
                    // brute-force search: at some positions).
                    if at % 5 != 0 {
                        (state, len) = sam.step(state, len, text[at]);
                        continue;
                    }
                    let found = &text[at + taken - l as usize..at + taken];
                    let first = values
                        .iter()
                        .position(|v| v.windows(found.len()).any(|w| w == found))
                        .expect("a substring");
                    let whole = values.iter().position(|v| v[..] == *found);
                    let expected = match whole {
                        Some(w) => (Form::Raw, secret(w)),
                        None => (Form::Fragment, secret(first)),
                    };
                    assert_eq!(sam.candidate(s, l), expected);
                }
                (state, len) = sam.step(state, len, text[at]);
            }
        }
        assert!(
            taken_in_all > 100_000 && none_taken > 1_000,
            "{taken_in_all} {none_taken}"
        );
    }

    #[test]
    fn matching_statistics_and_growth() {
        let sam = one(b"abcab");
        let (mut state, mut len) = (ROOT, 0);
        let mut lens = Vec::new();
        for &b in b"xabcabcab" {
            (state, len) = sam.step(state, len, b);
            lens.push(len);
        }
        assert_eq!(lens, [0, 1, 2, 3, 4, 5, 3, 4, 5]);
        // "abcab" ends the value: cannot grow; its suffix "ab" can ("abc").
        assert_eq!(sam.growable(state, len), 2);
    }
}
