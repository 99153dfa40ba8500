//! An Aho–Corasick automaton over the patterns' prefixes, stepped one byte
//! at a time so its state carries across pushes, together with what
//! streaming needs besides the matches: for each state, how long the
//! longest suffix it stands for is that is a proper prefix of a pattern.
//!
//! The engine's own, laid out as `aho-corasick`'s contiguous NFA (whose
//! builder it replaces): its states spell the patterns in their
//! transitions, so they, the trie they are built from and the byte classes
//! live in wiped buffers, where that crate freed its own unwiped (all of a
//! value of 16 bytes or fewer, as the raw pattern's transitions).

use zeroize::Zeroize;

use super::prefetch::prefetch;
use super::wipe::{self, Wiped};

/// A state: its offset in the automaton's words.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct StateId(u32);

pub(crate) struct Automaton {
    /// The states one after another, each: a header word, the failure
    /// link, the transitions, the ids of the patterns that end there (its
    /// own, then those its failure link has). The header holds the kind
    /// (bits 0 to 7: [`DENSE`], [`ONE`] or the number of sparse
    /// transitions), a [`ONE`] state's byte class (8 to 15), the number of
    /// matches (16 to 23) and the pending length (24 to 31). A dense state
    /// has a target for each byte class ([`FAIL`] where it has none); a
    /// sparse one its classes, four to a word, then a target for each; a
    /// [`ONE`] state its one target.
    repr: Wiped<u32>,
    /// Each byte's class: the bytes that no pattern tells apart share one,
    /// so that a dense state has a target a class, not a byte.
    classes: [u8; 256],
    classes_len: usize,
    /// Each pattern's length, by id.
    lens: Vec<u32>,
}

/// The start state, laid out first.
const START: StateId = StateId(0);

const DENSE: u32 = 0xFF;
const ONE: u32 = 0xFE;
/// More transitions than this make a state dense (the start state has one
/// on every byte class, as its own failure).
const MAX_SPARSE: usize = 127;
/// Patterns from which the start state's children are dense too: text
/// steps through them at almost every byte, and a sparse one is searched
/// (at 1,000 tokens, 1 B pushes took a fifth more instructions with them
/// sparse). Below, they would be most of the memory of a few tokens.
const DENSE_CHILDREN_FROM: usize = 256;
/// No target: a dense state's entry for a class it has no transition on.
const FAIL: u32 = u32::MAX;
/// Longest pattern: its length must fit a header's 8 bits of pending.
pub(crate) const LONGEST: usize = 255;
/// Most patterns that can end at one state (its own and its suffixes').
const MOST_MATCHES: usize = 255;

impl Automaton {
    /// An automaton over `patterns` (each 1 to 255 bytes), reporting every
    /// occurrence of every pattern (overlapping, as `aho-corasick`'s
    /// `MatchKind::Standard`). Pattern ids are indexes into `patterns`.
    ///
    /// # Panics
    /// When a pattern is empty or longer than 255 bytes, or when more than
    /// 255 patterns end at one position (the engine's are distinct
    /// prefixes of at most 16 bytes).
    pub(crate) fn new(patterns: &[&[u8]]) -> Automaton {
        assert!(
            patterns.iter().all(|p| (1..=LONGEST).contains(&p.len())),
            "patterns of 1 to 255 bytes"
        );
        let (classes, classes_len) = byte_classes(patterns);
        let trie = Trie::new(patterns, &classes);
        let levels = trie.breadth_first(trie.nodes.len() >= BREADTH_FIRST_AHEAD_FROM);
        let dense_children = patterns.len() >= DENSE_CHILDREN_FROM;
        Automaton {
            repr: levels.lay_out(&trie, classes_len, dense_children),
            classes,
            classes_len,
            lens: patterns.iter().map(|p| p.len() as u32).collect(),
        }
    }

    /// The start of an unanchored walk: the empty input.
    pub(crate) fn start(&self) -> StateId {
        START
    }

    /// The start of an anchored walk: patterns that start where it starts.
    pub(crate) fn anchored_start(&self) -> StateId {
        START
    }

    /// One step of an anchored walk; `None` once no pattern can start
    /// where the walk started. A match of the walk is one whose length is
    /// the number of bytes walked.
    #[inline(always)]
    pub(crate) fn next_anchored(&self, state: StateId, byte: u8) -> Option<StateId> {
        let class = self.classes[usize::from(byte)];
        // No edge of the trie leads to the start: a step to it is the start
        // state's loop, which only an unanchored walk takes.
        follow(&self.repr, state.0 as usize, class)
            .filter(|&next| next != START.0)
            .map(StateId)
    }

    /// One step of an unanchored walk: the state of the longest suffix of
    /// the input so far that is a prefix of a pattern.
    #[inline(always)]
    pub(crate) fn next(&self, state: StateId, byte: u8) -> StateId {
        let repr: &[u32] = &self.repr;
        let class = self.classes[usize::from(byte)];
        let mut at = state.0 as usize;
        loop {
            // The start state has a target on every class (itself where
            // no pattern begins): the loop ends there at the latest.
            if let Some(next) = follow(repr, at, class) {
                return StateId(next);
            }
            at = repr[at + 1] as usize;
        }
    }

    /// Whether some pattern occurs in `haystack`.
    pub(crate) fn occurs_in(&self, haystack: &[u8]) -> bool {
        let mut state = START;
        haystack.iter().any(|&byte| {
            state = self.next(state, byte);
            self.is_match(state)
        })
    }

    #[inline(always)]
    pub(crate) fn is_match(&self, state: StateId) -> bool {
        self.repr[state.0 as usize] >> 16 & 0xFF != 0
    }

    /// The patterns that end at `state`: (pattern id, pattern length).
    pub(crate) fn matches(&self, state: StateId) -> impl Iterator<Item = (usize, usize)> + '_ {
        let at = state.0 as usize;
        let header = self.repr[at];
        let count = (header >> 16 & 0xFF) as usize;
        let from = at + 2 + transition_words(header, self.classes_len);
        self.repr[from..from + count].iter().map(|&id| {
            let id = id as usize;
            (id, self.lens[id] as usize)
        })
    }

    /// The length of the longest suffix of the input that is a proper
    /// prefix of some pattern (0 when there is none), given the state the
    /// input has led to; `None` when that suffix is longer than `limit`: it
    /// starts before what the caller still holds, and the automaton must be
    /// stepped afresh from there.
    #[inline]
    pub(crate) fn pending(&self, state: StateId, limit: u64) -> Option<u64> {
        let pending = u64::from(self.repr[state.0 as usize] >> 24);
        (pending <= limit).then_some(pending)
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.repr.capacity() * 4 + self.lens.capacity() * 4
    }
}

/// The transition of the state at `at` on `class`, if it has one.
#[inline(always)]
fn follow(repr: &[u32], at: usize, class: u8) -> Option<u32> {
    let header = repr[at];
    let kind = header & 0xFF;
    if kind == DENSE {
        let next = repr[at + 2 + usize::from(class)];
        return (next != FAIL).then_some(next);
    }
    if kind == ONE {
        return (header >> 8 & 0xFF == u32::from(class)).then(|| repr[at + 2]);
    }
    let len = kind as usize;
    let words = len.div_ceil(4);
    let targets = at + 2 + words;
    for (i, &word) in repr[at + 2..at + 2 + words].iter().enumerate() {
        let b = word.to_le_bytes();
        let j = if b[0] == class {
            0
        } else if b[1] == class {
            1
        } else if b[2] == class {
            2
        } else if b[3] == class {
            3
        } else {
            continue;
        };
        return Some(repr[targets + 4 * i + j]);
    }
    None
}

/// The byte classes say which bytes begin or go on with a pattern.
impl Drop for Automaton {
    fn drop(&mut self) {
        self.classes.zeroize();
    }
}

/// The words of a state's transitions, after its header and failure link.
fn transition_words(header: u32, classes_len: usize) -> usize {
    match header & 0xFF {
        DENSE => classes_len,
        ONE => 1,
        len => {
            let len = len as usize;
            len.div_ceil(4) + len
        }
    }
}

/// Each byte's class and the number of classes: every byte that some
/// pattern holds is a class of its own, and each run of bytes between
/// two of those (that no pattern holds) is one class.
fn byte_classes(patterns: &[&[u8]]) -> ([u8; 256], usize) {
    let mut used = [false; 256];
    for &b in patterns.iter().flat_map(|p| p.iter()) {
        used[usize::from(b)] = true;
    }
    let mut classes = [0u8; 256];
    let mut class = 0usize;
    for b in 0..256 {
        // A used byte starts a class, and so does the byte after it.
        if b > 0 && (used[b] || used[b - 1]) {
            class += 1;
        }
        classes[b] = class as u8;
    }
    (classes, class + 1)
}

/// A node of the trie as it is built.
#[derive(Clone, Copy, Default)]
struct Node {
    first_child: u32,
    next_sibling: u32,
    /// The last pattern that ends here (then `next_match`), plus one.
    last_match: u32,
    /// The class of the byte on the edge into it.
    class: u8,
}

// The edges' classes spell the patterns: wiped.
impl zeroize::DefaultIsZeroes for Node {}

const NONE: u32 = u32::MAX;
const ROOT: u32 = 0;

/// Trie nodes from which the breadth-first pass asks for the node it
/// reads [`BREADTH_FIRST_AHEAD`] twice over ahead, and for the first child
/// of the one half as far (a mebibyte of nodes: beyond the second-level
/// cache). At 10,000 tokens the pass took 0.82 to 0.84 of its time so (the
/// median of 40 compiles' ratios, in one binary with a switch; its
/// control 0.96 and 1.03). The fuzzers use 0, so that they go through
/// that way.
#[cfg(not(fuzzing))]
const BREADTH_FIRST_AHEAD_FROM: usize = 1 << 16;
#[cfg(fuzzing)]
const BREADTH_FIRST_AHEAD_FROM: usize = 0;
const BREADTH_FIRST_AHEAD: usize = 8;

/// The trie as the patterns are added to it: each node's children in a
/// list.
struct Trie {
    nodes: Wiped<Node>,
    /// For each pattern, the pattern before it that ends at the same node,
    /// plus one (0: none).
    next_match: Vec<u32>,
    /// The root's children by class: it has many.
    root_children: Wiped<u32>,
}

impl Trie {
    fn new(patterns: &[&[u8]], classes: &[u8; 256]) -> Trie {
        let bytes: usize = patterns.iter().map(|p| p.len()).sum();
        let mut nodes = wipe::with_capacity(bytes + 1);
        nodes.push(Node {
            first_child: NONE,
            next_sibling: NONE,
            ..Node::default()
        });
        let mut root_children = wipe::with_capacity(256);
        root_children.resize(256, NONE);
        let mut trie = Trie {
            nodes,
            next_match: vec![0; patterns.len()],
            root_children,
        };
        for (id, pattern) in patterns.iter().enumerate() {
            let mut node = ROOT;
            for &byte in pattern.iter() {
                let class = classes[usize::from(byte)];
                node = match trie.child(node, class) {
                    Some(child) => child,
                    None => trie.add_child(node, class),
                };
            }
            let last = &mut trie.nodes[node as usize].last_match;
            trie.next_match[id] = *last;
            *last = id as u32 + 1;
        }
        trie
    }

    /// The child of `node` on `class`: the newest child first, which is
    /// the one wanted when the patterns come in the order of their bytes.
    fn child(&self, node: u32, class: u8) -> Option<u32> {
        if node == ROOT {
            let child = self.root_children[usize::from(class)];
            return (child != NONE).then_some(child);
        }
        let mut child = self.nodes[node as usize].first_child;
        while child != NONE {
            let c = &self.nodes[child as usize];
            if c.class == class {
                return Some(child);
            }
            child = c.next_sibling;
        }
        None
    }

    fn add_child(&mut self, parent: u32, class: u8) -> u32 {
        let id = self.nodes.len() as u32;
        let first = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            first_child: NONE,
            next_sibling: first,
            class,
            ..Node::default()
        });
        self.nodes[parent as usize].first_child = id;
        if parent == ROOT {
            self.root_children[usize::from(class)] = id;
        }
        id
    }

    /// The nodes shallowest first (failure links point to shallower nodes),
    /// each node's children together and in the order of their classes.
    /// `ahead`: reading ahead (see [`BREADTH_FIRST_AHEAD_FROM`]).
    fn breadth_first(&self, ahead: bool) -> Levels {
        let len = self.nodes.len();
        let mut node_of = Vec::with_capacity(len);
        let mut levels = Levels {
            class: wipe::with_capacity(len),
            depth: Vec::with_capacity(len),
            first: Vec::with_capacity(len),
            count: Vec::with_capacity(len),
            last_match: Vec::with_capacity(len),
            root_child: wipe::with_capacity(256),
        };
        node_of.push(ROOT);
        levels.class.push(0);
        levels.depth.push(0);
        let mut children = Vec::new();
        let mut next = 0;
        // The trie's nodes are read in an order other than they were made
        // in: in a large one, each a miss, and so its first child.
        while next < node_of.len() {
            if ahead {
                if let Some(&later) = node_of.get(next + 2 * BREADTH_FIRST_AHEAD) {
                    prefetch(&self.nodes[later as usize]);
                }
                if let Some(&sooner) = node_of.get(next + BREADTH_FIRST_AHEAD) {
                    let child = self.nodes[sooner as usize].first_child;
                    if child != NONE {
                        prefetch(&self.nodes[child as usize]);
                    }
                }
            }
            let node = node_of[next];
            next += 1;
            children.clear();
            let mut child = self.nodes[node as usize].first_child;
            while child != NONE {
                children.push(child);
                child = self.nodes[child as usize].next_sibling;
            }
            children.sort_unstable_by_key(|&c| self.nodes[c as usize].class);
            levels.first.push(node_of.len() as u32);
            levels.count.push(children.len() as u32);
            levels.last_match.push(self.nodes[node as usize].last_match);
            for &c in &children {
                node_of.push(c);
                levels.class.push(self.nodes[c as usize].class);
                // A child is at most `LONGEST` deep; a leaf there has none
                // (its depth plus one would not fit).
                levels.depth.push(levels.depth[next - 1] + 1);
            }
        }
        levels.root_child.resize(256, NONE);
        for i in 0..levels.count[0] {
            let child = levels.first[0] + i;
            levels.root_child[usize::from(levels.class[child as usize])] = child;
        }
        levels
    }
}

/// The trie in breadth-first order: a node is its place in that order, and
/// a node's children are the `count` nodes from `first`, by class.
struct Levels {
    /// The class of the edge into each node.
    class: Wiped<u8>,
    depth: Vec<u8>,
    first: Vec<u32>,
    count: Vec<u32>,
    /// As the trie's [`Node::last_match`].
    last_match: Vec<u32>,
    /// The root's children by class.
    root_child: Wiped<u32>,
}

impl Levels {
    fn len(&self) -> usize {
        self.class.len()
    }

    fn children(&self, node: u32) -> std::ops::Range<u32> {
        let first = self.first[node as usize];
        first..first + self.count[node as usize]
    }

    /// The child of `node` on `class`: children are few but at the
    /// root's, and together in memory.
    fn child(&self, node: u32, class: u8) -> Option<u32> {
        if node == ROOT {
            let child = self.root_child[usize::from(class)];
            return (child != NONE).then_some(child);
        }
        let children = self.children(node);
        let classes = &self.class[children.start as usize..children.end as usize];
        classes
            .iter()
            .position(|&c| c == class)
            .map(|i| children.start + i as u32)
    }

    /// The patterns that end at `node` itself, newest first.
    fn own_matches<'a>(&self, trie: &'a Trie, node: u32) -> impl Iterator<Item = u32> + 'a {
        let mut last = self.last_match[node as usize];
        std::iter::from_fn(move || {
            let id = last.checked_sub(1)?;
            last = trie.next_match[id as usize];
            Some(id)
        })
    }

    /// Each node's failure link, pending length and number of matches.
    fn link(&self, trie: &Trie) -> (Vec<u32>, Vec<u8>, Vec<u32>) {
        let len = self.len();
        let mut fail = vec![ROOT; len];
        let mut pending = vec![0u8; len];
        let mut matches = vec![0u32; len];
        for node in 0..len as u32 {
            let n = node as usize;
            let own = self.own_matches(trie, node).count() as u32;
            let f = fail[n] as usize;
            if node != ROOT {
                pending[n] = if self.count[n] > 0 {
                    self.depth[n]
                } else {
                    pending[f]
                };
                matches[n] = own + matches[f];
            } else {
                matches[n] = own;
            }
            assert!(
                matches[n] as usize <= MOST_MATCHES,
                "at most 255 patterns end at one position"
            );
            // The children's links, from this node's.
            for child in self.children(node) {
                let class = self.class[child as usize];
                fail[child as usize] = if node == ROOT {
                    ROOT
                } else {
                    let mut f = fail[n];
                    loop {
                        if let Some(next) = self.child(f, class) {
                            break next;
                        }
                        if f == ROOT {
                            break ROOT;
                        }
                        f = fail[f as usize];
                    }
                };
            }
        }
        (fail, pending, matches)
    }

    /// The automaton's words, the states in breadth-first order, and its
    /// start.
    fn lay_out(&self, trie: &Trie, classes_len: usize, dense_children: bool) -> Wiped<u32> {
        let (fail, pending, matches) = self.link(trie);
        let kind = |node: usize| {
            let n = self.count[node] as usize;
            if node == ROOT as usize || n > MAX_SPARSE || (dense_children && self.depth[node] == 1)
            {
                (DENSE, classes_len)
            } else if n == 1 {
                (ONE, 1)
            } else {
                (n as u32, n.div_ceil(4) + n)
            }
        };
        let mut offset = Vec::with_capacity(self.len());
        let mut words = 0usize;
        for (node, &count) in matches.iter().enumerate() {
            offset.push(u32::try_from(words).expect("an automaton under 16 GiB"));
            words += 2 + kind(node).1 + count as usize;
        }
        let mut repr: Wiped<u32> = wipe::with_capacity(words);
        let mut own = Vec::new();
        for node in 0..self.len() {
            let (kind, _) = kind(node);
            let children = self.children(node as u32);
            let class_of = |c: u32| self.class[c as usize];
            let one_class = if kind == ONE {
                u32::from(class_of(children.start))
            } else {
                0
            };
            repr.push(kind | one_class << 8 | matches[node] << 16 | u32::from(pending[node]) << 24);
            repr.push(offset[fail[node] as usize]);
            match kind {
                DENSE => {
                    // The start state loops to itself where no pattern
                    // begins, so that an unanchored step ends there.
                    let missing = if node == ROOT as usize {
                        offset[node]
                    } else {
                        FAIL
                    };
                    let from = repr.len();
                    repr.resize(from + classes_len, missing);
                    for c in children {
                        repr[from + usize::from(class_of(c))] = offset[c as usize];
                    }
                }
                ONE => repr.push(offset[children.start as usize]),
                _ => {
                    let classes = &self.class[children.start as usize..children.end as usize];
                    for chunk in classes.chunks(4) {
                        // A short last word repeats its last class: the
                        // search finds the first.
                        let mut bytes = [chunk[chunk.len() - 1]; 4];
                        bytes[..chunk.len()].copy_from_slice(chunk);
                        repr.push(u32::from_le_bytes(bytes));
                    }
                    repr.extend(children.map(|c| offset[c as usize]));
                }
            }
            // Its own matches in id order, then its failure link's.
            own.clear();
            own.extend(self.own_matches(trie, node as u32));
            own.sort_unstable();
            repr.extend_from_slice(&own);
            // Its failure link's matches, where it has any (their place is
            // read from its words, at random: most have none). The layout
            // took 0.80 to 0.84 of its time so at 1,000 and 10,000 tokens.
            if node != ROOT as usize && matches[fail[node] as usize] > 0 {
                let f = fail[node] as usize;
                let from = offset[f] as usize;
                let f_matches = from + 2 + transition_words(repr[from], classes_len);
                repr.extend_from_within(f_matches..f_matches + matches[f] as usize);
            }
        }
        debug_assert_eq!(repr.len(), words);
        repr
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::{AhoCorasick, MatchKind};

    /// Every (end, pattern id, length) that the automaton reports, stepped
    /// over `input` a byte at a time.
    fn stepped(automaton: &Automaton, input: &[u8]) -> Vec<(usize, usize, usize)> {
        let mut state = automaton.start();
        let mut found = Vec::new();
        for (at, &b) in input.iter().enumerate() {
            state = automaton.next(state, b);
            assert_eq!(
                automaton.is_match(state),
                automaton.matches(state).next().is_some()
            );
            found.extend(automaton.matches(state).map(|(id, len)| (at + 1, id, len)));
        }
        found.sort_unstable();
        found
    }

    /// The same, by `aho-corasick`'s overlapping search.
    fn expected(patterns: &[&[u8]], input: &[u8]) -> Vec<(usize, usize, usize)> {
        let ac = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(patterns)
            .unwrap();
        let mut found: Vec<_> = ac
            .find_overlapping_iter(input)
            .map(|m| (m.end(), m.pattern().as_usize(), m.len()))
            .collect();
        found.sort_unstable();
        found
    }

    /// The longest suffix of `input` that is a proper prefix of a pattern,
    /// by brute force.
    fn pending(patterns: &[&[u8]], input: &[u8]) -> usize {
        (0..=input.len())
            .rev()
            .find(|&n| {
                let suffix = &input[input.len() - n..];
                patterns
                    .iter()
                    .any(|p| p.len() > suffix.len() && p.starts_with(suffix))
            })
            .unwrap_or(0)
    }

    /// The bytes of a random case's patterns, by round: small alphabets
    /// make patterns overlap, share prefixes and repeat; the full one makes
    /// the start state dense.
    fn alphabet_of(round: usize) -> Vec<u8> {
        match round % 4 {
            0 => b"ab".to_vec(),
            1 => b"abc\r\n".to_vec(),
            2 => (b'0'..=b'z').collect(),
            _ => (0..=255).collect(),
        }
    }

    fn random_case(
        next: &mut impl FnMut() -> u64,
        alphabet: &[u8],
        many: bool,
    ) -> (Vec<Vec<u8>>, Vec<u8>) {
        let mut pick = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect()
        };
        // From 256 patterns on, the start state's children are dense.
        let count = if many {
            300
        } else {
            1 + pick(1)[0] as usize % 40
        };
        let patterns: Vec<Vec<u8>> = (0..count)
            .map(|_| {
                let len = 1 + pick(1)[0] as usize % 16;
                pick(len)
            })
            .collect();
        let input = pick(300);
        (patterns, input)
    }

    /// A pattern of `LONGEST` bytes, the longest an automaton takes: its
    /// last node is a leaf at depth 255, one more than which a depth's byte
    /// does not hold (found by the fuzzer, where the compile's check of a
    /// long name built one over a 255-byte placeholder).
    #[test]
    fn a_pattern_of_the_longest_length_is_found() {
        let long: Vec<u8> = (0..LONGEST).map(|i| b'a' + (i % 7) as u8).collect();
        let prefix = &long[..LONGEST - 1];
        let patterns: [&[u8]; 3] = [&long, prefix, b"bcd"];
        let automaton = Automaton::new(&patterns);
        let input = [&b"xx"[..], &long, b"yy", prefix].concat();
        assert_eq!(stepped(&automaton, &input), expected(&patterns, &input));
        assert!(automaton.occurs_in(&long));
        let single = Automaton::new(&[&long[..]]);
        assert!(single.occurs_in(&input));
        assert!(!single.occurs_in(prefix));
    }

    #[test]
    fn steps_match_aho_corasick_and_pending_is_the_longest_proper_prefix() {
        let mut next = crate::engine::xorshift(0xac0);
        for round in 0..400 {
            let many = round % 5 == 4;
            let (patterns, mut input) = random_case(&mut next, &alphabet_of(round), many);
            // Plant some patterns in the input.
            for p in patterns.iter().take(3) {
                let at = (next() % 250) as usize;
                input[at..at + p.len()].copy_from_slice(p);
            }
            let patterns: Vec<&[u8]> = patterns.iter().map(|p| &p[..]).collect();
            let automaton = Automaton::new(&patterns);
            assert_eq!(
                stepped(&automaton, &input),
                expected(&patterns, &input),
                "round {round}"
            );
            let mut state = automaton.start();
            for end in 1..=input.len() {
                state = automaton.next(state, input[end - 1]);
                let want = pending(&patterns, &input[..end]) as u64;
                assert_eq!(
                    automaton.pending(state, u64::MAX),
                    Some(want),
                    "round {round}"
                );
                assert_eq!(automaton.pending(state, want), Some(want));
                if want > 0 {
                    assert_eq!(automaton.pending(state, want - 1), None);
                }
            }
        }
    }

    #[test]
    fn breadth_first_reading_ahead_orders_as_without() {
        let mut next = crate::engine::xorshift(0xb1f);
        for round in 0..60 {
            let (patterns, _) = random_case(&mut next, &alphabet_of(round), round % 5 == 4);
            let patterns: Vec<&[u8]> = patterns.iter().map(|p| &p[..]).collect();
            let (classes, _) = byte_classes(&patterns);
            let trie = Trie::new(&patterns, &classes);
            let (plain, ahead) = (trie.breadth_first(false), trie.breadth_first(true));
            assert_eq!(plain.class[..], ahead.class[..], "round {round}");
            assert_eq!(plain.depth, ahead.depth, "round {round}");
            assert_eq!(plain.first, ahead.first, "round {round}");
            assert_eq!(plain.count, ahead.count, "round {round}");
            assert_eq!(plain.last_match, ahead.last_match, "round {round}");
            assert_eq!(plain.root_child[..], ahead.root_child[..], "round {round}");
        }
    }

    #[test]
    fn anchored_walks_follow_only_the_trie() {
        let patterns: [&[u8]; 4] = [b"abcd", b"bc", b"abx", b"c"];
        let automaton = Automaton::new(&patterns);
        let walk = |input: &[u8]| {
            let mut state = automaton.anchored_start();
            let mut found = Vec::new();
            for (walked, &b) in input.iter().enumerate() {
                match automaton.next_anchored(state, b) {
                    Some(next) => state = next,
                    None => return (found, Some(walked)),
                }
                found.extend(
                    automaton
                        .matches(state)
                        .filter(|&(_, len)| len == walked + 1)
                        .map(|(id, _)| id),
                );
            }
            (found, None)
        };
        assert_eq!(walk(b"abcd"), (vec![0], None));
        assert_eq!(walk(b"abxz"), (vec![2], Some(3)));
        // "bc" is in "abcd" but does not start where the walk did.
        assert_eq!(walk(b"bcd"), (vec![1], Some(2)));
        assert_eq!(walk(b"zzz"), (vec![], Some(0)));
        // Unanchored, the suffixes' matches are there too.
        let mut state = automaton.start();
        for &b in b"abc" {
            state = automaton.next(state, b);
        }
        let mut ids: Vec<usize> = automaton.matches(state).map(|(id, _)| id).collect();
        ids.sort_unstable();
        assert_eq!(ids, [1, 3]);
    }

    #[test]
    fn identical_patterns_both_match() {
        let patterns: [&[u8]; 3] = [b"same", b"same", b"ame"];
        let automaton = Automaton::new(&patterns);
        assert_eq!(stepped(&automaton, b"xsame"), expected(&patterns, b"xsame"));
    }

    #[test]
    fn no_freed_block_keeps_a_pattern_or_a_state() {
        // The states spell the patterns: after the automaton is built and
        // dropped, no freed block holds its words (those of its states'
        // transitions, as the states' offsets and classes make them), nor
        // the classes.
        let patterns: Vec<Vec<u8>> = (0..50)
            .map(|i| format!("sk-live-{i:03}-abcd").into_bytes())
            .collect();
        let refs: Vec<&[u8]> = patterns.iter().map(|p| &p[..]).collect();
        let automaton = Automaton::new(&refs);
        // The states that spell classes: the header of one with one
        // transition (its class in it), failure link and target; and the
        // header, failure link and first class word of a sparse one.
        let mut needles: Vec<Vec<u8>> = Vec::new();
        let repr = &automaton.repr;
        let mut at = 0;
        while at < repr.len() {
            let header = repr[at];
            let words = transition_words(header, automaton.classes_len);
            if header & 0xFF == ONE || (2..=MAX_SPARSE as u32).contains(&(header & 0xFF)) {
                let spelled = &repr[at..at + 3];
                needles.push(spelled.iter().flat_map(|w| w.to_le_bytes()).collect());
            }
            at += 2 + words + (header >> 16 & 0xFF) as usize;
        }
        needles.sort_unstable();
        needles.dedup();
        needles.push(automaton.classes.to_vec());
        assert!(needles.len() > 100);
        let found = crate::freed_memory::scanned(needles.clone(), || {
            drop(std::hint::black_box(automaton.repr.to_vec()));
        });
        assert!(!found.is_empty(), "the scan can fail");
        let found = crate::freed_memory::scanned(needles, || {
            let again = Automaton::new(&refs);
            drop(again);
            drop(automaton);
        });
        assert_eq!(found, [], "(freed block size, needle index)");
    }
}
