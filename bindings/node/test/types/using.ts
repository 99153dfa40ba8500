// `using` frees a scrubber and a stream at the end of the block (lib
// esnext.disposable; type-checked only).
import { compile, RULES_VERSION } from '../../index.js';

export function scrubbed(input: Uint8Array): Uint8Array {
  using scrubber = compile([{ name: 'API_KEY', value: 'sk-live-7f3a9c2e5b' }], { version: RULES_VERSION });
  using stream = scrubber.stream();
  const head = stream.push(input);
  const tail = stream.end();
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}
