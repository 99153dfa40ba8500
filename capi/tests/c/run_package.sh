#!/usr/bin/env bash
# Installs the C library (static and shared, header, CMake package,
# pkg-config files) into a fresh prefix and checks its layout (the versioned
# shared library, its SONAME by readelf -d, the links, the module map), then
# builds and runs the consumer project examples/c/ against the installed
# package: with CMake (find_package(slicc_scrub CONFIG REQUIRED),
# slicc_scrub::slicc_scrub) once shared and once static, hello.c with
# pkg-config, shared and static, and the C++ example examples/cpp/.
# The consumer's ctest includes prompt_latency: a prompt without a newline
# must get through scrub_run (a child process forwarded through a stream,
# scrub_stream_idle after SCRUB_IDLE_MS) in about SCRUB_IDLE_MS.
#
# Run from anywhere; builds in build/ (SLICC_SCRUB_BUILD_DIR overrides it).
# Needs: a Rust toolchain, a C compiler, `apt-get install -y cmake pkg-config`.
set -euo pipefail
cd "$(dirname "$0")/../../.."

build="${SLICC_SCRUB_BUILD_DIR:-build}"
for tool in cmake ctest pkg-config cargo cc; do
    if ! command -v "$tool" >/dev/null; then
        echo "run_package.sh: $tool is missing (apt-get install -y cmake pkg-config)" >&2
        exit 1
    fi
done
prefix="$PWD/$build/prefix"
passed=0
rm -rf "$prefix" "$build/consumer-shared" "$build/consumer-static" "$build/consumer-cpp" "$build/pkgconfig"

# The library: configured as by run_sanitizers.sh when it ran before, so the
# two share one build.
bash capi/tests/c/install.sh "$prefix"

# The layout a distribution packages (cargo-c's): on ELF systems
# libslicc_scrub.so.X.Y.Z, its SONAME libslicc_scrub.so.<soversion>
# (0.<minor> before 1.0, <major> after) and libslicc_scrub.so as links.
version="$(sed -n 's/^version = "\([0-9.]*\)"$/\1/p' Cargo.toml | head -n 1)"
major="${version%%.*}"
minor="${version#*.}"
minor="${minor%%.*}"
if [ "$major" = 0 ]; then soversion="0.$minor"; else soversion="$major"; fi
pc_dir="$(dirname "$(find "$prefix" -name slicc_scrub.pc | head -n 1)")"
lib_dir="$(dirname "$pc_dir")"
for file in include/slicc_scrub.h include/slicc_scrub.hpp include/slicc_scrub/module.modulemap; do
    [ -f "$prefix/$file" ] || { echo "run_package.sh: $file is not installed" >&2; exit 1; }
done
[ -f "$lib_dir/libslicc_scrub.a" ] || { echo "run_package.sh: libslicc_scrub.a is not installed" >&2; exit 1; }
if [ "$(uname -s)" = Linux ]; then
    real="$lib_dir/libslicc_scrub.so.$version"
    [ -f "$real" ] && [ ! -L "$real" ] || { echo "run_package.sh: $real is not a file" >&2; exit 1; }
    [ "$(readlink "$lib_dir/libslicc_scrub.so.$soversion")" = "libslicc_scrub.so.$version" ] &&
        [ "$(readlink "$lib_dir/libslicc_scrub.so")" = "libslicc_scrub.so.$soversion" ] ||
        { echo "run_package.sh: the links to $real are missing or wrong" >&2; exit 1; }
    soname="$(readelf -d "$real" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')"
    if [ "$soname" != "libslicc_scrub.so.$soversion" ]; then
        echo "run_package.sh: SONAME is '$soname', want libslicc_scrub.so.$soversion" >&2
        exit 1
    fi
    echo "installed: libslicc_scrub.so.$version, SONAME $soname (readelf -d), links libslicc_scrub.so.$soversion and libslicc_scrub.so"
    passed=$((passed + 1))
fi

# CMake consumers.
for kind in shared static; do
    static=OFF
    [ "$kind" = static ] && static=ON
    cmake -S examples/c -B "$build/consumer-$kind" -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_PREFIX_PATH="$prefix" -DSLICC_SCRUB_USE_STATIC="$static"
    cmake --build "$build/consumer-$kind" --parallel 2
    if command -v ldd >/dev/null; then
        if ldd "$build/consumer-$kind/hello" | grep slicc_scrub >/dev/null; then linked=shared; else linked=static; fi
        if [ "$linked" != "$kind" ]; then
            echo "run_package.sh: the $kind consumer linked the $linked library" >&2
            exit 1
        fi
    fi
    log="$build/consumer-$kind/ctest.log"
    if ! ctest --test-dir "$build/consumer-$kind" --output-on-failure --no-tests=error -V \
        >"$log" 2>&1; then
        cat "$log"
        echo "run_package.sh: the $kind CMake consumer failed" >&2
        exit 1
    fi
    echo "CMake consumer ($kind):"
    grep -E '^[0-9]+: prompt|tests passed' "$log"
    passed=$((passed + 1))
done

# pkg-config consumers.
export PKG_CONFIG_PATH="$pc_dir"
mkdir -p "$build/pkgconfig"
flags=(-std=c99 -Wall -Wextra -Werror -pedantic)
# shellcheck disable=SC2046
cc "${flags[@]}" examples/c/hello.c -o "$build/pkgconfig/hello_shared" \
    $(pkg-config --cflags --libs slicc_scrub) \
    -Wl,-rpath,"$(pkg-config --variable=libdir slicc_scrub)"
# shellcheck disable=SC2046
cc "${flags[@]}" examples/c/hello.c -o "$build/pkgconfig/hello_static" \
    $(pkg-config --cflags --libs slicc_scrub-static)
for kind in shared static; do
    "$build/pkgconfig/hello_$kind" | tail -n 1 | grep -qx ok
    passed=$((passed + 1))
done
if command -v ldd >/dev/null && ldd "$build/pkgconfig/hello_static" | grep slicc_scrub >/dev/null; then
    echo "run_package.sh: hello_static links the shared library" >&2
    exit 1
fi
echo "pkg-config consumers: ok (shared and static)"

# The C++ example (include/slicc_scrub.hpp) from the installed package.
cmake -S examples/cpp -B "$build/consumer-cpp" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_PREFIX_PATH="$prefix"
cmake --build "$build/consumer-cpp" --parallel 2
ctest --test-dir "$build/consumer-cpp" --output-on-failure --no-tests=error | tail -n 1
passed=$((passed + 1))
echo "run_package: $passed passed, 0 failed"
