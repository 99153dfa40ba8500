// slicc-scrub for Node.js: TypeScript declarations of index.js.

// Symbol.dispose for a project whose `lib` predates it (as @types/node
// declares it): close() is there under that name at run time where the
// runtime has the symbol.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** A secret: its name (1 to 128 bytes of A-Z a-z 0-9 _ - .), value and optional placeholder. */
export interface Secret {
  name: string;
  /** The value's UTF-8 bytes (a string) or any bytes; 8 to 65,536 bytes. */
  value: string | Uint8Array;
  /** What replaces a raw match; absent or empty: `[redacted:<name>]`. At most 1,024 bytes. */
  placeholder?: string | Uint8Array | null;
}

export interface CompileOptions {
  /** The rules version: must be RULES_VERSION of the library, or compile throws. */
  version: number;
  /** Replace every match by as many `*` as it spans, keeping CR and LF. Default false. */
  sameLength?: boolean;
}

export type Form = 'raw' | 'fragment' | 'json' | 'percent' | 'html' | 'base64' | 'hex' | 'wrapped';

/** How often a secret was found in a form. Never a value. */
export interface Hit {
  name: string;
  form: Form;
  count: number;
}

export interface Result<T> {
  output: T;
  hits: Hit[];
}

export declare class Stream {
  private constructor();
  /** Returns every byte, scrubbed, that can no longer be part of a match; holds back the rest. */
  push(chunk: Uint8Array): Uint8Array;
  /** Call after IDLE_MS without input: releases what is held when fewer than FRAGMENT bytes are. */
  idle(): Uint8Array;
  /** Scrubs and returns everything held; push, idle and end then throw (STREAM_ENDED). */
  end(): Uint8Array;
  /** Totals of the stream so far; still readable after end(). */
  readonly hits: Hit[];
  /** How many bytes are held back, waiting for more input; 0 once ended. */
  readonly held: number;
  /** Frees the stream without end() (held bytes are dropped). end() frees it too. */
  close(): void;
  /** close(), for `using` (where the runtime has Symbol.dispose). */
  [Symbol.dispose](): void;
}

export declare class Scrubber {
  private constructor();
  bytes(input: Uint8Array): Result<Uint8Array>;
  /** Scrubs the string's UTF-8 bytes; a broken sequence in the output decodes as U+FFFD. */
  text(input: string): Result<string>;
  stream(): Stream;
  /** Frees the compiled secrets (also done by the garbage collector, later). Streams go on. */
  close(): void;
  readonly closed: boolean;
  /** close(), for `using` (where the runtime has Symbol.dispose). */
  [Symbol.dispose](): void;
}

/** Compiles the secrets; throws a ScrubError (or a TypeError for wrong types). */
export declare function compile(secrets: readonly Secret[], options: CompileOptions): Scrubber;

export declare const Status: Readonly<{
  OK: 0;
  NULL_ARGUMENT: 1;
  INVALID_ARGUMENT: 2;
  PANIC: 3;
  STREAM_ENDED: 4;
  STREAM_POISONED: 5;
  INDEX_OUT_OF_RANGE: 6;
  UNSUPPORTED_OPTIONS: 7;
  UNSUPPORTED_VERSION: 100;
  INVALID_NAME: 101;
  DUPLICATE_NAME: 102;
  VALUE_TOO_SHORT: 103;
  VALUE_TOO_LONG: 104;
  PLACEHOLDER_TOO_LONG: 105;
  PLACEHOLDER_LEAKS: 106;
  REDACTION_LEAKS: 107;
  TOO_LARGE: 108;
  INVALID_JSON: 200;
  INVALID_SECRETS_JSON: 201;
}>;

/** A failure of the library: its status and a message that never holds a value or placeholder. */
export declare class ScrubError extends Error {
  readonly status: number;
  /** The status's name ("STREAM_ENDED", ...), or "UNKNOWN". */
  readonly code: keyof typeof Status | 'UNKNOWN';
}

/** The rules version of the loaded library. */
export declare const RULES_VERSION: number;
export declare const FRAGMENT: 16;
export declare const MIN_VALUE: 8;
export declare const MAX_VALUE: 65536;
export declare const MAX_PLACEHOLDER: 1024;
export declare const MAX_NAME: 128;
export declare const IDLE_MS: 50;
export declare const FORMS: readonly Form[];
export declare function version(): string;
export declare const libraryPath: string;
