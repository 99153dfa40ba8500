'use strict';
// slicc-scrub for Node.js: the original package's API over the C library
// (koffi). Every matching decision is the library's.

const { c, where } = require('./lib/library');
const { Status, ScrubError } = require('./lib/errors');
const { compile, Scrubber } = require('./lib/scrubber');
const { Stream } = require('./lib/stream');

module.exports = {
  compile,
  Scrubber,
  Stream,
  ScrubError,
  Status,
  /** The rules version of the loaded library: pass it as options.version. */
  RULES_VERSION: c.rulesVersion(),
  // The header's macros (include/slicc_scrub.h): fixed by the ABI.
  FRAGMENT: 16,
  MIN_VALUE: 8,
  MAX_VALUE: 65536,
  MAX_PLACEHOLDER: 1024,
  MAX_NAME: 128,
  IDLE_MS: 50,
  FORMS: Object.freeze(['raw', 'fragment', 'json', 'percent', 'html', 'base64', 'hex', 'wrapped']),
  /** The library's version ("0.1.0"). */
  version: () => c.version(),
  /** Where the library was loaded from (a path, or the name the system loader resolved). */
  libraryPath: where,
};
