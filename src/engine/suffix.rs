//! A suffix automaton of one value: it recognises every substring of the
//! value, so following the input through it gives, at each byte, the
//! longest suffix of the input that is a substring of the value. That is
//! exactly how far each fragment extends (SPEC §3: a 16-byte window
//! extended byte by byte along the value, at every offset where it occurs),
//! in constant amortised time per byte however repetitive the value is.

use std::collections::BTreeMap;

pub(crate) struct SuffixAutomaton {
    /// Length of the longest string each state stands for.
    len: Vec<u32>,
    /// Suffix link: the state of the longest suffix in another class.
    link: Vec<u32>,
    /// Transitions of state `s`: `edges[first[s]..first[s + 1]]`, by byte.
    first: Vec<u32>,
    edges: Vec<(u8, u32)>,
}

pub(crate) const ROOT: u32 = 0;
const NONE: u32 = u32::MAX;

impl SuffixAutomaton {
    /// The classic online construction, then transitions packed by state.
    pub(crate) fn new(value: &[u8]) -> SuffixAutomaton {
        let mut len = vec![0u32];
        let mut link = vec![NONE];
        let mut next: Vec<BTreeMap<u8, u32>> = vec![BTreeMap::new()];
        let mut last = ROOT;
        for &byte in value {
            let cur = len.len() as u32;
            len.push(len[last as usize] + 1);
            link.push(ROOT);
            next.push(BTreeMap::new());
            let mut p = last;
            while p != NONE && !next[p as usize].contains_key(&byte) {
                next[p as usize].insert(byte, cur);
                p = link[p as usize];
            }
            if p != NONE {
                let q = next[p as usize][&byte];
                if len[p as usize] + 1 == len[q as usize] {
                    link[cur as usize] = q;
                } else {
                    let clone = len.len() as u32;
                    len.push(len[p as usize] + 1);
                    link.push(link[q as usize]);
                    next.push(next[q as usize].clone());
                    while p != NONE && next[p as usize].get(&byte) == Some(&q) {
                        next[p as usize].insert(byte, clone);
                        p = link[p as usize];
                    }
                    link[q as usize] = clone;
                    link[cur as usize] = clone;
                }
            }
            last = cur;
        }
        let mut first = Vec::with_capacity(next.len() + 1);
        let mut edges = Vec::new();
        for map in &next {
            first.push(edges.len() as u32);
            edges.extend(map.iter().map(|(&b, &s)| (b, s)));
        }
        first.push(edges.len() as u32);
        SuffixAutomaton {
            len,
            link,
            first,
            edges,
        }
    }

    #[inline]
    fn edges(&self, state: u32) -> &[(u8, u32)] {
        let s = state as usize;
        &self.edges[self.first[s] as usize..self.first[s + 1] as usize]
    }

    #[inline]
    pub(crate) fn next(&self, state: u32, byte: u8) -> Option<u32> {
        let edges = self.edges(state);
        if edges.len() <= 8 {
            edges.iter().find(|e| e.0 == byte).map(|e| e.1)
        } else {
            edges
                .binary_search_by_key(&byte, |e| e.0)
                .ok()
                .map(|i| edges[i].1)
        }
    }

    /// Some occurrence of the state's strings is followed by a byte: they
    /// can still grow along the value.
    #[inline]
    pub(crate) fn can_grow(&self, state: u32) -> bool {
        !self.edges(state).is_empty()
    }

    #[inline]
    pub(crate) fn link(&self, state: u32) -> u32 {
        self.link[state as usize]
    }

    #[inline]
    pub(crate) fn max_len(&self, state: u32) -> u32 {
        self.len[state as usize]
    }

    /// Follows `byte` from `state`, which stands for a match of `len` bytes;
    /// returns the new state and match length (the longest suffix of the
    /// input so far that is a substring of the value).
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

    pub(crate) fn memory_usage(&self) -> usize {
        self.len.capacity() * 4
            + self.link.capacity() * 4
            + self.first.capacity() * 4
            + self.edges.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The longest prefix of `s` that is a substring of `v`, by walking.
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
            let sam = SuffixAutomaton::new(value);
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
    fn matching_statistics_and_growth() {
        let value = b"abcab";
        let sam = SuffixAutomaton::new(value);
        let (mut state, mut len) = (ROOT, 0);
        let mut lens = Vec::new();
        for &b in b"xabcabcab" {
            (state, len) = sam.step(state, len, b);
            lens.push(len);
        }
        // "x" 0, "a" 1, "ab" 2, "abc" 3, "abca" 4, "abcab" 5, "cabc"? no: "abc" 3 ...
        assert_eq!(lens, [0, 1, 2, 3, 4, 5, 3, 4, 5]);
        // "abcab" ends the value: cannot grow; its suffix "ab" can ("abc").
        assert_eq!(sam.growable(state, len), 2);
    }
}
