'use strict';
// The caller's secrets as the C structs scrub_compile reads. Only types are
// checked here; every rule of the contract (names, lengths, leaks) is the
// library's, so its messages are the same in every binding.

const { ScrubError, Status } = require('./errors');

/** `field` of secret `index` as bytes, and whether this module made them (so may wipe them). */
function toBytes(field, index, what) {
  if (typeof field === 'string') return { bytes: Buffer.from(field, 'utf8'), owned: true };
  if (field instanceof Uint8Array) return { bytes: field, owned: false };
  throw new TypeError(`slicc-scrub: secret ${index}: ${what} must be a string or a Uint8Array`);
}

/**
 * Returns `{ structs, wipe }`: the scrub_secret array, and a function that
 * zeroes the copies of values and placeholders made for it (call it once
 * scrub_compile has returned: the library keeps its own copy).
 */
function toNative(secrets) {
  if (!Array.isArray(secrets)) {
    throw new TypeError('slicc-scrub: secrets must be an array of { name, value, placeholder }');
  }
  const owned = [];
  const structs = secrets.map((secret, index) => {
    if (secret === null || typeof secret !== 'object') {
      throw new TypeError(`slicc-scrub: secret ${index} must be an object { name, value, placeholder }`);
    }
    const { name, value, placeholder } = secret;
    if (typeof name !== 'string') {
      throw new TypeError(`slicc-scrub: secret ${index}: name must be a string`);
    }
    if (name.includes('\0')) {
      // A C string would end at the NUL and the library would check another name.
      throw new ScrubError(Status.INVALID_NAME, `secret ${index}: invalid name: it holds a NUL character`);
    }
    const v = toBytes(value, index, 'value');
    const p = placeholder == null ? { bytes: null, owned: false } : toBytes(placeholder, index, 'placeholder');
    for (const b of [v, p]) if (b.owned) owned.push(b.bytes);
    const hasPlaceholder = p.bytes !== null && p.bytes.length > 0;
    return {
      name,
      value: v.bytes,
      value_len: v.bytes.length,
      placeholder: hasPlaceholder ? p.bytes : null,
      placeholder_len: hasPlaceholder ? p.bytes.length : 0,
    };
  });
  return { structs, wipe: () => owned.forEach((bytes) => bytes.fill(0)) };
}

module.exports = { toNative };
