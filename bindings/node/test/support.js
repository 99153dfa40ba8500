'use strict';
// Reading the shared vectors (vectors/ at the repository root, or
// SLICC_SCRUB_VECTORS: the folder holding them).

const fs = require('node:fs');
const path = require('node:path');
const assert = require('node:assert/strict');

const dir = process.env.SLICC_SCRUB_VECTORS || path.join(__dirname, '..', '..', '..', 'vectors');

function readVectors(file) {
  const where = path.join(dir, file);
  return fs.existsSync(where) ? JSON.parse(fs.readFileSync(where, 'utf8')) : null;
}

const fromHex = (hex) => new Uint8Array(Buffer.from(hex, 'hex'));
const utf8 = (text) => new Uint8Array(Buffer.from(text, 'utf8'));

/** A case's secrets in the binding's form: strings stay strings, hex becomes bytes. */
function secretsOf(testCase) {
  return testCase.secrets.map((s) => ({
    name: s.name,
    value: s.valueHex !== undefined ? fromHex(s.valueHex) : s.value,
    placeholder: s.placeholderHex !== undefined ? fromHex(s.placeholderHex) : s.placeholder,
  }));
}

function bytesField(testCase, field) {
  return testCase[`${field}Hex`] !== undefined ? fromHex(testCase[`${field}Hex`]) : utf8(testCase[field]);
}

const hitKey = (h) => `${h.name}\u0000${h.form}\u0000${h.count}`;

/** Hits are compared in any order. */
function assertHits(actual, expected, what) {
  assert.deepEqual(actual.map(hitKey).sort(), expected.map(hitKey).sort(), `${what}: hits`);
}

function assertBytes(actual, expected, what) {
  assert.ok(actual instanceof Uint8Array, `${what}: a Uint8Array`);
  assert.equal(Buffer.from(actual).toString('hex'), Buffer.from(expected).toString('hex'), what);
}

const concat = (parts) => new Uint8Array(Buffer.concat(parts));

module.exports = { readVectors, secretsOf, bytesField, assertHits, assertBytes, concat, fromHex, utf8 };
