//! Buffers that hold bytes derived from a value (patterns, automaton
//! transitions) are wiped when dropped: freed memory never keeps a secret.
//! Each is allocated at its final size, so no growth leaves a copy behind.

pub(crate) type Wiped<T> = zeroize::Zeroizing<Vec<T>>;

/// An empty wiped buffer with room for `n` items.
pub(crate) fn with_capacity<T>(n: usize) -> Wiped<T>
where
    Vec<T>: zeroize::Zeroize,
{
    zeroize::Zeroizing::new(Vec::with_capacity(n))
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
