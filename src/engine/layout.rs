//! Items laid out by group in one counting pass (a flat "compressed rows"
//! layout): group `g`'s items are `out[starts[g]..starts[g + 1]]`, in the
//! order they came. Linear in the items and the groups, where a list per
//! group is an allocation each and a comparison sort is n log n; the
//! suffix automaton's states by length, a table's longer patterns by
//! prefix and the seed index's entries by bucket are laid out so.

use super::wipe::{self, Wiped};

/// From this many keys on, the sets filled at random beyond the last-level
/// cache (the exact starts, the values' grams) are filled in the order of
/// [`by_hash`]. The fuzzers use 0, so that they go through that order,
/// which the tests' smaller sets do not.
#[cfg(not(fuzzing))]
pub(crate) const BY_HASH_FROM: usize = 1 << 21;
#[cfg(fuzzing)]
pub(crate) const BY_HASH_FROM: usize = 0;

/// The top bits of a key's hash that [`by_hash`] groups by.
const HASH_GROUP_BITS: u32 = 11;

/// The `count` `keys` laid out by the top [`HASH_GROUP_BITS`] of `hash` of
/// each. Where those bits pick a key's place in a table (the word of a
/// bitmap, a line), a group's keys, put in in this order, fall in a
/// 2,048th of it, which stays in the cache, where one after another each
/// was a miss. Made as they are laid out (counted, then placed), not
/// stored first; wiped (they are values' bytes).
pub(crate) fn by_hash(
    count: usize,
    keys: impl Iterator<Item = u64> + Clone,
    hash: impl Fn(u64) -> u64 + Copy,
) -> Wiped<u64> {
    let mut out: Wiped<u64> = wipe::zeroed(count);
    let items = keys.map(move |key| ((hash(key) >> (64 - HASH_GROUP_BITS)) as usize, key));
    by_group_in(1 << HASH_GROUP_BITS, items, &mut out);
    out
}

/// Lays `items` (group, item), every group below `groups`, out into `out`
/// (cleared first; with room for them all, it does not grow, so a wiped
/// buffer leaves no copy behind) and returns the `groups + 1` starts.
/// `items` is read twice: once to count, once to place (so that what it
/// yields need not be stored first, where it can be made again).
pub(crate) fn by_group<T: Copy + Default>(
    groups: usize,
    items: impl Iterator<Item = (usize, T)> + Clone,
    out: &mut Vec<T>,
) -> Vec<u32> {
    let mut starts = starts_of(groups, items.clone());
    out.clear();
    out.resize(starts[groups] as usize, T::default());
    place(items, &mut starts, out);
    starts
}

/// [`by_group`] into `out`, which has exactly one place for each item.
///
/// # Panics
/// If `out` is not as long as `items`.
pub(crate) fn by_group_in<T: Copy>(
    groups: usize,
    items: impl Iterator<Item = (usize, T)> + Clone,
    out: &mut [T],
) -> Vec<u32> {
    let mut starts = starts_of(groups, items.clone());
    assert_eq!(starts[groups] as usize, out.len(), "one place an item");
    place(items, &mut starts, out);
    starts
}

/// Where each group starts: counted, then summed.
fn starts_of<T>(groups: usize, items: impl Iterator<Item = (usize, T)>) -> Vec<u32> {
    let mut starts = vec![0u32; groups + 1];
    for (group, _) in items {
        starts[group + 1] += 1;
    }
    for g in 0..groups {
        starts[g + 1] += starts[g];
    }
    starts
}

/// Each item at the next place of its group, counted in `starts` itself
/// (each group's start moves to the next's), then moved back a group:
/// where a copy of them to count in took as much memory again (52 MB for
/// the suffix automaton's edges at 100 x 64 KiB, in fresh pages).
fn place<T>(items: impl Iterator<Item = (usize, T)>, starts: &mut [u32], out: &mut [T]) {
    for (group, item) in items {
        out[starts[group] as usize] = item;
        starts[group] += 1;
    }
    // Group `g` now starts where `g + 1` did: each start a group back.
    starts.copy_within(..starts.len() - 1, 1);
    starts[0] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_in_order_of_arrival() {
        let items = [(2, 'a'), (0, 'b'), (2, 'c'), (3, 'd'), (0, 'e')];
        let mut out = Vec::new();
        let starts = by_group(5, items.iter().copied(), &mut out);
        assert_eq!(starts, [0, 2, 2, 4, 5, 5]);
        assert_eq!(out, ['b', 'e', 'a', 'c', 'd']);
        let starts = by_group(0, std::iter::empty::<(usize, u8)>(), &mut Vec::new());
        assert_eq!(starts, [0]);
        let mut out = ['-'; 5];
        let starts = by_group_in(4, items.iter().map(|&(g, c)| (3 - g.min(3), c)), &mut out);
        assert_eq!(starts, [0, 1, 3, 3, 5]);
        assert_eq!(out, ['d', 'a', 'c', 'b', 'e']);
    }
}
