'use strict';
// vectors/errors.json (when the vectors have it): secrets that must fail to
// compile, each with the error it gives.

const test = require('node:test');
const assert = require('node:assert/strict');
const { compile, RULES_VERSION, ScrubError, Status } = require('..');
const { readVectors, secretsOf } = require('./support');

const vectors = readVectors('errors.json');

// The vectors' error names, as status codes.
const statusOf = {
  'unsupported version': Status.UNSUPPORTED_VERSION,
  'invalid name': Status.INVALID_NAME,
  'duplicate name': Status.DUPLICATE_NAME,
  'value too short': Status.VALUE_TOO_SHORT,
  'value too long': Status.VALUE_TOO_LONG,
  'placeholder too long': Status.PLACEHOLDER_TOO_LONG,
  'placeholder leaks': Status.PLACEHOLDER_LEAKS,
  'redaction leaks': Status.REDACTION_LEAKS,
};

test('errors.json: format 1', { skip: vectors ? false : 'vectors/errors.json is not in this checkout' }, () => {
  assert.equal(vectors.format, 1);
  assert.ok(vectors.cases.length > 0);
});

for (const testCase of vectors ? vectors.cases : []) {
  test(`error: ${testCase.name}`, () => {
    const status = statusOf[testCase.error];
    assert.ok(status !== undefined, `unknown error "${testCase.error}"`);
    const options = testCase.options || {};
    const secrets = secretsOf(testCase);
    assert.throws(
      () => compile(secrets, { version: options.version ?? RULES_VERSION, sameLength: Boolean(options.sameLength) }),
      (err) => {
        assert.ok(err instanceof ScrubError, `a ScrubError, got ${err}`);
        assert.equal(err.code, Object.keys(Status).find((k) => Status[k] === status), err.message);
        for (const s of testCase.secrets) {
          for (const field of ['value', 'placeholder']) {
            if (typeof s[field] === 'string' && s[field].length >= 8) {
              assert.ok(!err.message.includes(s[field]), `the message holds secret ${field}`);
            }
          }
        }
        return true;
      },
    );
  });
}
