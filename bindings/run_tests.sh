#!/usr/bin/env bash
# Installs the C library into a prefix (build/prefix, as a user would: the
# root CMakeLists.txt), then runs the tests of every binding against what is
# installed, each of which runs vectors/vectors.json at every split point and
# one byte at a time (and vectors/idle.json): the C++ wrapper (CMake
# find_package + ctest), Python (the package pip-installed into a fresh
# virtual environment, its tests run from outside the checkout) and Go
# (pkg-config through PKG_CONFIG_PATH, shared and static link, and a module
# outside the repository), Kotlin (kotlinc + JNA) and Node.js (koffi, node
# --test). Fails on the first failure.
#
#   bash bindings/run_tests.sh          # from anywhere; works from the repo root
#
# Needs: cargo, cmake (3.20+), pkg-config, a C++17 compiler, python3 (3.8+)
# with venv, go (1.19+), kotlinc and JNA (Debian's kotlin, libjna-java),
# node (18+) and npm; the Python build fetches its pinned build backend
# (setuptools, setuptools-rust) from PyPI.
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
need pkg-config "apt-get install pkg-config"
need c++ "apt-get install g++"
need python3 "apt-get install python3"
need go "apt-get install golang-go"
need kotlinc "apt-get install kotlin libjna-java"
need node "apt-get install nodejs npm"

# The C library, installed as a user would (the same build as
# capi/tests/c/run_package.sh).
step "C library: install into build/prefix"
prefix="$root/build/prefix"
bash capi/tests/c/install.sh "$prefix"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg-config --modversion slicc_scrub

step "C++: include/slicc_scrub.hpp (tests/cpp, find_package from the prefix, ctest)"
cmake -S tests/cpp -B build/cpp -DCMAKE_BUILD_TYPE=Release -DSLICC_SCRUB_USE_PACKAGE=ON \
    -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build build/cpp --parallel 2
(cd build/cpp && ctest --output-on-failure -V) | grep -E '^[0-9]+: |tests passed|tests failed|Test #'

step "Python: pip install ./bindings/python into a fresh venv, tests from outside the checkout"
venv="$(mktemp -d)"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./bindings/python
rm -rf bindings/python/build bindings/python/src/*.egg-info # pip's in-tree leftovers
(cd "$venv" && "$venv/bin/python" -m unittest discover -s "$root/bindings/python/tests" -v)
rm -rf "$venv"

step "Go: bindings/go/scrub (go test, pkg-config through PKG_CONFIG_PATH)"
cd bindings/go/scrub
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local # no downloads: the package has no dependencies
# The shared library of a prefix the dynamic loader does not search.
export LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unformatted="$(gofmt -l .)"
if [ -n "$unformatted" ]; then
    echo "error: gofmt would change: $unformatted" >&2
    exit 1
fi
go version
go vet ./...
go test -count=1 -v ./... | grep -E '^(--- |ok |FAIL|PASS$|panic:)|^ +[a-z_]+\.go:[0-9]+:'
echo "-- static link (-tags slicc_scrub_static), with no LD_LIBRARY_PATH: no run-time dependency"
env -u LD_LIBRARY_PATH go test -count=1 -tags slicc_scrub_static ./...
cd "$root"

step "Kotlin: bindings/kotlin (kotlinc, JNA)"
bash bindings/kotlin/run_tests.sh "$prefix/lib" "$root/build/kotlin"

step "Node.js: bindings/node (koffi, node --test)"
bash bindings/node/run_tests.sh "$prefix/lib"

step "bindings: all passed"
