'use strict';
// Ownership of one native handle: freed by close(), or by the garbage
// collector as a backstop when the JS object is dropped unclosed.

// How many handles the collector freed: read by the tests, nothing else.
const stats = { collected: 0 };

const registry = new FinalizationRegistry(({ free, pointer }) => {
  stats.collected++;
  free(pointer);
});

class Handle {
  constructor(owner, pointer, free, what) {
    this.pointer = pointer;
    this.free = free;
    this.what = what;
    registry.register(owner, { free, pointer }, this);
  }

  /** The live pointer; throws once closed. */
  get() {
    if (this.pointer === null) throw new Error(`slicc-scrub: this ${this.what} is closed`);
    return this.pointer;
  }

  get closed() {
    return this.pointer === null;
  }

  close() {
    if (this.pointer === null) return;
    registry.unregister(this);
    const pointer = this.pointer;
    this.pointer = null;
    this.free(pointer);
  }
}

module.exports = { Handle, stats };
