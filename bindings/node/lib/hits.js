'use strict';
// A scrub_hits list as [{ name, form, count }], freed once read.

const { c } = require('./library');
const { check } = require('./errors');

function takeHits(handle) {
  try {
    const len = [0];
    check(c.hitsLen(handle, len));
    const hits = [];
    for (let i = 0; i < len[0]; i++) {
      const hit = {};
      check(c.hitsGet(handle, i, hit));
      // A form of a later rules version without a name would read as its number.
      hits.push({ name: hit.name, form: hit.form_name ?? String(hit.form), count: Number(hit.count) });
    }
    return hits;
  } finally {
    c.hitsFree(handle);
  }
}

module.exports = { takeHits };
