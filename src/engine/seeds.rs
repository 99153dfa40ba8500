//! The seed filter: every pattern is at least 8 bytes long, so an occurrence
//! can be found from one 8-byte gram of it, read at input positions sampled
//! at a stride that the shortest pattern allows, then verified exactly. This
//! scans at a rate that does not fall with the number of secrets; the
//! automata are then stepped only over the last stretch of a large push, to
//! know exactly what to hold back.

use super::layout;
use super::prefetch::prefetch;
use super::wipe::{self, Wiped};
use zeroize::Zeroize;

pub(crate) const GRAM: usize = 8;
pub(crate) const MAX_STRIDE: usize = 32;
// An offset is a bit of a `u32` and fits the 5 low bits of an entry.
const _: () = assert!(MAX_STRIDE <= 32);

/// Grams of a pattern set, each with the offsets at which it occurs in some
/// pattern, behind a bitmap that rejects almost every other gram with one
/// memory access (a pattern of five bits of one word an entry, see
/// [`PATTERNS`]: about one gram in 400 passes, where two bits let one in
/// 80 through to the bucket and one bit one in 16). A hit gives
/// the start positions to verify, at most one per offset however many
/// patterns share the gram (keys that share a header share its grams). An
/// entry per (gram, offset), in one word: the gram's hash picks its bucket
/// by its top bits, and the entry keeps the next 27 bits (the tag) beside
/// the offset (5 bits), so that a gram is told apart by the bucket's bits
/// and the tag's, 45 of them at 10,000 tokens (with the bucket's bits in
/// the tag as well, one sampled gram in a hundred met a tag of the 1.4
/// million entries there, and was counted and walked in vain). Grams that
/// share a bucket and a tag share their offsets, which costs a verification
/// now and then (every start is verified), never a miss. A bucket holds a
/// few entries: one or two cache lines a lookup, where a binary search over
/// the entries of 10,000 secrets took a dozen. The bitmap is keyed by the
/// bucket's bits and the tag. (Two bits and, in a large index, a second
/// pair in the word beside, tested before a bucket was read, were `bytes`
/// 1.11 to 1.17 x at 10,000 tokens against one pair keyed by the tag
/// alone; the pattern, against them, 1.04 to 1.12 x at 100 and 1,000
/// tokens and 1.01 to 1.06 x at 10,000: of the view's samples there, it
/// sends 40,200 of 524,000 to be looked at, where the pairs sent 64,500,
/// 37,700 of them holding a line break.)
pub(crate) struct GramIndex {
    /// Distance between sampled positions.
    pub(crate) stride: usize,
    bits: Bitmap,
    /// `tag << 5 | offset`, by bucket, sorted and distinct within one
    /// (each made from 8 bytes of a pattern: wiped).
    entries: Wiped<u32>,
    /// The entries of the grams whose hash has `b` in its top
    /// `bucket_bits` bits are `entries[buckets[b]..buckets[b + 1]]`.
    buckets: Vec<u32>,
    bucket_bits: u32,
    /// Bits set in every gram before it is hashed, in the index and in
    /// every lookup (see [`Fold`]).
    fold: u64,
}

/// How a [`GramIndex`] folds a gram before hashing it. Folded grams that
/// are equal share their entries: a lookup may give offsets of another
/// gram, which the verification after it rejects, never fewer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Fold {
    /// Every gram as it is.
    None,
    /// Bit 5 of every byte set, which makes each ASCII letter lower case:
    /// for the view's patterns, where a value's hex in upper case is its
    /// hex in lower case folded, so the two take one set of entries, not
    /// two (at 10,000 tokens 1.1 MB less, 118 to 115 bytes a value byte;
    /// `bytes` there 1.01 to 1.03 x, best of 30, at 100 tokens 0.99 to
    /// 1.005 x). Base64's letters fold too: a gram of text that is another
    /// case of a value's base64 gram is about as rare as one equal to it.
    Case,
}

impl Fold {
    fn mask(self) -> u64 {
        match self {
            Fold::None => 0,
            Fold::Case => 0x2020_2020_2020_2020,
        }
    }
}

/// Bits of the bitmap an entry sets one of.
const BITS_PER_ENTRY: usize = 16;
/// Bits of a gram's hash an entry keeps, after the bucket's.
const TAG_BITS: u32 = 27;
/// Insertions a bucket, on average, at least (and under twice as many):
/// the grams of patterns kept in the same bytes are inserted once (see
/// `seed_index`), a few of the rest repeat another, so a bucket holds a
/// few entries and the buckets take about a byte an entry.
const PER_BUCKET: usize = 4;
// The bucket's bits (at most 32), the tag and the offset fit a hash of 64
// bits.
const _: () = assert!(32 + TAG_BITS + 5 <= 64);

impl GramIndex {
    /// An index of `grams`, each (a gram, an offset at which it occurs
    /// in a pattern), `count` of them. They are read twice (to count each
    /// bucket's, then to lay them out), not stored first: at 10,000 tokens
    /// the view's are 2.9 million, and a buffer of them was 23 MB of fresh
    /// pages to fault in, fill, read twice and wipe.
    ///
    /// # Panics
    /// If `grams` does not yield `count` of them.
    pub(crate) fn new(
        stride: usize,
        count: usize,
        grams: impl Iterator<Item = (u64, usize)> + Clone,
        fold: Fold,
    ) -> GramIndex {
        let fold = fold.mask();
        let bucket_bits = (count / PER_BUCKET).max(1).ilog2().min(32);
        let buckets = 1usize << bucket_bits;
        let items = grams.map(move |(gram, offset)| {
            debug_assert!(offset < MAX_STRIDE, "an offset fits 5 bits");
            let key = folded_hash(gram, fold) & !31 | offset as u64;
            (bucket_of(key, bucket_bits), entry_of(key, bucket_bits))
        });
        // At its final size: a wiped buffer must not grow.
        let mut by_bucket: Wiped<u32> = wipe::with_capacity(count);
        by_bucket.resize(count, 0);
        let mut starts = layout::by_group_in(buckets, items, &mut by_bucket);
        // Each bucket sorted and its repeats dropped, in place: an entry
        // only moves down.
        let mut kept = 0;
        for b in 0..buckets {
            let (from, to) = (starts[b] as usize, starts[b + 1] as usize);
            by_bucket[from..to].sort_unstable();
            starts[b] = kept as u32;
            for i in from..to {
                if i == from || by_bucket[i] != by_bucket[i - 1] {
                    by_bucket[kept] = by_bucket[i];
                    kept += 1;
                }
            }
        }
        starts[buckets] = kept as u32;
        by_bucket.truncate(kept);
        let entries = wipe::exact(by_bucket);
        let mut bits = Bitmap::with_bits(entries.len() * BITS_PER_ENTRY);
        for b in 0..buckets {
            for &entry in &entries[starts[b] as usize..starts[b + 1] as usize] {
                // The bucket's bits and the tag: a gram's `key_of`.
                let key = (b as u64) << TAG_BITS | u64::from(entry >> 5);
                bits.set(bits.pattern(bitmap_hash(key)));
            }
        }
        GramIndex {
            // Sampling more sparsely gains little, and each pattern is
            // indexed at `stride` offsets.
            stride: stride.clamp(1, MAX_STRIDE),
            bits,
            entries,
            buckets: starts,
            bucket_bits,
            fold,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The offsets at which `gram` (or a gram of the same bucket and tag)
    /// occurs in a pattern, a bit each; almost always answered by the
    /// bitmap alone.
    #[inline(always)]
    pub(crate) fn get(&self, gram: u64) -> u64 {
        if !self.may_pass_first(gram) {
            return 0;
        }
        let hash = self.hash_of(gram);
        self.offsets_of(hash, tag_of(hash, self.bucket_bits))
    }

    /// The hash of `gram`, folded (see [`Fold`]), that picks its bucket
    /// and tag.
    #[inline(always)]
    fn hash_of(&self, gram: u64) -> u64 {
        folded_hash(gram, self.fold)
    }

    /// The bits of a gram's hash that tell it apart in the index (its
    /// bucket's and its tag), which the bitmap is keyed by: keyed by the
    /// tag alone, a gram whose tag some entry of another bucket had (one
    /// sampled view gram in 80 at 10,000 tokens) passed it, and read a
    /// bucket in vain.
    #[inline(always)]
    fn key_of(&self, hash: u64) -> u64 {
        hash >> (64 - self.bucket_bits - TAG_BITS)
    }

    /// Whether `gram` passes the first test of [`GramIndex::get`] (its
    /// pattern in the bitmap), without a branch: every gram in the index
    /// does.
    #[inline(always)]
    pub(crate) fn may_pass_first(&self, gram: u64) -> bool {
        self.bits
            .holds(self.bits.pattern(self.bitmap_hash_of(gram)))
    }

    /// Starts loading what [`GramIndex::may_pass_first`] of `gram` reads (for
    /// the filter to ask ahead where [`GramIndex::is_large`]).
    #[inline(always)]
    pub(crate) fn prefetch(&self, gram: u64) {
        self.bits.prefetch_word(self.bitmap_hash_of(gram));
    }

    /// The bitmap's hash of `gram`: of its key (see [`GramIndex::key_of`]).
    #[inline(always)]
    fn bitmap_hash_of(&self, gram: u64) -> u64 {
        bitmap_hash(self.key_of(self.hash_of(gram)))
    }

    /// Whether the bitmap is too large to stay in the cache (see
    /// [`Bitmap::is_large`]).
    pub(crate) fn is_large(&self) -> bool {
        self.bits.is_large()
    }

    /// The offsets of the entries of `tag` in the bucket of `hash`.
    fn offsets_of(&self, hash: u64, tag: u32) -> u64 {
        let bucket = bucket_of(hash, self.bucket_bits);
        let (from, to) = (self.buckets[bucket], self.buckets[bucket + 1]);
        let mut offsets = 0;
        for &entry in &self.entries[from as usize..to as usize] {
            match (entry >> 5).cmp(&tag) {
                std::cmp::Ordering::Less => {}
                std::cmp::Ordering::Equal => offsets |= 1 << (entry & 31),
                std::cmp::Ordering::Greater => break,
            }
        }
        offsets
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.bits.memory_usage() + self.entries.capacity() * 4 + self.buckets.capacity() * 4
    }
}

/// The bucket of a gram's hash (or of a key of [`GramIndex::new`]): its top
/// `bucket_bits` bits.
#[inline(always)]
fn bucket_of(hash: u64, bucket_bits: u32) -> usize {
    // `checked_shr`: no bits, one bucket.
    hash.checked_shr(64 - bucket_bits).unwrap_or(0) as usize
}

/// The tag of a gram's hash: the 27 bits after the bucket's.
#[inline(always)]
fn tag_of(hash: u64, bucket_bits: u32) -> u32 {
    ((hash << bucket_bits) >> (64 - TAG_BITS)) as u32
}

/// The entry of a key (a gram's hash whose low 5 bits are the offset): its
/// tag and the offset.
fn entry_of(key: u64, bucket_bits: u32) -> u32 {
    tag_of(key, bucket_bits) << 5 | (key & 31) as u32
}

/// The bitmap's hash of a key (a gram's bucket's bits and tag).
#[inline(always)]
fn bitmap_hash(key: u64) -> u64 {
    key.wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// The grams of the values, as a Bloom filter only (32 bits of room a
/// gram): a gram that is not in it is in no value, and one that is sends
/// the filter along the suffix automaton, which tells exactly. A false
/// positive costs a walk of some bytes. While the set and the automaton
/// are small they are in the cache and a walk is cheap: a gram sets five
/// bits of one word (a pattern, see [`PATTERNS`]), which one load tests.
/// (Two bits of one word, as before, stopped all but about one gram in
/// 180 never inserted.) In a large set a walk costs a cache miss a
/// byte (with 100 values of 4 KiB and two bits, one sampled gram in 270
/// passed, and a fifth of the time of `bytes()` went to such walks): from
/// [`LARGE`] bits on, a gram sets two more in the word beside the first,
/// in the same cache line, and about one in 2,100 passes. The second pair
/// is looked at only for the grams that pass the first, and costs no
/// other read of memory (with two more bits anywhere, as before, each
/// such gram waited on two more cache misses: one sampled gram in 80 at
/// 10,000 tokens).
pub(crate) struct GramSet {
    bits: Bitmap,
    /// Whether a gram sets two pairs of bits (a word's and the word
    /// beside's); else a pattern of one word.
    paired: bool,
    empty: bool,
}

/// From this many bits (512 KiB) on, a [`GramSet`] sets four bits a gram
/// in two words (see [`Probe`]).
const LARGE: usize = 1 << 22;

/// How the grams of a [`GramSet`] set its bits, and so how it is probed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Probe {
    /// Below [`LARGE`] bits a pattern; from it two pairs, the second
    /// looked at only for the grams that pass the first. (At 10,000
    /// tokens, with `Engine::direct_any` a pattern too, `bytes` read 0.97
    /// to 1.02 x that with every set paired, where with the first set's
    /// pattern alone 1.04 to 1.08; every large set a pattern read 0.98 to
    /// 1.07 x them paired: no gain told from the noise.)
    BySize,
    /// A pattern at every size: a set tested first, in the cache (see
    /// `Engine::direct_first`), whose test is one load and no branch.
    Pattern,
}

/// Bits a gram of the sets of every gram of the values.
pub(crate) const VALUE_BITS_PER_GRAM: usize = 32;

/// Every gram of `values`, laid out by their hash, whose top bits pick
/// their words in any [`GramSet`] (see [`layout::by_hash`]). `None` below
/// [`layout::BY_HASH_FROM`] grams (a set of 8 MB at
/// [`VALUE_BITS_PER_GRAM`], and three sets hold them), where the sets stay
/// in the cache.
pub(crate) fn grams_by_word<'a>(
    values: impl Iterator<Item = &'a [u8]> + Clone,
) -> Option<Wiped<u64>> {
    grams_by_word_from(values, layout::BY_HASH_FROM)
}

/// [`grams_by_word`], from `grouped_from` grams on.
fn grams_by_word_from<'a>(
    values: impl Iterator<Item = &'a [u8]> + Clone,
    grouped_from: usize,
) -> Option<Wiped<u64>> {
    let count = grams_in(values.clone());
    if count < grouped_from || count == 0 {
        return None;
    }
    let grams = values.flat_map(|v| v.windows(GRAM).map(gram));
    Some(layout::by_hash(count, grams, first_hash))
}

/// The grams of `values` (8 bytes at each offset of each).
fn grams_in<'a>(values: impl Iterator<Item = &'a [u8]>) -> usize {
    values.map(|v| v.len().saturating_sub(GRAM - 1)).sum()
}

/// Keys whose words a large [`GramSet`] asks for at once as it is made.
const INSERTED_AT_ONCE: usize = 16;

/// From a bitmap of this many bytes on, a [`GramSet`]'s keys are put in
/// [`INSERTED_AT_ONCE`] at a time: below it, where the bitmap stays in the
/// last-level cache (the sets of 10,000 tokens, 1.3 to 1.9 MB), asking
/// first made compiling slower.
const IN_BATCHES_FROM: usize = 4 << 20;

impl GramSet {
    /// Every gram of every value (32 bits a gram).
    pub(crate) fn new<'a>(values: impl Iterator<Item = &'a [u8]> + Clone) -> GramSet {
        GramSet::of_grams(values, VALUE_BITS_PER_GRAM, Probe::BySize)
    }

    /// [`GramSet::of_grams`] of `parts` and `values`, the grams of the
    /// values taken from `grouped` where they are laid out by word (see
    /// [`grams_by_word`]): the same set.
    pub(crate) fn of_grams_grouped<'a>(
        parts: impl Iterator<Item = &'a [u8]> + Clone,
        values: impl Iterator<Item = &'a [u8]> + Clone,
        grouped: Option<&[u64]>,
        bits_per_gram: usize,
        probe: Probe,
    ) -> GramSet {
        let Some(grams) = grouped else {
            return GramSet::of_grams(parts.chain(values), bits_per_gram, probe);
        };
        let count = grams_in(parts.clone()) + grams.len();
        let keys = parts.flat_map(|part| part.windows(GRAM).map(gram));
        GramSet::of_keys(
            count,
            bits_per_gram,
            probe,
            keys.chain(grams.iter().copied()),
        )
    }

    /// Every gram of every value, with `bits_per_gram` bits of room each.
    pub(crate) fn of_grams<'a>(
        values: impl Iterator<Item = &'a [u8]> + Clone,
        bits_per_gram: usize,
        probe: Probe,
    ) -> GramSet {
        let words = values.clone().flat_map(|v| v.windows(GRAM).map(gram));
        GramSet::of_keys(grams_in(values), bits_per_gram, probe, words)
    }

    /// The bytes a set of `count` keys with `bits_per_key` bits of room each
    /// takes (see [`GramSet::of_keys`]).
    pub(crate) fn memory_for(count: usize, bits_per_key: usize) -> usize {
        Bitmap::words_for(count * bits_per_key) * 8
    }

    /// A set of `count` keys (any 64-bit numbers, grams or not), with
    /// `bits_per_key` bits of room each.
    pub(crate) fn of_keys(
        count: usize,
        bits_per_key: usize,
        probe: Probe,
        keys: impl Iterator<Item = u64>,
    ) -> GramSet {
        let bits = Bitmap::with_bits(count * bits_per_key);
        let mut set = GramSet {
            paired: probe == Probe::BySize && bits.len() >= LARGE as u64,
            bits,
            empty: count == 0,
        };
        if set.bits.memory_usage() < IN_BATCHES_FROM {
            keys.for_each(|key| set.add(key));
            return set;
        }
        // Beyond the cache each key's word is a miss: a batch's are asked
        // for, then set (the short starts of 100 x 64 KiB, 33 million keys
        // in 32 MB, took 1.7 s one after another, 0.9 s so).
        let mut batch = [0u64; INSERTED_AT_ONCE];
        let mut in_batch = 0;
        for key in keys {
            set.bits.prefetch_word(first_hash(key));
            batch[in_batch] = key;
            in_batch += 1;
            if in_batch == INSERTED_AT_ONCE {
                batch.iter().for_each(|&key| set.add(key));
                in_batch = 0;
            }
        }
        batch[..in_batch].iter().for_each(|&key| set.add(key));
        // The keys are a value's bytes.
        batch.zeroize();
        set
    }

    /// Sets the bits of `key`.
    fn add(&mut self, key: u64) {
        let first = first_hash(key);
        if self.paired {
            self.bits.set(self.bits.pair(first));
            self.bits.set(self.bits.beside(first, second_hash(key)));
        } else {
            self.bits.set(self.bits.pattern(first));
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.empty
    }

    /// Whether its grams set a pattern of one word (see [`Probe`]), which
    /// [`GramSet::may_pass_pattern`] tests; else two pairs.
    pub(crate) fn is_patterned(&self) -> bool {
        !self.paired
    }

    /// Whether `gram` passes the first test of [`GramSet::may_hold`] in a
    /// set of two pairs (the first pair, in one word), without a branch:
    /// every gram in the set does.
    #[inline(always)]
    pub(crate) fn may_pass_first_pair(&self, gram: u64) -> bool {
        debug_assert!(self.paired);
        self.bits.holds(self.bits.pair(first_hash(gram)))
    }

    /// [`GramSet::may_hold`] in a set of patterns, without a branch.
    #[inline(always)]
    pub(crate) fn may_pass_pattern(&self, gram: u64) -> bool {
        debug_assert!(!self.paired);
        self.bits.holds(self.bits.pattern(first_hash(gram)))
    }

    /// Starts loading what [`GramSet::may_hold`] of `gram` reads first.
    #[inline(always)]
    pub(crate) fn prefetch(&self, gram: u64) {
        self.bits.prefetch_word(first_hash(gram));
    }

    /// Whether the bitmap is too large to stay in the cache (see
    /// [`Bitmap::is_large`]).
    pub(crate) fn is_large(&self) -> bool {
        self.bits.is_large()
    }

    /// Whether `gram` may be a gram of a value.
    #[inline(always)]
    pub(crate) fn may_hold(&self, gram: u64) -> bool {
        if !self.paired {
            return self.may_pass_pattern(gram);
        }
        // Almost every gram fails the first two bits, in one word: the
        // rest waits for those that pass.
        self.may_pass_first_pair(gram)
            && self
                .bits
                .holds(self.bits.beside(first_hash(gram), second_hash(gram)))
    }

    pub(crate) fn memory_usage(&self) -> usize {
        self.bits.memory_usage()
    }
}

/// The hash of `gram` with the bits of `fold` (a [`Fold`]'s mask) set: the
/// one a [`GramIndex`] is built with and every lookup of it makes, in one
/// place so that the two cannot differ.
#[inline(always)]
fn folded_hash(gram: u64, fold: u64) -> u64 {
    first_hash(gram | fold)
}

#[inline(always)]
fn first_hash(gram: u64) -> u64 {
    gram.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A hash independent of [`first_hash`].
#[inline(always)]
fn second_hash(gram: u64) -> u64 {
    (gram ^ (gram >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// A bitmap addressed by a 64-bit hash, mapped onto its length by a
/// multiply (not a mask), so that it takes the bits asked for and not the
/// next power of two: up to twice less memory. Wiped: whoever reads its
/// bits can test a guess of a value's 8 bytes against them.
struct Bitmap {
    words: Wiped<u64>,
}

impl Bitmap {
    /// At least `bits` bits (and at least 4,096), all clear, in an even
    /// number of words (see [`Bitmap::beside`]).
    fn with_bits(bits: usize) -> Bitmap {
        Bitmap {
            words: wipe::zeroed(Bitmap::words_for(bits)),
        }
    }

    /// The words of [`Bitmap::with_bits`].
    fn words_for(bits: usize) -> usize {
        bits.clamp(1 << 12, 1 << 34).div_ceil(128) * 2
    }

    /// Its length in bits.
    #[inline(always)]
    fn len(&self) -> u64 {
        self.words.len() as u64 * 64
    }

    /// The word of `hash`, from its top bits.
    #[inline(always)]
    fn word(&self, hash: u64) -> usize {
        ((u128::from(hash) * self.words.len() as u128) >> 64) as usize
    }

    /// The word of `hash` and two bits in it, from bits of the hash below
    /// those that pick the word: one load tests both, where two bits
    /// anywhere took two (each a cache miss in a large bitmap).
    #[inline(always)]
    fn pair(&self, hash: u64) -> (usize, u64) {
        (self.word(hash), pair_bits(hash))
    }

    /// The word of `hash` and a pattern of [`PATTERN_BITS`] bits in it,
    /// picked and rotated by the same bits of the hash as [`Bitmap::pair`]
    /// takes its two from: as many operations as the pair, but at 8 bits
    /// of room a key about half as many keys never set pass (see
    /// [`PATTERNS`]).
    #[inline(always)]
    fn pattern(&self, hash: u64) -> (usize, u64) {
        let mask = PATTERNS[(hash >> 38 & 63) as usize].rotate_left((hash >> 32) as u32);
        (self.word(hash), mask)
    }

    /// Asks for the word of `hash`: that of its pair and of its pattern.
    #[inline(always)]
    fn prefetch_word(&self, hash: u64) {
        prefetch(&self.words[self.word(hash)]);
    }

    /// From 1 MiB on, a bitmap's words are asked for ahead of their probes:
    /// with what else a scan reads, it would not stay in a second-level
    /// cache, and below that the prefetches cost more than they save.
    fn is_large(&self) -> bool {
        self.words.len() * 8 >= 1 << 20
    }

    /// Sets `bits` in word `word` (a key's [`Bitmap::pair`],
    /// [`Bitmap::pattern`] or [`Bitmap::beside`]).
    fn set(&mut self, (word, bits): (usize, u64)) {
        self.words[word] |= bits;
    }

    /// Whether every one of `bits` is set in word `word`.
    #[inline(always)]
    fn holds(&self, (word, bits): (usize, u64)) -> bool {
        self.words[word] & bits == bits
    }

    /// The word beside that of `first` (in the same 16 bytes, so in the
    /// same cache line where the words start 16-byte aligned, as the
    /// system allocators' blocks do) and two bits in it, from the hash
    /// `second`.
    #[inline(always)]
    fn beside(&self, first: u64, second: u64) -> (usize, u64) {
        (self.word(first) ^ 1, pair_bits(second))
    }

    fn memory_usage(&self) -> usize {
        self.words.capacity() * 8
    }
}

/// The two bits of a pair, from bits 32 to 43 of `hash`.
#[inline(always)]
fn pair_bits(hash: u64) -> u64 {
    1 << (hash >> 32 & 63) | 1 << (hash >> 38 & 63)
}

/// Bits a key sets in a set of patterns (see [`PATTERNS`]).
const PATTERN_BITS: u32 = 5;

/// The masks of [`PATTERN_BITS`] bits from which a key of a set of
/// patterns takes its bits in its word, one picked by its hash and rotated
/// by it (see [`Bitmap::pattern`]): five bits where a pair took two, in
/// as many operations (a load from these 512 bytes, in the cache, and a
/// rotation, where the pair took two shifts). At 8 bits of room a key,
/// about one random key in 28 never set passes, against one in 19 through
/// a pair (of the benchmark's text at 10,000 tokens, one sampled gram in
/// 50 against one in 24); at 32 bits, about one text-like gram in 1,000
/// against one in 180. Five bits each from a hash of its own would let
/// through fewer still, but cost five shifts and a load to test.
const PATTERNS: [u64; 64] = patterns();

/// [`PATTERNS`]: each of [`PATTERN_BITS`] bits, chosen by a fixed sequence
/// (splitmix64's).
const fn patterns() -> [u64; 64] {
    let mut patterns = [0; 64];
    let mut state = 0_u64;
    let mut i = 0;
    while i < patterns.len() {
        let mut mask = 0_u64;
        while mask.count_ones() < PATTERN_BITS {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            mask |= 1 << (z & 63);
        }
        patterns[i] = mask;
        i += 1;
    }
    patterns
}

/// The first 8 bytes of `bytes` as a number.
#[inline(always)]
pub(crate) fn gram(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes[..GRAM].try_into().expect("8 bytes"))
}

/// The gram that starts at `at`, when 8 bytes remain there: one bounds
/// check in the filters' loops, where slicing twice took two.
#[inline(always)]
pub(crate) fn gram_at(input: &[u8], at: usize) -> Option<u64> {
    let bytes = input.get(at..)?.first_chunk::<GRAM>()?;
    Some(u64::from_le_bytes(*bytes))
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
    if let Some(word) = gram_at(input, at) {
        if !has_line_break(word) {
            return Some((word, at));
        }
        if let Some(found) = view_gram_of_one_break(input, at, word) {
            return Some(found);
        }
    }
    view_gram_bytewise(input, at)
}

/// [`view_gram`] where `word`, the 8 bytes at `at`, holds one run of line
/// breaks (one LF or a CR LF most often: a line's end) and the 8 bytes
/// after it start with as many that are none: the word's other bytes and
/// those, in a few operations on words, where a byte at a time took a
/// loop and its mispredicted branches (one sample in 14 of the benchmark's
/// text holds a line break). `None` where the line breaks are otherwise.
#[inline]
fn view_gram_of_one_break(input: &[u8], at: usize, word: u64) -> Option<(u64, usize)> {
    let next = gram_at(input, at + GRAM)?;
    let breaks = line_break_bytes(word);
    let count = breaks.count_ones();
    if count == 0 || count == 8 {
        return None;
    }
    // Bytes `first..first + count` are the line breaks, and all of them.
    let first = breaks.trailing_zeros() / 8;
    let last = (63 - breaks.leading_zeros()) / 8;
    if last + 1 - first != count {
        return None;
    }
    let taken = (1u64 << (8 * count)) - 1;
    if line_break_bytes(next) & taken != 0 {
        return None;
    }
    let before = (1u64 << (8 * first)) - 1;
    let view = word & before | (word >> (8 * count)) & !before | next << (64 - 8 * count);
    let from = if first == 0 { at + count as usize } else { at };
    Some((view, from))
}

/// [`view_gram`] a byte at a time.
fn view_gram_bytewise(input: &[u8], at: usize) -> Option<(u64, usize)> {
    let (bytes, got, first) = view_bytes(input, at);
    (got == GRAM).then(|| (u64::from_le_bytes(bytes), first))
}

/// Whether `b` is a line break (CR or LF), which the view leaves out.
#[inline(always)]
pub(super) fn is_break(b: u8) -> bool {
    b == b'\r' || b == b'\n'
}

/// The first 8 view bytes of `input` from `at` on (fewer where it ends:
/// the rest zero), how many, and the position of the first of them (the
/// input's length when there is none), a byte at a time.
pub(super) fn view_bytes(input: &[u8], at: usize) -> ([u8; GRAM], usize, usize) {
    let mut bytes = [0u8; GRAM];
    let mut got = 0;
    let mut first = input.len();
    for (i, &b) in input.iter().enumerate().skip(at) {
        if is_break(b) {
            continue;
        }
        if got == 0 {
            first = i;
        }
        bytes[got] = b;
        got += 1;
        if got == GRAM {
            break;
        }
    }
    (bytes, got, first)
}

/// A bit (the high one) in each byte of `word` that is CR or LF, exactly:
/// no other byte's ([`has_line_break`], which asks only whether there is
/// one, takes fewer operations and may mark a byte above one too).
#[inline(always)]
pub(super) fn line_break_bytes(word: u64) -> u64 {
    const LOWS: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // The high bit of each byte that is not zero, without a carry between
    // bytes; inverted, of each that is.
    let zeros = |v: u64| !(((v & LOWS) + LOWS) | v) & !LOWS;
    zeros(word ^ (0x0A * (u64::MAX / 255))) | zeros(word ^ (0x0D * (u64::MAX / 255)))
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

    /// The values' grams laid out by word make the same sets, bit for bit,
    /// alone or after other parts, at every size of set.
    #[test]
    fn grams_by_word_make_the_same_sets() {
        let mut next = crate::engine::xorshift(0x6a0);
        let bytes: Vec<u8> = (0..300_000).map(|_| next() as u8).collect();
        let values = || bytes.chunks(30_000);
        let parts: Vec<&[u8]> = bytes[..5_000].chunks(37).collect();
        let grouped = grams_by_word_from(values(), 0).expect("grams");
        assert_eq!(grouped.len(), grams_in(values()));
        assert!(grams_by_word_from(values(), grouped.len() + 1).is_none());
        // Every gram, each as often as it is a gram, another order.
        let mut sorted: Vec<u64> = values().flat_map(|v| v.windows(GRAM).map(gram)).collect();
        sorted.sort_unstable();
        let mut grouped_sorted = grouped.to_vec();
        grouped_sorted.sort_unstable();
        assert_eq!(grouped_sorted, sorted);
        assert_ne!(
            &grouped[..],
            &values()
                .flat_map(|v| v.windows(GRAM).map(gram))
                .collect::<Vec<_>>()[..]
        );
        for bits in [4, 32] {
            for first in [&parts[..0], &parts[..]] {
                let probe = Probe::BySize;
                let plain = GramSet::of_grams(first.iter().copied().chain(values()), bits, probe);
                let made = GramSet::of_grams_grouped(
                    first.iter().copied(),
                    values(),
                    Some(&grouped),
                    bits,
                    probe,
                );
                assert_eq!(
                    made.bits.words[..],
                    plain.bits.words[..],
                    "{bits} bits a gram"
                );
                assert_eq!((made.paired, made.empty), (plain.paired, plain.empty));
                let none =
                    GramSet::of_grams_grouped(first.iter().copied(), values(), None, bits, probe);
                assert_eq!(none.bits.words[..], plain.bits.words[..]);
            }
        }
    }

    #[test]
    fn gram_set_holds_every_gram_and_few_others() {
        let mut next = crate::engine::xorshift(0x0b10_0f11_u64);
        // Text-like bytes (ASCII letters), as the filters see. A small set
        // (a pattern a gram: two bits let through one in 180), one past
        // LARGE (two pairs), and one whose grams are put in in batches
        // (past 4 MiB; the last batch not full).
        let mut letters =
            |n: usize| -> Vec<u8> { (0..n).map(|_| b'a' + (next() % 26) as u8).collect() };
        let sets = [
            (2_500, false, false, 700),
            (20_000, true, false, 1_000),
            (140_001, true, true, 1_000),
        ];
        for (values, paired, in_batches, at_most) in sets {
            let values: Vec<Vec<u8>> = (0..values).map(|_| letters(15)).collect();
            let set = GramSet::new(values.iter().map(|v| v.as_slice()));
            let batched = set.memory_usage() >= IN_BATCHES_FROM;
            assert_eq!((set.paired, batched), (paired, in_batches));
            assert!(
                values
                    .iter()
                    .all(|v| (0..8).all(|at| set.may_hold(gram(&v[at..]))))
            );
            let queries = 1_000_000;
            let passed = (0..queries)
                .filter(|_| set.may_hold(gram(&letters(8))))
                .count();
            assert!(
                passed * at_most < queries,
                "paired {paired}: {passed} of {queries} passed"
            );
        }
    }

    /// A set tested first sets a pattern a key at every size: past
    /// `LARGE` bits, at 8 bits a key, it lets through about one key in 28
    /// never put in (a pair at that room about one in 19), where the first
    /// pair of a set paired by size lets through one in 6.
    #[test]
    fn a_set_tested_first_sets_a_pattern_a_key() {
        let mut next = crate::engine::xorshift(0xf125);
        let count = 700_000;
        let keys: Vec<u64> = (0..count).map(|_| next()).collect();
        let first = GramSet::of_keys(count, 8, Probe::Pattern, keys.iter().copied());
        let by_size = GramSet::of_keys(count, 8, Probe::BySize, keys.iter().copied());
        assert!(first.bits.len() >= LARGE as u64);
        assert!(first.is_patterned() && !by_size.is_patterned());
        assert!(
            keys.iter()
                .all(|&k| first.may_pass_pattern(k) && first.may_hold(k))
        );
        assert!(
            keys.iter()
                .all(|&k| by_size.may_pass_first_pair(k) && by_size.may_hold(k))
        );
        let others: Vec<u64> = (0..200_000).map(|_| next()).collect();
        let through_first = others
            .iter()
            .filter(|&&k| first.may_pass_pattern(k))
            .count();
        let through_by_size = others
            .iter()
            .filter(|&&k| by_size.may_pass_first_pair(k))
            .count();
        assert!(
            through_first * 25 < others.len() && through_by_size * 9 > others.len(),
            "{through_first} and {through_by_size} of {} passed",
            others.len()
        );
    }

    #[test]
    fn no_freed_block_keeps_a_bitmap_word() {
        // A set's bits let whoever reads them test guesses of a value's
        // grams: its words, those with 4 bits or more set (fewer could be
        // in any block by chance), may be in no freed block.
        let mut next = crate::engine::xorshift(0x3f1d_u64);
        let values: Vec<Vec<u8>> = (0..200)
            .map(|_| (0..40).map(|_| b'a' + (next() % 26) as u8).collect())
            .collect();
        let set = GramSet::new(values.iter().map(|v| v.as_slice()));
        let words: Vec<u64> = set.bits.words.to_vec();
        let needles: Vec<Vec<u8>> = words
            .iter()
            .filter(|w| w.count_ones() >= 4)
            .map(|w| w.to_le_bytes().to_vec())
            .collect();
        assert!(needles.len() >= 100, "{} needles", needles.len());
        // The scan can fail: the plain copy of the words, dropped, is found.
        let found = crate::freed_memory::scanned(needles.clone(), || drop(words));
        assert!(!found.is_empty());
        let found = crate::freed_memory::scanned(needles, || drop(set));
        assert_eq!(found, [], "(freed block size, needle index)");
    }

    #[test]
    fn gram_index_gives_every_offset_of_a_gram() {
        let mut next = crate::engine::xorshift(0x9a3e_1d00_u64);
        // No entry, one (a single bucket), enough for many buckets, and
        // enough for a large index; some grams at several offsets.
        for grams in [0, 1, 3, 5_000, 300_000] {
            let mut inserted = Vec::new();
            let mut expected: Vec<(u64, u64)> = Vec::new();
            for _ in 0..grams {
                let word = next();
                let mut offsets = 1u64 << (next() % 32);
                if next().is_multiple_of(4) {
                    offsets |= 1 << (next() % 32);
                }
                for offset in (0..32).filter(|o| offsets >> o & 1 == 1) {
                    inserted.push((word, offset));
                }
                expected.push((word, offsets));
            }
            let index = GramIndex::new(
                MAX_STRIDE,
                inserted.len(),
                inserted.iter().copied(),
                Fold::None,
            );
            assert_eq!(index.is_empty(), grams == 0);
            for &(word, offsets) in &expected {
                // A gram that shares a bucket and a tag may add offsets, never
                // take one away; the sampled test passes it.
                assert_eq!(index.get(word) & offsets, offsets, "{grams} grams");
                assert!(index.may_pass_first(word));
            }
            let others: Vec<u64> = (0..100_000).map(|_| next()).collect();
            let hit = others.iter().filter(|&&w| index.get(w) != 0).count();
            assert!(hit < 100, "{grams} grams: {hit} of 100,000 others hit");
            // The sampled test (a pattern an entry) lets through about one
            // in 400 (two bits of one word: one in 80).
            let passed = others.iter().filter(|&&w| index.may_pass_first(w)).count();
            assert!(
                passed * 250 < others.len(),
                "{grams} grams: {passed} passed"
            );
        }
    }

    #[test]
    fn a_folded_index_holds_both_cases_of_hex_in_one_entry() {
        let value = b"\x01\xab\xcd\xef\x9a\xbc\xde\xf0\x12\x3f\xfa";
        let lower: Vec<u8> = value
            .iter()
            .flat_map(|b| format!("{b:02x}").into_bytes())
            .collect();
        let upper = lower.to_ascii_uppercase();
        let grams_of = |hex: &[u8]| (0..8).map(|o| (gram(&hex[o..]), o)).collect::<Vec<_>>();
        let both: Vec<_> = grams_of(&lower)
            .into_iter()
            .chain(grams_of(&upper))
            .collect();
        let folded = GramIndex::new(8, both.len(), both.iter().copied(), Fold::Case);
        let apart = GramIndex::new(8, both.len(), both.iter().copied(), Fold::None);
        // Each of these grams holds a letter a to f: folded, its two cases
        // are one entry.
        assert_eq!(folded.entries.len(), 8);
        assert!(apart.entries.len() > 14, "{}", apart.entries.len());
        for index in [&folded, &apart] {
            for (o, (l, u)) in grams_of(&lower)
                .into_iter()
                .zip(grams_of(&upper))
                .enumerate()
            {
                assert_eq!(index.get(l.0) >> o & 1, 1, "lower at {o}");
                assert_eq!(index.get(u.0) >> o & 1, 1, "upper at {o}");
                assert!(index.may_pass_first(l.0) && index.may_pass_first(u.0));
            }
        }
    }

    #[test]
    fn view_gram_as_a_byte_at_a_time() {
        let mut next = crate::engine::xorshift(0x71e7);
        // Line breaks often, in runs and alone, near the ends too, and
        // bytes a line break's test on words could take for one.
        let alphabet = b"ab\r\n\x0b\x0c\x0e\x8a\x8d\x00";
        let mut quick = 0;
        for _ in 0..60_000 {
            let len = (next() % 24) as usize;
            let input: Vec<u8> = (0..len)
                .map(|_| match next() % 4 {
                    0 => alphabet[(next() % alphabet.len() as u64) as usize],
                    _ => b'c' + (next() % 20) as u8,
                })
                .collect();
            for at in 0..=len {
                let found = view_gram(&input, at);
                assert_eq!(found, view_gram_bytewise(&input, at), "{input:?} {at}");
                if let Some(word) = gram_at(&input, at) {
                    quick += usize::from(view_gram_of_one_break(&input, at, word).is_some());
                }
            }
        }
        // The quick way was taken, and is taken at a line's end.
        assert!(quick > 20_000, "{quick}");
        let line = b"abc\r\ndefghijklmnop";
        let view = u64::from_le_bytes(*b"abcdefgh");
        assert_eq!(view_gram_of_one_break(line, 0, gram(line)), Some((view, 0)));
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
