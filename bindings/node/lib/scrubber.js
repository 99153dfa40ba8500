'use strict';
// compile() and the scrubber it gives: immutable, any number of calls and
// streams; its native memory goes with close() (or the garbage collector).

const { c, copyOut, sizeofOptions } = require('./library');
const { ScrubError, check } = require('./errors');
const { Handle } = require('./handle');
const { takeHits } = require('./hits');
const { toNative } = require('./secrets');
const { Stream } = require('./stream');

// Not fatal: U+FFFD for a broken sequence (SPEC §3 text); a leading BOM is text, not a marker.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function checkOptions(options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('slicc-scrub: compile(secrets, { version, sameLength }): options are required');
  }
  const { version, sameLength = false } = options;
  if (!Number.isInteger(version) || version < 0 || version > 0xffffffff) {
    throw new TypeError(
      `slicc-scrub: options.version must be the rules version, an integer (this library implements ${c.rulesVersion()})`,
    );
  }
  if (typeof sameLength !== 'boolean') {
    throw new TypeError('slicc-scrub: options.sameLength must be a boolean');
  }
  return { struct_size: sizeofOptions, version, same_length: sameLength ? 1 : 0 };
}

function compileNative(secrets, options) {
  const native = checkOptions(options);
  const { structs, wipe } = toNative(secrets);
  const scrubber = [null];
  const error = [null];
  let status;
  try {
    status = c.compile(structs.length ? structs : null, structs.length, native, scrubber, error);
  } finally {
    wipe();
  }
  if (status !== 0) {
    const message = error[0] ? c.errorMessage(error[0]) : undefined;
    c.errorFree(error[0]);
    throw new ScrubError(status, message);
  }
  return scrubber[0];
}

class Scrubber {
  /** Use compile(). */
  constructor(pointer) {
    this._handle = new Handle(this, pointer, c.scrubberFree, 'scrubber');
  }

  /** Scrubs `input` in one piece: { output: Uint8Array, hits }. */
  bytes(input) {
    if (!(input instanceof Uint8Array)) throw new TypeError('slicc-scrub: bytes(input): input must be a Uint8Array');
    const result = [null];
    check(c.bytes(this._handle.get(), input, input.length, result));
    try {
      const output = [null];
      const len = [0];
      check(c.resultOutput(result[0], output, len));
      const bytes = copyOut(output[0], len[0]);
      const hits = [null];
      check(c.resultHits(result[0], hits));
      return { output: bytes, hits: takeHits(hits[0]) };
    } finally {
      c.resultFree(result[0]);
    }
  }

  /** Scrubs a string's UTF-8 bytes: { output: string, hits }. */
  text(input) {
    if (typeof input !== 'string') throw new TypeError('slicc-scrub: text(input): input must be a string');
    const { output, hits } = this.bytes(Buffer.from(input, 'utf8'));
    return { output: decoder.decode(output), hits };
  }

  /** A new stream: push(chunk), idle(), end(), hits. */
  stream() {
    const stream = [null];
    check(c.streamNew(this._handle.get(), stream));
    return new Stream(stream[0]);
  }

  /** Frees the compiled secrets. Streams made from it go on working. */
  close() {
    this._handle.close();
  }

  get closed() {
    return this._handle.closed;
  }
}

/**
 * Compiles secrets [{ name, value, placeholder }] (strings or Uint8Array)
 * under options { version, sameLength }.
 */
function compile(secrets, options) {
  return new Scrubber(compileNative(secrets, options));
}

if (typeof Symbol.dispose === 'symbol') Scrubber.prototype[Symbol.dispose] = Scrubber.prototype.close;

module.exports = { compile, Scrubber };
