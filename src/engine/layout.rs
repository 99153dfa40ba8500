//! Items laid out by group in one counting pass (a flat "compressed rows"
//! layout): group `g`'s items are `out[starts[g]..starts[g + 1]]`, in the
//! order they came. Linear in the items and the groups, where a list per
//! group is an allocation each and a comparison sort is n log n; the
//! suffix automaton's states by length, a table's longer patterns by
//! prefix and the seed index's entries by bucket are laid out so.

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
