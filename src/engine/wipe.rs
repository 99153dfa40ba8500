//! Buffers that hold bytes derived from a value (patterns, automaton
//! transitions) are wiped when dropped: freed memory never keeps a secret.
//! Each is allocated at its final size, or grown through [`reserve`], so
//! no growth leaves a copy behind.

pub(crate) type Wiped<T> = zeroize::Zeroizing<Vec<T>>;

/// An empty wiped buffer with room for `n` items.
pub(crate) fn with_capacity<T>(n: usize) -> Wiped<T>
where
    Vec<T>: zeroize::Zeroize,
{
    zeroize::Zeroizing::new(Vec::with_capacity(n))
}

/// A wiped buffer of `n` zeroes, in zeroed pages from the allocator (as
/// `vec!` asks for them): a page is written first where an item is put in
/// it, where a buffer filled with zeroes by hand wrote them all first.
pub(crate) fn zeroed<T: Copy + Default>(n: usize) -> Wiped<T>
where
    Vec<T>: zeroize::Zeroize,
{
    zeroize::Zeroizing::new(vec![T::default(); n])
}

/// Room for `additional` more items in `buffer`: where it has none, its
/// items move to a new buffer of twice the room (or of what is needed) and
/// the old one is wiped as it goes, where `Vec`'s own growth would free a
/// copy unwiped.
pub(crate) fn reserve<T: Copy>(buffer: &mut Wiped<T>, additional: usize)
where
    Vec<T>: zeroize::Zeroize,
{
    let needed = buffer.len() + additional;
    if needed <= buffer.capacity() {
        return;
    }
    let mut bigger = with_capacity(needed.max(2 * buffer.capacity()));
    bigger.extend_from_slice(buffer);
    *buffer = bigger;
}

/// `buffer` in a wiped buffer of exactly its length (a growing or
/// shrinking `Vec` would free a copy unwiped): the old one is wiped as it
/// goes.
pub(crate) fn exact<T: Copy>(buffer: Wiped<T>) -> Wiped<T>
where
    Vec<T>: zeroize::Zeroize,
{
    if buffer.len() == buffer.capacity() {
        return buffer;
    }
    let mut exact = with_capacity(buffer.len());
    exact.extend_from_slice(&buffer);
    exact
}

/// Zeroes `slice` (a buffer that is not a [`Wiped`], on drop), so that the
/// compiler cannot leave the stores out.
pub(crate) fn zero<T: Copy + Default>(slice: &mut [T]) {
    slice.fill(T::default());
    std::hint::black_box(slice);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_keeps_the_items_and_grows_by_doubling() {
        let mut buffer: Wiped<u8> = with_capacity(0);
        let mut grown = 0;
        for i in 0..1000u32 {
            let before = buffer.capacity();
            reserve(&mut buffer, 3);
            assert!(buffer.capacity() >= buffer.len() + 3);
            if buffer.capacity() != before {
                grown += 1;
                assert!(buffer.capacity() >= 2 * before, "grown by doubling");
            }
            buffer.extend_from_slice(&[i as u8; 3]);
        }
        assert!(grown <= 12, "{grown} growths for 3,000 items");
        let expected: Vec<u8> = (0..1000u32).flat_map(|i| [i as u8; 3]).collect();
        assert_eq!(&buffer[..], &expected[..]);
    }
}
