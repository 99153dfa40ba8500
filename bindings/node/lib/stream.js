'use strict';
// A stream over a scrubber. end() frees the native stream at once and keeps
// its hits, so a stream that is ended needs no close() (where its hits
// cannot be read then, it keeps the native stream, which still has them,
// rather than lose the bytes end() returns).

const { c, copyOut } = require('./library');
const { ScrubError, Status, check } = require('./errors');
const { Handle } = require('./handle');
const { takeHits } = require('./hits');

class Stream {
  /** Use scrubber.stream(). */
  constructor(pointer) {
    this._handle = new Handle(this, pointer, c.streamFree, 'stream');
    this._ended = false;
    this._endedHits = null;
  }

  _live() {
    if (this._ended) throw new ScrubError(Status.STREAM_ENDED);
    return this._handle.get();
  }

  /** Pushes `chunk`; returns every byte, scrubbed, that can no longer be part of a match. */
  push(chunk) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError('slicc-scrub: push(chunk): chunk must be a Uint8Array');
    const stream = this._live();
    const output = [null];
    const len = [0];
    check(c.streamPush(stream, chunk, chunk.length, output, len));
    return copyOut(output[0], len[0]);
  }

  /** After IDLE_MS without input: what is held, scrubbed, when fewer than FRAGMENT bytes are held. */
  idle() {
    const stream = this._live();
    const output = [null];
    const len = [0];
    check(c.streamIdle(stream, output, len));
    return copyOut(output[0], len[0]);
  }

  /** Everything still held, scrubbed; the stream is then ended (hits stay readable). */
  end() {
    const stream = this._live();
    const output = [null];
    const len = [0];
    check(c.streamEnd(stream, output, len));
    const bytes = copyOut(output[0], len[0]);
    this._ended = true;
    try {
      this._endedHits = this._readHits(stream);
      this._handle.close();
    } catch {
      // Out of memory for the list: `hits` reads it from the native stream later.
    }
    return bytes;
  }

  /** [{ name, form, count }] so far. */
  get hits() {
    if (this._endedHits !== null) return this._endedHits.map((hit) => ({ ...hit }));
    return this._readHits(this._handle.get());
  }

  /** How many bytes are held back, waiting for more input (0 once ended). */
  get held() {
    if (this._ended) return 0;
    const held = [0];
    check(c.streamHeld(this._handle.get(), held));
    return Number(held[0]);
  }

  _readHits(stream) {
    const hits = [null];
    check(c.streamHits(stream, hits));
    return takeHits(hits[0]);
  }

  /** Frees the stream without end() (held bytes are dropped). */
  close() {
    this._handle.close();
  }
}

if (typeof Symbol.dispose === 'symbol') Stream.prototype[Symbol.dispose] = Stream.prototype.close;

module.exports = { Stream };
