'use strict';
// slicc-scrub for Node.js: the original package's API over the C library
// (koffi). Every matching decision is the library's.

const { c, where } = require('./lib/library');
const { Status, ScrubError } = require('./lib/errors');
const { compile, Scrubber } = require('./lib/scrubber');
const { Stream } = require('./lib/stream');

/** The rules version of the loaded library: pass it as options.version. */
const RULES_VERSION = c.rulesVersion();
// The header's macros (include/slicc_scrub.h): fixed by the ABI.
const FRAGMENT = 16;
const MIN_VALUE = 8;
const MAX_VALUE = 65536;
const MAX_PLACEHOLDER = 1024;
const MAX_NAME = 128;
const IDLE_MS = 50;
const FORMS = Object.freeze(['raw', 'fragment', 'json', 'percent', 'html', 'base64', 'hex', 'wrapped']);
/** The library's version ("0.1.0"). */
const version = () => c.version();
/** Where the library was loaded from (a path, or the name the system loader resolved). */
const libraryPath = where;

// Identifiers only: Node finds a CommonJS module's named exports for an
// ES module's `import { IDLE_MS } from 'slicc-scrub'` by reading this
// object, and stops at the first value that is not a plain name.
module.exports = {
  compile,
  Scrubber,
  Stream,
  ScrubError,
  Status,
  RULES_VERSION,
  FRAGMENT,
  MIN_VALUE,
  MAX_VALUE,
  MAX_PLACEHOLDER,
  MAX_NAME,
  IDLE_MS,
  FORMS,
  version,
  libraryPath,
};
