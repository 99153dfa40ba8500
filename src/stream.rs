//! Streaming, SPEC §4.

use std::fmt;
use std::sync::Arc;

use zeroize::Zeroize;

use crate::FRAGMENT;
use crate::engine::Engine;
use crate::engine::append::append;
use crate::engine::matcher::{Matcher, Source};
use crate::error::StreamError;
use crate::form::Hit;

/// A stream over a compiled [`crate::Scrubber`]: push chunks in, get
/// scrubbed bytes out. Any chunking followed by [`Stream::end`] gives exactly
/// the bytes (and hits) of [`crate::Scrubber::bytes`] on the whole input
/// (where [`Stream::idle`] released nothing: what it releases never joins
/// a later match).
///
/// A stream is used by one thread at a time (`Send`, not shared); make as
/// many as you need from one scrubber.
///
/// ```
/// use slicc_scrub::{compile, Options, Secret, RULES_VERSION};
///
/// let scrubber = compile(&[Secret::new("DB", "correct horse battery staple")], &Options::new(RULES_VERSION))?;
/// let mut stream = scrubber.stream();
/// let mut shown = Vec::new();
/// for chunk in [&b"pw=corr"[..], b"ect horse batt", b"ery staple\nPassword: "] {
///     shown.extend(stream.push(chunk)?);
/// }
/// // A prompt with no newline: after IDLE_MS without input, release it.
/// shown.extend(stream.idle()?);
/// assert_eq!(shown, b"pw=[redacted:DB]\nPassword: ");
/// shown.extend(stream.end()?);
/// assert_eq!(stream.hits().len(), 1);
/// assert!(stream.push(b"more").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Stream {
    engine: Arc<Engine>,
    matcher: Matcher,
    /// The undecided input, from `matcher.decided()` to its end, is
    /// `held[start..]`: decided bytes are dropped from the front now and
    /// then, not at every push (see [`Stream::release`]).
    held: Vec<u8>,
    start: usize,
    ended: bool,
}

/// A large push is taken in pieces of this size, so what a stream buffers
/// stays small whatever the caller pushes.
const PIECE: usize = 1 << 20;

/// Pieces of at least this many bytes are fed where they are (see
/// [`Stream::push_in_place`]). In a large engine, whose automata wait on
/// memory for each byte stepped, this was 16 KiB while a piece's first
/// bytes were stepped one at a time to decide what was held (4 KiB pushes
/// read in place 0.94 to 1.02 x there); now that what is held is most
/// often emitted without a step (see `Matcher::release_unopened`), 4 KiB
/// pushes in place are 1.04 to 1.08 x at 1,000 tokens, 1.02 to 1.05 at 100
/// x 4 KiB, 1.06 to 1.07 at 10 x 64 KiB and 0.98 to 1.04 at 10,000; in a
/// small engine 1.10 x at 10 tokens and 1.03 at 100.
const IN_PLACE_FROM: usize = 4 * 1024;

/// At most so many bytes of a piece are pushed one at a time for it to be
/// fed in place, and no more than so many may be held before it.
const STEPS_IN_PLACE: usize = 8;

/// Decided bytes at the front of `held` are dropped once there are this
/// many, and at least as many as undecided ones after them: a push of a
/// byte or two moves nothing, and what is moved costs at most a byte a
/// byte dropped.
const DROP_FROM: usize = 4096;

impl Stream {
    pub(crate) fn new(engine: Arc<Engine>) -> Stream {
        let matcher = Matcher::new(&engine);
        Stream {
            engine,
            matcher,
            held: Vec::new(),
            start: 0,
            ended: false,
        }
    }

    /// Scrubs `chunk` and returns every byte that can no longer be part of a
    /// match; the rest is held for the next call.
    ///
    /// # Errors
    /// [`StreamError::Ended`] after [`Stream::end`]; nothing is consumed.
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<u8>, StreamError> {
        let mut out = Vec::with_capacity(chunk.len() + 64);
        self.push_into(chunk, &mut out)?;
        Ok(out)
    }

    /// As [`Stream::push`], appending to `out` (no allocation once `out` is
    /// large enough).
    ///
    /// # Errors
    /// [`StreamError::Ended`] after [`Stream::end`]; nothing is consumed.
    pub fn push_into(&mut self, chunk: &[u8], out: &mut Vec<u8>) -> Result<(), StreamError> {
        self.check()?;
        if chunk.len() == 1 {
            if self.matcher.pass_inert(&self.engine, chunk[0], out) {
                return Ok(());
            }
            // Held and stepped without the pieces' loop and the calls a
            // larger push makes.
            let base = self.matcher.decided();
            self.hold(chunk);
            let held = &self.held[self.start..];
            self.matcher.feed_byte(&self.engine, held, base, out);
            self.release(base);
            return Ok(());
        }
        self.push_pieces(chunk, out);
        Ok(())
    }

    /// [`Stream::push_into`] of more than one byte. Out of line: the push
    /// of one byte, inlined into `push_into`, then saves and restores only
    /// the registers it uses.
    #[inline(never)]
    fn push_pieces(&mut self, chunk: &[u8], out: &mut Vec<u8>) {
        for piece in chunk.chunks(PIECE) {
            let rest = if piece.len() >= IN_PLACE_FROM {
                match self.push_in_place(piece, out) {
                    Some(rest) => rest,
                    None => continue,
                }
            } else {
                piece
            };
            self.push_copied(rest, out);
        }
    }

    /// Pushes `piece` through the stream's buffer: copied after what is
    /// held, and fed from there. Inlined: a call here cost a 64 B push
    /// 1% more instructions.
    #[inline(always)]
    fn push_copied(&mut self, piece: &[u8], out: &mut Vec<u8>) {
        // The end of what is fed is the end of `piece`.
        Matcher::prefetch_end(&self.engine, piece);
        let base = self.matcher.decided();
        self.hold(piece);
        let held = &self.held[self.start..];
        self.matcher
            .feed(&self.engine, held, base, out, Source::Copied);
        self.release(base);
    }

    /// Pushes `piece` where it is, without copying it into what is held,
    /// once nothing held lies before it: what is held is emitted at once
    /// where the piece's first bytes show that nothing can start in it
    /// (most often), else its first bytes are pushed one at a time until
    /// what was held is decided (most often after a byte or two); then the
    /// rest is fed in place and only what it leaves undecided is held.
    /// Returns what is left to push the usual way where that takes more
    /// than [`STEPS_IN_PLACE`] bytes.
    fn push_in_place<'a>(&mut self, piece: &'a [u8], out: &mut Vec<u8>) -> Option<&'a [u8]> {
        let held = self.matcher.held();
        if held > STEPS_IN_PLACE {
            return Some(piece);
        }
        Matcher::prefetch_pages(piece);
        // The position of `piece[0]`.
        let at = self.matcher.decided() + held as u64;
        let held_bytes = &self.held[self.start..];
        if self
            .matcher
            .release_unopened(&self.engine, held_bytes, piece, out)
        {
            self.start = self.held.len();
        }
        let mut stepped = 0;
        while self.matcher.decided() < at {
            if stepped == STEPS_IN_PLACE {
                return Some(&piece[stepped..]);
            }
            // The push of one byte, its one inlined copy: a second made the
            // compiler leave the fragment run's step and the quick decision
            // out of line (15% more instructions for pushes of one byte).
            // It cannot fail: the stream has not ended.
            let _ = self.push_into(&piece[stepped..=stepped], out);
            stepped += 1;
        }
        let decided = self.matcher.decided();
        let from = (decided - at) as usize;
        self.matcher
            .feed(&self.engine, &piece[from..], decided, out, Source::Pushed);
        // What is held now is the end of `piece`, from the first undecided
        // byte: everything before it in the buffer is decided.
        let undecided = (self.matcher.decided() - at) as usize;
        self.held.clear();
        self.start = 0;
        self.hold(&piece[undecided..]);
        None
    }

    /// For the caller to call after [`crate::IDLE_MS`] without input: when
    /// fewer than 16 bytes are held, they are scrubbed and returned as `end`
    /// would, and the stream goes on afresh (those bytes never join a later
    /// match). When 16 or more are held, returns nothing: a tail that long
    /// could be a growing fragment.
    ///
    /// # Errors
    /// [`StreamError::Ended`] after [`Stream::end`]; nothing is consumed.
    pub fn idle(&mut self) -> Result<Vec<u8>, StreamError> {
        let mut out = Vec::new();
        self.idle_into(&mut out)?;
        Ok(out)
    }

    /// As [`Stream::idle`], appending to `out`.
    ///
    /// # Errors
    /// [`StreamError::Ended`] after [`Stream::end`]; nothing is consumed.
    pub fn idle_into(&mut self, out: &mut Vec<u8>) -> Result<(), StreamError> {
        self.check()?;
        if self.matcher.held() < FRAGMENT {
            self.flush(out);
        }
        Ok(())
    }

    /// Scrubs and returns everything held. Afterwards push, idle and end
    /// are errors; hits stay readable.
    ///
    /// # Errors
    /// [`StreamError::Ended`] after [`Stream::end`]; nothing is consumed.
    pub fn end(&mut self) -> Result<Vec<u8>, StreamError> {
        let mut out = Vec::new();
        self.end_into(&mut out)?;
        Ok(out)
    }

    /// As [`Stream::end`], appending to `out`.
    ///
    /// # Errors
    /// [`StreamError::Ended`] after [`Stream::end`]; nothing is consumed.
    pub fn end_into(&mut self, out: &mut Vec<u8>) -> Result<(), StreamError> {
        self.check()?;
        self.flush(out);
        self.ended = true;
        Ok(())
    }

    /// Totals so far: by secret index, then form order.
    pub fn hits(&self) -> Vec<Hit> {
        self.matcher.hits(&self.engine)
    }

    /// Number of bytes held back, waiting for more input.
    pub fn held(&self) -> usize {
        self.matcher.held()
    }

    /// Whether [`Stream::end`] has been called.
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// Appends `piece` to what is held. The buffer grows by moving to a new
    /// one and wiping the old: what is held may be part of a secret, and a
    /// reallocation would free a copy of it unwiped.
    /// Inlined (a push of one byte comes here at every byte), the making of
    /// room out of line.
    #[inline(always)]
    fn hold(&mut self, piece: &[u8]) {
        if self.held.len() + piece.len() > self.held.capacity() {
            self.make_room(piece.len());
        }
        append(&mut self.held, piece);
    }

    /// Room for `more` bytes after what is held: made by dropping the
    /// decided bytes first, then by moving to a larger buffer.
    #[inline(never)]
    fn make_room(&mut self, more: usize) {
        self.held.drain(..self.start);
        self.start = 0;
        let needed = self.held.len() + more;
        if needed > self.held.capacity() {
            let mut bigger = Vec::with_capacity(needed.max(2 * self.held.capacity()).max(64));
            bigger.extend_from_slice(&self.held);
            self.held.zeroize();
            self.held = bigger;
        }
    }

    /// Decides everything held, as at the end of the input.
    fn flush(&mut self, out: &mut Vec<u8>) {
        let base = self.matcher.decided();
        let held = &self.held[self.start..];
        self.matcher.finish(&self.engine, held, base, out);
        self.release(base);
    }

    /// Counts the held bytes that are decided now as dropped, `base` being
    /// the position of `held[start]`, and drops them when enough are (a
    /// branch the processor predicts, where dropping at every push was a
    /// data-dependent choice between clearing and moving).
    fn release(&mut self, base: u64) {
        self.start += (self.matcher.decided() - base) as usize;
        if self.start >= DROP_FROM.max(self.held.len() - self.start) {
            self.held.drain(..self.start);
            self.start = 0;
        }
    }

    fn check(&self) -> Result<(), StreamError> {
        if self.ended {
            Err(StreamError::Ended)
        } else {
            Ok(())
        }
    }
}

/// What is held may be part of a secret: wiped (its whole buffer, the
/// bytes already released included) when the stream goes.
impl Drop for Stream {
    fn drop(&mut self) {
        self.held.zeroize();
    }
}

impl fmt::Debug for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stream")
            .field("held", &self.matcher.held())
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}
