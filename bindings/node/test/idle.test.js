'use strict';
// vectors/idle.json: streams with idle() calls, and what each step returns.

const test = require('node:test');
const assert = require('node:assert/strict');
const { compile, RULES_VERSION } = require('..');
const { readVectors, secretsOf, assertHits, assertBytes, fromHex, utf8 } = require('./support');

const vectors = readVectors('idle.json');

test('idle.json is there, in format 1', () => {
  assert.ok(vectors, 'vectors/idle.json not found (set SLICC_SCRUB_VECTORS)');
  assert.equal(vectors.format, 1);
  assert.ok(vectors.cases.length > 0);
});

const bytesOf = (text, hex) => (hex !== undefined ? fromHex(hex) : utf8(text));

for (const testCase of vectors ? vectors.cases : []) {
  test(testCase.name, () => {
    const scrubber = compile(secretsOf(testCase), {
      version: RULES_VERSION,
      sameLength: Boolean(testCase.options && testCase.options.sameLength),
    });
    const stream = scrubber.stream();
    scrubber.close(); // a stream outlives its scrubber
    assert.equal(testCase.steps.length, (testCase.outputs || testCase.outputsHex).length);
    testCase.steps.forEach((step, i) => {
      let got;
      if (step.push !== undefined || step.pushHex !== undefined) got = stream.push(bytesOf(step.push, step.pushHex));
      else if (step.idle) got = stream.idle();
      else if (step.end) got = stream.end();
      else assert.fail(`step ${i}: unknown step ${JSON.stringify(Object.keys(step))}`);
      const want = testCase.outputsHex ? fromHex(testCase.outputsHex[i]) : utf8(testCase.outputs[i]);
      assertBytes(got, want, `step ${i}`);
    });
    assertHits(stream.hits, testCase.hits, 'hits');
  });
}
