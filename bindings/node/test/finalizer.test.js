'use strict';
// The FinalizationRegistry backstop: a scrubber and a stream dropped without
// close() are freed once collected; closed ones are not freed twice.

const test = require('node:test');
const assert = require('node:assert/strict');
const v8 = require('node:v8');
const vm = require('node:vm');
const { compile, RULES_VERSION } = require('..');
const { stats } = require('../lib/handle');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

function dropUnclosed() {
  const scrubber = compile([{ name: 'A', value: 'sk-live-7f3a9c2e5b' }], { version: RULES_VERSION });
  scrubber.stream().push(new Uint8Array([1, 2, 3]));
}

test('dropped handles are freed by the collector; closed ones only by close()', async () => {
  const before = stats.collected;
  for (let i = 0; i < 4; i++) {
    const closed = compile([], { version: RULES_VERSION });
    closed.stream().close();
    closed.close();
  }
  dropUnclosed();
  // Cleanup callbacks run in a later task after a collection.
  for (let i = 0; i < 100 && stats.collected - before < 2; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (let i = 0; i < 5; i++) {
    gc(); // a few more rounds: a closed handle freed again would show here
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(stats.collected - before, 2, 'the unclosed scrubber and stream, and nothing closed');
});
