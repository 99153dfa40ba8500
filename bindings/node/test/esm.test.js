'use strict';
// The package imported as an ES module, as the original package was: every
// export of the CommonJS module is a named export too (Node finds them by
// reading module.exports, which it can only do for plain identifiers).

const test = require('node:test');
const assert = require('node:assert/strict');
const { pathToFileURL } = require('node:url');

test('every export can be imported by name from an ES module', async () => {
  const cjs = require('..');
  const esm = await import(pathToFileURL(require.resolve('..')).href);
  const missing = Object.keys(cjs).filter((name) => !(name in esm));
  assert.deepEqual(missing, [], 'named exports an ES module cannot import');
  assert.equal(esm.IDLE_MS, 50);
  assert.equal(esm.RULES_VERSION, cjs.RULES_VERSION);
  assert.equal(esm.compile, cjs.compile);
});
