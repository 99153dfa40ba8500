//! The seed filter: every pattern is at least 8 bytes long, so an occurrence
//! can be found from one 8-byte gram of it, read at input positions sampled
//! at a stride that the shortest pattern allows, then verified exactly. This
//! scans at a rate that does not fall with the number of secrets; the
//! automata are then stepped only over the last stretch of a large push, to
//! know exactly what to hold back.

use super::hash::IntMap;

pub(crate) const GRAM: usize = 8;
pub(crate) const MAX_STRIDE: usize = 64;

/// What a gram found at a sampled position may be part of: pattern `id` of
/// the automaton's table, with the gram at `offset`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Seed {
    pub(crate) id: u32,
    pub(crate) offset: u32,
}

/// Grams of a pattern set, behind a one-hash bitmap that rejects almost
/// every other gram with one memory access.
pub(crate) struct GramIndex {
    /// Distance between sampled positions.
    pub(crate) stride: usize,
    bits: Vec<u64>,
    shift: u32,
    /// While building: every (gram, seed) inserted.
    building: Vec<(u64, Seed)>,
    /// The seeds of a gram are `seeds[range.0..range.1]`: one flat list,
    /// not a list per gram.
    ranges: IntMap<u64, (u32, u32)>,
    seeds: Vec<Seed>,
}

impl GramIndex {
    pub(crate) fn new(stride: usize) -> GramIndex {
        GramIndex {
            // Sampling more sparsely gains little, and each pattern is
            // indexed at `stride` offsets.
            stride: stride.clamp(1, MAX_STRIDE),
            bits: Vec::new(),
            shift: 64,
            building: Vec::new(),
            ranges: IntMap::default(),
            seeds: Vec::new(),
        }
    }

    pub(crate) fn insert(&mut self, bytes: &[u8], seed: Seed) {
        self.building.push((gram(bytes), seed));
    }

    /// Builds the bitmap: about 32 bits a gram keeps false positives rare.
    pub(crate) fn finish(mut self) -> GramIndex {
        let mut building = std::mem::take(&mut self.building);
        building.sort_by_key(|&(gram, _)| gram);
        self.seeds = building.iter().map(|&(_, seed)| seed).collect();
        let mut start = 0;
        while start < building.len() {
            let gram = building[start].0;
            let end = start + building[start..].partition_point(|&(g, _)| g == gram);
            self.ranges.insert(gram, (start as u32, end as u32));
            start = end;
        }
        let want = (self.ranges.len() * 32).clamp(1 << 12, 1 << 28);
        let log = want.next_power_of_two().trailing_zeros();
        self.bits = vec![0; (1usize << log) / 64];
        self.shift = 64 - log;
        let keys: Vec<u64> = self.ranges.keys().copied().collect();
        for key in keys {
            let bit = self.bit(key);
            self.bits[bit / 64] |= 1 << (bit % 64);
        }
        self
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    #[inline(always)]
    fn bit(&self, gram: u64) -> usize {
        (gram.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The seeds of `gram`; almost always answered by the bitmap alone.
    #[inline(always)]
    pub(crate) fn get(&self, gram: u64) -> &[Seed] {
        let bit = self.bit(gram);
        if self.bits[bit / 64] & (1 << (bit % 64)) == 0 {
            return &[];
        }
        match self.ranges.get(&gram) {
            Some(&(start, end)) => &self.seeds[start as usize..end as usize],
            None => &[],
        }
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.bits.len() * 8
            + self.ranges.capacity() * 24
            + self.seeds.capacity() * std::mem::size_of::<Seed>()
    }
}

/// The grams of the values, as a bitmap only: a gram that is not in it is in
/// no value, and one that is sends the filter along the suffix automaton,
/// which tells exactly (a false positive costs a short walk, nothing more).
pub(crate) struct GramSet {
    bits: Vec<u64>,
    shift: u32,
    empty: bool,
}

impl GramSet {
    /// Every gram of every value (32 bits a gram).
    pub(crate) fn new<'a>(values: impl Iterator<Item = &'a [u8]> + Clone) -> GramSet {
        let grams: usize = values
            .clone()
            .map(|v| v.len().saturating_sub(GRAM - 1))
            .sum();
        let want = (grams * 32).clamp(1 << 12, 1 << 28);
        let log = want.next_power_of_two().trailing_zeros();
        let mut set = GramSet {
            bits: vec![0; (1usize << log) / 64],
            shift: 64 - log,
            empty: grams == 0,
        };
        for value in values {
            for at in 0..value.len().saturating_sub(GRAM - 1) {
                let bit = set.bit(gram(&value[at..]));
                set.bits[bit / 64] |= 1 << (bit % 64);
            }
        }
        set
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.empty
    }

    #[inline(always)]
    fn bit(&self, gram: u64) -> usize {
        (gram.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Whether `gram` may be a gram of a value.
    #[inline(always)]
    pub(crate) fn may_hold(&self, gram: u64) -> bool {
        let bit = self.bit(gram);
        self.bits[bit / 64] & (1 << (bit % 64)) != 0
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.bits.capacity() * 8
    }
}

/// The first 8 bytes of `bytes` as a number.
#[inline(always)]
pub(crate) fn gram(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes[..GRAM].try_into().expect("8 bytes"))
}

/// Whether any of the 8 bytes of `word` is CR or LF.
#[inline(always)]
pub(crate) fn has_line_break(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    zero_byte(word ^ (ONES * 0x0A)) | zero_byte(word ^ (ONES * 0x0D)) != 0
}

/// The 8 bytes of the CR/LF-free view that start at or after `at`, and the
/// position of the first of them; `None` when fewer than 8 remain.
#[inline(always)]
pub(crate) fn view_gram(input: &[u8], at: usize) -> Option<(u64, usize)> {
    if at + GRAM <= input.len() {
        let word = gram(&input[at..]);
        if !has_line_break(word) {
            return Some((word, at));
        }
    }
    let mut bytes = [0u8; GRAM];
    let mut got = 0;
    let mut first = None;
    for (i, &b) in input.iter().enumerate().skip(at) {
        if b == b'\r' || b == b'\n' {
            continue;
        }
        first.get_or_insert(i);
        bytes[got] = b;
        got += 1;
        if got == GRAM {
            return Some((u64::from_le_bytes(bytes), first?));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_are_seen_in_every_lane() {
        for lane in 0..8 {
            for b in [b'\r', b'\n'] {
                let mut bytes = *b"abcdefgh";
                bytes[lane] = b;
                assert!(has_line_break(u64::from_le_bytes(bytes)));
            }
        }
        assert!(!has_line_break(u64::from_le_bytes(
            *b"ab\x0b\x0c\x0e\x8a\x8dh"
        )));
    }

    #[test]
    fn view_gram_skips_line_breaks() {
        assert_eq!(
            view_gram(b"\r\nab\ncd\r\nefgh", 0),
            Some((u64::from_le_bytes(*b"abcdefgh"), 2))
        );
        assert_eq!(view_gram(b"abc\ndefg", 0), None);
    }
}
