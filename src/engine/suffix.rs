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
use super::wipe::{self, Wiped};

pub(crate) struct SuffixAutomaton {
    /// By state id, one cache line for what a step reads. A sentinel at
    /// the end gives the last state's edge count.
    states: Vec<State>,
    /// The transitions of state `s`: at `states[s].first..states[s + 1].first`
    /// of both, by byte: the bytes (which spell the values: wiped) apart
    /// from the targets, so that an edge takes 5 bytes, not 8.
    edge_bytes: Wiped<u8>,
    edge_targets: Vec<u32>,
    /// The root's transitions by byte (`NONE` where there is none): the
    /// state the input falls back to most often.
    root: Wiped<u32>,
    /// Per state: the most value bytes that follow an occurrence of its
    /// strings, capped at 16 (a short suffix of the input is a proper prefix
    /// of a window when this many bytes can follow it).
    room: Vec<u8>,
    /// Whole values: (state << 32 | length) → the first secret with it.
    whole: IntMap<u64, u32>,
}

#[derive(Clone, Copy, Default)]
struct State {
    first: u32,
    /// Length of the longest string the state stands for.
    len: u32,
    /// Suffix link: the state of the longest suffix in another class.
    link: u32,
    /// The first secret (by index) whose value holds the state's strings.
    owner: u32,
}

pub(crate) const ROOT: u32 = 0;
const NONE: u32 = u32::MAX;

impl SuffixAutomaton {
    /// The online construction over several strings, then transitions
    /// packed by state. `values` are (secret index, value), in index order.
    pub(crate) fn new<'a>(values: impl Iterator<Item = (u32, &'a [u8])> + Clone) -> Self {
        // At most 2n states and 3n transitions: reserved, so no buffer
        // that spells a value grows and leaves a copy behind.
        let total: usize = values.clone().map(|(_, v)| v.len()).sum();
        let mut b = Builder {
            len: Vec::with_capacity(2 * total + 1),
            link: Vec::with_capacity(2 * total + 1),
            head: Vec::with_capacity(2 * total + 1),
            edges: Vec::with_capacity(3 * total),
            degree: Vec::with_capacity(2 * total + 1),
            root: Vec::new(),
            find: EdgeTable::new(),
        };
        b.state(0, NONE);
        let mut owner = vec![u32::MAX];
        let mut room = vec![0u8];
        for (secret, value) in values.clone() {
            let mut last = ROOT;
            for (i, &byte) in value.iter().enumerate() {
                last = b.extend(last, byte);
                owner.resize(b.len.len(), u32::MAX);
                room.resize(b.len.len(), 0);
                let s = last as usize;
                owner[s] = owner[s].min(secret);
                let follow = (value.len() - i - 1).min(FRAGMENT) as u8;
                room[s] = room[s].max(follow);
            }
        }
        owner.resize(b.len.len(), u32::MAX);
        room.resize(b.len.len(), 0);
        // An occurrence of a string is one of each of its suffixes: push
        // owners and room up the suffix links, longest states first.
        // By a counting sort on the length (at most a value's): linear,
        // where a comparison sort through the lengths was the slowest part
        // of compiling many secrets.
        let longest = b.len.iter().copied().max().unwrap_or(0) as usize;
        let by_length = b.len.iter().enumerate();
        let mut order = Vec::with_capacity(b.len.len());
        layout::by_group(
            longest + 1,
            by_length.map(|(state, &len)| (longest - len as usize, state as u32)),
            &mut order,
        );
        for &s in &order {
            let parent = b.link[s as usize];
            if parent != NONE {
                let (s, p) = (s as usize, parent as usize);
                owner[p] = owner[p].min(owner[s]);
                room[p] = room[p].max(room[s]);
            }
        }
        drop(order);
        let mut sam = b.pack();
        for (state, owner) in sam.states.iter_mut().zip(&owner) {
            state.owner = *owner;
        }
        sam.room = room;
        for (secret, value) in values {
            let mut state = ROOT;
            for &byte in value {
                state = sam.next(state, byte).expect("a value is its own substring");
            }
            let key = (u64::from(state) << 32) | value.len() as u64;
            sam.whole.entry(key).or_insert(secret);
        }
        sam
    }

    #[inline]
    pub(crate) fn next(&self, state: u32, byte: u8) -> Option<u32> {
        if state == ROOT {
            let to = self.root[byte as usize];
            return (to != NONE).then_some(to);
        }
        let s = state as usize;
        let (from, to) = (
            self.states[s].first as usize,
            self.states[s + 1].first as usize,
        );
        let bytes = &self.edge_bytes[from..to];
        let i = if bytes.len() <= 8 {
            bytes.iter().position(|&b| b == byte)?
        } else {
            bytes.binary_search(&byte).ok()?
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
        self.states[state as usize].link
    }

    #[inline]
    pub(crate) fn max_len(&self, state: u32) -> u32 {
        self.states[state as usize].len
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
        u32::from(self.room[state as usize]) + len >= FRAGMENT as u32
    }

    /// The candidate a fragment of `len` bytes in `state` is: raw for the
    /// first secret whose whole value it is, else a fragment of the first
    /// secret whose value holds it.
    pub(crate) fn candidate(&self, state: u32, len: u32) -> (Form, u32) {
        let state = self.shorten(state, len);
        let key = (u64::from(state) << 32) | u64::from(len);
        match self.whole.get(&key) {
            Some(&secret) => (Form::Raw, secret),
            None => (Form::Fragment, self.states[state as usize].owner),
        }
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.states.capacity() * std::mem::size_of::<State>()
            + self.edge_bytes.capacity()
            + self.edge_targets.capacity() * 4
            + self.root.capacity() * 4
            + self.room.capacity()
            + self.whole.capacity() * 16
    }
}

/// The automaton while it is built: transitions in one list per state
/// (an arena of linked edges), the root's in a table.
struct Builder {
    len: Vec<u32>,
    link: Vec<u32>,
    head: Vec<u32>,
    /// (byte, target, next edge of the same state).
    edges: Vec<(u8, u32, u32)>,
    /// Per state, its edges (counted up to 255).
    degree: Vec<u8>,
    root: Vec<u32>,
    /// (state, byte) → edge for the states of more than [`LIST`] edges,
    /// so that a lookup does not walk a long list. The others' lists are
    /// walked: the states a value's construction visits are mostly the
    /// newest, whose few edges are near one another, where a table of
    /// every edge sent each probe of 10,000 tokens to memory.
    find: EdgeTable,
}

/// Edges a state may have and be looked up by its list.
const LIST: u8 = 4;

/// An open-addressing map from (state, byte) to an edge index, a key and
/// its edge in one slot. It doubles past half full.
struct EdgeTable {
    /// (key, edge); key 0 is an empty slot.
    slots: Vec<(u64, u32)>,
    len: usize,
}

impl EdgeTable {
    fn new() -> EdgeTable {
        EdgeTable {
            slots: vec![(0, 0); 1024],
            len: 0,
        }
    }

    #[inline]
    fn key(state: u32, byte: u8) -> u64 {
        ((u64::from(state) << 8) | u64::from(byte)) + 1
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & (self.slots.len() - 1)
    }

    #[inline]
    fn get(&self, state: u32, byte: u8) -> Option<u32> {
        let key = Self::key(state, byte);
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            match self.slots[i] {
                (0, _) => return None,
                (k, edge) if k == key => return Some(edge),
                _ => i = (i + 1) & mask,
            }
        }
    }

    #[inline]
    fn insert(&mut self, state: u32, byte: u8, edge: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        self.put(Self::key(state, byte), edge);
        self.len += 1;
    }

    fn put(&mut self, key: u64, edge: u32) {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        while self.slots[i].0 != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = (key, edge);
    }

    /// Twice the slots; the old ones (whose keys hold value bytes) wiped.
    fn grow(&mut self) {
        let bigger = vec![(0, 0); 2 * self.slots.len()];
        let mut old = std::mem::replace(&mut self.slots, bigger);
        for &(key, edge) in old.iter().filter(|(key, _)| *key != 0) {
            self.put(key, edge);
        }
        wipe::zero(&mut old);
    }
}

impl Drop for Builder {
    fn drop(&mut self) {
        // The edges spell the values.
        wipe::zero(&mut self.edges);
        wipe::zero(&mut self.root);
        wipe::zero(&mut self.find.slots);
    }
}

impl Builder {
    fn state(&mut self, len: u32, link: u32) -> u32 {
        let id = self.len.len() as u32;
        self.len.push(len);
        self.link.push(link);
        self.head.push(NONE);
        self.degree.push(0);
        if id == ROOT {
            self.root = vec![NONE; 256];
        }
        id
    }

    fn get(&self, state: u32, byte: u8) -> Option<u32> {
        if state == ROOT {
            let to = self.root[byte as usize];
            return (to != NONE).then_some(to);
        }
        self.edge(state, byte).map(|e| self.edges[e as usize].1)
    }

    /// The edge of `state` (not the root) on `byte`.
    #[inline]
    fn edge(&self, state: u32, byte: u8) -> Option<u32> {
        if self.degree[state as usize] > LIST {
            return self.find.get(state, byte);
        }
        let mut e = self.head[state as usize];
        while e != NONE {
            let (b, _, next) = self.edges[e as usize];
            if b == byte {
                return Some(e);
            }
            e = next;
        }
        None
    }

    fn set(&mut self, state: u32, byte: u8, target: u32) {
        if state == ROOT {
            self.root[byte as usize] = target;
            return;
        }
        if let Some(e) = self.edge(state, byte) {
            self.edges[e as usize].1 = target;
            return;
        }
        let id = self.edges.len() as u32;
        let s = state as usize;
        self.edges.push((byte, target, self.head[s]));
        self.head[s] = id;
        self.degree[s] = self.degree[s].saturating_add(1);
        if self.degree[s] == LIST + 1 {
            // From now on by the table: every edge so far goes in.
            let mut e = id;
            while e != NONE {
                let (b, _, next) = self.edges[e as usize];
                self.find.insert(state, b, e);
                e = next;
            }
        } else if self.degree[s] > LIST {
            self.find.insert(state, byte, id);
        }
    }

    /// A copy of `q` (its transitions too) of length `len`.
    fn clone_state(&mut self, q: u32, len: u32) -> u32 {
        let clone = self.state(len, self.link[q as usize]);
        let mut e = self.head[q as usize];
        while e != NONE {
            let (b, to, next) = self.edges[e as usize];
            self.set(clone, b, to);
            e = next;
        }
        clone
    }

    /// Appends `byte` to the string whose state is `last`; returns the
    /// state of the longer string (the generalised construction: the
    /// transition may exist already, from another value).
    fn extend(&mut self, last: u32, byte: u8) -> u32 {
        if let Some(q) = self.get(last, byte) {
            if self.len[last as usize] + 1 == self.len[q as usize] {
                return q;
            }
            let clone = self.clone_state(q, self.len[last as usize] + 1);
            let mut p = last;
            while p != NONE && self.get(p, byte) == Some(q) {
                self.set(p, byte, clone);
                p = self.link[p as usize];
            }
            self.link[q as usize] = clone;
            return clone;
        }
        let cur = self.state(self.len[last as usize] + 1, ROOT);
        let mut p = last;
        while p != NONE && self.get(p, byte).is_none() {
            self.set(p, byte, cur);
            p = self.link[p as usize];
        }
        if p != NONE {
            let q = self.get(p, byte).expect("found above");
            if self.len[p as usize] + 1 == self.len[q as usize] {
                self.link[cur as usize] = q;
            } else {
                let clone = self.clone_state(q, self.len[p as usize] + 1);
                while p != NONE && self.get(p, byte) == Some(q) {
                    self.set(p, byte, clone);
                    p = self.link[p as usize];
                }
                self.link[q as usize] = clone;
                self.link[cur as usize] = clone;
            }
        }
        cur
    }

    fn pack(mut self) -> SuffixAutomaton {
        let count = self.len.len();
        let mut states = Vec::with_capacity(count + 1);
        // The root's transitions are in its table, not in the arena (whose
        // every edge is in one state's list, never taken out): both
        // counted, so that the buffer that spells the values never grows
        // (a grown buffer leaves its old block, unwiped, behind).
        let total = self.edges.len() + self.root.iter().filter(|&&to| to != NONE).count();
        let mut edge_bytes: Wiped<u8> = wipe::with_capacity(total);
        let mut edge_targets: Vec<u32> = Vec::with_capacity(total);
        // (byte, target) of one state.
        let mut row: Vec<(u8, u32)> = Vec::with_capacity(256);
        for s in 0..count {
            states.push(State {
                first: edge_bytes.len() as u32,
                len: self.len[s],
                link: self.link[s],
                owner: u32::MAX,
            });
            row.clear();
            if s as u32 == ROOT {
                for (b, &to) in self.root.iter().enumerate() {
                    if to != NONE {
                        row.push((b as u8, to));
                    }
                }
            } else {
                let mut e = self.head[s];
                while e != NONE {
                    let (byte, to, next) = self.edges[e as usize];
                    row.push((byte, to));
                    e = next;
                }
                row.sort_unstable_by_key(|&(byte, _)| byte);
            }
            edge_bytes.extend(row.iter().map(|&(byte, _)| byte));
            edge_targets.extend(row.iter().map(|&(_, to)| to));
        }
        debug_assert_eq!(edge_bytes.len(), total, "edges counted ahead");
        states.push(State {
            first: edge_bytes.len() as u32,
            ..State::default()
        });
        wipe::zero(&mut row);
        let mut root = wipe::with_capacity(256);
        root.extend_from_slice(&self.root);
        self.head = Vec::new();
        SuffixAutomaton {
            states,
            edge_bytes,
            edge_targets,
            root,
            room: Vec::new(),
            whole: IntMap::default(),
        }
    }
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
