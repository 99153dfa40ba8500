#!/usr/bin/env bash
# Runs the Node.js binding's tests (node --test) against a built library.
#
#   bash bindings/node/run_tests.sh LIB   # LIB: the library file or its folder
#
# Needs node (18+) and npm; installs koffi and TypeScript from
# package-lock.json (npm ci) when either is missing. index.d.ts is checked
# by compiling test/types (tsc --noEmit), with and without a `lib` that
# has Symbol.dispose.
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 LIBRARY_FILE_OR_FOLDER" >&2
    exit 2
fi
lib="$(realpath "$1")" # before the cd below: the path may be relative
cd "$(dirname "$0")"
[ -d node_modules/koffi ] && [ -d node_modules/typescript ] || npm ci --no-audit --no-fund
node --version
node_modules/.bin/tsc -p test/types/tsconfig.json
node_modules/.bin/tsc -p test/types/tsconfig.es2020.json
SLICC_SCRUB_LIB="$lib" node --test test/*.test.js
