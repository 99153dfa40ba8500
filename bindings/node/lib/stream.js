'use strict';
// A stream over a scrubber. end() frees the native stream at once and keeps
// its hits, so a stream that is ended needs no close().

const { c, copyOut } = require('./library');
const { ScrubError, Status, check } = require('./errors');
const { Handle } = require('./handle');
const { takeHits } = require('./hits');

class Stream {
  /** Use scrubber.stream(). */
  constructor(pointer) {
    this._handle = new Handle(this, pointer, c.streamFree, 'stream');
    this._endedHits = null;
  }

  _live() {
    if (this._endedHits !== null) throw new ScrubError(Status.STREAM_ENDED);
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
    this._endedHits = this._readHits(stream);
    this._handle.close();
    return bytes;
  }

  /** [{ name, form, count }] so far. */
  get hits() {
    if (this._endedHits !== null) return this._endedHits.map((hit) => ({ ...hit }));
    return this._readHits(this._handle.get());
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
