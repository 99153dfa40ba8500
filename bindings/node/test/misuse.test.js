'use strict';
// Misuse gives clear errors, never a value or placeholder in a message, and
// leaves nothing half done.

const test = require('node:test');
const assert = require('node:assert/strict');
const slicc = require('..');

const { compile, RULES_VERSION, ScrubError, Status } = slicc;
const VALUE = 'sk-live-7f3a9c2e5b';
const PLACEHOLDER = 'fnox_proxy_placeholder';
const options = { version: RULES_VERSION };
const enc = (s) => new Uint8Array(Buffer.from(s));

/** Asserts fn throws a ScrubError with `status` whose message holds no secret. */
function throwsScrub(fn, status, pattern) {
  assert.throws(fn, (err) => {
    assert.ok(err instanceof ScrubError, `a ScrubError, got ${err}`);
    assert.equal(err.status, status, err.message);
    assert.equal(Status[err.code], status);
    assert.ok(!err.message.includes(VALUE) && !err.message.includes(PLACEHOLDER), 'no secret in the message');
    if (pattern) assert.match(err.message, pattern);
    return true;
  });
}

test('constants come from the library and the header', () => {
  assert.equal(typeof RULES_VERSION, 'number');
  assert.ok(RULES_VERSION >= 3);
  assert.deepEqual([slicc.FRAGMENT, slicc.MIN_VALUE, slicc.IDLE_MS], [16, 8, 50]);
  assert.match(slicc.version(), /^\d+\.\d+\.\d+/);
  assert.equal(slicc.FORMS.length, 8);
});

test('push, idle and end after end are STREAM_ENDED; hits stay readable', () => {
  const scrubber = compile([{ name: 'API_KEY', value: VALUE }], options);
  const stream = scrubber.stream();
  const out = Buffer.concat([stream.push(enc(`key=${VALUE}`)), stream.end()]).toString();
  assert.equal(out, 'key=[redacted:API_KEY]');
  throwsScrub(() => stream.push(enc('more')), Status.STREAM_ENDED, /ended/);
  throwsScrub(() => stream.idle(), Status.STREAM_ENDED);
  throwsScrub(() => stream.end(), Status.STREAM_ENDED);
  assert.deepEqual(stream.hits, [{ name: 'API_KEY', form: 'raw', count: 1 }]);
  stream.close(); // harmless after end
  scrubber.close();
});

test('wrong rules version fails loudly', () => {
  for (const version of [RULES_VERSION - 1, RULES_VERSION + 1, 0]) {
    throwsScrub(
      () => compile([{ name: 'A', value: VALUE }], { version }),
      Status.UNSUPPORTED_VERSION,
      new RegExp(`unsupported rules version ${version}\\b`),
    );
  }
  assert.throws(() => compile([{ name: 'A', value: VALUE }]), TypeError);
  assert.throws(() => compile([{ name: 'A', value: VALUE }], {}), /options.version/);
  assert.throws(() => compile([], { version: '4' }), /options.version/);
  assert.throws(() => compile([], { version: RULES_VERSION, sameLength: 'yes' }), /sameLength/);
});

test('bad secrets: each rule of the library, by index', () => {
  const cases = [
    [[{ name: 'a b', value: VALUE }], Status.INVALID_NAME, /secret 0\b.*invalid name/],
    [[{ name: '', value: VALUE }], Status.INVALID_NAME, /secret 0\b/],
    [[{ name: 'A'.repeat(129), value: VALUE }], Status.INVALID_NAME, /secret 0\b/],
    [[{ name: 'A\0B', value: VALUE }], Status.INVALID_NAME, /secret 0\b.*NUL/],
    [[{ name: 'A', value: VALUE }, { name: 'A', value: `${VALUE}x` }], Status.DUPLICATE_NAME, /secret 1\b/],
    [[{ name: 'A', value: 'short' }], Status.VALUE_TOO_SHORT, /secret 0\b.*too short/],
    [[{ name: 'A', value: new Uint8Array(65537).fill(0x41) }], Status.VALUE_TOO_LONG, /too long/],
    [[{ name: 'A', value: VALUE, placeholder: 'p'.repeat(1025) }], Status.PLACEHOLDER_TOO_LONG, /secret 0\b/],
    [[{ name: 'A', value: VALUE, placeholder: `x${VALUE}` }], Status.PLACEHOLDER_LEAKS, /secret 0\b/],
  ];
  for (const [secrets, status, pattern] of cases) throwsScrub(() => compile(secrets, options), status, pattern);
});

test('secrets of the wrong shape are TypeErrors naming the index', () => {
  assert.throws(() => compile('API_KEY', options), /secrets must be an array/);
  assert.throws(() => compile([null], options), /secret 0 must be an object/);
  assert.throws(() => compile([{ name: 1, value: VALUE }], options), /secret 0: name must be a string/);
  assert.throws(() => compile([{ name: 'A', value: 12345678 }], options), /secret 0: value must be/);
  assert.throws(() => compile([{ name: 'A', value: VALUE }, { name: 'B' }], options), /secret 1: value must be/);
  assert.throws(() => compile([{ name: 'A', value: VALUE, placeholder: 7 }], options), /secret 0: placeholder/);
});

test('values and placeholders as strings or Uint8Array; an empty placeholder is none', () => {
  const scrubber = compile(
    [
      { name: 'A', value: enc(VALUE), placeholder: enc('<A>') },
      { name: 'B', value: 'another-secret-value', placeholder: '' },
    ],
    { version: RULES_VERSION, sameLength: false },
  );
  const { output, hits } = scrubber.text(`${VALUE} another-secret-value`);
  assert.equal(output, '<A> [redacted:B]');
  assert.deepEqual(hits, [
    { name: 'A', form: 'raw', count: 1 },
    { name: 'B', form: 'raw', count: 1 },
  ]);
  scrubber.close();
});

test('wrong input types are TypeErrors', () => {
  const scrubber = compile([{ name: 'A', value: VALUE }], options);
  assert.throws(() => scrubber.bytes('text'), /bytes\(input\)/);
  assert.throws(() => scrubber.text(enc('bytes')), /text\(input\)/);
  const stream = scrubber.stream();
  assert.throws(() => stream.push('text'), /push\(chunk\)/);
  assert.deepEqual(stream.push(enc('ok ')), enc('ok '));
  stream.close();
  scrubber.close();
});

test('close: a closed scrubber or stream refuses calls; streams outlive their scrubber', () => {
  const scrubber = compile([{ name: 'A', value: VALUE }], { version: RULES_VERSION, sameLength: true });
  const stream = scrubber.stream();
  scrubber.close();
  scrubber.close(); // twice is harmless
  assert.equal(scrubber.closed, true);
  assert.throws(() => scrubber.bytes(enc('x')), /scrubber is closed/);
  assert.throws(() => scrubber.stream(), /scrubber is closed/);
  const out = Buffer.concat([stream.push(enc(`${VALUE}\n`)), stream.end()]).toString();
  assert.equal(out, `${'*'.repeat(VALUE.length)}\n`);
  const other = compile([], options).stream();
  other.close();
  assert.throws(() => other.push(enc('x')), /stream is closed/);
  assert.throws(() => other.hits, /stream is closed/);
});

test('the value strings made for the library are wiped after compile', () => {
  // Uint8Array values stay the caller's and are not touched.
  const value = enc(VALUE);
  compile([{ name: 'A', value }], options).close();
  assert.equal(Buffer.from(value).toString(), VALUE);
});

test('an empty list passes every byte through', () => {
  const scrubber = compile([], options);
  const input = new Uint8Array([0, 0xff, 0x0d, 0x0a, 0x80]);
  assert.deepEqual(scrubber.bytes(input), { output: input, hits: [] });
  scrubber.close();
});

test('text keeps a leading BOM (the vectors cover a cut character)', () => {
  const scrubber = compile([{ name: 'A', value: VALUE }], options);
  assert.equal(scrubber.text(`\uFEFF${VALUE}`).output, '\uFEFF[redacted:A]');
  scrubber.close();
});

test('held counts the bytes held back, 0 once ended, and throws once closed', () => {
  const scrubber = compile([{ name: 'API_KEY', value: VALUE }], options);
  const stream = scrubber.stream();
  assert.equal(stream.held, 0);
  const head = stream.push(enc(`key=${VALUE.slice(0, 6)}`));
  assert.equal(stream.held, 6, 'a proper prefix of the value is held back');
  const out = Buffer.concat([head, stream.push(enc(VALUE.slice(6))), stream.end()]).toString();
  assert.equal(out, 'key=[redacted:API_KEY]');
  assert.equal(stream.held, 0);
  const closed = scrubber.stream();
  closed.push(enc(VALUE.slice(0, 6)));
  closed.close();
  assert.throws(() => closed.held, /closed/);
  scrubber.close();
});
