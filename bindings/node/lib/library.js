'use strict';
// The C library: where it is found, and the functions of include/slicc_scrub.h
// this binding calls. Every handle is a `void *` (a BigInt under koffi 3).

const fs = require('node:fs');
const path = require('node:path');
const koffi = require('koffi');

function fileName() {
  if (process.platform === 'win32') return 'slicc_scrub.dll';
  if (process.platform === 'darwin') return 'libslicc_scrub.dylib';
  return 'libslicc_scrub.so';
}

// SLICC_SCRUB_LIB (a file, or a folder holding it) wins; otherwise the system
// loader finds the library by name (LD_LIBRARY_PATH, the installed prefix's
// ld.so.cache entry, DYLD_LIBRARY_PATH).
function locate() {
  const explicit = process.env.SLICC_SCRUB_LIB;
  if (explicit) {
    let isDir = false;
    try {
      isDir = fs.statSync(explicit).isDirectory();
    } catch {
      throw new Error(`slicc-scrub: SLICC_SCRUB_LIB=${explicit} does not exist`);
    }
    return isDir ? path.join(explicit, fileName()) : explicit;
  }
  return fileName();
}

function load() {
  const where = locate();
  try {
    return { lib: koffi.load(where), where };
  } catch (err) {
    throw new Error(
      `slicc-scrub: cannot load the C library ${where} (${err.message}); ` +
        'install it, or set SLICC_SCRUB_LIB to the library file or its folder',
    );
  }
}

const { lib, where } = load();

const Secret = koffi.struct('slicc_scrub_secret', {
  name: 'const char *',
  value: 'const uint8_t *',
  value_len: 'size_t',
  placeholder: 'const uint8_t *',
  placeholder_len: 'size_t',
});

const Options = koffi.struct('slicc_scrub_options', {
  struct_size: 'size_t',
  version: 'uint32_t',
  same_length: 'uint32_t',
});

const Hit = koffi.struct('slicc_scrub_hit', {
  name: 'const char *',
  form: 'uint32_t',
  form_name: 'const char *',
  count: 'uint64_t',
});

const fn = (prototype) => lib.func(prototype);
const out = '_Out_ void **output, _Out_ size_t *output_len';

const c = {
  version: fn('const char *scrub_version(void)'),
  rulesVersion: fn('uint32_t scrub_rules_version(void)'),
  statusMessage: fn('const char *scrub_status_message(uint32_t status)'),
  compile: fn(
    'uint32_t scrub_compile(const slicc_scrub_secret *secrets, size_t secrets_len, ' +
      'const slicc_scrub_options *options, _Out_ void **scrubber, _Out_ void **error)',
  ),
  errorMessage: fn('const char *scrub_error_message(void *error)'),
  errorFree: fn('void scrub_error_free(void *error)'),
  scrubberFree: fn('void scrub_scrubber_free(void *scrubber)'),
  bytes: fn('uint32_t scrub_bytes(void *scrubber, const uint8_t *input, size_t input_len, _Out_ void **result)'),
  resultOutput: fn(`uint32_t scrub_result_output(void *result, ${out})`),
  resultHits: fn('uint32_t scrub_result_hits(void *result, _Out_ void **hits)'),
  resultFree: fn('void scrub_result_free(void *result)'),
  hitsLen: fn('uint32_t scrub_hits_len(void *hits, _Out_ size_t *len)'),
  hitsGet: fn('uint32_t scrub_hits_get(void *hits, size_t index, _Out_ slicc_scrub_hit *hit)'),
  hitsFree: fn('void scrub_hits_free(void *hits)'),
  streamNew: fn('uint32_t scrub_stream_new(void *scrubber, _Out_ void **stream)'),
  streamPush: fn(`uint32_t scrub_stream_push(void *stream, const uint8_t *chunk, size_t chunk_len, ${out})`),
  streamIdle: fn(`uint32_t scrub_stream_idle(void *stream, ${out})`),
  streamEnd: fn(`uint32_t scrub_stream_end(void *stream, ${out})`),
  streamHits: fn('uint32_t scrub_stream_hits(void *stream, _Out_ void **hits)'),
  streamHeld: fn('uint32_t scrub_stream_held(void *stream, _Out_ size_t *held)'),
  streamFree: fn('void scrub_stream_free(void *stream)'),
};

/** Copies `len` bytes the library owns at `pointer` into a new Uint8Array. */
function copyOut(pointer, len) {
  return len === 0 ? new Uint8Array(0) : koffi.decode(pointer, 'uint8_t', len);
}

module.exports = { c, copyOut, where, sizeofOptions: koffi.sizeof(Options) };
