//! `std::io` adapters: a [`ScrubWriter`] that scrubs everything written to
//! it into an inner writer, and a [`ScrubReader`] that scrubs what it reads.

use std::fmt;
use std::io::{self, Read, Write};

use crate::form::Hit;
use crate::scrubber::Scrubber;
use crate::stream::Stream;

/// Scrubs every byte written into `inner`. Bytes that could still become
/// part of a match are held until more arrive, [`ScrubWriter::idle`] or
/// [`ScrubWriter::finish`]; `flush` passes on only what is decided.
///
/// As `io::Write` asks, a `write` that fails takes no byte of its buffer:
/// scrubbed bytes the inner writer did not take (an error such as
/// `WouldBlock`) are kept and go first at the next call, which reports the
/// error where they still do not go (as `BufWriter` does). No byte is lost
/// or written twice, however often a call is retried.
///
/// Dropping the writer without `finish` ends the stream and writes the held
/// bytes, ignoring errors (as `BufWriter` does); call `finish` to see them.
///
/// ```
/// use std::io::Write;
/// use slicc_scrub::{compile, Options, ScrubWriter, Secret, RULES_VERSION};
///
/// let scrubber = compile(&[Secret::new("DB", "correct horse battery staple")], &Options::new(RULES_VERSION))?;
/// let mut writer = ScrubWriter::new(&scrubber, Vec::new());
/// writer.write_all(b"password: correct horse ")?;
/// writer.write_all(b"battery staple\n")?;
/// let (out, hits) = writer.finish()?;
/// assert_eq!(out, b"password: [redacted:DB]\n");
/// assert_eq!(hits.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ScrubWriter<W: Write> {
    inner: Option<W>,
    stream: Stream,
    /// Scrubbed bytes the inner writer has not taken yet.
    out: Vec<u8>,
}

impl<W: Write> ScrubWriter<W> {
    /// A writer that scrubs with `scrubber` into `inner`.
    pub fn new(scrubber: &Scrubber, inner: W) -> ScrubWriter<W> {
        ScrubWriter {
            inner: Some(inner),
            stream: scrubber.stream(),
            out: Vec::new(),
        }
    }

    /// Releases held bytes if fewer than 16 are held (see
    /// [`Stream::idle`]): call after [`crate::IDLE_MS`] without input.
    ///
    /// # Errors
    /// An error of the inner writer (writing or flushing); what it did not
    /// take goes first at the next call.
    pub fn idle(&mut self) -> io::Result<()> {
        self.stream
            .idle_into(&mut self.out)
            .map_err(io::Error::other)?;
        self.write_out()?;
        self.inner_mut().flush()
    }

    /// Hits so far.
    pub fn hits(&self) -> Vec<Hit> {
        self.stream.hits()
    }

    /// The inner writer.
    pub fn get_ref(&self) -> &W {
        self.inner
            .as_ref()
            .expect("inner writer present until finish")
    }

    /// Ends the stream, writes everything held, flushes, and returns the
    /// inner writer and the hits.
    ///
    /// # Errors
    /// An error of the inner writer (writing or flushing); the bytes not
    /// written yet are then dropped with the writer, the inner writer too.
    pub fn finish(mut self) -> io::Result<(W, Vec<Hit>)> {
        self.stream
            .end_into(&mut self.out)
            .map_err(io::Error::other)?;
        self.write_out()?;
        self.inner_mut().flush()?;
        let hits = self.stream.hits();
        let inner = self
            .inner
            .take()
            .expect("inner writer present until finish");
        Ok((inner, hits))
    }

    fn inner_mut(&mut self) -> &mut W {
        self.inner
            .as_mut()
            .expect("inner writer present until finish")
    }

    /// Writes `out` into the inner writer (`write_all`'s loop, which does
    /// not say how much it wrote before an error); what it does not take
    /// stays in `out`.
    fn write_out(&mut self) -> io::Result<()> {
        let inner = self
            .inner
            .as_mut()
            .expect("inner writer present until finish");
        let mut written = 0;
        let result = loop {
            if written == self.out.len() {
                break Ok(());
            }
            match inner.write(&self.out[written..]) {
                Ok(0) => break Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => break Err(e),
            }
        };
        self.out.drain(..written);
        result
    }
}

impl<W: Write> Write for ScrubWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // What an earlier call left goes first; until it has gone, no byte
        // of `buf` is taken.
        self.write_out()?;
        self.stream
            .push_into(buf, &mut self.out)
            .map_err(io::Error::other)?;
        // `buf` is taken: what the inner writer does not take now goes
        // first at the next call, which reports its error.
        let _ = self.write_out();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_out()?;
        self.inner_mut().flush()
    }
}

/// What is held and what waits for the inner writer, counted: the bytes
/// held may be a value's first bytes, and the inner writer is not shown.
impl<W: Write> fmt::Debug for ScrubWriter<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScrubWriter")
            .field("stream", &self.stream)
            .field("unwritten", &self.out.len())
            .finish_non_exhaustive()
    }
}

impl<W: Write> Drop for ScrubWriter<W> {
    fn drop(&mut self) {
        if self.inner.is_some()
            && !self.stream.is_ended()
            && self.stream.end_into(&mut self.out).is_ok()
        {
            let _ = self.write_out();
            let _ = self.inner_mut().flush();
        }
    }
}

/// Reads from `inner` and yields the scrubbed bytes. Bytes that could
/// still become part of a match are held until more input arrives or
/// `inner` reaches its end.
///
/// ```
/// use std::io::Read;
/// use slicc_scrub::{compile, Options, ScrubReader, Secret, RULES_VERSION};
///
/// let scrubber = compile(&[Secret::new("DB", "correct horse battery staple")], &Options::new(RULES_VERSION))?;
/// let mut reader = ScrubReader::new(&scrubber, &b"password: correct horse battery staple"[..]);
/// let mut out = String::new();
/// reader.read_to_string(&mut out)?;
/// assert_eq!(out, "password: [redacted:DB]");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ScrubReader<R: Read> {
    inner: R,
    stream: Stream,
    chunk: Box<[u8]>,
    out: Vec<u8>,
    /// Bytes of `out` already returned.
    taken: usize,
    eof: bool,
}

impl<R: Read> ScrubReader<R> {
    /// A reader that scrubs with `scrubber` what it reads from `inner`.
    pub fn new(scrubber: &Scrubber, inner: R) -> ScrubReader<R> {
        ScrubReader {
            inner,
            stream: scrubber.stream(),
            chunk: vec![0; 16 * 1024].into_boxed_slice(),
            out: Vec::new(),
            taken: 0,
            eof: false,
        }
    }

    /// Hits so far (all of them once `read` has returned 0).
    pub fn hits(&self) -> Vec<Hit> {
        self.stream.hits()
    }

    /// The inner reader; bytes read from it but not yet returned are lost.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

/// As [`ScrubWriter`]'s: counts, not bytes.
impl<R: Read> fmt::Debug for ScrubReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScrubReader")
            .field("stream", &self.stream)
            .field("unread", &(self.out.len() - self.taken))
            .field("eof", &self.eof)
            .finish_non_exhaustive()
    }
}

impl<R: Read> Read for ScrubReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.taken < self.out.len() {
                let n = buf.len().min(self.out.len() - self.taken);
                buf[..n].copy_from_slice(&self.out[self.taken..self.taken + n]);
                self.taken += n;
                return Ok(n);
            }
            if self.eof || buf.is_empty() {
                return Ok(0);
            }
            self.out.clear();
            self.taken = 0;
            let n = self.inner.read(&mut self.chunk)?;
            let pushed = if n == 0 {
                self.eof = true;
                self.stream.end_into(&mut self.out)
            } else {
                self.stream.push_into(&self.chunk[..n], &mut self.out)
            };
            pushed.map_err(io::Error::other)?;
        }
    }
}
