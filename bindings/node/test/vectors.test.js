'use strict';
// vectors/vectors.json (SPEC §5): bytes and text, every split point, and one
// byte at a time, each giving the case's output and hits.

const test = require('node:test');
const assert = require('node:assert/strict');
const { compile, RULES_VERSION } = require('..');
const { readVectors, secretsOf, bytesField, assertHits, assertBytes, concat } = require('./support');

const vectors = readVectors('vectors.json');

test('vectors.json is there, in format 1, with the library constants', () => {
  assert.ok(vectors, 'vectors/vectors.json not found (set SLICC_SCRUB_VECTORS)');
  assert.equal(vectors.format, 1);
  const { FRAGMENT, MIN_VALUE, IDLE_MS } = require('..');
  assert.deepEqual([vectors.fragment, vectors.minValue, vectors.idleMs], [FRAGMENT, MIN_VALUE, IDLE_MS]);
  assert.ok(vectors.cases.length > 0);
});

for (const testCase of vectors ? vectors.cases : []) {
  test(testCase.name, () => {
    const scrubber = compile(secretsOf(testCase), {
      version: RULES_VERSION,
      sameLength: Boolean(testCase.options && testCase.options.sameLength),
    });
    try {
      const input = bytesField(testCase, 'input');
      const output = bytesField(testCase, 'output');

      const once = scrubber.bytes(input);
      assertBytes(once.output, output, 'bytes()');
      assertHits(once.hits, testCase.hits, 'bytes()');

      if (testCase.input !== undefined) {
        const text = scrubber.text(testCase.input);
        assert.equal(text.output, new TextDecoder('utf-8', { ignoreBOM: true }).decode(output), 'text()');
        assertHits(text.hits, testCase.hits, 'text()');
      }

      for (let i = 0; i <= input.length; i++) {
        const stream = scrubber.stream();
        const got = concat([stream.push(input.subarray(0, i)), stream.push(input.subarray(i)), stream.end()]);
        assertBytes(got, output, `split at ${i}`);
        assertHits(stream.hits, testCase.hits, `split at ${i}`);
      }

      const stream = scrubber.stream();
      const parts = [];
      for (let i = 0; i < input.length; i++) parts.push(stream.push(input.subarray(i, i + 1)));
      parts.push(stream.end());
      assertBytes(concat(parts), output, 'one byte at a time');
      assertHits(stream.hits, testCase.hits, 'one byte at a time');
    } finally {
      scrubber.close();
    }
  });
}
