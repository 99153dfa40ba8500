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
