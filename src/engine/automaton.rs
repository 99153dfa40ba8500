//! An Aho–Corasick automaton (from the `aho-corasick` crate, stepped one
//! byte at a time so its state carries across pushes) together with what the
//! crate does not tell: for each state, how long the input suffix it stands
//! for is, whether that suffix is a proper prefix of a pattern, and its
//! failure link. Streaming needs these to know exactly what to hold back.

use aho_corasick::automaton::Automaton as _;
use aho_corasick::automaton::StateID;
use aho_corasick::nfa::contiguous::NFA;
use aho_corasick::{Anchored, MatchKind, PatternID};

use super::hash::IntMap;
use super::layout;

/// Patterns from which states of depth 1 may be dense (see
/// [`Automaton::new`]).
const SPARSE_BELOW: usize = 256;

pub(crate) struct Automaton {
    nfa: NFA,
    start: StateID,
    /// For each state, the length of the longest suffix it stands for that
    /// is a proper prefix of a pattern, by state id: the one lookup every
    /// push makes. `u16::MAX` means "look in `long_pending`".
    pending_by_id: Vec<u16>,
    long_pending: IntMap<StateID, u32>,
}

/// What the build learns of the trie's states, by place.
#[derive(Default)]
struct Trie {
    /// By state id: the state's place in `info` plus one (0: none).
    places: Vec<u32>,
    info: Vec<StateInfo>,
}

impl Trie {
    fn place(&self, state: StateID) -> Option<usize> {
        let place = self.places.get(state.as_usize())?.checked_sub(1)?;
        Some(place as usize)
    }

    fn add(&mut self, state: StateID, info: StateInfo) {
        let id = state.as_usize();
        if id >= self.places.len() {
            self.places.resize(id + 1, 0);
        }
        self.info.push(info);
        self.places[id] = self.info.len() as u32;
    }
}

#[derive(Clone, Copy)]
struct StateInfo {
    /// Length of the input suffix this state stands for.
    depth: u32,
    /// Some pattern continues past this state: the suffix is a proper prefix.
    proper_prefix: bool,
    /// The state of the longest proper suffix that is also a trie node.
    fail: StateID,
    /// Length of the longest suffix that is a proper prefix: the answer of
    /// [`Automaton::pending`] when no limit applies, without a walk.
    pending: u32,
}

impl Automaton {
    /// An automaton over `patterns`, reporting every occurrence of every
    /// pattern (overlapping, `MatchKind::Standard`). Pattern ids are indexes
    /// into `patterns`.
    pub(crate) fn new(patterns: &[&[u8]]) -> Automaton {
        // No prefilter: the automaton is stepped a byte at a time, and a
        // prefilter would keep copies of the patterns. A dense state takes
        // 4 bytes a byte class whatever its transitions; the crate's
        // default makes every state of depth 0 and 1 dense, 40% of the
        // memory of 10 tokens. Below `SPARSE_BELOW` patterns no state is
        // made dense but those with over 127 transitions: the start states
        // have few, and stepping costs the same (1 B pushes at 10 tokens).
        // From there on the start states are dense: sparse, they cost 1% more
        // instructions at 100 tokens and 7.5% at 1,000.
        let dense_depth = if patterns.len() < SPARSE_BELOW { 0 } else { 1 };
        let nfa = NFA::builder()
            .match_kind(MatchKind::Standard)
            .prefilter(false)
            .dense_depth(dense_depth)
            .build(patterns)
            .expect("pattern set within the automaton's size limits");
        let start = nfa
            .start_state(Anchored::No)
            .expect("unanchored search is supported");
        // The trie's states in the order the walks meet them, with a table
        // from the crate's state ids (offsets into its memory: sparse) to
        // their places, where a hash map of 10,000 tokens' states missed
        // the cache at every lookup.
        let mut trie = Trie::default();
        // Walking a pattern from the start visits the trie nodes of its
        // prefixes; the failure link of node wb is next(fail(w), b), the
        // classic construction, with the crate's transition function.
        for pattern in patterns {
            let (mut state, mut fail) = (start, start);
            for (i, &byte) in pattern.iter().enumerate() {
                if let Some(parent) = trie.place(state) {
                    trie.info[parent].proper_prefix = true;
                }
                let next = nfa.next_state(Anchored::No, state, byte);
                let next_fail = if i == 0 {
                    start
                } else {
                    nfa.next_state(Anchored::No, fail, byte)
                };
                if trie.place(next).is_none() {
                    trie.add(
                        next,
                        StateInfo {
                            depth: (i + 1) as u32,
                            proper_prefix: false,
                            fail: next_fail,
                            pending: 0,
                        },
                    );
                }
                state = next;
                fail = next_fail;
            }
        }
        // Failure links point to shallower states: fill by depth (a
        // counting sort: depths are at most a pattern's length).
        let deepest = trie
            .info
            .iter()
            .map(|i| i.depth as usize)
            .max()
            .unwrap_or(0);
        let mut by_depth = Vec::with_capacity(trie.info.len());
        let depths = trie.info.iter().enumerate();
        layout::by_group(
            deepest + 1,
            depths.map(|(place, i)| (i.depth as usize, place as u32)),
            &mut by_depth,
        );
        for place in by_depth {
            let this = trie.info[place as usize];
            let pending = if this.proper_prefix {
                this.depth
            } else {
                trie.place(this.fail)
                    .map_or(0, |fail| trie.info[fail].pending)
            };
            trie.info[place as usize].pending = pending;
        }
        // Only the answers are kept: depths and failure links are for
        // building (a state's suffix never starts before where the matcher
        // last restarted the automaton, so no walk is needed later).
        let mut pending_by_id = vec![0u16; trie.places.len()];
        let mut long_pending = IntMap::default();
        for (id, &place) in trie.places.iter().enumerate() {
            let Some(place) = place.checked_sub(1) else {
                continue;
            };
            let pending = trie.info[place as usize].pending;
            pending_by_id[id] = u16::try_from(pending).unwrap_or_else(|_| {
                long_pending.insert(StateID::new(id).expect("an id the crate gave"), pending);
                u16::MAX
            });
        }
        Automaton {
            nfa,
            start,
            pending_by_id,
            long_pending,
        }
    }

    pub(crate) fn start(&self) -> StateID {
        self.start
    }

    /// The start of an anchored walk: patterns that start where it starts.
    pub(crate) fn anchored_start(&self) -> StateID {
        self.nfa
            .start_state(Anchored::Yes)
            .expect("anchored search is supported")
    }

    /// One step of an anchored walk; `None` once no pattern can start
    /// where the walk started. A match of the walk is one whose length is
    /// the number of bytes walked.
    #[inline(always)]
    pub(crate) fn next_anchored(&self, state: StateID, byte: u8) -> Option<StateID> {
        let next = self.nfa.next_state(Anchored::Yes, state, byte);
        (!self.nfa.is_dead(next)).then_some(next)
    }

    #[inline(always)]
    pub(crate) fn next(&self, state: StateID, byte: u8) -> StateID {
        self.nfa.next_state(Anchored::No, state, byte)
    }

    #[inline(always)]
    pub(crate) fn is_match(&self, state: StateID) -> bool {
        self.nfa.is_match(state)
    }

    /// The patterns that end at `state`: (pattern id, pattern length).
    pub(crate) fn matches(&self, state: StateID) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.nfa.match_len(state)).map(move |i| {
            let pid: PatternID = self.nfa.match_pattern(state, i);
            (pid.as_usize(), self.nfa.pattern_len(pid))
        })
    }

    /// The length of the longest suffix of the input that is a proper
    /// prefix of some pattern (0 when there is none), given the state the
    /// input has led to; `None` when that suffix is longer than `limit`: it
    /// starts before what the caller still holds, and the automaton must be
    /// stepped afresh from there.
    #[inline]
    pub(crate) fn pending(&self, state: StateID, limit: u64) -> Option<u64> {
        let quick = self
            .pending_by_id
            .get(state.as_usize())
            .copied()
            .unwrap_or(0);
        let pending = match quick {
            u16::MAX => self.long_pending.get(&state).copied().unwrap_or(0),
            quick => u32::from(quick),
        };
        (u64::from(pending) <= limit).then_some(u64::from(pending))
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.nfa.memory_usage()
            + self.pending_by_id.capacity() * 2
            + self.long_pending.capacity() * 16
    }
}
