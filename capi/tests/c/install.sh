#!/usr/bin/env bash
# Builds the C library with the root CMakeLists.txt and installs it into a
# prefix (default build/prefix), as a user would:
#
#   cmake -S . -B build/c && cmake --build build/c --target slicc_scrub_cargo
#   cmake --install build/c --prefix PREFIX
#
# The build directory is shared with run_sanitizers.sh (configured as it
# left it). Prints nothing but cmake's own output; the prefix then holds
# include/, lib/ (libraries, cmake/slicc_scrub/, pkgconfig/).
#
#   bash capi/tests/c/install.sh [PREFIX]      # from anywhere
set -euo pipefail
cd "$(dirname "$0")/../../.."
build="${SLICC_SCRUB_BUILD_DIR:-build}"
prefix="${1:-$PWD/$build/prefix}"
rm -rf "$prefix"
cmake -S . -B "$build/c" -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$build/c" --parallel 2 --target slicc_scrub_cargo
cmake --install "$build/c" --prefix "$prefix" >/dev/null
