#!/usr/bin/env bash
# Builds the C test harness (capi/tests/c/) with CMake and runs it with ctest:
# plain (static and shared library), under AddressSanitizer +
# UndefinedBehaviorSanitizer, and under valgrind (memcheck, full leak check;
# any error or leak fails). Every test runs every vector of
# vectors/vectors.json at every split point and one byte at a time, plus the
# misuse and thread tests.
#
# Run from anywhere; builds in build/c (SLICC_SCRUB_BUILD_DIR overrides build/).
# Needs: a Rust toolchain, a C compiler with libasan/libubsan (Debian's gcc),
# and `apt-get install -y cmake valgrind`.
set -euo pipefail
cd "$(dirname "$0")/../../.."

build="${SLICC_SCRUB_BUILD_DIR:-build}"
for tool in cmake ctest valgrind cargo cc; do
    if ! command -v "$tool" >/dev/null; then
        echo "run_sanitizers.sh: $tool is missing (apt-get install -y cmake valgrind)" >&2
        exit 1
    fi
done

cmake -S . -B "$build/c" -DCMAKE_BUILD_TYPE=Debug \
    -DSLICC_SCRUB_TESTS=ON -DSLICC_SCRUB_SANITIZERS=ON -DSLICC_SCRUB_VALGRIND=ON \
    -DSLICC_SCRUB_VECTORS="${SLICC_SCRUB_VECTORS:-$PWD/vectors/vectors.json}" \
    -DSLICC_SCRUB_IDLE_VECTORS="${SLICC_SCRUB_IDLE_VECTORS:-$PWD/vectors/idle.json}"
cmake --build "$build/c" --parallel 2
ctest --test-dir "$build/c" --output-on-failure --no-tests=error
# What the harness ran, from ctest's log.
grep -E '^(vectors|idle): [0-9]+ cases|^[0-9]+ passed, [0-9]+ failed' \
    "$build/c/Testing/Temporary/LastTest.log" | sort | uniq -c
