'use strict';
// Failures of the C library as one error class. A message names a secret by
// index (and name, when that is safe); never a value or a placeholder.

const { c } = require('./library');

/** The C ABI's status codes (scrub_status), by name. */
const Status = Object.freeze({
  OK: 0,
  NULL_ARGUMENT: 1,
  INVALID_ARGUMENT: 2,
  PANIC: 3,
  STREAM_ENDED: 4,
  STREAM_POISONED: 5,
  INDEX_OUT_OF_RANGE: 6,
  UNSUPPORTED_OPTIONS: 7,
  UNSUPPORTED_VERSION: 100,
  INVALID_NAME: 101,
  DUPLICATE_NAME: 102,
  VALUE_TOO_SHORT: 103,
  VALUE_TOO_LONG: 104,
  PLACEHOLDER_TOO_LONG: 105,
  PLACEHOLDER_LEAKS: 106,
  REDACTION_LEAKS: 107,
  TOO_LARGE: 108,
  INVALID_JSON: 200,
  INVALID_SECRETS_JSON: 201,
});

const statusNames = new Map(Object.entries(Status).map(([name, code]) => [code, name]));

class ScrubError extends Error {
  /**
   * @param {number} status a scrub_status
   * @param {string} [message] details; the library's fixed message otherwise
   */
  constructor(status, message) {
    super(message ?? c.statusMessage(status));
    this.name = 'ScrubError';
    this.status = status;
    /** The status's name ("STREAM_ENDED"), or "UNKNOWN" for a code of a later library. */
    this.code = statusNames.get(status) ?? 'UNKNOWN';
  }
}

/** Throws a ScrubError unless `status` is OK. */
function check(status) {
  if (status !== Status.OK) throw new ScrubError(status);
}

module.exports = { Status, ScrubError, check };
