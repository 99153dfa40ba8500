//! Items laid out by group in one counting pass (a flat "compressed rows"
//! layout): group `g`'s items are `out[starts[g]..starts[g + 1]]`, in the
//! order they came. Linear in the items and the groups, where a list per
//! group is an allocation each and a comparison sort is n log n; the
//! suffix automaton's states by length, a table's longer patterns by
//! prefix and the seed index's entries by bucket are laid out so.

use super::prefetch::prefetch;
use super::wipe::{self, Wiped};

/// From this many groups on, where their starts (a quarter of a MiB and
/// more) and the places they point to are read at random beyond the cache
/// (the suffix automaton's edges by state, the seed index's entries by
/// bucket), counting and placing ask for what an item reads [`AHEAD`]
/// items before they take it. The fuzzers use 0, so that they go through
/// that way, which the tests' smaller sets do not.
#[cfg(not(fuzzing))]
const AHEAD_FROM: usize = 1 << 16;
#[cfg(fuzzing)]
const AHEAD_FROM: usize = 0;

/// How many items the counting and the placing read ahead (see
/// [`AHEAD_FROM`]). Compiling 10,000 tokens (and 1,000 beside, in turn),
/// the layouts of 65,536 groups or more took 0.46 to 0.62 of their time so,
/// 15 to 29 ms less of a round's 350 (16 ahead: 0.64 to 0.72; 64: 0.43 to
/// 0.60).
const AHEAD: usize = 32;

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
    let ahead = groups >= AHEAD_FROM;
    let mut starts = starts_of(groups, items.clone(), ahead);
    out.clear();
    out.resize(starts[groups] as usize, T::default());
    place(items, &mut starts, out, ahead);
    starts
}

/// [`by_group`] into `out`, which has exactly one place for each item.
///
/// # Panics
/// If `out` is not as long as `items`.
pub(crate) fn by_group_in<T: Copy + Default>(
    groups: usize,
    items: impl Iterator<Item = (usize, T)> + Clone,
    out: &mut [T],
) -> Vec<u32> {
    let ahead = groups >= AHEAD_FROM;
    let mut starts = starts_of(groups, items.clone(), ahead);
    assert_eq!(starts[groups] as usize, out.len(), "one place an item");
    place(items, &mut starts, out, ahead);
    starts
}

/// Where each group starts: counted, then summed. With `ahead`, each
/// count is asked for [`AHEAD`] items before it is taken.
fn starts_of<T>(groups: usize, items: impl Iterator<Item = (usize, T)>, ahead: bool) -> Vec<u32> {
    let mut starts = vec![0u32; groups + 1];
    if ahead {
        // The group of item `k` in `window[k % AHEAD]` until it is counted.
        let mut window = [0; AHEAD];
        let mut count = 0;
        for (group, _) in items {
            prefetch(&starts[group + 1]);
            if count >= AHEAD {
                starts[window[count % AHEAD] + 1] += 1;
            }
            window[count % AHEAD] = group;
            count += 1;
        }
        for k in count.saturating_sub(AHEAD)..count {
            starts[window[k % AHEAD] + 1] += 1;
        }
    } else {
        for (group, _) in items {
            starts[group + 1] += 1;
        }
    }
    for g in 0..groups {
        starts[g + 1] += starts[g];
    }
    starts
}

/// Each item at the next place of its group, counted in `starts` itself
/// (each group's start moves to the next's), then moved back a group:
/// where a copy of them to count in took as much memory again (52 MB for
/// the suffix automaton's edges at 100 x 64 KiB, in fresh pages). With
/// `ahead`, an item's group start is asked for [`AHEAD`] items before it
/// is placed, and its place half as many before (a guess: an item of the
/// same group between them moves it on).
fn place<T: Copy + Default>(
    items: impl Iterator<Item = (usize, T)>,
    starts: &mut [u32],
    out: &mut [T],
    ahead: bool,
) {
    let put = |starts: &mut [u32], out: &mut [T], (group, item): (usize, T)| {
        out[starts[group] as usize] = item;
        starts[group] += 1;
    };
    if !ahead {
        for item in items {
            put(starts, out, item);
        }
    } else {
        // Item `k` in `window[k % AHEAD]` until it is placed, in the order
        // they came (a group's items keep theirs).
        let mut window = [(0, T::default()); AHEAD];
        let mut count = 0;
        for item in items {
            prefetch(&starts[item.0]);
            if count >= AHEAD / 2 {
                let (halfway, _) = window[(count - AHEAD / 2) % AHEAD];
                if let Some(place) = out.get(starts[halfway] as usize) {
                    prefetch(place);
                }
            }
            if count >= AHEAD {
                put(starts, out, window[count % AHEAD]);
            }
            window[count % AHEAD] = item;
            count += 1;
        }
        for k in count.saturating_sub(AHEAD)..count {
            put(starts, out, window[k % AHEAD]);
        }
        // They may be values' bytes.
        wipe::zero(&mut window);
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

    #[test]
    fn read_ahead_lays_out_as_one_at_a_time() {
        // Counts around the window's length, groups few (many items of a
        // group in one window) and many.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for count in [
            0,
            1,
            AHEAD / 2,
            AHEAD - 1,
            AHEAD,
            AHEAD + 1,
            3 * AHEAD + 5,
            1000,
        ] {
            for groups in [1, 3, 50, 5000] {
                let items: Vec<(usize, u32)> = (0..count)
                    .map(|i| ((next() % groups as u64) as usize, i as u32))
                    .collect();
                let mut expected = Vec::new();
                let expected_starts = by_group(groups, items.iter().copied(), &mut expected);
                let mut starts = starts_of(groups, items.iter().copied(), true);
                assert_eq!(starts, expected_starts, "{count} items in {groups} groups");
                let mut out = vec![u32::MAX; count];
                place(items.iter().copied(), &mut starts, &mut out, true);
                assert_eq!(starts, expected_starts, "{count} items in {groups} groups");
                assert_eq!(out, expected, "{count} items in {groups} groups");
                // One at a time, each group's items in the order they came.
                for g in 0..groups {
                    let laid = &out[starts[g] as usize..starts[g + 1] as usize];
                    let came: Vec<u32> = items
                        .iter()
                        .filter(|&&(h, _)| h == g)
                        .map(|&(_, i)| i)
                        .collect();
                    assert_eq!(laid, &came[..]);
                }
            }
        }
    }
}
