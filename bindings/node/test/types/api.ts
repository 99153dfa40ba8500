// Type-checked, not run (tsc --noEmit, run_tests.sh): index.d.ts describes
// what index.js has, and wrong uses are type errors.
import {
  compile,
  FORMS,
  RULES_VERSION,
  ScrubError,
  Status,
  type Form,
  type Hit,
  type Result,
  type Scrubber,
  type Stream,
} from '../../index.js';

const bytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

const scrubber: Scrubber = compile([{ name: 'API_KEY', value: 'sk-live-7f3a9c2e5b', placeholder: null }], {
  version: RULES_VERSION,
  sameLength: false,
});
const whole: Result<Uint8Array> = scrubber.bytes(bytes('key=sk-live-7f3a9c2e5b'));
const text: Result<string> = scrubber.text('key=sk-live-7f3a9c2e5b');
const firstForm: Form | undefined = whole.hits[0]?.form;
const forms: readonly Form[] = FORMS;

const stream: Stream = scrubber.stream();
const out: Uint8Array[] = [stream.push(bytes('key=sk-live')), stream.idle()];
const held: number = stream.held;
out.push(stream.end());
const hits: Hit[] = stream.hits;
stream[Symbol.dispose]();
scrubber[Symbol.dispose]();

try {
  compile([], { version: 3 });
} catch (err) {
  if (err instanceof ScrubError && err.status === Status.UNSUPPORTED_VERSION) {
    const code: keyof typeof Status | 'UNKNOWN' = err.code;
    void code;
  }
}

// @ts-expect-error a chunk is bytes, not a string
stream.push('key');
// @ts-expect-error the rules version is required
compile([], {});
// @ts-expect-error held is read only
stream.held = 0;
// @ts-expect-error a hit's form is one of FORMS
const notAForm: Form = 'base32';

void [whole, text, firstForm, forms, out, held, hits, notAForm];
