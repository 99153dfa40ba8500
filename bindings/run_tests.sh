#!/usr/bin/env bash
# Builds the library, then runs the tests of every binding, each of which
# runs vectors/vectors.json at every split point and one byte at a time (and
# vectors/idle.json): the C++ wrapper (CMake + ctest), Python (unittest) and
# Go (go test, shared and static link), Kotlin (kotlinc + JNA) and Node.js
# (koffi, node --test). Fails on the first failure.
#
#   bash bindings/run_tests.sh          # from anywhere; works from the repo root
#
# Needs: cargo, cmake (3.16+), a C++17 compiler, python3 (3.8+), go (1.19+),
# kotlinc and JNA (Debian's kotlin, libjna-java), node (18+) and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

step() { printf '\n== %s\n' "$*"; }
need() {
    if ! command -v "$1" >/dev/null 2>&1; then
        echo "error: $1 is not installed ($2)" >&2
        exit 1
    fi
}
need cargo "install Rust"
need cmake "apt-get install cmake"
need c++ "apt-get install g++"
need python3 "apt-get install python3"
need go "apt-get install golang-go"
need kotlinc "apt-get install kotlin libjna-java"
need node "apt-get install nodejs npm"

# The library alone, with the flags the root CMakeLists.txt uses, so the two
# share one build in target/release instead of rebuilding each other's.
step "cargo build --release --lib --no-default-features"
cargo build --release --lib --locked --no-default-features
lib_dir="$root/target/release"

step "C++: include/slicc_scrub.hpp (tests/cpp, ctest)"
cmake -S tests/cpp -B target/cpp -DCMAKE_BUILD_TYPE=Release -DSLICC_SCRUB_LIB_DIR="$lib_dir" >/dev/null
cmake --build target/cpp --parallel 2
(cd target/cpp && ctest --output-on-failure -V) | grep -E '^[0-9]+: |tests passed|tests failed|Test #'

step "Python: bindings/python (unittest)"
SLICC_SCRUB_LIB="$lib_dir" python3 -m unittest discover -s bindings/python -v

step "Go: bindings/go/scrub (go test)"
cd bindings/go/scrub
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local # no downloads: the package has no dependencies
unformatted="$(gofmt -l .)"
if [ -n "$unformatted" ]; then
    echo "error: gofmt would change: $unformatted" >&2
    exit 1
fi
go version
go vet ./...
go test -count=1 -v ./... | grep -E '^(--- |ok |FAIL|PASS$|panic:)|^ +[a-z_]+\.go:[0-9]+:'
echo "-- static link (-tags slicc_scrub_static)"
go test -count=1 -tags slicc_scrub_static ./...
cd "$root"

step "Kotlin: bindings/kotlin (kotlinc, JNA)"
bash bindings/kotlin/run_tests.sh "$lib_dir" "$root/target/kotlin"

step "Node.js: bindings/node (koffi, node --test)"
bash bindings/node/run_tests.sh "$lib_dir"

step "bindings: all passed"
